"""The online games of a tournament's tables (docs/tournaments.md, "Online and at the club"):
:class:`TableGames`.  A table's game seats its two entrants' accounts (the first at seat 0; in a
team event the first team at seats 0 and 2, partners facing each other, the second at 1 and 3),
with the tournament's variant, clock and rating.

A round's games are made together: each game stored with both its seats taken (keys nobody
holds: each player opens their seat from their account, ``POST /api/accounts/games/{id}/open``),
then in one transaction every table given its game and each game's seats linked to the two
accounts (:meth:`~cribbage.storage.tournaments.TournamentRows.give_games`), so that a table
shows a game only once its players can open it.  A table another process gave a game first
keeps that one (this one is removed); a process that stops before the transaction leaves games
no table or account knows (pruned as any abandoned game), and the sweep makes the tables' games.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from ...storage import StoredAccount, StoredGame
from ...storage.tournaments import StoredTable, StoredTournament
from ...table.seating import DEFAULT_LEVEL
from ...tournament.event import TableOutcome
from ..errors import AppError
from ..games.live_game import LiveGame
from ..games.options import Options, SeatSpec, hash_token
from ..games.rating_policy import check_rated_table
from .progress import stored_settings
from .settings import TournamentSettings

if TYPE_CHECKING:
    from .book import Tournaments

__all__ = ["TableGames"]

log = logging.getLogger(__name__)

HUMAN = SeatSpec("human")
"""Every seat of a table's game is a person's."""


def seating(first: Sequence[str | None], second: Sequence[str | None]) -> list[str | None]:
    """The accounts of a table's seats, in seat order, from each side's players: the sides
    alternate, so that partners sit opposite each other (seats 0 and 2, 1 and 3).

    >>> seating(["ann"], ["bob"]), seating(["ann", "cy"], ["bob", "di"])
    (['ann', 'bob'], ['ann', 'bob', 'cy', 'di'])
    """
    return [player for pair in zip(first, second, strict=True) for player in pair]


class TableGames:
    """Makes the online games of a tournament's new tables (a club's tables have none)."""

    def __init__(self, book: Tournaments) -> None:
        self.book = book
        self.service = book.service
        self.storage = book.service.storage

    def make(self, stored: StoredTournament, tables: Sequence[StoredTable]) -> int:
        """Make the online games of the new ``tables`` of the tournament ``stored`` (as read with
        them, its entrants at least): how many were made.  A failure is logged and left to
        :meth:`Tournaments.sweep`."""
        if not tables or stored_settings(stored).venue != "online":
            return 0
        try:
            return len(self.make_for(stored, tables))
        except Exception:
            log.exception("the games of %d tables of tournament %s were not made", len(tables), stored.id)
            return 0

    def make_for(self, stored: StoredTournament, tables: Sequence[StoredTable]) -> list[str]:
        """Make and give the games of ``tables`` (of an online tournament): the ids of the games
        given.  A table whose entrant's account was deleted meanwhile is that side's forfeit."""
        settings = stored_settings(stored)
        by_number = {e.number: e for e in stored.entrants}
        ids = [a for e in stored.entrants for a in e.accounts if a is not None]
        accounts = self.storage.accounts.by_ids(ids)
        new: list[tuple[StoredTable, LiveGame, list[str]]] = []
        for table in tables:
            assert table.second is not None
            sides = (by_number[table.first], by_number[table.second])
            seats = seating(*(side.accounts for side in sides))
            seated = [None if a is None else accounts.get(a) for a in seats]
            if None in seated:  # an account deleted meanwhile: its side forfeits
                gone = sides[seated.index(None) % 2].number
                other = table.second if gone == table.first else table.first
                self.book.decide(stored.id, table.key, TableOutcome(other, gone, forfeit=True))
                continue
            people = [a for a in seated if a is not None]
            live = self._stored_game(settings, stored.id, people)
            new.append((table, live, [a.id for a in people]))
        given = self.storage.tournaments.give_games(
            stored.id, [(table.key, live.id, ids) for table, live, ids in new]
        )
        made = []
        for table, live, _ in new:
            if table.key in given:
                made.append(live.id)
                self.service.sink(live.id)
            else:  # another process gave the table its game first
                self.storage.games.delete(live.id)
        # Those who asked are told their next game is ready (Web Push, correspondence events).
        self.service.tournament_ready.ready(stored.id, [table for table, _, _ in new if table.key in given])
        return made

    def record(self, tournament_id: str, game_id: str) -> dict[str, Any]:
        """The record of a finished game of the tournament's tables, for anyone (a scorecard's
        link to its review: a tournament's games are public once over, as a club's scorecards).

        Raises:
            AppError: ``tournament.no_table`` (no table of this tournament plays that game),
                ``tournament.game_not_over``.
        """
        found = self.storage.tournaments.of_game(game_id)
        if found is None or found[0] != tournament_id:
            raise AppError("tournament.no_table", f"no table of this tournament plays game {game_id!r}")
        with self.service.repository.held(game_id) as live:
            if not live.over:
                raise AppError("tournament.game_not_over", "the game's record is shown once it is over")
            return live.game.to_json()

    def _stored_game(
        self, settings: TournamentSettings, tournament_id: str, people: Sequence[StoredAccount]
    ) -> LiveGame:
        """A table's new game, stored with every seat taken (the accounts' names, in seat
        order), its turn clock running, cached; no table has it yet."""
        layout = tuple(HUMAN for _ in people)
        options = Options(
            variant=settings.variant,
            names=tuple(p.name for p in people),
            clock=settings.clock,
            takeover=DEFAULT_LEVEL if settings.clock is not None else None,
            rated=settings.rated,
            tournament=tournament_id,
        )
        if options.rated:
            check_rated_table(options, layout)
        token_hash = hash_token(secrets.token_urlsafe(32))
        live = LiveGame.new(
            secrets.token_urlsafe(24), token_hash, options, layout, self.service.repository.players
        )
        others = [
            replace(seat, token_hash=hash_token(secrets.token_urlsafe(32)), code=None, taken=True)
            for seat in live.seats[1:]
        ]
        live.set_seats([live.seats[0], *others])
        stored = StoredGame(
            id=live.id,
            token_hash=token_hash,
            options={**asdict(options), "names": list(options.names)},
            record=live.game.to_json(),
            version=live.version,
            over=live.over,
        )
        self.storage.games.insert(stored, live.seats, listed=options.public)
        self.service.clocks.start(live)
        return self.service.repository.remember(live)
