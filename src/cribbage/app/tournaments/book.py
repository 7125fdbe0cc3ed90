"""The requests of tournaments (docs/api.md, "Tournaments"): :class:`Tournaments`.

A director (an account) creates a tournament; accounts register and check in (at a club the
director also enters guests by name and checks people in); the director starts it; then the
rules (:class:`~cribbage.tournament.event.TournamentEvent`) say which tables come next, and each is made
the moment the tables before it are decided: online a game at the server's tables, its seats
the entrants' accounts, decided when the game ends (:meth:`Tournaments.game_changed`, from the
service's sink); at a club a real board, decided when both players' entered results agree or
the director enters it.  Every change is made with the tournament's row locked
(:meth:`~cribbage.storage.tournaments.TournamentRows.locked`), so of two processes deciding
the last game of a round at once, one makes the next round and the other finds it made.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from ...storage import StorageError, StoredAccount
from ...storage.tournaments import StoredTable, StoredTournament, TournamentTx
from ...tournament import TournamentError
from ...tournament.event import TableOutcome
from ..errors import AppError
from ..people.names import name_key
from . import entries
from .games import TableGames
from .progress import (
    FINISHED,
    REGISTRATION,
    RUNNING,
    advance,
    check_startable,
    entered_outcome,
    event_of,
    find_table,
    outcome_json,
    outcome_of_game,
    stored_settings,
)
from .settings import TournamentSettings
from .view import tournament_json

if TYPE_CHECKING:
    from ..service import GameService

__all__ = ["Tournaments"]

log = logging.getLogger(__name__)

GRACE_SECONDS: Final = 60.0
"""A table's game not made this long after the table is made by the sweep: its maker stopped."""


def _refused(exc: TournamentError) -> AppError:
    return AppError("tournament.invalid", str(exc))


class Tournaments:
    """Tournaments on a :class:`~cribbage.app.service.GameService` (their games are its games)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.storage = service.storage
        self.rows = service.storage.tournaments
        self.games = TableGames(self)
        """The online games of the tables."""

    # ------------------------------------------------------------------ reading

    def get(self, tournament_id: str, account: StoredAccount | None = None) -> dict[str, Any]:
        """The tournament as everyone sees it (and ``you``: the account's entry and table)."""
        stored = self.rows.load(tournament_id)
        if stored is None:
            raise AppError("tournament.not_found", f"no tournament {tournament_id!r}")
        return tournament_json(stored, account)

    def listed(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest tournaments: id, name, stage, settings and entrants."""
        return [
            {
                "id": t.id,
                "name": t.name,
                "stage": t.stage,
                "settings": t.settings,
                "entrants": self.rows.entered(t.id),
                "created": t.created.isoformat(),
            }
            for t in self.rows.listed(limit)
        ]

    @contextmanager
    def _held(self, tournament_id: str) -> Iterator[TournamentTx]:
        try:
            with self.rows.locked(tournament_id) as tx:
                yield tx
        except StorageError:
            raise AppError("tournament.not_found", f"no tournament {tournament_id!r}") from None

    # ------------------------------------------------------------------ the director's

    def create(self, account: StoredAccount, data: object) -> dict[str, Any]:
        """A new tournament directed by ``account``, open for registration.

        Raises:
            AppError: ``invalid`` with the setting at fault.
        """
        settings = TournamentSettings.from_json(data)
        starts = None if settings.starts is None else datetime.fromisoformat(settings.starts).astimezone(UTC)
        stored = StoredTournament(
            secrets.token_hex(8), settings.name, account.id, settings.to_json(), REGISTRATION, starts=starts
        )
        self.rows.create(stored)
        return self.get(stored.id, account)

    def _director(self, tx: TournamentTx, account: StoredAccount) -> None:
        if tx.tournament.director_id != account.id:
            raise AppError("tournament.not_director", "only the tournament's director may do this")

    def add_guest(
        self, tournament_id: str, account: StoredAccount, name: object, partner: object = None
    ) -> dict[str, Any]:
        """The director enters a guest by name (a club's tournament), checked in; in a team event
        with the partner's name (:func:`.entries.enter_guest`)."""
        with self._held(tournament_id) as tx:
            self._director(tx, account)
            number = entries.enter_guest(tx, name, partner)
        return {"number": number, **self.get(tournament_id, account)}

    def start(self, tournament_id: str, account: StoredAccount) -> dict[str, Any]:
        """The director starts the tournament: the entrants checked in play, the first round's
        tables are made.

        Raises:
            AppError: ``tournament.not_director``, ``tournament.started``, and
                :func:`~.progress.check_startable`'s refusals.
        """
        with self._held(tournament_id) as tx:
            self._director(tx, account)
            self._open(tx)
            check_startable(tx.tournament)
            made = self._begin(tx)
        self.games.make(tx.tournament, made)
        return self.get(tournament_id, account)

    def _begin(self, tx: TournamentTx) -> list[StoredTable]:
        """Start the tournament held: running, its first tables stored (the new ones to play)."""
        tx.set_stage(RUNNING)
        tx.reload()
        return self._advance(tx)

    def start_due(self, tournament_id: str) -> list[StoredTable] | None:
        """The automatic start at the tournament's start time (``starts``), as the director's
        :meth:`start`, made by one process: under the row's lock, only while it is due (in
        registration, its time passed, not yet tried).  Tried once: with too few checked in (or
        too many games for the field) it stays in registration, for the director to start.
        The tables made (their games made too), or None when it was not started."""
        with self._held(tournament_id) as tx:
            stored = tx.tournament
            if stored.stage != REGISTRATION or stored.starts is None or stored.starts > tx.now:
                return None  # started or tried already (by another process, or the director)
            tx.clear_start()
            try:
                check_startable(tx.tournament)
            except AppError as refused:
                log.info("tournament %s was not started at its time: %s", tournament_id, refused)
                return None
            made = self._begin(tx)
        self.games.make(tx.tournament, made)
        return made

    def _open(self, tx: TournamentTx) -> None:
        if tx.tournament.stage != REGISTRATION:
            raise AppError("tournament.started", "the tournament has started: registration is closed")

    def _advance(self, tx: TournamentTx) -> list[StoredTable]:
        try:
            return advance(tx)
        except TournamentError as exc:
            raise _refused(exc) from exc

    # ------------------------------------------------------------------ the entrants'

    def register(self, tournament_id: str, account: StoredAccount, partner: object = None) -> dict[str, Any]:
        """Enter ``account`` (not yet checked in); in a team event with its ``partner``, an
        account's name, who accepts (:meth:`accept_partner`) before the team checks in.

        Raises:
            AppError: ``invalid`` (field ``partner``: no account of that name), and
                :func:`.entries.enter_account`'s refusals.
        """
        mate = None
        if partner is not None:
            if not isinstance(partner, str):
                raise AppError("invalid", "partner is an account's name", field="partner")
            mate = self.storage.accounts.by_name(name_key(partner.strip()))
            if mate is None:
                raise AppError("invalid", f"no account is named {partner!r}", field="partner", name=partner)
        with self._held(tournament_id) as tx:
            entries.enter_account(tx, account, mate)
        return self.get(tournament_id, account)

    def accept_partner(self, tournament_id: str, account: StoredAccount) -> dict[str, Any]:
        """The account accepts to play as the partner of the team that named it."""
        with self._held(tournament_id) as tx:
            entries.partner_accepts(tx, account)
        return self.get(tournament_id, account)

    def _entrant(self, tx: TournamentTx, account: StoredAccount, number: object) -> int:
        """The entrant a request is for: the account's own, or (the director's request) ``number``."""
        if number is None:
            own = entries.entry_of(tx.tournament, account.id)
            if own is None:
                raise AppError("tournament.not_entered", "you are not entered in this tournament")
            return own.number
        self._director(tx, account)
        if isinstance(number, bool) or not isinstance(number, int):
            raise AppError("invalid", "number is an entrant's number", field="number")
        if all(e.number != number for e in tx.tournament.entrants):
            raise AppError("tournament.not_entered", f"no entrant {number}", number=number)
        return number

    def check_in(self, tournament_id: str, account: StoredAccount, number: object = None) -> dict[str, Any]:
        """Check in (the account's own entry, or the director checks in entrant ``number``)."""
        with self._held(tournament_id) as tx:
            entries.mark_checked_in(tx, self._entrant(tx, account, number))
        return self.get(tournament_id, account)

    def withdraw(self, tournament_id: str, account: StoredAccount, number: object = None) -> dict[str, Any]:
        """Withdraw (the account's own entry, or the director withdraws ``number``): before the
        start the entry is removed; after it every game of the entrant not yet decided is
        forfeited to its opponent (one in progress too), and the tournament moves on.

        Raises:
            AppError: ``tournament.not_entered``, ``tournament.withdrawn`` (already), ``tournament.finished``.
        """
        with self._held(tournament_id) as tx:
            entrant = self._entrant(tx, account, number)
            stored = tx.tournament
            made: list[StoredTable] = []
            if stored.stage == REGISTRATION:
                tx.remove_entrant(entrant)
            elif stored.stage == FINISHED:
                raise AppError("tournament.finished", "the tournament is over")
            else:
                row = next(e for e in stored.entrants if e.number == entrant)
                if row.withdrawn or not row.checked_in:
                    raise AppError("tournament.withdrawn", "that entrant is not playing", number=entrant)
                tx.set_entrant(entrant, withdrawn=True)
                for table, outcome in event_of(stored).forfeits_on_withdrawal(entrant):
                    tx.decide(table.key, outcome_json(outcome))
                tx.reload()
                made = self._advance(tx)
        self.games.make(tx.tournament, made)
        return self.get(tournament_id, account)

    # ------------------------------------------------------------------ results

    def game_changed(self, game_id: str) -> None:
        """A game changed: if it is a tournament's online game and is over, its outcome is
        recorded and the tournament moves on (the next tables made).  Never raises (a failure is
        logged; :meth:`sweep` finishes what was left)."""
        live = self.service.repository.peek(game_id)
        if live is not None and (live.options.tournament is None or not live.over):
            return
        try:
            self._game_over(game_id)
        except Exception:
            log.exception("the tournament of game %s did not move on", game_id)

    def _game_over(self, game_id: str) -> None:
        found = self.rows.of_game(game_id)
        if found is None or found[1].outcome is not None:
            return
        tournament_id, table = found
        with self.service.repository.held(game_id) as live:
            outcome = outcome_of_game(live, table, live.table.rules)
        if outcome is None:
            return
        self.decide(tournament_id, table.key, outcome)

    def decide(self, tournament_id: str, key: tuple[str, int, int, int], outcome: TableOutcome) -> bool:
        """Record a table's outcome (unless it has one) and make the tables that come next:
        whether this recorded it."""
        with self._held(tournament_id) as tx:
            if not tx.decide(key, outcome_json(outcome)):
                return False
            made = self._advance(tx)
        self.games.make(tx.tournament, made)
        return True

    def report(self, tournament_id: str, account: StoredAccount, data: object) -> dict[str, Any]:
        """A club game's result, entered by a player at its table or by the director:
        ``{"stage", "round", "number", "game", "winner", "loser_points"}`` (``"forfeit": true``
        instead of the points: the director's forfeit).  The director's entry decides the
        table; a player's is kept until the other player's agrees (the game points, skunk and
        spread follow from the winner and the loser's score); two that disagree are shown to the
        director and count for nothing.

        Raises:
            AppError: ``tournament.no_table``, ``tournament.online_table`` (its game decides it),
                ``tournament.decided``, ``tournament.not_your_table``, ``tournament.entered``
                (your entry is made already), ``invalid`` (a winner not at the table, a score).
        """
        if not isinstance(data, dict):
            raise AppError("invalid", "the result is a JSON object", field="result")
        with self._held(tournament_id) as tx:
            stored = tx.tournament
            table = find_table(stored, data)
            if stored_settings(stored).venue != "club":
                raise AppError("tournament.online_table", "an online table is decided by its game")
            if table.outcome is not None:
                raise AppError("tournament.decided", "the table's result is recorded already")
            outcome = entered_outcome(table, data, stored_settings(stored).target())
            made: list[StoredTable] = []
            if stored.director_id == account.id:
                tx.decide(table.key, outcome_json(outcome))
            else:
                own = entries.entry_of(stored, account.id)
                entrant = None if own is None else own.number
                if entrant not in (table.first, table.second):
                    raise AppError("tournament.not_your_table", "you do not play at this table")
                if outcome.forfeit:
                    raise AppError("invalid", "only the director enters a forfeit", field="forfeit")
                if str(entrant) in table.entries:
                    raise AppError("tournament.entered", "your result for this table is entered already")
                entered = {
                    **table.entries,
                    str(entrant): {"winner": outcome.winner, "loser_points": outcome.loser_points},
                }
                tx.set_entries(table.key, entered)
                if (
                    len(entered) == 2
                    and len({(e["winner"], e["loser_points"]) for e in entered.values()}) == 1
                ):
                    tx.decide(table.key, outcome_json(outcome))
            tx.reload()
            made = self._advance(tx)
        self.games.make(tx.tournament, made)
        return self.get(tournament_id, account)

    def sweep(self, only: str | None = None, grace: float = GRACE_SECONDS) -> int:
        """Start the tournaments whose start time has passed (:meth:`start_due`), and finish
        what a stopped process left: in each running tournament (or only the one of id
        ``only``), make the tables that are due and their games, the online games of the
        undecided tables that have none (made over ``grace`` seconds ago: younger ones are their
        maker's still), and record the games that ended without being recorded.  The count of
        tables and games made."""
        due = [t for t in self.rows.due_to_start(self.storage.now()) if only in (None, t)]
        running = self.rows.running() if only is None else [only]
        done = 0
        for tournament_id, due_now in [(t, True) for t in due] + [(t, False) for t in running]:
            try:
                if due_now:
                    done += len(self.start_due(tournament_id) or ())
                else:
                    done += self._repair(tournament_id, grace)
            except Exception:
                if only is not None:  # the admin's repair says what failed
                    raise
                log.exception("the sweep of tournament %s failed", tournament_id)  # the others go on
        return done

    def _repair(self, tournament_id: str, grace: float) -> int:
        with self._held(tournament_id) as tx:
            made = self._advance(tx)
        done = len(made) + self.games.make(tx.tournament, made)
        stored = self.rows.load(tournament_id)
        if stored is None:
            return done
        age, gameless = timedelta(seconds=grace), []
        for table in stored.tables:
            if table.outcome is not None or table.second is None:
                continue
            if table.game_id is not None:
                self._game_over(table.game_id)
            elif stored_settings(stored).venue == "online" and self.storage.now() - table.created >= age:
                gameless.append(table)
        return done + (len(self.games.make_for(stored, gameless)) if gameless else 0)
