"""Benchmark of tables between people: live tables held, actions/s, live delay, scaling to 2 processes.

    python bench/bench_online.py [--tables 200] [--rate 100] [--seconds 15] [--normal-seconds 15]
                                 [--spectators 1000] [--configs 1,1pg,2] [--rounds 1] [--src PATH]
                                 [--json]

For each configuration (``1``: one ``cribbage serve`` process on a fresh SQLite file with the
in-process broker; ``1pg``: one process on a fresh PostgreSQL schema with the Redis broker;
``2``: ``cribbage serve --workers 2`` on them) it starts the real server on a free loopback
port and

* **holds** ``--tables`` tables of two simulated people: each table created over HTTP and its
  second seat joined, then each seat's live socket opened (``2 x tables`` sockets) and its first
  state received; it reports how many tables and sockets are live, and the server's memory;
* **paces** actions over HTTP at ``--rate`` actions/s for ``--seconds`` on those tables (each
  action the first legal one of the seat to act, as that seat's socket last told it) and times
  the delay from each action's HTTP answer to the other seat's live message of that version
  (p50, p95; goal p95 <= 100 ms at 100 actions/s);
* **saturates**: as many actions/s on the tables of people as 64 tables acting back to back give;
* **spectators**: first, on one table of two people, the server's CPU seconds (user + system,
  of every server process) per action, over 30 actions without spectators and 30 with
  ``--spectators`` spectators' sockets open (with permessage-deflate, as browsers open them),
  each action timed until every spectator heard it;
* **normal computers**: 16 clients, each playing one game after another against a ``normal``
  computer over HTTP (each game on a new connection), for ``--normal-seconds``: actions/s.
  The ratios of the 2-process figure to the 1-process figures are printed (goal >= 1.6): to
  one process on SQLite, and to one process on the same PostgreSQL and Redis (what the second
  process adds).

``--src`` serves another checkout's ``src`` folder (first on the servers' PYTHONPATH);
``bench/bench_cost.py`` measures several back to back (issue 30's STATE bytes and actions per
server CPU-second).

The benchmark itself runs in this one asyncio process (its sockets and HTTP connections take
CPU from the same machine as the server).  Every loop is bounded; traffic stays on 127.0.0.1;
the server is killed at the end; the PostgreSQL schema is dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cribbage.engine.templates import choices
from cribbage.web.ratelimits import LIMITS

GOAL_TABLES = 1000
GOAL_DELAY_P95_MS = 100.0
GOAL_RATIO = 1.6
POSTGRES_URL = os.environ.get("CRIBBAGE_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("CRIBBAGE_TEST_REDIS", "redis://127.0.0.1:6379/0")
TIMEOUT = 30.0
START_TIMEOUT = 120.0
"""How long a server may take to open its port: an older tree migrating a new PostgreSQL schema
with two workers, on a loaded machine, took 37 s."""
MAX_MESSAGES = 1_000_000
"""A socket reader stops after this many messages whatever happens (a bound, never reached)."""


def offered(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions a ``STATE`` offers, as sent, in the engine's order: its templates' choices
    (``actions``, docs/api.md), or the ``legal`` list of a tree from before them (``bench_cost.py
    --src today=...``)."""
    if "actions" not in state:
        return list(state["legal"])
    return [choice for template in state["actions"] for choice in choices(template)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def raise_fd_limit(needed: int) -> int:
    """Raise this process's (and so the server's) soft limit of open files towards ``needed``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) used so far by a process and its children (the workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for one in (pid, *children(pid)):
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{one}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def rss_mb(pid: int) -> float:
    """The memory of a process and its children (the workers), in MB."""
    total = 0.0
    for each in [pid, *children(pid)]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


# --------------------------------------------------------------------------- the server


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards (as the tests' ``postgres_url``)."""
    import sqlalchemy

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(POSTGRES_URL)
    with admin.begin() as conn:
        conn.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sqlalchemy.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def known_limits(python: str, env: dict[str, str]) -> list[str]:
    """The names of the abuse limits of the tree that ``python`` imports with ``env``."""
    if python == sys.executable and env.get("PYTHONPATH") == os.environ.get("PYTHONPATH"):
        return list(LIMITS)
    code = "from cribbage.web.ratelimits import LIMITS; print(' '.join(LIMITS))"
    names = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=True)
    return names.stdout.split()


@contextlib.contextmanager
def server(
    workers: int, db: str, broker: str, src: Path | None = None, python: str | None = None
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``cribbage serve`` on a free port; with ``src``, that source tree first on its PYTHONPATH
    (another checkout's code, measured with this benchmark); with ``python``, run by that
    interpreter (another checkout's environment, with its own dependencies)."""
    port = free_port()
    command = [python or sys.executable, "-m", "cribbage", "serve", "--port", str(port), "--db", db]
    command += ["--broker", broker, "--workers", str(workers)]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))
    # One address joins and plays a thousand tables: no abuse limit applies to a benchmark
    # (each of the limits the measured tree knows: an older one has fewer).
    command += [arg for name in known_limits(command[0], env) for arg in ("--limit", f"{name}=off")]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=env
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        time.sleep(1.0 if workers > 1 else 0.2)  # every worker up
        yield port, process
    finally:
        workers_pids = children(process.pid)
        process.terminate()  # the manager stops its workers
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=TIMEOUT)
        for pid in workers_pids:  # any worker left, by its own id
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------------- the clients


class Http:
    """JSON over one keep-alive HTTP/1.1 connection, with asyncio streams."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        line = await self.reader.readline()
        if not line:  # the server closed the idle connection as it was reused: once more, anew
            await self.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write(head.encode() + b"\r\n" + payload)
            line = await self.reader.readline()
        status = int(line.split()[1])
        length = 0
        for _ in range(100):  # headers
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length)
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()


class Pool:
    """A few keep-alive connections shared by many tasks."""

    def __init__(self, port: int, size: int) -> None:
        self.idle: asyncio.Queue[Http] = asyncio.Queue()
        self.all = [Http(port) for _ in range(size)]
        for conn in self.all:
            self.idle.put_nowait(conn)

    async def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        conn = await self.idle.get()
        try:
            return await asyncio.wait_for(conn.call(method, path, body, token), TIMEOUT)
        except BaseException:
            await conn.close()
            conn.reader = conn.writer = None
            raise
        finally:
            self.idle.put_nowait(conn)

    async def close(self) -> None:
        for conn in self.all:
            await conn.close()


@dataclass
class Table:
    """A table of two people: each seat's token, live socket and last state heard."""

    game_id: str
    tokens: list[str]
    sockets: list[ClientConnection | None] = field(default_factory=lambda: [None, None])
    states: list[dict[str, Any] | None] = field(default_factory=lambda: [None, None])
    heard: list[dict[int, float]] = field(default_factory=lambda: [{}, {}])  # version: when
    waiters: list[dict[int, asyncio.Future[float]]] = field(default_factory=lambda: [{}, {}])
    replies: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)  # by ref
    refs: itertools.count[int] = field(default_factory=itertools.count)
    busy: bool = False

    @property
    def over(self) -> bool:
        return any(state is not None and state["over"] for state in self.states)

    def wait_for(self, seat: int, version: int) -> asyncio.Future[float]:
        """When the seat's socket heard a state at ``version`` or later."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        state = self.states[seat]
        if state is not None and state["version"] >= version:
            future.set_result(self.heard[seat].get(version, time.perf_counter()))
        else:
            self.waiters[seat][version] = future
        return future


async def read_socket(table: Table, seat: int, ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        for _ in range(MAX_MESSAGES):
            message = json.loads(await ws.recv())
            now = time.perf_counter()
            reply = table.replies.pop(message.get("ref", -1), None)
            if reply is not None and not reply.done():  # ``acted`` or the refusal of an action
                reply.set_result(message)
            if message.get("type") != "state":
                continue
            state = message["state"]
            table.states[seat] = state
            version = state["version"]
            table.heard[seat][version] = now
            for wanted in [v for v in table.waiters[seat] if v <= version]:
                future = table.waiters[seat].pop(wanted)
                if not future.done():
                    future.set_result(now)


async def open_table(
    pool: Pool,
    port: int,
    gate: asyncio.Semaphore,
    readers: set[asyncio.Task[None]],
    created: dict[str, Any] | None = None,
) -> Table:
    """A table of two people (``created``: its creation's answer, else a new one), both seats'
    sockets open and their first states heard."""
    async with gate:
        if created is None:
            status, created = await pool.call(
                "POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}]}
            )
            assert status == 201, created
        code = created["invites"][0]["code"]
        status, joined = await pool.call("POST", "/api/join", {"code": code, "name": "Bench"})
        assert status == 201, joined
        table = Table(created["id"], [created["token"], joined["token"]])
        for seat, token in enumerate(table.tokens):
            url = f"ws://127.0.0.1:{port}/api/games/{table.game_id}/live"
            ws = await connect(url, open_timeout=TIMEOUT, max_queue=4, compression=None)
            await ws.send(json.dumps({"token": token}))
            table.sockets[seat] = ws
            first = table.wait_for(seat, 0)
            task = asyncio.create_task(read_socket(table, seat, ws))
            readers.add(task)
            await asyncio.wait_for(first, TIMEOUT)
        return table


async def act(pool: Pool, table: Table, delays: list[float], over_socket: bool = False) -> bool:
    """One action of the seat to act (over HTTP, or ``over_socket`` as the page sends it: on the
    seat's live socket, answered by ``acted``), then the wait for the other seat to hear of it."""
    state = table.states[0]
    assert state is not None
    seat = state["view"]["to_act"]
    mine = table.states[seat]
    actions = [] if mine is None or mine["version"] != state["version"] or table.over else offered(mine)
    if not actions:
        return False
    action = {**actions[0], "version": mine["version"]}
    if over_socket:
        status, answer = await socket_action(table, seat, action)
    else:
        status, answer = await pool.call(
            "POST", f"/api/games/{table.game_id}/actions", action, table.tokens[seat]
        )
    answered = time.perf_counter()
    if status != 200:
        return False
    other = 1 - seat
    heard = await asyncio.wait_for(table.wait_for(other, answer["version"]), TIMEOUT)
    await asyncio.wait_for(table.wait_for(seat, answer["version"]), TIMEOUT)
    delays.append(max(0.0, heard - answered) * 1000)
    return True


async def socket_action(table: Table, seat: int, action: dict[str, Any]) -> tuple[int, Any]:
    """An action sent on the seat's live socket with a ``ref``: (200, ``acted``) or (0, the
    refusal)."""
    ws = table.sockets[seat]
    assert ws is not None
    ref = next(table.refs)
    reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    table.replies[ref] = reply
    await ws.send(json.dumps({"type": "action", "action": action, "ref": ref}))
    message = await asyncio.wait_for(reply, TIMEOUT)
    return (200, message) if message.get("type") == "acted" else (0, message)


async def paced(pool: Pool, tables: list[Table], rate: float, seconds: float) -> dict[str, float]:
    """Actions at ``rate`` per second on idle tables, for ``seconds``."""
    delays: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    done = 0

    async def one(table: Table) -> None:
        nonlocal done
        table.busy = True
        try:
            if await act(pool, table, delays):
                done += 1
        finally:
            table.busy = False

    rng = random.Random(1)
    start = time.perf_counter()
    for n in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
        idle = [t for t in rng.sample(tables, min(len(tables), 20)) if not t.busy and not t.over]
        if idle:
            task = asyncio.create_task(one(idle[0]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(tasks, timeout=TIMEOUT)
    elapsed = time.perf_counter() - start
    return {
        "actions_per_s": round(done / elapsed, 1),
        "delay_p50_ms": round(percentile(delays, 0.5), 1),
        "delay_p95_ms": round(percentile(delays, 0.95), 1),
    }


async def saturated(pool: Pool, tables: list[Table], seconds: float, width: int = 64) -> dict[str, float]:
    """``width`` tables acting back to back for ``seconds``: actions/s."""
    delays: list[float] = []
    deadline = time.perf_counter() + seconds
    done = 0

    async def loop(mine: list[Table]) -> None:
        nonlocal done
        for _ in range(100_000):
            if time.perf_counter() >= deadline:
                return
            live = [t for t in mine if not t.over]
            if not live:
                return
            for table in live:
                if await act(pool, table, delays):
                    done += 1

    start = time.perf_counter()
    groups = [tables[i::width] for i in range(min(width, len(tables)))]
    await asyncio.gather(*(loop(group) for group in groups))
    elapsed = time.perf_counter() - start
    return {"actions_per_s": round(done / elapsed, 1), "delay_p95_ms": round(percentile(delays, 0.95), 1)}


async def computers(port: int, seconds: float, clients: int = 16) -> float:
    """Actions/s of ``clients`` people each playing a ``normal`` computer, back to back."""
    deadline = time.perf_counter() + seconds
    done = 0

    async def player(index: int) -> None:
        nonlocal done
        http = Http(port)
        rng = random.Random(index)
        try:
            game: tuple[str, str, dict[str, Any]] | None = None
            for _ in range(100_000):
                if time.perf_counter() >= deadline:
                    return
                if game is None or game[2]["over"] or not offered(game[2]):
                    # Each game on a new connection, as a page loaded for it: the connections
                    # (hence the games) spread over the processes by the kernel's hash.
                    await http.close()
                    http = Http(port)
                    status, data = await http.call("POST", "/api/games", {"level": "normal"})
                    assert status == 201, data
                    game = (data["id"], data["token"], data["state"])
                    continue
                action = {**rng.choice(offered(game[2])), "version": game[2]["version"]}
                status, state = await http.call("POST", f"/api/games/{game[0]}/actions", action, game[1])
                assert status == 200, state
                game = (game[0], game[1], state)
                done += 1
        finally:
            await http.close()

    start = time.perf_counter()
    await asyncio.gather(*(player(i) for i in range(clients)))
    return round(done / (time.perf_counter() - start), 1)


async def spectator_cost(port: int, pid: int, count: int, actions: int = 30) -> dict[str, Any]:
    """CPU seconds of the server per action on one table, without spectators and with ``count``
    spectators' sockets open (each action waited for until every spectator heard it)."""
    pool = Pool(port, 2)
    readers: set[asyncio.Task[None]] = set()
    watchers: list[ClientConnection] = []
    heard: list[int] = []
    try:
        status, created = await pool.call(
            "POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "public": True}
        )
        assert status == 201, created
        table = await open_table(pool, port, asyncio.Semaphore(1), readers, created)
        status, link = await pool.call("POST", f"/api/games/{table.game_id}/watch", None, table.tokens[0])
        assert status == 200, link

        async def watch(index: int, ws: ClientConnection) -> None:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(MAX_MESSAGES):
                    message = json.loads(await ws.recv())
                    if message.get("type") == "state":
                        heard[index] = message["state"]["version"]

        async def per_action() -> float:
            before = cpu_seconds(pid)
            done = 0
            for _ in range(actions * 2):
                if done == actions:
                    break
                if not await act(pool, table, []):
                    await asyncio.sleep(0.05)  # the other seat's state is on its way
                    continue
                done += 1
                version = table.states[0]["version"] if table.states[0] else 0
                deadline = time.monotonic() + TIMEOUT
                while min(heard, default=version) < version and time.monotonic() < deadline:
                    await asyncio.sleep(0.005)
            return (cpu_seconds(pid) - before) / max(1, done)

        alone = await per_action()
        url = f"ws://127.0.0.1:{port}/api/games/{table.game_id}/live"
        for index in range(count):
            ws = await connect(url, open_timeout=TIMEOUT, max_queue=4, compression="deflate")
            await ws.send(json.dumps({"watch": link["code"]}))
            watchers.append(ws)
            heard.append(-1)
            readers.add(asyncio.create_task(watch(index, ws)))
        deadline = time.monotonic() + TIMEOUT
        while min(heard, default=0) < 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        watched = await per_action()
        return {
            "spectators": count,
            "spectators_open": sum(1 for ws in watchers if ws.close_code is None),
            "cpu_s_per_action_alone": round(alone, 4),
            "cpu_s_per_action_watched": round(watched, 4),
        }
    finally:
        for ws in watchers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)
        for task in readers:
            task.cancel()
        await pool.close()


async def measure(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    figures_first: dict[str, Any] = {}
    if args.spectators:
        figures_first["spectators"] = await spectator_cost(port, pid, args.spectators)
    pool = Pool(port, 32)
    readers: set[asyncio.Task[None]] = set()
    gate = asyncio.Semaphore(32)
    start = time.perf_counter()
    results = await asyncio.gather(
        *(open_table(pool, port, gate, readers) for _ in range(args.tables)), return_exceptions=True
    )
    tables = [t for t in results if isinstance(t, Table)]
    failures = [r for r in results if not isinstance(r, Table)]
    opened = time.perf_counter() - start
    figures: dict[str, Any] = {
        "tables_held": len(tables),
        "sockets_open": sum(
            1 for t in tables for ws in t.sockets if ws is not None and ws.close_code is None
        ),
        "open_failures": len(failures),
        "first_failure": repr(failures[0])[:200] if failures else None,
        "open_seconds": round(opened, 1),
        "server_rss_mb": round(rss_mb(pid), 1),
        **figures_first,
    }
    try:
        if tables:
            figures["paced"] = await paced(pool, tables, args.rate, args.seconds)
            figures["saturated"] = await saturated(pool, tables, args.seconds)
            still = [t for t in tables for ws in t.sockets if ws is not None and ws.close_code is None]
            figures["sockets_open_after"] = len(still)
        figures["normal_actions_per_s"] = await computers(port, args.normal_seconds)
    finally:
        for table in tables:
            for ws in table.sockets:
                if ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(), 5)
        for task in readers:
            task.cancel()
        await pool.close()
    return figures


def run_config(config: str, args: argparse.Namespace) -> dict[str, Any]:
    """One configuration: ``1`` (SQLite, memory broker), ``2`` (PostgreSQL, Redis, 2 workers) or
    ``1pg`` (one process on PostgreSQL and Redis: what the database alone costs)."""
    workers = int(config[0])
    with contextlib.ExitStack() as stack:
        if config == "1":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            db, broker = f"sqlite:///{folder}/games.db", "memory"
        else:
            db, broker = stack.enter_context(postgres_schema()), args.redis
        port, process = stack.enter_context(server(workers, db, broker, args.src))
        figures = asyncio.run(measure(port, process.pid, args))
        figures["config"] = config
        figures["workers"] = workers
        figures["database"] = "sqlite" if config == "1" else "postgresql"
        figures["broker"] = "memory" if config == "1" else "redis"
        return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of two people to hold (goal 1000)")
    parser.add_argument("--rate", type=float, default=100.0, help="paced actions per second")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of the paced and saturated runs")
    parser.add_argument(
        "--normal-seconds", type=float, default=15.0, help="length of the normal-computer run"
    )
    parser.add_argument(
        "--configs",
        default="1,1pg,2",
        help="what to run: 1 (SQLite), 1pg (1 process on PostgreSQL + Redis), 2 (2 processes on them)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=1000,
        help="spectators' sockets on one table for the CPU cost per action (0: not measured)",
    )
    parser.add_argument("--redis", default=REDIS_URL, help="the Redis of the 2-process configuration")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the configurations this many times in turn; the ratios are of the medians "
        "(a machine busy with other work moves single runs by a third)",
    )
    parser.add_argument(
        "--src", type=Path, default=None, help="serve this source tree (another checkout's src folder)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    # the client's and the server's sockets, and more
    limit = raise_fd_limit(4 * args.tables + 2 * args.spectators + 1024)
    configs = args.configs.split(",")
    results = [run_config(config, args) for _ in range(max(1, args.rounds)) for config in configs]
    normal = {c: sorted(r["normal_actions_per_s"] for r in results if r["config"] == c) for c in configs}
    median = {c: figures[len(figures) // 2] for c, figures in normal.items()}

    def ratio_to(base: str) -> float | None:
        if "2" not in median or not median.get(base):
            return None
        return round(float(median["2"] / median[base]), 2)

    ratio, ratio_same_store = ratio_to("1"), ratio_to("1pg")
    if args.json:
        figures = {"open_files_limit": limit, "results": results, "ratio_2_to_1": ratio}
        print(json.dumps({**figures, "ratio_2_to_1pg": ratio_same_store}, indent=1))
        return 0
    print(f"open files limit {limit}; {os.cpu_count()} cores; the benchmark runs on the same machine")
    for r in results:
        print(
            f"{r['workers']} process(es), {r['database']} + {r['broker']} broker: "
            f"{r['tables_held']} tables held ({r['sockets_open']} sockets open; goal {GOAL_TABLES} tables, "
            f"{2 * GOAL_TABLES} sockets), opened in {r['open_seconds']} s, "
            f"server memory {r['server_rss_mb']:.0f} MB"
        )
        if "spectators" in r:
            w = r["spectators"]
            print(
                f"  CPU seconds per action with {w['spectators']:,} spectators: "
                f"{w['cpu_s_per_action_watched']} ({w['cpu_s_per_action_alone']} without spectators; "
                f"{w['spectators_open']} spectators' sockets open)"
            )
        if r["open_failures"]:
            print(f"  {r['open_failures']} tables failed to open, e.g. {r['first_failure']}")
        if "paced" in r:
            p, s = r["paced"], r["saturated"]
            print(
                f"  paced at {args.rate:g}/s: {p['actions_per_s']} actions/s, answer -> other seat's live "
                f"message p50 {p['delay_p50_ms']} ms, p95 {p['delay_p95_ms']} ms "
                f"(goal p95 <= {GOAL_DELAY_P95_MS:g})"
            )
            print(
                f"  saturated (64 tables back to back): {s['actions_per_s']} actions/s, "
                f"delay p95 {s['delay_p95_ms']} ms"
            )
            print(f"  sockets still open after the runs: {r['sockets_open_after']}")
        print(f"  tables against a normal computer (16 clients): {r['normal_actions_per_s']} actions/s")
    if args.rounds > 1:
        for config, by_round in normal.items():
            print(f"normal computers, configuration {config}, by round: {by_round}, median {median[config]}")
    if ratio is not None:
        print(
            f"2 processes (PostgreSQL + Redis) / 1 process (SQLite, in-process) with normal computers: "
            f"{ratio} (goal >= {GOAL_RATIO})"
        )
    if ratio_same_store is not None:
        print(
            f"2 processes / 1 process, both on PostgreSQL + Redis, with normal computers: "
            f"{ratio_same_store} (goal >= {GOAL_RATIO})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
