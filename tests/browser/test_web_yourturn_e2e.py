""" "Your turn" in a background tab, in Debian's headless Chromium: the tab's title says it while
the page is hidden and it is the seat's turn, in the page's language, and comes back when the tab
is shown.  Hidden is played by the page's own ``document.visibilityState`` (an init script: a
headless tab is always visible), switched by the test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.request import Request, urlopen

import pytest

from e2e_helpers import running_server, set_options, wait_ready

HIDDEN = """
window.__hidden = true;
Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "games.db") as base:
        yield base


@pytest.mark.parametrize(
    ("lang", "turn", "title"), [("en", "● Your turn", "Cribbage"), ("ja", "● あなたの番", "クリベッジ")]
)
def test_the_title_says_your_turn_while_hidden(
    browser: Any, server: str, lang: str, turn: str, title: str
) -> None:
    context = browser.new_context(locale="en-US", service_workers="allow")
    try:
        set_options(context)
        context.add_init_script(HIDDEN)
        page = context.new_page()
        page.goto(f"{server}/?lang={lang}&speed=instant&seed=5")
        wait_ready(page)
        page.wait_for_function("() => (window.cribbage?.state?.actions || []).length > 0")
        assert page.title().startswith(turn) and page.title().endswith(title)
        page.evaluate(
            "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
        )
        assert page.title() == page.evaluate("() => document.querySelector('.brand a').textContent")
        assert not page.is_checked("#opt-turn-sound")  # the sound is off by default
    finally:
        context.close()


def _table(server: str, clock: int) -> dict[str, Any]:
    """A table of two people with ``clock``, both seats taken: the creator's game as the page keeps it."""
    body = json.dumps({"seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock}).encode()
    made = urlopen(Request(f"{server}/api/games", body, {"Content-Type": "application/json"}))
    data = json.loads(made.read())
    join = json.dumps({"code": data["invites"][0]["code"], "name": "Boris"}).encode()
    urlopen(Request(f"{server}/api/join", join, {"Content-Type": "application/json"}))
    return {"id": data["id"], "token": data["token"], "seat": 0}


@pytest.mark.parametrize(("clock", "offered"), [(86_400, True), (120, False)])
def test_the_notice_opt_in_is_offered_at_correspondence_tables(
    browser: Any, server: str, clock: int, offered: bool
) -> None:
    game = _table(server, clock)
    context = browser.new_context(locale="en-US", service_workers="allow")
    try:
        set_options(context)
        context.add_init_script(
            f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))});"
        )
        page = context.new_page()
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_selector("#table-panel:not([hidden])")
        if offered:
            page.wait_for_selector("#btn-push")
            assert page.inner_text("#btn-push") == "Notify me of my turn"
            scope = page.evaluate("() => navigator.serviceWorker.register('/sw.js').then((r) => r.scope)")
            assert scope == f"{server}/"  # served from the root, allowed by the page's policy
        else:
            page.wait_for_function("() => !!window.cribbage?.state")
            page.wait_for_timeout(500)  # push.js loaded and asked the server (a clock is set)
            assert page.query_selector("#btn-push") is None
    finally:
        context.close()
