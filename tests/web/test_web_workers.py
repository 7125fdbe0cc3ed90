"""``cribbage serve --workers N``: each worker process listens on its own socket of the port
(``SO_REUSEPORT``), so that the kernel shares connections out among them, a burst as well as a
trickle; a worker killed is started again while the others serve; every seat's socket hears of
every action whichever worker took it (live updates through Redis); a worker that cannot start
stops the server with a message.  Real processes, a real Redis.

The burst, the killed worker and the live updates are shown on one server of the module
(:func:`server`; each start is three processes' imports and migrations, about 6 CPU-s): the
killed worker's test ends once the worker started in its place listens, so the server is as it
started for any test after.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect as ws_connect

from cribbage.web.workers import balanced
from service_urls import REDIS_URL
from web_fixtures import auth, first_action

WAIT = 30.0

Server = tuple[subprocess.Popen[str], int]
"""A server of ``--workers 2``, answering: its process and its port."""


def children(pid: int) -> list[int]:
    """The worker processes of the server (its children that run a worker)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):
            for child in (task / "children").read_text().split():
                command = Path(f"/proc/{child}/cmdline").read_bytes()
                if b"resource_tracker" not in command:
                    found.append(int(child))
    return found


ESTABLISHED, LISTEN = "01", "0A"
"""Socket states in /proc/net/tcp."""


def held(pid: int, port: int, state: str = ESTABLISHED) -> int:
    """How many sockets of ``port`` in ``state`` the process ``pid`` holds (from /proc): its
    connections open, or with ``LISTEN`` its listening sockets."""
    inodes = set()
    with suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] == state and fields[9] in inodes:
                    count += 1
    return count


@contextmanager
def serve(tmp_path: Path, *extra: str, db: str | None = None) -> Iterator[tuple[subprocess.Popen[str], int]]:
    command = [sys.executable, "-m", "cribbage", "serve", "--port", "0", "--db", db or str(tmp_path / "g.db")]
    command += ["--workers", "2", "--broker", REDIS_URL, *extra]
    # Its limits would count in the shared Redis, with every other server of the tests there.
    command += ["--limit", "create=off", "--limit", "join=off"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "Open http://127.0.0.1:" in line, line + (server.stderr.read() if server.stderr else "")
        yield server, int(line.split(":")[2].split()[0])
    finally:
        server.terminate()
        try:
            server.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=WAIT)


def ready(port: int) -> None:
    """Wait until the workers answer (each one: their sockets are up once both are counted)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
            conn.request("GET", "/api/variants")
            assert conn.getresponse().status == 200
            conn.close()
            return
        except ConnectionRefusedError:
            time.sleep(0.1)
    raise AssertionError("the server did not answer")


def wait_for_workers(pid: int, count: int) -> list[int]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        workers = children(pid)
        if len(workers) == count:
            return workers
        time.sleep(0.1)
    raise AssertionError(f"expected {count} workers, found {children(pid)}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``cribbage serve --workers 2`` for the module's tests, answering: its process and port."""
    with serve(tmp_path_factory.mktemp("workers")) as (process, port):
        ready(port)
        yield process, port


def test_a_burst_of_connections_is_shared_out_among_the_workers(server: Server) -> None:
    """Sixteen connections opened at once, each kept alive: both processes hold some (with one
    socket shared by both, the first process to wake accepted them all)."""
    assert balanced()  # Linux: CI's system and the servers'
    process, port = server
    workers = wait_for_workers(process.pid, 2)
    assert [held(pid, port, LISTEN) for pid in workers] == [1, 1]  # both listen: announced
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT) for _ in range(16)]
    try:
        for conn in conns:
            conn.connect()
        for conn in conns:
            conn.request("GET", "/api/variants")
        for conn in conns:
            answer = conn.getresponse()
            assert answer.status == 200
            assert "standard" in json.loads(answer.read())
        held_by = [held(pid, port) for pid in workers]
        assert sum(held_by) == 16, held_by
        assert min(held_by) >= 2, f"the connections went {held_by} to the two workers"
    finally:
        for conn in conns:
            conn.close()


def test_a_killed_worker_is_started_again_while_the_other_serves(server: Server) -> None:
    process, port = server
    first, second = wait_for_workers(process.pid, 2)
    os.kill(first, signal.SIGKILL)
    # Meanwhile every new connection is served, by the other worker.  The kernel closes a
    # killed process's listening socket a moment after its end, and a connection it was
    # given in that moment is reset (a page connects again): a few may be, no more.
    served = resets = 0
    while served < 20:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        try:
            conn.request("GET", "/api/variants")
            assert conn.getresponse().status == 200
            served += 1
        except (ConnectionResetError, ConnectionRefusedError, http.client.RemoteDisconnected):
            resets += 1
            assert resets <= 3, f"{resets} connections reset after the kill, {served} served"
            time.sleep(0.05)
        finally:
            conn.close()
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        workers = children(process.pid)
        if len(workers) == 2 and first not in workers:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"no worker replaced {first}: {children(process.pid)}")
    assert second in workers
    # The new worker takes its share once it listens on its own socket of the port.
    [new] = set(workers) - {second}
    while held(new, port, LISTEN) != 1:
        assert time.monotonic() < deadline, f"the worker {new} started in {first}'s place never listened"
        time.sleep(0.1)
    assert process.poll() is None


def test_two_worker_processes_share_live_updates_through_redis(server: Server) -> None:
    """`cribbage serve --workers 2 --broker redis://...`: requests on fresh connections land on
    either process, and every seat's socket hears of every action."""
    _process, port = server

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {"Content-Type": "application/json", **(auth(token) if token else {})}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        data = json.loads(answer.read())
        conn.close()
        assert answer.status < 300, data
        return data

    created = call("POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}]})
    joined = call("POST", "/api/join", {"code": created["invites"][0]["code"], "name": "Carla"})
    game_id, tokens = created["id"], [created["token"], joined["token"]]
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(ws_connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/live")) for _ in tokens
        ]
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"token": token}))
            assert json.loads(ws.recv(timeout=WAIT))["type"] == "state"
        for _ in range(8):
            state = call("GET", f"/api/games/{game_id}", token=tokens[0])
            seat = state["view"]["to_act"]
            mine = call("GET", f"/api/games/{game_id}", token=tokens[seat])
            action = {**first_action(mine), "version": mine["version"]}
            version = call("POST", f"/api/games/{game_id}/actions", action, tokens[seat])["version"]
            for other, ws in enumerate(sockets):
                heard = json.loads(ws.recv(timeout=WAIT))
                while heard["type"] == "state" and heard["state"]["version"] < version:
                    heard = json.loads(ws.recv(timeout=WAIT))  # who is connected changed
                assert heard["type"] == "state" and heard["state"]["seat"] == other
                assert heard["state"]["version"] == version


def test_a_database_that_cannot_be_opened_stops_the_server_with_a_message(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "cribbage", "serve", "--port", "0", "--workers", "2"]
    command += ["--broker", REDIS_URL, "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode != 0
    assert "cannot open the database postgresql+psycopg://nobody@127.0.0.1:1/none" in done.stderr
    assert "Traceback" not in done.stderr
    assert "Open http" not in done.stdout  # no address given for a server that is not there
