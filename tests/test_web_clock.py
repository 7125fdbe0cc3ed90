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
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cribbage.web import create_app

TWO = [{"kind": "human"}, {"kind": "human"}]
WAIT = 15.0
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


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def timed(time: FakeTime, url: str = "sqlite://", **options: Any) -> FastAPI:
    app = create_app(url, computer="weak", **options)
    app.state.service.now = time
    return app


def table(client: TestClient, **options: Any) -> tuple[str, list[str], list[str]]:
    created = client.post("/api/games", json={"seats": TWO, **options})
    assert created.status_code == 201, created.text
    data = created.json()
    tokens, codes = [data["token"]], [invite["code"] for invite in data["invites"]]
    for code in codes:
        joined = client.post("/api/join", json={"code": code, "name": "Boris"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return data["id"], tokens, codes


def get(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def act_first(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    mine = get(client, game_id, token)
    answer = client.post(f"/api/games/{game_id}/actions", json=mine["legal"][0], headers=auth(token))
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for two server processes: an SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


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
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + 30} and state["away"] == []
    time.advance(29.9)
    assert service.expire_due() == []
    assert get(client, game_id, tokens[0]) == state  # not yet
    time.advance(0.2)
    assert service.expire_due() == [game_id]
    after = get(client, game_id, tokens[0])
    assert after["version"] > state["version"] and after["away"] == [seat]
    assert after["turn_clock"]["deadline"] == time() + 30  # the next turn's clock runs
    assert service.expire_due() == []  # once
    # The move is recorded as the seat's own: the first action after the state is its discard.
    game = service._load(game_id).game
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
    created = client.post("/api/games", json={"seats": TWO, "clock": 10}).json()
    waiting = created["id"]
    assert created["state"]["turn_clock"] is None and created["state"]["waiting_for"] == [1]
    time.advance(1000)
    assert service.expire_due() == []
    assert get(client, plain, tokens[0])["version"] == get(client, plain, tokens[0])["version"]
    joined = client.post("/api/join", json={"code": created["invites"][0]["code"], "name": "Chen"}).json()
    assert joined["state"]["turn_clock"]["deadline"] == time() + 10  # it runs from the last join
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
        time.advance(61)
        services = [first.app.state.service, second.app.state.service]  # type: ignore[attr-defined]
        moved = list(_pool.map(lambda service: service.expire_due(), services))
        assert sorted(moved) == [[], [game_id]]
        states = [get(client, game_id, tokens[0]) for client in (first, second)]
        assert states[0] == states[1] and states[0]["away"] == [seat]
        game = services[0]._load(game_id).game
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
            first = _pool.submit(ws.receive_json).result(timeout=WAIT)
            assert first["state"]["away"] == []
            time.advance(11)
            while True:
                state = _pool.submit(ws.receive_json).result(timeout=WAIT)["state"]
                if state["away"]:
                    break
            assert state["away"] == [seat] and state["seat"] == other
            assert state["version"] > first["state"]["version"]
