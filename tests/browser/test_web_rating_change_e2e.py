"""A rated game's rating changes in the browser (issue 42, item 12): two people, each in a
browser context of their own (one in English on a desktop, one in Japanese on a phone), watch
their rated game to its end (played through the HTTP API with their seats' tokens, for speed;
their pages follow it live): the result screen shows each player's rating after the game and its
change, which the server records a moment after the game's last state and sends again; then a
profile's recent games say won or lost, and against whom.

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_profile_e2e.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import _api, running_server
from test_web_account_e2e import session_of, sign_up
from test_web_profile_e2e import DESKTOP, PHONE, person, play_out, table

RESULT_OR_CONTINUE = (
    "() => document.getElementById('result-dialog').open"
    " || !!document.querySelector('#btn-continue:not([hidden])')"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("rating-change") / "games.db", args=limits) as base:
        yield base


def open_game(page: Any, server: str, lang: str, game_id: str, token: str, seat: int) -> None:
    """The page on a seat of a game (as the way back from a profile opens it), live."""
    held = json.dumps({"id": game_id, "token": token, "seat": seat})
    page.evaluate(
        "(held) => { localStorage.setItem('cribbage.engine.game', held);"
        " sessionStorage.setItem('cribbage.engine.game', held); }",
        held,
    )
    page.goto(f"{server}/?lang={lang}&speed=instant")
    page.wait_for_function(
        f"() => window.cribbage?.state?.id === {json.dumps(game_id)} && window.cribbage.live === 'live'"
    )


def see_result(page: Any) -> None:
    """The result screen, past each deal's show held at Continue (at most one a deal)."""
    for _deal in range(40):
        page.wait_for_function(RESULT_OR_CONTINUE)
        if page.evaluate("() => document.getElementById('result-dialog').open"):
            return
        page.click("#btn-continue")
    raise AssertionError("no result screen")


def change_text(change: int) -> str:
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "±0"


def test_the_result_shows_each_rating_change_and_the_profile_who_won(browser: Any, server: str) -> None:
    aiko = person(browser, server, "en", DESKTOP)
    boris = person(browser, server, "ja", PHONE)
    try:
        sign_up(aiko, "Aiko")
        aiko.click("#account-close")
        sign_up(boris, "Boris")
        boris.click("#account-close")
        sessions = [str(session_of(aiko)), str(session_of(boris))]
        first_id, first_seats = table(server, *sessions)
        play_out(server, first_id, first_seats)  # a first rated game each: the next one has a change

        # The second game's first half with the pages away (following its moves is not what is
        # looked at); from 31 points (no state is 30 points from the end) the pages follow it live.
        game_id, seats = table(server, *sessions)
        half = play_out(server, game_id, seats, until=lambda st: max(st["view"]["scores"]) >= 31)
        assert not half["over"], half["view"]["scores"]
        open_game(aiko, server, "en", game_id, seats[0], 0)
        open_game(boris, server, "ja", game_id, seats[1], 1)
        end = play_out(server, game_id, seats)
        for page in (aiko, boris):
            see_result(page)
            page.wait_for_selector("#result-ratings:not([hidden]) .rating-change[data-seat='1']")

        profiles = [_api(server, "GET", f"/api/players/{name}") for name in ("Aiko", "Boris")]
        after = [(p["recent"][0]["shown"], p["recent"][0]["change"]) for p in profiles]
        assert [p["recent"][0]["id"] for p in profiles] == [game_id, game_id]
        assert all(change is not None for _shown, change in after)
        lines = aiko.eval_on_selector_all(
            "#result-ratings .rating-change", "(ps) => ps.map((p) => p.textContent)"
        )
        assert lines == [
            f"You: {after[0][0]} ({change_text(after[0][1])})",
            f"{end['names'][1]}: {after[1][0]} ({change_text(after[1][1])})",  # the table's name
        ]
        japanese = boris.inner_text("#result-ratings")
        assert (
            "レーティング" in japanese
            and f"{end['names'][0]}: {after[0][0]}（{change_text(after[0][1])}）" in japanese
        )
        winner = end["result"]["winner"]
        up = aiko.get_attribute(f"#result-ratings .rating-change[data-seat='{winner}']", "class")
        assert up is not None and "up" in up.split()

        # Aiko's profile: her last game won or lost, against Boris.
        aiko.click("#result-close")
        aiko.evaluate("() => import('/static/game/view-profile.js').then((m) => m.openProfile('Aiko'))")
        last = aiko.wait_for_selector(f"#profile-recent li[data-game='{game_id}']")
        assert last is not None
        text = last.inner_text()
        assert ("Won" if winner == 0 else "Lost") in text and "vs Boris" in text
        assert change_text(after[0][1]) in text
    finally:
        aiko.context.close()
        boris.context.close()
