"""An account's own games from any browser (issue 31, "Players who come back"): Aiko signs up in
one browser and starts a game against a computer there, signed in (the seat is her account's);
in a fresh browser she signs in, opens her profile, and "Go back to it" opens that game at the
same state (the browser got a key of its own for the seat); a finished rated game's "Review"
opens its review there too.  The first browser still plays its seat.

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_profile_e2e.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import _api, open_page, running_server, set_options, shot, step, wait_ready
from test_web_account_e2e import PASSWORD, me, open_account, session_of, sign_up
from test_web_profile_e2e import play_out, table

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("devices") / "games.db", args=limits) as base:
        yield base


def fresh(browser: Any, server: str) -> Any:
    """A new browser (a context of its own: nothing kept), at the game page."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.set_default_timeout(30_000)
    set_options(context, level="weak")  # not a first visit: the page starts a game, no welcome
    page = open_page(context, f"{server}/?lang=en&speed=instant")
    page.wait_for_function("() => window.cribbage?.state")
    return page


def current_game(page: Any) -> dict[str, Any]:
    game: dict[str, Any] = json.loads(page.evaluate("() => sessionStorage.getItem('cribbage.engine.game')"))
    return game


def open_profile(page: Any) -> None:
    open_account(page)
    page.click("#account-profile")
    page.wait_for_selector("#profile-dialog[open] #profile-recent")


def test_an_accounts_games_open_in_another_browser(browser: Any, server: str) -> None:
    a = fresh(browser, server)
    b = None
    try:
        guest = current_game(a)["id"]
        sign_up(a, "Aiko")
        a.click("#account-close")
        session_a = session_of(a)
        assert session_a
        # A new game against the computer, signed in: the seat is the account's.
        a.click("#btn-new")
        a.click("#opt-start")
        a.wait_for_function(
            "(old) => JSON.parse(sessionStorage.getItem('cribbage.engine.game')).id !== old", arg=guest
        )
        game = current_game(a)
        status, account = me(server, session_a)
        assert status == 200 and {"id": game["id"], "seat": 0} in [
            {"id": g["id"], "seat": g["seat"]} for g in account["games"]
        ]
        step(a)
        wait_ready(a)
        at_a = a.evaluate("() => window.cribbage.state")
        # A finished rated game of hers against Boris, played elsewhere (its seat tokens never here).
        boris = _api(server, "POST", "/api/accounts", {"name": "Boris", "password": PASSWORD})["token"]
        rated_id, seats = table(server, session_a, boris)
        play_out(server, rated_id, seats)

        # Browser B: nothing kept; Aiko signs in, her profile offers both games.
        b = fresh(browser, server)
        open_account(b)
        b.fill("#account-name", "Aiko")
        b.fill("#account-password", PASSWORD)
        b.click("#account-signin")
        b.wait_for_selector("#account-signout")
        b.click("#account-close")
        held = b.evaluate("() => localStorage.getItem('cribbage.seats')") or "[]"
        assert game["id"] not in held and rated_id not in held
        open_profile(b)
        shot(b, "devices-profile-b")
        b.click(f"#profile-playing li[data-game='{game['id']}'] button")
        b.wait_for_function(
            "(id) => window.cribbage && window.cribbage.state && window.cribbage.state.id === id",
            arg=game["id"],
        )
        wait_ready(b)
        at_b = b.evaluate("() => window.cribbage.state")
        assert (at_b["seat"], at_b["version"]) == (at_a["seat"], at_a["version"])
        assert at_b["view"]["hand"] == at_a["view"]["hand"] and at_b["view"]["kept"] == at_a["view"]["kept"]
        assert current_game(b)["token"] != game["token"]  # a key of its own, not A's token
        # B plays on; A, reloaded, still plays its seat and sees B's move.
        step(b)
        wait_ready(b)
        moved = b.evaluate("() => window.cribbage.state.version")
        assert moved > at_b["version"]
        a.reload()
        a.wait_for_function(
            "(v) => window.cribbage && window.cribbage.state && window.cribbage.state.version >= v", arg=moved
        )
        assert a.evaluate("() => window.cribbage.state.id") == game["id"]

        # The finished rated game's review, in B.
        open_profile(b)
        b.click(f"#profile-recent li[data-game='{rated_id}'] .review-link")
        b.wait_for_url("**/review?lang=en")
        b.wait_for_function("() => window.cribbageReview && window.cribbageReview.review")
        shot(b, "devices-review-b")
    finally:
        a.context.close()
        if b is not None:
            b.context.close()
