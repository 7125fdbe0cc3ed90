"""Benchmark of the web server: memory with 10,000 games cached, the request rate one process
holds, action round trips, and page weight.

    python bench/bench_web.py [--quick] [--games N] [--cache-mb 256] [--seed 1] [--json]

1. **Games.**  Plays a pool of real games in this process (half against ``normal``, half against
   ``strong``; random legal actions for the person, stopped at a random point from the first
   discard to the end, the way players leave them), then stores ``--games`` copies of them under
   new ids and tokens in a fresh SQLite file.
2. **Memory.**  Starts one real ``cribbage serve`` (uvicorn) on a free loopback port with
   ``--cache-mb``, reads every game once (each is replayed from its record into its own cached
   session: the strong players relearn every hand), and prints the server's memory (RSS) then,
   and its peak (``VmHWM``) at the end, beside the cache's own estimate.
3. **Rate.**  Sends human actions (half on strong games, half on normal) from 1, 2, 4... keep-alive
   connections at once, for a few seconds each, and prints the rate of each step with its
   median and 95th percentile round trip; the rate held is the highest whose p95 is at most
   150 ms.  The round trip includes checking the action, the computers' replies and saving the
   game.  The client shares the machine's cores with the server.
4. **Page.**  The total size of ``/`` and everything it loads, as served (target: under 300 KB).

``--quick`` plays a smaller pool, caches 2,000 games and takes shorter rate steps (a minute or
two): the memory at 10,000 is then extrapolated from the growth over the second half of the games
read (memory grows linearly with the games cached), and says so.  Without it, 10,000 games are
cached and measured (several minutes).  Every loop is bounded; traffic stays on 127.0.0.1; the
server is killed at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from cribbage import storage as storage_tables
from cribbage.app import Actor, GameService, Options
from cribbage.app.games.live_game import LiveGame
from cribbage.app.games.options import hash_token
from cribbage.app.games.repository import estimate_bytes
from cribbage.engine.templates import choices
from cribbage.storage import Storage

TARGET_NORMAL_MEDIAN_MS = 20.0
TARGET_STRONG_P95_MS = 150.0
TARGET_P95_MS = 150.0
TARGET_PAGE_BYTES = 300 * 1024

HTML_REF = re.compile(r"""<(?:script|link|img|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
JS_IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w*{}\s,]+\s*from\s*)?|\bexport\s*[\w*{}\s,]+\s*from\s*|\bimport\s*\(\s*)["']([^"']+)["']"""
)
CSS_REF = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")


class Client:
    """JSON over one keep-alive HTTP connection to the server."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any, float]:
        """Status, JSON answer and round trip in milliseconds."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        payload = None if body is None else json.dumps(body)
        start = time.perf_counter()
        self.connection.request(method, path, payload, headers)
        response = self.connection.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        return response.status, json.loads(data) if data else None, elapsed

    def raw(self, path: str) -> tuple[int, bytes]:
        self.connection.request("GET", path)
        response = self.connection.getresponse()
        return response.status, response.read()


def offered(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action the ``STATE``'s templates (its ``actions``) allow, as sent."""
    return [choice for template in state["actions"] for choice in choices(template)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, port: int, cache_mb: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "cribbage", "serve", "--port", str(port), "--db", str(db)]
    # One address makes thousands of games: no abuse limit applies to a benchmark.
    command += ["--cache-mb", str(cache_mb)]
    command += [
        "--limit",
        "create=off",
        "--limit",
        "token=off",
        "--limit",
        "join=off",
        "--limit",
        "score=off",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    process.stdout.readline()  # "Open http://... in your browser"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            Client(port).raw("/openapi.json")
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """The process's resident memory (``VmHWM``: its peak so far), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


LEVELS = ("normal", "strong")


def play_pool(db: Path, per_level: int, rng: random.Random) -> list[tuple[str, str, int]]:
    """Real games, stopped at random points: (game id, level, estimated cache bytes) each."""
    service = GameService(Storage(f"sqlite:///{db}"))
    pool = []
    for level in LEVELS:
        for _ in range(per_level):
            new_game = service.create(Options(level=level, seed=rng.randrange(2**62)))
            token, state = new_game["token"], new_game["state"]
            game_id = state["id"]
            # Most games are left within a hand or two; some are played on, some to the end.
            stop = rng.randint(2, 30) if rng.random() < 0.7 else rng.randint(2, 160)
            for _ in range(stop):
                if state["over"]:
                    break
                state = service.act(game_id, Actor(token), rng.choice(offered(state)))
            pool.append((game_id, level, 0))
    service.close()
    restored = Storage(f"sqlite:///{db}")
    sized = []
    for game_id, level, _ in pool:
        stored = restored.games.load(game_id)
        assert stored is not None
        sized.append((game_id, level, estimate_bytes(LiveGame.restore(stored, restored.seats.load(game_id)))))
    restored.close()
    return sized


def clone_games(db: Path, pool: list[tuple[str, str, int]], count: int) -> list[tuple[str, str, str, int]]:
    """``count`` copies of the pool's games under new ids and tokens: (id, token, level, bytes).

    Written in one transaction (the rows the server's own ``insert`` writes, faster)."""
    storage = Storage(f"sqlite:///{db}")
    sources = {game_id: (storage.games.load(game_id), storage.seats.load(game_id)) for game_id, _, _ in pool}
    games, game_rows, seat_rows = [], [], []
    for i in range(count):
        source_id, level, size = pool[i % len(pool)]
        stored, seated = sources[source_id]
        assert stored is not None
        token = secrets.token_urlsafe(32)
        game_id = f"bench-{i:05d}-{secrets.token_hex(4)}"
        game_rows.append(
            {
                "id": game_id,
                "token_hash": hash_token(token),
                "options": json.dumps(stored.options, separators=(",", ":")),
                "record": json.dumps(stored.record, separators=(",", ":")),
                "version": stored.version,
                "over": stored.over,
                "created": stored.created,
                "updated": stored.updated,
            }
        )
        seat_rows += [
            {
                "game_id": game_id,
                "seat": seat.seat,
                "kind": seat.kind,
                "level": seat.level,
                "name": seat.name,
                "token_hash": hash_token(token) if seat.seat == 0 else seat.token_hash,
                "code": None,
                "taken": seat.taken,
            }
            for seat in seated
        ]
        games.append((game_id, token, level, size))
    with storage.engine.begin() as conn:
        conn.execute(storage_tables.games.insert(), game_rows)
        conn.execute(storage_tables.seats.insert(), seat_rows)
    storage.close()
    return games


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Player:
    """One keep-alive connection acting on games in progress of both levels, in turn: those of
    ``games`` whose place is ``first`` modulo ``step`` (no two connections share a game)."""

    def __init__(self, port: int, games: dict[str, list[Any]], first: int, step: int, seed: int) -> None:
        self.client = Client(port)
        self.games = games
        self.first, self.step = first, step
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = {level: [] for level in LEVELS}
        self.turn = 0

    def act(self) -> None:
        level = LEVELS[self.turn % 2]
        self.turn += 1
        mine = self.games[level]
        index = self.rng.randrange(self.first, len(mine), self.step)
        game_id, token, state = mine[index]
        action = self.rng.choice(offered(state))
        status, new, elapsed = self.client.call("POST", f"/api/games/{game_id}/actions", action, token)
        assert status == 200, new
        if new["over"]:
            status, new, _ = self.client.call("POST", "/api/games", {"level": level})
            assert status == 201, new
            game_id, token, new = new["id"], new["token"], new["state"]
        mine[index] = (game_id, token, new)
        self.times[level].append(elapsed)


def rate_step(
    port: int, states: dict[str, list[Any]], connections: int, seconds: float, seed: int
) -> dict[str, Any]:
    """Actions from ``connections`` connections at once for ``seconds``: rate and round trips.

    Each connection acts on games of its own (no two connections on one game)."""
    players = [Player(port, states, c, connections, seed * 100 + c) for c in range(connections)]
    for player in players:  # open the connections, warm them
        player.act()
        player.times = {level: [] for level in LEVELS}
    stop = time.monotonic() + seconds

    def run(player: Player) -> None:
        while time.monotonic() < stop:
            player.act()

    threads = [threading.Thread(target=run, args=(player,)) for player in players]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    times = {level: [t for p in players for t in p.times[level]] for level in LEVELS}
    every = times["normal"] + times["strong"]
    return {
        "connections": connections,
        "actions": len(every),
        "rate": round(len(every) / elapsed, 1),
        "median_ms": round(statistics.median(every), 1),
        "p95_ms": round(percentile(every, 0.95), 1),
        "normal_median_ms": round(statistics.median(times["normal"]), 1),
        "strong_p95_ms": round(percentile(times["strong"], 0.95), 1),
    }


def page_size(client: Client) -> tuple[int, dict[str, int]]:
    """The bytes of ``/`` and of everything it loads from the server, followed recursively."""
    sizes: dict[str, int] = {}
    queue = ["/"]
    while queue and len(sizes) < 200:
        path = queue.pop()
        if path in sizes:
            continue
        status, body = client.raw(path)
        if status != 200:
            print(f"  missing: {path} ({status})")
            sizes[path] = 0
            continue
        sizes[path] = len(body)
        text = body.decode("utf-8", "replace")
        if path == "/" or path.endswith(".html"):
            refs = HTML_REF.findall(text)
        elif path.endswith((".js", ".mjs")):
            refs = JS_IMPORT.findall(text)
        elif path.endswith(".css"):
            refs = [a or b for a, b in CSS_REF.findall(text)]
        else:
            refs = []
        for ref in refs:
            url = urlsplit(urljoin(path, ref))
            if not url.scheme and not url.netloc and url.path.startswith("/") and url.path != "/howto":
                queue.append(url.path)
    return sum(sizes.values()), sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller pool and shorter rate steps")
    parser.add_argument(
        "--games", type=int, default=0, help="games cached, half of each level (default 10000, quick 2000)"
    )
    parser.add_argument(
        "--pool", type=int, default=0, help="real games played per level (default 60, quick 4)"
    )
    parser.add_argument("--cache-mb", type=int, default=256, help="the server's --cache-mb")
    parser.add_argument(
        "--seconds", type=float, default=0, help="seconds per rate step (default 20, quick 4)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    pool_size = args.pool or (4 if args.quick else 60)
    args.games = args.games or (2000 if args.quick else 10_000)
    seconds = args.seconds or (4.0 if args.quick else 20.0)
    steps = (1, 2, 4) if args.quick else (1, 2, 4, 8, 16, 32)
    rng = random.Random(args.seed)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        progress(f"playing {2 * pool_size} games...")
        pool = play_pool(db, pool_size, rng)
        progress(f"storing {args.games} copies... ({time.perf_counter() - began:.0f} s)")
        games = clone_games(db, pool, args.games)
        progress(f"reading them into the server's cache... ({time.perf_counter() - began:.0f} s)")
        port = free_port()
        server = start_server(db, port, args.cache_mb)
        try:
            client = Client(port)
            states: dict[str, list[Any]] = {level: [] for level in LEVELS}
            start = time.perf_counter()

            def read(part: list[tuple[str, str, str, int]]) -> None:
                reader = Client(port)
                for game_id, token, level, _size in part:
                    status, state, _ = reader.call("GET", f"/api/games/{game_id}", token=token)
                    assert status == 200, state
                    if not state["over"]:
                        states[level].append((game_id, token, state))

            base_rss = rss_mb(server.pid)
            half = len(games) // 2
            read_rss = []
            for part in (games[:half], games[half:]):
                # Two connections: the client's work overlaps the server's replays.
                readers = [threading.Thread(target=read, args=(part[i::2],)) for i in range(2)]
                for reader in readers:
                    reader.start()
                for reader in readers:
                    reader.join()
                read_rss.append(rss_mb(server.pid))
            loaded = time.perf_counter() - start
            half_rss, loaded_rss = read_rss
            rates = []
            for connections in steps:
                progress(f"{connections} connections... ({time.perf_counter() - began:.0f} s)")
                rates.append(rate_step(port, states, connections, seconds, args.seed))
                if rates[-1]["p95_ms"] > 4 * TARGET_P95_MS and connections >= 2:
                    break
            total, files = page_size(client)
            end_rss, peak_rss = rss_mb(server.pid), rss_mb(server.pid, "VmHWM")
        finally:
            server.kill()
            server.wait(timeout=10)
    held = [step for step in rates if step["p95_ms"] <= TARGET_P95_MS]
    # Memory grows with the games cached: the second half's growth per game, from what was
    # measured, gives the figure at 10,000 when fewer were cached (--games).
    estimate = sum(size for *_, size in games)
    per_1000 = (loaded_rss - half_rss) / max(len(games) - len(games) // 2, 1) * 1000
    at_10000 = loaded_rss + per_1000 * (10_000 - len(games)) / 1000
    estimate_10000 = estimate / 2**20 * 10_000 / len(games)
    ratio = (loaded_rss - base_rss) / max(estimate / 2**20, 1e-9)
    figures = {
        "games_cached": len(games),
        "strong_games": sum(level == "strong" for _, _, level, _ in games),
        "finished_games": args.games - sum(len(v) for v in states.values()),
        "pool_per_level": pool_size,
        "cache_mb": args.cache_mb,
        "cache_estimate_mb": round(estimate / 2**20, 1),
        "cache_estimate_10000_mb": round(estimate_10000, 1),
        "rss_per_estimated_mb": round(ratio, 2),
        "load_seconds": round(loaded, 1),
        "rss_started_mb": round(base_rss, 1),
        "rss_loaded_mb": round(loaded_rss, 1),
        "rss_per_1000_games_mb": round(per_1000, 1),
        "rss_10000_games_mb": round(at_10000, 1),
        "rss_10000_measured": len(games) == 10_000,
        "rss_end_mb": round(end_rss, 1),
        "rss_peak_mb": round(peak_rss, 1),
        "rate_steps": rates,
        "rate_held": max((step["rate"] for step in held), default=0.0),
        "normal_median_ms": rates[0]["normal_median_ms"],
        "strong_p95_ms": rates[0]["strong_p95_ms"],
        "page_bytes": total,
        "page_files": files,
        "bench_seconds": round(time.perf_counter() - began, 1),
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print(
        f"{figures['games_cached']} games read into the cache ({figures['strong_games']} strong, "
        f"{figures['finished_games']} finished; copies of {2 * pool_size} played games), "
        f"read in {loaded:.1f} s"
    )
    print(
        f"server memory: {loaded_rss:.0f} MiB with every game cached, {end_rss:.0f} MiB at the end, "
        f"peak {peak_rss:.0f} MiB (cache estimate {figures['cache_estimate_mb']} MiB, "
        f"budget {args.cache_mb} MiB)"
    )
    how = "measured"
    if len(games) != 10_000:
        how = f"from {len(games)} games cached, {per_1000:.1f} MiB per 1,000 more"
    print(f"server memory with 10,000 games cached: {at_10000:.0f} MiB ({how}; {base_rss:.0f} MiB at start)")
    print(
        f"the cache's estimate at 10,000 games: {estimate_10000:.0f} MiB; the server's memory grew "
        f"{ratio:.2f} MiB per estimated MiB"
    )
    if estimate_10000 > args.cache_mb:
        print(
            f"  (over --cache-mb {args.cache_mb}: such a server keeps about "
            f"{int(10_000 * args.cache_mb / estimate_10000)} of them, and its memory stays near "
            f"{base_rss + ratio * args.cache_mb:.0f} MiB)"
        )
    print("connections  actions/s  median ms  p95 ms  (normal median, strong p95)")
    for step in rates:
        print(
            f"{step['connections']:11d}  {step['rate']:9.1f}  {step['median_ms']:9.1f}  {step['p95_ms']:6.1f}"
            f"  ({step['normal_median_ms']}, {step['strong_p95_ms']})"
        )
    print(f"rate held at p95 <= {TARGET_P95_MS:g} ms: {figures['rate_held']} actions/s (one process)")
    print(
        f"one connection: normal median {figures['normal_median_ms']} ms "
        f"(target <= {TARGET_NORMAL_MEDIAN_MS:g}), "
        f"strong p95 {figures['strong_p95_ms']} ms (target <= {TARGET_STRONG_P95_MS:g})"
    )
    print(f"page: {total / 1024:.1f} KB in {len(files)} files (target < {TARGET_PAGE_BYTES // 1024} KB)")
    for path, size in sorted(files.items()):
        print(f"  {size:8d}  {path}")
    print(f"({figures['bench_seconds']:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
