"""The page passes its own Content-Security-Policy (issue 17, item 4): in Chromium, the game page
and the how-to page load and are played (the board and its pegs, the show, the dialogs, the
result screen with its chart, a table waiting for people) with no ``securitypolicyviolation``
event and no CSP message on the console.

The policy has no ``'unsafe-inline'`` at all: the page sets its styles (each side's colour, a
custom property) through the CSSOM, never as a ``style`` attribute.  That they still apply is
checked too: a style attribute would be blocked, and the colours would be gone.

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each test's page starts with its storage cleared).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import ContextPool, finished_game, running_server, set_options, step, wait_ready

COLORS = ["#1e63c4", "#c62828", "#2e7d32", "#ef6c00"]  # the sides' colours (app.js COLORS)

# The value of the custom property --side on every element a selector finds.
SIDE_COLOURS_JS = """(sel) => [...document.querySelectorAll(sel)].map(
  (e) => getComputedStyle(e).getPropertyValue('--side').trim())"""

# Recorded from the first moment of each document, before any of the page's scripts run.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("csp") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


@pytest.fixture()
def page(contexts: ContextPool) -> Iterator[tuple[Any, list[str]]]:
    pg = contexts.page(viewport={"width": 1280, "height": 800}, locale="en-US")
    set_options(pg, level="weak", speed="instant")  # the speed only scales the replay's pauses
    pg.add_init_script(RECORD_VIOLATIONS)
    console: list[str] = []
    pg.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    pg.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    yield pg, console
    pg.close()


def _violations(pg: Any, console: list[str]) -> list[str]:
    found = list(pg.evaluate("() => window.__csp || []"))
    found += [m for m in console if "content security policy" in m.lower() or "pageerror" in m]
    return found


def _side_colours(pg: Any, selector: str) -> list[str]:
    colours = list(pg.evaluate(SIDE_COLOURS_JS, selector))
    assert colours, f"nothing matches {selector}"
    return colours


def _store_game(game: dict[str, str]) -> str:
    """The script that makes ``game`` the page's own (as if it had created it)."""
    return f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))});"


def _api(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_the_policy_allows_nothing_inline(server: str) -> None:
    for path in ("/", "/howto", "/api/variants", "/static/game/app.js"):
        with urllib.request.urlopen(server + path, timeout=10) as answer:
            policy = answer.headers["content-security-policy"]
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, (path, policy)
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, (path, policy)


def test_the_game_page_runs_under_its_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    response = pg.goto(f"{server}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    wait_ready(pg)
    done = [step(pg) for _ in range(6)]
    assert any(kind in ("discard", "play") for kind in done), done
    wait_ready(pg)
    pg.click("#btn-hint")
    pg.wait_for_selector(".hint-table tbody tr, .hint-plays li")  # the hint, drawn
    pg.click("#btn-options")
    pg.wait_for_function(
        "() => document.querySelectorAll('#options-dialog[open] #opt-variant option').length > 1"
    )
    pg.keyboard.press("Escape")
    pg.wait_for_selector("#options-dialog[open]", state="detached")
    # Play on to the show, where each hand's count is an entry in its side's colour.
    for _ in range(40):
        wait_ready(pg)
        if pg.query_selector(".show-entry") or state_over(pg):
            break
        done.append(step(pg))
    assert pg.query_selector(".show-entry"), done
    # The sides' colours, set through the CSSOM, apply: the scoreboard, the board's pegs, the show.
    assert set(_side_colours(pg, ".show-entry")) <= set(COLORS[:2])
    assert set(_side_colours(pg, "#scoreboard .score-chip")) == set(COLORS[:2])
    assert set(_side_colours(pg, "#board .peg")) <= set(COLORS[:2])
    assert pg.evaluate("() => Array.isArray(window.__csp)"), "the recorder did not run"
    assert _violations(pg, console) == []


def state_over(pg: Any) -> bool:
    return bool(pg.evaluate("() => !!(window.cribbage.state && window.cribbage.state.over)"))


def test_the_result_screen_and_its_chart_run_under_the_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    game = finished_game(server)
    pg.add_init_script(f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))})")
    pg.goto(f"{server}/?speed=instant")
    pg.wait_for_selector("#result-dialog[open] #result-chart svg polyline")
    assert set(_side_colours(pg, "#result-scores .final-score")) == set(COLORS[:2])
    pg.click("#result-close")
    pg.wait_for_selector("#result-dialog[open]", state="detached")
    assert _violations(pg, console) == []


def test_a_table_waiting_for_people_runs_under_the_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    created = _api(server, "/api/games", {"level": "weak", "seats": [{"kind": "human"}, {"kind": "human"}]})
    game = {"id": created["id"], "token": created["token"]}
    pg.add_init_script(f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))})")
    pg.goto(f"{server}/")
    pg.wait_for_selector("#table-panel:not([hidden]) li")
    assert set(_side_colours(pg, "#table-panel li")) == set(COLORS[:2])
    assert _violations(pg, console) == []


def test_the_howto_page_runs_under_its_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    response = pg.goto(f"{server}/howto")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    pg.wait_for_load_state("networkidle")
    pg.click("#try-go")
    pg.wait_for_selector("#try-result .ex-total, #try-result .error")  # the example's hand, scored
    pg.fill("#try-hand", "5H 5C 5S ZZ")
    pg.click("#try-go")
    pg.wait_for_function("() => document.querySelector('#try-result .error')?.textContent.includes('ZZ')")
    assert _violations(pg, console) == []


def test_a_violation_would_be_seen(server: str, page: tuple[Any, list[str]]) -> None:
    """The check itself works: an inline script injected into the page is blocked and reported."""
    pg, console = page
    pg.goto(f"{server}/howto")
    pg.wait_for_load_state("networkidle")
    pg.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.x = 1';"
        " document.body.append(s); }"
    )
    pg.wait_for_function("() => window.__csp.length > 0")  # the event comes after the script
    assert pg.evaluate("() => window.x") is None
    assert any("script-src" in v for v in _violations(pg, console))


def test_a_style_attribute_would_be_seen(server: str, page: tuple[Any, list[str]]) -> None:
    """A style attribute, as the page once set, is blocked and reported; the CSSOM is not."""
    pg, console = page
    pg.goto(f"{server}/howto")
    pg.wait_for_load_state("networkidle")
    colours = pg.evaluate(
        """() => {
      const a = document.createElement('div'); a.setAttribute('style', '--side: #123456');
      const b = document.createElement('div'); b.style.setProperty('--side', '#654321');
      document.body.append(a, b);
      return [a, b].map((e) => getComputedStyle(e).getPropertyValue('--side').trim());
    }"""
    )
    pg.wait_for_function("() => window.__csp.some((v) => v.startsWith('style-src-attr'))")
    assert colours == ["", "#654321"]
    assert any("style-src-attr" in v for v in _violations(pg, console)), _violations(pg, console)
