"""The online games of a tournament's tables (docs/tournaments.md, "Online and at the club"):
:class:`TableGames`.  A table's game seats its two entrants' accounts (the first at seat 0),
with the tournament's variant, clock and rating, and is given to the table unless another
process gave it one first.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ...storage.tournaments import StoredTable, StoredTournament
from ...table.seating import DEFAULT_LEVEL
from ...tournament.event import TableOutcome
from ..actor import Actor
from ..games.options import Options, SeatSpec
from .progress import stored_settings

if TYPE_CHECKING:
    from .book import Tournaments

__all__ = ["TableGames"]

log = logging.getLogger(__name__)


class TableGames:
    """Makes the online games of a tournament's new tables (a club's tables have none)."""

    def __init__(self, book: Tournaments) -> None:
        self.book = book
        self.service = book.service
        self.storage = book.service.storage

    def make(self, tournament_id: str, tables: list[StoredTable]) -> int:
        """Make each new table's online game: how many were made.  A failure is logged and
        left to :meth:`Tournaments.sweep`."""
        if not tables:
            return 0
        stored = self.storage.tournaments.load(tournament_id)
        if stored is None or stored_settings(stored).venue != "online":
            return 0
        made = 0
        for table in tables:
            try:
                made += self.make_one(stored, table) is not None
            except Exception:
                log.exception("the game of table %s of tournament %s was not made", table.key, tournament_id)
        return made

    def make_one(self, stored: StoredTournament, table: StoredTable) -> str | None:
        """Create a table's game: seat 0 the first entrant's account, seat 1 the second's, each
        linked to its account; given to the table unless another process gave it one first (then
        this one is removed).  Its id, or None (given by another, or forfeited: an account
        deleted meanwhile loses the table)."""
        settings = stored_settings(stored)
        by_number = {e.number: e for e in stored.entrants}
        assert table.second is not None
        people = [by_number[table.first], by_number[table.second]]
        accounts = [
            None if p.account_id is None else self.storage.accounts.load(p.account_id) for p in people
        ]
        if None in accounts:  # an account deleted meanwhile: its side forfeits
            gone = people[accounts.index(None)].number
            other = table.second if gone == table.first else table.first
            self.book.decide(stored.id, table.key, TableOutcome(other, gone, forfeit=True))
            return None
        first, second = accounts
        assert first is not None and second is not None
        options = Options(
            variant=settings.variant,
            names=(first.name,),
            clock=settings.clock,
            takeover=DEFAULT_LEVEL if settings.clock is not None else None,
            rated=settings.rated,
            tournament=stored.id,
        )
        layout = [SeatSpec("human"), SeatSpec("human")]
        created = self.service.create(options, layout, actor=Actor(account=first), accounts_names=True)
        code = next(invite["code"] for invite in created["invites"] if invite["seat"] == 1)
        self.service.join(
            code, second.name, actor=Actor(account=second), account_name=True, accept_rating=True
        )
        if not self.storage.tournaments.set_game(stored.id, table.key, created["id"]):
            self.storage.games.delete(created["id"])
            return None
        return str(created["id"])
