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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from .playmodel import PlayModel
from .search import VALUE, greedy_gain, play_points

__all__ = ["BestResponse", "Particle", "Race", "greedy_ranks"]

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

    def values(self, belief: Belief, mine: tuple[int, ...], seq: tuple[int, ...] = ()) -> dict[int, float]:
        """The value of each rank of ``mine`` (sorted) playable on ``seq``, when it is the player's turn."""
        count = sum(VALUE[r] for r in seq)
        total = _weight(belief)
        self._next_size = len(belief[0][0]) if belief else 0
        if not belief or total <= 0:
            raise ValueError("the belief holds no possible hand")
        gained = self._start()
        out: dict[int, float] = {}
        for rank in sorted(set(mine)):
            if count + VALUE[rank] <= 31:
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
        points = play_points(seq)
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
        previous = 0
        for rank in mine:
            if rank == previous:
                continue
            previous = rank
            total = count + VALUE[rank]
            if total > 31:
                break
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


def _weight(belief: Belief) -> float:
    total = 0.0
    for p in belief:
        total += p[1]
    return total
