"""What the storage gives and takes: its errors, the stored game and seat, and their rows' JSON."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from ..engine.errors import CribbageError


class StorageError(CribbageError):
    """The database cannot be opened: a bad URL, a missing driver, a folder that cannot be written."""


class Conflict(StorageError):
    """A new game's id or one of its invitation codes is in use already: nothing was stored."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One row of the games table."""

    id: str
    token_hash: str
    options: dict[str, Any]
    record: dict[str, Any]
    version: int
    over: bool
    created: datetime = field(default_factory=_now)
    updated: datetime = field(default_factory=_now)
    rematch_of: str | None = None
    """The finished game it is the rematch of, if it is one (as stored with ``rematch_of``)."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """One row of the seats table (without its game's id)."""

    seat: int
    kind: str
    """``human`` or ``computer``."""
    level: str | None
    """A computer's level; None for a person."""
    name: str
    token_hash: str | None
    """The hash of the seat's token, once a person has taken it; None otherwise."""
    code: str | None
    """The seat's invitation code, if it had one."""
    taken: bool
    """A person's seat has been taken (a computer's always is)."""
    keys: tuple[str, ...] = ()
    """The hashes of the seat's extra keys (``seat_keys``: its account opened it in another
    browser), accepted as its token is; the oldest first."""


@dataclass(frozen=True, slots=True)
class Joined:
    """What taking a seat by its code did: the seat's game and number, and whether this call took
    it (False: someone had taken it before)."""

    game_id: str
    seat: int
    won: bool


@dataclass(frozen=True, slots=True)
class Listed:
    """A game of the public lobby: its options and seats (never its record)."""

    game_id: str
    options: dict[str, Any]
    seats: tuple[StoredSeat, ...]
    listed: datetime


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a pruning removed (or, in a dry run, would remove): how many games in progress and
    finished, and the bytes of their stored JSON (record and options; the database's own
    overhead and the seat rows are extra)."""

    unfinished: int
    finished: int
    bytes: int
    ids: tuple[str, ...] = ()
    """The removed games' ids (empty in a dry run)."""

    @property
    def games(self) -> int:
        return self.unfinished + self.finished

    def to_json(self) -> dict[str, int]:
        return {"unfinished": self.unfinished, "finished": self.finished, "bytes": self.bytes}


@dataclass(frozen=True, slots=True)
class StoredClock:
    """A game's turn clock as stored: the version it belongs to, its deadline (None: no turn
    runs) and the seats marked away."""

    version: int
    deadline: float | None
    away: frozenset[int]


def _dumps(data: dict[str, Any]) -> str:
    """Compact JSON text: orjson's (a record is written at every action, in a tenth of the
    time json takes), or json's for what orjson refuses (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data, separators=(",", ":"))


_LONG_NUMBER: Final = re.compile(r"\d{19}")
"""Digits enough for a number beyond 64 bits (orjson would read it as a float)."""


def _loads(text: str) -> Any:
    """The value of stored JSON text: orjson's (a record is read whenever another process moved
    its game on, in a fraction of json's time), or json's where the text has a number orjson
    cannot read exactly (an integer beyond 64 bits, such as a large seed)."""
    if _LONG_NUMBER.search(text) is None:
        return orjson.loads(text)
    return json.loads(text)


def _utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


ERASED_NAME: Final = "deleted player"
"""The name of a seat whose account was deleted, wherever seat names are shown."""


def _seat(row: Any) -> StoredSeat:
    """A seat row as stored; an erased seat's name is :data:`ERASED_NAME`, whatever the row holds."""
    name = ERASED_NAME if getattr(row, "erased", False) else row.name
    return StoredSeat(row.seat, row.kind, row.level, name, row.token_hash, row.code, row.taken)
