"""The abuse limits of ``cribbage serve`` (issue 17, item 1): each named limit refuses with 429,
``Retry-After`` and ``{"error", "code": "too_many", "limit", "retry_after"}``, and serves again
once its window has passed; wrong tokens lock out their address only, over HTTP and on the live
socket; counters are shared by processes through Redis; the page words the refusal in the
player's language.

The limits are counted on a clock the tests move (:class:`~cribbage.web.messaging.windows.MemoryWindows`
given a :class:`FakeTime`, by a :class:`ClockedBroker`): a window passes when the test says so,
and no test waits for it.  Redis counts on the system's clock; its tests need no window to pass.
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cribbage.cli import main
from cribbage.web.messaging.broker import MemoryBroker
from cribbage.web.messaging.windows import Clock, MemoryWindows
from cribbage.web.ratelimits import (
    DEFAULT_LIMITS,
    LIMITS,
    NO_LIMITS,
    RateLimits,
    TooMany,
)
from cribbage.web.server import app_from_environment
from cribbage.web.settings import ENVIRONMENT
from e2e_helpers import running_server, set_options
from fake_time import FakeTime
from service_urls import REDIS_URL
from web_fixtures import auth, make_app

HAND = {"hand": ["5H", "5C", "5S", "JD"], "starter": "5D"}
TWO_PEOPLE = {"seats": [{"kind": "human"}, {"kind": "human"}]}


def only(name: str, spec: str) -> dict[str, str]:
    """Every limit off but ``name``: each test sees the limit it is about, and no other."""
    return {**NO_LIMITS, name: spec}


class ClockedBroker(MemoryBroker):
    """The memory broker with the limits counted on ``clock``."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock

    def limits_storage(self) -> MemoryWindows:
        return MemoryWindows(self.clock)


def clocked_app(clock: FakeTime, limits: dict[str, str]) -> Any:
    """An application whose limits count on ``clock``."""
    return make_app(limits=limits, broker=ClockedBroker(clock))


def client_at(app: Any, address: str) -> TestClient:
    """A test client whose requests come from ``address``."""
    return TestClient(app, client=(address, 50000))


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"level": "weak", **options})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def assert_too_many(answer: Any, name: str) -> int:
    """The answer is the 429 of limit ``name``; returns its wait in seconds."""
    assert answer.status_code == 429, answer.text
    body = answer.json()
    wait = int(answer.headers["retry-after"])
    assert body == {"error": body["error"], "code": "too_many", "limit": name, "retry_after": wait}
    assert 1 <= wait <= 60 and f"try again in {wait} seconds" in body["error"]
    return wait


# --------------------------------------------------------------------------- each limit


def _create(client: TestClient, _game: dict[str, Any]) -> Any:
    return client.post("/api/games", json={"level": "weak"})


def _join(client: TestClient, game: dict[str, Any]) -> Any:
    return client.post("/api/join", json={"code": "ZZZZZZ", "name": "Eve"})  # 404s count too


def _score(client: TestClient, _game: dict[str, Any]) -> Any:
    return client.post("/api/score", json=HAND)


def _peg(client: TestClient, _game: dict[str, Any]) -> Any:
    return client.post("/api/peg", json={"cards": ["5H", "TD"]})


def _state(client: TestClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}", headers=auth(game["token"]))


def _hint(client: TestClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}/hint", headers=auth(game["token"]))


REQUESTS: dict[str, tuple[str, Callable[[TestClient, dict[str, Any]], Any], int]] = {
    "create": ("create", _create, 201),
    "join": ("join", _join, 404),
    "score": ("score", _score, 200),
    "peg": ("score", _peg, 200),
    "token-state": ("token", _state, 200),
    "token-hint": ("token", _hint, 200),
}


@pytest.mark.parametrize("case", list(REQUESTS))
def test_each_limit_refuses_with_429_and_serves_again_after_its_window(case: str) -> None:
    name, send, ok = REQUESTS[case]
    clock = FakeTime()
    app = clocked_app(clock, only(name, "2/minute"))
    client = TestClient(app)
    game = new_game(TestClient(app, client=("192.0.2.1", 1)) if name == "create" else client)
    assert [send(client, game).status_code for _ in range(2)] == [ok, ok]
    clock.advance(20)
    wait = assert_too_many(send(client, game), name)
    assert wait == 40  # until the first request leaves the minute's window
    clock.advance(wait - 0.5)
    assert_too_many(send(client, game), name)  # not yet
    clock.advance(0.5)
    assert send(client, game).status_code == ok


def test_score_and_peg_share_one_limit_and_the_rest_of_the_api_is_not_counted() -> None:
    client = TestClient(make_app(limits={"score": "3/minute"}))
    assert [_score(client, {}).status_code, _peg(client, {}).status_code] == [200, 200]
    assert client.get("/api/variants").status_code == 200
    assert client.get("/api/lobby").status_code == 200
    assert _score(client, {}).status_code == 200
    assert_too_many(_peg(client, {}), "score")
    assert_too_many(_score(client, {}), "score")
    assert client.get("/api/lobby").status_code == 200


def test_a_malformed_body_counts_and_the_limit_comes_before_the_body_is_checked() -> None:
    client = TestClient(make_app(limits={"create": "2/minute"}))
    assert client.post("/api/games", json={"level": "godlike"}).status_code == 422
    assert client.post("/api/games", json=["not", "an", "object"]).status_code == 422
    assert_too_many(client.post("/api/games", json={"level": "godlike"}), "create")
    assert_too_many(client.post("/api/games", json={"level": "weak"}), "create")
    # A body that is not JSON at all is refused as it is read, before any count: it can do nothing.
    headers = {"Content-Type": "application/json"}
    assert client.post("/api/games", content=b"{not json", headers=headers).status_code == 422


def test_a_limit_counts_per_address() -> None:
    app = make_app(limits={"create": "2/minute"})
    one, two = client_at(app, "198.51.100.1"), client_at(app, "198.51.100.2")
    new_game(one)
    new_game(one)
    assert_too_many(_create(one, {}), "create")
    new_game(two)  # another address is served
    assert_too_many(_create(one, {}), "create")


def test_the_token_limit_counts_per_token_not_per_address() -> None:
    client = TestClient(make_app(limits={"token": "3/minute"}))
    first, second = new_game(client), new_game(client)
    for _ in range(3):
        assert _state(client, first).status_code == 200
    assert_too_many(_state(client, first), "token")
    assert_too_many(
        client.post(f"/api/games/{first['id']}/actions", json={"type": "pass"}, headers=auth(first["token"])),
        "token",
    )
    assert _state(client, second).status_code == 200  # the same address, another seat


def test_off_turns_a_limit_off_and_the_defaults_allow_ordinary_use() -> None:
    client = TestClient(make_app(limits={"create": "off"}))
    for _ in range(int(DEFAULT_LIMITS["create"].split("/")[0]) + 5):
        new_game(client)
    defaults = TestClient(make_app())
    for _ in range(10):  # a person's evening: ten games, each looked at and hinted
        game = new_game(defaults)
        assert _state(defaults, game).status_code == 200
        assert _hint(defaults, game).status_code == 200
        assert _score(defaults, game).status_code == 200


def test_an_unknown_limit_or_a_bad_spec_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match=r"unknown limit 'games': the limits are create, join"):
        make_app(limits={"games": "1/minute"})
    with pytest.raises(ValueError, match=r"limit create: 'lots' is not a rate limit"):
        make_app(limits={"create": "lots"})
    for cap, spec in (("sockets", "30/minute"), ("spectators", "0"), ("sockets", "-2")):
        with pytest.raises(ValueError, match=rf"limit {cap}: '{spec}' is not a whole number"):
            make_app(limits={cap: spec})
    assert set(LIMITS) == {
        "create",
        "join",
        "wrong_token",
        "score",
        "token",
        "spectator",
        "chat",
        "report",
        "signin",
        "signup",
        "play",
        "players",
        "sockets",
        "spectators",
        "tournaments",
    }


# --------------------------------------------------------------------------- wrong tokens


def test_wrong_tokens_lock_out_their_address_only_even_with_the_right_token() -> None:
    clock = FakeTime()
    app = clocked_app(clock, only("wrong_token", "3/minute"))
    owner = client_at(app, "203.0.113.7")
    game = new_game(owner)
    attacker = client_at(app, "203.0.113.66")
    wrong = [
        attacker.get(f"/api/games/{game['id']}", headers=auth("guess")),
        attacker.get(f"/api/games/{game['id']}/hint"),  # a missing token fails too
        attacker.post(f"/api/games/{game['id']}/actions", json={"type": "pass"}, headers=auth("x")),
    ]
    assert [answer.status_code for answer in wrong] == [401, 401, 401]
    # Over the limit: refused before the token is looked at, even the right one.
    assert_too_many(attacker.get(f"/api/games/{game['id']}", headers=auth(game["token"])), "wrong_token")
    wait = assert_too_many(attacker.get(f"/api/games/{game['id']}", headers=auth("guess")), "wrong_token")
    # The owner, at another address, plays on.
    assert _state(owner, game).status_code == 200
    assert owner.get(f"/api/games/{game['id']}", headers=auth("typo")).status_code == 401
    assert _state(owner, game).status_code == 200
    # The rest of the API still answers the locked-out address.
    assert _score(attacker, game).status_code == 200
    assert wait == 60
    clock.advance(wait - 0.5)
    assert_too_many(attacker.get(f"/api/games/{game['id']}", headers=auth(game["token"])), "wrong_token")
    clock.advance(0.5)
    assert attacker.get(f"/api/games/{game['id']}", headers=auth(game["token"])).status_code == 200


def _live(client: TestClient, game_id: str, first: str) -> list[dict[str, Any]]:
    """What a live socket hears after sending ``first``, until it is closed; and the close code
    as a last message ``{"closed": code}``."""
    heard: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
        try:
            ws.send_text(first)
            while True:
                heard.append(ws.receive_json())
                if heard[-1].get("type") == "state":
                    return heard
        except WebSocketDisconnect as closed:
            heard.append({"closed": closed.code})
    return heard


def test_the_live_socket_counts_wrong_tokens_and_refuses_a_locked_out_address() -> None:
    app = make_app(limits=only("wrong_token", "2/minute"))
    owner = client_at(app, "203.0.113.8")
    game = new_game(owner, **TWO_PEOPLE)
    attacker = client_at(app, "203.0.113.99")
    assert _live(attacker, game["id"], json.dumps({"token": "guess"}))[-1] == {"closed": 1008}
    assert _live(attacker, game["id"], "hello")[-1] == {"closed": 1008}  # no token at all
    refused = _live(attacker, game["id"], json.dumps({"token": game["token"]}))
    error, closed = refused
    assert closed == {"closed": 1013}
    assert error == {
        "type": "error",
        "error": error["error"],
        "code": "too_many",
        "limit": "wrong_token",
        "retry_after": error["retry_after"],
        "status": 429,
    }
    assert 1 <= error["retry_after"] <= 60
    # The failures on the socket lock out HTTP too, and the owner's socket is served.
    assert_too_many(attacker.get(f"/api/games/{game['id']}", headers=auth(game["token"])), "wrong_token")
    assert _live(owner, game["id"], json.dumps({"token": game["token"]}))[-1]["type"] == "state"


def test_the_live_socket_counts_its_actions_against_the_token() -> None:
    client = TestClient(make_app(limits=only("token", "3/minute")))
    game = new_game(client, **TWO_PEOPLE)
    with client.websocket_connect(f"/api/games/{game['id']}/live") as ws:
        ws.send_text(json.dumps({"token": game["token"]}))  # the socket: 1
        assert ws.receive_json()["type"] == "state"
        for _ in range(2):  # two actions (refused by the rules: counted all the same): 2, 3
            ws.send_text(json.dumps({"type": "action", "action": {"type": "pass"}}))
            assert ws.receive_json()["type"] == "error"
        ws.send_text(json.dumps({"type": "action", "action": {"type": "pass"}}))
        error = ws.receive_json()
        assert (error["type"], error["code"], error["limit"]) == ("error", "too_many", "token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    assert_too_many(_state(client, game), "token")


# --------------------------------------------------------------------------- shared counters


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test's own in the shared Redis."""
    return f"test-limits-{uuid.uuid4().hex}"


def test_counters_are_shared_by_two_servers_on_one_redis(tmp_path: Path, prefix: str) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    settings = {"create": "3/minute", "wrong_token": "2/minute"}

    def app() -> Any:
        return make_app(url, broker=REDIS_URL, limits=settings, limits_prefix=prefix)

    with client_at(app(), "198.51.100.10") as one, client_at(app(), "198.51.100.10") as two:
        games = [new_game(one), new_game(two), new_game(one)]
        assert_too_many(_create(two, {}), "create")  # the fourth, in the process that saw one
        game = games[0]
        assert one.get(f"/api/games/{game['id']}", headers=auth("guess")).status_code == 401
        assert two.get(f"/api/games/{game['id']}", headers=auth("guess")).status_code == 401
        assert_too_many(one.get(f"/api/games/{game['id']}", headers=auth(game["token"])), "wrong_token")
    # Another deployment (prefix) on the same Redis counts apart.
    with client_at(make_app(url, broker=REDIS_URL, limits=settings), "198.51.100.10") as other:
        assert _state(other, games[1]).status_code == 200


def test_while_redis_is_down_joining_is_refused_and_the_rest_goes_on(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        down = f"redis://127.0.0.1:{sock.getsockname()[1]}/0"  # nothing listens there
    with TestClient(make_app(f"sqlite:///{tmp_path / 'g.db'}", broker=down)) as client:
        start = time.monotonic()
        game = new_game(client, **TWO_PEOPLE)
        for _ in range(20):
            assert _state(client, game).status_code == 200
            assert _score(client, game).status_code == 200
        assert client.get(f"/api/games/{game['id']}", headers=auth("guess")).status_code == 401
        assert time.monotonic() - start < 5.0  # Redis is not waited on for every request
        answer = client.post("/api/join", json={"code": game["invites"][0]["code"], "name": "Eve"})
        assert answer.status_code == 503, answer.text
        body = answer.json()
        assert body["code"] == "limits_unavailable" and body["limit"] == "join"
        assert int(answer.headers["retry-after"]) == body["retry_after"] >= 1
        assert "try again" in body["error"]


def test_memory_windows_count_on_their_clock_and_forget_passed_windows() -> None:
    clock = FakeTime()
    limits = RateLimits(MemoryWindows(clock), only("score", "2/minute;3/hour"))
    limits.hit("score", "addr")
    clock.advance(30)
    limits.hit("score", "addr")
    limits.check("score", "other")  # another key is not counted
    for seconds, wait in ((0, 30), (29, 1), (0.5, 1)):  # the minute's window, from the first hit
        clock.advance(seconds)
        with pytest.raises(TooMany) as refused:
            limits.hit("score", "addr")
        assert refused.value.values["retry_after"] == wait
    clock.advance(0.5)  # a minute after the first request, which has left the minute's window
    limits.hit("score", "addr")
    clock.advance(30)  # the minute's window has room again, the hour's has not (3 counted)
    with pytest.raises(TooMany) as refused:
        limits.check("score", "addr")
    assert refused.value.values["retry_after"] == 3600 - 90
    clock.advance(3600 - 90 - 0.5)
    with pytest.raises(TooMany):
        limits.check("score", "addr")
    clock.advance(0.5)  # an hour after the first request
    limits.check("score", "addr")
    storage = limits.limiter.storage
    assert isinstance(storage, MemoryWindows)
    clock.advance(3600)  # every window has passed: the next request forgets them
    assert storage.get_moving_window("anything", 1, 60) == (clock(), 0)
    assert list(storage._windows) == ["anything"]


def test_rate_limits_name_their_counters_by_prefix_in_one_storage() -> None:
    from limits.storage import MemoryStorage

    storage = MemoryStorage()
    one = RateLimits(storage, only("score", "1/minute"), prefix="one")
    two = RateLimits(storage, only("score", "1/minute"), prefix="two")
    one.hit("score", "addr")
    two.hit("score", "addr")
    with pytest.raises(Exception, match="too many scoring requests"):
        one.hit("score", "addr")


# --------------------------------------------------------------------------- settings


def test_cribbage_serve_refuses_a_bad_limit_naming_it(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "g.db")
    saved = dict(os.environ)
    try:
        for flag, message in (
            ("games=1/minute", "unknown limit 'games'"),
            ("create=lots", "limit create: 'lots' is not a rate limit"),
            ("create", "write NAME=SPEC"),
        ):
            assert main(["serve", "--port", "0", "--db", db, "--limit", flag]) == 2
            assert message in capsys.readouterr().err
            assert dict(os.environ) == saved  # refused before any setting is left for the app
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_the_environment_sets_the_limits_of_each_process(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv(ENVIRONMENT["db"], f"sqlite:///{tmp_path / 'g.db'}")
    monkeypatch.setenv(ENVIRONMENT["limit_create"], "1/minute")
    monkeypatch.setenv(ENVIRONMENT["limit_score"], "off")
    assert ENVIRONMENT["limit_wrong_token"] == "CRIBBAGE_SERVE_LIMIT_WRONG_TOKEN"
    client = TestClient(app_from_environment())
    new_game(client)
    assert_too_many(_create(client, {}), "create")
    for _ in range(int(DEFAULT_LIMITS["score"].split("/")[0]) + 1):
        assert _score(client, {}).status_code == 200


# --------------------------------------------------------------------------- the page


LIMITED = ["--limit", "create=2/minute"]
"""The flag of the servers below, end to end."""


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: Any) -> Iterator[str]:
    """``cribbage serve --limit create=2/minute --forwarded-allow-ips 127.0.0.1``: the page's
    server (the browser sends no X-Forwarded-For: its address is this host's) and the trusted
    proxy's below (each forwarded client counted apart from this host's own address, whatever the
    page used of its allowance): one process for both, whose start costs about 2 CPU-s."""
    args = [*LIMITED, "--forwarded-allow-ips", "127.0.0.1"]
    with running_server(tmp_path_factory.mktemp("limits") / "games.db", args=args) as base:
        yield base


def _post(url: str, body: Any, forwarded: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_the_page_says_a_limited_new_game_must_wait_in_the_players_language(
    browser: Any, limited_server: str
) -> None:
    assert [_post(f"{limited_server}/api/games", {})[0] for _ in range(2)] == [201, 201]
    status, body = _post(f"{limited_server}/api/games", {})
    assert status == 429 and body["limit"] == "create"
    context = browser.new_context(locale="ja-JP")
    set_options(context, speed="instant")  # not a first visit: the page starts a game at once
    try:
        page = context.new_page()
        page.goto(f"{limited_server}/?lang=ja")  # the page starts a game at once: refused
        page.wait_for_selector("#error:not([hidden])", timeout=30_000)
        text = page.inner_text("#error")
        match = re.search(r"リクエストが多すぎます。(\d+)秒後にもう一度お試しください。", text)
        assert match, text
        assert 1 <= int(match.group(1)) <= 60
        assert "too many" not in text.lower()  # words of the page, not the server's English
        # The same answer in Russian, with its plural.
        page.goto(f"{limited_server}/?lang=ru")
        page.wait_for_selector("#error:not([hidden])", timeout=30_000)
        assert re.search(
            r"Слишком много запросов: попробуйте снова через \d+ секунд", page.inner_text("#error")
        )
    finally:
        context.close()


def forwarded_clients_count(base: str) -> bool:
    """Whether the server at ``base`` counts the clients X-Forwarded-For names apart: one of
    them is refused at its third new game, and the next one, named apart, is served or not."""
    url = f"{base}/api/games"
    assert [_post(url, {}, "198.51.100.20")[0] for _ in range(2)] == [201, 201]
    status, body = _post(url, {}, "198.51.100.20")
    assert status == 429 and body["limit"] == "create"
    return _post(url, {}, "198.51.100.21")[0] == 201


def test_x_forwarded_for_is_read_only_from_the_proxies_named(tmp_path: Path) -> None:
    """By default no proxy is trusted (docs/deploy.md): a client on this host that forges
    X-Forwarded-For still counts as its own address, so it cannot escape a limit."""
    with running_server(tmp_path / "games.db", args=LIMITED) as base:
        assert not forwarded_clients_count(base)


def test_x_forwarded_for_is_read_from_a_proxy_named_with_forwarded_allow_ips(limited_server: str) -> None:
    """With ``--forwarded-allow-ips 127.0.0.1`` (a proxy on this host) each forwarded client has
    its own allowance, whatever the proxy's own address has used."""
    assert forwarded_clients_count(limited_server)
