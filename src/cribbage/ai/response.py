"""The best play against a modelled opponent whose cards are known only as a belief.

Two players.  The searching player knows its own cards; of the opponent's it has a *belief*: a
list of :class:`Particle` (the ranks the opponent may hold, with a weight; see
:mod:`cribbage.ai.belief`).  The opponent is modelled as the players most people are: it plays
the card that scores most now and avoids leaving 5 or 21 (:func:`greedy_ranks`), so what it plays
follows from what it holds.  Given a :class:`~cribbage.ai.playmodel.PlayModel` (learned from the
opponent's hands), the opponent's next card is drawn by the model's chances instead and its later
ones are the model's best.

:class:`BestResponse` finds the best strategy for the rest of the play *as the player can carry it
out*: its later choices may depend only on what it will have seen (the opponent's cards and
goes), never on the opponent's hidden cards.  The recursion does this by splitting the belief
each time the opponent shows something, so every branch holds exactly the hands that agree with
what was seen (an exact solution of the partially observed play, where sampling every hand and
searching each as if it were known would assume the player learns the hand at once).

:class:`MultiResponse` does the same with three or four players (the play uses it with three),
over a belief of *joint* guesses (the ranks every other seat holds): each other seat is modelled
as the points-taker, and the belief splits on every card or go of any of them.

Values are either points (the player's pegging minus the opponent's) or, with a :class:`Race`,
chances of winning the game: reaching the target in the play wins at once, then the show is
counted in order (the pone's hand, the dealer's hand, the crib), and a game that goes on is
valued by a table of winning chances (:mod:`cribbage.ai.winning`).

>>> solver = BestResponse()
>>> belief = [Particle((10, 10), 1.0), Particle((5, 9), 1.0)]  # two tens, or a 5 and a 9
>>> solver.values(belief, mine=(5, 6))  # lead 5: -4 or -3; lead 6: -2 or -5
{5: -3.5, 6: -3.5}
>>> solver.values([Particle((10, 10), 1.0)], mine=(5, 6))
{5: -4.0, 6: -2.0}
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from .playmodel import PlayModel
from .search import VALUE, greedy_gain, play_points_of_ranks

__all__ = ["BestResponse", "Joint", "MultiResponse", "Particle", "Race", "greedy_ranks"]

_GREEDY: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
_GREEDY_LIMIT: Final = 300_000
_SPREAD: Final = 0.6180339887
"""The step of the sequence that draws the opponent's cards (the golden ratio: evenly spread)."""


class Particle(NamedTuple):
    """One guess at the opponent's cards.

    Attributes:
        hand: the ranks it holds now, sorted.
        weight: how likely the guess is (relative to the others).
        show: with a race, the points its hand will show (0 otherwise).
        crib: with a race, the points the crib will show (0 otherwise).
    """

    hand: tuple[int, ...]
    weight: float
    show: int = 0
    crib: int = 0


def greedy_ranks(hand: tuple[int, ...], seq: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The ranks a points-taking player holding ``hand`` plays on ``seq`` (``count``), tied best.

    As :func:`cribbage.ai.search.greedy_gain` rates them: most points now, less a penalty for
    leaving 5 or 21; a lead under 5 first; then the higher card.  Only cards of the same pip
    value can tie (a ten and a king, say).

    >>> greedy_ranks((2, 5, 9), (10,), 10), greedy_ranks((2, 9, 13), (), 0), greedy_ranks((11, 12), (5,), 5)
    ((5,), (2,), (11, 12))
    """
    key = (hand, seq)
    got = _GREEDY.get(key)
    if got is not None:
        return got
    best = -1e9
    tops: list[int] = []
    previous = 0
    for rank in hand:
        if rank == previous:
            continue
        previous = rank
        total = count + VALUE[rank]
        if total > 31:
            break
        gain = greedy_gain(seq, rank, total)
        if gain > best + 1e-9:
            best, tops = gain, [rank]
        elif gain > best - 1e-9:
            tops.append(rank)
    if len(_GREEDY) > _GREEDY_LIMIT:
        _GREEDY.clear()
    got = _GREEDY[key] = tuple(tops)
    return got


def _playable(hand: tuple[int, ...], count: int) -> Iterator[tuple[int, int]]:
    """Each rank of ``hand`` (sorted) that can be played at ``count``, once, with the count it makes."""
    previous = 0
    for rank in hand:
        if rank == previous:
            continue
        previous = rank
        total = count + VALUE[rank]
        if total > 31:
            return
        yield rank, total


def _without(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


@dataclass(frozen=True, slots=True)
class Race:
    """The scores when the game may end in this hand, to play for the win rather than points.

    Attributes:
        mine, theirs: the player's and the opponent's scores now.
        target: the game hole.
        dealer: whether the player dealt this hand (the opponent then counts first).
        show: the points the player's own hand will show.
        after: the chance that the player wins when the hand ends with scores (mine, theirs)
            and nobody has reached the target.
    """

    mine: int
    theirs: int
    target: int
    dealer: bool
    show: int
    after: Callable[[int, int], float]

    def end(self, mine: int, theirs: int, show: int, crib: int) -> float:
        """The chance of winning after the play, with the show still to count (the opponent's
        hand shows ``show`` and the crib ``crib``)."""
        target = self.target
        if self.dealer:  # the opponent's hand first, then the player's hand and crib
            theirs += show
            if theirs >= target:
                return 0.0
            mine += self.show
            if mine >= target:
                return 1.0
            mine += crib
            if mine >= target:
                return 1.0
        else:
            mine += self.show
            if mine >= target:
                return 1.0
            theirs += show
            if theirs >= target:
                return 0.0
            theirs += crib
            if theirs >= target:
                return 0.0
        return self.after(mine, theirs)


Guess = tuple[tuple[int, ...], float, int, int]
"""A :class:`Particle` as a plain tuple (hand, weight, show, crib): the recursion builds many."""
Belief = Sequence[Guess]


class BestResponse:
    """Solves the rest of the play for one player against a modelled opponent over a belief.

    Args:
        one_count: the play ends at the first go or 31 (five-card cribbage).
        race: play for the win with these scores; ``None`` counts points.
        model: how the opponent chooses its card; ``None`` is :func:`greedy_ranks`, exactly.

    :meth:`values` gives, for each rank the player can play now, its value: the expected points
    from here to the end of the play (the player's minus the opponent's, the card's own points
    included) or, with a race, the chance of winning the game.
    """

    def __init__(
        self, *, one_count: bool = False, race: Race | None = None, model: PlayModel | None = None
    ) -> None:
        self.one_count = one_count
        self.race = race
        self.model = model
        self._next_size = 0
        self.nodes = 0

    def values(
        self,
        belief: Belief,
        mine: tuple[int, ...],
        seq: tuple[int, ...] = (),
        ranks: Collection[int] | None = None,
    ) -> dict[int, float]:
        """The value of each rank of ``mine`` (sorted) playable on ``seq``, when it is the
        player's turn (only of ``ranks``, when given)."""
        count = sum(VALUE[r] for r in seq)
        total = _weight(belief)
        self._next_size = len(belief[0][0]) if belief else 0
        if not belief or total <= 0:
            raise ValueError("the belief holds no possible hand")
        gained = self._start()
        out: dict[int, float] = {}
        for rank in sorted(set(mine)):
            if count + VALUE[rank] <= 31 and (ranks is None or rank in ranks):
                after = (*seq, rank)
                value = self._played(belief, _without(mine, rank), after, count + VALUE[rank], True, gained)
                out[rank] = value / total
        return out

    def lead_value(self, belief: Belief, mine: tuple[int, ...]) -> float:
        """The value of the play when the opponent leads (the player is the dealer)."""
        self._next_size = len(belief[0][0])
        return self._their_turn(belief, mine, (), 0, self._start()) / _weight(belief)

    def _start(self) -> tuple[int, int]:
        race = self.race
        return (race.mine, race.theirs) if race else (0, 0)

    # ------------------------------------------------------------------ the recursion
    # Every method returns a *total*: the sum over the belief's guesses of weight times value.
    # ``gained`` is (the player's, the opponent's) points so far: pegged in this play, or with a
    # race the scores themselves.

    def _played(
        self,
        belief: Belief,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        count: int,
        by_me: bool,
        gained: tuple[int, int],
    ) -> float:
        """After the last rank of ``seq`` was played (by the player when ``by_me``): peg it, go on."""
        points = play_points_of_ranks(seq)
        if points:
            gained = (gained[0] + points, gained[1]) if by_me else (gained[0], gained[1] + points)
            race = self.race
            if race is not None and gained[0 if by_me else 1] >= race.target:
                return _weight(belief) if by_me else 0.0
        if count == 31:
            return self._next_count(belief, mine, by_me, gained)
        limit = 31 - count
        i_can = bool(mine) and VALUE[mine[0]] <= limit
        if not by_me and i_can:
            return self._my_turn(belief, mine, seq, count, gained)
        can: list[Guess] = []
        cannot: list[Guess] = []
        for p in belief:
            hand = p[0]
            (can if hand and VALUE[hand[0]] <= limit else cannot).append(p)
        total = self._their_turn(can, mine, seq, count, gained) if can else 0.0
        if cannot:
            if by_me and i_can:  # the opponent says go; the player plays on
                total += self._my_turn(cannot, mine, seq, count, gained)
            else:  # nobody can play: a go, or the last card, for the last player
                total += self._go(cannot, mine, by_me, gained)
        return total

    def _go(self, belief: Belief, mine: tuple[int, ...], by_me: bool, gained: tuple[int, int]) -> float:
        gained = (gained[0] + 1, gained[1]) if by_me else (gained[0], gained[1] + 1)
        race = self.race
        if race is not None and gained[0 if by_me else 1] >= race.target:
            return _weight(belief) if by_me else 0.0
        return self._next_count(belief, mine, by_me, gained)

    def _next_count(
        self, belief: Belief, mine: tuple[int, ...], by_me: bool, gained: tuple[int, int]
    ) -> float:
        """The count starts again (after 31 or a go) with the next player holding cards."""
        theirs_left = bool(belief[0][0])  # every guess holds as many cards
        if self.one_count or not (mine or theirs_left):
            return self._end(belief, gained)
        if (by_me and theirs_left) or not mine:
            return self._their_turn(belief, mine, (), 0, gained)
        return self._my_turn(belief, mine, (), 0, gained)

    def _my_turn(
        self, belief: Belief, mine: tuple[int, ...], seq: tuple[int, ...], count: int, gained: tuple[int, int]
    ) -> float:
        """The player's turn (it can play): the best of its ranks, the same for every hand it may face."""
        self.nodes += 1
        best = -1e18
        for rank, total in _playable(mine, count):
            value = self._played(belief, _without(mine, rank), seq + (rank,), total, True, gained)  # noqa: RUF005
            if value > best:
                best = value
        return best

    def _their_turn(
        self, belief: Belief, mine: tuple[int, ...], seq: tuple[int, ...], count: int, gained: tuple[int, int]
    ) -> float:
        """The opponent's turn (every hand of ``belief`` can play): split by the card it plays."""
        model = self.model
        if model is not None and len(belief[0][0]) >= self._next_size:
            return self._their_choice(model, belief, mine, seq, count, gained)
        groups: dict[int, list[Guess]] = {}
        for hand, weight, show, crib in belief:
            tops = greedy_ranks(hand, seq, count) if model is None else model.tops(hand, seq, count)
            if len(tops) == 1:
                rank = tops[0]
                group = groups.get(rank)
                if group is None:
                    group = groups[rank] = []
                group.append((_without(hand, rank), weight, show, crib))
            else:  # cards of the same pip value that score alike: either, evenly
                share = weight / len(tops)
                for rank in tops:
                    groups.setdefault(rank, []).append((_without(hand, rank), share, show, crib))
        total = 0.0
        for rank, group in groups.items():
            total += self._played(group, mine, seq + (rank,), count + VALUE[rank], False, gained)  # noqa: RUF005
        return total

    def _their_choice(
        self,
        model: PlayModel,
        belief: Belief,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        count: int,
        gained: tuple[int, int],
    ) -> float:
        """The opponent's next card, as likely as the model has it.

        Each guess plays one card, drawn by the model's chances (in a fixed, evenly spread
        sequence, so the values do not change from run to run): the guesses then split as they
        do by the model's best card, and the solver's work stays the same.
        """
        groups: dict[int, list[Guess]] = {}
        u = 0.0
        for hand, weight, show, crib in belief:
            u = (u + _SPREAD) % 1.0
            shares = model.shares(hand, seq, count)
            rank = shares[-1][0]
            left = u
            for r, p in shares:
                left -= p
                if left < 0:
                    rank = r
                    break
            groups.setdefault(rank, []).append((_without(hand, rank), weight, show, crib))
        total = 0.0
        for rank, group in groups.items():
            total += self._played(group, mine, seq + (rank,), count + VALUE[rank], False, gained)  # noqa: RUF005
        return total

    def _end(self, belief: Belief, gained: tuple[int, int]) -> float:
        race = self.race
        if race is None:
            return (gained[0] - gained[1]) * _weight(belief)
        mine, theirs = gained
        return sum(p[1] * race.end(mine, theirs, p[2], p[3]) for p in belief)


def _weight(belief: Sequence[tuple[Any, ...]]) -> float:
    total = 0.0
    for p in belief:
        total += p[1]
    return total


Joint = tuple[tuple[tuple[int, ...], ...], float]
"""A guess at every other seat's ranks now (by seat, sorted; the player's own entry empty) and
its weight."""


class MultiResponse:
    """Solves the rest of the play for one seat of three or four against modelled others.

    Args:
        players: seats at the table.
        sides: the side of each seat (partners share a side).
        seat: the searching seat.
        one_count: the play ends at the first go or 31 (five-card cribbage).
        opponent_weight: what a point of another side is worth against one of the player's own
            (1/2 with three players, :func:`cribbage.ai.discard.opponent_weight`).
        depth: how many cards to look ahead (points beyond count nothing), as
            :class:`~cribbage.ai.search.PlaySearch` counts them.
        model: how the other seats choose their card; ``None`` is :func:`greedy_ranks`.

    Every other seat, the partner too, plays the card the model gives: a partner playing its
    best with every hand in view would know more than the player can use (the player's later
    choices may depend only on what it has seen), and the points-taker is what people are.
    The rules of the play are those of :class:`~cribbage.ai.search.PlaySearch`: after a card
    the next seat that can play plays; when nobody can, the last player pegs one and the count
    starts again with the next seat holding cards.  The belief splits each time a seat plays
    or says go, so every choice of the player depends only on what it will have seen.

    >>> solver = MultiResponse(3, (0, 1, 2), 0, opponent_weight=0.5)
    >>> belief = [(((), (10,), (5,)), 1.0), (((), (5,), (10,)), 1.0)]  # a ten and a five: who has which?
    >>> solver.values(belief, mine=(5, 6))  # 5: a 15 or a pair against (-1), the last card (+1)
    {5: 0.0, 6: 2.0}
    >>> solver.values(belief[:1], mine=(5, 6))  # 6, 10, 5, then the player's 5 pairs: 2 and the last card
    {5: 0.0, 6: 3.0}
    """

    def __init__(
        self,
        players: int,
        sides: Sequence[int],
        seat: int,
        *,
        one_count: bool = False,
        opponent_weight: float = 1.0,
        depth: int = 99,
        model: PlayModel | None = None,
    ) -> None:
        self.players = players
        self.seat = seat
        self.gains = tuple(1.0 if s == sides[seat] else -opponent_weight for s in sides)
        self.one_count = one_count
        self.depth = depth
        self.model = model
        self.nodes = 0

    def values(
        self, belief: Sequence[Joint], mine: tuple[int, ...], seq: tuple[int, ...] = ()
    ) -> dict[int, float]:
        """The value of each rank of ``mine`` (sorted) playable on ``seq``, when it is the
        player's turn: the expected points to the end of the play (or the horizon), its side's
        less every other side's (weighed), the card's own points included."""
        total = _check(belief)
        count = sum(VALUE[r] for r in seq)
        out: dict[int, float] = {}
        for rank in sorted(set(mine)):
            if count + VALUE[rank] <= 31:
                after = (*seq, rank)
                value = self._played(
                    belief, _without(mine, rank), self.seat, after, count + VALUE[rank], self.depth - 1
                )
                out[rank] = value / total
        return out

    def value(self, belief: Sequence[Joint], mine: tuple[int, ...], turn: int) -> float:
        """The value of the whole play from its start, ``turn`` leading."""
        total = _check(belief)
        if turn == self.seat:
            return self._my_turn(belief, mine, (), 0, self.depth) / total
        return self._their_turn(belief, mine, turn, (), 0, self.depth) / total

    # ------------------------------------------------------------------ the recursion
    # Every method returns a total over the belief: the sum of weight times value.

    def _played(
        self,
        belief: Sequence[Joint],
        mine: tuple[int, ...],
        seat: int,
        seq: tuple[int, ...],
        count: int,
        depth: int,
    ) -> float:
        """After ``seat`` played the last rank of ``seq``: peg it, then split the belief by who
        plays next (the seats in between say go)."""
        points = play_points_of_ranks(seq)
        total = self.gains[seat] * points * _weight(belief) if points else 0.0
        if count == 31:
            return total + self._next_count(belief, mine, seat, depth)
        for nxt, group in self._next_players(belief, mine, seat, 31 - count).items():
            if nxt == self.seat:
                total += self._my_turn(group, mine, seq, count, depth)
            elif nxt >= 0:
                total += self._their_turn(group, mine, nxt, seq, count, depth)
            else:  # nobody can play: a go, or the last card, for the last player
                total += self.gains[seat] * _weight(group) + self._next_count(group, mine, seat, depth)
        return total

    def _next_players(
        self, belief: Sequence[Joint], mine: tuple[int, ...], seat: int, limit: int
    ) -> dict[int, list[Joint]]:
        """The guesses by the first seat after ``seat`` that can play (-1: nobody can)."""
        n = self.players
        me = self.seat
        i_can = bool(mine) and VALUE[mine[0]] <= limit
        groups: dict[int, list[Joint]] = {}
        for guess in belief:
            hands = guess[0]
            nxt = -1
            for i in range(1, n + 1):
                s = (seat + i) % n
                if i_can if s == me else (hands[s] and VALUE[hands[s][0]] <= limit):
                    nxt = s
                    break
            group = groups.get(nxt)
            if group is None:
                groups[nxt] = [guess]
            else:
                group.append(guess)
        return groups

    def _next_count(self, belief: Sequence[Joint], mine: tuple[int, ...], seat: int, depth: int) -> float:
        """The count starts again (after 31 or a go) with the next seat holding cards (every
        guess holds as many cards for each seat)."""
        if self.one_count:
            return 0.0
        hands = belief[0][0]
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if s == self.seat:
                if mine:
                    return self._my_turn(belief, mine, (), 0, depth)
            elif hands[s]:
                return self._their_turn(belief, mine, s, (), 0, depth)
        return 0.0  # no cards left: the play is over

    def _my_turn(
        self, belief: Sequence[Joint], mine: tuple[int, ...], seq: tuple[int, ...], count: int, depth: int
    ) -> float:
        """The player's turn (it can play): the best of its ranks, the same for every guess."""
        if depth <= 0:
            return 0.0
        self.nodes += 1
        best = -1e18
        for rank, total in _playable(mine, count):
            value = self._played(belief, _without(mine, rank), self.seat, seq + (rank,), total, depth - 1)  # noqa: RUF005
            if value > best:
                best = value
        return best

    def _their_turn(
        self,
        belief: Sequence[Joint],
        mine: tuple[int, ...],
        seat: int,
        seq: tuple[int, ...],
        count: int,
        depth: int,
    ) -> float:
        """Another seat's turn (it can play in every guess): split by the card it plays."""
        if depth <= 0:
            return 0.0
        model = self.model
        groups: dict[int, list[Joint]] = {}
        for hands, weight in belief:
            hand = hands[seat]
            tops = greedy_ranks(hand, seq, count) if model is None else model.tops(hand, seq, count)
            share = weight / len(tops)  # cards of the same pip value that score alike: evenly
            for rank in tops:
                held = (*hands[:seat], _without(hand, rank), *hands[seat + 1 :])
                groups.setdefault(rank, []).append((held, share))
        total = 0.0
        for rank, group in groups.items():
            total += self._played(group, mine, seat, seq + (rank,), count + VALUE[rank], depth - 1)  # noqa: RUF005
        return total


def _check(belief: Sequence[Joint]) -> float:
    """The belief's total weight; an empty belief (or one of no weight) is refused."""
    total = _weight(belief) if belief else 0.0
    if total <= 0:
        raise ValueError("the belief holds no possible hand")
    return total
