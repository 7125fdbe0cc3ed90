"""A TCP proxy on 127.0.0.1 in front of a server (the tests' Redis), for tests of faults: the
bytes of either direction can be held, as a stalled server or a cut network holds them, and let
go later, in order.  It runs its own event loop in a thread of its own, so that a test drives
it while the application under test waits on it.

>>> import socket
>>> server = socket.create_server(("127.0.0.1", 0))
>>> with server, Proxy("127.0.0.1", server.getsockname()[1]) as proxy:
...     with socket.create_connection(("127.0.0.1", proxy.port)) as client:
...         accepted, _ = server.accept()
...         client.sendall(b"ping")
...         accepted.recv(4)
...         proxy.hold(requests=False, replies=True)
...         accepted.sendall(b"pong")
...         client.settimeout(0.2)
...         try:
...             client.recv(4)
...         except TimeoutError:
...             print("held")
...         proxy.release()
...         client.settimeout(5)
...         client.recv(4)
...         accepted.close()
b'ping'
held
b'pong'
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from types import TracebackType

__all__ = ["Proxy"]


class Proxy:
    """Forwards each connection to ``127.0.0.1:port`` to the server at ``host:port``;
    :meth:`hold` keeps the bytes of the requests (client to server), of the replies, or both,
    until :meth:`release`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.open = 0
        """How many connections are open (until both of their directions are closed)."""
        self.accepted = 0
        """How many connections were made through the proxy."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tcp-proxy", daemon=True)
        self._gates: dict[str, asyncio.Event] = {}
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._triggers: list[tuple[bytes, list[str]]] = []
        self._requests: list[bytes] = []

    def __enter__(self) -> Proxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    @property
    def url(self) -> str:
        """The Redis URL of the proxy (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def hold(self, *, requests: bool = True, replies: bool = True, at: bytes = b"") -> None:
        """Hold the bytes going to the server (``requests``), those coming back (``replies``):
        from now on, or (``at``) from the first request that holds those bytes on (that request
        held too, when requests are; its reply, when replies are)."""
        held = [name for name, hold in (("requests", requests), ("replies", replies)) if hold]
        if at:
            self._triggers.append((at, held))
        else:
            for name in held:
                self._loop.call_soon_threadsafe(self._gates[name].clear)

    def seen(self, data: bytes) -> bool:
        """Whether a request carried ``data`` to the proxy (within one read)."""
        return any(data in request for request in self._requests)

    def release(self) -> None:
        """Let every held byte go on, in order, and no more be held."""
        for gate in self._gates.values():
            self._loop.call_soon_threadsafe(gate.set)

    def wait_closed(self, timeout: float = 10.0) -> None:
        """Wait until every connection through the proxy has ended (both ways)."""
        deadline = time.monotonic() + timeout
        while self.open:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.open} connection(s) through the proxy still open")
            time.sleep(0.01)

    async def _start(self) -> None:
        self._gates = {"requests": asyncio.Event(), "replies": asyncio.Event()}
        for gate in self._gates.values():
            gate.set()
        self._server = await asyncio.start_server(self._connect, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        for gate in self._gates.values():
            gate.set()
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _connect(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        self.open += 1
        self.accepted += 1
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            server_in, server_out = await asyncio.open_connection(*self.target)
            try:
                await asyncio.gather(
                    self._pump(client_in, server_out, self._gates["requests"], self._requested),
                    self._pump(server_in, client_out, self._gates["replies"]),
                )
            finally:
                server_out.close()
        finally:
            client_out.close()
            self._tasks.discard(task)
            self.open -= 1

    def _requested(self, data: bytes) -> None:
        """A request came: kept (:meth:`seen`), and the holds it triggers begin."""
        self._requests.append(data)
        for trigger in [t for t in self._triggers if t[0] in data]:
            self._triggers.remove(trigger)
            for name in trigger[1]:
                self._gates[name].clear()

    @staticmethod
    async def _pump(
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        gate: asyncio.Event,
        read: Callable[[bytes], None] | None = None,
    ) -> None:
        """Carry bytes from ``source`` to ``sink``, each chunk once ``gate`` is open (``read``
        is told each chunk first); the end of ``source`` is carried too (a half close), after
        the bytes before it."""
        try:
            while True:
                data = await source.read(65536)
                if read is not None and data:
                    read(data)
                await gate.wait()
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except OSError:
            pass  # a side reset: the other side is ended all the same
        finally:
            with contextlib.suppress(OSError, RuntimeError):
                if sink.can_write_eof():
                    sink.write_eof()
