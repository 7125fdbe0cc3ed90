"""The ratings of accounts in the database: record a rated game, the leaderboard, a profile.

Two tables (:mod:`.tables`): ``ratings``, each account's rating in each pool it played, and
``rating_history``, its rating after each game (and whether it won it): a profile's graph and
recent games, and a finished game's changes (:func:`game_ratings`).  The ratings themselves are
computed above the storage (:func:`cribbage.app.people.ratings.rate`): :func:`record_game` reads the
ratings of a game's accounts, hands them to the ``rerate`` function it is given and writes what
that returns, all in one transaction, the accounts' rows locked (PostgreSQL) while it runs.

* Recording is idempotent per game: a game whose history rows exist already, or whose rating
  is settled (``games.rating_settled``), changes nothing (:func:`record_game` returns False),
  even when two processes record it at once: each locks the game's row first.
* The ratings' outbox: a game over whose rating is not settled yet is :func:`due`; recording
  it settles it in the same transaction, :func:`settle_unrated` settles one that is not rated.  So a
  process that dies between a game's last save and its rating leaves it due, for any process
  to finish (:meth:`cribbage.app.games.rated.Rated.sweep`).
* Nothing is half-written: an error anywhere rolls the whole game back.
* The leaderboard is ``ORDER BY ordinal DESC, account_id DESC`` over the index on
  ``(pool, ordinal, account_id)``: the top is the first rows of a backward index scan, an
  account's place one plus the count of the index entries after it.

Every function takes an :class:`~sqlalchemy.engine.Engine` (a :class:`~cribbage.storage.Storage`'s
``engine``); the reads are single statements.

>>> from cribbage.storage import Storage
>>> from types import SimpleNamespace as Standing
>>> engine = Storage("sqlite://").engine
>>> def win(accounts):  # the first account wins (the application rates: cribbage.app.people.ratings)
...     return lambda before: {
...         a: Standing(mu=26.0 - i, sigma=8.0, games=1, wins=1 - i, shown=1530.0, ordinal=1050.0 - 30 * i)
...         for i, a in enumerate(accounts)
...     }
>>> record_game(engine, "g1", "standard", ["ann", "bob"], win(["ann", "bob"]))
True
>>> record_game(engine, "g1", "standard", ["ann", "bob"], win(["ann", "bob"]))  # recorded already
False
>>> [(r.account_id, r.ordinal) for r in top_ratings(engine, "standard")], place(engine, "bob", "standard")
([('ann', 1050.0), ('bob', 1020.0)], 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, Final, Protocol

from sqlalchemy import Connection, Row, bindparam, false, func, or_, select, tuple_
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ..engine.errors import CribbageError
from .rows import _now
from .tables import RATING_DUE, games, rating_history, ratings, seats

__all__ = [
    "GamePlay",
    "GameRating",
    "PlayTotals",
    "RatingRecordError",
    "Rerate",
    "Standing",
    "StoredHistoryPoint",
    "StoredRating",
    "due",
    "game_ratings",
    "history",
    "place",
    "play_totals",
    "profile_ratings",
    "record_game",
    "settle_unrated",
    "top_ratings",
    "unsettled_of",
]

ATTEMPTS: Final = 3
"""Tries of :func:`record_game` when another transaction inserted a row it meant to insert (a
new account's first rating, or the same game): the next try sees that row."""


class RatingRecordError(CribbageError):
    """A game that cannot be recorded as given: an account twice, or ``rerate`` answering for
    other accounts than the game's.  Nothing was written."""

    code = "illegal.rating"


class Standing(Protocol):
    """A rating as :func:`record_game` writes it (:class:`cribbage.app.people.ratings.Rating` is one)."""

    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def shown(self) -> float: ...
    @property
    def ordinal(self) -> float: ...


@dataclass(frozen=True, slots=True)
class StoredRating:
    """One row of ``ratings``: an account's rating in a pool."""

    account_id: str
    pool: str
    mu: float
    sigma: float
    ordinal: float
    """The conservative shown number, the leaderboard's order."""
    games: int
    wins: int
    updated: datetime


@dataclass(frozen=True, slots=True)
class StoredHistoryPoint:
    """An account's rating in a pool after one game: a point of its profile's graph."""

    game_id: str
    mu: float
    sigma: float
    shown: float
    at: datetime
    won: bool | None = None
    """Whether the account's side alone came first (None: a game recorded before this was kept)."""


@dataclass(frozen=True, slots=True)
class GameRating:
    """An account's rating after a recorded game, and before it (None: its pool's first game)."""

    account_id: str
    pool: str
    shown: float
    before: float | None

    @property
    def change(self) -> int | None:
        """The change of the rating as shown (whole points, as a profile's recent games show it);
        None for the pool's first game."""
        return None if self.before is None else round(self.shown) - round(self.before)


Rerate = Callable[[Mapping[str, StoredRating]], Mapping[str, Standing]]
"""What :func:`record_game` asks for the new ratings: given the stored ratings of the game's
accounts in its pool (an account with none yet is missing), the rating of every account after
the game."""


@dataclass(frozen=True, slots=True)
class GamePlay:
    """What an account did in a rated game: the deals played, its seat's points by source, and
    the skunk (``+n`` given, ``-n`` taken, 0 none)."""

    deals: int
    pegging: int
    hand: int
    crib: int
    skunk: int


@dataclass(frozen=True, slots=True)
class PlayTotals:
    """The sums of an account's :class:`GamePlay` in a pool (the games recorded with it)."""

    pool: str
    games: int
    deals: int
    pegging: int
    hand: int
    crib: int
    skunks_given: int
    skunks_taken: int


def record_game(
    engine: Engine,
    game_id: str,
    pool: str,
    accounts: Sequence[str],
    rerate: Rerate,
    *,
    at: datetime | None = None,
    play: Mapping[str, GamePlay] | None = None,
) -> bool:
    """Record a finished rated game in one transaction: the new ratings of its accounts in
    ``pool`` (from ``rerate``) and a history row for each, with what each did (``play``, by
    account; an account missing: unknown), and its game row (if stored) marked settled.  True
    if recorded; False if the game was recorded or settled already (nothing changes but the
    mark).

    Raises:
        RatingRecordError: an account given twice, or ``rerate`` answering for other accounts.
        Whatever ``rerate`` raises, and the database's errors: nothing was written.
    """
    ids = sorted(accounts)
    if len(set(ids)) != len(ids):
        raise RatingRecordError(f"an account is in game {game_id!r} twice: {list(accounts)}", game=game_id)
    moment = at or _now()
    for attempt in range(ATTEMPTS):
        try:
            with engine.begin() as conn:
                return _record(conn, game_id, pool, ids, rerate, moment, play or {})
        except IntegrityError:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _record(
    conn: Connection,
    game_id: str,
    pool: str,
    ids: list[str],
    rerate: Rerate,
    moment: datetime,
    play: Mapping[str, GamePlay],
) -> bool:
    if conn.dialect.name == "sqlite":
        # pysqlite begins the transaction at the first write: writing first makes the reads below
        # part of it, after any other writer (SQLite has one at a time), so none is read stale.
        conn.execute(ratings.update().where(false()).values(games=ratings.c.games))
    # The game's row first (PostgreSQL: FOR NO KEY UPDATE, which a rematch's reference to it
    # does not wait for): two transactions settling one game run one after the other.
    mark = select(games.c.rating_settled).where(games.c.id == game_id).with_for_update(key_share=True)
    if conn.execute(mark).scalar_one_or_none() is not None:
        return False
    locked = (
        select(ratings)
        .where(ratings.c.pool == pool, ratings.c.account_id.in_(ids))
        .order_by(ratings.c.account_id)
        .with_for_update()
    )
    current = {row.account_id: _stored(row) for row in conn.execute(locked)}
    # After the lock: a transaction recording the same game has committed by now.
    done = select(rating_history.c.id).where(rating_history.c.game_id == game_id).limit(1)
    if conn.execute(done).first() is not None:
        _settle(conn, game_id, moment)
        return False
    after = rerate(MappingProxyType(current))
    if sorted(after) != ids:
        raise RatingRecordError(
            f"the new ratings of game {game_id!r} are for accounts {sorted(after)}, not {ids}", game=game_id
        )
    rows = [
        {
            "a": account,
            "p": pool,
            "mu": float(new.mu),
            "sigma": float(new.sigma),
            "ordinal": float(new.ordinal),
            "games": new.games,
            "wins": new.wins,
            "updated": moment,
        }
        for account, new in ((account, after[account]) for account in ids)
    ]
    changed = [row for row in rows if row["a"] in current]
    if changed:
        conn.execute(_UPDATE, changed)
    added = [row for row in rows if row["a"] not in current]
    if added:
        conn.execute(_INSERT, added)
    won = {
        account: after[account].wins > (current[account].wins if account in current else 0) for account in ids
    }
    _write_history(conn, game_id, pool, after, moment, play, won)
    _settle(conn, game_id, moment)
    return True


def _settle(conn: Connection, game_id: str, moment: datetime) -> bool:
    """Mark a game's rating settled, if it is not yet (in the caller's transaction)."""
    marked = conn.execute(
        games.update()
        .where(games.c.id == game_id, games.c.rating_settled.is_(None))
        .values(rating_settled=moment)
    )
    return marked.rowcount == 1


def settle_unrated(engine: Engine, game_id: str, *, at: datetime | None = None) -> bool:
    """Mark a game's rating settled without recording it (it is not rated): it is no longer
    :func:`due`.  True if this call marked it; False if it was settled already, or is not
    stored."""
    with engine.begin() as conn:
        return _settle(conn, game_id, at or _now())


def due(engine: Engine, limit: int = 100) -> list[str]:
    """The ratings' outbox: the games over whose rating nobody settled (a process died, or the
    database failed, between their last save and their rating), the longest waiting first, at
    most ``limit`` (the partial index ``ix_games_rating_due``)."""
    query = select(games.c.id).where(RATING_DUE).order_by(games.c.updated, games.c.id).limit(limit)
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


def unsettled_of(engine: Engine, account_id: str) -> list[str]:
    """The games of an account whose rating is not settled: in progress, or over and
    :func:`due`; those it sits in (or a computer took over from it) and those whose seat it left
    open (``seats.left_by``)."""
    query = (
        select(games.c.id)
        .join(seats, seats.c.game_id == games.c.id)
        .where(
            or_(seats.c.account_id == account_id, seats.c.left_by == account_id),
            games.c.rating_settled.is_(None),
        )
        .distinct()
        .order_by(games.c.id)
    )
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


_UPDATE: Final = (
    ratings.update()
    .where(ratings.c.account_id == bindparam("a"), ratings.c.pool == bindparam("p"))
    .values(
        mu=bindparam("mu"),
        sigma=bindparam("sigma"),
        ordinal=bindparam("ordinal"),
        games=bindparam("games"),
        wins=bindparam("wins"),
        updated=bindparam("updated"),
    )
)
_INSERT: Final = ratings.insert().values(
    account_id=bindparam("a"),
    pool=bindparam("p"),
    mu=bindparam("mu"),
    sigma=bindparam("sigma"),
    ordinal=bindparam("ordinal"),
    games=bindparam("games"),
    wins=bindparam("wins"),
    updated=bindparam("updated"),
)


def _write_history(
    conn: Connection,
    game_id: str,
    pool: str,
    after: Mapping[str, Standing],
    moment: datetime,
    play: Mapping[str, GamePlay],
    won: Mapping[str, bool],
) -> None:
    unknown = dict.fromkeys(("deals", "pegging", "hand", "crib", "skunk"))
    conn.execute(
        rating_history.insert(),
        [
            {
                "account_id": account,
                "pool": pool,
                "game_id": game_id,
                "mu": float(new.mu),
                "sigma": float(new.sigma),
                "shown": float(new.shown),
                "at": moment,
                "won": won[account],
                **(_play_row(play[account]) if account in play else unknown),
            }
            for account, new in sorted(after.items())
        ],
    )


def _play_row(done: GamePlay) -> dict[str, int]:
    return asdict(done)


def _stored(row: Row[Any]) -> StoredRating:
    return StoredRating(
        row.account_id, row.pool, row.mu, row.sigma, row.ordinal, row.games, row.wins, _utc(row.updated)
    )


def _utc(moment: datetime) -> datetime:
    """A time read back in UTC (SQLite keeps no zone: its times are UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- reads

_ORDER: Final = (ratings.c.ordinal.desc(), ratings.c.account_id.desc())


def top_ratings(engine: Engine, pool: str, limit: int = 100) -> list[StoredRating]:
    """The best ``limit`` ratings of a pool by the conservative shown number (ties: the later
    account first); the first is place 1, as :func:`place` counts."""
    query = select(ratings).where(ratings.c.pool == pool).order_by(*_ORDER).limit(limit)
    with engine.connect() as conn:
        return [_stored(row) for row in conn.execute(query)]


def place(engine: Engine, account_id: str, pool: str) -> int | None:
    """An account's place on its pool's leaderboard (1: the top), or None if it has no rating
    there: one more than the ratings ordered before it."""
    me = ratings.alias("me")
    better = (
        select(func.count())
        .select_from(ratings)
        .where(
            ratings.c.pool == me.c.pool,
            tuple_(ratings.c.ordinal, ratings.c.account_id) > tuple_(me.c.ordinal, me.c.account_id),
        )
        .scalar_subquery()
    )
    query = select(better).where(me.c.account_id == account_id, me.c.pool == pool)
    with engine.connect() as conn:
        count = conn.execute(query).scalar_one_or_none()
    return None if count is None else int(count) + 1


def profile_ratings(engine: Engine, account_id: str) -> list[StoredRating]:
    """An account's ratings in every pool it played, by pool name; its games played and won in
    all are their sums (each game is in one pool)."""
    query = select(ratings).where(ratings.c.account_id == account_id).order_by(ratings.c.pool)
    with engine.connect() as conn:
        return [_stored(row) for row in conn.execute(query)]


def history(engine: Engine, account_id: str, pool: str, limit: int | None = None) -> list[StoredHistoryPoint]:
    """An account's rating after each of its games in a pool, oldest first: the last ``limit``
    games (None: all)."""
    query = (
        select(
            rating_history.c.game_id,
            rating_history.c.mu,
            rating_history.c.sigma,
            rating_history.c.shown,
            rating_history.c.at,
            rating_history.c.won,
        )
        .where(rating_history.c.account_id == account_id, rating_history.c.pool == pool)
        .order_by(rating_history.c.id.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        points = [
            StoredHistoryPoint(game, mu, sigma, shown, _utc(at), won)
            for game, mu, sigma, shown, at, won in conn.execute(query)
        ]
    points.reverse()
    return points


def game_ratings(engine: Engine, game_id: str) -> dict[str, GameRating]:
    """The ratings a recorded game left, by account: each after the game and before it (the
    account's previous history row in the pool); empty while the game is not recorded (or was
    not rated)."""
    h = rating_history.alias("h")
    prev = rating_history.alias("prev")
    before = (
        select(prev.c.shown)
        .where(prev.c.account_id == h.c.account_id, prev.c.pool == h.c.pool, prev.c.id < h.c.id)
        .order_by(prev.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = select(h.c.account_id, h.c.pool, h.c.shown, before).where(h.c.game_id == game_id)
    with engine.connect() as conn:
        return {
            account: GameRating(account, pool, shown, earlier)
            for account, pool, shown, earlier in conn.execute(query)
        }


def play_totals(engine: Engine, account_id: str) -> dict[str, PlayTotals]:
    """The sums of what an account did in its rated games, by pool (the games recorded with
    it: see :func:`record_game`'s ``play``); a pool without any is missing."""
    h = rating_history.c
    query = (
        select(
            h.pool,
            func.count(),
            func.sum(h.deals),
            func.sum(h.pegging),
            func.sum(h.hand),
            func.sum(h.crib),
            func.count().filter(h.skunk > 0),
            func.count().filter(h.skunk < 0),
        )
        .where(h.account_id == account_id, h.deals.is_not(None))
        .group_by(h.pool)
    )
    with engine.connect() as conn:
        return {row[0]: PlayTotals(row[0], *(int(v or 0) for v in row[1:])) for row in conn.execute(query)}
