"""The page passes its own Content-Security-Policy (issue 17, item 4): in Chromium, the game page
and the how-to page load and are played a little with no ``securitypolicyviolation`` event and
no CSP message on the console."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import running_server, set_options, step, wait_ready

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


@pytest.fixture()
def page(server: str, browser: Any) -> Iterator[tuple[Any, list[str]]]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(30_000)
    set_options(ctx, level="weak", speed="fast")
    ctx.add_init_script(RECORD_VIOLATIONS)
    pg = ctx.new_page()
    console: list[str] = []
    pg.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    pg.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    yield pg, console
    ctx.close()


def _violations(pg: Any, console: list[str]) -> list[str]:
    found = list(pg.evaluate("() => window.__csp || []"))
    found += [m for m in console if "content security policy" in m.lower() or "pageerror" in m]
    return found


def test_the_game_page_runs_under_its_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    response = pg.goto(f"{server}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    wait_ready(pg)
    done = [step(pg) for _ in range(6)]
    assert any(kind in ("discard", "play") for kind in done), done
    pg.click("#btn-hint")
    pg.wait_for_timeout(300)
    pg.click("#btn-options")
    pg.wait_for_timeout(200)
    pg.keyboard.press("Escape")
    pg.wait_for_timeout(200)
    assert pg.evaluate("() => Array.isArray(window.__csp)"), "the recorder did not run"
    assert _violations(pg, console) == []


def test_the_howto_page_runs_under_its_csp(server: str, page: tuple[Any, list[str]]) -> None:
    pg, console = page
    response = pg.goto(f"{server}/howto")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    pg.wait_for_load_state("networkidle")
    pg.click("#try-go")
    pg.wait_for_timeout(500)
    pg.fill("#try-hand", "5H 5C 5S ZZ")
    pg.click("#try-go")
    pg.wait_for_timeout(500)
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
    pg.wait_for_timeout(300)
    assert pg.evaluate("() => window.x") is None
    assert any("script-src" in v for v in _violations(pg, console))
