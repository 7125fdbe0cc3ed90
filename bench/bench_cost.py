"""What a person's action costs the server, for one checkout or several back to back.

    python bench/bench_cost.py [--src today=/path/to/main/src --src new=src] [--seconds 5]
                               [--processes 1,2] [--tables 1] [--computer-clients 4] [--json]

Issue 30's numbers, printed for each source tree given (``--src LABEL=PATH``, in turn; by
default this checkout's ``src``), each server run with that tree first on its ``PYTHONPATH``:

* **STATE bytes**: the body of ``GET /api/games/{id}`` a seat gets when it is to play a card
  with manual counting in the play (``manual``, ``muggins``, ``muggins_play``: the seat states
  each play's points), and how many entries it lists: action templates (``actions``), or the
  legal actions of a tree from before them (``legal``);
* **actions per server CPU-second**, for 1 and 2 server processes (``--processes``; 1: SQLite
  and the in-process broker, 2: ``--workers 2`` on PostgreSQL and Redis, as bench_online's
  configurations ``1`` and ``2``): for ``--seconds``, ``--tables`` tables of two people act back
  to back (each action the seat's first legal one, waited for until both seats' live sockets
  heard it), first alone, then with ``--computer-clients`` people each playing game after game
  against a ``normal`` computer at other tables.  The figure is the people's actions (at the
  two-person tables, and against the computers) over the CPU seconds (user + system, from
  ``/proc``) of every server process in that window, not over wall time.

Compare today's main with new code in one run: ``--src today=/work/main/src --src new=src``, and
``--python today=/path/to/its/venv/bin/python`` to run today's server in its own environment
(its dependencies: without uvloop and httptools, say).  People send their actions on their
live sockets, as the page does (``--people-act socket``), or over HTTP (``http``): the people at
the two-person tables and those playing the computers alike.
The client speaks the wire of docs/api.md; :func:`concrete` turns a legal action into the one
sent (today's legal actions are sent as they are; an action template such as
``{"type": "play", "cards": [...], "claim": {"min": 0, "max": 60}}`` becomes its first card
and lowest claim).  Every loop is bounded, traffic stays on 127.0.0.1, the servers are stopped
and the PostgreSQL schemas dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_online import (
    REDIS_URL,
    TIMEOUT,
    Http,
    Pool,
    Table,
    act,
    cpu_seconds,
    open_table,
    postgres_schema,
    read_socket,
    server,
    socket_action,
)
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parent.parent / "src"
MAX_STEPS = 400
"""A game setup stops after this many actions whatever happens (a bound, never reached)."""


def listed(state: dict[str, Any]) -> list[dict[str, Any]]:
    """What a ``STATE`` lists of the seat's actions: its templates (``actions``), or the legal
    actions of a tree from before them (``legal``)."""
    return list(state["actions"] if "actions" in state else state["legal"])


def concrete(legal: dict[str, Any]) -> dict[str, Any]:
    """The action to send for a legal action: itself, or a template's first choice."""
    action = {key: value for key, value in legal.items() if not _is_range(value)}
    action.update({key: value["min"] for key, value in legal.items() if _is_range(value)})
    cards = legal.get("cards")
    if legal.get("type") == "play" and "card" not in legal and isinstance(cards, list) and cards:
        action.pop("cards")
        action["card"] = cards[0]
    elif legal.get("type") == "discard" and isinstance(legal.get("count"), int) and isinstance(cards, list):
        action.pop("count")
        action["cards"] = cards[: legal["count"]]
    return action


def _is_range(value: object) -> bool:
    return isinstance(value, dict) and set(value) >= {"min", "max"}


# --------------------------------------------------------------------------- STATE bytes


async def state_bytes(port: int) -> dict[str, Any]:
    """The bytes of the STATE of a seat to play a card with manual counting in the play."""
    http = Http(port)
    try:
        body = {"seats": [{"kind": "human"}, {"kind": "human"}], "manual": True, "muggins": True}
        status, created = await http.call("POST", "/api/games", {**body, "muggins_play": True})
        assert status == 201, created
        code = created["invites"][0]["code"]
        status, joined = await http.call("POST", "/api/join", {"code": code, "name": "Bench"})
        assert status == 201, joined
        game, tokens = created["id"], [created["token"], joined["token"]]
        for _ in range(MAX_STEPS):
            status, state = await http.call("GET", f"/api/games/{game}", None, tokens[0])
            assert status == 200, state
            seat = state["view"]["to_act"]
            status, mine = await http.call("GET", f"/api/games/{game}", None, tokens[seat])
            entries = listed(mine) if status == 200 else []
            assert entries, mine
            if mine["view"]["phase"] == "play" and entries[0]["type"] == "play":
                raw = json.dumps(mine, separators=(",", ":")).encode()
                key = "actions" if "actions" in mine else "legal"
                return {"bytes": len(raw), "listed": len(entries), "key": key}
            action = {**concrete(entries[0]), "version": mine["version"]}
            status, answer = await http.call("POST", f"/api/games/{game}/actions", action, tokens[seat])
            assert status == 200, answer
        raise SystemExit("no manual-pegging decision came")
    finally:
        await http.close()


# --------------------------------------------------------------------------- CPU per action


async def people(port: int, pool: Pool, count: int, deadline: float, over_socket: bool) -> int:
    """Actions of ``count`` two-person tables acting back to back until ``deadline`` (a table
    whose game ends is replaced by a new one), sent on the seats' live sockets as the page sends
    them (``over_socket``) or over HTTP."""
    readers: set[asyncio.Task[None]] = set()
    gate = asyncio.Semaphore(4)
    done = 0

    async def one() -> None:
        nonlocal done
        table: Table | None = None
        for _ in range(100_000):
            if time.perf_counter() >= deadline:
                return
            if table is None or table.over:
                table = await open_table(pool, port, gate, readers)
            if await act(pool, table, [], over_socket=over_socket):
                done += 1
            else:
                await asyncio.sleep(0.01)  # the other seat's state is on its way

    try:
        await asyncio.gather(*(one() for _ in range(count)))
    finally:
        for task in readers:
            task.cancel()
    return done


async def against_computers(port: int, clients: int, deadline: float, over_socket: bool) -> int:
    """Actions of ``clients`` people each playing a ``normal`` computer until ``deadline``: sent
    on the seat's live socket and its state heard there (``over_socket``, as the page does), or
    over HTTP with the state in the answer."""
    done = 0
    readers: set[asyncio.Task[None]] = set()

    async def new_game(http: Http) -> tuple[str, str, dict[str, Any]]:
        status, data = await http.call("POST", "/api/games", {"level": "normal"})
        assert status == 201, data
        return data["id"], data["token"], data["state"]

    async def over_http() -> None:
        nonlocal done
        http = Http(port)
        try:
            game: tuple[str, str, dict[str, Any]] | None = None
            for _ in range(100_000):
                if time.perf_counter() >= deadline:
                    return
                if game is None or game[2]["over"] or not listed(game[2]):
                    await http.close()  # each game on a new connection, as a page loaded for it
                    http = Http(port)
                    game = await new_game(http)
                    continue
                action = {**concrete(listed(game[2])[0]), "version": game[2]["version"]}
                status, state = await http.call("POST", f"/api/games/{game[0]}/actions", action, game[1])
                assert status == 200, state
                game = (game[0], game[1], state)
                done += 1
        finally:
            await http.close()

    async def on_socket() -> None:
        nonlocal done
        http = Http(port)
        table: Table | None = None
        try:
            for _ in range(100_000):
                if time.perf_counter() >= deadline:
                    return
                state = None if table is None else table.states[0]
                if table is None or state is None or state["over"] or not listed(state):
                    if table is not None and table.sockets[0] is not None:
                        await table.sockets[0].close()
                    game_id, token, _state = await new_game(http)
                    table = Table(game_id, [token])
                    ws = await connect(
                        f"ws://127.0.0.1:{port}/api/games/{game_id}/live",
                        open_timeout=TIMEOUT,
                        max_queue=4,
                        compression=None,
                    )
                    await ws.send(json.dumps({"token": token}))
                    table.sockets[0] = ws
                    first = table.wait_for(0, 0)
                    readers.add(asyncio.create_task(read_socket(table, 0, ws)))
                    await asyncio.wait_for(first, TIMEOUT)
                    continue
                action = {**concrete(listed(state)[0]), "version": state["version"]}
                status, answer = await socket_action(table, 0, action)
                assert status == 200, answer
                await asyncio.wait_for(table.wait_for(0, answer["version"]), TIMEOUT)
                done += 1
        finally:
            await http.close()
            if table is not None and table.sockets[0] is not None:
                await table.sockets[0].close()

    try:
        await asyncio.gather(*((on_socket if over_socket else over_http)() for _ in range(clients)))
    finally:
        for task in readers:
            task.cancel()
    return done


async def cost(port: int, pid: int, args: argparse.Namespace, clients: int) -> dict[str, float]:
    """People's actions per server CPU-second over ``args.seconds`` (with ``clients`` people
    playing computers at other tables)."""
    pool = Pool(port, 8)
    try:
        over_socket = args.people_act == "socket"
        await people(port, pool, args.tables, time.perf_counter() + 0.5, over_socket)  # warm up
        before, start = cpu_seconds(pid), time.perf_counter()
        deadline = start + args.seconds
        tabled, computed = await asyncio.gather(
            people(port, pool, args.tables, deadline, over_socket),
            against_computers(port, clients, deadline, over_socket),
        )
        cpu, wall = cpu_seconds(pid) - before, time.perf_counter() - start
    finally:
        await pool.close()
    return {
        "table_actions": tabled,
        "computer_table_actions": computed,
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 1),
        "actions_per_cpu_s": round((tabled + computed) / cpu, 1) if cpu > 0 else float("nan"),
    }


def measure(
    label: str, src: Path, processes: int, args: argparse.Namespace, with_state: bool
) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        if processes == 1:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            db, broker = f"sqlite:///{folder}/games.db", "memory"
        else:
            db, broker = stack.enter_context(postgres_schema()), args.redis
        python = dict(item.split("=", 1) for item in args.python).get(label)
        port, process = stack.enter_context(server(processes, db, broker, src=src, python=python))
        figures: dict[str, Any] = {"processes": processes}
        if with_state:
            figures["state"] = asyncio.run(state_bytes(port))
        figures["people_only"] = asyncio.run(cost(port, process.pid, args, 0))
        figures["with_computers"] = asyncio.run(cost(port, process.pid, args, args.computer_clients))
        return figures


def sources(given: list[str]) -> list[tuple[str, Path]]:
    """``LABEL=PATH`` pairs (a bare path is labelled by itself); this checkout's src by default."""
    pairs = []
    for item in given or [f"this={HERE}"]:
        label, _, path = item.rpartition("=")
        folder = Path(path).resolve()
        if not (folder / "cribbage" / "__init__.py").is_file():
            raise SystemExit(f"{folder} holds no cribbage package (give the src folder of a checkout)")
        pairs.append((label or str(folder), folder))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--src",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="a checkout's src folder to measure (repeat to compare, in turn); default this one",
    )
    parser.add_argument(
        "--python",
        action="append",
        default=[],
        metavar="LABEL=EXE",
        help="the interpreter that runs the server of --src LABEL (its environment); default this one",
    )
    parser.add_argument(
        "--people-act",
        choices=("socket", "http"),
        default="socket",
        help="people send their actions on their live sockets, as the page does (default), or over HTTP",
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each CPU measurement")
    parser.add_argument("--processes", default="1,2", help="server processes: 1 (SQLite), 2 (PostgreSQL)")
    parser.add_argument("--tables", type=int, default=1, help="two-person tables acting back to back")
    parser.add_argument(
        "--computer-clients", type=int, default=4, help="people playing normal computers at other tables"
    )
    parser.add_argument("--redis", default=REDIS_URL, help="the Redis of the 2-process runs")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    results = []
    for label, src in sources(args.src):
        for processes in counts:
            figures = measure(label, src, processes, args, with_state=processes == counts[0])
            results.append({"src": label, "path": str(src), **figures})
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(
        f"{args.seconds:g} s per figure; people act over {args.people_act}; "
        "the benchmark's clients run on the same machine as the servers"
    )
    for r in results:
        head = f"{r['src']} ({r['path']}), {r['processes']} process(es)"
        if "state" in r:
            s = r["state"]
            print(
                f"{r['src']}: STATE at a manual-pegging decision: {s['bytes']:,} bytes, "
                f"{s['listed']} entries in its {s['key']!r} (goal <= 3 KB)"
            )
        for name, words in (("people_only", "people only"), ("with_computers", "with computers elsewhere")):
            c = r[name]
            print(
                f"{head}, {words}: {c['actions_per_cpu_s']} actions per server CPU-second "
                f"({c['table_actions']} at the two-person table(s) + {c['computer_table_actions']} "
                f"against normal computers, {c['cpu_s']} CPU s in {c['wall_s']} s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
