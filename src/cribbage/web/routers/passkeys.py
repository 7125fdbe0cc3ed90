"""Passkeys (WebAuthn): make an account with a passkey, add one to one's account, sign in with
one (``docs/api.md``, "Passkeys").  Each is two requests: ``.../options`` begins the ceremony
(WebAuthn's options as JSON, and the ceremony's id), the second finishes it with the browser's
credential (``PublicKeyCredential.toJSON()``).

The relying party is the request's host (the names ``--allowed-hosts`` admits, when it is set)
and the page's origin its scheme, host and port: a page served at ``https://example.org`` has
passkeys for ``example.org``.  Browsers refuse an IP address as a relying party: serve the page
under a name (``localhost`` for a test).  The options are limited as signing up and in are.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.concurrency import run_in_threadpool

from ...app.people.passkeys import RelyingParty
from ..answers.base import Answer
from ..deps import Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..openapi import _BODY, answer, refusals
from .accounts import SIGNUP_RESPONSES, Bearer, DeletedAnswer, SessionAnswer, _Text, _token, left_play_now

__all__ = ["relying_party", "router"]

router = APIRouter(route_class=JsonRoute, tags=["passkeys"])


def relying_party(request: Request) -> RelyingParty:
    """The relying party of a request: its host name, and its scheme, host and port as the
    page's origin (uvicorn's ``--proxy-headers`` give the scheme behind a proxy)."""
    url = request.url
    return RelyingParty(url.hostname or "", f"{url.scheme}://{url.netloc}")


# ------------------------------------------------------------------ bodies and answers


class NameBody(BaseModel):
    """The new account's name."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Aiko"}]})

    name: _Text = Field(
        description="2 to 20 letters, digits, '_', '-', '.' and single spaces (docs/api.md, \"Names\")"
    )


class CredentialBody(BaseModel):
    """A ceremony's id and the browser's credential (``PublicKeyCredential.toJSON()``)."""

    model_config = ConfigDict(extra="forbid")

    ceremony: Annotated[str, StringConstraints(min_length=1, max_length=64)] = Field(
        description="the id the options came with"
    )
    credential: dict[str, Any] = Field(description="the browser's credential as JSON (WebAuthn Level 3)")


class CeremonyAnswer(Answer):
    """A ceremony begun: its id, and the options for ``navigator.credentials``."""

    ceremony: str = Field(description="to send back with the credential, within 5 minutes, once")
    options: dict[str, Any] = Field(
        description="WebAuthn's PublicKeyCredentialCreationOptionsJSON or ...RequestOptionsJSON"
    )


class AddedAnswer(Answer):
    passkeys: int = Field(description="how many passkeys the account has now")


# ------------------------------------------------------------------ refusals

_FINISH: Final = {
    **_BODY,
    400: "no such ceremony: unknown, finished already, expired or another's (passkey.bad_ceremony)",
    401: "the passkey was refused (passkey.rejected) or is no account's (passkey.unknown)",
    422: "a malformed body, or a credential that is not a passkey's (passkey.malformed)",
}
SIGNUP_FINISH: Final = refusals({**_FINISH, 409: "the name is another account's, or the passkey is"})
ADD_OPTIONS: Final = refusals(
    {
        **_BODY,
        401: "not signed in: no session token, or an unknown, ended or expired one",
        409: "the account has as many passkeys as it may keep (passkey.too_many)",
        429: "too many sign-in attempts from your address: try again after Retry-After seconds",
    }
)
ADD_FINISH: Final = refusals(
    {**_FINISH, 401: "not signed in, or the passkey was refused", 409: "the passkey is an account's already"}
)
SIGNIN_OPTIONS: Final = refusals(
    {**_BODY, 429: "too many sign-in attempts from your address: try again after Retry-After seconds"}
)
SIGNIN_FINISH: Final = refusals(_FINISH)
DELETE: Final = refusals(
    {
        **_FINISH,
        401: "not signed in; the passkey refused, no account's or another account's",
        429: "too many sign-in attempts from your address: try again after Retry-After seconds",
    }
)


# ------------------------------------------------------------------ routes


@router.post(
    "/api/accounts/passkey/signup/options",
    responses={**answer(CeremonyAnswer), **SIGNUP_RESPONSES},
    dependencies=[per_address("signup")],
)
def sign_up_options(body: NameBody, request: Request, service: Service) -> Json:
    """Begin making an account with a passkey (no password): its name is checked now."""
    return Json(service.passkeys.sign_up_options(relying_party(request), body.name))


@router.post(
    "/api/accounts/passkey/signup",
    status_code=201,
    responses={**answer(SessionAnswer, 201), **SIGNUP_FINISH},
    name="sign_up",  # the operation id of /openapi.json, as before the function's own name
)
def passkey_sign_up(body: CredentialBody, request: Request, service: Service) -> Json:
    """Make the account of the new passkey: answers a session token and the account."""
    found = service.passkeys.sign_up(relying_party(request), body.ceremony, body.credential)
    return Json(found, status_code=201)


@router.post(
    "/api/accounts/passkey/add/options",
    responses={**answer(CeremonyAnswer), **ADD_OPTIONS},
    dependencies=[per_address("signin")],
)
def add_options(request: Request, service: Service, credentials: Bearer) -> Json:
    """Begin adding a passkey to the account (its own passkeys excluded)."""
    return Json(service.passkeys.add_options(relying_party(request), _token(credentials)))


@router.post("/api/accounts/passkey/add", responses={**answer(AddedAnswer), **ADD_FINISH})
def add(body: CredentialBody, request: Request, service: Service, credentials: Bearer) -> Json:
    """Add the new passkey to the account."""
    rp = relying_party(request)
    return Json(service.passkeys.add(rp, _token(credentials), body.ceremony, body.credential))


@router.post(
    "/api/accounts/passkey/signin/options",
    responses={**answer(CeremonyAnswer), **SIGNIN_OPTIONS},
    dependencies=[per_address("signin")],
)
def sign_in_options(request: Request, service: Service) -> Json:
    """Begin signing in with a passkey: no name is asked (the browser lists this site's)."""
    return Json(service.passkeys.sign_in_options(relying_party(request)))


@router.post(
    "/api/accounts/passkey/signin", responses={**answer(SessionAnswer), **SIGNIN_FINISH}, name="sign_in"
)
def passkey_sign_in(body: CredentialBody, request: Request, service: Service) -> Json:
    """Sign in with a passkey: answers a new session token (for 30 days) and the account."""
    return Json(service.passkeys.sign_in(relying_party(request), body.ceremony, body.credential))


@router.post(
    "/api/accounts/passkey/delete",
    responses={**answer(DeletedAnswer), **DELETE},
    dependencies=[per_address("signin")],
    name="delete",
)
async def passkey_delete(
    body: CredentialBody, request: Request, service: Service, credentials: Bearer
) -> Json:
    """Delete the account, a passkey of it asked for again (with a sign-in's options): as
    ``POST /api/accounts/delete``, for an account without a password too."""
    rp, token = relying_party(request), _token(credentials)
    account = await run_in_threadpool(service.accounts.account_of, token)
    deleted = await run_in_threadpool(service.passkeys.delete, rp, token, body.ceremony, body.credential)
    await left_play_now(request, account.id)
    return Json(deleted)
