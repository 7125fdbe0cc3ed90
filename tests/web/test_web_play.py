""" "Play now" through HTTP (docs/api.md, "Play now"): signed-in accounts join a pool, are paired
by a round of the pairing (driven here, not waited for), and each is told their own seat at one
game; on PostgreSQL and Redis, two applications stand for two server processes."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from cribbage.app.playnow.matchmaking import Pairing
from cribbage.app.playnow.orchestrator import PlayNow
from cribbage.web.ratelimits import NO_LIMITS
from cribbage.web.routers.play import PlayLeft, PlayMatched, PlayStarting, PlayStatus
from service_urls import REDIS_URL
from web_fixtures import auth, make_client, sign_up

NEVER = 3600.0
"""The lifespan's pairing every hour: the tests pair when they choose (:func:`pair`)."""


def running(database_url: str = "sqlite://", **settings: Any) -> TestClient:
    return make_client(database_url, **{"limits": NO_LIMITS, "pair_every": NEVER, **settings})


def pair(client: TestClient) -> list[Pairing]:
    """One round of the pairing of ``client``'s application, its matches delivered."""
    play: PlayNow = client.app.state.play  # type: ignore[attr-defined]
    portal = client.portal
    assert portal is not None
    return portal.call(play.pair_once)


def my_games(client: TestClient, session: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = client.get("/api/accounts/me", headers=auth(session)).json()["games"]
    return games


@pytest.fixture
def client() -> Iterator[TestClient]:
    with running() as app:
        yield app


def test_two_accounts_are_paired_at_one_game_each_at_their_own_seat(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    joined = client.post("/api/play", json={"pool": "standard"}, headers=auth(ann))
    assert joined.status_code == 202, joined.text
    assert joined.json() == {"pool": "standard", "first_to": 1, "waited": 0.0, "waiting": 1, "window": 100.0}
    assert pair(client) == []  # alone in the pool
    waiting = client.get("/api/play", headers=auth(ann)).json()
    assert waiting["pool"] == "standard" and waiting["waiting"] == 1
    assert client.post("/api/play", json={"pool": "standard"}, headers=auth(bob)).json()["waiting"] == 2

    [match] = pair(client)
    assert match.pool == "standard" and len(match.players) == 2
    answers = [client.get("/api/play", headers=auth(s)) for s in (ann, bob)]
    assert [a.status_code for a in answers] == [200, 200]
    for answer in answers:  # exactly what /openapi.json states
        PlayMatched.model_validate(answer.json())
    PlayStatus.model_validate(joined.json())
    seats = [a.json()["match"] for a in answers]
    assert seats[0]["game"] == seats[1]["game"] and {s["pool"] for s in seats} == {"standard"}
    assert {s["seat"] for s in seats} == {0, 1}
    for session, seat in zip((ann, bob), seats, strict=True):
        state = client.get(f"/api/games/{seat['game']}", headers=auth(seat["token"])).json()
        assert state["seat"] == seat["seat"] and state["invites"] == []
        assert state["options"]["variant"] == "standard" and state["options"]["target"] == 121
        assert my_games(client, session) == [
            {"id": seat["game"], "seat": seat["seat"], "over": False, "url": f"/api/games/{seat['game']}"}
        ]
    state = client.get(f"/api/games/{seats[0]['game']}", headers=auth(seats[0]["token"])).json()
    assert sorted(state["names"]) == ["ann", "bob"]
    # the match is answered once: then neither waiting nor paired
    again = client.get("/api/play", headers=auth(ann))
    assert again.status_code == 404 and again.json()["code"] == "play.not_waiting"


def test_joining_twice_is_refused_and_leaving_works(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    assert client.post("/api/play", json={"pool": "short"}, headers=auth(ann)).status_code == 202
    twice = client.post("/api/play", json={"pool": "standard"}, headers=auth(ann))
    assert twice.status_code == 409
    assert twice.json()["code"] == "queue.already_waiting" and twice.json()["pool"] == "short"
    left = client.delete("/api/play", headers=auth(ann))
    assert left.status_code == 200 and left.json() == {"left": True}
    PlayLeft.model_validate(left.json())
    assert client.delete("/api/play", headers=auth(ann)).json() == {"left": False}
    assert client.get("/api/play", headers=auth(ann)).json()["code"] == "play.not_waiting"
    assert client.post("/api/play", json={"pool": "standard"}, headers=auth(ann)).status_code == 202


def test_a_person_not_signed_in_or_an_unknown_pool_is_refused(client: TestClient) -> None:
    for method in ("post", "get", "delete"):
        for headers in ({}, auth("not-a-session")):
            kwargs: dict[str, Any] = {"json": {"pool": "standard"}} if method == "post" else {}
            answer = client.request(method.upper(), "/api/play", headers=headers, **kwargs)
            assert answer.status_code == 401 and answer.json()["code"] == "account.bad_session", answer.text
    ann = sign_up(client, "ann")
    unknown = client.post("/api/play", json={"pool": "lowball"}, headers=auth(ann))
    assert unknown.status_code == 404 and unknown.json()["code"] == "queue.unknown_pool"


def test_a_flood_of_play_requests_is_limited_per_address() -> None:
    with running(limits={**NO_LIMITS, "play": "3/minute"}) as client:
        ann = sign_up(client, "ann")
        assert client.post("/api/play", json={"pool": "short"}, headers=auth(ann)).status_code == 202
        assert client.get("/api/play", headers=auth(ann)).status_code == 200
        assert client.delete("/api/play", headers=auth(ann)).status_code == 200
        for method in ("GET", "DELETE", "POST"):  # all three count, whatever the request
            flood = client.request(method, "/api/play", json={"pool": "short"}, headers=auth(ann))
            assert flood.status_code == 429 and flood.json()["limit"] == "play", flood.text
            assert int(flood.headers["retry-after"]) >= 1


def test_the_three_player_pool_seats_three_and_the_short_pool_plays_to_61(client: TestClient) -> None:
    sessions = [sign_up(client, name) for name in ("ann", "bob", "cyd", "dee", "eve")]
    for session in sessions[:3]:
        assert client.post("/api/play", json={"pool": "three"}, headers=auth(session)).status_code == 202
    for session in sessions[3:]:
        assert client.post("/api/play", json={"pool": "short"}, headers=auth(session)).status_code == 202
    made = pair(client)
    assert sorted((m.pool, len(m.players)) for m in made) == [("short", 2), ("three", 3)]
    three = [client.get("/api/play", headers=auth(s)).json()["match"] for s in sessions[:3]]
    assert len({seat["game"] for seat in three}) == 1 and {seat["seat"] for seat in three} == {0, 1, 2}
    state = client.get(f"/api/games/{three[2]['game']}", headers=auth(three[2]["token"])).json()
    assert state["options"]["variant"] == "three-player" and state["seat"] == three[2]["seat"]
    short = client.get("/api/play", headers=auth(sessions[3])).json()["match"]
    state = client.get(f"/api/games/{short['game']}", headers=auth(short["token"])).json()
    assert state["options"]["target"] == 61


def test_a_match_whose_game_is_not_made_yet_is_starting(client: TestClient) -> None:
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    for session in (ann, bob):
        client.post("/api/play", json={"pool": "standard"}, headers=auth(session))
    play: PlayNow = client.app.state.play  # type: ignore[attr-defined]
    assert client.portal is not None
    [match] = client.portal.call(play.queue.pair_once, "standard")  # made, not delivered
    starting = client.get("/api/play", headers=auth(ann)).json()
    assert starting == {"pool": "standard", "first_to": 1, "starting": True}
    PlayStarting.model_validate(starting)
    rejoin = client.post("/api/play", json={"pool": "standard"}, headers=auth(ann))
    assert rejoin.status_code == 409 and rejoin.json()["code"] == "queue.match_waiting"
    client.portal.call(play.deliver, match)
    assert client.get("/api/play", headers=auth(ann)).json()["match"]["seat"] in (0, 1)


def test_the_lifespan_pairs_by_itself() -> None:
    with running(pair_every=0.02) as client:
        sessions = [sign_up(client, name) for name in ("ann", "bob", "cyd", "dee")]
        for session in sessions:
            answer = client.post("/api/play", json={"pool": "partners"}, headers=auth(session))
            assert answer.status_code == 202
        deadline, seats = time.monotonic() + 10, {}
        while len(seats) < 4 and time.monotonic() < deadline:
            for session in sessions:
                got = {} if session in seats else client.get("/api/play", headers=auth(session)).json()
                if "match" in got:
                    seats[session] = got["match"]
            time.sleep(0.02)
        assert len({seat["game"] for seat in seats.values()}) == 1
        assert sorted(seat["seat"] for seat in seats.values()) == [0, 1, 2, 3]
        one = next(iter(seats.values()))
        state = client.get(f"/api/games/{one['game']}", headers=auth(one["token"])).json()
        assert state["options"]["variant"] == "four-player"


def test_on_postgresql_and_redis_two_processes_pair_their_people_once(postgres_url: str) -> None:
    prefix = f"cribbage:test:{uuid.uuid4().hex}:queue:"
    try:
        with (
            running(postgres_url, broker=REDIS_URL, queue_prefix=prefix) as first,
            running(postgres_url, broker=REDIS_URL, queue_prefix=prefix) as second,
        ):
            ann, bob = sign_up(first, "ann"), sign_up(second, "bob")
            assert first.post("/api/play", json={"pool": "standard"}, headers=auth(ann)).status_code == 202
            waiting = second.post("/api/play", json={"pool": "standard"}, headers=auth(bob)).json()
            assert waiting["waiting"] == 2  # one queue for both processes
            made = pair(second) + pair(first)  # both pair: one match, made by one of them
            assert len(made) == 1
            seats = [  # each asks the other process
                second.get("/api/play", headers=auth(ann)).json(),
                first.get("/api/play", headers=auth(bob)).json(),
            ]
            assert seats[0]["match"]["game"] == seats[1]["match"]["game"]
            assert {s["match"]["seat"] for s in seats} == {0, 1}
            for client, seat in ((first, seats[0]["match"]), (second, seats[1]["match"])):
                state = client.get(f"/api/games/{seat['game']}", headers=auth(seat["token"])).json()
                assert state["seat"] == seat["seat"]
            assert pair(first) + pair(second) == []
            assert my_games(second, ann)[0]["id"] == seats[0]["match"]["game"]
    finally:
        with redis.Redis.from_url(REDIS_URL) as raw:
            keys = list(raw.scan_iter(match=prefix + "*", count=1000))
            if keys:
                raw.delete(*keys)


def test_a_method_not_allowed_names_every_method_of_the_path(client: TestClient) -> None:
    answer = client.put("/api/play")
    assert answer.status_code == 405 and answer.headers["allow"] == "DELETE, GET, POST"
