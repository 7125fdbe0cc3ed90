"""Play again (docs/api.md, "Rematch"): once a game is over, one new game with the same people in
the same seats (their tokens act there too), the same computers and options, and its first
dealer as the rules say for a match's next game (the loser deals); every seat's page hears of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.web import create_app

WAIT = 15.0
_pool = ThreadPoolExecutor(4)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def table(client: TestClient, **options: Any) -> tuple[str, list[str | None]]:
    """A table with every person's seat taken: its id and each seat's token (None: a computer)."""
    created = client.post("/api/games", json=options)
    assert created.status_code == 201, created.text
    data = created.json()
    tokens: list[str | None] = [data["token"]] + [None] * (len(data["state"]["seats"]) - 1)
    for invite in data["invites"]:
        joined = client.post("/api/join", json={"code": invite["code"], "name": f"P{invite['seat'] + 1}"})
        assert joined.status_code == 201, joined.text
        tokens[invite["seat"]] = joined.json()["token"]
    return data["id"], tokens


def get(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def play_out(client: TestClient, game_id: str, tokens: list[str | None]) -> dict[str, Any]:
    """Every person takes their first legal action until the game is over; its last state."""
    anyone = next(t for t in tokens if t)
    for _ in range(3000):
        state = get(client, game_id, anyone)
        if state["over"]:
            return state
        token = tokens[state["view"]["to_act"]]
        assert token is not None
        mine = get(client, game_id, token)
        answer = client.post(f"/api/games/{game_id}/actions", json=mine["legal"][0], headers=auth(token))
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for two server processes: an SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(computer="weak")) as client:
        yield client


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "short", "seats": [{"kind": "human"}, {"kind": "human"}], "names": ["Aiko"], "clock": 60},
        {
            "variant": "four-player",
            "target": 61,
            "seats": [
                {"kind": "human"},
                {"kind": "computer", "level": "weak"},
                {"kind": "human"},
                {"kind": "human"},
            ],
        },
    ],
    ids=["two-people", "four-player"],
)
def test_play_again_seats_the_same_people_and_the_loser_deals_first(
    client: TestClient, options: dict[str, Any]
) -> None:
    game_id, tokens = table(client, **options)
    people = [seat for seat, token in enumerate(tokens) if token]
    early = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[people[-1]] or ""))
    assert early.status_code == 409 and "over" in early.json()["error"]
    final = play_out(client, game_id, tokens)
    asked = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[people[-1]] or ""))
    assert asked.status_code == 200, asked.text
    again = asked.json()
    assert again["id"] != game_id and again["seat"] == people[-1]
    for seat in people:  # the same game for everyone, each token acting at its seat there
        token = tokens[seat] or ""
        theirs = client.post(f"/api/games/{game_id}/rematch", headers=auth(token)).json()
        assert theirs["id"] == again["id"] and theirs["seat"] == seat
        state = get(client, again["id"], token)
        assert state["seat"] == seat and state["waiting_for"] == [] and not state["over"]
        assert state["names"] == final["names"] and state["seats"] == final["seats"]
        assert get(client, game_id, token)["rematch"] == again["id"]  # the old game says where to go
    assert state["view"]["dealer"] == final["result"]["loser"]  # the loser deals the next game
    assert state["options"] == {**final["options"], "public": False}
    if options.get("clock"):
        assert state["turn_clock"] is not None
    record = client.get(f"/api/games/{again['id']}/record", headers=auth(tokens[0] or ""))
    assert record.status_code == 409  # a new game, not over
    assert client.post("/api/games/nope/rematch", headers=auth(tokens[0] or "")).status_code == 404


def test_every_seat_of_the_old_game_hears_of_the_rematch(client: TestClient) -> None:
    game_id, tokens = table(client, variant="short", seats=[{"kind": "human"}, {"kind": "human"}])
    play_out(client, game_id, tokens)
    with (
        client.websocket_connect(f"/api/games/{game_id}/live") as first,
        client.websocket_connect(f"/api/games/{game_id}/live") as second,
    ):
        for ws, token in ((first, tokens[0]), (second, tokens[1])):
            ws.send_text(json.dumps({"token": token}))
            assert _pool.submit(ws.receive_json).result(timeout=WAIT)["state"]["rematch"] is None
        again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0] or "")).json()
        for seat, ws in enumerate((first, second)):
            state = _pool.submit(ws.receive_json).result(timeout=WAIT)["state"]
            while state["rematch"] is None:  # presence may change meanwhile
                state = _pool.submit(ws.receive_json).result(timeout=WAIT)["state"]
            assert state["rematch"] == again["id"] and state["seat"] == seat


def test_two_processes_asked_at_once_make_one_rematch(shared_url: str) -> None:
    url = shared_url
    with (
        TestClient(create_app(url, computer="weak")) as first,
        TestClient(create_app(url, computer="weak")) as second,
    ):
        game_id, tokens = table(first, variant="short", seats=[{"kind": "human"}, {"kind": "human"}])
        play_out(first, game_id, tokens)
        get(second, game_id, tokens[1] or "")
        asked = list(
            _pool.map(
                lambda pair: pair[0].post(f"/api/games/{game_id}/rematch", headers=auth(pair[1] or "")),
                [(first, tokens[0]), (second, tokens[1])],
            )
        )
        assert [answer.status_code for answer in asked] == [200, 200]
        ids = {answer.json()["id"] for answer in asked}
        assert len(ids) == 1
        assert first.app.state.service.storage.count() == 2  # type: ignore[attr-defined]
