"""The browser's engine (issue 45 items 3 and 5; docs/pyodide.md), in Chromium: the page starts
its engine worker (static/engine/), which runs the package's own Python under Pyodide, served by
``cribbage serve`` from the installation (Pyodide's files, the zip of the package's layers),
under the engine worker's own policy (WebAssembly allowed there only).  A game against the
computer is played there to its end, each STATE equal to the one the same game gives natively
(cribbage.local, the server's STATE); a hint, a refusal with the server's code, the record (as
text: its 64-bit seeds intact), a game restored from it and the review all come from the worker.
The engine's files are kept by the service worker once used.

One ``cribbage serve`` for the module; never skipped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.engine.record import Game
from cribbage.engine.templates import choices
from cribbage.local.game import LocalGame, LocalOptions
from cribbage.web.engine_files import PYODIDE_FILES
from e2e_helpers import ContextPool, running_server

CALL = """async ([call, args]) => {
  const engine = await import('/static/engine/engine.js');
  try {
    return { ok: await engine.engineCall(call, ...args) };
  } catch (err) {
    return { error: { code: err.code, data: err.data } };
  }
}"""

OPTIONS = {"variant": "short", "level": "normal", "seed": 17, "manual": True, "muggins": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("engine") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


def call(page: Any, name: str, *args: Any) -> Any:
    answer = page.evaluate(CALL, [name, list(args)])
    assert "ok" in answer, (name, answer)
    return answer["ok"]


def test_a_game_against_the_computer_runs_in_the_browser_on_the_packages_engine(
    contexts: ContextPool, server: str
) -> None:
    page = contexts.page(viewport={"width": 1000, "height": 800}, service_workers="allow")
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{server}/?lang=en")
    # The shell kept (the service worker controls the page): the engine's files are kept as used.
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    steps = page.evaluate(
        """async () => {
          const engine = await import('/static/engine/engine.js');
          const steps = [];
          engine.onProgress((step) => steps.push(step));
          await engine.startEngine();
          return steps;
        }"""
    )
    assert steps == ["interpreter", "engine", "ready"]
    native = LocalGame.new("local-e2e", LocalOptions.from_json(dict(OPTIONS)))
    state = call(page, "new", "local-e2e", OPTIONS)
    hint = call(page, "hint", "local-e2e")
    assert hint == native.hint() and hint["kind"] == "discard"
    refused = page.evaluate(CALL, ["act", ["local-e2e", {"type": "play", "card": "1X"}]])
    assert refused["error"]["code"] == "invalid" and refused["error"]["data"]["field"] == "action"
    for _ in range(3000):
        assert state == native.state()
        if state["over"]:
            break
        action = {**next(choices(state["actions"][0])), "version": state["version"]}
        state = call(page, "act", "local-e2e", action)
        native.act(dict(action))
    assert state["over"]
    # The record, as text: the engine's own format, replayable natively, its seeds intact.
    text = call(page, "record", "local-e2e")
    assert json.loads(text) == native.record()
    Game.from_json(json.loads(text))
    restored = call(page, "restore", "local-again", OPTIONS, text)
    assert {**restored, "id": "local-e2e"} == state
    review = call(page, "review", text, 0)
    assert review["seats"] and review["names"] == json.loads(text)["names"]
    # The engine's files are kept for offline play once used.
    kept = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const urls = [];
          for (const name of names) {
            for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
          }
          return urls.filter((u) => u.startsWith('/engine/'));
        }"""
    )
    wanted = {"/engine/cribbage.zip", "/engine/pyodide/pyodide.asm.wasm", "/engine/pyodide/python_stdlib.zip"}
    assert wanted <= set(kept)
    assert violations == []
    page.close()


KEPT_ENGINE = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
  }
  return urls.filter((u) => u.startsWith('/engine/')).length;
}"""


def test_after_one_visit_the_engine_starts_with_the_network_off(contexts: ContextPool, server: str) -> None:
    """The service worker keeps the engine's files in the background once it has taken the page
    (no game played here before), so a first game against the computer starts offline."""
    page = contexts.page(viewport={"width": 1000, "height": 800}, service_workers="allow")
    try:
        page.goto(f"{server}/?lang=en")
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
        deadline = time.monotonic() + 45
        while page.evaluate(KEPT_ENGINE) < len(PYODIDE_FILES) + 1:  # kept in the background
            assert time.monotonic() < deadline, "the engine's files were not kept"
            page.wait_for_timeout(300)
        page.context.set_offline(True)
        page.reload()
        state = call(page, "new", "local-offline", {"variant": "short", "level": "weak", "seed": 2})
        assert state["actions"][0]["type"] == "discard" and state["options"]["target"] == 61
    finally:
        page.context.set_offline(False)
        page.close()
