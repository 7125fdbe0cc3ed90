"""Tournament entrants' Web Push opt-ins (``storage.tournament_push``): an account of a
correspondence tournament asks to be told when its next game is ready
(:data:`tournament_push`, migration 0019; :mod:`cribbage.app.tournaments.ready` decides).

One opt-in per account per tournament (the last browser to opt in); ``told`` is the game it
was last told of, set in one conditional statement, so of several processes one tells it.

>>> from cribbage.storage import Storage
>>> from cribbage.storage.tournaments import StoredTournament
>>> store = Storage("sqlite://")
>>> store.tournaments.create(StoredTournament("t1", "Club night", None, {}, "registration"))
>>> store.tournament_push.subscribe(TournamentSubscription("t1", "a1", "https://p.test/1", "k", "s"))
>>> [sub.account_id for sub in store.tournament_push.to_tell("t1", {"a1": "g1", "a2": "g1"})]
['a1']
>>> store.tournament_push.to_tell("t1", {"a1": "g1"})  # told of g1 already
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Column, ColumnElement, DateTime, ForeignKey, Integer, String, Table, and_, or_

from .push import BrowserAddress, OptInRows
from .tables import metadata

__all__ = ["TournamentPushRows", "TournamentSubscription", "tournament_push"]

tournament_push = Table(
    "tournament_push",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("told", String(64)),
    Column("failures", Integer, nullable=False, server_default="0"),
)
"""An account's opt-in to be told by Web Push when its next game of a tournament is ready (one
browser an account a tournament: the last to opt in): the push service's ``endpoint`` and the
browser's keys (base64url); ``told``: the game it was last told of (null: none yet);
``failures``: the notices in a row its push service did not take (too many drop it)."""


@dataclass(frozen=True, slots=True)
class TournamentSubscription(BrowserAddress):
    """An entrant's opt-in: its tournament and account, and its browser's address."""

    tournament_id: str
    account_id: str
    endpoint: str
    p256dh: str
    auth: str

    @property
    def label(self) -> str:
        """Whose it is, for the log."""
        return f"tournament {self.tournament_id} to {self.account_id}"


class TournamentPushRows(OptInRows[TournamentSubscription]):
    """A storage's tournament opt-ins (``storage.tournament_push``)."""

    table = tournament_push

    def subscribe(self, sub: TournamentSubscription) -> None:
        """Store the account's opt-in, replacing the one it had (one browser a tournament)."""
        with self.engine.begin() as conn:
            conn.execute(tournament_push.delete().where(self._one(sub.tournament_id, sub.account_id)))
            conn.execute(
                tournament_push.insert().values(
                    tournament_id=sub.tournament_id,
                    account_id=sub.account_id,
                    endpoint=sub.endpoint,
                    p256dh=sub.p256dh,
                    auth=sub.auth,
                    created=self.now(),
                )
            )

    def unsubscribe(self, tournament_id: str, account_id: str) -> bool:
        """Remove the account's opt-in; True if there was one (a push service's "gone":
        :meth:`~cribbage.storage.push.OptInRows.gone`)."""
        delete = tournament_push.delete().where(self._one(tournament_id, account_id))
        with self.engine.begin() as conn:
            return conn.execute(delete).rowcount > 0

    def subscriptions(self, tournament_id: str) -> list[TournamentSubscription]:
        """The tournament's opt-ins, by account."""
        table = tournament_push
        query = table.select().where(table.c.tournament_id == tournament_id).order_by(table.c.account_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            TournamentSubscription(row.tournament_id, row.account_id, row.endpoint, row.p256dh, row.auth)
            for row in rows
        ]

    def to_tell(self, tournament_id: str, games: Mapping[str, str]) -> list[TournamentSubscription]:
        """The opt-ins of the accounts of ``games`` (account id to its new game's id) not told of
        that game yet, each marked told of it (one conditional statement each: of several
        processes, one is answered)."""
        table = tournament_push
        told: list[TournamentSubscription] = []
        with self.engine.begin() as conn:
            for account_id, game_id in games.items():
                row = conn.execute(
                    table.update()
                    .where(
                        self._one(tournament_id, account_id),
                        or_(table.c.told.is_(None), table.c.told != game_id),
                    )
                    .values(told=game_id)
                    .returning(table.c.endpoint, table.c.p256dh, table.c.auth)
                ).first()
                if row is not None:
                    told.append(TournamentSubscription(tournament_id, account_id, row[0], row[1], row[2]))
        return told

    @staticmethod
    def _one(tournament_id: str, account_id: str) -> ColumnElement[bool]:
        table = tournament_push
        return and_(table.c.tournament_id == tournament_id, table.c.account_id == account_id)

    def _same(self, sub: TournamentSubscription) -> ColumnElement[bool]:
        """The row of ``sub``: its account's, while it is still for ``sub``'s endpoint."""
        return and_(
            TournamentPushRows._one(sub.tournament_id, sub.account_id),
            tournament_push.c.endpoint == sub.endpoint,
        )
