"""Accounts over HTTP (issue 31, part 1; docs/api.md, "Accounts"): sign up, one name under width
and case, weak and huge passwords, one answer for a wrong name and a wrong password, signing out
here and everywhere, a stolen or expired session, the sign-in and sign-up limits, seats linked
by a session token or claimed from the browser, deletion showing ``deleted player`` on a
finished game's public pages; and no answer ever holds a password's hash or another's session."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app.people.accounts import SESSION_DAYS
from cribbage.storage import ERASED_NAME
from cribbage.web.ratelimits import NO_LIMITS
from fake_time import FakeTime
from web_fixtures import PASSWORD, auth, connect, make_app, new_game, play_out, receive, table, watch_link


class Browser:
    """A test client that keeps every answer's text, to look for what no answer may hold."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.texts: list[str] = []

    def post(self, url: str, token: str | None = None, **kwargs: Any) -> Any:
        answer = self.client.post(url, headers=auth(token) if token else {}, **kwargs)
        self.texts.append(answer.text)
        return answer

    def get(self, url: str, token: str | None = None) -> Any:
        answer = self.client.get(url, headers=auth(token) if token else {})
        self.texts.append(answer.text)
        return answer

    def sign_up(self, name: str, password: str = PASSWORD) -> str:
        answer = self.post("/api/accounts", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        assert set(answer.json()) == {"token", "account"}
        return str(answer.json()["token"])

    def sign_in(self, name: str, password: str = PASSWORD) -> Any:
        return self.post("/api/accounts/signin", json={"name": name, "password": password})


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def browser(clock: FakeTime) -> Iterator[Browser]:
    """A running application (a computer that answers at once) whose storage reads ``clock``."""
    app = make_app(computer="random", limits=NO_LIMITS)
    app.state.service.storage.now = lambda: datetime.fromtimestamp(clock(), UTC)
    with TestClient(app) as client:
        yield Browser(client)


def refusal(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["code"] == code
    return body


def test_sign_up_sign_in_and_the_account(browser: Browser) -> None:
    token = browser.sign_up("Aiko")
    me = browser.get("/api/accounts/me", token).json()
    assert me == {
        "name": "Aiko",
        "created": me["created"],
        "games": [],
        "finished": 0,
        "password": True,
        "passkeys": 0,
    }
    signed = browser.sign_in("aiko")
    assert signed.status_code == 200 and signed.json()["account"]["name"] == "Aiko"
    assert signed.json()["token"] != token


@pytest.mark.parametrize("variant", ["Aiko", "aiko", "AIKO", "Ａｉｋｏ", "ａｉｋｏ", " Aiko "])
def test_a_taken_name_is_refused_whatever_its_case_or_width(browser: Browser, variant: str) -> None:
    browser.sign_up("Aiko")
    answer = browser.post("/api/accounts", json={"name": variant, "password": PASSWORD})
    refusal(answer, 409, "account.name_taken")


@pytest.mark.parametrize(
    ("password", "reason"),
    [("short", "length"), ("x" * 257, "length"), ("Aiko_San", "name"), ("aiko_san", "name")],
)
def test_a_weak_password_is_refused(browser: Browser, password: str, reason: str) -> None:
    answer = browser.post("/api/accounts", json={"name": "Aiko_San", "password": password})
    assert refusal(answer, 422, "account.bad_password")["reason"] == reason


def test_a_huge_password_is_refused_unread(browser: Browser) -> None:
    answer = browser.post("/api/accounts", json={"name": "Aiko", "password": "x" * 100_000})
    assert answer.status_code in (413, 422), answer.text
    refusal(browser.sign_in("Aiko", "x" * 5000), 422, "bad_request")


def test_a_bad_name_is_refused(browser: Browser) -> None:
    for name, reason in (
        ("a", "length"),
        ("<script>", "characters"),
        ("a  b", "spaces"),
        ("a\u0007b", "characters"),
    ):
        answer = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert refusal(answer, 422, "account.bad_name")["reason"] == reason


def test_a_wrong_password_is_answered_as_an_unknown_name(browser: Browser) -> None:
    browser.sign_up("Aiko")
    wrong, unknown = browser.sign_in("Aiko", "not the password"), browser.sign_in("Nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {"error": "wrong name or password", "code": "account.bad_credentials"}
    )
    assert wrong.headers.get("www-authenticate") == unknown.headers.get("www-authenticate")


def test_sign_out_and_sign_out_everywhere(browser: Browser) -> None:
    first = browser.sign_up("Aiko")
    second, third = (browser.sign_in("Aiko").json()["token"] for _ in range(2))
    assert browser.post("/api/accounts/signout", first).json() == {"ended": 1}
    refusal(browser.get("/api/accounts/me", first), 401, "account.bad_session")
    refusal(browser.post("/api/accounts/signout", first), 401, "account.bad_session")
    assert browser.get("/api/accounts/me", second).status_code == 200
    assert browser.post("/api/accounts/signout/all", third).json() == {"ended": 2}
    for token in (second, third):
        refusal(browser.get("/api/accounts/me", token), 401, "account.bad_session")


def test_a_stolen_expired_or_missing_session_is_refused(browser: Browser, clock: FakeTime) -> None:
    token = browser.sign_up("Aiko")
    refusal(browser.get("/api/accounts/me"), 401, "account.bad_session")
    refusal(browser.get("/api/accounts/me", token + "x"), 401, "account.bad_session")
    game = new_game(browser.client)  # a seat's token is not a session
    refusal(browser.get("/api/accounts/me", game[1]), 401, "account.bad_session")
    clock.advance(timedelta(days=SESSION_DAYS).total_seconds() - 1)
    assert browser.get("/api/accounts/me", token).status_code == 200
    clock.advance(1)
    refusal(browser.get("/api/accounts/me", token), 401, "account.bad_session")


def test_signin_and_signup_are_limited_per_address() -> None:
    app = make_app(limits={**NO_LIMITS, "signin": "3/minute", "signup": "2/minute"})
    with TestClient(app, client=("203.0.113.9", 1)) as client:
        one = Browser(client)
        one.sign_up("Aiko")
        one.sign_up("Boris")
        refusal(one.post("/api/accounts", json={"name": "Chen", "password": PASSWORD}), 429, "too_many")
        assert [one.sign_in("Aiko", "guess").status_code for _ in range(3)] == [401, 401, 401]
        over = refusal(one.sign_in("Aiko"), 429, "too_many")  # even the right password
        assert (
            over["limit"] == "signin"
            and int(one.client.post("/api/accounts/signin").headers["retry-after"]) > 0
        )
    with TestClient(app, client=("203.0.113.10", 1)) as elsewhere:
        assert Browser(elsewhere).sign_in("Aiko").status_code == 200


def test_a_game_made_or_joined_with_a_session_is_the_accounts(browser: Browser) -> None:
    aiko, boris = browser.sign_up("Aiko"), browser.sign_up("Boris")
    made = browser.post("/api/games", aiko, json={"level": "weak"})
    assert made.status_code == 201 and set(made.json()) == {"id", "token", "state", "invites"}
    game_id = made.json()["id"]
    at = browser.post("/api/games", aiko, json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    joined = browser.post("/api/join", boris, json={"code": at["invites"][0]["code"], "name": "Bob"})
    assert joined.status_code == 201
    mine = browser.get("/api/accounts/me", aiko).json()["games"]
    assert {(game["id"], game["seat"]) for game in mine} == {(game_id, 0), (at["id"], 0)}
    assert browser.get("/api/accounts/me", boris).json()["games"] == [
        {"id": at["id"], "seat": 1, "over": False, "url": f"/api/games/{at['id']}"}
    ]
    # A guest, or a session no longer valid, plays as before.
    assert new_game(browser.client)[0]
    assert browser.post("/api/games", "no such session", json={"level": "weak"}).status_code == 201


def test_a_browsers_guest_games_are_claimed_never_anothers(browser: Browser) -> None:
    game_id, tokens, _codes = table(browser.client)
    aiko, boris = browser.sign_up("Aiko"), browser.sign_up("Boris")
    claimed = browser.post("/api/accounts/claim", aiko, json={"tokens": [tokens[0], "stale token"]})
    assert claimed.json() == {
        "claimed": [{"id": game_id, "seat": 0, "over": False, "url": f"/api/games/{game_id}"}]
    }
    refusal(browser.post("/api/accounts/claim", boris, json={"tokens": tokens}), 409, "account.seat_claimed")
    assert browser.get("/api/accounts/me", boris).json()["games"] == []  # nothing half-linked
    refusal(browser.post("/api/accounts/claim", json={"tokens": tokens}), 401, "account.bad_session")
    refusal(browser.post("/api/accounts/claim", aiko, json={"tokens": []}), 422, "bad_request")


def test_deletion_shows_deleted_player_on_a_finished_games_public_pages(browser: Browser) -> None:
    token = browser.sign_up("Aiko")
    made = browser.post(
        "/api/games", token, json={"level": "weak", "target": 31, "names": ["Aiko S."]}
    ).json()
    game_id, seat_token = made["id"], made["token"]
    state, _ = play_out(browser.client, game_id, [seat_token, None])
    assert state["over"] and state["names"][0] == "Aiko S."
    code = watch_link(browser.client, game_id, seat_token)
    assert browser.get(f"/api/watch/{code}").json()["names"][0] == "Aiko S."
    assert browser.get("/api/accounts/me", token).json()["finished"] == 1
    refusal(
        browser.post("/api/accounts/delete", token, json={"password": "wrong one!"}),
        401,
        "account.bad_credentials",
    )
    assert browser.post("/api/accounts/delete", token, json={"password": PASSWORD}).json() == {
        "deleted": True,
        "games": 1,
    }
    watched = browser.get(f"/api/watch/{code}").json()
    assert watched["names"][0] == ERASED_NAME and watched["seats"][0]["name"] == ERASED_NAME
    record = browser.get(f"/api/games/{game_id}/record", seat_token).json()
    assert record["names"][0] == ERASED_NAME and record["actions"]  # the game is kept
    assert browser.get(f"/api/games/{game_id}", seat_token).json()["names"][0] == ERASED_NAME
    assert all("Aiko S." not in text for text in browser.texts[-3:])
    refusal(browser.get("/api/accounts/me", token), 401, "account.bad_session")
    refusal(browser.sign_in("Aiko"), 401, "account.bad_credentials")


def test_no_answer_holds_a_password_hash_or_anothers_session(browser: Browser) -> None:
    aiko = browser.sign_up("Aiko")
    boris = browser.sign_up("Boris")
    also = browser.sign_in("Aiko").json()["token"]
    game_id, tokens, _codes = table(browser.client)
    browser.post("/api/accounts/claim", aiko, json={"tokens": [tokens[0]]})
    browser.get("/api/accounts/me", aiko)
    browser.get("/api/accounts/me", boris)
    browser.post("/api/accounts/signout", also)
    browser.get(f"/api/games/{game_id}", tokens[1])
    storage = browser.client.app.state.service.storage  # type: ignore[attr-defined]
    hashes = [storage.accounts.by_name(key).password_hash for key in ("aiko", "boris")]
    assert all(h.startswith("$argon2id$") for h in hashes)
    for text in browser.texts:
        assert "$argon2" not in text and PASSWORD not in text
        assert all(h not in text for h in hashes)
    # Each session appears only in the answer that made it.
    for secret in (aiko, boris, also):
        assert sum(secret in text for text in browser.texts) == 1


def test_the_pages_of_a_game_in_progress_hear_the_name_go(browser: Browser) -> None:
    aiko = browser.sign_up("Aiko")
    at = browser.post("/api/games", aiko, json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    joined = browser.post("/api/join", json={"code": at["invites"][0]["code"], "name": "Boris"}).json()
    with ExitStack() as stack:
        ws = connect(stack, browser.client, at["id"], joined["token"])
        assert receive(ws)["state"]["names"] == ["Player 1", "Boris"]
        browser.post("/api/accounts/delete", aiko, json={"password": PASSWORD})
        message = receive(ws)
        assert message["type"] == "state" and message["state"]["names"] == [ERASED_NAME, "Boris"]
    assert browser.get(f"/api/games/{at['id']}", at["token"]).json()["seat"] == 0  # still plays


def test_a_rematch_of_an_accounts_game_is_the_accounts_too(browser: Browser) -> None:
    token = browser.sign_up("Aiko")
    made = browser.post("/api/games", token, json={"level": "weak", "target": 31}).json()
    play_out(browser.client, made["id"], [made["token"], None])
    again = browser.post(f"/api/games/{made['id']}/rematch", made["token"])
    assert again.status_code == 200, again.text
    me = browser.get("/api/accounts/me", token).json()
    assert [game["id"] for game in me["games"]] == [again.json()["id"]] and me["finished"] == 1
