"""A tournament as its rows read (``storage.tournaments``): :class:`StoredTournament` with its
entrants (:class:`StoredEntrant`) and the tables of its rounds (:class:`StoredTable`), immutable
values, and :func:`load_tournament`, which reads them (:mod:`.tournaments` writes them)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from .rows import _now, _utc
from .tournament_tables import tournament_entrants, tournament_tables, tournaments

__all__ = ["StoredEntrant", "StoredTable", "StoredTournament", "load_tournament", "table_of_row"]


@dataclass(frozen=True, slots=True)
class StoredEntrant:
    """An entrant's row: its number (entry order, from 1), account (None: a guest), name, and
    whether it checked in and withdrew; in a team event its partner's account and name, and
    whether the partner accepted."""

    number: int
    account_id: str | None
    name: str
    checked_in: bool = False
    withdrawn: bool = False
    partner_id: str | None = None
    partner_name: str | None = None
    partner_accepted: bool = False

    @property
    def accounts(self) -> tuple[str | None, ...]:
        """The accounts that play for the entrant: its own, and in a team its partner's."""
        return (self.account_id,) if self.partner_name is None else (self.account_id, self.partner_id)

    def has(self, account_id: str) -> bool:
        """Whether ``account_id`` plays for this entrant (as its first player or its partner)."""
        return account_id in self.accounts


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table's row: stage, round, number, game, the entrants at it (``second`` None: a bye),
    its online game, its outcome (None: undecided) and the results entered by entrant number."""

    stage: str
    round: int
    number: int
    game: int
    first: int
    second: int | None
    game_id: str | None = None
    outcome: dict[str, Any] | None = None
    entries: dict[str, Any] = field(default_factory=dict)
    created: datetime = field(default_factory=_now)

    @property
    def key(self) -> tuple[str, int, int, int]:
        return (self.stage, self.round, self.number, self.game)


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament's row, with its entrants and tables when loaded whole."""

    id: str
    name: str
    director_id: str | None
    settings: dict[str, Any]
    stage: str
    created: datetime = field(default_factory=_now)
    updated: datetime = field(default_factory=_now)
    entrants: tuple[StoredEntrant, ...] = ()
    tables: tuple[StoredTable, ...] = ()
    starts: datetime | None = None
    """When its automatic start is due (None: none is, or it was made or tried)."""


def table_of_row(row: Any) -> StoredTable:
    """A table of its row."""
    return StoredTable(
        row.stage,
        row.round,
        row.number,
        row.game,
        row.first,
        row.second,
        row.game_id,
        None if row.outcome is None else json.loads(row.outcome),
        {} if row.entries is None else json.loads(row.entries),
        _utc(row.created),
    )


def _entrant(row: Any) -> StoredEntrant:
    return StoredEntrant(
        row.number,
        row.account_id,
        row.name,
        row.checked_in,
        row.withdrawn,
        row.partner_id,
        row.partner_name,
        row.partner_accepted,
    )


def load_tournament(conn: Connection, tournament_id: str, *, lock: bool = False) -> StoredTournament | None:
    """The tournament of an id with its entrants and tables (its row locked for update with
    ``lock``), or None."""
    query = tournaments.select().where(tournaments.c.id == tournament_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        return None
    entrants = conn.execute(
        tournament_entrants.select()
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.number)
    ).all()
    tables = conn.execute(
        tournament_tables.select()
        .where(tournament_tables.c.tournament_id == tournament_id)
        .order_by(
            tournament_tables.c.created,
            tournament_tables.c.stage,
            tournament_tables.c.round,
            tournament_tables.c.number,
            tournament_tables.c.game,
        )
    ).all()
    return StoredTournament(
        row.id,
        row.name,
        row.director_id,
        json.loads(row.settings),
        row.stage,
        _utc(row.created),
        _utc(row.updated),
        tuple(_entrant(e) for e in entrants),
        tuple(table_of_row(t) for t in tables),
        None if row.starts is None else _utc(row.starts),
    )
