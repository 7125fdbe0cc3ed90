"""Live updates: every change of a game reaches every seat's open socket, in any server process.

A :class:`~cribbage.web.broker.Broker` (:mod:`.broker`) carries one fact between processes:
"game G changed" (:class:`MemoryBroker` within one process, :class:`RedisBroker` between
processes and hosts); the state itself is read from the database (by the process that stored
the change, from the copy it stored).

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
A message holding a NUL character or a lone surrogate in any text is answered ``bad_text`` and
nothing of it is acted on; an integer ``ref`` beyond :data:`~.socket_messages.MAX_REF_NUMBER` in
magnitude is ``bad_ref`` (checked before the action is, so nothing is stored).

A change of a game is read once for all of its sockets here, at one stored version
(:meth:`~cribbage.app.GameService.state_parts`): the public part of its ``STATE``, the same for every
seat and spectator, is encoded once and each socket's message is that text with its seat's own
part spliced in (:mod:`.fanout`).  Spectators (``{"watch": CODE}``) all get the same message.  A
change stored by this process is read and encoded in the thread that stored it, right after the
save (the service's sink, :meth:`Live.stored`), from the copy it stored, without reading the game
again; the other processes with sockets of the game hear of it through the broker and read it
from the database.

The abuse limits (:mod:`.ratelimits`) hold here as over HTTP: a missing or wrong token is a
failure of the client's address, and an address over ``wrong_token`` is refused before its token
is read; the socket and each action on it count against its token's ``token`` limit, each message
of a spectator against its address's ``spectator`` limit; an address may hold ``sockets`` sockets
open at once in a process, a game ``spectators`` spectators' sockets.  A refusal
is ``{"type": "error", "error": "...", "code": "too_many", "limit": NAME, "retry_after": N}``,
then the socket is closed with 1013 (try again later).

Presence (which seats have a socket open, in any process) is described in :mod:`.broker`; chat at
the table (``chat`` and ``report`` messages) in :mod:`.chat`.

Who publishes: the service, once after every change it stored (it is given :meth:`Live.stored`
as its sink, which sends the change to this process's sockets and publishes it for the others,
and :class:`Presence` to read, when it is made); this module publishes presence changes too,
which are no stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import AppError, GameService
from .broker import Broker, Presence
from .chat import CHAT_TYPES, LiveChat
from .errors import status_of
from .fanout import Key, Message, messages
from .hardening import WS_MAX_SIZE, good_game_id
from .jsontext import storable
from .middleware import BAD_TEXT
from .ratelimits import LimitError, RateLimits, token_key
from .socket_messages import (
    ACTION_MESSAGE,
    DATABASE_RETRY_SECONDS,
    FIRST_MESSAGE,
    MAX_REF,
    MAX_REF_NUMBER,
    database_unavailable,
    encode,
    error,
    first_message,
    good_ref,
    receive,
    refusal,
)
from .threads import Threads

__all__ = ["DATABASE_RETRY_SECONDS", "MAX_MESSAGE", "Live"]


FIRST_MESSAGE_SECONDS: Final = 10.0
"""How long a new socket may take to send its token."""

TRY_AGAIN_LATER: Final = 1013
"""The close code of a socket refused by a limit (RFC 6455's registry: "Try Again Later")."""

MAX_MESSAGE: Final = WS_MAX_SIZE
"""The longest message a client may send on a live socket (bytes once decompressed; characters
here).  The longest a page sends, an action with a ``ref``, is under 300."""

MESSAGE_TOO_BIG: Final = 1009
"""The close code of a socket that sent a message over :data:`MAX_MESSAGE` (RFC 6455)."""

DATABASE_ERRORS: Final = (OperationalError, InterfaceError)
"""What the database raises when it does not answer (restarting, unreachable)."""


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
    """The number of the read of the last state sent (reads are numbered as they begin, in any
    thread): an older read, which may have missed a change of presence, is never sent after it."""
    last: str | None = None
    """The last state message sent, encoded: the same state is never sent twice in a row."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _key(sock: _Socket) -> Key:
    """Which state a socket is sent: its seat's token's, or its watch code's."""
    return sock.token, sock.watch


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
        local: bool = False,
    ) -> None:
        self.service = service
        self.local = local
        """The service reads and stores all in this process (SQLite, the memory broker): an
        action its computers answer at once is taken on the event loop, not in a thread."""
        self.broker = broker
        self.limits = limits
        self.check_action = check_action
        self.presence = presence or Presence(broker)
        self.sockets: dict[str, set[_Socket]] = {}
        self._open: dict[str, int] = {}  # the sockets open here, by client address
        self._seen: dict[str, frozenset[int]] = {}  # the presence last checked by the heartbeat
        self._heartbeat: asyncio.Task[None] | None = None
        self._reads = itertools.count(1)
        """Numbers the reads of states as they begin (a later one saw every change an earlier
        one did); from any thread."""
        self._wanted: dict[str, frozenset[Key]] = {}
        """The keys of each game's sockets here (replaced whole, never changed: read by
        :meth:`stored` in the service's threads)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pushes: set[asyncio.Task[None]] = set()
        self._threads = Threads()  # the hot paths' (an action, a read); else run_in_threadpool
        self.chat = LiveChat(service, broker, limits, self.presence.node, self.sockets)

    async def start(self) -> None:
        """Start delivering the broker's changes (and renewing presence reports that expire)."""
        self._loop = asyncio.get_running_loop()
        self.broker.wanted = self.sockets.__contains__
        await self.broker.start(self.changed, self.resync, origin=self.presence.node)
        if self.broker.expires:
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop; this process's presence reports are withdrawn (they would expire anyway)."""
        self._loop = None
        for task in list(self._pushes):
            task.cancel()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        gone = dict.fromkeys(self.presence.here)  # every report withdrawn
        with contextlib.suppress(Exception):
            await run_in_threadpool(self.broker.refresh, self.presence.node, gone)
        await self.broker.stop()

    async def _presence_changed(self, game_id: str) -> None:
        """After a socket opened or closed: report the game's sockets and seats here if they
        changed (before a new socket's first state is read), and publish a change of seats.
        The first socket of a game here reads it again once the others know of it (a change
        stored meanwhile may not have been told here: :attr:`Broker.settle_seconds`)."""
        room = self.sockets.get(game_id)
        seats = frozenset(sock.seat for sock in room if sock.seat >= 0) if room else None
        here = self.presence.here
        before = here.get(game_id)
        if seats == before:
            return
        if seats is None:
            here.pop(game_id, None)
        else:
            here[game_id] = seats
        await run_in_threadpool(self.presence.report, game_id)
        if before is None and self.broker.settle_seconds:
            asyncio.get_running_loop().call_later(self.broker.settle_seconds, self._spawn, game_id, 0, None)
        if (seats or frozenset()) != (before or frozenset()):
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

    def stored(self, game_id: str) -> None:
        """The service's sink: a change of the game was stored (in the calling thread, which
        stored it).  This process's sockets of the game are sent it: their states are read from
        the copy just stored and encoded here, then sent from the event loop; the other
        processes are told through the broker.  Never raises (the change is stored already)."""
        loop, keys = self._loop, self._wanted.get(game_id)
        if loop is None:  # not started: nothing here listens
            self.broker.publish(game_id)
            return
        if keys:  # else a socket opened later reads its first state after this change
            read, made = next(self._reads), None
            with contextlib.suppress(Exception):  # the database away: a read from the loop says so
                made = self._read(game_id, keys, saved=True)
            with contextlib.suppress(RuntimeError):  # the loop closed (stopping): no socket here
                loop.call_soon_threadsafe(self._spawn, game_id, read, made)
        self.broker.publish(game_id, origin=self.presence.node)

    def _spawn(self, game_id: str, read: int, made: dict[Key, Message] | None) -> None:
        """On the loop: send the sockets of a game a change stored here (or, if it could not be
        read, read it again)."""
        if made is None:
            push = self.changed(game_id)
        else:
            push = self._send_all(list(self.sockets.get(game_id, ())), read, made)
        task = asyncio.get_running_loop().create_task(push)
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    async def changed(self, game_id: str, *, only_newer: bool = False) -> None:
        """A game changed (another process said so, or a socket opened or closed): send each of
        its sockets its state.  Every state of the game is read, at one stored version, and
        encoded in one call of a worker thread."""
        socks = list(self.sockets.get(game_id, ()))
        if not socks:
            return
        try:
            read = next(self._reads)
            made = await self._threads.run(self._read, game_id, {_key(sock) for sock in socks})
        except DATABASE_ERRORS:
            for sock in socks:
                await self._send(sock.websocket, database_unavailable())
            return
        await self._send_all(socks, read, made, only_newer)

    async def _send_all(
        self, socks: list[_Socket], read: int, made: Mapping[Key, Message], only_newer: bool = False
    ) -> None:
        """Send each socket its message (or why it has none); a socket opened since the read
        (none for it) is sent its own first state anyway."""
        for sock in socks:
            message = made.get(_key(sock))
            if message is None:
                continue
            if isinstance(message, AppError):
                await self._send_refused(sock, message)
                continue
            async with sock.lock:
                await self._deliver(sock, read, *message, only_newer)

    def _read(self, game_id: str, keys: Collection[Key], *, saved: bool = False) -> dict[Key, Message]:
        """The state message of each (token, watch code), encoded, or why there is none
        (blocking: from a worker thread): read at one version (``saved``: as this process just
        stored it, :meth:`GameService.state_parts`)."""
        tokens = {token for token, watch in keys if not watch}
        spectators = any(watch for _token, watch in keys)
        try:
            parts = self.service.state_parts(game_id, tokens, spectators, saved=saved)
        except AppError as exc:
            return dict.fromkeys(keys, exc)
        return messages(parts, keys)

    async def _send_refused(self, sock: _Socket, exc: AppError) -> None:
        """Say why a socket's state was not read; closed if its person left (another tab)."""
        async with sock.lock:
            await self._send(sock.websocket, {"type": "error", "error": exc.message, "code": exc.code})
            if exc.code == "unauthorized" and not sock.watch:
                await self._close(sock.websocket, 1008)

    async def resync(self) -> None:
        """Changes may have been missed (the broker was away): report the sockets here again
        (Redis may have lost them), then send each socket whose game moved on its state."""
        with contextlib.suppress(Exception):
            await run_in_threadpool(self.broker.refresh, self.presence.node, dict(self.presence.here))
        for game_id in list(self.sockets):
            await self.changed(game_id, only_newer=True)

    async def _send_state(self, game_id: str, sock: _Socket) -> None:
        """A new socket's first state (or why there is none)."""
        try:
            read = next(self._reads)
            made = await self._threads.run(self._read, game_id, [_key(sock)])
        except DATABASE_ERRORS:
            await self._send(sock.websocket, database_unavailable())
            return
        message = made.get(_key(sock))
        if message is None:  # a spectator of a game that is gone: the next read says so
            return
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
        await Live._send_text(websocket, encode(message))

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
            await self._refuse(websocket, error("not_found", "no such game"))
            return
        try:
            first = await asyncio.wait_for(receive(websocket), FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            await self._close(websocket, 1008)
            return
        who = None if first is None or len(first) > MAX_MESSAGE else first_message(first)
        if who is None:
            await self._failed(address)
            await self._refuse(websocket, error("bad_first_message", FIRST_MESSAGE))
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
            await self._send(websocket, database_unavailable())
            await self._close(websocket, TRY_AGAIN_LATER)
            return
        watching = sum(1 for other in self.sockets.get(game_id, ()) if other.watch)
        if watch and not await self._under_cap(websocket, "spectators", watching):
            return
        seat = first_state["seat"]
        sock = _Socket(websocket, token, watch=watch, seat=-1 if seat is None else seat, address=address)
        self.sockets.setdefault(game_id, set()).add(sock)
        self._note(game_id)
        try:
            await self._presence_changed(game_id)
            await self._send_state(game_id, sock)
            await self.chat.opened(game_id, websocket, first_state)
            while await self._answer(game_id, sock, await receive(websocket)):
                pass
        finally:
            room = self.sockets.get(game_id)
            if room is not None:
                room.discard(sock)
                if not room:
                    del self.sockets[game_id]
            self._note(game_id)
            with contextlib.suppress(Exception):
                await self._presence_changed(game_id)

    def _note(self, game_id: str) -> None:
        """Note the keys of a game's sockets here after one opened or closed (for :meth:`stored`)."""
        room = self.sockets.get(game_id)
        if room:
            self._wanted[game_id] = frozenset(_key(sock) for sock in room)
        else:
            self._wanted.pop(game_id, None)

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
                sock.websocket, error("binary_message", "a message must be text (JSON), not binary")
            )
            return True
        if len(text) > MAX_MESSAGE:
            too_long = f"a message is at most {MAX_MESSAGE} bytes"
            await self._refuse(sock.websocket, error("too_large", too_long), MESSAGE_TOO_BIG)
            return False
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await self._send(sock.websocket, error("bad_json", "a message must be JSON"))
            return True
        if not storable(message):  # nothing of it may reach the database, nor be echoed
            await self._send(sock.websocket, error("bad_text", BAD_TEXT))
            return True
        if isinstance(message, dict) and message.get("type") == "leave" and not sock.watch:
            return await self._leave(game_id, sock)
        if isinstance(message, dict) and message.get("type") == "seen" and not sock.watch:
            await self._shown(game_id, sock, message.get("version"))
            return True
        if isinstance(message, dict) and message.get("type") in CHAT_TYPES:
            await self.chat.answer(game_id, sock.websocket, sock.token, message)
            return True
        if not isinstance(message, dict) or message.get("type") != "action":
            await self._send(sock.websocket, error("bad_message", ACTION_MESSAGE))
            return True
        ref = message.get("ref")
        if ref is not None and not good_ref(ref):
            bad_ref = (
                f"'ref' must be text of at most {MAX_REF} characters"
                f" or an integer of at most {MAX_REF_NUMBER} in magnitude"
            )
            await self._send(sock.websocket, error("bad_ref", bad_ref))
            return True
        tag = {} if ref is None else {"ref": ref}
        action = message.get("action")
        if sock.watch:
            await self._send(
                sock.websocket, {**error("spectator_cannot_act", "a spectator cannot act"), **tag}
            )
            return True
        if not isinstance(action, dict):
            await self._send(sock.websocket, {**error("bad_action", "'action' must be an object"), **tag})
            return True
        if self.check_action is not None:
            try:
                action = self.check_action(action)
            except AppError as exc:
                refused = error("bad_action", exc.message, status_of(exc.code))
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
                await self._send(sock.websocket, refusal(exc))
                return True
            except DATABASE_ERRORS:
                await self._send(sock.websocket, database_unavailable())
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
                act = partial(self.service.act, answer=False)  # the socket's STATE comes with the others'
                if self.local and self.service.quick_to_act(game_id):
                    state = act(game_id, sock.token, action)
                else:
                    state = await self._threads.run(act, game_id, sock.token, action)
            except AppError as exc:
                await self._send(sock.websocket, {**refusal(exc), **tag})
                return
            except DATABASE_ERRORS:
                await self._send(sock.websocket, {**database_unavailable(), **tag})
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
            await self._send(sock.websocket, refusal(exc))
        except DATABASE_ERRORS:
            await self._send(sock.websocket, database_unavailable())

    async def _within(self, websocket: WebSocket, how: str, name: str, key: str) -> bool:
        """Count (``hit``) or test (``check``) ``key`` against the limit ``name``; over it, say
        so with the limit's code and values and close the socket (False)."""
        if self.limits is None:
            return True
        count = self.limits.hit if how == "hit" else self.limits.check
        try:
            if self.limits.waits(name):
                await run_in_threadpool(count, name, key)
            else:  # counted in this process's memory (or not at all): no thread needed
                count(name, key)
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
