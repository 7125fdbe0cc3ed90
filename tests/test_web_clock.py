"""The turn clock (docs/api.md, "Turn clock"): when the person to act lets it run out, a computer
makes their move and their seat is marked away until they act again.  The deadline is stored with
the game: whichever server process notices first moves, once.

The time is injected (``GameService.now``): no test waits for a real clock.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cribbage.app.clocks import AWAY_CORRESPONDENCE_SECONDS, AWAY_SECONDS, READING_SECONDS
from web_fixtures import TWO_PEOPLE, act_first, auth, get, make_app, receive, table

_pool = ThreadPoolExecutor(4)


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


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


def test_a_computer_moves_for_the_seat_whose_clock_ran_out_and_marks_it_away(
    client: TestClient, time: FakeTime
) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=30)
    state = get(client, game_id, tokens[0])
    seat = state["view"]["to_act"]
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + READING_SECONDS + 30}
    assert state["away"] == []
    said = seen(client, game_id, tokens[seat], state["version"])  # its page shows the decision
    assert said == {"started": True, "turn_clock": {"seat": seat, "deadline": time() + 30}, "away": []}
    state = get(client, game_id, tokens[0])
    assert state["turn_clock"] == said["turn_clock"]
    time.advance(29.9)
    assert service.expire_due() == []
    assert get(client, game_id, tokens[0]) == state  # not yet
    time.advance(0.2)
    assert service.expire_due() == [game_id]
    after = get(client, game_id, tokens[0])
    assert after["version"] > state["version"] and after["away"] == [seat]
    # The next turn's clock runs: the other seat's (the discards), waiting for its page.
    assert after["turn_clock"] == {"seat": 1 - seat, "deadline": time() + READING_SECONDS + 30}
    assert service.expire_due() == []  # once
    # The move is recorded as the seat's own: the first action after the state is its discard.
    game = service.repository.load(game_id).game
    assert game.actions[state["version"]].seat == seat
    # The away seat's person acts again: no longer away.
    while get(client, game_id, tokens[0])["view"]["to_act"] != seat:
        other = get(client, game_id, tokens[0])["view"]["to_act"]
        act_first(client, game_id, tokens[other])
    back = act_first(client, game_id, tokens[seat])
    assert back["away"] == []


def test_no_clock_runs_while_the_table_waits_or_without_a_clock(client: TestClient, time: FakeTime) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    plain, tokens, _ = table(client)
    assert get(client, plain, tokens[0])["turn_clock"] is None
    created = client.post("/api/games", json={"seats": TWO_PEOPLE, "clock": 10}).json()
    waiting = created["id"]
    assert created["state"]["turn_clock"] is None and created["state"]["waiting_for"] == [1]
    time.advance(1000)
    assert service.expire_due() == []
    assert get(client, plain, tokens[0])["version"] == get(client, plain, tokens[0])["version"]
    joined = client.post("/api/join", json={"code": created["invites"][0]["code"], "name": "Chen"}).json()
    # It runs from the last join (its page first shows the decision).
    assert joined["state"]["turn_clock"]["deadline"] == time() + READING_SECONDS + 10
    # A person leaves (no takeover): the table waits, the clock stops, nothing moves.
    assert client.post(f"/api/games/{waiting}/leave", headers=auth(joined["token"])).status_code == 200
    version = get(client, waiting, created["token"])["version"]
    time.advance(1000)
    assert service.expire_due() == []
    after = get(client, waiting, created["token"])
    assert after["version"] == version and after["turn_clock"] is None


def test_two_processes_noticing_at_once_move_only_once(shared_url: str, time: FakeTime) -> None:
    url = shared_url
    with (
        TestClient(timed(time, url, clock_tick=3600)) as first,
        TestClient(timed(time, url, clock_tick=3600)) as second,
    ):
        game_id, tokens, _ = table(first, clock=60)
        before = get(second, game_id, tokens[0])  # both processes hold the game
        seat = before["view"]["to_act"]
        time.advance(READING_SECONDS + 61)
        services = [first.app.state.service, second.app.state.service]  # type: ignore[attr-defined]
        moved = list(_pool.map(lambda service: service.expire_due(), services))
        assert sorted(moved) == [[], [game_id]]
        states = [get(client, game_id, tokens[0]) for client in (first, second)]
        assert states[0] == states[1] and states[0]["away"] == [seat]
        game = services[0].repository.load(game_id).game
        assert [a.seat for a in game.actions[before["version"] :] if getattr(a, "seat", None) is not None][
            :1
        ] == [seat]
        assert len(game.actions) == states[0]["version"]


def test_the_background_tick_moves_and_every_seat_hears_it(time: FakeTime) -> None:
    with TestClient(timed(time, clock_tick=0.05)) as client:
        game_id, tokens, _ = table(client, clock=10)
        seat = get(client, game_id, tokens[0])["view"]["to_act"]
        other = 1 - seat
        with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
            ws.send_text(json.dumps({"token": tokens[other]}))
            first = receive(ws)
            assert first["state"]["away"] == []
            time.advance(READING_SECONDS + 11)
            while True:
                state = receive(ws)["state"]
                if state["away"]:
                    break
            assert state["away"] == [seat] and state["seat"] == other
            assert state["version"] > first["state"]["version"]


# --------------------------------------------------------------------------- issue 29, item 5


def test_the_clock_runs_from_when_the_page_shows_the_decision(client: TestClient, time: FakeTime) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=30)
    state = get(client, game_id, tokens[0])
    seat, version = state["view"]["to_act"], state["version"]
    time.advance(50)  # the page replays what happened, its person reads the show
    assert service.expire_due() == []
    # Only the seat to act, at the version it is shown, starts its clock.
    assert not seen(client, game_id, tokens[1 - seat], version)["started"]
    assert not seen(client, game_id, tokens[seat], version - 1)["started"]
    assert get(client, game_id, tokens[0])["turn_clock"]["deadline"] == time() - 50 + READING_SECONDS + 30
    started = time() + 30
    assert seen(client, game_id, tokens[seat], version)["turn_clock"]["deadline"] == started
    time.advance(5)  # said again (a reload): the clock goes on, never put back
    again = seen(client, game_id, tokens[seat], version)
    assert again == {"started": False, "turn_clock": {"seat": seat, "deadline": started}, "away": []}
    time.advance(24.9)
    assert service.expire_due() == []  # 29.9 s after its page showed it (79.9 s after the turn began)
    time.advance(0.2)
    assert service.expire_due() == [game_id]
    assert get(client, game_id, tokens[0])["away"] == [seat]
    for bad in ("3", -1, None, True, 1.5):
        answer = client.post(f"/api/games/{game_id}/seen", json={"version": bad}, headers=auth(tokens[0]))
        assert answer.status_code == 422, (bad, answer.text)
    assert client.post(f"/api/games/{game_id}/seen", json={"version": 1}).status_code == 401


def test_a_page_that_never_shows_the_decision_cannot_stall_the_game(
    client: TestClient, time: FakeTime
) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=30)
    state = get(client, game_id, tokens[0])
    time.advance(READING_SECONDS + 29.9)
    assert service.expire_due() == []
    time.advance(0.2)
    assert service.expire_due() == [game_id]
    assert get(client, game_id, tokens[0])["away"] == [state["view"]["to_act"]]


def test_an_away_seat_gets_a_short_clock_until_it_acts_again(client: TestClient, time: FakeTime) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=120)
    seat = get(client, game_id, tokens[0])["view"]["to_act"]
    time.advance(READING_SECONDS + 121)
    assert service.expire_due() == [game_id]  # its first timeout: away
    turns = 0
    while turns < 2:  # the other seat plays on; each turn of the away seat runs out in seconds
        state = get(client, game_id, tokens[0])
        assert state["away"] == [seat]
        if state["view"]["to_act"] != seat:
            act_first(client, game_id, tokens[state["view"]["to_act"]])
            continue
        assert state["turn_clock"] == {"seat": seat, "deadline": time() + AWAY_SECONDS}
        assert not seen(client, game_id, tokens[seat], state["version"])["started"]  # not longer
        time.advance(AWAY_SECONDS + 0.1)
        assert service.expire_due() == [game_id]
        turns += 1
    while (state := get(client, game_id, tokens[0]))["view"]["to_act"] != seat:
        act_first(client, game_id, tokens[state["view"]["to_act"]])
    back = act_first(client, game_id, tokens[seat])  # it acts in time: back, its full clock again
    assert back["away"] == []
    while (state := get(client, game_id, tokens[0]))["view"]["to_act"] != seat:
        act_first(client, game_id, tokens[state["view"]["to_act"]])
    assert state["turn_clock"]["deadline"] == time() + READING_SECONDS + 120


def test_an_early_discard_leaves_the_turn_of_the_seat_to_act_as_it_was(
    client: TestClient, time: FakeTime
) -> None:
    game_id, tokens, _ = table(client, clock=30)
    state = get(client, game_id, tokens[0])
    seat = state["view"]["to_act"]
    seen(client, game_id, tokens[seat], state["version"])
    deadline = time() + 30
    time.advance(20)
    early = act_first(client, game_id, tokens[1 - seat])  # the other person discards first
    assert early["view"]["to_act"] == seat and early["turn_clock"] == {"seat": seat, "deadline": deadline}
    assert not seen(client, game_id, tokens[seat], early["version"])["started"]  # no new turn
    assert get(client, game_id, tokens[0])["turn_clock"]["deadline"] == deadline


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


def test_every_process_serves_the_clock_a_page_started(shared_url: str, time: FakeTime) -> None:
    with (
        TestClient(timed(time, shared_url, clock_tick=3600)) as first,
        TestClient(timed(time, shared_url, clock_tick=3600)) as second,
    ):
        game_id, tokens, _ = table(first, clock=30)
        state = get(second, game_id, tokens[0])  # both processes hold the game
        seat = state["view"]["to_act"]
        seen(first, game_id, tokens[seat], state["version"])
        for client in (first, second):
            assert get(client, game_id, tokens[0])["turn_clock"]["deadline"] == time() + 30
        time.advance(30.1)
        assert second.app.state.service.expire_due() == [game_id]  # type: ignore[attr-defined]


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


def test_a_correspondence_clock_runs_days_and_its_away_seat_gets_an_hour(
    client: TestClient, time: FakeTime
) -> None:
    """A clock of days a move (up to 7); once it ran out, the away seat's turns run an hour
    (``away_seconds``), not the live tables' seconds."""
    service = client.app.state.service  # type: ignore[attr-defined]
    day = 86_400
    game_id, tokens, _ = table(client, clock=3 * day)
    state = get(client, game_id, tokens[0])
    seat = state["view"]["to_act"]
    assert state["options"]["clock"] == 3 * day
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + READING_SECONDS + 3 * day}
    time.advance(2 * day)
    assert service.expire_due() == []
    time.advance(day + READING_SECONDS + 1)
    assert service.expire_due() == [game_id]
    while (state := get(client, game_id, tokens[0]))["view"]["to_act"] != seat:
        act_first(client, game_id, tokens[state["view"]["to_act"]])
    assert state["away"] == [seat]
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + AWAY_CORRESPONDENCE_SECONDS}


@pytest.mark.parametrize("clock", [9, 604_801, 3600.5])
def test_a_clock_out_of_bounds_is_refused(client: TestClient, clock: float) -> None:
    answer = client.post("/api/games", json={"clock": clock, "seats": TWO_PEOPLE})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "clock"


def test_the_longest_clock_is_seven_days(client: TestClient) -> None:
    game_id, tokens, _ = table(client, clock=604_800)
    assert get(client, game_id, tokens[0])["options"]["clock"] == 604_800


def test_at_a_correspondence_table_only_an_away_seat_goes_to_a_computer(
    client: TestClient, time: FakeTime
) -> None:
    """People are offline between the moves of a slow game: the creator may hand a seat to a
    computer only once its person's clock ran out (the seat is away)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=86_400)
    seat = get(client, game_id, tokens[0])["view"]["to_act"]
    if seat == 0:  # the creator acts: the other seat's turn comes
        act_first(client, game_id, tokens[0])
        seat = get(client, game_id, tokens[0])["view"]["to_act"]
    assert seat == 1

    def give() -> Any:
        return client.post(
            f"/api/games/{game_id}/computer", json={"seat": 1, "level": "weak"}, headers=auth(tokens[0])
        )

    refused = give()
    assert refused.status_code == 409 and refused.json()["code"] == "seat_not_away"
    time.advance(86_400 + READING_SECONDS + 1)
    assert service.expire_due() == [game_id]
    assert give().status_code == 200
