""" "Your turn" in a background tab, in Debian's headless Chromium: the tab's title says it while
the page is hidden and it is the seat's turn, in the page's language, and comes back when the tab
is shown.  Hidden is played by the page's own ``document.visibilityState`` (an init script: a
headless tab is always visible), switched by the test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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
    context = browser.new_context(locale="en-US")
    try:
        set_options(context)
        context.add_init_script(HIDDEN)
        page = context.new_page()
        page.goto(f"{server}/?lang={lang}&speed=instant&seed=5")
        wait_ready(page)
        page.wait_for_function("() => (window.cribbage.state.actions || []).length > 0")
        assert page.title().startswith(turn) and page.title().endswith(title)
        page.evaluate(
            "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
        )
        assert page.title() == page.evaluate("() => document.querySelector('.brand a').textContent")
        assert not page.is_checked("#opt-turn-sound")  # the sound is off by default
    finally:
        context.close()
