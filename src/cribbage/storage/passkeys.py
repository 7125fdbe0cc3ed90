"""Passkeys: an account's WebAuthn credentials, and the ceremonies begun (their challenges, kept
in the database so that any server process can finish one, each taken once)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .accounts import StoredAccount, _add_session, _insert_account, _name_taken
from .database import Rows
from .rows import Conflict, _utc
from .tables import passkey_ceremonies, passkeys

__all__ = ["Ceremony", "PasskeyRows", "StoredPasskey"]


@dataclass(frozen=True, slots=True)
class StoredPasskey:
    """One row of ``passkeys``: the credential's id and COSE public key (base64url), the
    signature counter as last seen, the transports (``internal``, ``usb``...)."""

    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    transports: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A ceremony begun: ``kind`` (``signup``, ``add``, ``signin``), its challenge (base64url),
    the account it is for (``""`` at ``signin``), the new account's name (``signup``)."""

    id: str
    kind: str
    challenge: str
    account_id: str
    name: str | None
    expires: datetime


def _passkey(row: Any) -> StoredPasskey:
    transports = tuple(part for part in row.transports.split(",") if part)
    return StoredPasskey(row.credential_id, row.account_id, row.public_key, int(row.sign_count), transports)


def _insert_passkey(conn: Connection, passkey: StoredPasskey, now: datetime) -> None:
    conn.execute(
        passkeys.insert().values(
            credential_id=passkey.credential_id,
            account_id=passkey.account_id,
            public_key=passkey.public_key,
            sign_count=passkey.sign_count,
            transports=",".join(passkey.transports),
            created=now,
        )
    )


class PasskeyRows(Rows):
    """A storage's passkeys and passkey ceremonies (``storage.passkeys``)."""

    def begin_ceremony(self, ceremony: Ceremony) -> None:
        """Store a ceremony begun (and remove those expired by now: the table stays small)."""
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_ceremonies).where(passkey_ceremonies.c.expires <= self.now()))
            conn.execute(
                passkey_ceremonies.insert().values(
                    id=ceremony.id,
                    kind=ceremony.kind,
                    challenge=ceremony.challenge,
                    account_id=ceremony.account_id,
                    name=ceremony.name,
                    expires=ceremony.expires,
                )
            )

    def take_ceremony(self, ceremony_id: str) -> Ceremony | None:
        """The ceremony of this id, removed: of two takers, one gets it; None for an unknown one
        (never begun, or taken already).  Its expiry is the caller's to check."""
        mine = passkey_ceremonies.c.id == ceremony_id
        with self.engine.begin() as conn:
            row = conn.execute(passkey_ceremonies.select().where(mine)).first()
            if row is None or conn.execute(delete(passkey_ceremonies).where(mine)).rowcount != 1:
                return None
        return Ceremony(row.id, row.kind, row.challenge, row.account_id, row.name, _utc(row.expires))

    def add_account(
        self, account: StoredAccount, passkey: StoredPasskey, session: tuple[str, datetime]
    ) -> None:
        """Store a new account with its passkey and first session: all or nothing.

        Raises:
            NameTaken: the name is not free (:meth:`.accounts.AccountRows.name_taken`).
            Conflict: the passkey is stored already.
        """
        try:
            with self.engine.begin() as conn:
                _insert_account(conn, account, account.created)
                _insert_passkey(conn, passkey, account.created)
                _add_session(conn, session[0], account.id, account.created, session[1])
        except IntegrityError:
            raise _name_taken(self.engine, self.now(), account) or Conflict(
                "this passkey is stored already"
            ) from None

    def add(self, passkey: StoredPasskey) -> None:
        """Store another passkey of an account.

        Raises:
            Conflict: this credential is stored already (this account's or another's).
        """
        try:
            with self.engine.begin() as conn:
                _insert_passkey(conn, passkey, self.now())
        except IntegrityError:
            raise Conflict("this passkey is stored already") from None

    def load(self, credential_id: str) -> StoredPasskey | None:
        """The passkey of a credential id, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(passkeys.select().where(passkeys.c.credential_id == credential_id)).first()
        return None if row is None else _passkey(row)

    def of_account(self, account_id: str) -> list[StoredPasskey]:
        """An account's passkeys, oldest first."""
        query = passkeys.select().where(passkeys.c.account_id == account_id).order_by(passkeys.c.created)
        with self.engine.connect() as conn:
            return [_passkey(row) for row in conn.execute(query)]

    def used(self, credential_id: str, previous: int, sign_count: int) -> bool:
        """A sign-in with this passkey: its counter is now ``sign_count``, if it was still
        ``previous`` (False: another sign-in moved it meanwhile, and this one is a replay)."""
        query = (
            passkeys.update()
            .where(passkeys.c.credential_id == credential_id, passkeys.c.sign_count == previous)
            .values(sign_count=sign_count, used=self.now())
        )
        with self.engine.begin() as conn:
            return bool(conn.execute(query).rowcount == 1)
