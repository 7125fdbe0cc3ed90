"""How the API reads requests: every body whole, bounded and in time (:class:`EdgeMiddleware`),
and as strict JSON (:class:`JsonRoute`), with the protective headers on every answer."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Final

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .jsontext import Json, storable

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
_NO_CACHE: Final = (b"cache-control", b"no-cache")


BAD_TEXT: Final = "text may not hold a NUL character or a lone surrogate"


def storable_request(scope: Scope, body: bytes) -> bool:
    """Whether every text of a request can reach the database: its path, query, headers and
    JSON body hold no NUL and no lone surrogate (:func:`~.jsontext.storable`).

    In JSON such characters are only written as escapes (``\\u0000``, ``\\ud800``: raw, the
    body is not JSON, or not UTF-8, and is refused as such), so a body without ``\\u`` is
    not parsed here.
    """
    query: bytes = scope.get("query_string", b"")
    if not storable(scope["path"]) or b"\x00" in query or b"%00" in query:
        return False
    if any(b"\x00" in value for _, value in scope["headers"]):
        return False
    if b"\\u" not in body:
        return True
    try:
        return storable(parse_json(body))
    except json.JSONDecodeError:
        return True  # the route refuses it as not JSON


class EdgeMiddleware:
    """What every HTTP request meets first, in one pass: the whole body read before the
    application sees it, within ``body_timeout`` seconds and :data:`MAX_BODY` bytes; ``HEAD``
    answered as ``GET`` without the body; the protective headers on every answer; text that
    no database stores refused before any route reads it.

    * A body over :data:`MAX_BODY` is refused (413), announced or chunked alike; a
      ``Content-Length`` that is not a number is a 400.
    * A body that has not arrived whole ``body_timeout`` seconds after the request's headers is
      a 408, and the connection is closed (slow or half-sent bodies cannot hold a server).
    * A NUL character or a lone surrogate anywhere in the path, the query, a header or the JSON
      body (:func:`storable_request`) is a 422 ``bad_text``: no such text reaches a route, and
      so the database (PostgreSQL stores no NUL, UTF-8 no surrogate).
    * Every answer carries ``extra_headers`` (the Content-Security-Policy and the Permissions
      Policy of :mod:`.hardening`; the paths of ``by_path`` their own) and the ``nosniff``,
      ``DENY`` and ``no-referrer`` headers;
      API answers are never cached (they hold a hand), files under ``/static/`` are
      ``no-cache`` (revalidated with their ``ETag``) unless they say otherwise.

    One layer where there were two (the body's safety and the hardening): each layer of
    middleware costs every request its own wrappers around ``receive`` and ``send``.
    """

    def __init__(
        self,
        app: ASGIApp,
        body_timeout: float,
        extra_headers: list[tuple[bytes, bytes]],
        by_path: dict[str, list[tuple[bytes, bytes]]] | None = None,
    ) -> None:
        self.app = app
        self.body_timeout = body_timeout
        self.headers = [*extra_headers, *_HEADERS]
        self.by_path = {path: [*headers, *_HEADERS] for path, headers in (by_path or {}).items()}
        """The paths whose answers carry other ``extra_headers`` (the engine worker's policy)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        head = scope["method"] == "HEAD"
        api, static = path.startswith("/api/"), path.startswith("/static/")
        headers = self.by_path.get(path, self.headers)
        answer = _with_headers(send, [*headers, _NO_STORE] if api else headers, head, static)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit():
            bad = error_response(400, "a bad Content-Length header", {"code": "bad_request"})
            await bad(scope, receive, answer)
            return
        body: bytes | None = b""
        if int(length) <= MAX_BODY:
            try:
                async with asyncio.timeout(self.body_timeout):
                    body = await _read_body(receive)
            except TimeoutError:
                await _timeout_answer(send, self.headers)
                return
        if body is None:  # the client went away
            return
        if len(body) > MAX_BODY or int(length) > MAX_BODY:
            too_large = f"the body is limited to {MAX_BODY} bytes"
            await error_response(413, too_large, {"code": "too_large"})(scope, receive, answer)
            return
        if not storable_request(scope, body):
            await error_response(422, BAD_TEXT, {"code": "bad_text"})(scope, receive, answer)
            return
        if head:
            scope = {**scope, "method": "GET"}
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, answer)


async def _read_body(receive: Receive) -> bytes | None:
    """The request's body, whole, or its first bytes past :data:`MAX_BODY` (None if the client
    went away)."""
    body = b""
    more = True
    while more and len(body) <= MAX_BODY:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        more = message.get("more_body", False)
    return body


def _with_headers(send: Send, headers: list[tuple[bytes, bytes]], head: bool, static: bool) -> Send:
    """``send`` adding ``headers`` to the answer's (and, under ``/static/``, ``no-cache`` unless
    the answer says how to cache it), without the body for a ``HEAD``."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            own = message.get("headers", [])
            extra = headers
            if static and not any(name.lower() == b"cache-control" for name, _ in own):
                extra = [*headers, _NO_CACHE]
            message = {**message, "headers": [*own, *extra]}
        elif head and message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return sending


async def _timeout_answer(send: Send, headers: list[tuple[bytes, bytes]]) -> None:
    body = b'{"error":"the request body took too long to arrive","code":"too_slow"}'
    await send(
        {
            "type": "http.response.start",
            "status": 408,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})
