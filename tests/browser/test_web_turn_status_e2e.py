"""Whose turn the status line says at a table of two people, in Debian's headless Chromium (two
browser contexts): while a page replays the end of a deal and holds at its show, the next deal's
discard is already in both seats' actions, yet neither page says "Your turn" then (no card can be
clicked); the seat the engine asks first is named to the other.  Once Continue is pressed both
may discard, and both pages say so (docs/api.md, "Discards at the same time")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import _api, open_page, running_server, set_options
from web_fixtures import first_action

TURN = {"en": "Your turn", "ja": "あなたの番です"}
WAITING_FOR = {"en": "Waiting for {name}…", "ja": "{name}を待っています…"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("turn-status") / "games.db") as base:
        yield base


def table(base: str) -> tuple[str, list[str]]:
    """A table of Aiko (seat 0) and Boris (seat 1), both seats taken: its id and the seats' tokens."""
    made = _api(base, "POST", "/api/games", {"seats": [{"kind": "human"}] * 2, "names": ["Aiko"]})
    joined = _api(base, "POST", "/api/join", {"code": made["invites"][0]["code"], "name": "Boris"})
    return made["id"], [made["token"], joined["token"]]


def play_first_deal(base: str, game: str, tokens: list[str]) -> dict[str, Any]:
    """Every seat's first legal action, through the API, until the second deal's discard: seat 0's
    state then."""
    for _ in range(200):
        for token in tokens:
            mine = _api(base, "GET", f"/api/games/{game}", token=token)
            if mine["view"]["hand_number"] > 1:
                return dict(mine)
            if mine["actions"]:
                _api(base, "POST", f"/api/games/{game}/actions", first_action(mine), token)
    raise AssertionError("the first deal did not end")


def test_only_the_page_shown_its_decision_says_your_turn(browser: Any, server: str) -> None:
    game, tokens = table(server)
    langs = ["en", "ja"]
    contexts, pages = [], []
    try:
        for seat, lang in enumerate(langs):
            ctx = browser.new_context(locale="en-US")
            ctx.set_default_timeout(30_000)
            set_options(ctx)
            stored = {"id": game, "token": tokens[seat], "seat": seat}
            ctx.add_init_script(
                f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(stored))})"
            )
            contexts.append(ctx)
            pages.append(open_page(ctx, f"{server}/?lang={lang}&speed=instant"))
        for page in pages:  # the first deal's discard, shown: both may throw at once
            page.wait_for_function(
                "(turn) => document.getElementById('table-status')?.textContent === turn",
                arg=TURN[langs[pages.index(page)]],
            )
        second = play_first_deal(server, game, tokens)
        first_asked = second["view"]["to_act"]
        names = ["Aiko", "Boris"]
        for seat, page in enumerate(pages):  # the end of the deal and its show, held at Continue
            page.wait_for_selector("#btn-continue")
            assert page.evaluate("() => window.cribbage.busy") is True
            assert len(page.evaluate("() => window.cribbage.state.actions")) == 1  # the next discard
            status = page.text_content("#table-status")
            assert status != TURN[langs[seat]], f"seat {seat} is told it is its turn during the show"
            assert TURN[langs[seat]] not in (page.text_content("#prompt") or "")
            assert not page.query_selector("#hand button.card:not([disabled])")
            expected = "" if seat == first_asked else WAITING_FOR[langs[seat]].format(name=names[first_asked])
            assert status == expected
        for seat, page in enumerate(pages):  # Continue: the discard is shown, and it is said
            page.click("#btn-continue")
            page.wait_for_function(
                "(turn) => document.getElementById('table-status')?.textContent === turn"
                " && document.getElementById('prompt')?.textContent !== turn && !window.cribbage.busy",
                arg=TURN[langs[seat]],
            )
            assert page.query_selector("#hand button.card:not([disabled])")
    finally:
        for ctx in contexts:
            ctx.close()
