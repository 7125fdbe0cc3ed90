"""Accounts: their rows, their sessions (by the hash of a token), the seats they played, and
their deletion (the names of their seats replaced for good, the games kept, the account's name
held for a while); a new account's name is free only if no account has its key or its
skeleton and no hold has its skeleton (``held_names``)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .database import Rows
from .rows import ERASED_NAME, Conflict, _dumps, _loads, _utc
from .tables import (
    account_sessions,
    accounts,
    games,
    held_names,
    passkey_ceremonies,
    passkeys,
    rating_history,
    ratings,
    seats,
)
from .tournament_push import tournament_push


@dataclass(frozen=True, slots=True)
class StoredAccount:
    """One row of ``accounts``."""

    id: str
    name: str
    name_key: str
    password_hash: str | None
    """None: an account made with a passkey (no password signs in to it)."""
    created: datetime
    name_skeleton: str | None = None
    """The form its name looks alike others by (:func:`cribbage.app.people.names.name_skeleton`)."""


@dataclass(frozen=True, slots=True)
class AccountSeat:
    """A seat an account played: its game, its number, and whether the game is over."""

    game_id: str
    seat: int
    over: bool


class Claimed(Conflict):
    """A seat to link to an account is another account's already: nothing was linked."""


class NameTaken(Conflict):
    """A new account's name is not free: ``reason`` ``taken`` (another account's, under case
    and width), ``confusable`` (another's looks alike: the same skeleton) or ``held`` (a deleted
    account's, or a look-alike of it, until ``until``).  Nothing was stored."""

    def __init__(self, reason: str, until: datetime | None = None) -> None:
        super().__init__(f"the name is not free: {reason}")
        self.reason = reason
        self.until = until


def _account(row: Any) -> StoredAccount:
    return StoredAccount(
        row.id, row.name, row.name_key, row.password_hash, _utc(row.created), row.name_skeleton
    )


class AccountRows(Rows):
    """A storage's accounts, their sessions and the seats they played (``storage.accounts``)."""

    def add(self, account: StoredAccount, session: tuple[str, datetime] | None = None) -> None:
        """Store a new account, with its first ``session`` (its token's hash, when it expires):
        all or nothing.

        Raises:
            NameTaken: its name is not free (:meth:`name_taken`); nothing was stored.
            Conflict: its id is another account's; nothing was stored.
        """
        try:
            with self.engine.begin() as conn:
                _insert_account(conn, account, self.now())
                if session is not None:
                    _add_session(conn, session[0], account.id, account.created, session[1])
        except IntegrityError:
            raise self.name_taken(account) or Conflict(f"account {account.id!r} exists") from None

    def name_taken(self, account: StoredAccount) -> NameTaken | None:
        """Why a new account's name is not free now, or None: another account's name has its key
        (``taken``) or its skeleton (``confusable``), or a held name its skeleton (``held``)."""
        return _name_taken(self.engine, self.now(), account)

    def hold_names_expired(self) -> int:
        """Remove the held names whose time is over: how many."""
        ending = delete(held_names).where(held_names.c.until <= self.now())
        with self.engine.begin() as conn:
            return int(conn.execute(ending).rowcount)

    def by_name(self, name_key: str) -> StoredAccount | None:
        """The account of a name's key, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(accounts.select().where(accounts.c.name_key == name_key)).first()
        return None if row is None else _account(row)

    def load(self, account_id: str) -> StoredAccount | None:
        """The account of an id, or None (deleted, or never made)."""
        with self.engine.connect() as conn:
            row = conn.execute(accounts.select().where(accounts.c.id == account_id)).first()
        return None if row is None else _account(row)

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Replace an account's password hash (the same password, hashed at new parameters)."""
        rehashed = accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash)
        with self.engine.begin() as conn:
            conn.execute(rehashed)

    def add_session(self, token_hash: str, account_id: str, expires: datetime) -> None:
        """Store a signed-in session: the hash of its token, until ``expires``."""
        with self.engine.begin() as conn:
            _add_session(conn, token_hash, account_id, self.now(), expires)

    def session_account(self, token_hash: str) -> StoredAccount | None:
        """The account of a session that has not expired (its ``last_seen`` now), or None."""
        now = self.now()
        query = (
            accounts.select()
            .join(account_sessions, account_sessions.c.account_id == accounts.c.id)
            .where(account_sessions.c.token_hash == token_hash, account_sessions.c.expires > now)
        )
        with self.engine.begin() as conn:
            row = conn.execute(query).first()
            if row is not None:
                seen = account_sessions.update().where(account_sessions.c.token_hash == token_hash)
                conn.execute(seen.values(last_seen=now))
        return None if row is None else _account(row)

    def end_sessions(self, account_id: str, token_hash: str | None = None) -> int:
        """End one session of an account (``token_hash``), or all of them (None): how many ended."""
        ending = delete(account_sessions).where(account_sessions.c.account_id == account_id)
        if token_hash is not None:
            ending = ending.where(account_sessions.c.token_hash == token_hash)
        with self.engine.begin() as conn:
            return int(conn.execute(ending).rowcount)

    def signed_in_among(self, account_ids: Collection[str]) -> set[str]:
        """Those of these accounts that have a session not expired (a deleted account has none)."""
        if not account_ids:
            return set()
        query = (
            select(account_sessions.c.account_id)
            .where(
                account_sessions.c.account_id.in_(list(account_ids)), account_sessions.c.expires > self.now()
            )
            .distinct()
        )
        with self.engine.connect() as conn:
            return {row.account_id for row in conn.execute(query)}

    def end_expired_sessions(self) -> int:
        """Remove the sessions expired by now: how many."""
        ending = delete(account_sessions).where(account_sessions.c.expires <= self.now())
        with self.engine.begin() as conn:
            return int(conn.execute(ending).rowcount)

    def link_seats(self, account_id: str, token_hashes: Collection[str]) -> list[AccountSeat]:
        """Link the seats held by these token hashes to an account, all or nothing: the seats
        linked (those it had already included; unknown hashes are left out).

        Raises:
            Claimed: a seat is another account's (or its account was deleted); nothing changed.
        """
        if not token_hashes:
            return []
        query = (
            select(seats.c.game_id, seats.c.seat, seats.c.account_id, seats.c.erased, games.c.over)
            .join(games, games.c.id == seats.c.game_id)
            .where(seats.c.token_hash.in_(list(token_hashes)), seats.c.kind == "human")
            .order_by(seats.c.game_id, seats.c.seat)
        )
        with self.engine.begin() as conn:
            found = conn.execute(query).all()
            for row in found:
                if row.erased or row.account_id not in (None, account_id):
                    raise Claimed(f"seat {row.seat} of game {row.game_id!r} is another account's")
            for row in found:
                mine = seats.update().where(seats.c.game_id == row.game_id, seats.c.seat == row.seat)
                conn.execute(mine.values(account_id=account_id))
        return [AccountSeat(row.game_id, row.seat, bool(row.over)) for row in found]

    def seats(self, account_id: str) -> list[AccountSeat]:
        """The seats an account plays or played, the games in progress first, newest first.  A
        seat a computer took over when its person left is theirs still (its loss is rated), but
        shown only once its game is over."""
        query = (
            select(seats.c.game_id, seats.c.seat, games.c.over)
            .join(games, games.c.id == seats.c.game_id)
            .where(seats.c.account_id == account_id, or_(seats.c.kind == "human", games.c.over))
            .order_by(games.c.over, games.c.updated.desc(), seats.c.game_id, seats.c.seat)
        )
        with self.engine.connect() as conn:
            return [AccountSeat(row.game_id, row.seat, bool(row.over)) for row in conn.execute(query)]

    def by_ids(self, account_ids: Collection[str]) -> dict[str, StoredAccount]:
        """The accounts of these ids that exist (a deleted one is missing)."""
        if not account_ids:
            return {}
        query = accounts.select().where(accounts.c.id.in_(list(account_ids)))
        with self.engine.connect() as conn:
            return {row.id: _account(row) for row in conn.execute(query)}

    def delete(self, account_id: str, hold: timedelta = timedelta(0)) -> list[str]:
        """Delete an account, its sessions, ratings and passkeys, all or nothing; its seats keep
        their games but lose its name for good (:data:`ERASED_NAME`, in the seats and in the
        stored records and options), their games' seating generation grown so that every process
        reads the seats again; its name held for ``hold`` (no new account takes it, nor a
        look-alike, meanwhile).  The ids of the games touched."""
        with self.engine.begin() as conn:
            skeleton = conn.execute(
                select(accounts.c.name_skeleton).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
            if skeleton is not None and hold > timedelta(0):
                _hold(conn, skeleton, self.now() + hold)
            # a computer that took over a seat of the account keeps its own name
            mine = (seats.c.account_id == account_id, seats.c.kind == "human")
            found = conn.execute(select(seats.c.game_id, seats.c.seat).where(*mine)).all()
            conn.execute(seats.update().where(*mine).values(name=ERASED_NAME, erased=True, account_id=None))
            conn.execute(seats.update().where(seats.c.account_id == account_id).values(account_id=None))
            conn.execute(seats.update().where(seats.c.left_by == account_id).values(left_by=None))
            by_game: dict[str, list[int]] = {}
            for row in found:
                by_game.setdefault(row.game_id, []).append(row.seat)
            for game_id, numbers in by_game.items():
                _erase_names(conn, game_id, numbers)
            # (SQLite keeps no foreign keys); its tournaments' push opt-ins go too (its browser's
            # endpoint and keys)
            owned = (account_sessions, ratings, rating_history, passkeys, passkey_ceremonies, tournament_push)
            for table in owned:
                conn.execute(delete(table).where(table.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return list(by_game)


def _name_taken(engine: Engine, now: datetime, account: StoredAccount) -> NameTaken | None:
    """:meth:`AccountRows.name_taken`."""
    with engine.connect() as conn:
        if conn.execute(select(accounts.c.id).where(accounts.c.name_key == account.name_key)).first():
            return NameTaken("taken")
        if account.name_skeleton is None:
            return None
        alike = accounts.c.name_skeleton == account.name_skeleton
        if conn.execute(select(accounts.c.id).where(alike)).first():
            return NameTaken("confusable")
        until = _held_until(conn, account.name_skeleton, now)
    return None if until is None else NameTaken("held", until)


def _insert_account(conn: Connection, account: StoredAccount, now: datetime) -> None:
    """Insert an account's row (in the caller's transaction).

    Raises:
        IntegrityError: its name's key, its skeleton or its id is another account's.
        NameTaken: its name is held (looked for after the insert, which waits for a deletion of
            the same name in progress: the hold that deletion writes is seen).
    """
    conn.execute(
        accounts.insert().values(
            id=account.id,
            name=account.name,
            name_key=account.name_key,
            password_hash=account.password_hash,
            created=account.created,
            name_skeleton=account.name_skeleton,
        )
    )
    if account.name_skeleton is not None:
        until = _held_until(conn, account.name_skeleton, now)
        if until is not None:
            raise NameTaken("held", until)


def _held_until(conn: Connection, skeleton: str, now: datetime) -> datetime | None:
    """Until when a name's skeleton is held, or None (not held, or no longer)."""
    held = select(held_names.c.until).where(held_names.c.skeleton == skeleton, held_names.c.until > now)
    until = conn.execute(held).scalar_one_or_none()
    return None if until is None else _utc(until)


def _hold(conn: Connection, skeleton: str, until: datetime) -> None:
    """Hold a skeleton until ``until`` (a longer hold it has already is kept)."""
    found = conn.execute(select(held_names.c.until).where(held_names.c.skeleton == skeleton)).first()
    if found is None:
        conn.execute(held_names.insert().values(skeleton=skeleton, until=until))
    elif _utc(found.until) < until:
        conn.execute(held_names.update().where(held_names.c.skeleton == skeleton).values(until=until))


def _add_session(
    conn: Connection, token_hash: str, account_id: str, now: datetime, expires: datetime
) -> None:
    """Insert a session's row (in the caller's transaction)."""
    conn.execute(
        account_sessions.insert().values(
            token_hash=token_hash, account_id=account_id, created=now, last_seen=now, expires=expires
        )
    )


def _erase_names(conn: Connection, game_id: str, numbers: list[int]) -> None:
    """The stored record's and options' names of these seats replaced; the generation grown."""
    row = conn.execute(select(games.c.record, games.c.options).where(games.c.id == game_id)).first()
    if row is None:
        return
    values: dict[str, Any] = {"generation": games.c.generation + 1}
    for column, text in (("record", row.record), ("options", row.options)):
        data = _loads(text)
        names = data.get("names") if isinstance(data, dict) else None
        if isinstance(names, list):
            for seat in numbers:
                if seat < len(names):
                    names[seat] = ERASED_NAME
            values[column] = _dumps(data)
    conn.execute(games.update().where(games.c.id == game_id).values(**values))
