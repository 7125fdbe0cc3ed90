"""A game against the computer in the browser, online by choice and offline (issue 45, items 2
and 4), in Chromium: the game page plays it on the browser's engine (static/engine/, the package's
own Python under Pyodide) through the same controller, store, views and replay as a game at the
server; it is kept in IndexedDB after every action and resumed after a reload, online or off; the
options come from the server's lists last read; the review comes from the engine offline; a
saved game that cannot be read, storage refused and an engine that does not start each get their
message; a finished game goes to the server ("Keep it in my games") once it answers.

One ``cribbage serve`` for the module, its contexts pooled (each test's page with its origin's
storage cleared; the network switched off for a context, and on again, by the test); never
skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.engine.record import Game
from cribbage.engine.templates import choices
from cribbage.local.game import LocalGame, LocalOptions
from e2e_helpers import (
    ContextPool,
    _api,
    decision,
    running_server,
    set_options,
    shot,
    state,
    step,
    wait_ready,
)

SCREEN = {"viewport": {"width": 1100, "height": 900}, "locale": "en-US", "service_workers": "allow"}
STEP_LIMIT = 2500
ENGINE_READY = 60_000  # the engine's start: 3 to 10 s on this machine (docs/pyodide.md)

REVIEWED = "() => window.cribbageReview && window.cribbageReview.review && !window.cribbageReview.busy"
LOCAL = "() => !!window.cribbage.state && window.cribbage.state.id.startsWith('local-')"
# The page's IndexedDB (game/keep.js): one store, 'games', keyed by the game's id.
OPEN_DB = """new Promise((ok, ko) => {
  const r = indexedDB.open('cribbage', 1);
  r.onupgradeneeded = () => r.result.createObjectStore('games', { keyPath: 'id' });
  r.onsuccess = () => ok(r.result); r.onerror = ko;
})"""
KEPT_JS = f"""async (id) => {{
  const db = await {OPEN_DB};
  return await new Promise((ok, ko) => {{
    const r = db.transaction('games').objectStore('games').get(id);
    r.onsuccess = () => ok(r.result || null); r.onerror = ko;
  }});
}}"""
PUT_JS = f"""async (kept) => {{
  const db = await {OPEN_DB};
  await new Promise((ok, ko) => {{
    const tx = db.transaction('games', 'readwrite');
    tx.objectStore('games').put(kept); tx.oncomplete = ok; tx.onerror = ko;
  }});
  db.close();
  const game = JSON.stringify({{ id: kept.id, token: '', seat: 0 }});
  localStorage.setItem('cribbage.engine.game', game);
  sessionStorage.setItem('cribbage.engine.game', game);
}}"""
# A browser whose worker fails to start (an old one, a broken download).
WORKER_FAILS = """window.Worker = class extends EventTarget {
  constructor() {
    super();
    const failed = new ErrorEvent('error', { message: 'the worker did not start' });
    setTimeout(() => this.dispatchEvent(failed), 10);
  }
  postMessage() {}
  terminate() {}
};"""
START_ENGINE = "async () => { await (await import('/static/engine/engine.js')).startEngine(); }"
OPTIONS = {"variant": "short", "level": "weak", "seed": 7, "manual": True, "muggins": True}


def near_end(options: dict[str, Any], left: int = 3) -> tuple[dict[str, Any], str]:
    """A game of the browser's engine played natively (cribbage.local, the same package) to
    ``left`` decisions of the person before its end: what the page keeps of it (its options and
    saved text), and the record of the whole game."""
    game = LocalGame.new("local-e2e0000000000000", LocalOptions.from_json(dict(options)))
    saved = []
    st = game.state()
    while not st["over"]:
        saved.append(json.dumps(game.saved()))
        st = game.act({**next(choices(st["actions"][0])), "version": st["version"]})
    kept = {"id": game.id, "options": options, "saved": saved[-left], "over": False, "updated": 0}
    return kept, json.dumps(game.record())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("offline") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


@pytest.fixture
def page(contexts: ContextPool) -> Iterator[Any]:
    made = contexts.page(**SCREEN)
    yield made
    made.context.set_offline(False)
    made.close()


def open_online(page: Any, server: str, **options: str) -> None:
    """The game page online, its service worker in control (the shell kept for offline), with
    the options of the next game stored as the options dialog stores them."""
    set_options(page, **options)
    page.goto(f"{server}/?lang=en&speed=instant")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)


def start_here(page: Any) -> None:
    """A new game from the New game dialog, "Play in this browser" checked, the engine's start shown."""
    page.click("#btn-new")
    page.wait_for_function("() => document.querySelectorAll('#opt-variant option').length > 1")
    assert page.is_visible("#opt-here-box")
    page.check("#opt-here")
    page.click("#opt-start")
    page.wait_for_selector("#engine-status:not([hidden])")
    page.wait_for_function(LOCAL, timeout=ENGINE_READY)
    wait_ready(page)


def play_to_end(page: Any, **kw: Any) -> None:
    for _ in range(STEP_LIMIT):
        if step(page, **kw) == "over":
            return
    raise AssertionError("the game did not end")


def test_a_game_chosen_in_this_browser_online_resumes_offline_after_a_reload(page: Any, server: str) -> None:
    open_online(page, server, level="weak", variant="short", counting="auto")
    start_here(page)  # online, by choice: the engine's files fetched (and kept) once
    first = state(page)
    assert first["people"] is False and first["options"]["target"] == 61
    assert first["seats"][1]["kind"] == "computer" and page.is_hidden("#error")
    assert json.loads(page.evaluate("() => localStorage.getItem('cribbage.options')"))["here"] is True
    kept = page.evaluate(KEPT_JS, first["id"])
    assert kept and kept["options"]["variant"] == "short" and f'"id": "{first["id"]}"' in kept["saved"]

    page.context.set_offline(True)
    page.reload()  # offline: the page from the service worker, the game resumed from IndexedDB
    page.wait_for_function(LOCAL, timeout=ENGINE_READY)
    wait_ready(page)
    assert state(page)["id"] == first["id"] and state(page)["version"] == first["version"]
    assert "Game resumed." in (page.text_content("#log") or "")
    assert page.is_hidden("#error")
    step(page)  # the discard, offline
    assert state(page)["version"] > first["version"]


def test_offline_a_new_game_with_every_option_is_played_with_a_hint_and_resumes_mid_hand(
    page: Any, server: str
) -> None:
    open_online(page, server, level="weak", variant="short", counting="auto")
    page.evaluate(START_ENGINE)  # the engine's files kept by the service worker once used
    page.context.set_offline(True)
    page.reload()
    # Offline with no game here: said, with Retry, and a game against the computer in this browser.
    page.wait_for_selector("#error:not([hidden]) #play-here")
    assert page.inner_text("#error span") == "The server cannot be reached."
    page.click("#play-here")
    assert page.is_visible("#opt-offline-note") and page.is_hidden("#opt-here-box")
    assert "Games with people need the server." in (page.text_content("#opt-offline-note") or "")
    assert page.locator("#opt-variant option").count() > 1  # the server's variants, as last read
    page.select_option("#opt-variant", "standard")
    page.select_option("#opt-target", "61")
    page.check('input[name="level"][value="normal"]')
    page.check('input[name="counting"][value="muggins"]')
    page.check('input[name="dealer"][value="you"]')
    assert page.locator('#opt-seats option[value="human"]').first.is_disabled()
    page.click("#opt-start")
    page.wait_for_function(LOCAL, timeout=ENGINE_READY)
    wait_ready(page)
    st = state(page)
    options = st["options"]
    assert (options["variant"], options["target"], options["level"]) == ("standard", 61, "normal")
    assert options["manual"] and options["muggins"] and options["dealer"] == "you"
    assert st["view"]["dealer"] == 0

    # The first hand by clicking, with the hint's discard.
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    assert page.locator(".hint-table tbody tr").count() == 15  # every way to throw two of six
    shot(page, "offline-hint")
    page.locator(".hint-table tbody tr").first.click()
    page.click("#btn-confirm")
    wait_ready(page)
    kept = page.evaluate(KEPT_JS, st["id"])
    assert kept["options"]["muggins"] is True and kept["saved"].count('"type": "discard"') >= 2
    for _ in range(60):
        if not page.query_selector("#btn-continue") and decision(state(page)) == "count":
            break
        step(page)
    else:
        raise AssertionError("no count was asked for")
    before = state(page)
    page.reload()  # mid-hand, offline: resumed where it was
    page.wait_for_function(
        f"() => window.cribbage.state?.id === {json.dumps(before['id'])}", timeout=ENGINE_READY
    )
    wait_ready(page)
    assert state(page)["version"] == before["version"] and decision(state(page)) == "count"
    step(page, count=0)  # a manual count, offline
    assert state(page)["version"] > before["version"]


def test_offline_a_game_ends_with_its_result_chart_and_record(page: Any, server: str) -> None:
    kept, record = near_end(OPTIONS)
    open_online(page, server)
    page.evaluate(PUT_JS, kept)
    page.reload()  # resumed (the engine's files fetched and kept), a few decisions before the end
    page.wait_for_function(LOCAL, timeout=ENGINE_READY)
    wait_ready(page)
    page.context.set_offline(True)
    play_to_end(page)
    st = state(page)
    assert st["over"] and max(st["result"]["scores"]) >= 61
    page.wait_for_selector("#result-dialog[open] #result-chart svg")
    assert page.locator("#result-chart svg polyline").count() == 2
    assert page.is_hidden("#result-upload")  # offline: nowhere to keep it yet
    with page.expect_download() as download:
        page.click("#result-record")
    text = download.value.path().read_text()
    assert text == record  # the engine's record, as it wrote it (its 64-bit seeds): cribbage replay reads it
    Game.from_json(json.loads(text))
    shot(page, "offline-result")
    page.click("#result-review")  # the review page, on this tab's record: from the engine (below)
    page.wait_for_url("**/review?lang=en")
    stored = json.loads(page.evaluate("() => sessionStorage.getItem('cribbage.review')"))
    assert stored == {"text": record, "seat": 0, "fromGame": True, "local": True}


def test_offline_the_review_of_a_game_played_here_comes_from_the_engine(page: Any, server: str) -> None:
    _kept, record = near_end(OPTIONS)
    open_online(page, server)
    page.evaluate(START_ENGINE)  # the engine's files kept by the service worker once used
    session = json.dumps({"text": record, "seat": 0, "fromGame": True, "local": True})
    page.evaluate("(s) => sessionStorage.setItem('cribbage.review', s)", session)
    page.context.set_offline(True)
    page.goto(f"{server}/review?lang=en")
    page.wait_for_function(REVIEWED, timeout=ENGINE_READY)
    review = page.evaluate("() => window.cribbageReview.review")
    assert review["seats"] == [0] and review["decisions"]
    assert page.is_hidden("#review-error")
    assert page.locator("#review-body").is_visible()
    shot(page, "offline-review")


@pytest.mark.parametrize(
    ("what", "change"),
    [
        (
            "tampered",
            lambda saved: re.sub(r'"seed": (\d+)', lambda m: f'"seed": {int(m[1]) + 1}', saved, count=2),
        ),
        ("older", lambda saved: saved.replace('"version": 1,', '"version": 0,', 1)),
        ("corrupt", lambda saved: saved[: len(saved) // 2]),
    ],
)
def test_a_saved_game_that_cannot_be_read_is_said_kept_offered_as_a_file_and_a_new_game(
    page: Any, server: str, what: str, change: Any
) -> None:
    kept, _record = near_end(OPTIONS)
    kept = {**kept, "saved": change(kept["saved"])}
    open_online(page, server)
    page.evaluate(PUT_JS, kept)
    page.reload()
    page.wait_for_selector("#local-note:not([hidden]) #local-download", timeout=ENGINE_READY)
    assert "cannot be read" in (page.text_content("#local-note") or ""), what
    with page.expect_download() as download:
        page.click("#local-download")
    assert download.value.path().read_text() == kept["saved"]  # nothing saved is lost
    assert page.evaluate(KEPT_JS, kept["id"])["saved"] == kept["saved"]
    page.click("#local-anew")
    page.wait_for_selector("#options-dialog[open]")
    assert page.is_hidden("#local-note")


def test_storage_refused_the_game_plays_on_and_says_it_will_not_survive_a_reload(
    page: Any, server: str
) -> None:
    page.add_init_script("Object.defineProperty(window, 'indexedDB', { value: undefined })")
    open_online(page, server, level="weak", variant="short")
    start_here(page)
    page.wait_for_selector("#local-note:not([hidden])")
    assert "will not survive a reload" in (page.text_content("#local-note") or "")
    version = state(page)["version"]
    step(page)
    assert state(page)["version"] > version


def test_an_engine_that_does_not_start_leaves_the_game_at_the_server(page: Any, server: str) -> None:
    page.add_init_script(WORKER_FAILS)
    open_online(page, server, level="weak", variant="short")
    page.click("#btn-new")
    page.check("#opt-here")
    page.click("#opt-start")
    wait_ready(page)
    st = state(page)
    assert not st["id"].startswith("local-") and st["options"]["variant"] == "short"
    assert "this game is played at the server" in (page.text_content("#log") or "")


def test_online_again_a_finished_game_is_kept_in_the_accounts_games(page: Any, server: str) -> None:
    signed = _api(server, "POST", "/api/accounts", {"name": "Offline Ann", "password": "a long password 1"})
    session = json.dumps({"token": signed["token"], "name": "Offline Ann"})
    assert signed["account"]["finished"] == 0
    kept, record = near_end(OPTIONS)
    open_online(page, server)
    page.evaluate("(s) => localStorage.setItem('cribbage.session', s)", session)
    page.evaluate(PUT_JS, kept)
    page.reload()
    page.wait_for_function(LOCAL, timeout=ENGINE_READY)
    wait_ready(page)
    page.context.set_offline(True)  # finished offline
    play_to_end(page)
    page.wait_for_selector("#result-dialog[open] #result-chart svg")
    assert page.is_hidden("#result-upload")  # offline: nowhere to keep it yet
    page.context.set_offline(False)
    page.click("#result-close")
    page.click("#btn-result")  # the result again, the server answering: it may be kept there now
    page.wait_for_selector("#result-upload:visible")
    assert page.inner_text("#result-upload") == "Keep it in my games"
    page.click("#result-upload")
    page.wait_for_selector("#result-upload", state="hidden")
    game = json.loads(page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))
    assert not game["id"].startswith("local-") and game["token"] and game["seat"] == 0
    seats = json.loads(page.evaluate("() => localStorage.getItem('cribbage.seats')"))
    assert {"id": game["id"], "token": game["token"], "seat": 0} in seats  # kept like any seat
    assert _api(server, "GET", f"/api/games/{game['id']}/record", token=game["token"]) == json.loads(record)
    assert _api(server, "GET", "/api/accounts/me", token=signed["token"])["finished"] == 1
    assert page.evaluate(KEPT_JS, kept["id"]) is None  # kept at the server, no longer here
    page.click("#result-review")  # its review now as a server game's
    page.wait_for_url("**/review?lang=en")
    page.wait_for_function(REVIEWED, timeout=ENGINE_READY)
    assert "local" not in json.loads(page.evaluate("() => sessionStorage.getItem('cribbage.review')"))


def test_a_browser_without_webassembly_is_offered_the_game_at_the_server_only(page: Any, server: str) -> None:
    page.add_init_script("delete window.WebAssembly")
    open_online(page, server, level="weak", variant="short")
    wait_ready(page)
    assert not state(page)["id"].startswith("local-")
    page.click("#btn-new")
    assert page.is_hidden("#opt-here-box")  # nothing to choose: the engine cannot run here
    page.click("#opt-cancel")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error span") == "The server cannot be reached."
    assert page.locator("#play-here").count() == 0
