"""Benchmark of the web server: action round trips with 1,000 games in progress, and page weight.

    python bench/bench_web.py [--games 1000] [--actions 600] [--seed 1] [--json]

Starts one real ``cribbage serve`` (uvicorn) on a free loopback port with a fresh SQLite file,
creates ``--games`` games in progress (half against ``normal``, half against ``strong``), then
times ``--actions`` human actions on randomly chosen games of each level over keep-alive HTTP:
the round trip includes checking the action, the computers' replies and saving the game.  It
prints

* the median round trip with ``normal`` (target: 20 ms or less),
* the 95th percentile with ``strong`` (target: 150 ms or less),
* the server's memory with every game in memory,
* the total size of the page: ``/`` and everything it loads from the server (scripts and their
  imports, style sheets and what they reference), as served (target: under 300 KB).

Every loop is bounded; traffic stays on 127.0.0.1; the server is killed at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

TARGET_NORMAL_MEDIAN_MS = 20.0
TARGET_STRONG_P95_MS = 150.0
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "cribbage", "serve", "--port", str(port), "--db", str(db)]
    # One address makes a thousand games: no abuse limit applies to a benchmark.
    command += ["--limit", "create=off", "--limit", "token=off"]
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


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Games:
    """The games in progress of one level, with their tokens and latest states."""

    def __init__(self, client: Client, level: str, rng: random.Random) -> None:
        self.client, self.level, self.rng = client, level, rng
        self.games: list[tuple[str, str, dict[str, Any]]] = []

    def create(self) -> tuple[str, str, dict[str, Any]]:
        status, data, _ = self.client.call("POST", "/api/games", {"level": self.level})
        assert status == 201, data
        return data["id"], data["token"], data["state"]

    def fill(self, count: int) -> None:
        for _ in range(count):
            self.games.append(self.create())

    def act(self) -> float:
        """One random legal action on a random game; returns the round trip (ms)."""
        index = self.rng.randrange(len(self.games))
        game_id, token, state = self.games[index]
        action = self.rng.choice(state["legal"])
        status, new, elapsed = self.client.call("POST", f"/api/games/{game_id}/actions", action, token)
        assert status == 200, new
        self.games[index] = (game_id, token, new) if not new["over"] else self.create()
        return elapsed


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
    parser.add_argument("--games", type=int, default=1000, help="games in progress (half of each level)")
    parser.add_argument("--actions", type=int, default=600, help="timed actions for each level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder) / "games.db", port)
        try:
            client = Client(port)
            levels = {level: Games(client, level, rng) for level in ("normal", "strong")}
            start = time.perf_counter()
            for games in levels.values():
                games.fill(args.games // 2)
            created = time.perf_counter() - start
            for games in levels.values():  # warm up: first imports, tables, caches
                for _ in range(20):
                    games.act()
            times = {level: [games.act() for _ in range(args.actions)] for level, games in levels.items()}
            memory = rss_mb(server.pid)
            total, files = page_size(client)
        finally:
            server.kill()
            server.wait(timeout=10)
    figures = {
        "games_in_progress": sum(len(g.games) for g in levels.values()),
        "create_seconds": round(created, 2),
        "normal_median_ms": round(statistics.median(times["normal"]), 2),
        "normal_p95_ms": round(percentile(times["normal"], 0.95), 2),
        "strong_median_ms": round(statistics.median(times["strong"]), 2),
        "strong_p95_ms": round(percentile(times["strong"], 0.95), 2),
        "server_rss_mb": round(memory, 1),
        "page_bytes": total,
        "page_files": files,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    n = figures["games_in_progress"]
    print(f"{n} games in progress in one server (created in {created:.1f} s); server memory {memory:.0f} MB")
    print(
        f"normal: median round trip {figures['normal_median_ms']} ms "
        f"(target <= {TARGET_NORMAL_MEDIAN_MS:g}), p95 {figures['normal_p95_ms']} ms"
    )
    print(
        f"strong: p95 round trip {figures['strong_p95_ms']} ms "
        f"(target <= {TARGET_STRONG_P95_MS:g}), median {figures['strong_median_ms']} ms"
    )
    print(f"page: {total / 1024:.1f} KB in {len(files)} files (target < {TARGET_PAGE_BYTES // 1024} KB)")
    for path, size in sorted(files.items()):
        print(f"  {size:8d}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
