""" "Play now" in the browser (issue 31): people sign up in the page, press "Play now", choose a
pool, see how long and with how many they wait, and land at the same table, each at their own
seat, as a joined game opens; a whole short game (played through the HTTP API with the seats'
tokens: the clicks of a whole game are test_web_tables_e2e.py's) is rated for both, each page
back at the table showing its result; three people fill a table of the three-player pool; Cancel
leaves the queue.

One ``cribbage serve`` (which pairs its queue every second) and one Chromium for the module, whose
browser contexts serve its tests in turn (``e2e_helpers.ContextPool``: each person's page starts
with its storage cleared).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import ContextPool, no_horizontal_overflow, running_server, shot, state
from test_web_account_e2e import PASSWORD, open_account, session_of, sign_up
from test_web_profile_e2e import play_out
from test_web_tables_e2e import Person

DESKTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Every person here signs up and polls from one address: more than one person's limits.
    limits = [
        *("--limit", "signup=100/minute;1000/hour"),
        *("--limit", "play=2000/minute;20000/hour"),
        *("--limit", "create=200/minute;1000/hour"),
    ]
    with running_server(tmp_path_factory.mktemp("playnow") / "games.db", args=limits) as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


def call(
    server: str, method: str, path: str, session: str | None = None, body: Any = None
) -> tuple[int, Any]:
    """A request of the API (with a session and a body): its status and its answer."""
    headers = {"Authorization": f"Bearer {session}"} if session else {}
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(f"{server}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def arrive(person: Person, server: str, lang: str, viewport: dict[str, int] | None = None) -> Any:
    page = person.page
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{server}/?lang={lang}&speed=instant")
    page.wait_for_function("() => window.cribbage?.state")
    return page


def signed_up(
    person: Person, server: str, lang: str, name: str, viewport: dict[str, int] | None = None
) -> Any:
    page = arrive(person, server, lang, viewport)
    sign_up(page, name)
    page.click("#account-close")
    return page


def play_now(page: Any, pool: str) -> None:
    """Press "Play now", choose the pool, press Play: the wait is shown."""
    page.click("#btn-play")
    page.wait_for_selector("#play-dialog[open] #play-start:not([disabled])")
    page.select_option("#play-pool", pool)
    page.click("#play-start")
    page.wait_for_selector("#play-cancel")


def game_of(page: Any) -> dict[str, Any]:
    """The game this browser keeps as its own (its id, seat and token)."""
    return dict(json.loads(page.evaluate("() => localStorage.getItem('cribbage.engine.game')")))


def at_table(page: Any, before: str) -> dict[str, Any]:
    """Wait until the page shows another game than ``before``: the game it keeps."""
    page.wait_for_function(
        "(before) => !document.querySelector('#play-dialog[open]') && window.cribbage.state"
        " && window.cribbage.state.id !== before",
        arg=before,
        timeout=30_000,
    )
    return game_of(page)


def test_two_people_play_now_and_the_whole_game_is_rated(contexts: ContextPool, server: str) -> None:
    hana, ben = Person(contexts), Person(contexts)
    try:
        # Hana, on a phone in Japanese, presses "Play now" signed out: she is asked to sign in first,
        # and once signed up the dialog comes back.
        page_a = arrive(hana, server, "ja")
        loaded = page_a.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        assert not any(url.endswith("/view-playnow.js") for url in loaded)  # loaded at the first click
        assert page_a.inner_text("#btn-play") == "すぐ対局"
        page_a.click("#btn-play")
        page_a.wait_for_selector("#play-signin-note")
        assert "サインイン" in page_a.inner_text("#play-signin-note")
        page_a.click("#play-signin")
        page_a.wait_for_selector("#account-dialog[open] #account-name")
        page_a.fill("#account-name", "Hana")
        page_a.fill("#account-password", PASSWORD)
        page_a.click("#account-create")
        page_a.wait_for_selector("#account-close")
        page_a.click("#account-close")
        page_a.wait_for_selector("#play-dialog[open] #play-start:not([disabled])")
        pools = page_a.eval_on_selector_all("#play-pool option", "(os) => os.map((o) => [o.value, o.text])")
        assert [value for value, _ in pools] == ["standard", "short", "three", "partners"]
        assert dict(pools)["three"] == "3人"  # the pool's name in Japanese (lang pool.three)
        page_a.select_option("#play-pool", "short")
        page_a.click("#play-start")
        page_a.wait_for_selector("#play-count[data-n='1']")
        assert page_a.inner_text("#play-count") == "1人が待っています"
        assert re.fullmatch(r"待ち時間 0:0\d", page_a.inner_text("#play-waited"))
        page_a.wait_for_function(  # the time waited goes on
            "() => /0:0[1-9]/.test(document.getElementById('play-waited').textContent)"
        )
        assert no_horizontal_overflow(page_a)[0] <= 390
        shot(page_a, "playnow-waiting-ja")
        hana_game = state(page_a)["id"]

        # Ben, on a desktop in English, chooses the same pool: both are paired at one table.
        page_b = signed_up(ben, server, "en", "Ben", DESKTOP)
        assert page_b.inner_text("#btn-play") == "Play now"
        ben_game = state(page_b)["id"]
        play_now(page_b, "short")
        seat_a, seat_b = at_table(page_a, hana_game), at_table(page_b, ben_game)
        assert seat_a["id"] == seat_b["id"]
        assert {seat_a["seat"], seat_b["seat"]} == {0, 1}
        for page, seat in ((page_a, seat_a), (page_b, seat_b)):
            st = state(page)
            assert st["seat"] == seat["seat"] and st["options"]["variant"] == "short"
            assert [s["name"] for s in st["seats"]] in (["Hana", "Ben"], ["Ben", "Hana"])
        assert no_horizontal_overflow(page_a)[0] <= 390
        shot(page_b, "playnow-table-en")

        # The whole game through the API with the seats' tokens while the pages are away (the
        # clicks of a whole game are test_web_tables_e2e's); back at the table, each page opens
        # on its result.  Both are rated in the pool, the winner above.
        for page in (page_a, page_b):
            page.goto("about:blank")
        tokens = {seat_a["seat"]: seat_a["token"], seat_b["seat"]: seat_b["token"]}
        assert play_out(server, seat_a["id"], [tokens[0], tokens[1]])["over"]
        for page, lang in ((page_a, "ja"), (page_b, "en")):
            page.goto(f"{server}/?lang={lang}&speed=instant")
            page.wait_for_selector("#result-dialog[open]")
            assert state(page)["over"] and state(page)["id"] == seat_a["id"]
        profiles = {name: call(server, "GET", f"/api/players/{name}") for name in ("Hana", "Ben")}
        ratings = {}
        for name, (status, profile) in profiles.items():
            assert status == 200, profile
            (rating,) = [r for r in profile["ratings"] if r["pool"] == "short"]
            assert rating["games"] == 1, rating
            ratings[name] = rating
        winner, loser = sorted(ratings.values(), key=lambda r: -r["wins"])
        assert (winner["wins"], loser["wins"]) == (1, 0)
        assert winner["shown"] > loser["shown"]
        # Each sees the new rating on their own profile in the page (Hana's in Japanese).
        for page, name, provisional in ((page_a, "Hana", "暫定"), (page_b, "Ben", "provisional")):
            page.evaluate("() => document.getElementById('result-dialog').close()")
            open_account(page)
            page.click("#account-profile")
            page.wait_for_selector("#profile-dialog[open] .rating-card[data-pool='short']")
            card = page.inner_text(".rating-card[data-pool='short']")
            assert f"{ratings[name]['shown']} ± {ratings[name]['uncertainty']}" in card, card
            assert provisional in card, card
            page.keyboard.press("Escape")
        # The match was told once: nobody waits any more.
        for person in (hana, ben):
            assert call(server, "GET", "/api/play", session_of(person.page))[0] == 404
    finally:
        hana.close()
        ben.close()


def test_three_people_fill_a_table_of_the_three_player_pool(contexts: ContextPool, server: str) -> None:
    people = [Person(contexts) for _ in range(3)]
    try:
        pages = [
            signed_up(people[0], server, "ru", "Vera"),
            signed_up(people[1], server, "en", "Will", DESKTOP),
            signed_up(people[2], server, "ja", "Yuki"),
        ]
        before = [state(page)["id"] for page in pages]
        play_now(pages[0], "three")
        pages[0].wait_for_selector("#play-count[data-n='1']")
        assert pages[0].inner_text("#play-count") == "Ждёт 1 человек"
        assert pages[0].inner_text("#play-pool-name") == "Трое игроков"  # the pool's name (lang pool.three)
        shot(pages[0], "playnow-waiting-ru")
        play_now(pages[1], "three")
        pages[1].wait_for_selector("#play-count[data-n='2']")  # two wait: not a table yet
        assert pages[1].inner_text("#play-count") == "2 people waiting"
        play_now(pages[2], "three")
        seats = [at_table(page, game) for page, game in zip(pages, before, strict=True)]
        assert len({seat["id"] for seat in seats}) == 1
        assert sorted(seat["seat"] for seat in seats) == [0, 1, 2]
        for page, seat in zip(pages, seats, strict=True):
            assert state(page)["seat"] == seat["seat"]
            assert state(page)["options"]["variant"] == "three-player"
    finally:
        for person in people:
            person.close()


def test_cancel_leaves_the_queue_and_refusals_are_worded_by_their_codes(
    contexts: ContextPool, server: str
) -> None:
    zoe = Person(contexts)
    try:
        page = signed_up(zoe, server, "en", "Zoe", DESKTOP)
        session = session_of(page)
        play_now(page, "standard")
        page.wait_for_selector("#play-count[data-n='1']")
        status, waiting = call(server, "GET", "/api/play", session)
        assert status == 200 and waiting["pool"] == "standard" and waiting["waiting"] == 1, waiting
        with page.expect_response(lambda r: r.request.method == "DELETE" and r.url.endswith("/api/play")):
            page.click("#play-cancel")
        page.wait_for_selector("#play-dialog", state="hidden")
        status, answer = call(server, "GET", "/api/play", session)
        assert status == 404 and answer["code"] == "play.not_waiting", answer
        # Opened again: the pools to choose from, not a wait.
        page.click("#btn-play")
        page.wait_for_selector("#play-dialog[open] #play-start")
        assert not page.query_selector("#play-cancel")

        # A pool the server does not know (an old page): its refusal, worded, and no wait.
        page.eval_on_selector("#play-pool", "(s) => { s.options[0].value = 'nope'; s.value = 'nope'; }")
        page.click("#play-start")
        page.wait_for_selector("#play-error:not([hidden])")
        assert page.inner_text("#play-error") == "There is no such kind of game to play now."
        assert not page.query_selector("#play-cancel")

        # Waiting already (from another tab, in another pool): this page waits on with it.
        status, _ = call(server, "POST", "/api/play", session, {"pool": "three"})
        assert status == 202
        page.select_option("#play-pool", "standard")
        page.click("#play-start")
        page.wait_for_selector("#play-count[data-n='1']")
        assert page.inner_text("#play-pool-name") == "Three players"
        assert call(server, "GET", "/api/play", session)[1]["pool"] == "three"
        with page.expect_response(lambda r: r.request.method == "DELETE" and r.url.endswith("/api/play")):
            page.keyboard.press("Escape")  # closing the dialog leaves the queue too
        assert call(server, "GET", "/api/play", session)[0] == 404

        # A match, best of 3: the wait is for a match of first to 2 wins.
        page.click("#btn-play")
        page.wait_for_selector("#play-dialog[open] #play-start")
        labels = page.eval_on_selector_all("#play-first-to option", "(os) => os.map((o) => o.textContent)")
        assert labels == ["One game", "Match: best of 3", "Match: best of 5"], labels
        page.select_option("#play-pool", "standard")
        page.select_option("#play-first-to", "2")
        page.click("#play-start")
        page.wait_for_selector("#play-count[data-n='1']")
        waiting = call(server, "GET", "/api/play", session)[1]
        assert (waiting["pool"], waiting["first_to"]) == ("standard", 2), waiting
        with page.expect_response(lambda r: r.request.method == "DELETE" and r.url.endswith("/api/play")):
            page.click("#play-cancel")
    finally:
        zoe.close()
