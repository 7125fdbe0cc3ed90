"""The web server: the page and the JSON API of ``docs/api.md``, as one FastAPI application.

:func:`create_app` builds the application around a :class:`~cribbage.app.GameService`;
``cribbage serve`` runs it with uvicorn.  This module only translates HTTP to the service and
back: bodies are checked against the models below (which also make ``/openapi.json``), every
error is answered as ``{"error": "...", "code": "..."}`` (:mod:`.errors`), and the page is
served from the ``static`` folder beside this file (``/`` is ``index.html``, ``/howto`` is
``howto.html``, the rest is under ``/static/``).

The endpoints are plain functions: FastAPI runs them in its thread pool, so a computer player
thinking in one game does not hold up the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from annotated_types import Interval
from fastapi import Body, Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
)
from pydantic import Strict as StrictMode
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..app import CACHE_BYTES, CLOCKS, DEALERS, LEVELS, SEAT_KINDS, AppError, GameService, Options, one_player
from ..engine.cards import Card, parse_cards
from ..engine.errors import CardError, CountError, CribbageError
from ..engine.rules import GAME_POINTS, VARIANTS
from ..engine.scoring import score_play, score_show
from ..players import make_player
from .bodies import Integer, integral
from .errors import status_of
from .hardening import Hardening, add_health, good_game_id, harden, parse_hosts
from .live import DATABASE_RETRY_SECONDS, Broker, Live, Presence, make_broker
from .ratelimits import LIMITS, LimitError, RateLimits, token_key
from .retention import Retention, prune_periodically
from .storage import Storage
from .train import add_train

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR: Final = Path(__file__).with_name("static")
"""The page: ``index.html``, ``howto.html`` and what they load."""

MAX_BODY: Final = 64 * 1024
"""The largest request body accepted (bytes); every valid request is far smaller."""

_ACTION_TYPES: Final = ("discard", "play", "count", "muggins", "pass")

REVIEWS_AT_ONCE: Final = 2
"""How many game reviews (``POST /api/review``, a second or two of work each) one server process
makes at once; more are refused with 503 and ``retry-after`` rather than queued."""

SEED_MAX: Final = 2**63 - 1
"""The largest seed (a game's seed is a signed 64-bit integer in the record)."""

CLOCK_TICK: Final = 1.0
"""How often (seconds) each process looks for turn clocks that ran out."""

# --------------------------------------------------------------------------- request bodies


Target = Annotated[int, StrictMode(), Interval(ge=1, le=1000), BeforeValidator(integral)]
Seed = Annotated[int, StrictMode(), Interval(ge=0, le=SEED_MAX), BeforeValidator(integral)]
Clock = Annotated[int, StrictMode(), Interval(ge=CLOCKS[0], le=CLOCKS[1]), BeforeValidator(integral)]

CardText = Annotated[str, StringConstraints(min_length=1, max_length=8)]
Name = Annotated[str, StringConstraints(max_length=30)]
GameId = Annotated[str, PathParam(min_length=1, max_length=64, description="the game's id")]


def _choice(default: str, choices: Any, description: str) -> Any:
    """A text field whose allowed values are listed in the schema (the service checks them)."""
    return Field(default, description=description, json_schema_extra={"enum": list(choices)})


class SeatBody(BaseModel):
    """One seat of a new table: a person, or a computer of a level."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="who sits there", json_schema_extra={"enum": list(SEAT_KINDS)})
    level: str | None = Field(
        default=None,
        description="a computer's level (by default the game's)",
        json_schema_extra={"enum": [*LEVELS, None]},
    )


class NewGame(BaseModel):
    """The options of a new game (all optional)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"level": "weak", "seed": 278},
                {
                    "variant": "four-player",
                    "level": "weak",
                    "seats": [
                        {"kind": "human"},
                        {"kind": "computer"},
                        {"kind": "human"},
                        {"kind": "computer"},
                    ],
                    "public": True,
                    "names": ["Aiko"],
                },
            ]
        },
    )

    level: str = _choice("normal", LEVELS, "the computer players' level")
    variant: str = _choice("standard", VARIANTS, "a variant of cribbage.engine.rules.VARIANTS")
    target: Target | None = Field(default=None, description="overrides the variant's target")
    manual: StrictBool = Field(default=False, description="you state your own counts")
    muggins: StrictBool = Field(default=False, description="under-counts can be claimed (needs manual)")
    muggins_play: StrictBool = Field(default=False, description="muggins in the play too (needs manual)")
    dealer: str = _choice("cut", DEALERS, "who deals first")
    skunk: str = _choice("marked", GAME_POINTS, "the game-points scheme")
    seed: Seed | None = Field(default=None, description="a seeded game deals the same cards")
    names: list[Name] = Field(default_factory=lambda: ["You"], max_length=4, description="seat names")
    seats: list[SeatBody] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="who sits where, from seat 0 (the creator, a person); by default computers",
    )
    public: StrictBool = Field(default=False, description="list the table in the lobby while a seat is open")
    clock: Clock | None = Field(
        default=None, description="seconds per turn: a computer moves for a person who lets them run out"
    )
    takeover: str | None = Field(
        default=None,
        description="a computer of this level takes the seat of a person who leaves (null: the seat waits)",
        json_schema_extra={"enum": [*LEVELS, None]},
    )


class ComputerBody(BaseModel):
    """An open person's seat, and the level of the computer the creator gives it to."""

    model_config = ConfigDict(extra="forbid")

    seat: Annotated[int, StrictMode(), Interval(ge=0, le=3), BeforeValidator(integral)] = Field(
        description="the open seat"
    )
    level: str = _choice("normal", LEVELS, "the computer's level")


class ActionBody(BaseModel):
    """One action of the human's seat; ``version``, when given, must be the state's."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"type": "discard", "cards": ["5H", "JD"], "version": 3},
                {"type": "play", "card": "7C"},
                {"type": "count", "points": 8},
                {"type": "pass"},
            ]
        },
    )

    type: Annotated[str, StringConstraints(max_length=16)] = Field(
        description="the kind of action", json_schema_extra={"enum": list(_ACTION_TYPES)}
    )
    cards: list[CardText] | None = Field(default=None, max_length=8, description="discard: the cards thrown")
    card: CardText | None = Field(default=None, description="play: the card")
    claim: Integer | None = Field(
        default=None, description="play with muggins in the play: the points stated"
    )
    points: Integer | None = Field(default=None, description="count or muggins: the points stated")
    seat: Integer | None = Field(default=None, description="your seat (0), if given")
    version: Integer | None = Field(default=None, description="the state's version this action answers")


class SeenBody(BaseModel):
    """The version of the state whose decision the page shows now."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 12}]})

    version: Integer = Field(description="the version of the state shown")


AnyCardText = Annotated[str, StringConstraints(max_length=8)]
"""A card as typed on the how-to page: checked by :func:`_cards`, which names what is wrong."""


class JoinBody(BaseModel):
    """An invitation code and the display name of the person taking its seat."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"code": "K7QX2M", "name": "Aiko"}]}
    )

    code: Annotated[str, StringConstraints(min_length=1, max_length=32)] = Field(
        description="the invitation's code, as in K7QX2M"
    )
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="your display name: 1 to 30 characters, no control characters"
    )


class ScoreBody(BaseModel):
    """A hand (3 to 5 cards) or a crib with its starter.

    The schema states the real numbers of cards and that a starter is required; the endpoint
    checks them itself, so that each refusal has its own code (``card_count``,
    ``starter_missing``) for the how-to page to word.
    """

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": ["hand", "starter"],
            "examples": [{"hand": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}],
        },
    )

    hand: list[AnyCardText] = Field(max_length=52, json_schema_extra={"minItems": 3, "maxItems": 5})
    starter: AnyCardText = Field(default="", json_schema_extra={"minLength": 1})
    crib: StrictBool = False


class PegBody(BaseModel):
    """The cards played since the count was last reset, in order: at least one (the endpoint
    refuses none with its own code, ``no_cards``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"cards": ["4H", "6D", "5S"]}]})

    cards: list[AnyCardText] = Field(max_length=52, json_schema_extra={"minItems": 1})


# --------------------------------------------------------------------------- helpers

_bearer = HTTPBearer(auto_error=False, description="the seat's token from POST /api/games")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


def _address(connection: HTTPConnection) -> str:
    """The client's address, by which limits count: the connection's, or the one a trusted
    proxy gave uvicorn (``--forwarded-allow-ips``, docs/deploy.md)."""
    return connection.client.host if connection.client else "unknown"


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _error(
    status: int, message: str, values: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": message, **(values or {})}, status_code=status, headers=headers)


def _cards(tokens: list[str], field: str, size: tuple[int, ...] | None = None) -> tuple[Card, ...]:
    """The cards of ``tokens``, or an :class:`AppError` of the engine's :class:`CardError`
    naming the first bad or repeated one (``card_invalid``, ``card_duplicate``) or the wrong
    number of them (``card_count``)."""
    try:
        return parse_cards(tokens, size)
    except CardError as exc:
        named = dict(exc.values)  # the problem, and the card or the count and the numbers allowed
        problem = named.pop("problem")
        raise AppError(f"card_{problem}", f"{field}: {exc}", field=field, **named) from None


def _validation_message(exc: RequestValidationError) -> str:
    """One line naming the first problem of a request body: where, and what is wrong."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"the body is not valid JSON: {first.get('ctx', {}).get('error', 'a syntax error')}"
    loc = [str(part) for part in first.get("loc", ()) if part != "body"]
    if not loc:
        return (
            "a JSON body is required" if first.get("type") == "missing" else "the body must be a JSON object"
        )
    return f"{'.'.join(loc)}: {first.get('msg', 'invalid value')}"


def check_socket_action(data: dict[str, Any]) -> dict[str, Any]:
    """An action sent on a live socket, checked as the body of ``POST .../actions`` is.

    Raises:
        AppError: ``bad_request`` naming the first problem (never repeating the input)
    """
    try:
        action = ActionBody.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "extra_forbidden":  # its name is the client's: not repeated
            raise AppError("bad_request", "action: an unknown field", field="action") from None
        where = ".".join(str(part) for part in ("action", *first["loc"]))
        raise AppError("bad_request", f"{where}: {first['msg']}", field=where) from None
    return action.model_dump(exclude_none=True)


# --------------------------------------------------------------------------- answers
# What the endpoints answer, as /openapi.json states it (docs/api.md has every field): the
# endpoints build their JSON themselves; these models only describe it, and the fuzz test
# (tests/test_web_fuzz.py) checks every answer against them.


class Invite(BaseModel):
    """An open seat's invitation."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    code: str
    url: str


class SeatInfo(BaseModel):
    """Who sits at a seat (``level`` for computers; ``name`` once taken; ``code`` in the lobby
    for an open seat)."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    kind: str = Field(json_schema_extra={"enum": list(SEAT_KINDS)})
    level: str | None = None
    name: str | None = None
    taken: bool
    code: str | None = None


class ScoreHistoryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand: int
    scores: list[int]


class TurnClock(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(description="the seat whose turn it is")
    deadline: float = Field(description="when its clock runs out (seconds since 1970, UTC)")


class StateAnswer(BaseModel):
    """A seat's ``STATE`` (docs/api.md, "Read the state")."""

    model_config = ConfigDict(extra="forbid")

    id: str
    version: int
    seat: int
    names: list[str]
    options: dict[str, Any]
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    events: list[dict[str, Any]]
    score_history: list[ScoreHistoryEntry]
    breakdown: list[dict[str, int]]
    over: bool
    result: dict[str, Any] | None
    seats: list[SeatInfo]
    waiting_for: list[int]
    invites: list[Invite]
    connected: list[int] = Field(description="the people's seats with a live socket open now")
    rematch: str | None = Field(description="the id of the game played again after this one, once made")
    turn_clock: TurnClock | None = Field(description="the running turn clock, if the table has one")
    away: list[int] = Field(description="the seats whose turn clock ran out, until their person acts")


class NewGameAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    token: str = Field(description="seat 0's secret: send it as Authorization: Bearer TOKEN")
    state: StateAnswer
    invites: list[Invite]


class JoinAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    token: str = Field(description="the seat's own secret")
    seat: int
    state: StateAnswer


class LobbyTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str
    variant: str
    players: int
    target: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    created: str


class InvitationAnswer(BaseModel):
    """What an invitation code opens, shown before joining: the seat it takes and the table."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    variant: str
    players: int
    target: int
    options: dict[str, Any]
    seats: list[SeatInfo]


class LobbyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tables: list[LobbyTable]


class HintAnswer(BaseModel):
    """The computer's advice, best first."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(json_schema_extra={"enum": ["discard", "play"]})
    ranked_by: str = Field(json_schema_extra={"enum": ["total", "win", "value"]})
    options: list[dict[str, Any]]


class Combo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    cards: list[str]
    points: int


class ShowAnswer(BaseModel):
    """``ShowScore.to_json``: the totals by category and every combination."""

    model_config = ConfigDict(extra="forbid")

    hand: list[str]
    starter: str
    crib: bool
    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    combos: list[Combo]


class PegAnswer(BaseModel):
    """``PlayScore.to_json``: the points of the last card."""

    model_config = ConfigDict(extra="forbid")

    cards: list[str]
    points: int
    count: int
    combos: list[Combo]


def _answer(
    model: type[BaseModel], status: int = 200, links: dict[str, Any] | None = None
) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, **({"links": links} if links else {})}}


def _game_links(legal: str) -> dict[str, Any]:
    """OpenAPI links from an answer holding a game (its ``id``, and its ``legal`` actions at
    the JSON pointer ``legal``) to what can be asked of the game next, with the seat's token:
    its state, one of its legal actions, a hint, its record."""
    game = {"game_id": "$response.body#/id"}
    return {
        "GameState": {"operationRef": "#/paths/~1api~1games~1{game_id}/get", "parameters": game},
        "FirstLegalAction": {
            "operationRef": "#/paths/~1api~1games~1{game_id}~1actions/post",
            "parameters": game,
            "requestBody": f"$response.body#{legal}/0",
        },
        "GameHint": {"operationRef": "#/paths/~1api~1games~1{game_id}~1hint/get", "parameters": game},
        "GameRecord": {"operationRef": "#/paths/~1api~1games~1{game_id}~1record/get", "parameters": game},
    }


_OBJECT: Final = {"content": {"application/json": {"schema": {"type": "object"}}}}
_VARIANTS: Final = {
    "content": {
        "application/json": {
            "schema": {"type": "object", "additionalProperties": {"type": "object"}},
        }
    }
}


class ErrorBody(BaseModel):
    """Every refusal: ``error`` names the problem (in English), ``code`` names it for a client to
    word in its reader's language, with the values the code names (``docs/api.md``, "Errors")."""

    model_config = ConfigDict(extra="forbid")

    error: Annotated[str, StringConstraints(min_length=1)] = Field(description="what is wrong")
    code: str = Field(description="what is wrong, as a code (cribbage.web.errors)")
    field: str | None = Field(default=None, description='with a code: where ("" for the whole body)')
    problem: str | None = Field(default=None, description="with illegal.card: invalid, duplicate or count")
    version: int | None = Field(default=None, description="with stale: the game's version")
    seat: int | None = Field(default=None, description="with seat_taken, seat_online, forbidden: the seat")
    seats: list[int] | None = Field(default=None, description="with table_waiting: the open seats")
    level: str | None = Field(default=None, description="with computer_unavailable: the level")
    card: str | None = Field(default=None, description="with a code: the card as sent")
    count: int | None = Field(default=None, description="with a code: how many cards, or the count")
    allowed: list[int] | None = Field(default=None, description="with card_count: the numbers allowed")
    limit: str | None = Field(default=None, description="with too_many: the limit that was reached")
    retry_after: int | None = Field(
        default=None, description="with too_many or database_unavailable: seconds to wait (as Retry-After)"
    )


_RETRY_AFTER: Final = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "required": True,
        "schema": {"type": "integer"},
    }
}


def _errors(statuses: dict[int, str]) -> dict[int | str, dict[str, Any]]:
    """The declared refusals of an operation, each an :class:`ErrorBody` (a 429 also has its
    ``Retry-After`` header)."""
    declared: dict[int | str, dict[str, Any]] = {}
    for status, text in sorted(statuses.items()):
        declared[status] = {"model": ErrorBody, "description": text}
        if status == 429:
            declared[status]["headers"] = _RETRY_AFTER
        elif status == 503:  # sent while the database does not answer, or a review is busy
            declared[status]["headers"] = {"Retry-After": {**_RETRY_AFTER["Retry-After"], "required": False}}
    return declared


_DATABASE_AWAY: Final = (
    "the database is not answering (code database_unavailable): try again after Retry-After seconds"
)
_BODY: Final = {
    503: _DATABASE_AWAY,
    408: "the body took too long to arrive",
    413: f"a body over {MAX_BODY} bytes",
    422: "a malformed body (not JSON, or not what the schema describes) or one a rule of docs/api.md refuses",
}
_GAME: Final = {
    503: _DATABASE_AWAY,
    401: "missing or wrong token",
    404: "no such game",
    422: "a malformed game id",
    429: "too many requests from your address: try again after Retry-After seconds",
}
_GAME_BODY: Final = {**_GAME, **_BODY, 422: "a malformed game id or body, or an action of the wrong shape"}
_NEW_GAME_RESPONSES: Final = _errors(
    {
        **_BODY,
        429: "too many new games from your address: try again after Retry-After seconds",
        503: "the computer player of this level is not available on this server, or " + _DATABASE_AWAY,
    }
)
_STATE_RESPONSES: Final = _errors(_GAME)
_ACTION_RESPONSES: Final = _errors(
    {
        **_GAME_BODY,
        400: "an action the rules do not allow now",
        403: "an action for another seat than the token's",
        409: "a stale version, or the table waits for people to join",
    }
)
_HINT_RESPONSES: Final = _errors({**_GAME, 409: "not your turn to discard or play"})
_RECORD_RESPONSES: Final = _errors({**_GAME, 409: "the game is not over yet"})
_JOIN_RESPONSES: Final = _errors(
    {
        **_BODY,
        404: "no table has this invitation code",
        409: "the seat is taken already",
        429: "too many join attempts: try again after Retry-After seconds",
        503: "joining is briefly unavailable (the shared counters cannot be reached), or " + _DATABASE_AWAY,
    }
)
_INVITATION_RESPONSES: Final = _errors(
    {
        404: "no table has this invitation code",
        409: "the seat is taken already",
        429: "too many join attempts: try again after Retry-After seconds",
        503: "joining is briefly unavailable (the shared counters cannot be reached), or " + _DATABASE_AWAY,
    }
)
_REVIEW_RESPONSES: Final = _errors(
    {
        **_BODY,
        422: "a malformed body, or not a game record (the message names what is wrong)",
        503: "the server is busy reviewing other games: try again after Retry-After seconds",
    }
)
_LEAVE_RESPONSES: Final = _errors(
    {**_GAME, 409: "the game is over, or the table was changed by another request: read it again"}
)
_COMPUTER_RESPONSES: Final = _errors(
    {
        **_GAME_BODY,
        403: "only the table's creator (seat 0) may give a seat to a computer",
        409: "the seat is not open, the game is over, or the table changed meanwhile",
        503: "the computer player of this level is not available on this server, or " + _DATABASE_AWAY,
    }
)
_REMATCH_RESPONSES: Final = _errors({**_GAME, 409: "play again once the game is over"})
_WATCH_LINK_RESPONSES: Final = _errors(
    {**_GAME, 403: "only the table's creator (seat 0) may give a watch link"}
)
_WATCH_RESPONSES: Final = _errors(
    {
        404: "no table has this watch code",
        422: "a malformed watch code",
        429: "too many wrong tokens or codes from your address: try again after Retry-After seconds",
    }
)
_SCORING_RESPONSES: Final = _errors(
    {**_BODY, 429: "too many requests from your address: try again after Retry-After seconds"}
)


def parse_json(body: bytes) -> Any:
    """The JSON value of a request body, or a :class:`json.JSONDecodeError` naming what is wrong.

    Stricter and clearer than :func:`json.loads` alone: the body must be UTF-8; ``NaN`` and
    ``Infinity`` (which are not JSON) are refused; a number of more digits than Python converts
    (:func:`sys.get_int_max_str_digits`) and nesting deeper than Python parses are refused by
    name.  FastAPI answers any :class:`~json.JSONDecodeError` with a validation error, so every
    malformed body gets the same 422 as one of the wrong shape (``docs/api.md``).
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError(
            f"invalid UTF-8 at byte {exc.start}", body.decode("utf-8", "replace"), exc.start
        ) from None

    def no_constant(name: str) -> Any:
        raise json.JSONDecodeError(f"{name} is not a JSON number", text, text.find(name))

    try:
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("arrays or objects nested too deeply", text, 0) from None
    except ValueError:  # an integer of too many digits for Python to convert
        limit = sys.get_int_max_str_digits()
        raise json.JSONDecodeError(f"a number of more than {limit} digits", text, 0) from None


class JsonRequest(Request):
    """A request whose JSON body is read by :func:`parse_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JsonRoute(APIRoute):
    """An API route that reads its body as a :class:`JsonRequest` (FastAPI's custom route
    class): a body that is not JSON is a 422 naming the problem, never a bare 400."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def read_strictly(request: Request) -> Response:
            return await handler(JsonRequest(request.scope, request.receive))

        return read_strictly


_BOUNDS: Final = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _exact_bounds(document: Any, exact: Any) -> None:
    """Put the bounds of ``exact`` (a model's own JSON schema) back into ``document`` (the same
    schema as the OpenAPI document has it), where FastAPI's document model made them floats:
    ``2**63 - 1`` printed as ``9.223372036854776e+18`` is one over the real limit."""
    if isinstance(document, dict) and isinstance(exact, dict):
        for key, value in exact.items():
            if key in _BOUNDS and isinstance(value, int) and key in document:
                document[key] = value
            elif key in document:
                _exact_bounds(document[key], value)
    elif isinstance(document, list) and isinstance(exact, list) and len(document) == len(exact):
        for inner, exact_inner in zip(document, exact, strict=True):
            _exact_bounds(inner, exact_inner)


_BODY_MODELS: Final[tuple[type[BaseModel], ...]] = (
    NewGame,
    SeatBody,
    ActionBody,
    JoinBody,
    ScoreBody,
    PegBody,
    ErrorBody,
)


_HEADERS: Final = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
_NO_STORE: Final = (b"cache-control", b"no-store")


class SafetyMiddleware:
    """Refuses bodies over :data:`MAX_BODY` (413) and adds protective headers to every answer.

    The body is read here, whole, before the application sees it, so a long chunked upload is
    refused as surely as one that announces its length.  API answers are never cached (they
    hold a hand); no answer may be framed or sniffed as another content type.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit():
            await _error(400, "a bad Content-Length header")(scope, receive, send)
            return
        body = b""
        more = int(length) <= MAX_BODY
        while more and len(body) <= MAX_BODY:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if len(body) > MAX_BODY or int(length) > MAX_BODY:
            too_large = f"the body is limited to {MAX_BODY} bytes"
            await _error(413, too_large, {"code": "too_large"})(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [*_HEADERS, _NO_STORE] if api else _HEADERS
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, replay, send_with_headers)


# --------------------------------------------------------------------------- the application


ENVIRONMENT: Final = {
    "db": "CRIBBAGE_SERVE_DB",
    "broker": "CRIBBAGE_SERVE_BROKER",
    "computer": "CRIBBAGE_SERVE_TESTING_COMPUTER",
    # abuse limits (cribbage.web.ratelimits): one "limits" spec or "off" each
    **{f"limit_{name}": f"CRIBBAGE_SERVE_LIMIT_{name.upper()}" for name in LIMITS},
    # web hardening (cribbage.web.hardening): comma-separated hosts, and seconds
    "allowed_hosts": "CRIBBAGE_SERVE_ALLOWED_HOSTS",
    "body_timeout": "CRIBBAGE_SERVE_BODY_TIMEOUT",
    # retention and the cache's memory (whole days, 0: forever; megabytes)
    "keep_days": "CRIBBAGE_SERVE_KEEP_DAYS",
    "keep_finished_days": "CRIBBAGE_SERVE_KEEP_FINISHED_DAYS",
    "prune_interval": "CRIBBAGE_SERVE_PRUNE_INTERVAL",
    "cache_mb": "CRIBBAGE_SERVE_CACHE_MB",
}
"""Where ``cribbage serve`` leaves its settings for :func:`app_from_environment` (each worker
process of ``--workers`` builds its application from them)."""


def app_from_environment() -> FastAPI:
    """The application of ``cribbage serve``, from the settings it left in the environment.

    It also tunes this process's garbage collector, in the single process and in each worker
    of ``--workers`` alike: a full pass over a server holding a thousand games takes a tenth of
    a second or more, and the computer players' searches allocate enough to start one every few
    dozen actions.  What is loaded now (modules, players) is kept out of those passes for good,
    and collections come less often: games hold no reference cycles, so nothing waits on them.
    """
    app = create_app(
        os.environ[ENVIRONMENT["db"]],
        computer=os.environ.get(ENVIRONMENT["computer"]) or None,
        broker=os.environ.get(ENVIRONMENT["broker"], "memory"),
        limits=_limits_from_environment(),
        hardening=_hardening_from_environment(),
        **_retention_from_environment(),
    )
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    return app


def _limits_from_environment() -> dict[str, str]:
    settings = {name: os.environ.get(ENVIRONMENT[f"limit_{name}"], "").strip() for name in LIMITS}
    return {name: spec for name, spec in settings.items() if spec}


def _retention_from_environment() -> dict[str, Any]:
    """The retention and the cache's budget that ``cribbage serve`` left (defaults otherwise)."""
    from .retention import INTERVAL, KEEP_DAYS, KEEP_FINISHED_DAYS, parse_days

    def days(key: str, default: int) -> int:
        text = os.environ.get(ENVIRONMENT[key])
        return default if text is None else parse_days(text, ENVIRONMENT[key])

    megabytes = os.environ.get(ENVIRONMENT["cache_mb"])
    interval = os.environ.get(ENVIRONMENT["prune_interval"])
    return {
        "retention": Retention(
            days("keep_days", KEEP_DAYS),
            days("keep_finished_days", KEEP_FINISHED_DAYS),
            interval=INTERVAL if interval is None else float(interval),
        ),
        "cache_bytes": CACHE_BYTES if megabytes is None else int(megabytes) * 1024 * 1024,
    }


def _hardening_from_environment() -> Hardening:
    hosts = os.environ.get(ENVIRONMENT["allowed_hosts"])
    timeout = os.environ.get(ENVIRONMENT["body_timeout"])
    return Hardening(
        allowed_hosts=None if hosts is None else parse_hosts(hosts),
        body_timeout=Hardening.body_timeout if timeout is None else float(timeout),
    )


def create_app(
    database_url: str = "sqlite://",
    *,
    computer: str | None = None,
    static_dir: Path = STATIC_DIR,
    cache_size: int | None = None,
    cache_bytes: int = CACHE_BYTES,
    retention: Retention | None = None,
    limits: Mapping[str, str] | None = None,
    limits_prefix: str = "cribbage",
    broker: str | Broker = "memory",
    hardening: Hardening | None = None,
    clock_tick: float = CLOCK_TICK,
) -> FastAPI:
    """The web application.

    Args:
        database_url: an SQLAlchemy URL; the default (``sqlite://``) is a private SQLite
            database, removed when the service is closed.
        computer: a player name that plays every computer seat, whatever the level (tests
            only); by default each game's level plays.
        static_dir: the folder of the page.
        cache_size: at most this many games in memory (None: bounded by ``cache_bytes`` only).
        cache_bytes: the memory the cached games may take (estimated); the least recently used
            beyond it leave, the finished ones first.
        retention: how long games are kept, and how often this process prunes the older ones
            (:mod:`.retention`); by default 30 days in progress, 365 finished, hourly.
        limits: the abuse limits by name, overriding their defaults
            (:data:`~cribbage.web.ratelimits.LIMITS`): a ``limits`` spec such as
            ``"10/minute;60/hour"``, or ``"off"``; :data:`~cribbage.web.ratelimits.NO_LIMITS`
            turns them all off.
        limits_prefix: names this server's counters in the broker's storage (Redis keys).
        broker: what carries live updates between server processes (:mod:`.live`):
            ``"memory"`` (this process only), a ``redis://`` URL, or a broker.
        hardening: allowed hosts and the body deadline (:mod:`.hardening`); by default any
            host is allowed.
        clock_tick: how often (seconds) to look for turn clocks that ran out (in every process:
            whichever notices one first moves, once).

    The service is ``app.state.service``; close it (``app.state.service.close()``) when done.
    """
    messages = make_broker(broker) if isinstance(broker, str) else broker
    presence = Presence(messages)
    service = GameService(
        Storage(database_url),
        players=make_player if computer is None else one_player(computer),
        cache_size=cache_size,
        cache_bytes=cache_bytes,
        presence=presence.connected,
        sink=messages.publish,
    )
    rate = RateLimits(messages.limits_storage(), limits, limits_prefix)
    live = Live(service, messages, rate, check_socket_action, presence)
    keeping = retention or Retention()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await live.start()
        pruning = asyncio.create_task(prune_periodically(service, keeping))
        ticker = asyncio.create_task(_clocks())
        try:
            yield
        finally:
            for task in (pruning, ticker):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await live.stop()

    async def _clocks() -> None:
        """Every ``clock_tick``: a computer moves for each person whose turn clock ran out."""
        while True:
            await asyncio.sleep(clock_tick)
            with contextlib.suppress(Exception):  # the database away: the next tick tries again
                await run_in_threadpool(service.expire_due)  # the service publishes each game moved

    app = FastAPI(
        title="cribbage",
        version=__version__,
        description="Cribbage against the computer: the API of the browser game (docs/api.md).",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.live = live
    app.state.limits = rate
    app.router.route_class = JsonRoute  # every route below reads its body with parse_json
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's document, with the bodies' bounds exactly as the models have them."""
        if app.openapi_schema is None:
            document = default_openapi()
            schemas = document.get("components", {}).get("schemas", {})
            for model in _BODY_MODELS:
                if model.__name__ in schemas:
                    _exact_bounds(schemas[model.__name__], model.model_json_schema())
        return app.openapi_schema or default_openapi()

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(SafetyMiddleware)
    # ---- web hardening (issue 17): headers, HEAD, gzip, hosts, body deadline, health
    harden(app, hardening or Hardening())
    add_health(app, service.storage)
    # ---- end of web hardening

    @app.exception_handler(AppError)
    async def app_error(request: Request, exc: AppError) -> JSONResponse:
        if exc.code == "unauthorized":  # a missing or wrong token: a failure of the address
            await run_in_threadpool(rate.failed, "wrong_token", _address(request))
        headers = exc.headers if isinstance(exc, LimitError) else None
        return JSONResponse(exc.to_json(), status_code=status_of(exc.code), headers=headers)

    # ---- abuse limits (cribbage.web.ratelimits): each a dependency, run in the thread pool
    # before the body is checked (a malformed body counts as much as any other).

    def per_address(name: str) -> Any:
        def limited(request: Request) -> None:
            rate.hit(name, _address(request))

        return Depends(limited)

    def game_guard(request: Request, credentials: Credentials) -> None:
        """Requests for a game: refused from an address with too many wrong tokens before the
        token is looked at; then counted per token.  An id no game can have is not found."""
        if not good_game_id(request.path_params.get("game_id", "")):
            raise AppError("not_found", "no such game")
        rate.check("wrong_token", _address(request))
        token = _token(credentials)
        if token:
            rate.hit("token", token_key(token))

    guarded = [Depends(game_guard)]

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        loc = [str(part) for part in (errors[0].get("loc", ()) if errors else ()) if part != "body"]
        if errors and errors[0].get("type") == "json_invalid":
            loc = []  # the whole body (its location is a character position)
        return _error(422, _validation_message(exc), {"code": "bad_request", "field": ".".join(loc)})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "error"
        code = {404: "not_found", 413: "too_large"}.get(exc.status_code, "bad_request")
        body = {"error": message.lower(), "code": code}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def database_away(_request: Request, _exc: Exception) -> JSONResponse:
        """The database does not answer (restarting, unreachable): nothing was changed (a game
        whose save failed is dropped from memory and read again), so the client may try again."""
        return _error(
            503,
            "the database is not answering: try again in a few seconds",
            {"code": "database_unavailable", "retry_after": DATABASE_RETRY_SECONDS},
            {"retry-after": str(DATABASE_RETRY_SECONDS)},
        )

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
        return _error(500, "internal server error")

    # ------------------------------------------------------------------ games

    @app.post(
        "/api/games",
        status_code=201,
        tags=["games"],
        responses={**_answer(NewGameAnswer, 201, _game_links("/state/legal")), **_NEW_GAME_RESPONSES},
        dependencies=[per_address("create")],
    )
    def new_game(options: Annotated[NewGame | None, Body()] = None) -> JSONResponse:
        """Create a game; answers its id, the creator's secret token (seat 0), the first state
        and the open seats' invitations."""
        body = options or NewGame()
        values = body.model_dump()
        layout = values.pop("seats")
        if layout is not None and "names" not in body.model_fields_set:
            values["names"] = []  # at a table, nobody is "You" to everyone: Player 1, Player 2...
        token, state = service.create(Options.from_json(values), layout)
        return _json({"id": state["id"], "token": token, "state": state, "invites": state["invites"]}, 201)

    @app.post(
        "/api/join",
        status_code=201,
        tags=["tables"],
        responses={**_answer(JoinAnswer, 201, _game_links("/state/legal")), **_JOIN_RESPONSES},
        dependencies=[per_address("join")],
    )
    def join(body: JoinBody) -> JSONResponse:
        """Take an open seat with its invitation code; answers the game's id, the seat's own
        secret token, its number and its state."""
        return _json(service.join(body.code, body.name), 201)

    @app.get(
        "/api/join/{code}",
        tags=["tables"],
        responses={**_answer(InvitationAnswer), **_INVITATION_RESPONSES},
        dependencies=[per_address("join")],
    )
    def invitation_preview(code: Annotated[str, PathParam(max_length=32)]) -> JSONResponse:
        """Who sits at the table of an invitation code, its variant and counting, before joining;
        counted as a join attempt (an unknown code too)."""
        return _json(service.invitation(code))

    @app.get("/api/lobby", tags=["tables"], responses=_answer(LobbyAnswer))
    def table_lobby() -> JSONResponse:
        """The public tables with an open seat, newest first."""
        return _json(service.lobby())

    @app.get(
        "/api/games/{game_id}",
        tags=["games"],
        responses={**_answer(StateAnswer), **_STATE_RESPONSES},
        dependencies=guarded,
    )
    def game_state(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The state your seat may see."""
        return _json(service.state(game_id, _token(credentials)))

    @app.post(
        "/api/games/{game_id}/actions",
        tags=["games"],
        responses={**_answer(StateAnswer, 200, _game_links("/legal")), **_ACTION_RESPONSES},
        dependencies=guarded,
    )
    def game_action(game_id: GameId, action: ActionBody, credentials: Credentials) -> JSONResponse:
        """Take one action; the computers answer; returns the new state."""
        return _json(service.act(game_id, _token(credentials), action.model_dump(exclude_none=True)))

    @app.post(
        "/api/games/{game_id}/seen",
        tags=["games"],
        responses={200: _OBJECT, **_errors(_GAME_BODY)},
        dependencies=guarded,
    )
    def game_seen(game_id: GameId, body: SeenBody, credentials: Credentials) -> JSONResponse:
        """Your page shows your decision of this version: your turn clock runs from now."""
        return _json(service.seen(game_id, _token(credentials), body.version))

    @app.websocket("/api/games/{game_id}/live")
    async def game_live(websocket: WebSocket, game_id: str) -> None:
        """Live states: send ``{"token": "..."}`` first; every change of the game then brings
        ``{"type": "state", "state": STATE}`` (see docs/api.md)."""
        await live.serve(websocket, game_id)

    @app.post(
        "/api/games/{game_id}/leave",
        tags=["tables"],
        responses={200: _OBJECT, **_LEAVE_RESPONSES},
        dependencies=guarded,
    )
    def leave(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """Leave the table: your token is void; a computer takes the seat, or it waits open."""
        return _json(service.leave(game_id, _token(credentials)))

    @app.post(
        "/api/games/{game_id}/computer",
        tags=["tables"],
        responses={**_answer(StateAnswer), **_COMPUTER_RESPONSES},
        dependencies=guarded,
    )
    def seat_computer(game_id: GameId, body: ComputerBody, credentials: Credentials) -> JSONResponse:
        """The creator gives an open seat to a computer; answers the creator's state."""
        return _json(service.seat_computer(game_id, _token(credentials), body.seat, body.level))

    @app.post(
        "/api/games/{game_id}/rematch",
        tags=["tables"],
        responses={200: _OBJECT, **_REMATCH_RESPONSES},
        dependencies=guarded,
    )
    def rematch(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """Play again once the game is over: the new game (the same for every seat), your seat
        in it (your token acts there too) and its state."""
        return _json(service.rematch(game_id, _token(credentials)))

    @app.post(
        "/api/games/{game_id}/watch",
        tags=["tables"],
        responses={200: _OBJECT, **_WATCH_LINK_RESPONSES},
        dependencies=guarded,
    )
    def watch_link(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The table's watch link (for its creator, seat 0): ``{"code", "url"}``."""
        return _json(service.watch_link(game_id, _token(credentials)))

    def watch_guard(request: Request) -> None:
        """Watch codes, like tokens, are not to be guessed: an address with too many wrong
        ones is refused before its code is looked at."""
        rate.check("wrong_token", _address(request))

    @app.get(
        "/api/watch/{code}",
        tags=["tables"],
        responses={200: _OBJECT, **_WATCH_RESPONSES},
        dependencies=[Depends(watch_guard)],
    )
    def watched(request: Request, code: Annotated[str, PathParam(max_length=32)]) -> JSONResponse:
        """A spectator's state of the game of a watch code: only what every seat sees."""
        try:
            return _json(service.watch(code))
        except AppError as exc:
            if exc.code == "no_watch_code":  # a wrong code: a failure of the address, as a wrong token
                rate.failed("wrong_token", _address(request))
            raise

    @app.get(
        "/api/games/{game_id}/hint",
        tags=["games"],
        responses={**_answer(HintAnswer), **_HINT_RESPONSES},
        dependencies=guarded,
    )
    def game_hint(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The computer's advice for your discard or play, best first."""
        return _json(service.hint(game_id, _token(credentials)))

    @app.get(
        "/api/games/{game_id}/record",
        tags=["games"],
        responses={200: _OBJECT, **_RECORD_RESPONSES},
        dependencies=guarded,
    )
    def game_record(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The JSON record of a finished game (replayable with ``cribbage replay``)."""
        return _json(service.record(game_id, _token(credentials)))

    # ------------------------------------------------------------------ review

    app.state.reviews = threading.BoundedSemaphore(REVIEWS_AT_ONCE)

    @app.post("/api/review", tags=["games"], responses={200: _OBJECT, **_REVIEW_RESPONSES})
    def review(
        record: Annotated[dict[str, Any], Body(description="a game record, as GET .../record answers it")],
        seat: Annotated[int | None, Query(ge=0, le=3, description="the seat to review")] = None,
    ) -> JSONResponse:
        """Every decision of a recorded game judged against the computer's best, graded, with the
        totals of each hand and each side's chance of winning (docs/api.md)."""
        from ..review import review_record  # the advice is loaded with the first review

        if not app.state.reviews.acquire(blocking=False):
            busy = "the server is busy reviewing other games: try again"
            return _error(503, busy, {"code": "busy"}, headers={"retry-after": "2"})
        try:
            return _json(review_record(record, None if seat is None else [seat]).to_json())
        except CribbageError as exc:
            raise AppError("bad_record", str(exc), field="record") from None
        finally:
            app.state.reviews.release()

    # ------------------------------------------------------------------ rules

    variant_facts = {name: rules.facts() for name, rules in VARIANTS.items()}

    @app.get("/api/variants", tags=["rules"], responses={200: _VARIANTS})
    def variants() -> JSONResponse:
        """Every variant by name with its rules and what follows from them (``Rules.facts``)."""
        return _json(variant_facts)

    # ------------------------------------------------------------------ scoring

    @app.post(
        "/api/score",
        tags=["scoring"],
        responses={**_answer(ShowAnswer), **_SCORING_RESPONSES},
        dependencies=[per_address("score")],
    )
    def score(body: ScoreBody) -> JSONResponse:
        """Count a hand or a crib with its starter, combination by combination."""
        hand = _cards(body.hand, "hand", size=(3, 4, 5))
        if not body.starter.strip():
            raise AppError("starter_missing", "starter: a card is required", field="starter")
        (starter,) = _cards([body.starter], "starter")
        try:
            show = score_show(hand, starter, crib=body.crib)
        except CardError as exc:  # the hand's cards are checked: the starter is one of them
            raise AppError("card_duplicate", f"starter: {exc}", field="starter", card=exc.card) from None
        return _json(show.to_json())

    @app.post(
        "/api/peg",
        tags=["scoring"],
        responses={**_answer(PegAnswer), **_SCORING_RESPONSES},
        dependencies=[per_address("score")],
    )
    def peg(body: PegBody) -> JSONResponse:
        """The points for the last of the cards played since the count was reset."""
        cards = _cards(body.cards, "cards")
        if not cards:
            raise AppError("no_cards", "cards: no card played", field="cards")
        try:
            play = score_play(cards)
        except CountError as exc:
            raise AppError("count_over_31", str(exc), field="cards", count=exc.count) from None
        return _json(play.to_json())

    # ------------------------------------------------------------------ the page

    def page(name: str) -> Response:
        path = static_dir / name
        if not path.is_file():
            raise AppError("not_found", f"{name} is missing from this installation")
        return FileResponse(path, headers={"cache-control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return page("index.html")

    @app.get("/howto", include_in_schema=False)
    def howto() -> Response:
        return page("howto.html")

    @app.get("/review", include_in_schema=False)
    def review_page() -> Response:
        """The review page: a game's review (``POST /api/review``) in the browser."""
        return page("review.html")

    @app.get("/join/{code}", include_in_schema=False)
    def invitation(code: Annotated[str, PathParam(max_length=32)]) -> Response:
        """An invitation's link: the page, which reads the code from its address."""
        return page("index.html")

    add_train(app, static_dir)  # the trainers (issue 15): /api/train/..., /practice

    @app.get("/watch/{code}", include_in_schema=False)
    def watch_page(code: Annotated[str, PathParam(max_length=32)]) -> Response:
        """A watch link: the page, which reads the code from its address and only watches."""
        return page("index.html")

    if static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")

    return app
