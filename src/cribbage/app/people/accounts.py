"""Accounts for people who play online: sign up with a name and a password, sign in for a
session token, the seats played while signed in (or claimed from this browser's guest games)
linked to the account, and deletion, after which every seat it played is ``deleted player``.

Guests are untouched: a game needs no account, and a seat's token is still what plays it.  A
password is kept only as its argon2id hash (:data:`HASHER`, the OWASP minimum: 19 MiB, two
passes, one lane); a session token only as its SHA-256, like a seat's.  Every refusal is an
``account.*`` code (``docs/api.md``, "Accounts"); a wrong name and a wrong password are one
refusal, in about one time (an unknown name is checked against a dummy hash).
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from typing import Any, Final

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from ...storage import AccountSeat, Claimed, NameTaken, StoredAccount
from ..errors import AppError
from ..games.options import hash_token
from ..games.repository import Repository
from .names import NAME_LENGTH, check_name, name_key, name_skeleton

__all__ = [
    "DUMMY_HASH",
    "HASHER",
    "NAME_HOLD_DAYS",
    "NAME_LENGTH",
    "PASSWORD_LENGTH",
    "SESSION_DAYS",
    "AccountBook",
    "check_name",
    "check_password",
    "name_key",
    "name_refusal",
    "new_account",
]

HASHER: Final = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, type=Type.ID)
"""argon2id with OWASP's minimum parameters: 19 MiB (19456 KiB), time cost 2, parallelism 1."""

PASSWORD_LENGTH: Final = (8, 256)
"""The shortest and longest password, in characters."""

SESSION_DAYS: Final = 30
"""How long a session holds after signing in."""

NAME_HOLD_DAYS: Final = 30
"""How long a deleted account's name is held by default: no new account takes it, nor a name
that looks like it, so that nobody walks away from a rating and comes back fresh at once, nor
takes the name of someone who just left."""

MAX_CLAIM: Final = 50
"""The most seat tokens one claim may bring."""


def new_account(account_id: str, name: str, password_hash: str | None, created: datetime) -> StoredAccount:
    """A new account's row: its name (checked already) with its key and its skeleton."""
    return StoredAccount(account_id, name, name_key(name), password_hash, created, name_skeleton(name))


def name_refusal(taken: NameTaken) -> AppError:
    """``account.name_taken`` with its ``reason``: ``taken``, ``confusable`` or ``held`` (with
    ``until``, when the name is free again)."""
    if taken.reason == "held" and taken.until is not None:
        until = taken.until.isoformat()
        return AppError(
            "account.name_taken",
            f"this name was a deleted account's: held until {until}",
            field="name",
            reason="held",
            until=until,
        )
    if taken.reason == "confusable":
        return AppError(
            "account.name_taken", "this name looks like another account's", field="name", reason="confusable"
        )
    return AppError("account.name_taken", "this name is another account's", field="name", reason="taken")


def check_password(password: object, name: str) -> str:
    """A new password, checked (before any hashing): 8 to 256 characters, not the name."""
    shortest, longest = PASSWORD_LENGTH
    if not isinstance(password, str) or not shortest <= len(password) <= longest:
        size = len(password) if isinstance(password, str) else 0
        raise AppError(
            "account.bad_password",
            f"a password is {shortest} to {longest} characters, not {size}",
            field="password",
            reason="length",
        )
    if name_key(password.strip()) == name_key(name):
        raise AppError(
            "account.bad_password", "a password may not be the name", field="password", reason="name"
        )
    return password


DUMMY_HASH: Final = (
    "$argon2id$v=19$m=19456,t=2,p=1$WmFe+wdnlp8h1WqMlRNGtg$4C7FnILAvxeX6qEkoS1jxP+eqcrlOI982ww4YbqBies"
)
"""What a password is verified against when its name is unknown, so that the answer takes as long
as a wrong password's: the hash of a random secret nobody kept, at :data:`HASHER`'s parameters
(a test checks that they agree), made once rather than at every start."""


def _secret(password: str) -> str:
    """What is hashed of a password: its NFKC form (NIST SP 800-63B), so that one typed on
    another keyboard, its accents composed or not, is the same password."""
    return unicodedata.normalize("NFKC", password)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(password_hash, _secret(password))
    except (VerificationError, InvalidHashError):
        return False


def _hash_of(account: StoredAccount | None) -> str:
    """What a password is verified against: the account's hash, or the dummy one (an unknown
    name, an account without a password), so that every refusal takes one verification."""
    if account is None or account.password_hash is None:
        return DUMMY_HASH
    return account.password_hash


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def _no_forfeit(_account_id: str) -> object:
    return None


class AccountBook:
    """The accounts of a repository's storage; thread-safe (every change is one transaction).
    ``sink`` is told each game whose seats' names a deletion changed (its live pages hear it);
    a deleted account's name is held for ``name_hold_days``; ``forfeit`` is called with an account
    about to be deleted, before it is (its rated games in progress are recorded as its loss:
    :meth:`cribbage.app.games.rated.Rated.forfeit`)."""

    def __init__(
        self,
        repository: Repository,
        sink: Callable[[str], None],
        name_hold_days: int = NAME_HOLD_DAYS,
        forfeit: Callable[[str], object] = _no_forfeit,
    ) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.sink = sink
        self.name_hold = timedelta(days=name_hold_days)
        self.forfeit = forfeit

    def sign_up(self, name: object, password: object) -> dict[str, Any]:
        """A new account, signed in: ``{"token", "account"}``.  ``account.name_taken`` if its
        name's key is another account's (``Aiko``, ``aiko`` and ``Ａｉｋｏ`` are one name), if it
        looks like another's (``Aikо`` with a Cyrillic ``о``) or if it is held (:func:`name_refusal`)."""
        checked = check_name(name)
        secret = check_password(password, checked)
        now = self.storage.now()
        account = new_account(secrets.token_hex(16), checked, HASHER.hash(_secret(secret)), now)
        token = _new_token()
        try:  # the account and its first session, in one transaction
            self.storage.accounts.add(account, (hash_token(token), now + timedelta(days=SESSION_DAYS)))
        except NameTaken as taken:
            raise name_refusal(taken) from None
        return {"token": token, "account": self.me_json(account)}

    def sign_in(self, name: object, password: object) -> dict[str, Any]:
        """A new session: ``{"token", "account"}``; ``account.bad_credentials`` for an unknown
        name and for a wrong password alike (an unknown name costs a hash's verification too)."""
        found = None
        if isinstance(name, str) and isinstance(password, str) and len(password) <= PASSWORD_LENGTH[1]:
            found = self.storage.accounts.by_name(name_key(unicodedata.normalize("NFC", name).strip()))
            # an account made with a passkey has no password: refused as a wrong one, in one time
            if not _verify(_hash_of(found), password) or found is None or found.password_hash is None:
                found = None
        if found is None or found.password_hash is None:
            raise AppError("account.bad_credentials", "wrong name or password")
        if HASHER.check_needs_rehash(found.password_hash):  # the parameters grew since
            self.storage.accounts.set_password_hash(found.id, HASHER.hash(_secret(str(password))))
        return {"token": self._open_session(found), "account": self.me_json(found)}

    def _open_session(self, account: StoredAccount) -> str:
        token = _new_token()
        expires = self.storage.now() + timedelta(days=SESSION_DAYS)
        self.storage.accounts.add_session(hash_token(token), account.id, expires)
        return token

    def account_of(self, token: str | None) -> StoredAccount:
        """The account of a session token: ``account.bad_session`` for none, an unknown, an
        expired or an ended one."""
        found = self.storage.accounts.session_account(hash_token(token)) if token else None
        if found is None:
            raise AppError("account.bad_session", "not signed in: the session is unknown, ended or expired")
        return found

    def signed_in(self, token: str | None) -> StoredAccount | None:
        """The account of a session token, or None (a guest, or a session no longer valid)."""
        return self.storage.accounts.session_account(hash_token(token)) if token else None

    def sign_out(self, token: str | None, *, everywhere: bool = False) -> dict[str, Any]:
        """End this session, or every session of its account: ``{"ended": N}``."""
        account = self.account_of(token)
        assert token is not None
        ended = self.storage.accounts.end_sessions(account.id, None if everywhere else hash_token(token))
        return {"ended": ended}

    def me(self, token: str | None) -> dict[str, Any]:
        """The account of the session, with its games in progress."""
        return self.me_json(self.account_of(token))

    def me_json(self, account: StoredAccount) -> dict[str, Any]:
        """``{"name", "created", "games", "finished", "password", "passkeys"}``: the games in
        progress with their links, how many are over, and how the person is asked again (to
        delete the account): whether it has a password, how many passkeys."""
        seats = self.storage.accounts.seats(account.id)
        return {
            "name": account.name,
            "created": account.created.isoformat(),
            "games": [_game_json(seat) for seat in seats if not seat.over],
            "finished": sum(1 for seat in seats if seat.over),
            "password": account.password_hash is not None,
            "passkeys": len(self.storage.passkeys.of_account(account.id)),
        }

    def claim(self, token: str | None, seat_tokens: Collection[object]) -> dict[str, Any]:
        """Link the seats of this browser's seat tokens to the account, all or nothing:
        ``{"claimed": [GAME...]}``; ``account.seat_claimed`` if one is another account's."""
        account = self.account_of(token)
        if len(seat_tokens) > MAX_CLAIM or not all(isinstance(t, str) and t for t in seat_tokens):
            raise AppError("invalid", f"1 to {MAX_CLAIM} seat tokens", field="tokens")
        return {"claimed": [_game_json(seat) for seat in self.link(account, seat_tokens)]}

    def link(self, account: StoredAccount, seat_tokens: Collection[object]) -> list[AccountSeat]:
        """Link the seats of these tokens to the account (see :meth:`claim`)."""
        hashes = {hash_token(t) for t in seat_tokens if isinstance(t, str)}
        try:
            return self.storage.accounts.link_seats(account.id, hashes)
        except Claimed:
            raise AppError("account.seat_claimed", "a seat of these games is another account's") from None

    def open_game(self, token: str | None, game_id: str) -> dict[str, Any]:
        """A new key for the account's own seat of a game, for this browser: ``{"game", "seat",
        "token"}`` (the key shown once; only its SHA-256 is kept).  The seat's token and its
        other keys keep working; a seat keeps its newest :data:`~cribbage.storage.seat_keys.MAX_KEYS`.
        ``not_found`` for a game that is not the account's (none, another's, a seat it left):
        one answer, which tells nothing of others' games.  The key outlives the session."""
        account = self.account_of(token)
        key = _new_token()
        opened = self.storage.seats.add_key(game_id, account.id, hash_token(key))
        if opened is None:
            raise AppError("not_found", "no such game of this account")
        self._reseated(game_id)
        seat, _generation = opened
        return {"game": game_id, "seat": seat, "token": key}

    def delete(self, token: str | None, password: object) -> dict[str, Any]:
        """Delete the session's account (its password asked again): its rated games in progress
        are recorded as its loss (``forfeit``), its sessions end, its seats keep their games
        under the name ``deleted player``.  ``{"deleted": true, "games": N}``."""
        account = self.account_of(token)
        if not isinstance(password, str) or len(password) > PASSWORD_LENGTH[1]:
            raise AppError("account.bad_credentials", "wrong name or password")
        if account.password_hash is None or not _verify(account.password_hash, password):
            raise AppError("account.bad_credentials", "wrong name or password")
        return self.deleted(account)

    def deleted(self, account: StoredAccount) -> dict[str, Any]:
        """Delete an account whose person was asked again (:meth:`delete`): its name held."""
        self.forfeit(account.id)  # its rated games in progress: its loss
        touched = self.storage.accounts.delete(account.id, self.name_hold)
        for game_id in touched:
            self._renamed(game_id)
        return {"deleted": True, "games": len(touched)}

    def _renamed(self, game_id: str) -> None:
        """A game whose seats' names a deletion changed: read again here, its live pages told."""
        if self._reseated(game_id):
            self.sink(game_id)

    def _reseated(self, game_id: str) -> bool:
        """A game whose seats changed in storage (names a deletion changed, a key added): its
        cached copy here reads its seats again (another process's does at its next request:
        the seating generation grew).  False if it was removed meanwhile (pruned)."""
        if self.repository.peek(game_id) is not None:
            try:
                with self.repository.held(game_id):
                    pass
            except AppError:  # removed meanwhile (pruned): nobody to tell
                return False
        return True


def _game_json(seat: AccountSeat) -> dict[str, Any]:
    """A game of an account: its id, the seat, whether it is over and its state's address."""
    return {"id": seat.game_id, "seat": seat.seat, "over": seat.over, "url": f"/api/games/{seat.game_id}"}
