"""Telling an entrant of a correspondence tournament that its next game is ready (Web Push,
docs/api.md, "Tournaments"): :class:`TournamentReady`.

An entrant's account opts in with its browser's push subscription (:meth:`TournamentReady.subscribe`,
checked as a seat's is: :func:`~cribbage.app.notify.notices.subscription`); once a new table's
game is made and given (:class:`~.games.TableGames`), :meth:`TournamentReady.ready` finds the
opt-ins of its two entrants, marks each told of that game (one conditional statement: of
several processes, one tells it) and hands each notice to the transport's ``send``
(:mod:`cribbage.web.webpush` queues it in its push service's line; nothing waits).  Codes and
numbers only: ``{"type": "game_ready", "tournament": ID, "game": GAME_ID}``, worded by the
page's service worker.  This module knows nothing of HTTP.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from ...storage import Storage, StoredAccount, TournamentSubscription
from ...storage.tournaments import StoredTable, StoredTournament
from ..errors import AppError
from ..games.options import CORRESPONDENCE
from ..notify.endpoints import PushRules
from ..notify.notices import subscription
from .entries import entry_of
from .progress import stored_settings

__all__ = ["ReadySend", "TournamentReady", "ready_notice"]

log = logging.getLogger(__name__)

ReadySend = Callable[[TournamentSubscription, dict[str, Any]], object]
"""The transport's sending of one notice to one opt-in (it must not wait for the push service)."""


def ready_notice(tournament_id: str, game_id: str) -> dict[str, Any]:
    """What a notice says, as codes (the page's service worker words it)."""
    return {"type": "game_ready", "tournament": tournament_id, "game": game_id}


def _nowhere(_sub: TournamentSubscription, _message: dict[str, Any]) -> None:
    return None


class TournamentReady:
    """The entrants' opt-ins, and whom to tell once their tables' games are made.

    Args:
        storage: where the tournaments and the opt-ins are.
        rules: where notices may be sent (the transport's, given by :meth:`attach`).
    """

    def __init__(self, storage: Storage, rules: PushRules | None = None) -> None:
        self.storage = storage
        self.rules = rules or PushRules()
        self.send: ReadySend = _nowhere
        """Sends a notice (the transport's; until one attaches, nobody is told)."""

    def attach(self, rules: PushRules, send: ReadySend) -> None:
        """The transport's rules of endpoints, and its sending."""
        self.rules, self.send = rules, send

    def _tournament(self, tournament_id: str) -> StoredTournament:
        stored = self.storage.tournaments.load(tournament_id)
        if stored is None:
            raise AppError("tournament.not_found", f"no tournament {tournament_id!r}")
        return stored

    def subscribe(
        self, tournament_id: str, account: StoredAccount, endpoint: str, p256dh: str, auth: str
    ) -> None:
        """The account, an entrant, opts in (replacing its earlier browser).

        Raises:
            AppError: ``tournament.not_found``; ``push.not_correspondence`` for a tournament
                played at a club or with a clock shorter than an hour; ``tournament.not_entered``
                (the account is no entrant), ``tournament.withdrawn``; ``push.bad_endpoint``,
                ``push.bad_subscription``.
        """
        stored = self._tournament(tournament_id)
        settings = stored_settings(stored)
        if settings.venue != "online" or settings.clock is None or settings.clock < CORRESPONDENCE:
            raise AppError(
                "push.not_correspondence",
                f"notices are for correspondence tournaments (a clock of {CORRESPONDENCE} seconds or more)",
            )
        entrant = entry_of(stored, account.id)
        if entrant is None:
            raise AppError("tournament.not_entered", "you are not entered in this tournament")
        if entrant.withdrawn:
            raise AppError("tournament.withdrawn", "you withdrew from this tournament", number=entrant.number)
        checked = subscription(tournament_id, 0, endpoint, p256dh, auth, self.rules)  # a seat's checks
        self.storage.tournament_push.subscribe(
            TournamentSubscription(tournament_id, account.id, checked.endpoint, checked.p256dh, checked.auth)
        )

    def unsubscribe(self, tournament_id: str, account: StoredAccount) -> bool:
        """The account opts out; True if it had opted in.

        Raises:
            AppError: ``tournament.not_found``.
        """
        self._tournament(tournament_id)
        return self.storage.tournament_push.unsubscribe(tournament_id, account.id)

    def ready(
        self, tournament_id: str, tables: Sequence[StoredTable]
    ) -> list[tuple[TournamentSubscription, dict[str, Any]]]:
        """``tables`` of the tournament were given their games: each of their entrants who opted
        in and was not told of that game yet is told (the transport's ``send``); the opt-ins told
        and their notices.  A table without a game (a club's, a forfeit) tells nobody.  Never
        raises (a failure is logged: the games are made whatever becomes of their notices)."""
        try:
            due = self._due(tournament_id, tables)
        except Exception:
            log.exception("the notices of %d tables of tournament %s failed", len(tables), tournament_id)
            return []
        for sub, message in due:
            self.send(sub, message)
        return due

    def _due(
        self, tournament_id: str, tables: Sequence[StoredTable]
    ) -> list[tuple[TournamentSubscription, dict[str, Any]]]:
        if not tables or not self.storage.tournament_push.subscriptions(tournament_id):
            return []  # nobody of this tournament opted in: nothing more is read
        stored = self.storage.tournaments.load(tournament_id)
        if stored is None:
            return []
        by_key = {table.key: table for table in stored.tables}
        accounts_of = {e.number: e.accounts for e in stored.entrants}
        games: dict[str, str] = {}
        for asked in tables:
            table = by_key.get(asked.key)
            if table is None or table.game_id is None or table.second is None:
                continue
            for number in (table.first, table.second):
                for account_id in accounts_of.get(number, ()):
                    if account_id is not None:
                        games[account_id] = table.game_id
        told = self.storage.tournament_push.to_tell(tournament_id, games)
        return [(sub, ready_notice(tournament_id, games[sub.account_id])) for sub in told]
