"""Live updates: every change of a game reaches every seat's open socket, in any server process.

A :class:`~cribbage.web.broker.Broker` (:mod:`.broker`) carries one fact between processes:
"game G changed" (:class:`MemoryBroker` within one process, :class:`RedisBroker` between
processes and hosts); the state itself is always read from the database.

:class:`Live` holds this process's sockets.  A socket's first message is ``{"token": "..."}``;
the server then sends ``{"type": "state", "state": STATE}`` at once and after every change of the
game, each seat its own state, read from the service (which answers at the stored version).
A socket may also send ``{"type": "action", "action": {...}}``, with an optional ``ref`` of the
client's: the refusal of such an action then carries it, and once the action is stored the socket
is sent ``{"type": "acted", "ref": ..., "version": N}`` before the state.  ``{"type": "seen",
"version": N}`` says the page shows the seat's decision (its turn clock runs from now, see
:meth:`~cribbage.app.GameService.seen`); anything else gets
``{"type": "error", "error": "...", "code": CODE}`` (the code names the problem; nothing the client
sent is repeated) and the socket stays open.  A message is at most :data:`MAX_MESSAGE` bytes (the
server, ``cribbage serve``, refuses longer ones before they are read whole; this module refuses
them too, whatever runs it); a binary message is answered with an error; a database that does not
answer is an error (``database_unavailable``, as HTTP's 503), not the end of the socket.

A change of a game is one call of a worker thread that reads and encodes all of its states here
(the seats', at one stored version).  Spectators (``{"watch": CODE}``) all see the same state: it
is read and encoded once per change of the game and the same text sent to each of them.

The abuse limits (:mod:`.ratelimits`) hold here as over HTTP: a missing or wrong token is a
failure of the client's address, and an address over ``wrong_token`` is refused before its token
is read; the socket and each action on it count against its token's ``token`` limit, each message
of a spectator against its address's ``spectator`` limit; an address may hold ``sockets`` sockets
open at once in a process, a game ``spectators`` spectators' sockets.  A refusal
is ``{"type": "error", "error": "...", "code": "too_many", "limit": NAME, "retry_after": N}``,
then the socket is closed with 1013 (try again later).

Presence: each process reports to the broker which seats of a game have a socket open in it
(when the first socket of a seat opens or its last one closes), and publishes the game, so every
socket of the game is sent its state again with the new ``connected`` seats.  The memory broker
keeps the reports in this process.  Redis keeps them in one hash per game
(``cribbage:presence:GAME``: a field per process, with the seats and the moment the report
expires, two thirds of :data:`PRESENCE_SECONDS` after it was made); each process renews its
reports and reads the others' every third of it, so the seats of a process that died (even by
``kill -9``) stop counting as connected within :data:`PRESENCE_SECONDS` of its last report, and
the processes still there send their sockets the change.

Who publishes: the service, once after every change it stored (it is given the broker's
:meth:`Broker.publish` as its sink, and :class:`Presence` to read, when it is made); this module
publishes only presence changes, which are no stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import AppError, GameService
from .broker import (
    CHANNEL,
    PRESENCE_KEY,
    PRESENCE_SECONDS,
    Broker,
    MemoryBroker,
    Presence,
    RedisBroker,
    make_broker,
)
from .errors import status_of
from .hardening import WS_MAX_SIZE, good_game_id
from .jsontext import dumps
from .ratelimits import LimitError, RateLimits, token_key

__all__ = [
    "CHANNEL",
    "DATABASE_RETRY_SECONDS",
    "MAX_MESSAGE",
    "PRESENCE_KEY",
    "PRESENCE_SECONDS",
    "Broker",
    "Live",
    "MemoryBroker",
    "Presence",
    "RedisBroker",
    "make_broker",
]


FIRST_MESSAGE_SECONDS: Final = 10.0
"""How long a new socket may take to send its token."""

FIRST_MESSAGE: Final = 'the first message must be {"token": "..."} (or {"watch": "CODE"} to watch)'
ACTION_MESSAGE: Final = (
    'a message must be {"type": "action", "action": {...}}, {"type": "seen", "version": N}'
    ' or {"type": "leave"}'
)

TRY_AGAIN_LATER: Final = 1013
"""The close code of a socket refused by a limit (RFC 6455's registry: "Try Again Later")."""


MAX_MESSAGE: Final = WS_MAX_SIZE
"""The longest message a client may send on a live socket (bytes once decompressed; characters
here).  The longest a page sends, an action with a ``ref``, is under 300."""

MESSAGE_TOO_BIG: Final = 1009
"""The close code of a socket that sent a message over :data:`MAX_MESSAGE` (RFC 6455)."""

DATABASE_RETRY_SECONDS: Final = 5
"""What a client is told to wait (``retry_after``) while the database does not answer."""

DATABASE_ERRORS: Final = (OperationalError, InterfaceError)
"""What the database raises when it does not answer (restarting, unreachable)."""

MAX_REF: Final = 64
"""The longest ``ref`` a client may give an action sent over its socket, in characters."""


@dataclass(eq=False)
class _Socket:
    """One open socket: its seat's token, and the last version sent (never send an older one)."""

    websocket: WebSocket
    token: str
    """The seat's token; a spectator's socket has none ("")."""
    watch: str = ""
    """A spectator's watch code ("" for a seat's socket)."""
    seat: int = -1
    """The seat (-1: a spectator, who never counts as connected)."""
    address: str = "unknown"
    """The client's address (a spectator's messages count against it)."""
    sent: int = -1
    read: int = 0
    """The number of the read (:attr:`Live.reads`) of the last state sent: an older read, which
    may have missed a change of presence, is never sent after it."""
    last: str | None = None
    """The last state message sent, encoded: the same state is never sent twice in a row."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _key(sock: _Socket) -> tuple[str, str]:
    """Which state a socket is sent: its seat's token's, or its watch code's."""
    return sock.token, sock.watch


_Message = tuple[int, str] | AppError
"""A state message to send (its version and text), or why the state could not be read."""


CheckAction = Callable[[dict[str, Any]], dict[str, Any]]
"""Checks an action sent on a socket as HTTP checks its body: the action to act on, or an
:class:`AppError` (``bad_request``) naming the problem without repeating the input."""


class Live:
    """This process's live sockets, by game.  ``presence`` is the one the service was given."""

    def __init__(
        self,
        service: GameService,
        broker: Broker,
        limits: RateLimits | None = None,
        check_action: CheckAction | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.service = service
        self.broker = broker
        self.limits = limits
        self.check_action = check_action
        self.presence = presence or Presence(broker)
        self.sockets: dict[str, set[_Socket]] = {}
        self._open: dict[str, int] = {}  # the sockets open here, by client address
        self._seen: dict[str, frozenset[int]] = {}  # the presence last checked by the heartbeat
        self._heartbeat: asyncio.Task[None] | None = None
        self.reads = 0
        """The reads of states begun so far (a later one saw every change an earlier one did)."""

    async def start(self) -> None:
        """Start delivering the broker's changes (and renewing presence reports that expire)."""
        await self.broker.start(self.changed, self.resync)
        if self.broker.expires:
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop; this process's presence reports are withdrawn (they would expire anyway)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        gone = dict.fromkeys(self.presence.here, frozenset[int]())
        if gone:
            with contextlib.suppress(Exception):
                await run_in_threadpool(self.broker.refresh, self.presence.node, gone)
        await self.broker.stop()

    async def _presence_changed(self, game_id: str) -> None:
        """After a socket opened or closed: report the game's seats here if they changed."""
        seats = frozenset(sock.seat for sock in self.sockets.get(game_id, ()) if sock.seat >= 0)
        here = self.presence.here
        if seats == here.get(game_id, frozenset()):
            return
        if seats:
            here[game_id] = seats
        else:
            here.pop(game_id, None)
        await run_in_threadpool(self.presence.report, game_id)
        self.broker.publish(game_id)

    def _presences(self, games: list[str]) -> dict[str, frozenset[int]]:
        return {game_id: frozenset(self.presence.connected(game_id)) for game_id in games}

    async def _renew(self) -> None:
        """Every third of the presence time (at fixed moments, however long a round takes):
        renew this process's reports, and send the sockets of each game whose presence changed
        unannounced (another process died) their states (a socket is never sent the same state
        twice, so the others hear nothing)."""
        loop = asyncio.get_running_loop()
        every = self.broker.presence_seconds / 3
        due = loop.time()
        while True:
            due = max(due + every, loop.time())
            await asyncio.sleep(due - loop.time())
            with contextlib.suppress(Exception):
                await run_in_threadpool(self.broker.refresh, self.presence.node, dict(self.presence.here))
                now = await run_in_threadpool(self._presences, list(self.sockets))
                seen, self._seen = self._seen, now
                for game_id, seats in now.items():
                    if seats != seen.get(game_id):
                        await self.changed(game_id)

    async def changed(self, game_id: str, *, only_newer: bool = False) -> None:
        """A game changed (here or in another process): send each of its sockets its state.
        Every state of the game (one per seat with a socket, one for all the spectators of a
        watch code) is read and encoded in one call of a worker thread."""
        socks = list(self.sockets.get(game_id, ()))
        if not socks:
            return
        try:
            self.reads += 1
            read = self.reads
            messages = await run_in_threadpool(self._messages, game_id, {_key(sock) for sock in socks})
        except DATABASE_ERRORS:
            away = _encode(_database_away())
            for sock in socks:
                await self._send_text(sock.websocket, away)
            return
        for sock in socks:
            message = messages[_key(sock)]
            if isinstance(message, AppError):
                await self._send_refused(sock, message)
                continue
            async with sock.lock:
                await self._deliver(sock, read, *message, only_newer)

    def _messages(self, game_id: str, keys: Collection[tuple[str, str]]) -> dict[tuple[str, str], _Message]:
        """The state message of each (token, watch code), encoded, or why there is none
        (blocking: from a worker thread).  The seats' states are read together, at one version."""
        tokens = [token for token, watch in keys if not watch]
        states: dict[str, dict[str, Any] | AppError]
        try:
            states = self.service.states(game_id, tokens) if tokens else {}
        except AppError as exc:
            states = dict.fromkeys(tokens, exc)
        messages: dict[tuple[str, str], _Message] = {}
        for token, watch in keys:
            try:
                state = self.service.watch(watch) if watch else states[token]
            except AppError as exc:
                state = exc
            if isinstance(state, AppError):
                messages[token, watch] = state
            else:
                messages[token, watch] = (state["version"], _encode({"type": "state", "state": state}))
        return messages

    async def _send_refused(self, sock: _Socket, exc: AppError) -> None:
        """Say why a socket's state was not read; closed if its person left (another tab)."""
        async with sock.lock:
            await self._send(sock.websocket, {"type": "error", "error": exc.message, "code": exc.code})
            if exc.code == "unauthorized" and not sock.watch:
                await self._close(sock.websocket, 1008)

    async def resync(self) -> None:
        """Changes may have been missed (the broker was away): send every socket whose game
        moved on meanwhile its state."""
        for game_id in list(self.sockets):
            await self.changed(game_id, only_newer=True)

    async def _send_state(self, game_id: str, sock: _Socket) -> None:
        """A new socket's first state (or why there is none)."""
        try:
            self.reads += 1
            read = self.reads
            messages = await run_in_threadpool(self._messages, game_id, [_key(sock)])
        except DATABASE_ERRORS:
            await self._send(sock.websocket, _database_away())
            return
        message = messages[_key(sock)]
        if isinstance(message, AppError):
            await self._send_refused(sock, message)
            return
        async with sock.lock:
            await self._deliver(sock, read, *message, False)

    async def _deliver(self, sock: _Socket, read: int, version: int, text: str, only_newer: bool) -> None:
        """Send a state message (``text``, at ``version``) unless the socket had a later one or
        this one already.  Hold ``sock.lock``."""
        if read < sock.read or version < sock.sent or (only_newer and version == sock.sent):
            return  # a later state was sent already
        if text == sock.last:
            return  # nothing new (a change of presence elsewhere, a repeated message)
        sock.read, sock.sent, sock.last = read, version, text
        await self._send_text(sock.websocket, text)

    @staticmethod
    async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
        await Live._send_text(websocket, _encode(message))

    @staticmethod
    async def _send_text(websocket: WebSocket, text: str) -> None:
        with contextlib.suppress(Exception):  # a socket closing meanwhile is dropped by serve()
            await websocket.send_text(text)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """One socket, from its upgrade to its end."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else "unknown"
        if not await self._within(websocket, "check", "wrong_token", address):
            return
        if not await self._under_cap(websocket, "sockets", self._open.get(address, 0)):
            return
        self._open[address] = self._open.get(address, 0) + 1
        try:
            await self._serve(websocket, game_id, address)
        except WebSocketDisconnect:
            pass
        finally:
            left = self._open.pop(address) - 1
            if left:
                self._open[address] = left

    async def _serve(self, websocket: WebSocket, game_id: str, address: str) -> None:
        if not good_game_id(game_id):  # never reaches the database (a NUL byte, say)
            await self._refuse(websocket, _error("not_found", "no such game"))
            return
        try:
            first = await asyncio.wait_for(_receive(websocket), FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            await self._close(websocket, 1008)
            return
        who = None if first is None or len(first) > MAX_MESSAGE else _first(first)
        if who is None:
            await self._failed(address)
            await self._refuse(websocket, _error("bad_first_message", FIRST_MESSAGE))
            return
        token, watch = who
        if token and not await self._within(websocket, "hit", "token", token_key(token)):
            return
        try:
            if watch:
                first_state = await run_in_threadpool(self.service.watch, watch)
                if first_state["id"] != game_id:
                    raise AppError("no_watch_code", "no table has this watch code")
            else:
                first_state = await run_in_threadpool(self.service.state, game_id, token)
        except AppError as exc:
            if exc.code in ("unauthorized", "no_watch_code"):  # a wrong token or watch code
                await self._failed(address)
            await self._refuse(websocket, {"type": "error", "error": exc.message, "code": exc.code})
            return
        except DATABASE_ERRORS:
            await self._send(websocket, _database_away())
            await self._close(websocket, TRY_AGAIN_LATER)
            return
        watching = sum(1 for other in self.sockets.get(game_id, ()) if other.watch)
        if watch and not await self._under_cap(websocket, "spectators", watching):
            return
        seat = first_state["seat"]
        sock = _Socket(websocket, token, watch=watch, seat=-1 if seat is None else seat, address=address)
        self.sockets.setdefault(game_id, set()).add(sock)
        try:
            await self._presence_changed(game_id)
            await self._send_state(game_id, sock)
            while await self._answer(game_id, sock, await _receive(websocket)):
                pass
        finally:
            room = self.sockets.get(game_id)
            if room is not None:
                room.discard(sock)
                if not room:
                    del self.sockets[game_id]
            with contextlib.suppress(Exception):
                await self._presence_changed(game_id)

    async def _answer(self, game_id: str, sock: _Socket, text: str | None) -> bool:
        """A message after the token (``None``: a binary one): an action, leaving, or an error
        naming what is wrong.  False once the socket is closed (its person left, or it went over
        a limit)."""
        if sock.token:
            if not await self._within(sock.websocket, "hit", "token", token_key(sock.token)):
                return False
        elif not await self._within(sock.websocket, "hit", "spectator", sock.address):
            return False
        if text is None:
            await self._send(
                sock.websocket, _error("binary_message", "a message must be text (JSON), not binary")
            )
            return True
        if len(text) > MAX_MESSAGE:
            too_long = f"a message is at most {MAX_MESSAGE} bytes"
            await self._refuse(sock.websocket, _error("too_large", too_long), MESSAGE_TOO_BIG)
            return False
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await self._send(sock.websocket, _error("bad_json", "a message must be JSON"))
            return True
        if isinstance(message, dict) and message.get("type") == "leave" and not sock.watch:
            return await self._leave(game_id, sock)
        if isinstance(message, dict) and message.get("type") == "seen" and not sock.watch:
            await self._shown(game_id, sock, message.get("version"))
            return True
        if not isinstance(message, dict) or message.get("type") != "action":
            await self._send(sock.websocket, _error("bad_message", ACTION_MESSAGE))
            return True
        ref = message.get("ref")
        if ref is not None and not _good_ref(ref):
            bad_ref = f"'ref' must be text of at most {MAX_REF} characters or an integer"
            await self._send(sock.websocket, _error("bad_ref", bad_ref))
            return True
        tag = {} if ref is None else {"ref": ref}
        action = message.get("action")
        if sock.watch:
            await self._send(
                sock.websocket, {**_error("spectator_cannot_act", "a spectator cannot act"), **tag}
            )
            return True
        if not isinstance(action, dict):
            await self._send(sock.websocket, {**_error("bad_action", "'action' must be an object"), **tag})
            return True
        if self.check_action is not None:
            try:
                action = self.check_action(action)
            except AppError as exc:
                refused = _error("bad_action", exc.message, status_of(exc.code))
                await self._send(sock.websocket, {**refused, **tag})
                return True
        await self._act(game_id, sock, action, tag)
        return True

    async def _leave(self, game_id: str, sock: _Socket) -> bool:
        """``{"type": "leave"}``: ``left``, then the socket is closed (False); or an error.
        Under the socket's lock, so that no state the change brings comes before the answer."""
        async with sock.lock:
            try:
                left = await run_in_threadpool(self.service.leave, game_id, sock.token)
            except AppError as exc:
                await self._send(sock.websocket, _refusal(exc))
                return True
            except DATABASE_ERRORS:
                await self._send(sock.websocket, _database_away())
                return True
            await self._send(sock.websocket, {"type": "left", **left})
            await self._close(sock.websocket, 1000)
            return False

    async def _act(self, game_id: str, sock: _Socket, action: dict[str, Any], tag: dict[str, Any]) -> None:
        """An action: stored, then ``acted`` (with a ``ref``) before the state it brings (the
        service publishes the change as it is stored: the socket's lock holds that state back
        until the answer is sent); or an error."""
        async with sock.lock:
            try:
                state = await run_in_threadpool(self.service.act, game_id, sock.token, action)
            except AppError as exc:
                await self._send(sock.websocket, {**_refusal(exc), **tag})
                return
            except DATABASE_ERRORS:
                await self._send(sock.websocket, {**_database_away(), **tag})
                return
            if tag:  # stored: the client knows at once, whenever its state message comes
                await self._send(sock.websocket, {"type": "acted", **tag, "version": state["version"]})

    async def _shown(self, game_id: str, sock: _Socket, version: object) -> None:
        """``{"type": "seen", "version": N}``: the page shows its decision of that version
        (:meth:`GameService.seen`); no answer but an error (every socket gets its new state
        when it started the turn clock: the service publishes it)."""
        try:
            await run_in_threadpool(self.service.seen, game_id, sock.token, version)
        except AppError as exc:
            await self._send(sock.websocket, _refusal(exc))
        except DATABASE_ERRORS:
            await self._send(sock.websocket, _database_away())

    async def _within(self, websocket: WebSocket, how: str, name: str, key: str) -> bool:
        """Count (``hit``) or test (``check``) ``key`` against the limit ``name``; over it, say
        so with the limit's code and values and close the socket (False)."""
        if self.limits is None:
            return True
        count = self.limits.hit if how == "hit" else self.limits.check
        try:
            await run_in_threadpool(count, name, key)
        except LimitError as exc:
            await self._refuse(websocket, {"type": "error", **exc.to_json()}, TRY_AGAIN_LATER)
            return False
        return True

    async def _under_cap(self, websocket: WebSocket, name: str, count: int) -> bool:
        """Whether one more socket is allowed with ``count`` open under the cap ``name``; if not,
        say so as a limit does and close the socket (False)."""
        if self.limits is None:
            return True
        try:
            self.limits.within_cap(name, count)
        except LimitError as exc:
            await self._refuse(websocket, {"type": "error", **exc.to_json()}, TRY_AGAIN_LATER)
            return False
        return True

    async def _refuse(self, websocket: WebSocket, message: dict[str, Any], code: int = 1008) -> None:
        """Send ``message`` and close the socket with ``code``."""
        await self._send(websocket, message)
        await self._close(websocket, code)

    @staticmethod
    async def _close(websocket: WebSocket, code: int) -> None:
        with contextlib.suppress(Exception):  # closed by the client meanwhile
            await websocket.close(code=code)

    async def _failed(self, address: str) -> None:
        """A missing or wrong token from ``address``: one failure against ``wrong_token``."""
        if self.limits is not None:
            await run_in_threadpool(self.limits.failed, "wrong_token", address)


async def _receive(websocket: WebSocket) -> str | None:
    """The next message's text (``None``: a binary message).

    Raises:
        WebSocketDisconnect: the client closed the socket.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _encode(message: dict[str, Any]) -> str:
    """A message as sent (the text Starlette's ``send_json`` writes, by orjson)."""
    return dumps(message)


def _error(code: str, message: str, status: int | None = None) -> dict[str, Any]:
    """An error message: its ``code`` names the problem, ``error`` says it in English, ``status``
    is the HTTP status of the code (:func:`~cribbage.web.errors.status_of`) unless given."""
    return {"type": "error", "error": message, "code": code, "status": status or status_of(code)}


def _refusal(exc: AppError) -> dict[str, Any]:
    """The error message of a refusal of the application: its code, values and status."""
    return {"type": "error", **exc.to_json(), "status": status_of(exc.code)}


def _database_away() -> dict[str, Any]:
    """The database does not answer: as HTTP's 503, try again in a few seconds."""
    message = "the database is not answering: try again in a few seconds"
    return {**_error("database_unavailable", message), "retry_after": DATABASE_RETRY_SECONDS}


def _good_ref(ref: object) -> bool:
    """Whether ``ref`` may tag an action: short text, or an integer (not a boolean)."""
    if isinstance(ref, str):
        return len(ref) <= MAX_REF
    return type(ref) is int


def _first(text: str) -> tuple[str, str] | None:
    """A socket's first message: a seat's ``(token, "")`` or a spectator's ``("", code)``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    token, watch = data.get("token"), data.get("watch")
    if isinstance(token, str) and token:
        return token, ""
    if isinstance(watch, str) and watch:
        return "", watch
    return None
