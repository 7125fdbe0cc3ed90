"""Faults (issue 14): a server process killed mid-game, Redis restarting, join limits shared.

Real ``cribbage serve`` processes on a real PostgreSQL schema (the ``postgres_url`` fixture) with
live updates through a real Redis: kill -9 of the process holding one seat's socket; the socket
reconnects to the other process (as the page does), catches up, and the game completes with
every acknowledged action in the stored record.  A throwaway redis-server started here is
stopped and started again: actions still succeed over HTTP meanwhile, and live updates resume by
themselves.  The join rate limit is counted in Redis, so two processes share it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from e2e_helpers import free_port
from service_urls import REDIS_URL
from web_fixtures import first_action, make_app

WAIT = 15.0
MAX_ACTIONS = 400
"""More than any two-player game takes with first legal actions (about 110): every loop ends."""


class Server:
    """One ``cribbage serve`` process on a free loopback port."""

    def __init__(self, db: str, broker: str) -> None:
        command = [sys.executable, "-m", "cribbage", "serve", "--port", "0", "--db", db, "--broker", broker]
        # Its limits would count in the shared Redis, with every other server of the tests there.
        command += ["--limit", "create=off", "--limit", "join=off"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "Open http://127.0.0.1:" in line, line
        self.port = int(line.split(":")[2].split()[0])
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                if self.call("GET", "/api/lobby")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        try:
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read())
        finally:
            conn.close()

    def ok(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, data = self.call(method, path, body, token)
        assert status < 300, (status, data)
        return data

    def live(self, stack: ExitStack, game_id: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
        """A seat's live socket here (closed with ``stack``), and the state it is sent at once."""
        url = f"ws://127.0.0.1:{self.port}/api/games/{game_id}/live"
        ws = stack.enter_context(ws_connect(url, open_timeout=WAIT))
        ws.send(json.dumps({"token": token}))
        first = json.loads(ws.recv(timeout=WAIT))
        assert first["type"] == "state", first
        return ws, first["state"]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WAIT)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def table(server: Server, other: Server) -> tuple[str, list[str]]:
    """A table of two people, created through one process and joined through the other."""
    created = server.ok("POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}]})
    joined = other.ok("POST", "/api/join", {"code": created["invites"][0]["code"], "name": "Dana"})
    return created["id"], [created["token"], joined["token"]]


def act(server: Server, game_id: str, tokens: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first legal action of the seat to act, through ``server``: the action (with the
    version it answers) and the acknowledged state."""
    state = server.ok("GET", f"/api/games/{game_id}", token=tokens[0])
    seat = state["view"]["to_act"]
    mine = server.ok("GET", f"/api/games/{game_id}", token=tokens[seat])
    action = {**first_action(mine), "seat": seat, "version": mine["version"]}  # as the record has it
    return action, server.ok("POST", f"/api/games/{game_id}/actions", action, tokens[seat])


def hear(ws: ClientConnection, version: int, seat: int, timeout: float = WAIT) -> dict[str, Any]:
    """The socket's state messages until one at ``version`` (never an older one after a newer)."""
    deadline = time.monotonic() + timeout
    last = -1
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        assert message["type"] == "state", message
        state: dict[str, Any] = message["state"]
        assert state["seat"] == seat and state["version"] >= last
        last = state["version"]
        if last >= version:
            assert last == version, (last, version)
            return state
    raise AssertionError(f"no state at version {version}")


def check_record(server: Server, game_id: str, token: str, acknowledged: list[dict[str, Any]]) -> None:
    """Every acknowledged action is in the stored record, at the version it answered."""
    record = server.ok("GET", f"/api/games/{game_id}/record", token=token)
    for action in acknowledged:
        step = {key: value for key, value in action.items() if key != "version"}
        assert record["actions"][action["version"]] == step, (action, record["actions"][action["version"]])


def test_kill_9_of_one_process_mid_game_loses_nothing_acknowledged(
    postgres_url: str, servers: list[Server]
) -> None:
    servers += [Server(postgres_url, REDIS_URL), Server(postgres_url, REDIS_URL)]
    first, second = servers
    game_id, tokens = table(first, second)
    with ExitStack() as stack:
        sockets = [first.live(stack, game_id, tokens[0])[0], second.live(stack, game_id, tokens[1])[0]]
        acknowledged: list[dict[str, Any]] = []
        versions: list[int] = []
        through = [first, second]
        over = False
        for turn in range(MAX_ACTIONS):
            if turn == 12:
                # kill -9, mid-game, with a seat's socket on it and an action on its way through
                # it: answered (then it must be stored) or not (then it may be, or not).
                with ThreadPoolExecutor(1) as pool:
                    on_its_way = pool.submit(act, second, game_id, tokens)
                    time.sleep(0.005)
                    second.process.kill()
                    second.process.wait(timeout=WAIT)
                    with contextlib.suppress(OSError, http.client.HTTPException, AssertionError):
                        action, state = on_its_way.result(timeout=WAIT)
                        acknowledged.append(action)
                        versions.append(state["version"])
                with pytest.raises((ConnectionClosed, OSError)):
                    for _ in range(10):  # anything already sent, then the end of the connection
                        sockets[1].recv(timeout=WAIT)
                sockets[1].close()
                # The page reconnects, to the process still there, and catches up at once.
                sockets[1], state = first.live(stack, game_id, tokens[1])
                assert state["version"] >= versions[-1] and state["seat"] == 1
                through = [first]
                continue
            action, state = act(through[turn % len(through)], game_id, tokens)
            assert not versions or state["version"] > versions[-1]  # versions continue
            acknowledged.append(action)
            versions.append(state["version"])
            for seat, ws in enumerate(sockets):
                hear(ws, state["version"], seat)
            if state["over"]:
                over = True
                break
        assert over and len(acknowledged) > 12
    check_record(first, game_id, tokens[0], acknowledged)
    final = first.ok("GET", f"/api/games/{game_id}", token=tokens[1])
    assert final["over"] and final["version"] == versions[-1]


class RedisServer:
    """A throwaway redis-server in a temporary folder, on a free port: stopped and started again."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is needed (tools/test_services.sh installs it)"
        self.command = [binary, "--port", str(free_port()), "--bind", "127.0.0.1", "--dir", str(folder)]
        self.command += ["--save", "", "--appendonly", "no"]
        self.url = f"redis://127.0.0.1:{self.command[2]}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = int(self.command[2])
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def test_a_redis_restart_delays_live_updates_only(
    postgres_url: str, servers: list[Server], redis_server: RedisServer
) -> None:
    servers += [Server(postgres_url, redis_server.url), Server(postgres_url, redis_server.url)]
    first, second = servers
    game_id, tokens = table(first, second)
    with ExitStack() as stack:
        sockets = [
            server.live(stack, game_id, token)[0] for server, token in zip(servers, tokens, strict=True)
        ]
        _, state = act(first, game_id, tokens)
        for seat, ws in enumerate(sockets):
            hear(ws, state["version"], seat)

        redis_server.stop()
        for turn in range(4):  # the state is in the database: actions go on, without waiting
            start = time.monotonic()
            _, state = act(servers[turn % 2], game_id, tokens)
            assert time.monotonic() - start < 5.0
        down_version = state["version"]

        redis_server.start()
        # Without any action, each process subscribes again and its sockets catch up.
        for seat, ws in enumerate(sockets):
            hear(ws, down_version, seat, timeout=30.0)
        # And live updates flow again, between the processes.
        for turn in range(4):
            _, state = act(servers[turn % 2], game_id, tokens)
            for seat, ws in enumerate(sockets):
                hear(ws, state["version"], seat)


def test_the_join_limit_is_shared_by_processes_through_redis(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    address = (f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}", 50000)
    with (
        TestClient(make_app(url, broker=REDIS_URL, limits={"join": "3/minute"}), client=address) as one,
        TestClient(make_app(url, broker=REDIS_URL, limits={"join": "3/minute"}), client=address) as two,
    ):
        created = one.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        codes = [
            c.post("/api/join", json={"code": "ZZZZZZ", "name": "Eve"}).status_code for c in (one, two, one)
        ]
        assert codes == [404, 404, 404]
        # The fourth attempt, through the process that saw only one, is refused all the same.
        refused = two.post("/api/join", json={"code": created["invites"][0]["code"], "name": "Eve"})
        assert refused.status_code == 429, refused.text
        assert "too many join attempts" in refused.json()["error"]


def test_joining_while_the_limits_cannot_be_counted_is_refused_clearly(tmp_path: Path) -> None:
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with TestClient(make_app(f"sqlite:///{tmp_path / 'g.db'}", broker=down)) as client:
        created = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert created.status_code == 201  # the rest of the API works without Redis
        start = time.monotonic()
        answer = client.post("/api/join", json={"code": created.json()["invites"][0]["code"], "name": "Eve"})
        assert answer.status_code == 503 and "try again" in answer.json()["error"]
        assert time.monotonic() - start < 5.0


@pytest.mark.postgres
def test_processes_started_at_once_on_a_new_postgresql_database_all_open_it(postgres_url: str) -> None:
    # Two `cribbage serve` on a new database created the same tables at once: one failed with
    # a duplicate key in PostgreSQL's catalogue (every time with four at once).
    from cribbage.storage import Storage

    def open_it(_: int) -> None:
        Storage(postgres_url).close()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(open_it, range(4)))
