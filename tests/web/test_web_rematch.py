"""Play again over HTTP and the live socket (docs/api.md, "Rematch"): the contract of
``/rematch`` (its answer, 409 before the game is over, 404, 401) and every seat's socket hearing
of the rematch.  Who sits where in the new game, its dealer and options, one rematch however
many processes ask: tests/app/test_rematch.py, against the core.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from web_fixtures import auth, get, play_out, receive, table

pytestmark = pytest.mark.app(computer="weak")


def test_rematch_answers_the_new_game_and_the_seat_once_the_game_is_over(client: TestClient) -> None:
    game_id, tokens, _ = table(client, variant="short")
    early = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[1]))
    assert early.status_code == 409 and early.json()["error"] == "play again once the game is over"
    play_out(client, game_id, tokens)
    asked = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[1]))
    assert asked.status_code == 200, asked.text
    again = asked.json()
    assert set(again) == {"id", "seat", "state"} and again["seat"] == 1 and again["id"] != game_id
    assert again["state"] == get(client, again["id"], tokens[1])
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 401
    assert client.post("/api/games/nope/rematch", headers=auth(tokens[0])).status_code == 404


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
