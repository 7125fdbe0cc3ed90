"""The server's own keys, made once and shared by every process, and the seats' Web Push opt-ins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from sqlalchemy import ColumnElement, Delete, Table, and_, false, select, true
from sqlalchemy.exc import IntegrityError

from .database import Rows
from .tables import push_subscriptions, server_keys

__all__ = ["BrowserAddress", "OptInRows", "PushRows", "Subscription"]

S = TypeVar("S")


class BrowserAddress:
    """What every opt-in has (a seat's, a tournament entrant's): where its browser's push
    service takes messages (``endpoint``) and the browser's keys (base64url, as
    ``PushSubscription.toJSON()`` gives them), as ``pywebpush.webpush`` reads them."""

    __slots__ = ()
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, object]:
        """The subscription as ``pywebpush.webpush`` reads it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True, slots=True)
class Subscription(BrowserAddress):
    """A seat's opt-in: its game and seat, and its browser's address."""

    game_id: str
    seat: int
    endpoint: str
    p256dh: str
    auth: str

    @property
    def label(self) -> str:
        """Whose it is, for the log."""
        return f"game {self.game_id} seat {self.seat}"


class OptInRows(Rows, Generic[S]):
    """What the Web Push opt-ins of every kind (a seat's, :class:`PushRows`; a tournament
    entrant's, :class:`~cribbage.storage.tournament_push.TournamentPushRows`) share: a notice's
    fate kept on the row of ``sub`` while it is still for ``sub``'s endpoint (:meth:`_same`)."""

    table: ClassVar[Table]

    def _same(self, sub: S) -> ColumnElement[bool]:
        raise NotImplementedError

    def gone(self, sub: S) -> bool:
        """The push service said the browser dropped ``sub``: its opt-in removed (unless it is
        for another endpoint now); True if it was there."""
        with self.engine.begin() as conn:
            return conn.execute(self.table.delete().where(self._same(sub))).rowcount > 0

    def delivered(self, sub: S) -> None:
        """The push service took a notice for ``sub``: its failures start again from none."""
        table = self.table
        with self.engine.begin() as conn:
            conn.execute(table.update().where(self._same(sub), table.c.failures != 0).values(failures=0))

    def failed(self, sub: S, drop_after: int) -> bool:
        """A notice for ``sub`` did not reach its push service: one failure more, and the opt-in
        dropped at the ``drop_after``-th in a row (one transaction); True if it was dropped."""
        table = self.table
        with self.engine.begin() as conn:
            failures = conn.execute(
                table.update()
                .where(self._same(sub))
                .values(failures=table.c.failures + 1)
                .returning(table.c.failures)
            ).scalar_one_or_none()
            if failures is None or failures < drop_after:
                return False
            conn.execute(table.delete().where(self._same(sub)))
        return True


class PushRows(OptInRows[Subscription]):
    """A storage's server keys and Web Push subscriptions (``storage.push``)."""

    table = push_subscriptions

    def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key ``name``, made by ``make`` and stored if no process stored one yet:
        the first insert wins (the primary key refuses the others), and everyone reads it."""
        query = select(server_keys.c.value).where(server_keys.c.name == name)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
        if found is not None:
            return str(found)
        try:
            with self.engine.begin() as conn:
                conn.execute(server_keys.insert().values(name=name, value=make(), created=self.now()))
        except IntegrityError:
            pass  # another process was first: its key is the one
        with self.engine.connect() as conn:
            return str(conn.execute(query).scalar_one())

    def subscribe(self, sub: Subscription) -> None:
        """Store the seat's opt-in, replacing the one it had (one browser a seat)."""
        with self.engine.begin() as conn:
            conn.execute(self._one(sub.game_id, sub.seat))
            conn.execute(
                push_subscriptions.insert().values(
                    game_id=sub.game_id,
                    seat=sub.seat,
                    endpoint=sub.endpoint,
                    p256dh=sub.p256dh,
                    auth=sub.auth,
                    created=self.now(),
                )
            )

    def unsubscribe(self, game_id: str, seat: int) -> bool:
        """Remove the seat's opt-in; True if there was one (a push service's "gone":
        :meth:`OptInRows.gone`)."""
        with self.engine.begin() as conn:
            return conn.execute(self._one(game_id, seat)).rowcount > 0

    def subscriptions(self, game_id: str) -> list[Subscription]:
        """The game's opt-ins, by seat."""
        table = push_subscriptions
        query = select(table).where(table.c.game_id == game_id).order_by(table.c.seat)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [Subscription(row.game_id, row.seat, row.endpoint, row.p256dh, row.auth) for row in rows]

    def turn_of(self, game_id: str, seat: int | None) -> Subscription | None:
        """It is ``seat``'s turn (None: nobody's): the other seats may be told again at their
        next turn; the seat's opt-in, if it has one not told of this turn yet, marked told (one
        conditional statement: of several processes, one is answered)."""
        table = push_subscriptions
        mine = and_(table.c.game_id == game_id, table.c.seat == seat)
        with self.engine.begin() as conn:
            others = table.update().where(table.c.game_id == game_id, table.c.notified == true())
            if seat is not None:
                others = others.where(table.c.seat != seat)
            conn.execute(others.values(notified=False))
            if seat is None:
                return None
            row = conn.execute(
                table.update()
                .where(mine, table.c.notified == false())
                .values(notified=True)
                .returning(table.c.endpoint, table.c.p256dh, table.c.auth)
            ).first()
        return None if row is None else Subscription(game_id, seat, row[0], row[1], row[2])

    def _same(self, sub: Subscription) -> ColumnElement[bool]:
        """The row of ``sub``: its seat's, while it is still for ``sub``'s endpoint."""
        table = push_subscriptions
        return and_(
            table.c.game_id == sub.game_id, table.c.seat == sub.seat, table.c.endpoint == sub.endpoint
        )

    @staticmethod
    def _one(game_id: str, seat: int) -> Delete:
        table = push_subscriptions
        return table.delete().where(table.c.game_id == game_id, table.c.seat == seat)
