"""An exact search of the rest of the play (pegging) when every hand is known.

The computer player does not know the other hands, so it samples them (see
:mod:`cribbage.ai.pegging`) and asks this module, for each sampled *world*, what every card is
worth when the play goes on from there with every hand known (perfect-information Monte Carlo).

Only ranks matter in the play, so hands are sorted tuples of ranks (1-13) and the cards of the
current count a tuple of ranks too.  The search follows the rules of the game engine
(:mod:`cribbage.engine.pegging`) exactly: after a card the next seat that can play plays (the others say
go); when nobody can, the last player pegs one for the go (or the last card) and the count
starts again with the next seat holding cards; a one-count game (five-card cribbage) ends the
play at the first go or 31.

Values are the points of the searching side minus the points of every other side (each weighed
by ``opponent_weight``: a half with three players, see :func:`cribbage.ai.discard.opponent_weight`).
The other seats either see every hand and play against the searching side (minimax), or are modelled as
the players most people are: they take the most points now and avoid leaving 5 or 21.  With a
*race* (the game can end in this hand) a side reaching its target ends the search at once with
:data:`WIN` for or against; at the end of the play the show is counted in its order (each hand
from the dealer's left, then the crib), so pegging out before the other side can count is seen.

>>> search = PlaySearch(players=2, sides=(0, 1), side=0)
>>> search.card_values(((7, 8), (10, 5)), turn=0)  # 7 or 8 first, the other holds 10 and 5
{7: -1.0, 8: -1.0}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["VALUE", "WIN", "PlaySearch", "play_points_of_ranks"]

VALUE: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""The pip value of each rank (index 1-13)."""

WIN: Final = 1000.0
"""The value of ending the game in this hand (far above any number of points)."""

_PLAY_POINTS: dict[tuple[int, ...], int] = {}
_MEMO_LIMIT: Final = 400_000

Hands = tuple[tuple[int, ...], ...]
Left = tuple[int, ...] | None


def play_points_of_ranks(seq: tuple[int, ...]) -> int:
    """Points for the last card of ``seq`` (ranks of the current count): 15, 31, pairs, runs.

    The same rules as :func:`cribbage.engine.scoring.play_combos`, on ranks, cached.

    >>> [play_points_of_ranks(ranks) for ranks in ((4, 6, 5), (5, 10), (7, 7, 7))]  # 15 and a run
    [5, 2, 6]
    """
    points = _PLAY_POINTS.get(seq)
    if points is not None:
        return points
    count = sum(VALUE[r] for r in seq)
    points = 2 if count in (15, 31) else 0
    last = seq[-1]
    same = 1
    while same < len(seq) and seq[-1 - same] == last:
        same += 1
    points += same * (same - 1)
    for length in range(min(len(seq), 7), 2, -1):
        tail = seq[-length:]
        if len(set(tail)) == length and max(tail) - min(tail) == length - 1:
            points += length
            break
    _PLAY_POINTS[seq] = points
    return points


class PlaySearch:
    """The exact minimax value of the rest of the play for one side against all the others.

    Args:
        players: seats at the table.
        sides: the side of each seat (partners share a side).
        side: the searching side; its points count plus, every other side's minus (a paranoid
            search: the other seats are assumed to play against it).
        one_count: the play ends at the first go or 31 (five-card cribbage).
        depth: how many cards to look ahead before the search stops (the horizon; large for an
            exact search to the end of the play).
        left: points each side still needs to reach the target, for a race; ``None`` otherwise.
        show: with a race, the points of each show count in order, as (side, points).
        lowball: the first side to reach the target loses, so points count against their side.
        greedy_others: the other sides are modelled as players who take the most points now
            and avoid leaving 5 or 21, rather than as players who see every hand.
        opponent_weight: what a point of another side is worth against one of the searching
            side's (1/2 with three players); reaching the target is a whole win or loss all
            the same.
    """

    def __init__(
        self,
        players: int,
        sides: Sequence[int],
        side: int,
        *,
        one_count: bool = False,
        depth: int = 99,
        left: Sequence[int] | None = None,
        show: Sequence[tuple[int, int]] = (),
        lowball: bool = False,
        greedy_others: bool = False,
        opponent_weight: float = 1.0,
    ) -> None:
        self.players = players
        polarity = -1 if lowball else 1
        self.maximizing = tuple(s == side for s in sides)
        self.gains = tuple(polarity if s == side else -polarity * opponent_weight for s in sides)
        self.wins = tuple(polarity if s == side else -polarity for s in sides)
        self.sides = tuple(sides)
        self.side_gains = {s: polarity if s == side else -polarity for s in sides}
        self.one_count = one_count
        self.greedy_others = greedy_others
        self.depth = depth
        self.left: Left = None if left is None else tuple(left)
        self.show = tuple(show)
        self.memo: dict[tuple[object, ...], float] = {}
        self.nodes = 0

    # ------------------------------------------------------------------ public

    def card_values(self, hands: Hands, turn: int, seq: tuple[int, ...] = ()) -> dict[int, float]:
        """The value of playing each playable rank of ``hands[turn]`` now, by rank."""
        count = sum(VALUE[r] for r in seq)
        values: dict[int, float] = {}
        hand = hands[turn]
        for i, rank in enumerate(hand):
            total = count + VALUE[rank]
            if rank in values or total > 31:
                continue
            rest = (*hands[:turn], (*hand[:i], *hand[i + 1 :]), *hands[turn + 1 :])
            values[rank] = self._play(rest, turn, (*seq, rank), total, self.depth - 1, self.left)
        return values

    def value(self, hands: Hands, turn: int) -> float:
        """The value of the whole play from its start, ``turn`` leading."""
        return self._value(hands, turn, (), 0, self.depth, self.left)

    # ------------------------------------------------------------------ search

    def _value(
        self, hands: Hands, turn: int, seq: tuple[int, ...], count: int, depth: int, left: Left
    ) -> float:
        """The value with ``turn`` to play (it can) at ``count``."""
        if depth <= 0:
            return 0.0
        key = (hands, turn, seq, left)
        memo = self.memo
        value = memo.get(key)
        if value is not None:
            return value
        self.nodes += 1
        hand = hands[turn]
        maximize = self.maximizing[turn]
        moves = []
        previous = 0
        for i, rank in enumerate(hand):
            if rank == previous:
                continue
            previous = rank
            total = count + VALUE[rank]
            if total > 31:
                break
            moves.append((i, rank, total))
        if self.greedy_others and not maximize and len(moves) > 1:
            moves = _greedy(moves, seq)
        best = -1e9 if maximize else 1e9
        for i, rank, total in moves:
            # Concatenation: faster than unpacking here, the innermost loop of the search.
            rest = hands[:turn] + (hand[:i] + hand[i + 1 :],) + hands[turn + 1 :]  # noqa: RUF005
            value = self._play(rest, turn, seq + (rank,), total, depth - 1, left)  # noqa: RUF005
            if (value > best) if maximize else (value < best):
                best = value
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[key] = best
        return best

    def _play(
        self, hands: Hands, seat: int, seq: tuple[int, ...], count: int, depth: int, left: Left
    ) -> float:
        """The value after ``seat`` has played the last rank of ``seq``, scoring it first."""
        points = play_points_of_ranks(seq)
        gain = self.gains[seat]
        gained = gain * points
        if points and left is not None:
            left = self._peg(left, seat, points)
            if left is None:
                return self.wins[seat] * WIN
        n = self.players
        if count < 31:
            for i in range(1, n + 1):
                nxt = (seat + i) % n
                held = hands[nxt]
                if held and VALUE[held[0]] + count <= 31:
                    return gained + self._value(hands, nxt, seq, count, depth, left)
            # Nobody can play: a go (or the last card) for the last player.
            gained += gain
            if left is not None:
                left = self._peg(left, seat, 1)
                if left is None:
                    return self.wins[seat] * WIN
        if self.one_count or not any(hands):
            return gained + self._end(left)
        for i in range(1, n + 1):
            nxt = (seat + i) % n
            if hands[nxt]:
                return gained + self._value(hands, nxt, (), 0, depth, left)
        raise AssertionError("cards left but nobody holds them")

    def _peg(self, left: tuple[int, ...], seat: int, points: int) -> Left:
        """``left`` after ``seat`` pegs ``points``, or ``None`` when its side reaches the target."""
        side = self.sides[seat]
        need = left[side] - points
        if need <= 0:
            return None
        return (*left[:side], need, *left[side + 1 :])

    def _end(self, left: Left) -> float:
        """At the end of the play: in a race, count the show in order; else nothing more."""
        if left is None:
            return 0.0
        needs = list(left)
        for side, points in self.show:
            needs[side] -= points
            if needs[side] <= 0:
                return self.side_gains[side] * WIN
        return 0.0


TRAP_PENALTY: Final = 1.5
"""The points a points-taking player gives up rather than leave the count at 5 or 21."""


def greedy_gain(seq: tuple[int, ...], rank: int, total: int) -> float:
    """How a points-taking player rates playing ``rank`` on ``seq`` (making ``total``): the points
    now, less :data:`TRAP_PENALTY` for leaving 5 or 21, half a point for a lead under 5, and a
    hundredth of the card's value (the higher card first)."""
    gain = play_points_of_ranks(seq + (rank,)) + VALUE[rank] / 100  # noqa: RUF005
    if total in (5, 21):
        gain -= TRAP_PENALTY
    if not seq and rank < 5:
        gain += 0.5
    return gain


def _greedy(moves: list[tuple[int, int, int]], seq: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """The moves a points-taking player would choose between (:func:`greedy_gain`; equals are
    left to the search)."""
    gains = [greedy_gain(seq, rank, total) for _, rank, total in moves]
    top = max(gains)
    return [move for move, gain in zip(moves, gains, strict=True) if gain == top]
