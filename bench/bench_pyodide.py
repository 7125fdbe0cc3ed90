"""Benchmark of the package's own engine in the browser: Pyodide in a Web Worker, in headless
Chromium, beside the same games played natively (issue 45's first step; docs/pyodide.md).

    python bench/bench_pyodide.py [--decisions 300] [--hints 150] [--seed 1000] [--json]

Needs ``npm ci`` (package.json's ``pyodide``: node_modules/pyodide), Playwright (the test
extra) and Debian's ``chromium`` (or ``CRIBBAGE_CHROMIUM``).

1. **Files.**  The modules a game against the computer imports are found by importing
   ``bench/pyodide/worker_calls.py`` (the worker's Python: the table, the players, the AI and
   the engine) in a fresh interpreter and listing the ``cribbage`` modules it loaded; with the
   AI's data tables they are zipped, in memory, from the installed package (no copy is kept).
2. **Server.**  A small HTTP server on 127.0.0.1 serves node_modules/pyodide at ``/pyodide/``,
   that zip at ``/engine/cribbage.zip`` and the page, its worker and the calls module at
   ``/bench/``, with ``Cache-Control: max-age`` (as versioned files would be), counting the
   bytes it sends.
3. **Cold start.**  A fresh browser context opens the page: the worker loads Pyodide, fetches
   and imports the engine and makes a first hint (which loads the AI's data tables); printed
   with its parts and the bytes downloaded (and what they would be gzip-compressed).
4. **Warm start.**  The page loaded again in the same profile (from the HTTP cache), then a third
   time (Chromium may keep V8's compiled code of the WebAssembly module for it).
5. **Decisions.**  For each level (weak, normal, strong), whole games against the computer of
   that level (seeded) until the computer made ``--decisions`` decisions; a stand-in of the same
   level plays the person's seat, and before each of its decisions a hint is asked (the first
   ``--hints`` of the run).  The same games run first natively in this process through the same
   module, then in the worker; the p50/p95 of the computer's decisions (timed inside Python on
   both sides) and of the hints are printed side by side with the browser's ratio to native, and
   the page's round trip for a hint (what the page waits for).

Loops are bounded (about a minute and a half on a 2-core machine); traffic stays on 127.0.0.1; the
server and the browser are stopped at the end.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "pyodide"
PYODIDE = ROOT / "node_modules" / "pyodide"
LEVELS = ("weak", "normal", "strong")
MAX_AGE = 3600

PAGE = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cribbage under Pyodide: bench</title>
<script type="module" src="page.js"></script></head><body>bench</body></html>
"""

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
}

# Imports worker_calls in a fresh interpreter and prints the cribbage modules' files it loaded.
CLOSURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
began = time.perf_counter()
import worker_calls
imported = time.perf_counter() - began
warm = json.loads(worker_calls.warm())
loaded = [m for name, m in sys.modules.items() if name.split(".")[0] == "cribbage"]
files = sorted(m.__file__ for m in loaded if m.__file__)
print(json.dumps({"files": files, "import": imported, "warm": warm["seconds"]}))
"""


# --------------------------------------------------------------------------- the engine's files


@dataclass(frozen=True)
class Engine:
    """The engine's files a game against the computer needs, from the installed package."""

    files: dict[str, bytes]
    """Path in the zip (``cribbage/...``) to content: the modules imported and the AI's data."""
    native_import: float
    native_warm: float

    def zipped(self) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, data in sorted(self.files.items()):
                archive.writestr(name, data)
        return buffer.getvalue()

    def sizes(self) -> dict[str, int]:
        """Bytes of the modules and of the data tables."""
        code = sum(len(d) for n, d in self.files.items() if n.endswith(".py"))
        return {
            "modules": sum(n.endswith(".py") for n in self.files),
            "code": code,
            "data": self.total - code,
        }

    @property
    def total(self) -> int:
        return sum(len(d) for d in self.files.values())


def engine_files() -> Engine:
    """Import the worker's module in a fresh interpreter; its cribbage modules and the AI data."""
    done = subprocess.run(
        [sys.executable, "-c", CLOSURE, str(HERE)], capture_output=True, text=True, check=True, timeout=120
    )
    found = json.loads(done.stdout)
    package = resources.files("cribbage")
    base = Path(str(package)).parent
    files = {Path(f).relative_to(base).as_posix(): Path(f).read_bytes() for f in found["files"]}
    data = package.joinpath("ai", "data")
    for entry in data.iterdir():
        if entry.name.endswith(".json"):
            files[f"cribbage/ai/data/{entry.name}"] = entry.read_bytes()
    return Engine(files, found["import"], found["warm"])


# --------------------------------------------------------------------------- the server


@dataclass
class Served:
    """What the server sent, by phase of the bench."""

    phase: str = "cold"
    sent: list[tuple[str, str, int, int]] = field(default_factory=list)
    """(phase, path, status, body bytes) of every answer."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def log(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.sent.append((self.phase, path, status, size))

    def of(self, phase: str) -> list[tuple[str, int, int]]:
        with self.lock:
            return [(path, status, size) for p, path, status, size in self.sent if p == phase]


def make_server(engine_zip: bytes, served: Served) -> ThreadingHTTPServer:
    """The bench's HTTP server on a free port of 127.0.0.1."""
    roots = {"/pyodide/": PYODIDE, "/bench/": HERE}
    fixed = {"/bench/": PAGE, "/bench/index.html": PAGE, "/engine/cribbage.zip": engine_zip}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            body = fixed.get(path)
            if body is None:
                body = self.file(path)
            if body is None:
                self.send_error(HTTPStatus.NOT_FOUND)
                served.log(path, HTTPStatus.NOT_FOUND, 0)
                return
            suffix = Path(path).suffix or ".html"
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", TYPES.get(suffix, "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", f"max-age={MAX_AGE}")
            # Cross-origin isolated: the worker's clock (performance.now, Python's perf_counter
            # under Pyodide) then has a resolution of 5 µs instead of 100 µs.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.end_headers()
            self.wfile.write(body)
            served.log(path, HTTPStatus.OK, len(body))

        def file(self, path: str) -> bytes | None:
            for prefix, root in roots.items():
                if path.startswith(prefix):
                    target = (root / path[len(prefix) :]).resolve()
                    if target.is_relative_to(root) and target.is_file():
                        return target.read_bytes()
            return None

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


def gzipped(paths: Sequence[str], engine_zip: bytes) -> int:
    """What the files at ``paths`` would weigh gzip-compressed (level 6, as a server sends)."""
    total = 0
    for path in paths:
        if path == "/engine/cribbage.zip":
            data = engine_zip
        elif path.startswith("/pyodide/"):
            data = (PYODIDE / path[len("/pyodide/") :]).read_bytes()
        elif path.startswith("/bench/") and path.endswith((".js", ".py")):
            data = (HERE / path[len("/bench/") :]).read_bytes()
        else:
            data = PAGE
        total += len(gzip.compress(data, 6))
    return total


# --------------------------------------------------------------------------- the games


Call = Callable[..., dict[str, Any]]
"""Sends one message (type, then its arguments) and returns the answer."""


@dataclass
class Run:
    """The times of one side's games (seconds, except the round trips in ms)."""

    decisions: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    hints: list[tuple[str, float]] = field(default_factory=list)
    hint_round_trips: list[float] = field(default_factory=list)
    decide_round_trips: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    """Steps of every answer, in order: the same games on both sides give the same list."""
    seconds: float = 0.0


def play(call: Call, decisions: int, hints: int, seed: int) -> Run:
    """Games against each level until its computer made ``decisions`` decisions, a hint before
    each of the person's decisions (the first ``hints``)."""
    run, began = Run(), time.perf_counter()
    for level in LEVELS:
        times = run.decisions.setdefault(level, [])
        game = seed
        while len(times) < decisions:
            answer = call("start", level=level, seed=game, variant="standard")
            while True:
                run.steps.append(answer["steps"])
                times += [(kind, seconds) for kind, seconds in answer["decisions"]]
                if answer["over"] or len(times) >= decisions:
                    break
                if len(run.hints) < hints:
                    given = call("hint")
                    run.hints.append((given["kind"], given["seconds"]))
                    if "round_trip_ms" in given:
                        run.hint_round_trips.append(given["round_trip_ms"])
                answer = call("decide")
                if "round_trip_ms" in answer:
                    run.decide_round_trips.append(answer["round_trip_ms"])
            game += 1
    run.seconds = time.perf_counter() - began
    return run


def native_calls() -> Call:
    """The messages answered in this process, by the same module as the worker's."""
    spec = importlib.util.spec_from_file_location("worker_calls", HERE / "worker_calls.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    functions = {"start": module.start, "decide": module.decide, "hint": module.hint}

    def call(type: str, **args: Any) -> dict[str, Any]:
        answer = json.loads(functions[type](**args))
        assert isinstance(answer, dict)
        return answer

    return call


# --------------------------------------------------------------------------- the browser


def find_chromium() -> str:
    for candidate in (os.environ.get("CRIBBAGE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise SystemExit("no chromium: install Debian's chromium or set CRIBBAGE_CHROMIUM")


@dataclass
class Browser:
    cold: dict[str, Any]
    warm: dict[str, Any]
    third: dict[str, Any]
    """The third visit: Chromium may keep V8's compiled code of the wasm module for it."""
    run: Run
    user_agent: str


def in_browser(base: str, served: Served, decisions: int, hints: int, seed: int) -> Browser:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # A profile of its own on disk, as a visitor's browser has: an off-the-record context's
        # cache is in memory and too small to keep pyodide.asm.wasm for the second visit.
        profile = tempfile.mkdtemp(prefix="bench-pyodide-")
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=find_chromium(), headless=True
        )
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            served.phase = "cold"
            page.goto(f"{base}/bench/")
            cold = ready(page, errors)
            served.phase = "warm"
            page.goto(f"{base}/bench/?again")
            warm = ready(page, errors)
            served.phase = "third"
            page.goto(f"{base}/bench/?third")
            third = ready(page, errors)
            served.phase = "games"

            def call(type: str, **args: Any) -> dict[str, Any]:
                answer = page.evaluate("([type, args]) => window.engine(type, args)", [type, args])
                assert isinstance(answer, dict)
                return answer

            run = play(call, decisions, hints, seed)
            agent = page.evaluate("navigator.userAgent")
            return Browser(cold, warm, third, run, str(agent))
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def ready(page: Any, errors: list[str]) -> dict[str, Any]:
    try:
        answer = page.evaluate("window.ready")
    except Exception as exc:
        raise SystemExit(f"the worker did not start: {exc}; page errors: {errors}") from None
    assert isinstance(answer, dict)
    return answer


# --------------------------------------------------------------------------- report


def at(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile as bench_ai.py takes it (the value at ``int(q * n)`` of the sorted)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95 and max in ms, and n."""
    if not values:
        return {"n": 0}
    return {
        "p50": at(values, 0.5) * 1000,
        "p95": at(values, 0.95) * 1000,
        "max": max(values) * 1000,
        "n": len(values),
    }


def ratio(browser: float, native: float) -> str:
    return f"{browser / native:.1f}" if native > 0 else "-"


def side_by_side(label: str, native: Sequence[float], browser: Sequence[float]) -> dict[str, Any]:
    n, b = quantiles(native), quantiles(browser)
    row: dict[str, Any] = {"native": n, "browser": b}
    if n["n"] and b["n"]:
        row["ratio_p50"] = b["p50"] / n["p50"] if n["p50"] else None
        row["ratio_p95"] = b["p95"] / n["p95"] if n["p95"] else None
        print(
            f"  {label:16} native p50 {n['p50']:7.2f} p95 {n['p95']:7.2f} ms │"
            f" browser p50 {b['p50']:7.2f} p95 {b['p95']:7.2f} max {b['max']:7.1f} ms │"
            f" ×{ratio(b['p50'], n['p50'])} / ×{ratio(b['p95'], n['p95'])}  (n={b['n']})"
        )
    return row


def report(
    engine: Engine, engine_zip: bytes, served: Served, native: Run, browser: Browser
) -> dict[str, Any]:
    sizes = engine.sizes()
    print(
        f"engine files: {sizes['modules']} modules, {sizes['code'] / 1024:.0f} KiB of Python and"
        f" {sizes['data'] / 1024:.0f} KiB of AI data; zipped {len(engine_zip) / 1024:.0f} KiB"
    )
    first = served.of("cold")
    first_bytes = sum(size for _, _, size in first)
    first_gzip = gzipped([path for path, status, _ in first if status == HTTPStatus.OK], engine_zip)
    again = served.of("warm")
    print(
        f"first visit: {len(first)} requests, {first_bytes / 1e6:.2f} MB"
        f" ({first_gzip / 1e6:.2f} MB if served gzip-compressed);"
        f" second visit: {len(again)} requests, {sum(s for _, _, s in again) / 1e6:.2f} MB"
    )
    for path, _, size in sorted(first, key=lambda row: -row[2])[:6]:
        print(f"    {size / 1e6:6.2f} MB  {path}")
    cold, warm = browser.cold, browser.warm
    print(
        f"browser: {browser.user_agent}; Python {cold['python']} under Pyodide;"
        f" cross-origin isolated (5 µs clock): {cold['isolated']}"
    )

    def start(name: str, data: dict[str, Any]) -> None:
        print(
            f"{name}: ready {data['since_navigation_ms']:.0f} ms after navigation:"
            f" Pyodide {data['pyodide_ms']:.0f} ms, engine fetched {data['fetch_ms']:.0f} ms,"
            f" imported {data['import_ms']:.0f} ms, first hint (loads the AI tables) {data['warm_ms']:.0f} ms"
        )

    start("cold start", cold)
    start("warm start", warm)
    start("third visit", browser.third)
    print(
        f"native (Python {sys.version.split()[0]}): import {engine.native_import * 1000:.0f} ms,"
        f" first hint {engine.native_warm * 1000:.0f} ms"
    )
    same = native.steps == browser.run.steps
    print(
        f"decisions of the computer (same games on both sides: {'yes' if same else 'NO'};"
        f" native {native.seconds:.1f} s, browser {browser.run.seconds:.1f} s):"
    )
    rows: dict[str, Any] = {}
    for level in LEVELS:
        n_times = [s for _, s in native.decisions[level]]
        b_times = [s for _, s in browser.run.decisions[level]]
        rows[level] = side_by_side(level, n_times, b_times)
        for kind in ("discard", "play"):
            rows[f"{level} {kind}"] = side_by_side(
                f"  {kind}",
                [s for k, s in native.decisions[level] if k == kind],
                [s for k, s in browser.run.decisions[level] if k == kind],
            )
    print("hints:")
    rows["hint"] = side_by_side("hint", [s for _, s in native.hints], [s for _, s in browser.run.hints])
    for kind in ("discard", "play"):
        rows[f"hint {kind}"] = side_by_side(
            f"  {kind}",
            [s for k, s in native.hints if k == kind],
            [s for k, s in browser.run.hints if k == kind],
        )
    trips = quantiles([ms / 1000 for ms in browser.run.hint_round_trips])
    decides = quantiles([ms / 1000 for ms in browser.run.decide_round_trips])
    if trips["n"]:
        print(f"  page's round trip of a hint: p50 {trips['p50']:.1f} ms, p95 {trips['p95']:.1f} ms")
    if decides["n"]:
        print(
            f"  page's round trip of an action (the stand-in's decision, the computer's answer):"
            f" p50 {decides['p50']:.1f} ms, p95 {decides['p95']:.1f} ms"
        )
    strong = rows["strong"]
    if "ratio_p95" in strong:
        p95 = strong["browser"]["p95"]
        ok = strong["ratio_p95"] <= 4 and p95 < 300
        print(
            f"issue 45's target, strong's p95 in the browser at most 4× native and under 300 ms:"
            f" {p95:.0f} ms, ×{strong['ratio_p95']:.1f}: {'met' if ok else 'NOT met'}"
        )
    if "browser" in rows["hint"] and rows["hint"]["browser"]["n"]:
        p95 = rows["hint"]["browser"]["p95"]
        print(
            f"issue 45's target, hints under 200 ms (p95): {p95:.0f} ms: {'met' if p95 < 200 else 'NOT met'}"
        )
    return {
        "engine": {**sizes, "zip": len(engine_zip), "files": sorted(engine.files)},
        "first_visit": {"requests": len(first), "bytes": first_bytes, "gzip_bytes": first_gzip},
        "second_visit": {"requests": len(again), "bytes": sum(s for _, _, s in again)},
        "cold": cold,
        "warm": warm,
        "third": browser.third,
        "native_start": {"import_ms": engine.native_import * 1000, "warm_ms": engine.native_warm * 1000},
        "same_games": same,
        "times": rows,
        "hint_round_trip": trips,
        "action_round_trip": decides,
        "load_average": os.getloadavg(),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=300, help="computer decisions timed per level")
    parser.add_argument("--hints", type=int, default=150, help="hints timed in the run")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed (then +1 a game)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    args = parser.parse_args(argv)
    if not (PYODIDE / "pyodide.mjs").is_file():
        raise SystemExit(f"no Pyodide at {PYODIDE}: run `npm ci`")
    engine = engine_files()
    engine_zip = engine.zipped()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    native = play(native_calls(), args.decisions, args.hints, args.seed)
    served = Served()
    server = make_server(engine_zip, served)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        browser = in_browser(f"http://{host!s}:{port}", served, args.decisions, args.hints, args.seed)
    finally:
        server.shutdown()
        server.server_close()
    figures = report(engine, engine_zip, served, native, browser)
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
