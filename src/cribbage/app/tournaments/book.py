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
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

from ...storage import StorageError, StoredAccount
from ...storage.tournaments import StoredTable, StoredTournament, TournamentTx
from ...table.seating import DEFAULT_LEVEL
from ...tournament import TournamentError, rotation_capacity
from ...tournament.event import TableOutcome
from ..actor import Actor
from ..errors import AppError
from ..games.options import Options, SeatSpec
from .progress import (
    FINISHED,
    REGISTRATION,
    RUNNING,
    advance,
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
        stored = StoredTournament(
            secrets.token_hex(8), settings.name, account.id, settings.to_json(), REGISTRATION
        )
        self.rows.create(stored)
        return self.get(stored.id, account)

    def _director(self, tx: TournamentTx, account: StoredAccount) -> None:
        if tx.tournament.director_id != account.id:
            raise AppError("tournament.not_director", "only the tournament's director may do this")

    def add_guest(self, tournament_id: str, account: StoredAccount, name: object) -> dict[str, Any]:
        """The director enters a guest by name (a club's tournament), checked in."""
        from ..people.names import check_name

        guest = check_name(name, code="invalid", field="name")
        with self._held(tournament_id) as tx:
            self._director(tx, account)
            if stored_settings(tx.tournament).venue != "club":
                raise AppError("tournament.guest_online", "guests play at a club's real boards only")
            self._open(tx)
            number = tx.add_entrant(None, guest, checked_in=True)
        return {"number": number, **self.get(tournament_id, account)}

    def start(self, tournament_id: str, account: StoredAccount) -> dict[str, Any]:
        """The director starts the tournament: the entrants checked in play, the first round's
        tables are made.

        Raises:
            AppError: ``tournament.not_director``, ``tournament.started``, ``tournament.too_few``
                (fewer than two checked in), ``tournament.too_many_games`` (more qualifying
                games than the field can play: a rotation twice round its circle, a Swiss
                round by standing as many rounds as the circle has, never a third meeting).
        """
        with self._held(tournament_id) as tx:
            self._director(tx, account)
            self._open(tx)
            field_ = [e for e in tx.tournament.entrants if e.checked_in]
            if len(field_) < 2:
                raise AppError(
                    "tournament.too_few", "a tournament needs two entrants checked in", entrants=len(field_)
                )
            settings = stored_settings(tx.tournament)
            # A rotation goes round the circle twice at most; a Swiss round by standing, once.
            most = rotation_capacity(len(field_)) * (2 if settings.pairing == "rotation" else 1)
            if settings.games > most:
                raise AppError(
                    "tournament.too_many_games",
                    f"{len(field_)} entrants play at most {most} games paired by {settings.pairing}",
                    games=settings.games,
                    most=most,
                )
            tx.set_stage(RUNNING)
            tx.reload()
            made = self._advance(tx)
        self._make_games(tournament_id, made)
        return self.get(tournament_id, account)

    def _open(self, tx: TournamentTx) -> None:
        if tx.tournament.stage != REGISTRATION:
            raise AppError("tournament.started", "the tournament has started: registration is closed")

    def _advance(self, tx: TournamentTx) -> list[StoredTable]:
        try:
            return advance(tx)
        except TournamentError as exc:
            raise _refused(exc) from exc

    # ------------------------------------------------------------------ the entrants'

    def register(self, tournament_id: str, account: StoredAccount) -> dict[str, Any]:
        """Enter ``account`` (not yet checked in).

        Raises:
            AppError: ``tournament.started``, ``tournament.registered`` (entered already),
                ``tournament.full`` (the entry limit reached).
        """
        with self._held(tournament_id) as tx:
            self._open(tx)
            if any(e.account_id == account.id for e in tx.tournament.entrants):
                raise AppError("tournament.registered", "you are entered already")
            limit = stored_settings(tx.tournament).limit
            if len(tx.tournament.entrants) >= limit:
                raise AppError("tournament.full", f"the tournament is full ({limit} entrants)", most=limit)
            tx.add_entrant(account.id, account.name)
        return self.get(tournament_id, account)

    def _entrant(self, tx: TournamentTx, account: StoredAccount, number: object) -> int:
        """The entrant a request is for: the account's own, or (the director's request) ``number``."""
        if number is None:
            own = next((e.number for e in tx.tournament.entrants if e.account_id == account.id), None)
            if own is None:
                raise AppError("tournament.not_entered", "you are not entered in this tournament")
            return own
        self._director(tx, account)
        if isinstance(number, bool) or not isinstance(number, int):
            raise AppError("invalid", "number is an entrant's number", field="number")
        if all(e.number != number for e in tx.tournament.entrants):
            raise AppError("tournament.not_entered", f"no entrant {number}", number=number)
        return number

    def check_in(self, tournament_id: str, account: StoredAccount, number: object = None) -> dict[str, Any]:
        """Check in (the account's own entry, or the director checks in entrant ``number``)."""
        with self._held(tournament_id) as tx:
            self._open(tx)
            tx.set_entrant(self._entrant(tx, account, number), checked_in=True)
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
        self._make_games(tournament_id, made)
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
            tx.reload()
            made = self._advance(tx)
        self._make_games(tournament_id, made)
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
                entrant = next((e.number for e in stored.entrants if e.account_id == account.id), None)
                if entrant not in (table.first, table.second):
                    raise AppError("tournament.not_your_table", "you do not play at this table")
                if outcome.forfeit:
                    raise AppError("invalid", "only the director enters a forfeit", field="forfeit")
                if str(entrant) in table.entries:
                    raise AppError("tournament.entered", "your result for this table is entered already")
                entries = {
                    **table.entries,
                    str(entrant): {"winner": outcome.winner, "loser_points": outcome.loser_points},
                }
                tx.set_entries(table.key, entries)
                if (
                    len(entries) == 2
                    and len({(e["winner"], e["loser_points"]) for e in entries.values()}) == 1
                ):
                    tx.decide(table.key, outcome_json(outcome))
            tx.reload()
            made = self._advance(tx)
        self._make_games(tournament_id, made)
        return self.get(tournament_id, account)

    # ------------------------------------------------------------------ the online games

    def _make_games(self, tournament_id: str, tables: list[StoredTable]) -> None:
        """Make each new table's online game (a club's tables have none); a failure is logged and
        left to :meth:`sweep`."""
        stored = self.rows.load(tournament_id)
        if stored is None or stored_settings(stored).venue != "online":
            return
        for table in tables:
            try:
                self._make_game(stored, table)
            except Exception:
                log.exception("the game of table %s of tournament %s was not made", table.key, tournament_id)

    def _make_game(self, stored: StoredTournament, table: StoredTable) -> str | None:
        """Create a table's game: seat 0 the first entrant's account, seat 1 the second's, each
        linked to its account; given to the table unless another process gave it one first (then
        this one is removed)."""
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
            self.decide(stored.id, table.key, TableOutcome(other, gone, forfeit=True))
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
        if not self.rows.set_game(stored.id, table.key, created["id"]):
            self.storage.games.delete(created["id"])
            return None
        return created["id"]

    def sweep(self, only: str | None = None, grace: float = GRACE_SECONDS) -> int:
        """Finish what a stopped process left: in each running tournament (or only the one of id
        ``only``), make the tables that are due, the online games of the undecided tables that
        have none (made over ``grace`` seconds ago: younger ones are their maker's still), and
        record the games that ended without being recorded.  The count of tables and games made."""
        done, age = 0, timedelta(seconds=grace)
        for tournament_id in self.rows.running() if only is None else [only]:
            with self._held(tournament_id) as tx:
                made = self._advance(tx)
            done += len(made)
            stored = self.rows.load(tournament_id)
            if stored is None:
                continue
            for table in stored.tables:
                if table.outcome is not None or table.second is None:
                    continue
                if table.game_id is not None:
                    self._game_over(table.game_id)
                elif stored_settings(stored).venue == "online" and self.storage.now() - table.created >= age:
                    done += self._make_game(stored, table) is not None
        return done
