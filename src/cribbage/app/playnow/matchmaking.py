"""Matchmaking, the pure part: the pools, the rating window, and which waiting people make a table.

"Play now" puts a person in a pool's queue (:mod:`cribbage.web.messaging.queue` keeps the queue,
in Redis or in memory); every moment a process asks :func:`choose_groups` which of the people waiting
make a table, and the queue takes those groups atomically.  Nothing here reads a clock, a
store or the network: ``now`` and the waiting people are given, so the choice is the same in
every process and in the tests.

The model (docs/matchmaking.md):

- A person waiting since ``joined`` accepts a table whose ratings lie within
  :func:`window` of ``now - joined`` of each other (highest minus lowest): the window widens
  as they wait, up to :data:`WINDOW_CAP`.
- A group is *compatible* when every member accepts it.
- :func:`choose_groups` takes the compatible group of the smallest spread first, then the next
  among those left, until no compatible group is left: close ratings are paired before far
  ones, and nobody is left waiting while a compatible group waits with them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import AppError

__all__ = [
    "POOLS",
    "WINDOW_BASE",
    "WINDOW_CAP",
    "WINDOW_STEP",
    "WINDOW_STEP_SECONDS",
    "Entry",
    "Pairing",
    "Pool",
    "Status",
    "check_player_id",
    "check_rating",
    "choose_groups",
    "compatible",
    "get_pool",
    "queue_name",
    "queues",
    "seat_order",
    "split_queue",
    "window",
]

WINDOW_BASE: Final = 100.0
"""The rating window of a person who has just joined: ratings this far apart make a table."""

WINDOW_STEP: Final = 50.0
"""How much the window widens ..."""

WINDOW_STEP_SECONDS: Final = 5.0
"""... per this many seconds waited (continuously: 10 points a second)."""

WINDOW_CAP: Final = 800.0
"""The widest window: people further apart than this are never paired, however long they wait."""


@dataclass(frozen=True)
class Pool:
    """A queue of "Play now": its name, the size of its tables, and the variant they play."""

    name: str
    players: int
    variant: str


POOLS: Final[dict[str, Pool]] = {
    pool.name: pool
    for pool in (
        Pool("standard", 2, "standard"),
        Pool("short", 2, "short"),
        Pool("three", 3, "three-player"),
        Pool("partners", 4, "four-player"),
    )
}
"""The pools by name."""


def get_pool(name: str, pools: Mapping[str, Pool] = POOLS) -> Pool:
    """The pool of a name.

    Raises:
        AppError: ``queue.unknown_pool`` (with ``pool``) for a name not in ``pools``.
    """
    found = pools.get(name) if isinstance(name, str) else None
    if found is None:
        raise AppError("queue.unknown_pool", f"no pool is named {name!r}", pool=str(name))
    return found


def queue_name(pool: str, first_to: int = 1) -> str:
    """The queue of the people asking for ``pool`` and matches of ``first_to`` wins: the pool's
    own name for one game, ``<pool>/<first_to>`` for a match (only people asking for the same
    pool and ``first_to`` are paired).

    >>> queue_name("standard"), queue_name("standard", 2)
    ('standard', 'standard/2')
    """
    return pool if first_to == 1 else f"{pool}/{first_to}"


def split_queue(name: str) -> tuple[str, int]:
    """The pool and ``first_to`` of a queue's name (:func:`queue_name`).

    >>> split_queue("standard"), split_queue("short/3")
    (('standard', 1), ('short', 3))
    """
    pool, _, first_to = name.partition("/")
    return pool, int(first_to) if first_to else 1


def queues(pools: dict[str, Pool], first_to: range) -> dict[str, Pool]:
    """The queues of ``pools``, one a pool and ``first_to``, each named by :func:`queue_name`."""
    return {
        queue_name(pool.name, n): Pool(queue_name(pool.name, n), pool.players, pool.variant)
        for pool in pools.values()
        for n in first_to
    }


def window(waited: float) -> float:
    """The rating window of a person who has waited ``waited`` seconds: :data:`WINDOW_BASE`,
    plus :data:`WINDOW_STEP` per :data:`WINDOW_STEP_SECONDS`, at most :data:`WINDOW_CAP`.

    >>> window(0), window(5), window(12.5), window(3600)
    (100.0, 150.0, 225.0, 800.0)
    """
    return min(WINDOW_CAP, WINDOW_BASE + WINDOW_STEP * max(0.0, waited) / WINDOW_STEP_SECONDS)


@dataclass(frozen=True)
class Entry:
    """A person waiting in a pool: who (an opaque string), their rating, and since when
    (seconds, on the clock of the queue)."""

    player: str
    rating: float
    joined: float

    def window(self, now: float) -> float:
        """This person's window at ``now``."""
        return window(now - self.joined)


@dataclass(frozen=True)
class Pairing:
    """A table made by the queue: its id, its pool, its people in seat order (with their
    ratings and when each joined, in the same order), and when it was made.  Kept by the queue
    for its people; never shown to them (the players are opaque ids, the ratings unrounded)."""

    id: str
    pool: str
    players: tuple[str, ...]
    ratings: tuple[float, ...]
    made: float
    joined: tuple[float, ...] = ()
    """When each player joined (empty in a match kept before it was recorded: ``made`` then
    stands for it), so that a match undone puts them back as they waited."""

    def joined_at(self, index: int) -> float:
        """When the player at ``index`` joined the queue (``made`` if not recorded)."""
        return self.joined[index] if index < len(self.joined) else self.made

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "pool": self.pool,
            "players": list(self.players),
            "ratings": list(self.ratings),
            "made": self.made,
            "joined": list(self.joined),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pairing:
        return cls(
            str(data["id"]),
            str(data["pool"]),
            tuple(str(p) for p in data["players"]),
            tuple(float(r) for r in data["ratings"]),
            float(data["made"]),
            tuple(float(j) for j in data.get("joined", ())),
        )


@dataclass(frozen=True)
class Status:
    """What a waiting person is told: their pool, how long they have waited, how many wait in
    the pool (themselves included), and the rating window they accept now."""

    pool: str
    waited: float
    waiting: int
    window: float

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool, "waited": self.waited, "waiting": self.waiting, "window": self.window}


def spread(group: Iterable[Entry]) -> float:
    """The highest rating of a group minus its lowest."""
    ratings = [entry.rating for entry in group]
    return max(ratings) - min(ratings)


def compatible(group: Sequence[Entry], now: float) -> bool:
    """Whether every member of ``group`` accepts its spread at ``now``.

    >>> a, b = Entry("a", 1500, 0.0), Entry("b", 1620, 0.0)
    >>> compatible([a, b], now=0.0), compatible([a, b], now=2.0)
    (False, True)
    """
    gap = spread(group)
    return all(gap <= entry.window(now) for entry in group)


def _key(entry: Entry) -> tuple[float, str]:
    return (entry.rating, entry.player)


def _best_from(
    ordered: Sequence[Entry], low: int, size: int, now: float, taken: set[str]
) -> tuple[float, list[Entry]] | None:
    """The compatible group of ``size`` free people of the smallest spread whose lowest member
    (in ``ordered``, by rating then name) is ``ordered[low]``: its spread and members, or None.

    Scanning upwards, each free person ``top`` is tried as the highest member, the spread being
    ``top``'s rating minus the lowest's; the first that works is the closest.  The members
    between are chosen among those who accept that spread, the longest waiting first."""
    lowest = ordered[low]
    reach = lowest.window(now)
    between: list[Entry] = []
    for top in ordered[low + 1 :]:
        if top.player in taken:
            continue
        gap = top.rating - lowest.rating
        if gap > reach:
            break
        if top.window(now) >= gap:
            fits = [entry for entry in between if entry.window(now) >= gap]
            if len(fits) >= size - 2:
                fits.sort(key=lambda entry: (entry.joined, entry.player))
                return gap, [lowest, *fits[: size - 2], top]
        between.append(top)
    return None


def choose_groups(waiting: Iterable[Entry], size: int, now: float) -> list[list[Entry]]:
    """The tables of ``size`` to make from the people ``waiting`` at ``now``, closest first.

    Greedy by spread: the compatible group of the smallest spread (ties: the lowest rating,
    then name) is taken, then the best among those left, and so on until no compatible group
    is left, so afterwards nobody waits while a compatible group could be made.  Lazily: each
    person's best group as the lowest member is kept in a heap and found again only when one of
    its members was taken (taking people never makes another group better).  Deterministic: the
    same people and ``now`` give the same groups in every process.

    >>> people = [Entry("a", 1500, 0), Entry("b", 1510, 0), Entry("c", 1590, 0), Entry("d", 2000, 0)]
    >>> [[e.player for e in group] for group in choose_groups(people, 2, now=0)]
    [['a', 'b']]
    >>> [[e.player for e in group] for group in choose_groups(people, 3, now=0)]
    [['a', 'b', 'c']]
    """
    if size < 2:
        raise ValueError(f"a table has 2 players or more, not {size}")
    ordered = sorted(waiting, key=_key)
    taken: set[str] = set()
    heap: list[tuple[float, int, list[Entry]]] = []
    for low in range(len(ordered)):
        best = _best_from(ordered, low, size, now, taken)
        if best is not None:
            heap.append((best[0], low, best[1]))
    heapq.heapify(heap)
    groups: list[list[Entry]] = []
    while heap:
        _, low, group = heapq.heappop(heap)
        if ordered[low].player in taken:
            continue
        if any(entry.player in taken for entry in group):
            best = _best_from(ordered, low, size, now, taken)
            if best is not None:
                heapq.heappush(heap, (best[0], low, best[1]))
            continue
        taken.update(entry.player for entry in group)
        groups.append(group)
    return groups


def seat_order(group: Sequence[Entry]) -> list[Entry]:
    """The seats of a group: for four (partners, seats 0 and 2 against 1 and 3), the highest
    and lowest rated against the two between, so the teams are balanced; else the longest
    waiting first.

    >>> four = [Entry(n, r, 0) for n, r in [("a", 1000), ("b", 1100), ("c", 1200), ("d", 1300)]]
    >>> [e.player for e in seat_order(four)]
    ['a', 'b', 'd', 'c']
    """
    if len(group) == 4:
        a, b, c, d = sorted(group, key=_key)
        return [a, b, d, c]
    return sorted(group, key=lambda entry: (entry.joined, entry.player))


def check_rating(rating: object) -> float:
    """A rating as a float.

    Raises:
        AppError: ``queue.bad_rating`` (with ``rating``) for anything but a finite number.
    """
    if isinstance(rating, bool) or not isinstance(rating, int | float) or not math.isfinite(rating):
        raise AppError(
            "queue.bad_rating", f"a rating is a finite number, not {rating!r}", rating=repr(rating)
        )
    return float(rating)


def check_player_id(player: object) -> str:
    """A player's name (an opaque, non-empty string of at most 200 characters).

    Raises:
        AppError: ``queue.bad_player`` for anything else.
    """
    if not isinstance(player, str) or not player or len(player) > 200:
        raise AppError("queue.bad_player", "a player is a string of 1 to 200 characters")
    return player
