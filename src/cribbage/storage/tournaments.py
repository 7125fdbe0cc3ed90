"""Tournaments' rows (``storage.tournaments``): a tournament, its entrants and the tables of its
rounds (:data:`~.tables.tournaments`, :data:`~.tables.tournament_entrants`,
:data:`~.tables.tournament_tables`).

Every change of a tournament is made inside :meth:`TournamentRows.locked`: one transaction with
the tournament's row locked (PostgreSQL's ``SELECT ... FOR UPDATE``; SQLite has one writer), so
two processes deciding the same tournament at once decide it one after the other, the second
reading what the first wrote.  The application decides (:mod:`cribbage.app.tournaments`); this
keeps what it decided.

>>> from cribbage.storage import Storage
>>> store = Storage("sqlite://")
>>> store.tournaments.create(StoredTournament("t1", "Club night", None, {"games": 3}, "registration"))
>>> with store.tournaments.locked("t1") as held:
...     held.add_entrant(None, "Ann"), held.add_entrant(None, "Bob")
(1, 2)
>>> [entrant.name for entrant in store.tournaments.load("t1").entrants]
['Ann', 'Bob']
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, false, func, select, update

from .database import Rows
from .rows import StorageError, _utc
from .tables import seats
from .tournament_stored import StoredEntrant, StoredTable, StoredTournament, load_tournament, table_of_row
from .tournament_tables import tournament_entrants, tournament_tables, tournaments

__all__ = ["StoredEntrant", "StoredTable", "StoredTournament", "TournamentRows", "TournamentTx"]


def _where(tournament_id: Any, key: tuple[Any, ...]) -> Any:
    stage, round_number, number, game = key
    c = tournament_tables.c
    return (
        (c.tournament_id == tournament_id)
        & (c.stage == stage)
        & (c.round == round_number)
        & (c.number == number)
        & (c.game == game)
    )


_GIVE = (
    update(tournament_tables)
    .where(
        _where(bindparam("t"), tuple(map(bindparam, ("st", "r", "n", "gm"))))
        & tournament_tables.c.game_id.is_(None)
    )
    .values(game_id=bindparam("gid"))
)
"""A table given its game unless it has one (built once: a round gives a hundred)."""

_LINK = (
    update(seats)
    .where((seats.c.game_id == bindparam("g")) & (seats.c.seat == bindparam("s")))
    .values(account_id=bindparam("a"))
)
"""A game's seat linked to its account."""


class TournamentTx:
    """One tournament held in a transaction (:meth:`TournamentRows.locked`): its state as read
    once locked (:attr:`tournament`) and the writes of the change being made."""

    def __init__(self, conn: Connection, tournament: StoredTournament, now: datetime) -> None:
        self.conn = conn
        self.tournament = tournament
        self.now = now

    def reload(self) -> None:
        """Read the tournament again, with this transaction's writes."""
        found = load_tournament(self.conn, self.tournament.id)
        assert found is not None  # its row is locked
        self.tournament = found

    def add_entrant(
        self,
        account_id: str | None,
        name: str,
        *,
        checked_in: bool = False,
        partner: tuple[str | None, str] | None = None,
        partner_accepted: bool = False,
    ) -> int:
        """Enter an account (None: a guest by name), with its ``partner`` (account or None, name)
        in a team event: its number, the next in entry order."""
        c = tournament_entrants.c
        last = self.conn.execute(
            select(func.max(c.number)).where(c.tournament_id == self.tournament.id)
        ).scalar_one_or_none()
        number = int(last or 0) + 1
        self.conn.execute(
            tournament_entrants.insert().values(
                tournament_id=self.tournament.id,
                number=number,
                account_id=account_id,
                name=name,
                checked_in=checked_in,
                withdrawn=False,
                registered=self.now,
                partner_id=None if partner is None else partner[0],
                partner_name=None if partner is None else partner[1],
                partner_accepted=partner_accepted,
            )
        )
        return number

    def remove_entrant(self, number: int) -> None:
        c = tournament_entrants.c
        self.conn.execute(
            tournament_entrants.delete().where((c.tournament_id == self.tournament.id) & (c.number == number))
        )

    def set_entrant(self, number: int, **values: bool) -> None:
        """Set an entrant's ``checked_in``, ``withdrawn`` or ``partner_accepted``."""
        c = tournament_entrants.c
        self.conn.execute(
            update(tournament_entrants)
            .where((c.tournament_id == self.tournament.id) & (c.number == number))
            .values(**values)
        )

    def set_stage(self, stage: str) -> None:
        """Set the stage; any other than registration leaves no automatic start due."""
        values: dict[str, Any] = {"stage": stage, "updated": self.now}
        if stage != "registration":
            values["starts"] = None
        self.conn.execute(update(tournaments).where(tournaments.c.id == self.tournament.id).values(**values))

    def clear_start(self) -> None:
        """The automatic start is made or tried: none is due any more."""
        self.conn.execute(
            update(tournaments).where(tournaments.c.id == self.tournament.id).values(starts=None)
        )

    def add_tables(self, tables: Sequence[StoredTable]) -> None:
        if tables:
            self.conn.execute(
                tournament_tables.insert(),
                [
                    {
                        "tournament_id": self.tournament.id,
                        "stage": t.stage,
                        "round": t.round,
                        "number": t.number,
                        "game": t.game,
                        "first": t.first,
                        "second": t.second,
                        "game_id": t.game_id,
                        "outcome": None if t.outcome is None else json.dumps(t.outcome),
                        "entries": json.dumps(t.entries) if t.entries else None,
                        "created": self.now,
                    }
                    for t in tables
                ],
            )
        self.touch()

    def decide(self, key: tuple[str, int, int, int], outcome: dict[str, Any]) -> bool:
        """Write a table's outcome unless it has one (:attr:`tournament` has it too): whether
        this wrote it."""
        c = tournament_tables.c
        done = self.conn.execute(
            update(tournament_tables)
            .where(_where(self.tournament.id, key) & c.outcome.is_(None))
            .values(outcome=json.dumps(outcome))
        )
        self.touch()
        if not done.rowcount:
            return False
        tables = tuple(replace(t, outcome=outcome) if t.key == key else t for t in self.tournament.tables)
        self.tournament = replace(self.tournament, tables=tables)  # as a reload would read it
        return True

    def set_entries(self, key: tuple[str, int, int, int], entries: dict[str, Any]) -> None:
        self.conn.execute(
            update(tournament_tables)
            .where(_where(self.tournament.id, key))
            .values(entries=json.dumps(entries) if entries else None)
        )
        self.touch()

    def touch(self) -> None:
        self.conn.execute(
            update(tournaments).where(tournaments.c.id == self.tournament.id).values(updated=self.now)
        )


class TournamentRows(Rows):
    """A storage's tournaments (``storage.tournaments``)."""

    def create(self, tournament: StoredTournament) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                tournaments.insert().values(
                    id=tournament.id,
                    name=tournament.name,
                    director_id=tournament.director_id,
                    settings=json.dumps(tournament.settings),
                    stage=tournament.stage,
                    created=tournament.created,
                    updated=tournament.updated,
                    starts=tournament.starts,
                )
            )

    def load(self, tournament_id: str) -> StoredTournament | None:
        """A tournament with its entrants and tables, or None."""
        with self.engine.connect() as conn:
            return load_tournament(conn, tournament_id)

    @contextmanager
    def locked(self, tournament_id: str) -> Iterator[TournamentTx]:
        """The tournament held for a change: its row locked until the block ends, its writes
        committed then (rolled back if the block raises).

        Raises:
            StorageError: no such tournament (``not_found``).
        """
        with self.engine.begin() as conn:
            if conn.dialect.name == "sqlite":  # take the one write lock before reading
                conn.execute(update(tournaments).where(false()).values(name=tournaments.c.name))
            found = load_tournament(conn, tournament_id, lock=True)
            if found is None:
                raise StorageError(f"no tournament {tournament_id!r}")
            yield TournamentTx(conn, found, self.now())

    def listed(self, limit: int = 100) -> list[StoredTournament]:
        """The newest tournaments first (without their entrants and tables)."""
        query = tournaments.select().order_by(tournaments.c.created.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            StoredTournament(
                r.id, r.name, r.director_id, json.loads(r.settings), r.stage, _utc(r.created), _utc(r.updated)
            )
            for r in rows
        ]

    def entered(self, tournament_id: str) -> int:
        """How many entrants a tournament has."""
        c = tournament_entrants.c
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).where(c.tournament_id == tournament_id)).scalar_one()
            )

    def of_game(self, game_id: str) -> tuple[str, StoredTable] | None:
        """The tournament and table an online game is played at, or None."""
        query = tournament_tables.select().where(tournament_tables.c.game_id == game_id)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else (row.tournament_id, table_of_row(row))

    def set_game(self, tournament_id: str, key: tuple[str, int, int, int], game_id: str) -> bool:
        """Give a table its online game unless it has one: whether this gave it."""
        c = tournament_tables.c
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tournament_tables)
                .where(_where(tournament_id, key) & c.game_id.is_(None))
                .values(game_id=game_id)
            )
        return bool(done.rowcount)

    def due_to_start(self, now: datetime) -> list[str]:
        """The ids of the tournaments in registration whose automatic start is due by ``now``."""
        c = tournaments.c
        query = select(c.id).where((c.starts <= now) & (c.stage == "registration")).order_by(c.starts)
        with self.engine.connect() as conn:
            return [str(row[0]) for row in conn.execute(query)]

    def give_games(
        self, tournament_id: str, given: Sequence[tuple[tuple[str, int, int, int], str, Sequence[str]]]
    ) -> set[tuple[str, int, int, int]]:
        """Give tables their online games, all in one transaction: for each ``(key, game_id,
        account_ids)``, the table's game unless it has one, and then the game's seats linked to
        the accounts (seat 0 the first), so that a game is its players' from the moment its
        table shows it.  The keys of the tables given theirs (the others' games are for the
        caller to remove)."""
        done: set[tuple[str, int, int, int]] = set()
        links = []
        with self.engine.begin() as conn:
            for key, game_id, account_ids in given:
                stage, round_number, number, game = key
                values = {"t": tournament_id, "st": stage, "r": round_number, "n": number, "gm": game}
                if conn.execute(_GIVE, {**values, "gid": game_id}).rowcount:
                    done.add(key)
                    links += [{"g": game_id, "s": n, "a": a} for n, a in enumerate(account_ids)]
            if links:
                conn.execute(_LINK, links)
        return done

    def running(self) -> list[str]:
        """The ids of the tournaments being played."""
        query = select(tournaments.c.id).where(tournaments.c.stage == "running")
        with self.engine.connect() as conn:
            return [str(row[0]) for row in conn.execute(query)]
