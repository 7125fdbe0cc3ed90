"""Play again (docs/api.md, "Rematch"): once a game is over, one new game with the same people in
the same seats (their tokens act there too), the same computers and options, and its first
dealer as the rules say for a match's next game (the loser deals); every seat's page hears of it.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from web_fixtures import auth, get, make_client, play_out, receive, table

pytestmark = pytest.mark.app(computer="weak")
_pool = ThreadPoolExecutor(4)


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
    game_id, tokens, _ = table(client, **options)
    people = [seat for seat, token in enumerate(tokens) if token]
    early = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[people[-1]] or ""))
    assert early.status_code == 409 and "over" in early.json()["error"]
    final, _ = play_out(client, game_id, tokens)
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
    game_id, tokens, _ = table(client, variant="short", seats=[{"kind": "human"}, {"kind": "human"}])
    play_out(client, game_id, tokens)
    with (
        client.websocket_connect(f"/api/games/{game_id}/live") as first,
        client.websocket_connect(f"/api/games/{game_id}/live") as second,
    ):
        for ws, token in ((first, tokens[0]), (second, tokens[1])):
            ws.send_text(json.dumps({"token": token}))
            assert receive(ws)["state"]["rematch"] is None
        again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0] or "")).json()
        for seat, ws in enumerate((first, second)):
            state = receive(ws)["state"]
            while state["rematch"] is None:  # presence may change meanwhile
                state = receive(ws)["state"]
            assert state["rematch"] == again["id"] and state["seat"] == seat


def test_two_processes_asked_at_once_make_one_rematch(shared_url: str) -> None:
    url = shared_url
    with (
        make_client(url, computer="weak") as first,
        make_client(url, computer="weak") as second,
    ):
        game_id, tokens, _ = table(first, variant="short", seats=[{"kind": "human"}, {"kind": "human"}])
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
