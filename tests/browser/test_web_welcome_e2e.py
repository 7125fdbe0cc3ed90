"""The first visit's welcome (the options dialog titled as a greeting), in Debian's headless
Chromium: Escape closes it and does nothing else, in particular starts no game against the
computer; a game starts when the player asks for one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import open_page, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("welcome") / "games.db") as base:
        yield base


def test_escape_closes_the_welcome_and_starts_no_game(browser: Any, server: str) -> None:
    ctx = browser.new_context(locale="en-US")  # nothing remembered: the first visit
    ctx.set_default_timeout(30_000)
    try:
        made: list[str] = []
        ctx.on(
            "request",
            lambda r: made.append(r.url) if r.method == "POST" and r.url.endswith("/api/games") else None,
        )
        page = open_page(ctx, f"{server}/?lang=en&speed=instant")
        page.wait_for_selector("#options-dialog[open]")
        assert page.text_content("#options-title") == "Welcome! Choose your game"
        page.keyboard.press("Escape")
        page.wait_for_selector("#options-dialog:not([open])", state="attached")
        page.keyboard.press("Escape")  # again, with no dialog and no table: nothing happens
        page.wait_for_load_state("networkidle")
        assert made == [], "Escape started a game"
        assert page.evaluate("() => window.cribbage.state") is None
        assert not page.query_selector("dialog[open]")
        assert page.evaluate("() => localStorage.getItem('cribbage.options')") is None  # nothing kept
        page.click("#btn-new")  # the player asks for a game: the options, then a deal
        page.wait_for_selector("#options-dialog[open]")
        assert page.text_content("#options-title") == "Options"
        page.click("#opt-start")
        page.wait_for_function("() => window.cribbage?.state && !window.cribbage.busy")
        assert len(made) == 1
    finally:
        ctx.close()
