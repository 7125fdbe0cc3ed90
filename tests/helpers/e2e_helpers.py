"""Helpers for the browser tests: a real ``cribbage serve`` on a free port, Debian's Chromium
driven by Playwright, and a player that clicks through a game the way a person would.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from web_fixtures import first_action

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    """Debian's ``chromium`` (Playwright's own browser download is not used)."""
    for candidate in (os.environ.get("CRIBBAGE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(db: Path, timeout: float = 30.0, args: Sequence[str] = ()) -> Iterator[str]:
    """``cribbage serve`` in a subprocess with its own database, on a port the system chose for
    it (never one another test's server was about to take), with ``args`` added to its command
    line; yields the base URL once the page answers."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    command = [sys.executable, "-m", "cribbage", "serve", "--host", "127.0.0.1", "--port", "0"]
    # The server writes its output through a descriptor of its own and this process reads it
    # through another: a file shared with the child shares its offset, and a seek here to read
    # sent the server's next write to the start of the file (its "\n" over the "O" of "Open").
    with open(db.with_suffix(".log"), "wb") as output:
        proc = subprocess.Popen(
            [*command, "--db", str(db), *args], stdout=output, stderr=subprocess.STDOUT, env=env
        )
    log = open(db.with_suffix(".log"), "rb")  # noqa: SIM115 - closed below
    try:
        yield _answering(proc, log, time.monotonic() + timeout)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _answering(proc: subprocess.Popen[bytes], log: IO[bytes], deadline: float) -> str:
    """The base URL of the server ``proc`` once its page answers (the port it announced in its
    ``log``); a failure naming its output if it exits or does not answer by ``deadline``."""
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"cribbage serve exited with {proc.returncode}: {log.read().decode()[-2000:]}")
        log.seek(0)
        announced = re.search(rb"Open (http://127\.0\.0\.1:\d+) ", log.read())
        if announced:
            base = announced[1].decode()
            try:
                with urllib.request.urlopen(base + "/", timeout=2) as response:
                    if response.status == 200:
                        return base
            except OSError:
                pass
        if time.monotonic() > deadline:
            log.seek(0)
            said = log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"cribbage serve did not answer in time; it said: {said!r}")
        time.sleep(0.1)


PAGE_ERRORS: list[str] = []
"""The errors thrown by the pages of :func:`watch_errors` during the current test; the
``page_errors`` fixture (tests/browser/conftest.py) fails the test that left any.  (Raising in
Playwright's event callback instead breaks its connection: every later test of the module then
fails, the error unnamed.)"""


def watch_errors(page: Any) -> Any:
    """Note every error ``page`` throws in :data:`PAGE_ERRORS` (the test fails when it ends)."""
    page.on("pageerror", lambda e: PAGE_ERRORS.append(f"{page.url}: {e}"))
    return page


def open_page(ctx: Any, url: str) -> Any:
    """A new page of ``ctx`` at ``url``; any error the page throws fails the test."""
    page = watch_errors(ctx.new_page())
    page.goto(url)
    return page


class ContextPool:
    """Browser contexts that serve a module's tests in turn, one page at a time each.

    A new context costs Chromium about 1.2 CPU-s more than a new page in a context that served
    before (a renderer's start with empty caches), and the browser tests open about a hundred.
    :meth:`page` gives a new page in an idle context of the options asked for (one whose pages are
    all closed), made only when none is idle; before that page goes anywhere, the storage of
    ``origin`` (local, session, IndexedDB, service workers, caches), the cookies and the
    permissions granted are cleared: the page starts as in a fresh context.  The context's HTTP
    cache is kept (what a returning visitor's browser keeps too), so a test of what the page
    downloads uses a context of its own.  Closing the page gives its context back."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.browser = browser
        self.origin = origin
        self.contexts: dict[str, list[Any]] = {}

    def page(self, **options: Any) -> Any:
        """A new page in an idle context made with ``options`` (``browser.new_context``'s), its
        origin's storage cleared, 30 s its default timeout; its errors fail the test."""
        kept = self.contexts.setdefault(json.dumps(options, sort_keys=True), [])
        context = next((c for c in kept if not c.pages), None)
        if context is None:
            context = self.browser.new_context(**options)
            kept.append(context)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        cdp.detach()
        context.clear_cookies()
        context.clear_permissions()
        page.set_default_timeout(30_000)
        return watch_errors(page)

    def close(self) -> None:
        for kept in self.contexts.values():
            for context in kept:
                context.close()
        self.contexts.clear()


def shot(page: Any, name: str) -> Path:
    """A full-page screenshot in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def set_options(context: Any, **options: str) -> None:
    """Store game options (as the options dialog would) before the page loads."""
    base = {
        "level": "normal",
        "variant": "standard",
        "target": "",
        "counting": "auto",
        "dealer": "cut",
        "speed": "normal",
    }
    base.update(options)
    import json

    # Pages without storage (about:blank, a download) are left alone.
    context.add_init_script(
        f"try {{ if (!sessionStorage.getItem('e2e-options')) {{"
        f" localStorage.setItem('cribbage.options', {json.dumps(json.dumps(base))});"
        f" sessionStorage.setItem('e2e-options', '1'); }} }} catch (e) {{}}"
    )


def wait_ready(page: Any, timeout: float = 60_000) -> None:
    """Until the page waits for the player: an action, Continue, or the end of the game."""
    page.wait_for_function(
        "() => window.cribbage && window.cribbage.state"
        " && (!window.cribbage.busy || !!document.getElementById('btn-continue'))",
        timeout=timeout,
    )


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.cribbage.state")


def decision(st: dict[str, Any]) -> str | None:
    """The decision a state's action templates ask for (as ``static/game/actions.js`` reads them):
    'discard', 'play', 'count', 'muggins' (let a count stand or call), or None."""
    templates = st.get("actions") or []
    if not templates:
        return None
    if any(t["type"] in ("pass", "muggins") for t in templates):
        return "muggins"
    return str(templates[0]["type"])


def step(page: Any, *, count: int | None = None, muggins: int | None = None) -> str:
    """Take one decision by clicking: Continue, the first cards for the crib, the first playable
    card, a stated count (``count``, 0 by default), or let a count stand (or call ``muggins``
    for that many points).  Returns what was done."""
    wait_ready(page)
    if page.query_selector("#btn-continue"):
        page.click("#btn-continue")
        page.wait_for_timeout(50)
        return "continue"
    st = state(page)
    if st["over"]:
        return "over"
    kind = decision(st)
    if kind == "discard":
        for i in range(st["actions"][0]["count"]):
            page.click(f'#hand [data-index="{i + 1}"]')
        page.click("#btn-confirm")
    elif kind == "play":
        page.click("#hand button.card.playable >> nth=0")
        if "claim" in st["actions"][0]:
            page.press("#claim-input", "Enter")
    elif kind == "count":
        page.fill("#count-input", str(0 if count is None else count))
        page.press("#count-input", "Enter")
    elif kind == "muggins":
        if muggins:
            page.fill("#muggins-input", str(muggins))
            page.click("#btn-muggins")
        else:
            page.click("#btn-pass")
    else:
        raise AssertionError(f"nothing to do in state {st['view']['phase']}")
    page.wait_for_timeout(30)
    return str(kind)


def no_horizontal_overflow(page: Any) -> tuple[int, int]:
    """(scrollWidth, innerWidth) of the page: equal when nothing sticks out sideways."""
    return page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")


def _api(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    import json

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def finished_game(base: str, **options: Any) -> dict[str, str]:
    """A game played to its end through the API (each seat's first legal action): its id and
    token, to be stored as the page's game (``cribbage.engine.game``) so the page opens on the
    result."""
    created = _api(base, "POST", "/api/games", {"level": "weak", "target": 61, "seed": 1, **options})
    game_id, token, st = created["id"], created["token"], created["state"]
    for _ in range(500):
        if st["over"]:
            return {"id": game_id, "token": token}
        st = _api(base, "POST", f"/api/games/{game_id}/actions", first_action(st), token)
    raise AssertionError("the game through the API did not end")
