"""The pools and the ratings in the browser (issue 42, "What players found in the third
walk-through"): two people play a rated game of the short pool (through the HTTP API with their
sessions, for speed), then

* the leaderboard opens on the pool they came from: from a profile whose only rating is Short,
  on Short; from the top bar, on the pool of the account's last rated game; an empty pool says
  so once (item 5);
* a pool has one name in each language, the same in Play now, the profile and the leaderboard
  (item 6).

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_profile_e2e.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import _api, running_server
from test_web_account_e2e import session_of, sign_up
from test_web_profile_e2e import DESKTOP, PHONE, person, play_out, table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("pools") / "games.db", args=limits) as base:
        yield base


def board_pool(page: Any) -> str:
    """The pool the open leaderboard shows, once its table (or its empty line) is there."""
    page.wait_for_selector("#board-dialog[open] .board-table, #board-dialog[open] #board-empty")
    return str(page.eval_on_selector("#board-pool", "(s) => s.value"))


def test_the_leaderboard_opens_on_the_pool_the_person_came_from(browser: Any, server: str) -> None:
    aiko = person(browser, server, "ja", PHONE)
    boris = person(browser, server, "en", DESKTOP)
    try:
        sign_up(aiko, "Aiko")
        aiko.click("#account-close")
        sign_up(boris, "Boris")
        boris.click("#account-close")
        sessions = [session_of(aiko), session_of(boris)]
        assert all(sessions)
        game_id, seats = table(server, str(sessions[0]), str(sessions[1]))
        play_out(server, game_id, seats)
        assert [r["pool"] for r in _api(server, "GET", "/api/players/Aiko")["ratings"]] == ["short"]

        # From Aiko's profile (her only rating is Short): the leaderboard of Short, both there.
        aiko.evaluate("() => import('/static/game/view-profile.js').then((m) => m.openProfile('Aiko'))")
        aiko.wait_for_selector("#profile-dialog[open] .rating-card[data-pool='short']")
        card_name = aiko.inner_text(".rating-card[data-pool='short'] h3")
        aiko.click("#profile-board")
        assert board_pool(aiko) == "short"
        assert len(aiko.query_selector_all(".board-table tbody tr")) == 2
        # The board's name of the pool is the profile's.
        shown = aiko.eval_on_selector("#board-pool", "(s) => s.selectedOptions[0].text")
        assert shown == card_name == "ショート (61)"

        # Standard has nobody: one sentence says so, not the same one twice.
        aiko.select_option("#board-pool", "standard")
        aiko.wait_for_selector("#board-empty")
        text = aiko.inner_text("#board-dialog")
        assert text.count("レーティング対局はまだありません") == 1 and not aiko.query_selector("#board-me")
        aiko.click("#board-close")

        # Play now names the pool as the profile and the leaderboard do.
        aiko.click("#btn-play")
        aiko.wait_for_selector("#play-pool option[value='short']", state="attached")
        assert aiko.inner_text("#play-pool option[value='short']") == card_name
        aiko.click("#play-close")

        # Boris, from the top bar, never having chosen a pool: his last rated game's, Short.
        boris.click("#btn-players")
        assert board_pool(boris) == "short"
        assert boris.inner_text("#board-me").startswith("Your place:")
    finally:
        aiko.context.close()
        boris.context.close()
