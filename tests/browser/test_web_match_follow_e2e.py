"""A whole best-of-3 match of "Play now" in Debian's headless Chromium, one browser context per
person (issue 42 item 1; docs/api.md, "Matches", "Leave"): the games are played through the API,
and each person's page goes on to the match's next game by itself once it has shown how the last
one ended, as a spectator's does; a page that was closed finds the match where it is when it
comes back.  The person already there is not offered the seat of one who has not had the time to
arrive ("Give to a computer"); the last game shows who won the match."""

from __future__ import annotations

import json
from typing import Any

from e2e_helpers import _api, open_page
from test_web_matches_e2e import paired, play_out, server  # noqa: F401 - the module's server fixture

NAMES = ("Aiko", "Boris")


def stored_game(ctx: Any, game: str, token: str, seat: int) -> None:
    """The first page of ``ctx`` opens on ``game`` at ``seat`` (as after taking it); a later one
    on the game the page kept."""
    stored = {"id": game, "token": token, "seat": seat}
    ctx.add_init_script(
        "if (!localStorage.getItem('e2e-game')) {"
        f" localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(stored))});"
        " localStorage.setItem('e2e-game', '1'); }"
    )


def goes_to(page: Any, game: str) -> None:
    """The page shows the end of the game it is on (Continue pressed at every show it holds at, as
    a person would) and goes to ``game`` by itself: no "Next game" clicked."""
    reached = f"() => window.cribbage?.state?.id === {json.dumps(game)} && !window.cribbage.busy"
    for _ in range(100):
        page.wait_for_function(f"() => ({reached})() || !!document.getElementById('btn-continue')")
        if page.evaluate(reached):
            return
        page.click("#btn-continue")
    raise AssertionError(f"the page did not go on to game {game}")


def shows_the_end(page: Any) -> str:
    """Continue at every show until the last game's result: its title."""
    for _ in range(100):
        page.wait_for_function(
            "() => document.getElementById('result-dialog').open || !!document.getElementById('btn-continue')"
        )
        if page.evaluate("() => document.getElementById('result-dialog').open"):
            return str(page.text_content("#result-title"))
        page.click("#btn-continue")
    raise AssertionError("the page did not show the match's end")


def test_both_pages_follow_a_best_of_3_to_its_end(browser: Any, server: str) -> None:  # noqa: F811
    seats = paired(server, NAMES)
    game, tokens = seats[0]["game"], [seat["token"] for seat in seats]
    contexts, pages = [], []
    try:
        for seat in range(2):
            ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
            ctx.set_default_timeout(30_000)
            stored_game(ctx, game, tokens[seat], seat)
            contexts.append(ctx)
            pages.append(open_page(ctx, f"{server}/?lang=en&speed=instant"))
        for page in pages:
            page.wait_for_function(f"() => window.cribbage?.state?.id === {json.dumps(game)}")
        wins = [0, 0]
        number = 1
        while True:
            last = play_out(server, game, tokens)
            wins[last["result"]["winner"]] += 1  # nobody was absent: the result's winner wins it
            if last["match"]["over"]:
                break
            following = _api(server, "GET", f"/api/games/{game}", token=tokens[0])["rematch"]
            assert following, "the server made the next game"
            number += 1
            if pages[1].is_closed():  # Boris comes back: his page finds the match where it is
                pages[1] = open_page(contexts[1], f"{server}/?lang=en&speed=instant")
            for seat, page in enumerate(pages):
                goes_to(page, following)
                st = page.evaluate("() => window.cribbage.state")
                assert st["match"]["number"] == number and st["seat"] == seat
                score = f"{wins[seat]}–{wins[1 - seat]}"
                assert f"Match {score} (first to 2)" in (page.text_content("#game-info") or "")
                assert not page.is_visible("#result-dialog")
            if number == 2:
                # Boris closes his page as the second game begins: Aiko sees him offline, and is
                # not offered his seat (he may be on his way, docs/api.md "Leave": arrival).
                pages[1].close()
                aiko = pages[0]
                aiko.wait_for_selector('#table-panel li[data-seat="1"] .presence.offline')
                arrival = aiko.evaluate("() => window.cribbage.state.arrival")
                assert arrival and arrival > aiko.evaluate("() => Date.now() / 1000")
                assert not aiko.query_selector('#table-panel li[data-seat="1"] .seat-computer')
            game = following
        if pages[1].is_closed():
            pages[1] = open_page(contexts[1], f"{server}/?lang=en&speed=instant")
        winner = wins.index(2)
        for seat, page in enumerate(pages):  # the last game's result says who won the match
            title = shows_the_end(page)
            expected = "You win the match!" if seat == winner else f"Match won by {NAMES[winner]}."
            assert expected in title, title
            assert page.evaluate("() => window.cribbage.state.id") == game
            assert page.evaluate("() => window.cribbage.state.match.over") is True
    finally:
        for ctx in contexts:
            ctx.close()
