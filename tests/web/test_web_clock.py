"""The turn clock over HTTP and the live socket (docs/api.md, "Turn clock"): the contract of
``/seen`` and of a clock's bounds, the server's background tick and what every socket hears, and
a person handed to a computer once offline (no socket open).  The clock's behaviour (running
out, away seats, correspondence clocks, two processes) is tested against the core in
tests/app/test_clocks.py.

The time is injected (``GameService.now``): no test waits for a real clock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fake_time import FakeTime
from web_fixtures import TWO_PEOPLE, act_first, auth, get, make_app, receive, table

READING = 60
"""The reading time a turn's deadline first allows (docs/api.md: ``service.READING_SECONDS``)."""


def timed(time: FakeTime, url: str = "sqlite://", **options: Any) -> FastAPI:
    app = make_app(url, computer="weak", **options)
    app.state.service.now = time
    return app


def seen(client: TestClient, game_id: str, token: str, version: int) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/seen", json={"version": version}, headers=auth(token))
    assert answer.status_code == 200, answer.text
    said: dict[str, Any] = answer.json()
    return said


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(time: FakeTime) -> Iterator[TestClient]:
    with TestClient(timed(time, clock_tick=3600)) as client:  # no background ticks: called by hand
        yield client


def test_the_background_tick_moves_and_every_seat_hears_it(time: FakeTime) -> None:
    with TestClient(timed(time, clock_tick=0.05)) as client:
        game_id, tokens, _ = table(client, clock=10)
        seat = get(client, game_id, tokens[0])["view"]["to_act"]
        other = 1 - seat
        with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
            ws.send_text(json.dumps({"token": tokens[other]}))
            first = receive(ws)
            assert first["state"]["away"] == []
            time.advance(READING + 11)
            while True:
                state = receive(ws)["state"]
                if state["away"]:
                    break
            assert state["away"] == [seat] and state["seat"] == other
            assert state["version"] > first["state"]["version"]


# --------------------------------------------------------------------------- issue 29, item 5


def test_seen_answers_the_clock_and_refuses_a_version_that_is_no_whole_number(
    client: TestClient, time: FakeTime
) -> None:
    game_id, tokens, _ = table(client, clock=30)
    state = get(client, game_id, tokens[0])
    seat, version = state["view"]["to_act"], state["version"]
    said = seen(client, game_id, tokens[seat], version)
    assert said == {"started": True, "turn_clock": {"seat": seat, "deadline": time() + 30}, "away": []}
    assert seen(client, game_id, tokens[1 - seat], version)["started"] is False
    for bad in ("3", -1, None, True, 1.5):
        answer = client.post(f"/api/games/{game_id}/seen", json={"version": bad}, headers=auth(tokens[0]))
        assert answer.status_code == 422, (bad, answer.text)
    assert client.post(f"/api/games/{game_id}/seen", json={"version": 1}).status_code == 401


def test_a_page_says_it_over_the_socket_and_every_page_hears_the_clock(
    client: TestClient, time: FakeTime
) -> None:
    game_id, tokens, _ = table(client, clock=30)
    seat = get(client, game_id, tokens[0])["view"]["to_act"]
    with (
        client.websocket_connect(f"/api/games/{game_id}/live") as mine,
        client.websocket_connect(f"/api/games/{game_id}/live") as theirs,
    ):
        mine.send_text(json.dumps({"token": tokens[seat]}))
        theirs.send_text(json.dumps({"token": tokens[1 - seat]}))
        first = receive(mine)["state"]
        receive(theirs)
        mine.send_text(json.dumps({"type": "seen", "version": first["version"]}))
        for ws in (mine, theirs):
            while True:
                state = receive(ws)["state"]
                if state["turn_clock"]["deadline"] == time() + 30:
                    break
        mine.send_text(json.dumps({"type": "seen", "version": "x"}))
        error = receive(mine)
        assert error["type"] == "error" and error["status"] == 422


def test_the_creator_hands_an_offline_person_to_a_computer(client: TestClient, time: FakeTime) -> None:
    created = client.post("/api/games", json={"seats": [{"kind": "human"}] * 3, "variant": "three-player"})
    data = created.json()
    game_id, tokens = data["id"], [data["token"]]
    for invite in data["invites"]:
        tokens.append(
            client.post("/api/join", json={"code": invite["code"], "name": "Boris"}).json()["token"]
        )

    def give(seat: int, token: str = tokens[0]) -> Any:
        body = {"seat": seat, "level": "weak"}
        return client.post(f"/api/games/{game_id}/computer", json=body, headers=auth(token))

    assert give(2, tokens[1]).status_code == 403  # the creator's only
    assert give(0).status_code == 409  # not its own seat
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
        ws.send_text(json.dumps({"token": tokens[1]}))
        receive(ws)
        online = give(1)
        assert online.status_code == 409 and "online" in online.json()["error"]
        given = give(2)  # offline: a computer takes the seat, the person's token acts no more
        assert given.status_code == 200, given.text
    state = given.json()
    assert state["seats"][2]["kind"] == "computer" and state["seats"][1]["kind"] == "human"
    assert client.get(f"/api/games/{game_id}", headers=auth(tokens[2])).status_code == 401
    assert give(2).status_code == 409  # a computer's already
    # The game goes on with the computer at seat 2: the people play, it never waits for seat 2.
    for _ in range(20):
        state = get(client, game_id, tokens[0])
        to_act = state["view"]["to_act"]
        assert to_act in (0, 1) and not state["over"]
        act_first(client, game_id, tokens[to_act])


@pytest.mark.parametrize("clock", [9, 604_801, 3600.5])
def test_a_clock_out_of_bounds_is_refused(client: TestClient, clock: float) -> None:
    answer = client.post("/api/games", json={"clock": clock, "seats": TWO_PEOPLE})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "clock"


def test_the_longest_clock_is_seven_days(client: TestClient) -> None:
    game_id, tokens, _ = table(client, clock=604_800)
    assert get(client, game_id, tokens[0])["options"]["clock"] == 604_800


def test_at_a_correspondence_table_a_seat_not_away_is_refused_with_its_code(client: TestClient) -> None:
    """People are offline between the moves of a slow game: a seat goes to a computer only once
    its person's clock ran out (tests/app/test_clocks.py); before, 409 ``seat_not_away``."""
    game_id, tokens, _ = table(client, clock=86_400)
    body = {"seat": 1, "level": "weak"}
    refused = client.post(f"/api/games/{game_id}/computer", json=body, headers=auth(tokens[0]))
    assert refused.status_code == 409, refused.text
    assert (refused.json()["code"], refused.json()["seat"]) == ("seat_not_away", 1)
