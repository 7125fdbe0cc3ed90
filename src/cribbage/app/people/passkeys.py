"""Passkeys (WebAuthn, through py_webauthn): make an account with a passkey (no password), add a
passkey to one's account, sign in with a passkey (a discoverable credential: no name asked).

Each ceremony has two steps.  Its options (the challenge with them) are stored as a
:class:`~cribbage.storage.Ceremony` for :data:`CEREMONY_MINUTES` and taken once by its second
step, in whichever server process that comes.  The relying party (:class:`RelyingParty`: the
host name and the page's origin) is the web layer's to say.  Every refusal is a ``passkey.*``
code, or ``account.name_taken`` (``docs/api.md``, "Passkeys"); nothing is stored by a refused
step but the taking of its ceremony.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialDescriptor,
    PublicKeyCredentialRequestOptions,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ...storage import Ceremony, Conflict, NameTaken, StoredAccount, StoredPasskey
from ..errors import AppError
from ..games.options import hash_token
from .accounts import SESSION_DAYS, AccountBook, _new_token, check_name, name_refusal, new_account

__all__ = ["CEREMONY_MINUTES", "MAX_PASSKEYS", "RP_NAME", "PasskeyBook", "RelyingParty"]

CEREMONY_MINUTES: Final = 5
"""How long a ceremony begun may be finished."""

MAX_PASSKEYS: Final = 10
"""The most passkeys one account keeps."""

RP_NAME: Final = "Cribbage"
"""The relying party's name, as a browser shows it beside the passkey."""

_SELECTION: Final = AuthenticatorSelectionCriteria(
    resident_key=ResidentKeyRequirement.REQUIRED,
    user_verification=UserVerificationRequirement.REQUIRED,
)
"""A discoverable credential (signing in asks no name), its person verified (a passkey is
all the account has)."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who the passkeys are for: ``id``, the host name (never an IP address: browsers refuse
    them), and ``origin``, the page's (``https://example.org``, ``http://localhost:8000``)."""

    id: str
    origin: str


def _user_id(account_id: str) -> bytes:
    """The WebAuthn user handle of an account: its id's 16 bytes."""
    return bytes.fromhex(account_id)


def _malformed(what: str) -> AppError:
    return AppError("passkey.malformed", f"not a passkey's {what}", field="credential")


def _registration(credential: object) -> RegistrationCredential:
    try:
        return parse_registration_credential_json(credential)  # type: ignore[arg-type]
    except (WebAuthnException, ValueError, TypeError):
        raise _malformed("registration") from None


def _assertion(credential: object) -> AuthenticationCredential:
    try:
        return parse_authentication_credential_json(credential)  # type: ignore[arg-type]
    except (WebAuthnException, ValueError, TypeError):
        raise _malformed("assertion") from None


class PasskeyBook:
    """The passkeys of an :class:`~cribbage.app.people.accounts.AccountBook`'s accounts."""

    def __init__(self, accounts: AccountBook) -> None:
        self.accounts = accounts
        self.storage = accounts.storage

    # ------------------------------------------------------------------ ceremonies

    def _begin(
        self,
        kind: str,
        options: PublicKeyCredentialCreationOptions | PublicKeyCredentialRequestOptions,
        account_id: str,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Store a ceremony's challenge: ``{"ceremony": ID, "options": OPTIONS}`` (WebAuthn's
        JSON, as ``PublicKeyCredential.parseCreationOptionsFromJSON`` reads it)."""
        expires = self.storage.now() + timedelta(minutes=CEREMONY_MINUTES)
        challenge = bytes_to_base64url(options.challenge)
        ceremony = Ceremony(secrets.token_urlsafe(24), kind, challenge, account_id, name, expires)
        self.storage.passkeys.begin_ceremony(ceremony)
        return {"ceremony": ceremony.id, "options": json.loads(options_to_json(options))}

    def _take(self, kind: str, ceremony_id: object) -> Ceremony:
        """The ceremony of this id, taken (it cannot be finished twice): ``passkey.bad_ceremony``
        for one unknown, finished already, expired or begun for another step."""
        found = self.storage.passkeys.take_ceremony(ceremony_id) if isinstance(ceremony_id, str) else None
        if found is None or found.kind != kind or found.expires <= self.storage.now():
            raise AppError(
                "passkey.bad_ceremony", "no such ceremony: unknown, finished, expired or another's"
            )
        return found

    def _register(
        self, rp: RelyingParty, ceremony: Ceremony, credential: RegistrationCredential
    ) -> StoredPasskey:
        """A new passkey, its attestation verified against the ceremony's challenge."""
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(ceremony.challenge),
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                require_user_verification=True,
            )
        except WebAuthnException as exc:
            raise AppError("passkey.rejected", f"the passkey was refused: {exc}") from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if self.storage.passkeys.load(credential_id) is not None:
            raise AppError("passkey.taken", "this passkey is an account's already")
        transports = tuple(t.value for t in credential.response.transports or ())
        public_key = bytes_to_base64url(verified.credential_public_key)
        return StoredPasskey(credential_id, ceremony.account_id, public_key, verified.sign_count, transports)

    def _registration_options(self, rp: RelyingParty, account_id: str, name: str) -> Any:
        mine = self.storage.passkeys.of_account(account_id)
        if len(mine) >= MAX_PASSKEYS:
            raise AppError(
                "passkey.too_many", f"an account keeps at most {MAX_PASSKEYS} passkeys", count=MAX_PASSKEYS
            )
        excluded = [
            PublicKeyCredentialDescriptor(
                id=base64url_to_bytes(key.credential_id),
                transports=[AuthenticatorTransport(t) for t in key.transports],
            )
            for key in mine
        ]
        return generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=name,
            user_id=_user_id(account_id),
            user_display_name=name,
            authenticator_selection=_SELECTION,
            exclude_credentials=excluded,
        )

    # ------------------------------------------------------------------ the three ceremonies

    def sign_up_options(self, rp: RelyingParty, name: object) -> dict[str, Any]:
        """Begin making an account with a passkey: the name checked (``account.bad_name``,
        ``account.name_taken``), its id chosen (the passkey's user handle)."""
        checked = check_name(name)
        account_id = secrets.token_hex(16)
        taken = self.storage.accounts.name_taken(new_account(account_id, checked, None, self.storage.now()))
        if taken is not None:
            raise name_refusal(taken)
        return self._begin("signup", self._registration_options(rp, account_id, checked), account_id, checked)

    def sign_up(self, rp: RelyingParty, ceremony_id: object, credential: object) -> dict[str, Any]:
        """Make the account of a passkey, signed in: ``{"token", "account"}``; the account, its
        passkey and its session in one transaction (a name taken meanwhile: none of them)."""
        parsed = _registration(credential)
        ceremony = self._take("signup", ceremony_id)
        passkey = self._register(rp, ceremony, parsed)
        name = ceremony.name or ""
        now = self.storage.now()
        account = new_account(ceremony.account_id, name, None, now)
        token = _new_token()
        session = (hash_token(token), now + timedelta(days=SESSION_DAYS))
        try:
            self.storage.passkeys.add_account(account, passkey, session)
        except NameTaken as taken:
            raise name_refusal(taken) from None
        except Conflict:
            raise AppError("passkey.taken", "this passkey is an account's already") from None
        return {"token": token, "account": self.accounts.me_json(account)}

    def add_options(self, rp: RelyingParty, token: str | None) -> dict[str, Any]:
        """Begin adding a passkey to the session's account (its passkeys excluded)."""
        account = self.accounts.account_of(token)
        return self._begin("add", self._registration_options(rp, account.id, account.name), account.id)

    def add(
        self, rp: RelyingParty, token: str | None, ceremony_id: object, credential: object
    ) -> dict[str, Any]:
        """Add a passkey to the session's account: ``{"passkeys": N}``, how many it has now."""
        account = self.accounts.account_of(token)
        parsed = _registration(credential)
        ceremony = self._take("add", ceremony_id)
        if ceremony.account_id != account.id:
            raise AppError("passkey.bad_ceremony", "this ceremony is another account's")
        try:
            self.storage.passkeys.add(self._register(rp, ceremony, parsed))
        except Conflict:
            raise AppError("passkey.taken", "this passkey is an account's already") from None
        return {"passkeys": len(self.storage.passkeys.of_account(account.id))}

    def sign_in_options(self, rp: RelyingParty) -> dict[str, Any]:
        """Begin signing in with a passkey: any of this site's (the browser lists them)."""
        options = generate_authentication_options(
            rp_id=rp.id, user_verification=UserVerificationRequirement.REQUIRED
        )
        return self._begin("signin", options, "")

    def sign_in(self, rp: RelyingParty, ceremony_id: object, credential: object) -> dict[str, Any]:
        """A new session for the account of a passkey: ``{"token", "account"}``.
        ``passkey.unknown`` for a passkey no account has; ``passkey.rejected`` for a signature,
        challenge, origin or counter that does not verify."""
        account = self._asserted(rp, ceremony_id, credential)
        return {"token": self.accounts._open_session(account), "account": self.accounts.me_json(account)}

    def delete(
        self, rp: RelyingParty, token: str | None, ceremony_id: object, credential: object
    ) -> dict[str, Any]:
        """Delete the session's account, a passkey of it asked for again (the way an account
        without a password is deleted; a sign-in's ceremony): as
        :meth:`~cribbage.app.people.accounts.AccountBook.delete`, ``{"deleted": true, "games": N}``.
        ``account.bad_credentials`` for a passkey of another account."""
        account = self.accounts.account_of(token)
        if self._asserted(rp, ceremony_id, credential).id != account.id:
            raise AppError("account.bad_credentials", "this passkey is another account's")
        return self.accounts.deleted(account)

    def _asserted(self, rp: RelyingParty, ceremony_id: object, credential: object) -> StoredAccount:
        """The account of a passkey's assertion, verified against a sign-in's ceremony (its
        counter moved on, once: a replayed assertion is refused)."""
        parsed = _assertion(credential)
        ceremony = self._take("signin", ceremony_id)
        passkey = self.storage.passkeys.load(bytes_to_base64url(parsed.raw_id))
        account = None if passkey is None else self.storage.accounts.load(passkey.account_id)
        handle = parsed.response.user_handle
        if passkey is None or account is None or (handle is not None and handle != _user_id(account.id)):
            raise AppError("passkey.unknown", "no account has this passkey")
        try:
            verified = verify_authentication_response(
                credential=parsed,
                expected_challenge=base64url_to_bytes(ceremony.challenge),
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=base64url_to_bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
                require_user_verification=True,
            )
        except WebAuthnException as exc:
            raise AppError("passkey.rejected", f"the passkey was refused: {exc}") from None
        if not self.storage.passkeys.used(passkey.credential_id, passkey.sign_count, verified.new_sign_count):
            raise AppError("passkey.rejected", "the passkey's counter moved meanwhile: a replay")
        return account
