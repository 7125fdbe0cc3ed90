"""Several server processes on one port, the kernel sharing the connections out among them.

``cribbage serve --workers N`` starts N processes.  Where the system balances connections
between sockets bound to one port with ``SO_REUSEPORT`` (Linux), each process listens on its
own such socket and the kernel hands every new connection to one of them by its addresses:
the processes get shares of a burst of connections as well as of a slow trickle.  With one
listening socket shared by every process (uvicorn's ``--workers``), whichever process wakes
first accepts everything waiting, and sixteen clients connecting at once all landed on one of
two processes, leaving the other idle (``bench/bench_online.py``).

The parent process creates the database's tables (once, not raced by the workers), keeps the
port bound (not listening: it is handed no connection) and the workers alive: a worker that ends
(``kill -9``) is started again, its share of the connections going to the others meanwhile.  A
worker that fails before it is ready (the database cannot be opened, say) stops the server,
since every new one would fail the same way.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import threading
from collections.abc import Callable
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event
from typing import Any, Final

BACKLOG: Final = 2048
"""Connections the kernel queues for each worker before it accepts them (uvicorn's default)."""
STOP_SECONDS: Final = 10.0
"""How long the workers have to finish their requests once the server is asked to stop."""


def balanced() -> bool:
    """Whether this system shares connections out among ``SO_REUSEPORT`` sockets (Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def port_socket(host: str, port: int, *, reuse_port: bool = True) -> socket.socket:
    """A TCP socket bound to ``host:port`` (not listening yet).  With ``reuse_port``
    (``SO_REUSEPORT``) every worker can bind its own to the same port; bound only, it is handed
    no connection until it listens.

    Raises:
        OSError: the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP by name: asyncio sets TCP_NODELAY on accepted connections only then (without
    # it every small answer waits 40 ms for a delayed acknowledgement).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _worker(host: str, port: int, options: dict[str, Any], ready: Event) -> None:
    """One worker process: its own listening socket, the application, uvicorn."""
    import uvicorn

    from .hardening import HeaderDeadlineProtocol
    from .server import app_from_environment

    app = app_from_environment()
    sock = port_socket(host, port)
    sock.listen(BACKLOG)  # only now: a connection queued to a worker that fails to start is lost
    ready.set()
    server = uvicorn.Server(uvicorn.Config(app, http=HeaderDeadlineProtocol, **options))
    server.run(sockets=[sock])


def run_workers(
    host: str, port: int, count: int, options: dict[str, Any], announce: Callable[[], None]
) -> int:
    """Run ``count`` workers on ``host:port`` (a port the caller holds bound with
    :func:`port_socket`) until SIGINT or SIGTERM, starting again any that ends; returns the exit
    status (1 when a worker could not start).  ``options``: uvicorn settings of each worker;
    ``announce`` is called once every worker listens."""
    context = multiprocessing.get_context("spawn")
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda _sig, _frame: stop.set())

    def start() -> tuple[SpawnProcess, Event]:
        ready = context.Event()
        process = context.Process(target=_worker, args=(host, port, options, ready), daemon=False)
        process.start()
        return process, ready

    workers = [start() for _ in range(count)]
    status = 0
    announced = False
    while not stop.wait(0.1):
        if not announced and all(ready.is_set() for _, ready in workers):
            announce()
            announced = True
        for index, (process, ready) in enumerate(workers):
            if process.exitcode is None:
                continue
            if not ready.is_set() and process.exitcode > 0:  # it failed, not killed
                print(f"a server process could not start (exit status {process.exitcode})", file=sys.stderr)
                stop.set()
                status = 1
                break
            print(
                f"server process {process.pid} ended (status {process.exitcode}): starting another",
                file=sys.stderr,
            )
            workers[index] = start()
    for process, _ in workers:
        process.terminate()
    for process, _ in workers:
        process.join(STOP_SECONDS)
        if process.exitcode is None:
            process.kill()
            process.join()
    return status
