"""The web server: the page and the JSON API of ``docs/api.md``, as one FastAPI application.

:func:`create_app` builds the application around a :class:`~cribbage.web.service.GameService`;
``cribbage serve`` runs it with uvicorn.  This module only translates HTTP to the service and
back: bodies are checked against the models below (which also make ``/openapi.json``), every
error is answered as ``{"error": "..."}``, and the page is served from the ``static`` folder
beside this file (``/`` is ``index.html``, ``/howto`` is ``howto.html``, the rest is under
``/static/``).

The endpoints are plain functions: FastAPI runs them in its thread pool, so a computer player
thinking in one game does not hold up the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import accumulate
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import Body, Depends, FastAPI, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from limits import parse_many
from limits.errors import StorageError
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..engine.cards import Card
from ..engine.errors import CribbageError
from ..engine.rules import GAME_POINTS, VARIANTS
from ..engine.scoring import score_play, score_show
from .hardening import Hardening, add_health, harden, parse_hosts
from .live import Broker, Live, make_broker
from .service import CLOCKS, DEALERS, LEVELS, SEAT_KINDS, ApiError, GameService, Options
from .storage import Storage

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR: Final = Path(__file__).with_name("static")
"""The page: ``index.html``, ``howto.html`` and what they load."""

MAX_BODY: Final = 64 * 1024
"""The largest request body accepted (bytes); every valid request is far smaller."""

_ACTION_TYPES: Final = ("discard", "play", "count", "muggins", "pass")

CLOCK_TICK: Final = 1.0
"""How often (seconds) each process looks for turn clocks that ran out."""

JOIN_LIMIT: Final = "10/minute;60/hour"
"""How many join attempts one client address may make (``limits`` notation): enough for people,
far too few to guess an open table's code."""

# --------------------------------------------------------------------------- request bodies

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

    model_config = ConfigDict(extra="forbid")

    level: str = _choice("normal", LEVELS, "the computer players' level")
    variant: str = _choice("standard", VARIANTS, "a variant of cribbage.engine.rules.VARIANTS")
    target: StrictInt | None = Field(
        default=None, ge=1, le=1000, description="overrides the variant's target"
    )
    manual: StrictBool = Field(default=False, description="you state your own counts")
    muggins: StrictBool = Field(default=False, description="under-counts can be claimed (needs manual)")
    muggins_play: StrictBool = Field(default=False, description="muggins in the play too (needs manual)")
    dealer: str = _choice("cut", DEALERS, "who deals first")
    skunk: str = _choice("marked", GAME_POINTS, "the game-points scheme")
    seed: StrictInt | None = Field(
        default=None, ge=0, le=2**63 - 1, description="a seeded game deals the same cards"
    )
    names: list[Name] = Field(default_factory=lambda: ["You"], max_length=4, description="seat names")
    seats: list[SeatBody] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="who sits where, from seat 0 (the creator, a person); by default computers",
    )
    public: StrictBool = Field(default=False, description="list the table in the lobby while a seat is open")
    clock: StrictInt | None = Field(
        default=None,
        ge=CLOCKS[0],
        le=CLOCKS[1],
        description="seconds per turn: a computer moves for a person who lets them run out",
    )
    takeover: str | None = Field(
        default=None,
        description="a computer of this level takes the seat of a person who leaves (null: the seat waits)",
        json_schema_extra={"enum": [*LEVELS, None]},
    )


class ComputerBody(BaseModel):
    """An open person's seat, and the level of the computer the creator gives it to."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt = Field(ge=0, le=3, description="the open seat")
    level: str = _choice("normal", LEVELS, "the computer's level")


class ActionBody(BaseModel):
    """One action of the human's seat; ``version``, when given, must be the state's."""

    model_config = ConfigDict(extra="forbid")

    type: str = Field(description="the kind of action", json_schema_extra={"enum": list(_ACTION_TYPES)})
    cards: list[CardText] | None = Field(default=None, max_length=8, description="discard: the cards thrown")
    card: CardText | None = Field(default=None, description="play: the card")
    claim: StrictInt | None = Field(
        default=None, description="play with muggins in the play: the points stated"
    )
    points: StrictInt | None = Field(default=None, description="count or muggins: the points stated")
    seat: StrictInt | None = Field(default=None, description="your seat (0), if given")
    version: StrictInt | None = Field(default=None, description="the state's version this action answers")


AnyCardText = Annotated[str, StringConstraints(max_length=8)]
"""A card as typed on the how-to page: checked by :func:`_cards`, which names what is wrong."""


class JoinBody(BaseModel):
    """An invitation code and the display name of the person taking its seat."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, StringConstraints(min_length=1, max_length=32)] = Field(
        description="the invitation's code, as in K7QX2M"
    )
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="your display name: 1 to 30 characters, no control characters"
    )


class ScoreBody(BaseModel):
    """A hand (3 to 5 cards) or a crib with its starter."""

    model_config = ConfigDict(extra="forbid")

    hand: list[AnyCardText] = Field(max_length=52)
    starter: AnyCardText = ""
    crib: StrictBool = False


class PegBody(BaseModel):
    """The cards played since the count was last reset, in order."""

    model_config = ConfigDict(extra="forbid")

    cards: list[AnyCardText] = Field(max_length=52)


# --------------------------------------------------------------------------- helpers

_bearer = HTTPBearer(auto_error=False, description="the seat's token from POST /api/games")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _error(
    status: int, message: str, values: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": message, **(values or {})}, status_code=status, headers=headers)


class CodedError(ApiError):
    """A refusal of the scoring endpoints with a ``code`` and its values (``docs/api.md``): the
    how-to page words it in its reader's language; ``error`` stays the English line."""

    def __init__(self, status: int, message: str, code: str, **values: Any) -> None:
        super().__init__(status, message)
        self.values: dict[str, Any] = {"code": code, **values}


_CODED_PATHS: Final = ("/api/score", "/api/peg")
"""The endpoints whose errors carry a ``code``: the ones a visitor types into."""


def _cards(tokens: list[str], field: str, size: tuple[int, ...] | None = None) -> tuple[Card, ...]:
    """The cards of ``tokens``, or a :class:`CodedError` naming the first bad or repeated one
    (``card_invalid``, ``card_duplicate``) or the wrong number of them (``card_count``)."""
    cards: list[Card] = []
    for token in tokens:
        try:
            card = Card.parse(token)
        except CribbageError as exc:
            raise CodedError(422, f"{field}: {exc}", "card_invalid", field=field, card=token) from None
        if card in cards:
            raise CodedError(
                422, f"{field}: duplicate card {token!r}", "card_duplicate", field=field, card=token
            )
        cards.append(card)
    if size is not None and len(cards) not in size:
        wanted = " or ".join(str(n) for n in size)
        raise CodedError(
            422,
            f"{field}: expected {wanted} cards, got {len(cards)}",
            "card_count",
            field=field,
            count=len(cards),
            allowed=list(size),
        )
    return tuple(cards)


def _validation_message(exc: RequestValidationError) -> str:
    """One line naming the first problem of a request body: where, and what is wrong."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    loc = [str(part) for part in first.get("loc", ()) if part != "body"]
    if not loc:
        return (
            "a JSON body is required" if first.get("type") == "missing" else "the body must be a JSON object"
        )
    return f"{'.'.join(loc)}: {first.get('msg', 'invalid value')}"


_ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"description": text, "content": {"application/json": {"example": {"error": text}}}}
    for status, text in (
        (400, "an action the rules do not allow now"),
        (401, "missing or wrong token"),
        (404, "no such game"),
        (403, "an action for another seat than the token's"),
        (409, "a stale version, or the game is not in the right state"),
        (422, "a malformed body"),
    )
}
_JOIN_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"description": text, "content": {"application/json": {"example": {"error": text}}}}
    for status, text in (
        (404, "no table has this invitation code"),
        (409, "the seat is taken already"),
        (422, "a malformed body or a bad name"),
        (429, "too many join attempts: try again later"),
    )
}

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
            await _error(413, f"the body is limited to {MAX_BODY} bytes")(scope, receive, send)
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
    "join_limit": "CRIBBAGE_SERVE_JOIN_LIMIT",
    # web hardening (cribbage.web.hardening): comma-separated hosts, and seconds
    "allowed_hosts": "CRIBBAGE_SERVE_ALLOWED_HOSTS",
    "body_timeout": "CRIBBAGE_SERVE_BODY_TIMEOUT",
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
        join_limit=os.environ.get(ENVIRONMENT["join_limit"]) or JOIN_LIMIT,
        hardening=_hardening_from_environment(),
    )
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    return app


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
    cache_size: int = 10_000,
    join_limit: str = JOIN_LIMIT,
    broker: str | Broker = "memory",
    hardening: Hardening | None = None,
    clock_tick: float = CLOCK_TICK,
) -> FastAPI:
    """The web application.

    Args:
        database_url: an SQLAlchemy URL; the default is a private in-memory SQLite database.
        computer: a player name that plays every computer seat, whatever the level (tests
            only); by default each game's level plays.
        static_dir: the folder of the page.
        cache_size: how many games to keep in memory.
        join_limit: how many join attempts one client address may make, in ``limits``
            notation (``"10/minute;60/hour"``).
        broker: what carries live updates between server processes (:mod:`.live`):
            ``"memory"`` (this process only), a ``redis://`` URL, or a broker.
        hardening: allowed hosts and the body deadline (:mod:`.hardening`); by default any
            host is allowed.
        clock_tick: how often (seconds) to look for turn clocks that ran out (in every process:
            whichever notices one first moves, once).

    The service is ``app.state.service``; close it (``app.state.service.close()``) when done.
    """
    service = GameService(Storage(database_url), computer=computer, cache_size=cache_size)
    messages = make_broker(broker) if isinstance(broker, str) else broker
    live = Live(service, messages)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await live.start()
        ticker = asyncio.get_running_loop().create_task(_clocks())
        try:
            yield
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            await live.stop()

    async def _clocks() -> None:
        """Every ``clock_tick``: a computer moves for each person whose turn clock ran out."""
        while True:
            await asyncio.sleep(clock_tick)
            with contextlib.suppress(Exception):  # the database away: the next tick tries again
                for game_id in await run_in_threadpool(service.expire_due):
                    messages.publish(game_id)

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
    app.add_middleware(SafetyMiddleware)
    # ---- web hardening (issue 17): headers, HEAD, gzip, hosts, body deadline, health
    harden(app, hardening or Hardening())
    add_health(app, service.storage)
    # ---- end of web hardening

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.values if isinstance(exc, CodedError) else None)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        values = None
        if request.url.path in _CODED_PATHS:
            errors = exc.errors()
            loc = [str(part) for part in (errors[0].get("loc", ()) if errors else ()) if part != "body"]
            values = {"code": "bad_request", "field": ".".join(loc)}
        return _error(422, _validation_message(exc), values)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "error"
        return JSONResponse({"error": message.lower()}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
        return _error(500, "internal server error")

    # ------------------------------------------------------------------ games

    @app.post("/api/games", status_code=201, tags=["games"], responses=_ERROR_RESPONSES)
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

    # Join attempts are counted per client address (a moving window), where the broker keeps
    # shared counters: in Redis with a redis:// broker, so spreading attempts over the processes
    # gains nothing; in this process with the memory broker (one process).
    join_limits = parse_many(join_limit)
    limiter = MovingWindowRateLimiter(messages.limits_storage())

    def _too_many(request: Request) -> JSONResponse | None:
        client = request.client.host if request.client else "unknown"
        for item in join_limits:
            try:
                allowed = limiter.hit(item, "join", client)
            except StorageError:  # Redis down: refuse rather than let codes be guessed
                return _error(503, "joining is briefly unavailable: try again in a few seconds")
            if not allowed:
                reset = limiter.get_window_stats(item, "join", client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                return _error(
                    429,
                    f"too many join attempts from your address: try again in {wait} seconds",
                    headers={"retry-after": str(wait)},
                )
        return None

    @app.post("/api/join", status_code=201, tags=["tables"], responses=_JOIN_RESPONSES)
    def join(request: Request, body: JoinBody) -> JSONResponse:
        """Take an open seat with its invitation code; answers the game's id, the seat's own
        secret token, its number and its state."""
        refused = _too_many(request)
        if refused is not None:
            return refused
        joined = service.join(body.code, body.name)
        messages.publish(joined["id"])
        return _json(joined, 201)

    @app.get("/api/lobby", tags=["tables"])
    def table_lobby() -> JSONResponse:
        """The public tables with an open seat, newest first."""
        return _json(service.lobby())

    @app.get("/api/games/{game_id}", tags=["games"], responses=_ERROR_RESPONSES)
    def game_state(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The state your seat may see."""
        return _json(service.state(game_id, _token(credentials)))

    @app.post("/api/games/{game_id}/actions", tags=["games"], responses=_ERROR_RESPONSES)
    def game_action(game_id: GameId, action: ActionBody, credentials: Credentials) -> JSONResponse:
        """Take one action; the computers answer; returns the new state."""
        state = service.act(game_id, _token(credentials), action.model_dump(exclude_none=True))
        messages.publish(game_id)
        return _json(state)

    @app.websocket("/api/games/{game_id}/live")
    async def game_live(websocket: WebSocket, game_id: str) -> None:
        """Live states: send ``{"token": "..."}`` first; every change of the game then brings
        ``{"type": "state", "state": STATE}`` (see docs/api.md)."""
        await live.serve(websocket, game_id)

    @app.post("/api/games/{game_id}/leave", tags=["tables"], responses=_ERROR_RESPONSES)
    def leave(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """Leave the table: your token is void; a computer takes the seat, or it waits open."""
        left = service.leave(game_id, _token(credentials))
        messages.publish(game_id)
        return _json(left)

    @app.post("/api/games/{game_id}/computer", tags=["tables"], responses=_ERROR_RESPONSES)
    def seat_computer(game_id: GameId, body: ComputerBody, credentials: Credentials) -> JSONResponse:
        """The creator gives an open seat to a computer; answers the creator's state."""
        state = service.seat_computer(game_id, _token(credentials), body.seat, body.level)
        messages.publish(game_id)
        return _json(state)

    @app.post("/api/games/{game_id}/rematch", tags=["tables"], responses=_ERROR_RESPONSES)
    def rematch(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """Play again once the game is over: the new game (the same for every seat), your seat
        in it (your token acts there too) and its state."""
        again = service.rematch(game_id, _token(credentials))
        messages.publish(game_id)  # every page of the old game hears where to go
        messages.publish(again["id"])
        return _json(again)

    @app.post("/api/games/{game_id}/watch", tags=["tables"], responses=_ERROR_RESPONSES)
    def watch_link(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The table's watch link (for its creator, seat 0): ``{"code", "url"}``."""
        return _json(service.watch_link(game_id, _token(credentials)))

    @app.get("/api/watch/{code}", tags=["tables"], responses=_ERROR_RESPONSES)
    def watched(code: Annotated[str, PathParam(max_length=32)]) -> JSONResponse:
        """A spectator's state of the game of a watch code: only what every seat sees."""
        return _json(service.watch(code))

    @app.get("/api/games/{game_id}/hint", tags=["games"], responses=_ERROR_RESPONSES)
    def game_hint(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The computer's advice for your discard or play, best first."""
        return _json(service.hint(game_id, _token(credentials)))

    @app.get("/api/games/{game_id}/record", tags=["games"], responses=_ERROR_RESPONSES)
    def game_record(game_id: GameId, credentials: Credentials) -> JSONResponse:
        """The JSON record of a finished game (replayable with ``cribbage replay``)."""
        return _json(service.record(game_id, _token(credentials)))

    # ------------------------------------------------------------------ rules

    variant_facts = {name: rules.facts() for name, rules in VARIANTS.items()}

    @app.get("/api/variants", tags=["rules"])
    def variants() -> JSONResponse:
        """Every variant by name with its rules and what follows from them (``Rules.facts``)."""
        return _json(variant_facts)

    # ------------------------------------------------------------------ scoring

    @app.post("/api/score", tags=["scoring"], responses=_ERROR_RESPONSES)
    def score(body: ScoreBody) -> JSONResponse:
        """Count a hand or a crib with its starter, combination by combination."""
        hand = _cards(body.hand, "hand", size=(3, 4, 5))
        if not body.starter.strip():
            raise CodedError(422, "starter: a card is required", "starter_missing", field="starter")
        (starter,) = _cards([body.starter], "starter")
        if starter in hand:
            raise CodedError(
                422,
                f"starter: duplicate card {body.starter!r}",
                "card_duplicate",
                field="starter",
                card=body.starter,
            )
        try:
            show = score_show(hand, starter, crib=body.crib)
        except CribbageError as exc:
            raise ApiError(422, str(exc)) from None
        return _json(show.to_json())

    @app.post("/api/peg", tags=["scoring"], responses=_ERROR_RESPONSES)
    def peg(body: PegBody) -> JSONResponse:
        """The points for the last of the cards played since the count was reset."""
        cards = _cards(body.cards, "cards")
        if not cards:
            raise CodedError(422, "cards: no card played", "no_cards", field="cards")
        try:
            play = score_play(cards)
        except CribbageError as exc:
            count = next(n for n in accumulate(card.value for card in cards) if n > 31)
            raise CodedError(422, str(exc), "count_over_31", field="cards", count=count) from None
        return _json(play.to_json())

    # ------------------------------------------------------------------ the page

    def page(name: str) -> Response:
        path = static_dir / name
        if not path.is_file():
            raise ApiError(404, f"{name} is missing from this installation")
        return FileResponse(path, headers={"cache-control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return page("index.html")

    @app.get("/howto", include_in_schema=False)
    def howto() -> Response:
        return page("howto.html")

    @app.get("/join/{code}", include_in_schema=False)
    def invitation(code: Annotated[str, PathParam(max_length=32)]) -> Response:
        """An invitation's link: the page, which reads the code from its address."""
        return page("index.html")

    @app.get("/watch/{code}", include_in_schema=False)
    def watch_page(code: Annotated[str, PathParam(max_length=32)]) -> Response:
        """A watch link: the page, which reads the code from its address and only watches."""
        return page("index.html")

    if static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")

    return app
