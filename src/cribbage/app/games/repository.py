"""Where the games are: the stored ones, and this process's cache of recently used ones.

:class:`Repository` loads a game (from its cache, or replayed from the stored record), brings a
cached game to the stored version before it is read, under its lock (:meth:`Repository.held`:
several server processes on one database never serve an older state than the stored one),
checks a seat's token, stores a change before the lock is released or retires the changed copy
(:meth:`Repository.save`: no request reads a state that was not stored), and keeps recently
used games in memory within a memory budget (the finished ones leave first;
:func:`estimate_bytes`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

import orjson

from ...engine.errors import CribbageError
from ...engine.record import Game
from ...players import make_player
from ...storage import Pruned, Storage
from ...storage.rated_tables import COUNTED
from ..errors import AppError
from .live_game import LiveGame
from .options import hash_token
from .replay import Players

__all__ = ["CACHE_BYTES", "RecordText", "Repository", "estimate_bytes", "seat_of"]

CACHE_BYTES: Final = 256 * 1024 * 1024
"""The default memory budget of the cached games (``cribbage serve --cache-mb 256``)."""

LOW_WATER: Final = 0.95
"""A cache over its budget is shrunk to this share of it."""

SESSION_BYTES: Final = 10_000
ACTION_BYTES: Final = 150
STRONG_BYTES: Final = 2_000
STRONG_HAND_BYTES: Final = 2_500
"""The calibration of :func:`estimate_bytes`: a cached game, each action of its record, each strong
seat and each hand such a seat learned from; about 1.3 times what ``tools/measure_sessions.py``
measures with ``tracemalloc`` (the allocator's overhead), see ``docs/deploy.md``, "Memory"."""


_JSON_OPTIONS: Final = orjson.OPT_NON_STR_KEYS


class RecordText:
    """A game's record as stored JSON text, its actions' text kept from one save to the next:
    each save encodes only the actions added since the last one (and the few fields besides
    them), where encoding the whole record cost the whole game's every time.

    The text holds ``actions`` last, after ``result``: the same JSON value as
    :meth:`Game.to_json <cribbage.engine.record.Game.to_json>`, its keys in another order.
    """

    __slots__ = ("_actions", "_count", "_game")

    def __init__(self) -> None:
        self._game: Game | None = None
        self._count = 0
        self._actions = bytearray()

    @property
    def size(self) -> int:
        """The bytes it keeps."""
        return len(self._actions)

    def encode(self, game: Game) -> str | dict[str, Any]:
        """The record of ``game`` as JSON text, or as its JSON value where orjson cannot write
        it (an integer beyond 64 bits, such as a large seed: the storage's writer then does)."""
        actions = game.actions
        if self._game is not game or self._count > len(actions):  # another game, or rebuilt
            self._game, self._count, self._actions = game, 0, bytearray()
        try:
            for action in actions[self._count :]:
                if self._actions:
                    self._actions += b","
                self._actions += orjson.dumps(action.to_json(), option=_JSON_OPTIONS)
                self._count += 1
            head = orjson.dumps(game.to_json(actions=False), option=_JSON_OPTIONS)
        except orjson.JSONEncodeError:
            self._game = None
            return game.to_json()
        return b"".join((head[:-1], b',"actions":[', self._actions, b"]}")).decode()


def estimate_bytes(live: LiveGame) -> int:
    """The memory a cached game holds, estimated from its record's length and its seats'
    computer levels (a strong player keeps what it learned of each hand).  Cheap: no walk over
    the objects.  Calibrated with ``tracemalloc`` on played games (``docs/deploy.md``)."""
    game = live.table.game
    actions = len(game.actions)
    strong = sum(1 for seat in live.seats if seat.kind == "computer" and seat.level == "strong")
    hands = live.table.tally.hands
    return SESSION_BYTES + ACTION_BYTES * actions + strong * (STRONG_BYTES + STRONG_HAND_BYTES * hands)


class Repository:
    """The games of one process: loads, checks tokens, caches; thread-safe.

    Args:
        storage: where games are saved.
        cache_size: at most this many games in memory (None: no bound but the memory's).
        cache_bytes: the memory the cached games may take, as :func:`estimate_bytes` counts
            it; the least recently used beyond it are dropped, the finished games first (they
            are saved already, and replayed when asked for again).
        players: the factory of the computer players of the games it loads.
    """

    def __init__(
        self,
        storage: Storage,
        cache_size: int | None = None,
        cache_bytes: int = CACHE_BYTES,
        players: Players = make_player,
    ) -> None:
        if cache_bytes < 0 or (cache_size is not None and cache_size < 0):
            raise ValueError(
                f"the cache's bounds cannot be negative: {cache_bytes} bytes, {cache_size} games"
            )
        self.storage = storage
        self.players = players
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self.cached_bytes = 0
        """The estimated memory of the cached games (:func:`estimate_bytes`)."""
        self._cache_lock = threading.Lock()
        self.rating: Callable[[LiveGame], str | None] | None = None
        """How a game's rating is read (:meth:`RatingPolicy.status
        <cribbage.app.games.rating_policy.RatingPolicy.status>`), whenever a game asking for one is held."""
        self.rating_change: Callable[[LiveGame], dict[str, Any] | None] | None = None
        """How a finished counted game's rating changes are read
        (:func:`cribbage.app.games.rated.rating_change`), whenever it is held until they are found
        (another process may have recorded them)."""
        self._texts: dict[str, RecordText] = {}
        """The record text of each cached game that was saved here (:class:`RecordText`)."""

    def remember(self, live: LiveGame) -> LiveGame:
        """Cache a game (or return the one another thread cached first)."""
        with self._cache_lock:
            cached = self._cache.setdefault(live.id, live)
            self._cache.move_to_end(live.id)
            self._resize_locked(cached)
            return cached

    def resize(self, live: LiveGame) -> None:
        """Count a cached game's size again (it grew by an action, or was rebuilt)."""
        with self._cache_lock:
            if self._cache.get(live.id) is live:
                self._resize_locked(live)

    def size_of(self, live: LiveGame) -> int:
        """The memory a cached game holds (:func:`estimate_bytes`), with its record's text
        kept for its saves (:class:`RecordText`)."""
        text = self._texts.get(live.id)
        return estimate_bytes(live) + (0 if text is None else text.size)

    def _resize_locked(self, live: LiveGame) -> None:
        size = self.size_of(live)
        self.cached_bytes += size - self._sizes.get(live.id, 0)
        self._sizes[live.id] = size
        self._shrink_locked()

    def _shrink_locked(self) -> None:
        """Drop the least recently used games while the cache is over its budget (down to
        :data:`LOW_WATER` of it, so that a full cache does not scan on every request), the
        finished games first; never a game whose lock is held (one being played)."""
        over_count = self.cache_size is not None and len(self._cache) > self.cache_size
        if self.cached_bytes <= self.cache_bytes and not over_count:
            return
        goal = int(self.cache_bytes * LOW_WATER) if self.cached_bytes > self.cache_bytes else self.cache_bytes
        most = len(self._cache) if self.cache_size is None else self.cache_size
        for finished_only in (True, False):
            for game_id, live in list(self._cache.items()):
                if self.cached_bytes <= goal and len(self._cache) <= most:
                    return
                if live.lock.locked() or (finished_only and not live.over):
                    continue
                self._drop_locked(game_id)

    def _drop_locked(self, game_id: str) -> None:
        del self._cache[game_id]
        self._texts.pop(game_id, None)
        self.cached_bytes -= self._sizes.pop(game_id, 0)

    def retire(self, live: LiveGame) -> None:
        """Retire a cached game that a refused or failed change may have left unlike the stored game
        (its lock held): dropped from the cache, and marked :attr:`~LiveGame.retired`, so that a
        request waiting for its lock loads the stored game instead (:meth:`held`)."""
        live.retired = True
        with self._cache_lock:
            if self._cache.get(live.id) is live:
                self._drop_locked(live.id)

    def peek(self, game_id: str) -> LiveGame | None:
        """The cached copy of a game, if any, as it is (not brought to the stored version,
        its lock not taken): for a guess about the game, never to read its state."""
        with self._cache_lock:
            return self._cache.get(game_id)

    def cached(self) -> list[str]:
        """The ids of the cached games, least recently used first."""
        with self._cache_lock:
            return list(self._cache)

    def load(self, game_id: str) -> LiveGame:
        """The game from the cache, or restored from storage (``not_found`` if there is none).
        Read it only through :meth:`held`."""
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
        if live is not None:
            return live
        position = self.storage.games.position(game_id)  # read first: a later change is seen later
        stored = self.storage.games.load(game_id)
        if stored is None or position is None:
            raise AppError("not_found", "no such game")
        try:
            live = LiveGame.restore(stored, self.storage.seats.load(game_id), self.players)
        except CribbageError as exc:
            raise AppError("corrupt_record", f"the stored game cannot be replayed: {exc}") from None
        live.generation = position[1]
        self.read_clock(live)
        return self.remember(live)

    def read_clock(self, live: LiveGame) -> None:
        """The stored turn clock of a game that has one (a deadline of another version is void)."""
        if live.options.clock is None:
            return
        clock = self.storage.clocks.load(live.id)
        live.away = frozenset() if clock is None else clock.away
        live.deadline = None if clock is None or clock.version != live.version else clock.deadline

    @contextmanager
    def held(self, game_id: str) -> Iterator[LiveGame]:
        """The game at its stored version, under its lock: the one way to read or change a game
        (``not_found`` if it is not stored).

        A change made under the lock is saved before the lock is released (:meth:`save`); if it
        is not, the cached game is retired (:meth:`retire`) and whoever waited for the lock loads
        the stored game again: no request ever reads or acts on a state that was not stored.
        """
        while True:
            live = self.load(game_id)
            with live.lock:
                if live.retired:  # a change that was not stored: the stored game is read again
                    continue
                self.latest(live)
                yield live
                return

    @contextmanager
    def seated(self, game_id: str, token: str | None) -> Iterator[tuple[LiveGame, int]]:
        """:meth:`held`, and the token's seat: ``unauthorized`` without a right token (a person
        who left, here or through another process, has none)."""
        if not token:
            raise AppError("unauthorized", "missing token: send 'Authorization: Bearer TOKEN'")
        with self.held(game_id) as live:
            yield live, seat_of(live, token)

    def latest(self, live: LiveGame) -> None:
        """Bring a cached game to the stored version, if another process moved the game on.

        Called with the game's lock held (:meth:`held`), so no request of this process is
        changing it: one read of the stored version and seating generation, with the record
        only when either differs (:meth:`~cribbage.storage.games.GameRows.moved`), whose actions
        another process added are then applied (or the record replayed).  While a person's seat
        is open, the seats are read again too (another process may have seated someone);
        otherwise they change only with the generation (a person left, a computer took a seat).
        """
        position = self.storage.games.moved(live.id, live.version, live.generation)
        if position is None:  # removed (pruned, see prune) since it was cached
            self.retire(live)
            raise AppError("not_found", "no such game")
        _version, generation, record = position
        reseated = live.waiting or generation != live.generation
        if reseated:
            live.set_seats(self.storage.seats.load(live.id))
        moved = record is not None
        if record is not None:
            try:
                live.rebuild(record, catch_up=generation == live.generation)
            except BaseException as exc:  # half caught up: never read again
                self.retire(live)
                if isinstance(exc, CribbageError):
                    raise AppError("corrupt_record", f"the stored game cannot be replayed: {exc}") from None
                raise
            live.generation = generation
            self.resize(live)
        if reseated or moved or live.options.clock is not None:  # a page may have started it
            self.read_clock(live)
        if live.over and live.rematch is None:
            live.rematch = self.storage.games.rematch(live.id)
        if self.rating is not None and live.options.rated:
            live.rating = self.rating(live)
        found = live.over and live.rating == COUNTED and live.rating_change is None
        if found and self.rating_change is not None:
            live.rating_change = self.rating_change(live)

    def save(
        self, live: LiveGame, before: int, clock: tuple[float | None, frozenset[int]] | None = None
    ) -> bool:
        """Store the change of a held game (from version ``before``; with its turn ``clock``):
        True once stored; False, the cached game retired, if another request changed the game
        first; any failure (the database away) retires it too, and is raised."""
        try:
            text = self._texts.get(live.id)
            if text is None:
                with self._cache_lock:
                    text = self._texts.setdefault(live.id, RecordText())
            saved = self.storage.games.update(
                live.id,
                text.encode(live.game),
                version=live.version,
                over=live.over,
                expected=before,
                generation=live.generation,
                clock=clock,
            )
        except BaseException:
            self.retire(live)
            raise
        if not saved:
            self.retire(live)
            return False
        if clock is not None:
            live.deadline, live.away = clock
        self.resize(live)
        return True

    # ------------------------------------------------------------------ requests

    def prune(self, pruned: Pruned) -> None:
        """Drop the games removed from storage from the cache."""
        with self._cache_lock:
            for game_id in pruned.ids:
                if game_id in self._cache:
                    self._drop_locked(game_id)


def seat_of(live: LiveGame, token: str) -> int:
    """The seat of a token at a held game: ``unauthorized`` if it has none (a person who
    left, here or through another process)."""
    seat = live.seat_of(hash_token(token))
    if seat is None:
        raise AppError("unauthorized", "wrong token for this game")
    return seat
