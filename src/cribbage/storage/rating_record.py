"""Recording a rated game: the statements of its one transaction (the game's row locked, the
accounts' ratings read, locked and written, a history row each, the game marked settled), for
:meth:`RatingRows.record <.ratings.RatingRows.record>`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from datetime import datetime
from types import MappingProxyType
from typing import Final

from sqlalchemy import Connection, bindparam, false, select

from .rating_values import GamePlay, RatingRecordError, Rerate, Standing, StoredRating, stored_rating
from .tables import games, rating_history, ratings

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


def record_rating(
    conn: Connection,
    game_id: str,
    pool: str,
    ids: list[str],
    rerate: Rerate,
    moment: datetime,
    play: Mapping[str, GamePlay],
) -> bool:
    """Record a finished rated game in the caller's transaction
    (:meth:`RatingRows.record <.ratings.RatingRows.record>`): False, writing nothing but the
    game's mark, if it was recorded or settled already."""
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
    current = {row.account_id: stored_rating(row) for row in conn.execute(locked)}
    # After the lock: a transaction recording the same game has committed by now.
    done = select(rating_history.c.id).where(rating_history.c.game_id == game_id).limit(1)
    if conn.execute(done).first() is not None:
        mark_settled(conn, game_id, moment)
        return False
    after = rerate(MappingProxyType(current))
    if sorted(after) != ids:
        raise RatingRecordError(
            f"the new ratings of game {game_id!r} are for accounts {sorted(after)}, not {ids}", game=game_id
        )
    _write_ratings(conn, pool, ids, current, after, moment)
    won = {
        account: after[account].wins > (current[account].wins if account in current else 0) for account in ids
    }
    _write_history(conn, game_id, pool, after, moment, play, won)
    mark_settled(conn, game_id, moment)
    return True


def mark_settled(conn: Connection, game_id: str, moment: datetime) -> bool:
    """Mark a game's rating settled, if it is not yet (in the caller's transaction)."""
    marked = conn.execute(
        games.update()
        .where(games.c.id == game_id, games.c.rating_settled.is_(None))
        .values(rating_settled=moment)
    )
    return marked.rowcount == 1


def _write_ratings(
    conn: Connection,
    pool: str,
    ids: list[str],
    current: Mapping[str, StoredRating],
    after: Mapping[str, Standing],
    moment: datetime,
) -> None:
    """Write the accounts' new ratings in a pool: those they had updated, the others inserted."""
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
