"""The storage (:class:`Storage`): a games database behind SQLAlchemy, brought to the newest
schema, and its repositories, one a concern."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError

from .accounts import AccountRows
from .chat import ChatRows
from .clocks import ClockRows
from .database import Database
from .games import GameRows
from .migrations import UnknownRevision, migrate
from .passkeys import PasskeyRows
from .pruning import Pruning
from .push import PushRows
from .rated_tables import RatedTableRows
from .ratings import RatingRows
from .rows import StorageError, _now
from .seating import SeatRows
from .tables import metadata
from .tournament_push import TournamentPushRows
from .tournaments import TournamentRows
from .urls import safe_url


class Storage(Database):
    """The games database (thread-safe: one connection per call), its schema brought to the
    newest revision, and a repository for each concern, all on the one database: ``games``
    (their rows, the lobby, watch codes, rematches), ``seats`` (who sits where, invitations,
    seat keys), ``clocks``, ``chat``, ``accounts`` (and their sessions), ``passkeys``,
    ``push`` (the server's keys and Web Push opt-ins), ``ratings``, ``rated_tables``,
    ``tournaments``, ``tournament_push`` (entrants' Web Push opt-ins) and ``pruning``.

    ``clock`` gives the time written when a game is saved or a seat taken (tests set it).

    Raises:
        StorageError: the database cannot be opened, or its schema is newer than this version's.
    """

    def __init__(self, url: str, *, clock: Callable[[], datetime] = _now) -> None:
        try:
            super().__init__(url, clock=clock)
            self.migrated = migrate(self.engine, metadata)
            """The schema revision the database was at, and the one it is at now (the newest)."""
        except (SQLAlchemyError, ImportError, UnknownRevision) as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise StorageError(f"cannot open the database {safe_url(url)}: {reason}") from None
        self.games = GameRows(self)
        self.seats = SeatRows(self)
        self.clocks = ClockRows(self)
        self.chat = ChatRows(self)
        self.accounts = AccountRows(self)
        self.passkeys = PasskeyRows(self)
        self.push = PushRows(self)
        self.ratings = RatingRows(self)
        self.rated_tables = RatedTableRows(self)
        self.tournaments = TournamentRows(self)
        self.tournament_push = TournamentPushRows(self)
        self.pruning = Pruning(self)
