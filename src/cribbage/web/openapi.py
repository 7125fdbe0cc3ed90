"""The OpenAPI document: the answers and refusals each operation declares, its links, and the
bodies' bounds stated exactly."""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI
from pydantic import BaseModel

from .middleware import MAX_BODY
from .models import BODY_MODELS, ErrorBody


def answer(
    model: type[BaseModel], status: int = 200, links: dict[str, Any] | None = None
) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, **({"links": links} if links else {})}}


def game_links() -> dict[str, Any]:
    """OpenAPI links from an answer holding a game (its ``id``) to what can be asked of the game
    next, with the seat's token: its state, a hint, its record.  None sends an action: an action
    is made from a template of the state's ``actions``, not taken from the answer as it is."""
    game = {"game_id": "$response.body#/id"}
    return {
        "GameState": {"operationRef": "#/paths/~1api~1games~1{game_id}/get", "parameters": game},
        "GameHint": {"operationRef": "#/paths/~1api~1games~1{game_id}~1hint/get", "parameters": game},
        "GameRecord": {"operationRef": "#/paths/~1api~1games~1{game_id}~1record/get", "parameters": game},
    }


OBJECT: Final = {"content": {"application/json": {"schema": {"type": "object"}}}}
VARIANTS_SCHEMA: Final = {
    "content": {
        "application/json": {
            "schema": {"type": "object", "additionalProperties": {"type": "object"}},
        }
    }
}


_RETRY_AFTER: Final = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "required": True,
        "schema": {"type": "integer"},
    }
}


def refusals(statuses: dict[int, str]) -> dict[int | str, dict[str, Any]]:
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
NEW_GAME_RESPONSES: Final = refusals(
    {
        **_BODY,
        429: "too many new games from your address: try again after Retry-After seconds",
        503: "the computer player of this level is not available on this server, or " + _DATABASE_AWAY,
    }
)
UPLOAD_RESPONSES: Final = refusals(
    {
        **_BODY,
        409: "the game is not over (not_over)",
        422: "a malformed body; options of a server's game or not the record's (invalid, field "
        "options); a record the engine refuses (bad_record, with its reason)",
        429: "too many new games from your address: try again after Retry-After seconds",
    }
)
STATE_RESPONSES: Final = refusals(_GAME)
SEEN_RESPONSES: Final = refusals(_GAME_BODY)
PUSH_RESPONSES: Final = refusals(
    {
        **_GAME_BODY,
        409: "the table's clock is shorter than an hour (code push.not_correspondence)",
        422: "a malformed game id or body, an endpoint the server does not send to (push.bad_endpoint), "
        "or keys that are not a browser's (push.bad_subscription)",
    }
)
PUSH_OFF_RESPONSES: Final = refusals(_GAME)
ACTION_RESPONSES: Final = refusals(
    {
        **_GAME_BODY,
        400: "an action the rules do not allow now",
        403: "an action for another seat than the token's",
        409: "a stale version, or the table waits for people to join",
    }
)
HINT_RESPONSES: Final = refusals({**_GAME, 409: "not your turn to discard or play"})
RECORD_RESPONSES: Final = refusals({**_GAME, 409: "the game is not over yet"})
JOIN_RESPONSES: Final = refusals(
    {
        **_BODY,
        404: "no table has this invitation code",
        409: "the seat is taken already",
        429: "too many join attempts: try again after Retry-After seconds",
        503: "joining is briefly unavailable (the shared counters cannot be reached), or " + _DATABASE_AWAY,
    }
)
INVITATION_RESPONSES: Final = refusals(
    {
        404: "no table has this invitation code",
        409: "the seat is taken already",
        429: "too many join attempts: try again after Retry-After seconds",
        503: "joining is briefly unavailable (the shared counters cannot be reached), or " + _DATABASE_AWAY,
    }
)
REVIEW_RESPONSES: Final = refusals(
    {
        **_BODY,
        422: "a malformed body, or not a game record (the message names what is wrong)",
        503: "the server is busy reviewing other games: try again after Retry-After seconds",
    }
)
LEAVE_RESPONSES: Final = refusals(
    {**_GAME, 409: "the game is over, or the table was changed by another request: read it again"}
)
COMPUTER_RESPONSES: Final = refusals(
    {
        **_GAME_BODY,
        403: "only the table's creator (seat 0) may give a seat to a computer",
        409: "the seat is not open, the game is over, or the table changed meanwhile",
        503: "the computer player of this level is not available on this server, or " + _DATABASE_AWAY,
    }
)
REMATCH_RESPONSES: Final = refusals({**_GAME, 409: "play again once the game is over"})
WATCH_LINK_RESPONSES: Final = refusals(
    {**_GAME, 403: "only the table's creator (seat 0) may give a watch link"}
)
WATCH_RESPONSES: Final = refusals(
    {
        404: "no table has this watch code",
        422: "a malformed watch code",
        429: "too many wrong tokens or codes from your address: try again after Retry-After seconds",
    }
)
SCORING_RESPONSES: Final = refusals(
    {**_BODY, 429: "too many requests from your address: try again after Retry-After seconds"}
)


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


def exact_openapi(app: FastAPI) -> None:
    """Make ``app``'s ``/openapi.json`` FastAPI's document, with the bodies' bounds exactly as the
    models have them."""
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = default_openapi()
            schemas = document.get("components", {}).get("schemas", {})
            for model in BODY_MODELS:
                if model.__name__ in schemas:
                    _exact_bounds(schemas[model.__name__], model.model_json_schema())
        return app.openapi_schema or default_openapi()

    app.openapi = openapi  # type: ignore[method-assign]
