"""The messages of the live sockets (:mod:`.live`, ``docs/api.md``, "Live"): reading what a client
sends, and the errors the server answers with."""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import AppError
from .errors import status_of
from .jsontext import dumps, storable

__all__ = [
    "ACTION_MESSAGE",
    "DATABASE_RETRY_SECONDS",
    "FIRST_MESSAGE",
    "MAX_REF",
    "MAX_REF_NUMBER",
    "database_unavailable",
    "encode",
    "error",
    "first_message",
    "good_ref",
    "receive",
    "refusal",
]

FIRST_MESSAGE: Final = 'the first message must be {"token": "..."} (or {"watch": "CODE"} to watch)'
ACTION_MESSAGE: Final = (
    'a message must be {"type": "action", "action": {...}}, {"type": "seen", "version": N},'
    ' {"type": "leave"}, {"type": "chat", "text": "..."} or {"type": "report", "message": ID}'
)

DATABASE_RETRY_SECONDS: Final = 5
"""What a client is told to wait (``retry_after``) while the database does not answer."""

MAX_REF: Final = 64
"""The longest ``ref`` a client may give an action sent over its socket, in characters."""

MAX_REF_NUMBER: Final = 2**53 - 1
"""The largest integer ``ref`` (in magnitude): JavaScript's largest safe integer, which every
JSON reader keeps exactly (the server's encoder refuses integers of 64 bits or more)."""


async def receive(websocket: WebSocket) -> str | None:
    """The next message's text (``None``: a binary message).

    Raises:
        WebSocketDisconnect: the client closed the socket.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def encode(message: dict[str, Any]) -> str:
    """A message as sent (the text Starlette's ``send_json`` writes, by orjson)."""
    return dumps(message)


def error(code: str, message: str, status: int | None = None) -> dict[str, Any]:
    """An error message: its ``code`` names the problem, ``error`` says it in English, ``status``
    is the HTTP status of the code (:func:`~cribbage.web.errors.status_of`) unless given."""
    return {"type": "error", "error": message, "code": code, "status": status or status_of(code)}


def refusal(exc: AppError) -> dict[str, Any]:
    """The error message of a refusal of the application: its code, values and status."""
    return {"type": "error", **exc.to_json(), "status": status_of(exc.code)}


def database_unavailable() -> dict[str, Any]:
    """The database does not answer: as HTTP's 503, try again in a few seconds."""
    message = "the database is not answering: try again in a few seconds"
    return {**error("database_unavailable", message), "retry_after": DATABASE_RETRY_SECONDS}


def good_ref(ref: object) -> bool:
    """Whether ``ref`` may tag an action: short text, or an integer (not a boolean) of at most
    :data:`MAX_REF_NUMBER` in magnitude.

    >>> good_ref("a1"), good_ref(7), good_ref(2**53), good_ref(True), good_ref("x" * 65)
    (True, True, False, False, False)
    """
    if isinstance(ref, str):
        return len(ref) <= MAX_REF
    return type(ref) is int and -MAX_REF_NUMBER <= ref <= MAX_REF_NUMBER


def first_message(text: str) -> tuple[str, str] | None:
    """A socket's first message: a seat's ``(token, "")`` or a spectator's ``("", code)``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not storable(data):
        return None
    token, watch = data.get("token"), data.get("watch")
    if isinstance(token, str) and token:
        return token, ""
    if isinstance(watch, str) and watch:
        return "", watch
    return None
