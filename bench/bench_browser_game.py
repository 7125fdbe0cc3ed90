"""Benchmark of what a game against the computer costs the server, played at the server and played
in the browser's engine, and of what a visit downloads (issue 45's "Numbers"; docs/pyodide.md,
"The server's side and the downloads").

    python bench/bench_browser_game.py [--games 5] [--visits 3] [--seed 1000] [--json]

Needs Playwright (the test extra) and Debian's ``chromium`` (or ``CRIBBAGE_CHROMIUM``), and
Pyodide's files where ``cribbage serve`` finds them (``npm ci`` in a checkout).

How it counts.  Every request goes through a small proxy of the bench's own on 127.0.0.1 in
front of the server, which reads the HTTP/1.1 framing of both directions and notes, for every
answer, its request's method and path, its status, and the bytes of its head and of its body as
they went over the wire (gzip-encoded when the server gzipped it; chunk framing counted in the
body).  So the figures are what the server answered, whoever asked: the page, its engine worker,
the service worker's precache and revalidations (the page's own Chrome DevTools events miss the
service worker's fetches, and ``cribbage serve`` keeps no access log).  The proxy changes nothing
in the requests or the answers.  The server's CPU is its process's user + system time
(``/proc/PID/stat``, ticks of 10 ms), read before and after each part once the server answers.

1. **A game at the server.**  The real ``cribbage serve`` (its own SQLite file): one warm-up game,
   then ``--games`` whole games against ``normal`` through the HTTP API as a client keeping its
   connection: ``POST /api/games {"level": "normal", "seed": N}``, then each action taken from
   the STATE's templates (:func:`cribbage.engine.templates.choices`) until the game is over.
2. **A game in the browser.**  ``--games`` times, a fresh Chromium profile opens ``/``: the
   service worker keeps the shell, the engine starts (``startEngine``), a whole game against
   ``normal`` is played through ``engineCall`` (as tests/browser/test_local_engine_e2e.py), then a
   second game in the same page.  Its requests, split into the shell (``/offline.json``'s
   ``files``, the list itself and ``/sw.js``), the engine (its ``engine`` files) and the API, are
   the first visit's download.
3. **A visit after an update.**  The server started again (by a launcher in the bench that runs
   ``cribbage serve`` with ``Settings(static_dir=...)``, the only difference) on copies of the
   static folder, behind the same proxy port (the same origin), and one Chromium profile kept
   across: release 1 (a copy of the static folder), a revisit of it, release 2 (the same but
   ``game/app.js`` changed) and release 3 (release 2 with the engine's zip changed: the launcher
   makes it with one file of the package's engine differing by a comment).  Each visit waits for
   its shell to be kept whole and starts the engine.

Bounded loops; traffic only to 127.0.0.1; the servers, the proxy and the browsers stop at the end
(two to three minutes on a 2-core machine).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cribbage.engine.templates import choices
from cribbage.web.settings import STATIC_DIR

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
MAX_ACTIONS = 400
"""A bound on the actions of one game (a standard game against the computer takes about 45)."""
CHANGED_MODULE = "game/app.js"
"""The static module release 2 changes (the page's entry module)."""
CHANGED_ENGINE_FILE = "cribbage/engine/__init__.py"
"""The engine's file release 3 changes (a comment appended: the zip differs)."""
CONSOLE: list[str] = []
"""The warnings and errors the pages and workers wrote to the console (told when a wait fails)."""
SETTLE = 0.5
"""Seconds waited after a part before its counts and CPU are read (the last answers flushed)."""

# Runs ``cribbage serve`` with another static folder (argv[1]) and, with argv[2] == "1", the
# engine's zip made with one file differing (a comment appended).  The rest of argv is serve's.
LAUNCHER = """
import dataclasses, gc, sys, tempfile
from pathlib import Path
import cribbage.web.engine_files as engine_files
import cribbage.web.server as server
from cribbage.cli import main
from cribbage.web.settings import Settings

static, engine_changed, changed_file, *serve = sys.argv[1:]
if engine_changed == "1":
    original = engine_files._engine_files
    def changed_files():
        files = []
        for name, path in original():
            if name == changed_file:
                copy = Path(tempfile.mkdtemp()) / path.name
                copy.write_bytes(path.read_bytes() + b"\\n# a release that changed the engine\\n")
                path = copy
            files.append((name, path))
        return files
    engine_files._engine_files = changed_files

def app_from_environment():
    app = server.create_app(dataclasses.replace(Settings.from_environment(), static_dir=Path(static)))
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    return app

server.app_from_environment = app_from_environment
sys.exit(main(["serve", *serve]))
"""

START_ENGINE = """async () => {
  const engine = await import('/static/engine/engine.js');
  const began = performance.now();
  await engine.startEngine();
  return performance.now() - began;
}"""

CALL = """async ([call, args]) => {
  const engine = await import('/static/engine/engine.js');
  try {
    return { ok: await engine.engineCall(call, ...args) };
  } catch (err) {
    return { error: { code: err.code, message: String(err.message || err) } };
  }
}"""

SHELL_SEEN = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const state = (worker) => worker ? worker.state : null;
  const worker = (name) => state(registration && registration[name]);
  return { caches: await caches.keys(), controlled: !!navigator.serviceWorker.controller,
    active: worker('active'), installing: worker('installing'), waiting: worker('waiting') };
}"""

SHELL_KEPT = """async (version) => {
  const name = 'cribbage-shell-' + version;
  if (!(await caches.has(name))) return false;
  if (!(await (await caches.open(name)).match('/offline.json'))) return false;
  const registration = await navigator.serviceWorker.getRegistration();
  return !!(registration && registration.active && !registration.installing && !registration.waiting
    && navigator.serviceWorker.controller);
}"""


# --------------------------------------------------------------------------- the counting proxy


@dataclass(frozen=True)
class Answer:
    """One answer of the server, as it went over the wire."""

    phase: str
    method: str
    path: str
    status: int
    head: int
    """Bytes of the status line and headers."""
    body: int
    """Bytes of the body as sent: gzip-encoded when it was (chunk framing included)."""
    encoding: str


class Framing:
    """The HTTP/1.1 framing of one direction of a connection, read incrementally: calls
    ``done(start line, headers, head bytes, body bytes)`` for each whole message.  Requests have a
    body by ``Content-Length`` or chunked; answers also none (HEAD, 1xx, 204, 304), or until the
    connection closes; after a ``101`` the rest is a tunnel and no longer read."""

    def __init__(self, answers: bool, done: Callable[[str, dict[str, str], int, int], None]) -> None:
        self.answers = answers
        self.done = done
        self.buffer = bytearray()
        self.state = "head"
        self.remaining = 0
        self.line = ""
        self.headers: dict[str, str] = {}
        self.head_bytes = 0
        self.body_bytes = 0
        self.methods: deque[str] = deque()
        """The methods of the requests still to be answered (set by the other direction)."""

    def feed(self, data: bytes) -> None:
        if self.state == "tunnel":
            return
        self.buffer += data
        while self.step():
            pass

    def close(self) -> None:
        if self.state == "to_close":
            self.body_bytes += len(self.buffer)
            self.finish()

    def step(self) -> bool:
        """One step of the framing; False when more bytes are needed."""
        if self.state == "head":
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return False
            head = bytes(self.buffer[: end + 4])
            del self.buffer[: end + 4]
            lines = head.decode("latin-1").split("\r\n")
            self.line, self.head_bytes, self.body_bytes = lines[0], len(head), 0
            self.headers = {}
            for text in lines[1:]:
                if ":" in text:
                    name, value = text.split(":", 1)
                    self.headers[name.strip().lower()] = value.strip()
            self.begin_body()
            return True
        if self.state == "length":
            taken = min(self.remaining, len(self.buffer))
            del self.buffer[:taken]
            self.body_bytes += taken
            self.remaining -= taken
            if self.remaining == 0:
                self.finish()
                return True
            return False
        if self.state == "chunk_size":
            end = self.buffer.find(b"\r\n")
            if end < 0:
                return False
            size = int(bytes(self.buffer[:end]).split(b";")[0].strip() or b"0", 16)
            self.body_bytes += end + 2
            del self.buffer[: end + 2]
            if size == 0:
                self.state = "trailer"
            else:
                self.state, self.remaining = "chunk_data", size + 2
            return True
        if self.state == "chunk_data":
            taken = min(self.remaining, len(self.buffer))
            del self.buffer[:taken]
            self.body_bytes += taken
            self.remaining -= taken
            if self.remaining == 0:
                self.state = "chunk_size"
                return True
            return False
        if self.state == "trailer":
            end = self.buffer.find(b"\r\n")
            if end < 0:
                return False
            self.body_bytes += end + 2
            del self.buffer[: end + 2]
            if end == 0:
                self.finish()
            return True
        if self.state == "to_close":
            self.body_bytes += len(self.buffer)
            self.buffer.clear()
        return False

    def begin_body(self) -> None:
        length = self.headers.get("content-length")
        chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        if self.answers:
            status = int(self.line.split()[1])
            method = self.methods[0] if self.methods else "GET"
            if status == 101:
                self.finish()
                self.state = "tunnel"
                self.buffer.clear()
                return
            if 100 <= status < 200:  # an interim answer: the request is answered later
                self.state = "head"
                return
            if method == "HEAD" or status in (204, 304):
                self.finish()
                return
            if not chunked and length is None:
                self.state = "to_close"
                return
        elif not chunked and length is None:
            self.finish()
            return
        if chunked:
            self.state = "chunk_size"
        elif length is not None and int(length) > 0:
            self.state, self.remaining = "length", int(length)
        else:
            self.finish()

    def finish(self) -> None:
        self.done(self.line, self.headers, self.head_bytes, self.body_bytes)
        self.state = "head"


class Proxy:
    """A counting proxy on 127.0.0.1: every connection is passed to the current ``backend`` port,
    and each answer noted (:class:`Answer`) under the current ``phase``."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.backend = 0
        self.phase = "setup"
        self.answers: list[Answer] = []
        self.failures: list[str] = []
        """Framings not understood (the bytes passed, those answers not counted)."""
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.connection, args=(client,), daemon=True).start()

    def connection(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.backend), timeout=30)
        except OSError:
            client.close()
            return
        asked: deque[tuple[str, str]] = deque()

        def answered(line: str, headers: dict[str, str], head: int, body: int) -> None:
            method, path = asked.popleft() if asked else ("?", "?")
            if answers.methods:
                answers.methods.popleft()
            parts = line.split()
            status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            with self.lock:
                self.answers.append(
                    Answer(self.phase, method, path, status, head, body, headers.get("content-encoding", ""))
                )

        answers = Framing(True, answered)

        def requested(line: str, _headers: dict[str, str], _head: int, _body: int) -> None:
            parts = line.split()
            method, target = (parts[0], parts[1]) if len(parts) >= 2 else ("?", "?")
            asked.append((method, target.split("?", 1)[0]))
            answers.methods.append(method)

        requests = Framing(False, requested)
        pumps = [
            threading.Thread(target=self.pump, args=(client, upstream, requests), daemon=True),
            threading.Thread(target=self.pump, args=(upstream, client, answers), daemon=True),
        ]
        for pump in pumps:
            pump.start()
        for pump in pumps:
            pump.join()
        for end in (client, upstream):
            end.close()

    def pump(self, source: socket.socket, target: socket.socket, framing: Framing) -> None:
        source.settimeout(None)
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                try:
                    framing.feed(data)  # first: a request is noted before the server can answer it
                except Exception as exc:  # a framing not understood: noted, the bytes still pass
                    framing.state = "tunnel"
                    with self.lock:
                        self.failures.append(f"{type(exc).__name__}: {exc}")
                target.sendall(data)
        except OSError:
            pass
        finally:
            framing.close()
            with contextlib.suppress(OSError):
                target.shutdown(socket.SHUT_WR)
            with contextlib.suppress(OSError):
                source.shutdown(socket.SHUT_RD)

    def of(self, phase: str) -> list[Answer]:
        with self.lock:
            return [answer for answer in self.answers if answer.phase == phase]

    def close(self) -> None:
        self.listener.close()


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    """A running ``cribbage serve`` (or the launcher's), its process and port."""

    process: subprocess.Popen[bytes]
    port: int

    def cpu(self) -> float:
        """The process's user + system CPU time so far, in seconds (10 ms ticks)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


@contextlib.contextmanager
def serving(work: Path, name: str, launcher: Sequence[str] | None = None) -> Iterator[Server]:
    """``cribbage serve`` on a free port of 127.0.0.1 with its own SQLite file in ``work`` (or the
    launcher's arguments before serve's); yields it once ``/`` answers, stops it after."""
    serve = ["--host", "127.0.0.1", "--port", "0", "--db", str(work / f"{name}.db")]
    if launcher is None:
        command = [sys.executable, "-m", "cribbage", "serve", *serve]
    else:
        command = [sys.executable, "-c", LAUNCHER, *launcher, *serve]
    env = {**os.environ, "TMPDIR": str(work)}  # the launcher's changed engine zip stays in ``work``
    log_path = work / f"{name}.log"
    with open(log_path, "wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)
    try:
        port = answering(process, log_path, time.monotonic() + 60)
        yield Server(process, port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def answering(process: subprocess.Popen[bytes], log: Path, deadline: float) -> int:
    """The port the server announced, once its page answers there."""
    while time.monotonic() < deadline:
        said = log.read_bytes()
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}: {said.decode()[-2000:]}")
        announced = re.search(rb"Open http://127\.0\.0\.1:(\d+) ", said)
        if announced:
            port = int(announced[1])
            with contextlib.suppress(OSError, http.client.HTTPException):
                if get(port, "/")[0] == 200:
                    return port
        time.sleep(0.1)
    raise SystemExit(f"the server did not answer in time: {log.read_text()[-2000:]}")


def get(port: int, path: str) -> tuple[int, bytes]:
    """A GET straight to the server (not through the proxy: not counted)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def listing(port: int) -> dict[str, Any]:
    status, body = get(port, "/offline.json")
    if status != 200:
        raise SystemExit(f"/offline.json: {status}")
    found: dict[str, Any] = json.loads(body)
    return found


# --------------------------------------------------------------------------- a game at the server


class Client:
    """The HTTP API through one kept connection (as a page's ``fetch`` keeps it)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = ""

    def call(self, method: str, path: str, body: object | None = None) -> Any:
        headers = {"Accept-Encoding": "gzip", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, data, headers)
        answer = self.connection.getresponse()
        raw = answer.read()
        if answer.getheader("content-encoding") == "gzip":
            raw = gzip.decompress(raw)
        if answer.status >= 300:
            raise SystemExit(f"{method} {path}: {answer.status} {raw[:300]!r}")
        return json.loads(raw)

    def close(self) -> None:
        self.connection.close()


def game_at_server(port: int, seed: int) -> int:
    """A whole game against ``normal`` through the HTTP API; returns the person's actions."""
    client = Client(port)
    try:
        created = client.call("POST", "/api/games", {"level": "normal", "seed": seed})
        client.token, game, state = created["token"], created["id"], created["state"]
        actions = 0
        for _ in range(MAX_ACTIONS):
            if state["over"]:
                return actions
            if not state["actions"]:  # not expected against the computer: the state again
                time.sleep(0.05)
                state = client.call("GET", f"/api/games/{game}")
                continue
            action = {**next(choices(state["actions"][0])), "version": state["version"]}
            state = client.call("POST", f"/api/games/{game}/actions", action)
            actions += 1
        raise SystemExit(f"the game at the server did not end in {MAX_ACTIONS} actions")
    finally:
        client.close()


# --------------------------------------------------------------------------- a game in the browser


def engine_call(page: Any, name: str, *args: Any) -> Any:
    answer = page.evaluate(CALL, [name, list(args)])
    if "ok" not in answer:
        raise SystemExit(f"engineCall {name}: {answer}")
    return answer["ok"]


def game_in_browser(page: Any, game: str, seed: int) -> int:
    """A whole game against ``normal`` in the page's engine; returns the person's actions."""
    state = engine_call(page, "new", game, {"level": "normal", "seed": seed})
    for actions in range(MAX_ACTIONS):
        if state["over"]:
            return actions
        action = {**next(choices(state["actions"][0])), "version": state["version"]}
        state = engine_call(page, "act", game, action)
    raise SystemExit(f"the game in the browser did not end in {MAX_ACTIONS} actions")


def find_chromium() -> str:
    for candidate in (os.environ.get("CRIBBAGE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise SystemExit("no chromium: install Debian's chromium or set CRIBBAGE_CHROMIUM")


@contextlib.contextmanager
def profile(playwright: Any, work: Path, name: str) -> Iterator[Any]:
    """A Chromium context on a profile of its own on disk, as a visitor's browser has (an
    off-the-record context's cache is in memory, and too small to keep the WebAssembly)."""
    folder = work / f"profile-{name}"
    context = playwright.chromium.launch_persistent_context(
        str(folder), executable_path=find_chromium(), headless=True, viewport={"width": 1000, "height": 800}
    )
    context.set_default_timeout(120_000)
    context.on(
        "console",
        lambda message: CONSOLE.append(message.text) if message.type in ("warning", "error") else None,
    )
    try:
        yield context
    finally:
        context.close()
        shutil.rmtree(folder, ignore_errors=True)


def wait_for_shell(page: Any, version: str, timeout: float = 90.0) -> None:
    """Until the shell of ``version`` is kept whole and its worker controls the page (polled
    here: ``wait_for_function`` takes a pending promise for true)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(SHELL_KEPT, version):
        if time.monotonic() > deadline:
            seen = page.evaluate(SHELL_SEEN)
            raise SystemExit(
                f"the shell {version} was not kept in {timeout:.0f} s: {seen}; console: {CONSOLE[-5:]}"
            )
        time.sleep(0.2)


def open_page(context: Any, base: str, errors: list[str]) -> Any:
    for old in list(context.pages):
        old.close()
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/?lang=en")
    return page


# --------------------------------------------------------------------------- the figures


@dataclass
class Traffic:
    """The answers of one part, summed by kind."""

    requests: int = 0
    bytes: int = 0
    """Heads and bodies, as sent."""
    body: int = 0
    full: int = 0
    """Answers with a body (200s)."""
    not_modified: int = 0
    """304s: a revalidation, a head only."""
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    largest: list[tuple[str, int, int]] = field(default_factory=list)
    """The largest answers: (path, status, bytes)."""
    others: list[str] = field(default_factory=list)
    """The answers neither of the shell nor of the engine: "METHOD path status"."""
    full_answers: list[tuple[str, int]] = field(default_factory=list)
    """Every answer with its body (200): (path, bytes)."""


def kind_of(path: str, shell: set[str]) -> str:
    if path.startswith("/engine/"):
        return "engine"
    if path.startswith("/api/"):
        return "api"
    if path in shell or path in ("/offline.json", "/sw.js"):
        return "shell"
    return "other"


def traffic(answers: Sequence[Answer], shell: set[str]) -> Traffic:
    summed = Traffic()
    for answer in answers:
        size = answer.head + answer.body
        summed.requests += 1
        summed.bytes += size
        summed.body += answer.body
        summed.full += answer.status == 200
        summed.not_modified += answer.status == 304
        kind = summed.by_kind.setdefault(
            kind_of(answer.path, shell), {"requests": 0, "bytes": 0, "full": 0, "not_modified": 0}
        )
        kind["requests"] += 1
        kind["bytes"] += size
        kind["full"] += answer.status == 200
        kind["not_modified"] += answer.status == 304
        if answer.status == 200:
            summed.full_answers.append((answer.path, size))
        if kind_of(answer.path, shell) in ("api", "other"):
            summed.others.append(f"{answer.method} {answer.path} {answer.status}")
    ordered = sorted(answers, key=lambda a: a.head + a.body, reverse=True)
    summed.largest = [(a.path, a.status, a.head + a.body) for a in ordered[:6]]
    return summed


@dataclass
class Part:
    """One measured part: the server's CPU over it and what it answered."""

    label: str
    cpu: float
    """Seconds of the server's CPU (user + system)."""
    seconds: float
    traffic: Traffic
    actions: int = 0
    engine_start_ms: float = 0.0
    cpu_steps: dict[str, float] = field(default_factory=dict)
    """The server's CPU by step of a browser's visit: the shell kept, the engine started, the game."""


def measure(
    server: Server, proxy: Proxy, phase: str, shell: set[str], label: str, work: Callable[[], int]
) -> Part:
    """Run ``work`` (returning its actions) as ``phase``: the server's CPU and answers over it."""
    proxy.phase = phase
    began, cpu = time.perf_counter(), server.cpu()
    actions = work()
    time.sleep(SETTLE)
    part = Part(
        label, server.cpu() - cpu, time.perf_counter() - began - SETTLE, traffic(proxy.of(phase), shell)
    )
    part.actions = actions
    proxy.phase = "between"
    return part


def idle_rate(server: Server, seconds: float = 4.0) -> float:
    """The server's CPU seconds per second at rest (its clocks, pairing and pruning tasks)."""
    cpu = server.cpu()
    time.sleep(seconds)
    return (server.cpu() - cpu) / seconds


# --------------------------------------------------------------------------- the parts


def at_server(server: Server, proxy: Proxy, shell: set[str], games: int, seed: int) -> list[Part]:
    base = proxy.port
    parts = [measure(server, proxy, "warmup", shell, "warm-up game", lambda: game_at_server(base, seed - 1))]
    for number in range(games):
        game = functools.partial(game_at_server, base, seed + number)
        parts.append(measure(server, proxy, f"server-{number}", shell, f"game {number + 1}", game))
    return parts


def in_browser(
    playwright: Any, work: Path, server: Server, proxy: Proxy, shell: set[str], games: int, seed: int
) -> list[tuple[Part, Part]]:
    """Each: a fresh profile's first visit with a whole game, then a second game in its page."""
    return [browser_visit(playwright, work, server, proxy, shell, number, seed) for number in range(games)]


def browser_visit(
    playwright: Any, work: Path, server: Server, proxy: Proxy, shell: set[str], number: int, seed: int
) -> tuple[Part, Part]:
    """A fresh profile opens the page, starts the engine once the service worker controls the page
    (the shell kept), plays a whole game, then a second one in the same page."""
    base = f"http://127.0.0.1:{proxy.port}"
    errors: list[str] = []
    pages: list[Any] = []
    started: list[float] = []
    steps: dict[str, float] = {}
    with profile(playwright, work, f"game-{number}") as context:

        def visit_and_play() -> int:
            cpu = server.cpu()
            page = open_page(context, base, errors)
            page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
            steps["shell"], cpu = server.cpu() - cpu, server.cpu()
            started.append(float(page.evaluate(START_ENGINE)))
            steps["engine"], cpu = server.cpu() - cpu, server.cpu()
            pages.append(page)
            actions = game_in_browser(page, f"bench-{number}", seed + number)
            steps["game"] = server.cpu() - cpu
            return actions

        def again() -> int:
            return game_in_browser(pages[0], f"bench-again-{number}", seed + 100 + number)

        label = f"visit {number + 1}"
        first = measure(server, proxy, f"browser-{number}", shell, f"{label}: first game", visit_and_play)
        first.engine_start_ms, first.cpu_steps = started[0], steps
        second = measure(server, proxy, f"again-{number}", shell, f"{label}: second game, same page", again)
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return first, second


def static_copies(work: Path) -> tuple[Path, Path]:
    """Release 1's static folder (a copy of the package's) and release 2's (one module changed)."""
    ignore = shutil.ignore_patterns("__pycache__", ".*")
    one, two = work / "static-1", work / "static-2"
    shutil.copytree(STATIC_DIR, one, ignore=ignore)
    shutil.copytree(STATIC_DIR, two, ignore=ignore)
    changed = two / CHANGED_MODULE
    changed.write_bytes(changed.read_bytes() + b"\n// a release that changed this module\n")
    return one, two


@dataclass
class Visit:
    label: str
    version: str
    traffic: Traffic
    engine_start_ms: float
    seconds: float
    cpu: float
    """The server's CPU over the visit."""


def after_updates(playwright: Any, work: Path, proxy: Proxy) -> list[Visit]:
    """Release 1's first visit and revisit, then the visits after release 2 and release 3, in one
    profile, the server started again behind the same origin for each release."""
    one, two = static_copies(work)
    base = f"http://127.0.0.1:{proxy.port}"
    releases = [
        ("release 1: first visit", one, "0", "release-1"),
        ("release 1 again: a revisit", None, "0", "release-1"),
        (f"release 2: {CHANGED_MODULE} changed", two, "0", "release-2"),
        ("release 3: the engine's zip changed", two, "1", "release-3"),
    ]
    visits: list[Visit] = []
    errors: list[str] = []
    with profile(playwright, work, "updates") as context, contextlib.ExitStack() as stack:
        server: Server | None = None
        for label, static, engine_changed, name in releases:
            if static is not None:
                stack.close()
                server = stack.enter_context(
                    serving(work, name, [str(static), engine_changed, CHANGED_ENGINE_FILE])
                )
                proxy.backend = server.port
            assert server is not None
            shell = listing(server.port)
            phase = f"{name}-{len(visits)}"
            proxy.phase = phase
            began, cpu = time.perf_counter(), server.cpu()
            page = open_page(context, base, errors)
            wait_for_shell(page, shell["version"])
            start = float(page.evaluate(START_ENGINE))
            time.sleep(SETTLE)
            seconds, cpu = time.perf_counter() - began - SETTLE, server.cpu() - cpu
            proxy.phase = "between"
            visits.append(
                Visit(
                    label,
                    shell["version"],
                    traffic(proxy.of(phase), set(shell["files"])),
                    start,
                    seconds,
                    cpu,
                )
            )
        stack.close()
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return visits


# --------------------------------------------------------------------------- report


def kb(size: float) -> str:
    return f"{size / 1024:,.1f} KiB" if size < 1024 * 1024 else f"{size / 1024 / 1024:,.2f} MiB"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def print_parts(title: str, parts: Sequence[Part], idle: float) -> None:
    print(f"\n{title}")
    print(
        f"  {'':38} {'CPU':>8} {'net of idle':>11} {'time':>9} {'actions':>7} {'requests':>8} {'bytes':>12}"
    )
    for part in parts:
        print(
            f"  {part.label:38} {ms(part.cpu):>8} {ms(max(0.0, part.cpu - idle * part.seconds)):>11}"
            f" {part.seconds:>8.1f}s {part.actions:>7} {part.traffic.requests:>8}"
            f" {kb(part.traffic.bytes):>12}"
        )


def print_traffic(label: str, summed: Traffic) -> None:
    kinds = ", ".join(
        f"{kind} {v['requests']} ({v['full']} full, {v['not_modified']} 304) {kb(v['bytes'])}"
        for kind, v in sorted(summed.by_kind.items())
    )
    print(f"  {label:40} {summed.requests:>4} requests {kb(summed.bytes):>12}   {kinds}")


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def report(
    idle: float, server_parts: list[Part], browser_parts: list[tuple[Part, Part]], visits: list[Visit]
) -> dict[str, Any]:
    games = server_parts[1:]
    firsts = [first for first, _ in browser_parts]
    seconds = [second for _, second in browser_parts]
    print(f"server at rest: {ms(idle)} of CPU a second (its clocks and pairing tasks)")
    print_parts(
        "1a. a whole game against normal at the server (HTTP API, a kept connection)", server_parts, idle
    )
    print_parts("1b. a whole game against normal in the browser (a fresh profile's visit)", firsts, idle)
    print_parts("1c. a second game in the same page", seconds, idle)
    per_game_server = median([p.cpu for p in games])
    per_action = sum(p.cpu for p in games) / max(1, sum(p.actions for p in games))
    print("\nsummary (medians over the games)")
    requests, sent = median([p.traffic.requests for p in games]), median([p.traffic.bytes for p in games])
    actions = median([p.actions for p in games])
    print(
        f"  at the server: {ms(per_game_server)} of the server's CPU a game ({per_action * 1000:.1f} ms an"
        f" action, {actions:.0f} actions), {requests:.0f} requests, {kb(sent)}"
    )
    requests, sent = median([p.traffic.requests for p in firsts]), median([p.traffic.bytes for p in firsts])
    start = median([p.engine_start_ms for p in firsts])
    print(
        f"  in the browser, a first visit and its game: {ms(median([p.cpu for p in firsts]))} of the server's"
        f" CPU, {requests:.0f} requests, {kb(sent)} (the engine started in {start:,.0f} ms)"
    )
    steps = {
        step: median([p.cpu_steps.get(step, 0.0) for p in firsts]) for step in ("shell", "engine", "game")
    }
    print(
        f"  … of which the shell kept {ms(steps['shell'])}, the engine started {ms(steps['engine'])},"
        f" the game {ms(steps['game'])}"
    )
    print(
        f"  in the browser, a second game: {ms(median([p.cpu for p in seconds]))} of the server's CPU,"
        f" {median([p.traffic.requests for p in seconds]):.0f} requests"
    )
    print("\n2. the first visit's download (bytes as sent: heads and gzip-encoded bodies)")
    for first in firsts:
        print_traffic(first.label, first.traffic)
    if firsts:
        print(
            "  largest answers of visit 1: "
            + ", ".join(f"{p} {s} {kb(b)}" for p, s, b in firsts[0].traffic.largest)
        )
        print(f"  neither shell nor engine, visit 1: {', '.join(firsts[0].traffic.others) or 'none'}")
    print("\n3. visits after an update (one profile; the engine started at each visit)")
    for visit in visits:
        print_traffic(visit.label, visit.traffic)
        print(f"  {'':40} server CPU {ms(visit.cpu)}, engine started in {visit.engine_start_ms:,.0f} ms")
        full = sorted(visit.traffic.full_answers, key=lambda answer: -answer[1])
        if full and len(full) <= 20:
            print(f"  {'':40} full answers: {', '.join(f'{path} {kb(size)}' for path, size in full)}")
        elif full:
            print(f"  {'':40} the largest: {', '.join(f'{path} {kb(size)}' for path, size in full[:6])}")
    return {
        "idle_cpu_per_second": idle,
        "at_server": [asdict(p) for p in server_parts],
        "in_browser": [{"first": asdict(a), "second": asdict(b)} for a, b in browser_parts],
        "updates": [asdict(v) for v in visits],
        "summary": {
            "server_cpu_per_game_at_server": per_game_server,
            "server_cpu_per_action_at_server": per_action,
            "server_cpu_per_first_visit_in_browser": median([p.cpu for p in firsts]),
            "server_cpu_per_second_game_in_browser": median([p.cpu for p in seconds]),
            "server_cpu_first_visit_steps": steps,
            "first_visit_bytes": median([p.traffic.bytes for p in firsts]),
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=5, help="games at the server (default 5, at most 20)")
    parser.add_argument(
        "--visits", type=int, default=3, help="fresh profiles' visits, a game each (default 3, at most 10)"
    )
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    games, visits_wanted = max(1, min(20, args.games)), max(1, min(10, args.visits))
    from playwright.sync_api import sync_playwright

    proxy = Proxy()
    with tempfile.TemporaryDirectory(prefix="bench-browser-game-") as folder, sync_playwright() as playwright:
        work = Path(folder)
        try:
            with serving(work, "serve") as server:
                proxy.backend = server.port
                found = listing(server.port)
                if not found["engine"]:
                    raise SystemExit("this installation has no engine for the browser (npm ci)")
                shell = set(found["files"])
                idle = idle_rate(server)
                server_parts = at_server(server, proxy, shell, games, args.seed)
                browser_parts = in_browser(playwright, work, server, proxy, shell, visits_wanted, args.seed)
            visits = after_updates(playwright, work, proxy)
        finally:
            proxy.close()
    figures = report(idle, server_parts, browser_parts, visits)
    if proxy.failures:
        print(f"\nnot counted (a framing the proxy did not read): {proxy.failures}")
    figures["not_counted"] = proxy.failures
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
