"""A match of "Play now" in the page (docs/api.md, "Play now", "Matches"): two accounts paired
for a best of 3 through the API, the first game played through the API; the page opened on it
goes on by itself to the game the server made, and shows the series in the scoreline (a whole
match followed by two pages: tests/browser/test_web_match_follow_e2e.py).  Never skipped: without
Debian's ``chromium`` it fails, naming it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_helpers import _api, open_page, running_server, shot
from test_web_profile_e2e import play_out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("matches") / "games.db") as base:
        yield base


def paired(base: str, names: tuple[str, str]) -> list[dict[str, Any]]:
    """Two new accounts asking for a best of 3 in the short pool, paired by the server's own
    pairing: each one's seat, in seat order."""
    sessions = []
    for name in names:
        made = _api(base, "POST", "/api/accounts", {"name": name, "password": "a long passphrase"})
        sessions.append(made["token"])
        _api(base, "POST", "/api/play", {"pool": "short", "first_to": 2}, made["token"])
    seats = []
    for session in sessions:
        for _ in range(100):
            told = _api(base, "GET", "/api/play", token=session)
            if "match" in told:
                seats.append(told["match"])
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the server did not pair them")
    return sorted(seats, key=lambda seat: seat["seat"])


def test_the_page_shows_the_series_and_goes_on_to_the_next_game(
    browser: Any, server: str, tmp_path: Path
) -> None:
    seats = paired(server, ("Aiko", "Boris"))
    game, tokens = seats[0]["game"], [seat["token"] for seat in seats]
    last = play_out(server, game, tokens)
    won = last["result"]["winner"]
    following = _api(server, "GET", f"/api/games/{game}", token=tokens[0])["rematch"]
    assert following  # made by the server as the game ended
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(30_000)
    stored = {"id": game, "token": tokens[0]}
    ctx.add_init_script(f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(stored))})")
    page = open_page(ctx, f"{server}/?lang=en&speed=instant")
    score = "1–0" if won == 0 else "0–1"  # seat 0's page: its own wins first
    page.wait_for_function(  # no "Next game" to press: the page goes on as a spectator's does
        f"() => window.cribbage?.state && window.cribbage.state.id === {json.dumps(following)}"
    )
    assert not page.is_visible("#result-dialog")
    assert f"Match {score} (first to 2)" in (page.text_content("#game-info") or "")
    assert page.evaluate("() => window.cribbage.state.match.number") == 2
    shot(page, "match-next-game-en")
    ctx.close()
