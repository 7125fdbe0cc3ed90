"""How the API reads requests: every body whole and bounded (:class:`SafetyMiddleware`), and
as strict JSON (:class:`JsonRoute`), with the protective headers on every answer."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Final

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .jsontext import Json

MAX_BODY: Final = 64 * 1024
"""The largest request body accepted (bytes); every valid request is far smaller."""


def error_response(
    status: int, message: str, values: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Json:
    """A refusal: ``{"error": message, **values}``."""
    return Json({"error": message, **(values or {})}, status_code=status, headers=headers)


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
            bad = error_response(400, "a bad Content-Length header", {"code": "bad_request"})
            await bad(scope, receive, send)
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
            await error_response(413, too_large, {"code": "too_large"})(scope, receive, send)
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
