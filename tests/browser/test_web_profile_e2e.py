"""The players' screens in the browser (issue 31, "Players who come back"): two people sign up in
the page, play rated games against each other (through the HTTP API with their sessions, for
speed), then each opens their own profile and the leaderboard in the page: the rating with its
uncertainty, provisional, its graph, the games, the other's name; one in Japanese on a phone, one
in Russian then English on a desktop, nothing sticking out sideways.  A finished game's review
and the way back to a game in progress open from one's own profile (where the browser holds no
seat, the account opens it there: test_web_devices_e2e.py).
Signing out everywhere ends the account's session in another browser; deleting an account signs
the page out, takes the name off the other's leaderboard and words it as the deleted player's in
the other's recent games.

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_account_e2e.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from e2e_helpers import _api, no_horizontal_overflow, open_page, running_server, set_options, shot
from test_web_account_e2e import PASSWORD, me, open_account, session_of, sign_up
from web_fixtures import HUMAN, first_action

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
JA_NOT_FOUND = "この名前のプレイヤーはいません。"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("profile") / "games.db", args=limits) as base:
        yield base


def table(server: str, creator: str, joiner: str) -> tuple[str, list[str]]:
    """A rated table of two people (61 points), made with ``creator``'s session and joined (its
    rating accepted) with ``joiner``'s: its id and the seats' tokens."""
    body = {"seats": [HUMAN, HUMAN], "target": 61, "rated": True}
    made = _api(server, "POST", "/api/games", body, creator)
    invite = {"code": made["invites"][0]["code"], "name": "xx", "rated": True}
    joined = _api(server, "POST", "/api/join", invite, joiner)
    return made["id"], [made["token"], joined["token"]]


def play_out(
    server: str, game_id: str, seats: list[str], until: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any]:
    """The seat to act takes its first legal action, one after another, until the game is over or
    ``until`` holds of a state: that state (as the seat that acted last sees it).  An action's
    answer is the state its seat sees; another seat's is asked for only when that seat is to act."""
    seat = 0
    state: dict[str, Any] = _api(server, "GET", f"/api/games/{game_id}", token=seats[seat])
    for _ in range(3000):
        if state["over"] or (until is not None and until(state)):
            return state
        if state["view"]["to_act"] != seat:
            seat = state["view"]["to_act"]
            state = _api(server, "GET", f"/api/games/{game_id}", token=seats[seat])
        state = _api(server, "POST", f"/api/games/{game_id}/actions", first_action(state), seats[seat])
    raise AssertionError("the game did not end")


def person(browser: Any, server: str, lang: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport, locale={"ja": "ja-JP", "ru": "ru-RU"}.get(lang, "en-US"))
    context.set_default_timeout(30_000)
    set_options(context, level="weak")  # not a first visit: the page starts a game, no welcome
    page = open_page(context, f"{server}/?lang={lang}&speed=instant")
    page.wait_for_function("() => window.cribbage?.state")
    return page


def hold_seats(page: Any, seats: list[dict[str, Any]]) -> None:
    """The seats this browser would hold had it played these games (saved.js LS_SEATS)."""
    page.evaluate("(seats) => localStorage.setItem('cribbage.seats', JSON.stringify(seats))", seats)


def open_board(page: Any, pool: str) -> None:
    page.click("#btn-players")
    page.wait_for_selector("#board-dialog[open]")
    page.wait_for_selector(f"#board-pool option[value='{pool}']", state="attached")
    page.select_option("#board-pool", pool)
    page.wait_for_selector(".board-table")


def rows(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(
        ".board-table tbody tr", "(trs) => trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim()))"
    )


def test_profiles_and_the_leaderboard_of_two_rated_players(browser: Any, server: str) -> None:
    aiko = person(browser, server, "ja", PHONE)
    boris = person(browser, server, "ru", DESKTOP)
    other = person(browser, server, "en", DESKTOP)
    try:
        # Not signed in: the leaderboard is there, its module loaded at the first click only.
        loaded = aiko.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        assert not any(url.endswith(("/view-leaderboard.js", "/view-profile.js")) for url in loaded)
        sign_up(aiko, "Aiko")
        aiko.click("#account-close")
        sign_up(boris, "Boris")
        boris.click("#account-close")
        sessions = {"Aiko": session_of(aiko), "Boris": session_of(boris)}
        assert sessions["Aiko"] and sessions["Boris"]

        games = [table(server, sessions["Aiko"], sessions["Boris"]) for _ in range(3)]
        ends = [play_out(server, game_id, seats) for game_id, seats in games[:2]]
        aiko_wins = sum(1 for end in ends if end["result"]["winner"] == 0)
        hold_seats(aiko, [{"id": g, "token": seats[0], "seat": 0} for g, seats in games])

        # Aiko's own profile, from the account's dialog, in Japanese on a phone.
        open_account(aiko)
        aiko.click("#account-profile")
        aiko.wait_for_selector("#profile-dialog[open] .rating-card")
        card = aiko.inner_text(".rating-card[data-pool='short']")
        mine = _api(server, "GET", "/api/players/Aiko")["ratings"][0]
        assert f"{mine['shown']} ± {mine['uncertainty']}" in card and "暫定" in card
        assert "ショート (61)" in card
        assert f"1回あたりの平均点（{mine['deals']} 回）" in card and "ペギング" in card
        given = sum(1 for end in ends if end["result"]["winner"] == 0 and end["result"]["skunk"])
        taken = sum(1 for end in ends if end["result"]["winner"] == 1 and end["result"]["skunk"])
        assert f"スカンク: 勝ち {given}、負け {taken}" in card
        assert aiko.inner_text("#profile-totals") == f"レーティング対局: 2、勝ち: {aiko_wins}"
        assert aiko.get_attribute(".rating-card polyline", "points").count(",") == 2  # two games, two points
        assert len(aiko.query_selector_all("#profile-recent li")) == 2
        assert aiko.inner_text("#profile-recent").count("対戦相手: Boris") == 2
        assert aiko.query_selector_all("#profile-recent .review-link")  # the seats this browser holds
        playing = aiko.query_selector_all("#profile-playing li")
        assert [p.get_attribute("data-game") for p in playing] == [games[2][0]]
        assert no_horizontal_overflow(aiko)[0] <= PHONE["width"]
        shot(aiko, "profile-ja-phone")

        # The leaderboard, from the top bar: both names, her own row marked; Boris's name opens his profile.
        aiko.click("#profile-close")
        open_board(aiko, "short")
        names = [row[1] for row in rows(aiko)]
        assert sorted(names) == ["Aiko", "Boris"]
        assert aiko.inner_text(".board-table .me-row td:nth-child(2)") == "Aiko"
        assert "あなたの順位" in aiko.inner_text("#board-me")
        assert no_horizontal_overflow(aiko)[0] <= PHONE["width"]
        shot(aiko, "leaderboard-ja-phone")
        aiko.click(".board-table .player-link >> text=Boris")
        aiko.wait_for_selector("#profile-dialog[open] .rating-card")
        assert aiko.inner_text("#profile-title") == "Boris"
        assert not aiko.query_selector("#profile-playing")  # another's games in progress are not shown
        aiko.click("#profile-close")

        # Boris, in Russian on a desktop: notified of his turn at every correspondence table (the
        # browser allows it), his profile, then the leaderboard with Aiko on it.
        boris.context.grant_permissions(["notifications"])
        open_account(boris)
        assert not boris.is_checked("#account-push-all")
        boris.check("#account-push-all")
        boris.wait_for_function("() => localStorage.getItem('cribbage.pushAll') === 'true'")
        assert boris.is_checked("#account-push-all")
        boris.click("#account-profile")
        boris.wait_for_selector("#profile-dialog[open] .rating-card")
        assert "предварительный" in boris.inner_text(".rating-card[data-pool='short']")
        # No seat of these games held here, but they are his own: the account opens them here.
        assert len(boris.query_selector_all("#profile-recent .review-link")) == 2
        assert len(boris.query_selector_all("#profile-playing li button")) == 1
        boris.click("#profile-board")
        boris.wait_for_selector("#board-dialog[open]")
        boris.select_option("#board-pool", "short")
        boris.wait_for_selector(".board-table")
        assert "Aiko" in [row[1] for row in rows(boris)]
        assert boris.inner_text(".board-table .me-row td:nth-child(2)") == "Boris"
        boris.select_option("#lang-select", "en")  # the open screen in the new language
        boris.wait_for_function("() => document.getElementById('board-title').textContent === 'Leaderboard'")
        boris.wait_for_selector(".board-table")
        assert "Your place:" in boris.inner_text("#board-me")
        boris.select_option("#board-pool", "standard")  # nobody rated there: one sentence says so
        boris.wait_for_function(
            "(text) => document.getElementById('board-empty')?.textContent === text",
            arg="No rated game in this pool yet.",
        )
        assert not boris.query_selector("#board-me")
        shot(boris, "leaderboard-en-desktop")
        boris.click("#board-close")

        # The way back to a game in progress, and a finished game's review, from Aiko's profile.
        open_account(aiko)
        aiko.click("#account-profile")
        aiko.wait_for_selector("#profile-playing button")
        aiko.click("#profile-playing button")
        aiko.wait_for_function(
            "(id) => window.cribbage && window.cribbage.state && JSON.parse("
            "sessionStorage.getItem('cribbage.engine.game')).id === id",
            arg=games[2][0],
        )
        open_account(aiko)
        aiko.click("#account-profile")
        aiko.wait_for_selector("#profile-recent .review-link")
        aiko.click("#profile-recent .review-link >> nth=0")
        aiko.wait_for_url("**/review?lang=ja")
        aiko.wait_for_function("() => window.cribbageReview && window.cribbageReview.review")
        aiko.goto(f"{server}/?lang=ja&speed=instant")
        aiko.wait_for_function("() => window.cribbage?.state")

        # Signing out everywhere: Boris signed in in another browser too; both sessions end.
        open_account(other)
        other.fill("#account-name", "Boris")
        other.fill("#account-password", PASSWORD)
        other.click("#account-signin")
        other.wait_for_selector("#account-signout-all")
        other_session = session_of(other)
        assert other_session and me(server, other_session)[0] == 200
        other.click("#account-signout-all")
        other.wait_for_selector("#account-note")
        assert other.inner_text("#account-note") == "Signed out everywhere: 2 sessions ended."
        assert session_of(other) is None and other.inner_text("#btn-account") == "Sign in"
        assert me(server, other_session)[0] == 401
        assert me(server, sessions["Boris"])[0] == 401
        open_account(boris)  # the other browser finds it out at the dialog's next opening
        boris.wait_for_selector("#account-error:not([hidden])")
        assert boris.inner_text("#account-error") == "You are signed out: sign in again."
        boris.click("#account-cancel")

        # Deleting Aiko's account: a wrong password first, worded; then signed out, her name gone.
        open_account(aiko)
        aiko.click("#account-delete")
        assert no_horizontal_overflow(aiko)[0] <= PHONE["width"]
        shot(aiko, "account-delete-ja-phone")
        aiko.fill("#account-delete-password", "not the password")
        aiko.click("#account-delete-confirm")
        aiko.wait_for_selector("#account-error:not([hidden])")
        assert aiko.inner_text("#account-error") == "名前またはパスワードが違います。"
        aiko.fill("#account-delete-password", PASSWORD)
        aiko.click("#account-delete-confirm")
        aiko.wait_for_selector("#account-note")
        assert aiko.inner_text("#account-note") == "アカウントを削除しました。"
        assert session_of(aiko) is None and aiko.inner_text("#btn-account") == "サインイン"
        assert me(server, sessions["Aiko"])[0] == 401
        shot(aiko, "account-deleted-ja-phone")
        aiko.click("#account-cancel")
        open_board(boris, "short")
        assert [row[1] for row in rows(boris)] == ["Boris"]
        assert not boris.query_selector(".me-row")  # signed out everywhere: no place of his own marked
        # His games against her: the deleted player's word, in his page's language.
        boris.select_option("#lang-select", "ru")
        boris.wait_for_function(
            "(title) => document.getElementById('board-title').textContent === title", arg="Рейтинг игроков"
        )
        boris.wait_for_selector(".board-table")
        boris.click(".board-table .player-link >> text=Boris")
        boris.wait_for_selector("#profile-dialog[open] #profile-recent li")
        recent = boris.inner_text("#profile-recent")
        assert recent.count("против: удалённый игрок") == 2 and "Aiko" not in recent
        assert "null" not in boris.inner_text("#profile-dialog")
        boris.click("#profile-board")  # signed out: the leaderboard without a place of his own
        boris.wait_for_selector("#board-dialog[open] .board-table")
        assert not boris.query_selector("#board-me") and "null" not in boris.inner_text("#board-dialog")
        shot(boris, "profile-ru-desktop-deleted")
        open_board(aiko, "short")
        assert [row[1] for row in rows(aiko)] == ["Boris"] and not aiko.query_selector("#board-me")
        aiko.click("#board-close")
        # Her profile is no more (a link to it kept elsewhere): worded by its code.
        aiko.evaluate("() => import('/static/game/view-profile.js').then((m) => m.openProfile('Aiko'))")
        aiko.wait_for_selector("#profile-error")
        assert aiko.inner_text("#profile-error") == JA_NOT_FOUND
    finally:
        for page in (aiko, boris, other):
            page.context.close()
