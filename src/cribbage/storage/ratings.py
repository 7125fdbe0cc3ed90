"""The ratings of accounts in the database (:class:`RatingRows`): record a rated game, the
leaderboard, a profile.

Two tables (:mod:`.tables`): ``ratings``, each account's rating in each pool it played, and
``rating_history``, its rating after each game (and whether it won it): a profile's graph and
recent games, and a finished game's changes (:meth:`RatingRows.of_game`).  The ratings
themselves are computed above the storage (:func:`cribbage.app.people.ratings.rate`):
:meth:`RatingRows.record` reads the ratings of a game's accounts, hands them to the ``rerate``
function it is given and writes what that returns, all in one transaction, the accounts' rows
locked (PostgreSQL) while it runs (:mod:`.rating_record`; the values: :mod:`.rating_values`).

* Recording is idempotent per game: a game whose history rows exist already, or whose rating
  is settled (``games.rating_settled``), changes nothing (:meth:`RatingRows.record` returns
  False), even when two processes record it at once: each locks the game's row first.
* The ratings' outbox: a game over whose rating is not settled yet is :meth:`RatingRows.due`;
  recording it settles it in the same transaction, :meth:`RatingRows.settle_unrated` settles one
  that is not rated.  So a process that dies between a game's last save and its rating leaves it
  due, for any process to finish (:meth:`cribbage.app.games.rated.Rated.sweep`).
* Nothing is half-written: an error anywhere rolls the whole game back.
* The leaderboard is ``ORDER BY ordinal DESC, account_id DESC`` over the index on
  ``(pool, ordinal, account_id)``: the top is the first rows of a backward index scan, an
  account's place one plus the count of the index entries after it.

The reads are single statements.

>>> from cribbage.storage import Storage
>>> from types import SimpleNamespace as Standing
>>> ratings = Storage("sqlite://").ratings
>>> def win(accounts):  # the first account wins (the application rates: cribbage.app.people.ratings)
...     return lambda before: {
...         a: Standing(mu=26.0 - i, sigma=8.0, games=1, wins=1 - i, shown=1530.0, ordinal=1050.0 - 30 * i)
...         for i, a in enumerate(accounts)
...     }
>>> ratings.record("g1", "standard", ["ann", "bob"], win(["ann", "bob"]))
True
>>> ratings.record("g1", "standard", ["ann", "bob"], win(["ann", "bob"]))  # recorded already
False
>>> [(r.account_id, r.ordinal) for r in ratings.top("standard")], ratings.place("bob", "standard")
([('ann', 1050.0), ('bob', 1020.0)], 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

from sqlalchemy import func, or_, select, tuple_
from sqlalchemy.exc import IntegrityError

from .database import Rows
from .rating_record import mark_settled, record_rating
from .rating_values import (
    GamePlay,
    GameRating,
    PlayTotals,
    RatingRecordError,
    Rerate,
    StoredHistoryPoint,
    StoredRating,
    stored_rating,
)
from .rows import _now, _utc
from .tables import RATING_DUE, games, rating_history, ratings, seats

__all__ = ["RatingRows"]

ATTEMPTS: Final = 3
"""Tries of :meth:`RatingRows.record` when another transaction inserted a row it meant to insert
(a new account's first rating, or the same game): the next try sees that row."""

_ORDER: Final = (ratings.c.ordinal.desc(), ratings.c.account_id.desc())


class RatingRows(Rows):
    """A storage's ratings: recording rated games, their outbox, the leaderboard and the
    profiles (``storage.ratings``)."""

    def record(
        self,
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
            raise RatingRecordError(
                f"an account is in game {game_id!r} twice: {list(accounts)}", game=game_id
            )
        moment = at or _now()
        for attempt in range(ATTEMPTS):
            try:
                with self.engine.begin() as conn:
                    return record_rating(conn, game_id, pool, ids, rerate, moment, play or {})
            except IntegrityError:
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def settle_unrated(self, game_id: str, *, at: datetime | None = None) -> bool:
        """Mark a game's rating settled without recording it (it is not rated): it is no longer
        :meth:`due`.  True if this call marked it; False if it was settled already, or is not
        stored."""
        with self.engine.begin() as conn:
            return mark_settled(conn, game_id, at or _now())

    def due(self, limit: int = 100) -> list[str]:
        """The ratings' outbox: the games over whose rating nobody settled (a process died, or the
        database failed, between their last save and their rating), the longest waiting first, at
        most ``limit`` (the partial index ``ix_games_rating_due``)."""
        query = select(games.c.id).where(RATING_DUE).order_by(games.c.updated, games.c.id).limit(limit)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def unsettled_of(self, account_id: str) -> list[str]:
        """The games of an account whose rating is not settled: in progress, or over and
        :meth:`due`; those it sits in (or a computer took over from it) and those whose seat it left
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
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def top(self, pool: str, limit: int = 100) -> list[StoredRating]:
        """The best ``limit`` ratings of a pool by the conservative shown number (ties: the later
        account first); the first is place 1, as :meth:`place` counts."""
        query = select(ratings).where(ratings.c.pool == pool).order_by(*_ORDER).limit(limit)
        with self.engine.connect() as conn:
            return [stored_rating(row) for row in conn.execute(query)]

    def place(self, account_id: str, pool: str) -> int | None:
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
        with self.engine.connect() as conn:
            count = conn.execute(query).scalar_one_or_none()
        return None if count is None else int(count) + 1

    def profile(self, account_id: str) -> list[StoredRating]:
        """An account's ratings in every pool it played, by pool name; its games played and won in
        all are their sums (each game is in one pool)."""
        query = select(ratings).where(ratings.c.account_id == account_id).order_by(ratings.c.pool)
        with self.engine.connect() as conn:
            return [stored_rating(row) for row in conn.execute(query)]

    def history(self, account_id: str, pool: str, limit: int | None = None) -> list[StoredHistoryPoint]:
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
        with self.engine.connect() as conn:
            points = [
                StoredHistoryPoint(game, mu, sigma, shown, _utc(at), won)
                for game, mu, sigma, shown, at, won in conn.execute(query)
            ]
        points.reverse()
        return points

    def of_game(self, game_id: str) -> dict[str, GameRating]:
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
        with self.engine.connect() as conn:
            return {
                account: GameRating(account, pool, shown, earlier)
                for account, pool, shown, earlier in conn.execute(query)
            }

    def play_totals(self, account_id: str) -> dict[str, PlayTotals]:
        """The sums of what an account did in its rated games, by pool (the games recorded with
        it: see :meth:`record`'s ``play``); a pool without any is missing."""
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
        with self.engine.connect() as conn:
            return {
                row[0]: PlayTotals(row[0], *(int(v or 0) for v in row[1:])) for row in conn.execute(query)
            }
