"""The messages of the live sockets (:mod:`.live`, ``docs/api.md``, "Live"): reading what a client
sends, and the errors the server answers with."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import AppError
from .errors import status_of
from .hardening import WS_MAX_SIZE
from .jsontext import dumps, storable
from .middleware import BAD_TEXT

__all__ = [
    "ACTION_MESSAGE",
    "DATABASE_RETRY_SECONDS",
    "FIRST_MESSAGE",
    "MAX_MESSAGE",
    "MAX_REF",
    "MAX_REF_NUMBER",
    "MESSAGE_TOO_BIG",
    "PROTOCOL",
    "ActionMessage",
    "ClientMessage",
    "First",
    "LeaveMessage",
    "MessageError",
    "ReportMessage",
    "SayMessage",
    "SeenMessage",
    "close",
    "database_unavailable",
    "encode",
    "error",
    "first_message",
    "good_ref",
    "read_message",
    "receive",
    "refusal",
    "send",
    "send_text",
]

PROTOCOL: Final = 1
"""The version of the live socket's messages this server speaks: a client may name the one it
speaks in its first message (``"protocol": 1``); another is refused (``bad_protocol``)."""

MAX_MESSAGE: Final = WS_MAX_SIZE
"""The longest message a client may send on a live socket (bytes once decompressed; characters
here).  The longest a page sends, an action with a ``ref``, is under 300."""

MESSAGE_TOO_BIG: Final = 1009
"""The close code of a socket that sent a message over :data:`MAX_MESSAGE` (RFC 6455)."""

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


async def send(websocket: WebSocket, message: dict[str, Any]) -> None:
    """Send a message; a socket closing meanwhile is dropped by the one serving it."""
    await send_text(websocket, encode(message))


async def send_text(websocket: WebSocket, text: str) -> None:
    """Send an encoded message; a socket closing meanwhile is dropped by the one serving it."""
    with contextlib.suppress(Exception):
        await websocket.send_text(text)


async def close(websocket: WebSocket, code: int) -> None:
    """Close a socket with ``code`` (nothing if the client closed it meanwhile)."""
    with contextlib.suppress(Exception):
        await websocket.close(code=code)


# ------------------------------------------------------------------ what a client sends


@dataclass(frozen=True, slots=True)
class First:
    """A socket's first message: a seat's token, or a spectator's watch code (the other "")."""

    token: str
    watch: str


@dataclass(frozen=True, slots=True)
class ActionMessage:
    """``{"type": "action", "action": {...}, "ref": REF}``: the action is checked by the command
    (:func:`~.commands.check_action`), as HTTP's body is."""

    action: object
    ref: str | int | None

    @property
    def tag(self) -> dict[str, Any]:
        """What the answers to the action carry of it: its ``ref``, if it has one."""
        return {} if self.ref is None else {"ref": self.ref}


@dataclass(frozen=True, slots=True)
class SeenMessage:
    """``{"type": "seen", "version": N}``: the page shows the seat's decision of that version."""

    version: object


@dataclass(frozen=True, slots=True)
class LeaveMessage:
    """``{"type": "leave"}``: the seat leaves the table."""


@dataclass(frozen=True, slots=True)
class SayMessage:
    """``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "phrase": CODE}``."""

    text: object
    phrase: object


@dataclass(frozen=True, slots=True)
class ReportMessage:
    """``{"type": "report", "message": ID}``: a message of the chat reported to an operator."""

    message: object


ClientMessage = ActionMessage | SeenMessage | LeaveMessage | SayMessage | ReportMessage
"""A message a socket may send after its first one."""


class MessageError(Exception):
    """A message that is no :data:`ClientMessage`: the error ``message`` to answer, and the close
    code of the socket if it is closed for it (else it stays open)."""

    def __init__(self, message: dict[str, Any], close: int | None = None) -> None:
        super().__init__(message["error"])
        self.message = message
        self.close = close


def first_message(text: str | None) -> First:
    """A socket's first message.

    Raises:
        MessageError: ``bad_first_message``, or ``bad_protocol`` naming the one spoken here.
    """
    data = _json(text, MessageError(error("bad_first_message", FIRST_MESSAGE)))
    protocol = data.get("protocol", PROTOCOL)
    if protocol != PROTOCOL or type(protocol) is not int:
        spoken = f"this server speaks version {PROTOCOL} of the live messages"
        raise MessageError({**error("bad_protocol", spoken), "protocol": PROTOCOL})
    token, watch = data.get("token"), data.get("watch")
    if isinstance(token, str) and token:
        return First(token, "")
    if isinstance(watch, str) and watch:
        return First("", watch)
    raise MessageError(error("bad_first_message", FIRST_MESSAGE))


def _json(text: str | None, malformed: MessageError) -> dict[str, Any]:
    """A message's object, or ``malformed``; the errors of every message before (a binary one,
    one too long, NUL characters or lone surrogates in its text)."""
    if text is None or len(text) > MAX_MESSAGE:
        raise malformed
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise malformed from None
    if not isinstance(data, dict) or not storable(data):
        raise malformed
    return data


def read_message(text: str | None) -> ClientMessage:
    """A message after the first one (``None``: a binary one).

    Raises:
        MessageError: naming what is wrong by its code (never repeating the input):
            ``binary_message``, ``too_large`` (the socket closed with 1009), ``bad_json``,
            ``bad_text``, ``bad_message``, ``bad_ref``.
    """
    if text is None:
        raise MessageError(error("binary_message", "a message must be text (JSON), not binary"))
    if len(text) > MAX_MESSAGE:
        too_long = f"a message is at most {MAX_MESSAGE} bytes"
        raise MessageError(error("too_large", too_long), MESSAGE_TOO_BIG)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError(error("bad_json", "a message must be JSON")) from None
    if not storable(data):  # nothing of it may reach the database, nor be echoed
        raise MessageError(error("bad_text", BAD_TEXT))
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "action":
        return ActionMessage(data.get("action"), _ref(data.get("ref")))
    if kind == "seen":
        return SeenMessage(data.get("version"))
    if kind == "leave":
        return LeaveMessage()
    if kind == "chat":
        return SayMessage(data.get("text"), data.get("phrase"))
    if kind == "report":
        return ReportMessage(data.get("message"))
    raise MessageError(error("bad_message", ACTION_MESSAGE))


def _ref(ref: object) -> str | int | None:
    if ref is None:
        return None
    if isinstance(ref, str | int) and good_ref(ref):
        return ref
    bad_ref = (
        f"'ref' must be text of at most {MAX_REF} characters"
        f" or an integer of at most {MAX_REF_NUMBER} in magnitude"
    )
    raise MessageError(error("bad_ref", bad_ref))
