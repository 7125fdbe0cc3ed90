"""Qualifying-round pairings: the clubs' rotation, and a Swiss system by standing.

**Rotation** (:func:`rotation_rounds`): the round-robin circle (Berger) method.  The first
``n - 1`` rounds of an even field, or ``n`` of an odd one, meet no opponent twice; an odd field
has one bye a round, to each entrant in entry order, so no one has a second bye while someone
has none.  More games than that start the circle again (second meetings); never a third.

**Swiss** (:func:`swiss_round`): one round at a time, the field in standing order.  The top
unpaired entrant meets the next one below it that it has not met and that leaves the rest
pairable without a repeat (so a round without a repeat is always found when one exists); only
when none exists are second meetings allowed, those not met yet still preferred; never a third.
An odd field's bye goes to the lowest-ranked of those with the fewest byes.

A bye counts as one of an entrant's games (:class:`~cribbage.tournament.scoring.ByeCredit`),
so with either method every entrant has the same number of games, byes included.

>>> for paired in rotation_rounds(["a", "b", "c"], 3):
...     print(paired.tables, paired.bye)
(('b', 'c'),) a
(('c', 'a'),) b
(('a', 'b'),) c
>>> swiss_round(["a", "b", "c", "d"], [PairedRound((("a", "b"), ("c", "d")))])
PairedRound(tables=(('a', 'c'), ('b', 'd')), bye=None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .entrants import EntrantId, check_entrant, check_entrants
from .errors import EntrantError, PairingError
from .matching import has_perfect_matching

__all__ = ["PairedRound", "rotation_capacity", "rotation_rounds", "swiss_round"]


@dataclass(frozen=True, slots=True)
class PairedRound:
    """One round of the qualifying: its tables (two entrants each) and the entrant with the
    bye, if the field is odd.

    Raises:
        EntrantError: a bad id, or an entrant at two places in the round.
    """

    tables: tuple[tuple[EntrantId, EntrantId], ...]
    bye: EntrantId | None = None

    def __post_init__(self) -> None:
        seen: set[EntrantId] = set()
        for entrant in self.entrants():
            if check_entrant(entrant) in seen:
                raise EntrantError(
                    f"entrant {entrant!r} is paired twice in one round", problem="duplicate", entrant=entrant
                )
            seen.add(entrant)

    def entrants(self) -> tuple[EntrantId, ...]:
        """Everyone in the round: the tables in order, then the bye."""
        seated = tuple(entrant for table in self.tables for entrant in table)
        return seated if self.bye is None else (*seated, self.bye)


def rotation_capacity(field: int) -> int:
    """The rounds a rotation of ``field`` entrants plays before any second meeting: ``field - 1``
    for an even field, ``field`` for an odd one (each entrant has one bye).

    >>> rotation_capacity(10), rotation_capacity(9)
    (9, 9)
    """
    return field - 1 if field % 2 == 0 else field


def rotation_rounds(entrants: Sequence[EntrantId], games: int) -> tuple[PairedRound, ...]:
    """``games`` rounds of the circle rotation of ``entrants`` (entry order).

    Raises:
        EntrantError: fewer than two entrants, or a bad or duplicate id.
        PairingError: ``games`` below 1, or above twice :func:`rotation_capacity` (a third meeting).
    """
    field_ = check_entrants(entrants, least=2)
    cycle = rotation_capacity(len(field_))
    if not 1 <= games <= 2 * cycle:
        raise PairingError(
            f"{games} games for {len(field_)} entrants: from 1 to {2 * cycle} (no third meeting)",
            games=games,
            most=2 * cycle,
        )
    fixed: EntrantId | None = field_[-1] if len(field_) % 2 == 0 else None
    circle = field_[:-1] if fixed is not None else field_
    rounds = []
    for number in range(games):
        turn = number % cycle
        line = [*circle[turn:], *circle[:turn], fixed]
        half = len(line) // 2
        pairs = [(line[i], line[-1 - i]) for i in range(half)]
        tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        bye = next((a if b is None else b for a, b in pairs if a is None or b is None), None)
        rounds.append(PairedRound(tables, bye))
    return tuple(rounds)


def swiss_round(ranked: Sequence[EntrantId], previous: Iterable[PairedRound] = ()) -> PairedRound:
    """The next Swiss round of the field ``ranked`` (best first, as from
    :func:`~cribbage.tournament.scoring.standings`) after the rounds ``previous``.

    Raises:
        EntrantError: fewer than two entrants, a bad or duplicate id, or a previous round naming
            an entrant not in ``ranked``.
        PairingError: every round possible would have a third meeting.
    """
    field_ = check_entrants(ranked, least=2)
    index = {entrant: i for i, entrant in enumerate(field_)}
    meetings: Counter[tuple[int, int]] = Counter()
    byes = [0] * len(field_)
    for paired in previous:
        for a, b in paired.tables:
            i, j = sorted((_position(index, a), _position(index, b)))
            meetings[i, j] += 1
        if paired.bye is not None:
            byes[_position(index, paired.bye)] += 1
    candidates: list[int | None] = [None]
    if len(field_) % 2:
        fewest = min(byes)
        candidates = [i for i in reversed(range(len(field_))) if byes[i] == fewest]
    for limit in (1, 2):
        blocked: list[set[int]] = [set() for _ in field_]
        for (i, j), times in meetings.items():
            if times >= limit:
                blocked[i].add(j)
                blocked[j].add(i)
        for bye in candidates:
            players = [i for i in range(len(field_)) if i != bye]
            tables = _top_down(players, blocked, meetings)
            if tables is not None:
                return PairedRound(
                    tuple((field_[a], field_[b]) for a, b in tables), None if bye is None else field_[bye]
                )
    raise PairingError(
        f"no pairing of these {len(field_)} entrants avoids a third meeting", field=len(field_)
    )


def _position(index: dict[EntrantId, int], entrant: EntrantId) -> int:
    position = index.get(entrant)
    if position is None or isinstance(entrant, bool):
        raise EntrantError(f"entrant {entrant!r} is not in the field", problem="unknown", entrant=entrant)
    return position


def _top_down(
    players: list[int], blocked: list[set[int]], meetings: Counter[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """Tables for ``players`` (in rank order), none ``blocked``: the top one with the first
    candidate that leaves the rest pairable; None when they cannot all be paired."""
    most = max((len(blocked[i]) for i in players), default=0)
    if not _pairable(players, blocked, most):
        return None
    tables: list[tuple[int, int]] = []
    remaining = players
    while remaining:
        top, rest = remaining[0], remaining[1:]
        for k in _candidates(top, rest, blocked, meetings):
            left = rest[:k] + rest[k + 1 :]
            if _pairable(left, blocked, most):
                tables.append((top, rest[k]))
                remaining = left
                break
        else:  # pragma: no cover - the remaining players were pairable
            raise AssertionError("pairable players left unpaired")
    return tables


def _candidates(
    top: int, rest: list[int], blocked: list[set[int]], meetings: Counter[tuple[int, int]]
) -> Iterator[int]:
    """The positions in ``rest`` of ``top``'s possible opponents: those it has not met first,
    then those met once; each group in rank order."""
    barred = blocked[top]  # top is above everyone in rest: its meetings are keyed (top, other)
    yield from (k for k, other in enumerate(rest) if other not in barred and (top, other) not in meetings)
    yield from (k for k, other in enumerate(rest) if other not in barred and (top, other) in meetings)


def _pairable(players: list[int], blocked: list[set[int]], most: int) -> bool:
    """Whether ``players`` can all be paired avoiding ``blocked``, where nobody has more than
    ``most`` blocked opponents.  With at least ``2 * most + 2`` players each may meet half of
    them or more, so by Dirac's theorem they lie on a cycle and can be paired; fewer are
    decided by a maximum matching."""
    if len(players) % 2:
        return False
    if len(players) >= 2 * most + 2:
        return True
    position = {player: k for k, player in enumerate(players)}
    adjacency = [
        [position[other] for other in players if other != player and other not in blocked[player]]
        for player in players
    ]
    return has_perfect_matching(adjacency)
