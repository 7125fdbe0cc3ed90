"""Leaving a table over HTTP and the live socket (docs/api.md, "Leave"): the contract of
``/leave`` (its answer, 401 with the void token, 409 while the table waits and once the game is
over) and of ``/computer``, a leave over the socket, and what each seat may see after a leave.
What becomes of the seat and the game, in one process or two: tests/app/test_leave.py, against
the core.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from web_fixtures import act_first, auth, get, make_client, receive, table

pytestmark = pytest.mark.app(computer="weak")


def leave(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/leave", headers=auth(token))
    assert answer.status_code == 200, answer.text
    left: dict[str, Any] = answer.json()
    return left


def test_leave_answers_the_seat_and_the_token_is_void_at_once(client: TestClient) -> None:
    game_id, tokens, codes = table(client)
    assert leave(client, game_id, tokens[1]) == {"seat": 1, "computer": None}
    assert client.get(f"/api/games/{game_id}", headers=auth(tokens[1])).status_code == 401
    assert client.post(f"/api/games/{game_id}/leave", headers=auth(tokens[1])).status_code == 401
    assert client.post(f"/api/games/{game_id}/leave").status_code == 401
    refused = client.post(f"/api/games/{game_id}/actions", json={"type": "pass"}, headers=auth(tokens[0]))
    assert refused.status_code == 409 and "waiting for seat 1" in refused.json()["error"]
    joined = client.post("/api/join", json={"code": codes[0], "name": "Dana"})  # the same invitation
    assert joined.status_code == 201 and joined.json()["seat"] == 1, joined.text


def test_leave_names_the_computer_that_took_the_seat_and_is_refused_once_the_game_is_over(
    client: TestClient,
) -> None:
    game_id, tokens, _ = table(client, takeover="weak", target=61)
    assert leave(client, game_id, tokens[1]) == {"seat": 1, "computer": "weak"}
    while not get(client, game_id, tokens[0])["over"]:
        act_first(client, game_id, tokens[0])
    over = client.post(f"/api/games/{game_id}/leave", headers=auth(tokens[0]))
    assert over.status_code == 409
    assert over.json() == {"error": "the game is over: there is no table to leave", "code": "game_over"}


def test_the_creator_gives_an_open_seat_to_a_computer(client: TestClient) -> None:
    game_id, tokens, codes = table(client)
    leave(client, game_id, tokens[1])
    url = f"/api/games/{game_id}/computer"
    for body, status in [
        ({"seat": 1, "level": "genius"}, 422),
        ({"seat": 7, "level": "weak"}, 422),
        ({"seat": 0, "level": "weak"}, 409),  # taken
        ({"seat": 1}, 200),  # the level defaults to normal
    ]:
        before = get(client, game_id, tokens[0])
        answer = client.post(url, json=body, headers=auth(tokens[0]))
        assert answer.status_code == status, answer.text
        if status != 200:
            assert get(client, game_id, tokens[0]) == before  # nothing changed
    state = answer.json()
    assert state["seats"][1]["kind"] == "computer" and state["seats"][1]["level"] == "normal"
    assert state["waiting_for"] == [] and state["invites"] == []
    again = client.post(url, json={"seat": 1, "level": "weak"}, headers=auth(tokens[0]))
    assert again.status_code == 409 and "computer's already" in again.json()["error"]
    assert client.post("/api/join", json={"code": codes[0], "name": "Eve"}).status_code == 404
    while not get(client, game_id, tokens[0])["over"]:
        act_first(client, game_id, tokens[0])


def test_only_the_creator_gives_a_seat_to_a_computer() -> None:
    with make_client(computer="weak") as client:
        created = client.post(
            "/api/games", json={"variant": "three-player", "seats": [{"kind": "human"}] * 3}
        )
        data = created.json()
        joined = client.post("/api/join", json={"code": data["invites"][0]["code"], "name": "Boris"}).json()
        answer = client.post(
            f"/api/games/{data['id']}/computer",
            json={"seat": 2, "level": "weak"},
            headers=auth(joined["token"]),
        )
        assert answer.status_code == 403 and "creator" in answer.json()["error"]
        answer = client.post(
            f"/api/games/{data['id']}/computer",
            json={"seat": 2, "level": "weak"},
            headers=auth(data["token"]),
        )
        assert answer.status_code == 200 and answer.json()["waiting_for"] == []


def test_leaving_over_the_live_socket_closes_it_and_the_others_see_the_open_seat(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    path = f"/api/games/{game_id}/live"
    with (
        client.websocket_connect(path) as creator,
        client.websocket_connect(path) as leaver,
        client.websocket_connect(path) as other_tab,
    ):
        for ws, token in ((creator, tokens[0]), (leaver, tokens[1]), (other_tab, tokens[1])):
            ws.send_text(json.dumps({"token": token}))
            assert receive(ws)["type"] == "state"
        leaver.send_text(json.dumps({"type": "leave"}))
        message = receive(leaver)
        while message["type"] == "state":  # who is connected may change meanwhile
            message = receive(leaver)
        assert message == {"type": "left", "seat": 1, "computer": None}
        with pytest.raises(WebSocketDisconnect):
            receive(leaver)
        message = receive(other_tab)
        while message["type"] == "state":
            message = receive(other_tab)
        wrong = {"type": "error", "error": "wrong token for this game", "code": "unauthorized", "status": 401}
        assert message == wrong
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(other_tab)
        assert closed.value.code == 1008
        state = receive(creator)["state"]
        while state["waiting_for"] != [1]:
            state = receive(creator)["state"]
        assert state["seats"][1]["taken"] is False


def test_no_seat_sees_what_it_may_not_after_a_leave_and_in_the_rematch() -> None:
    """The seats' leak check (test_web_tables) through a game where a person leaves mid-game and
    a computer takes the seat, then the rematch's first answers."""
    import random

    from test_web_security import Shadow
    from test_web_tables import check_state, play_to_the_end, seat_everyone
    from web_fixtures import make_client

    with make_client() as client:
        layout = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
        game_id, people, shadow = seat_everyone(
            [client], layout, variant="three-player", target=61, takeover="weak"
        )
        tokens = [person.token for person in people]
        for _ in range(5):  # a few actions, then seat 2 leaves
            state = get(client, game_id, tokens[0])
            actor = people[state["view"]["to_act"]]
            act_first(client, game_id, actor.token)
            actor.since = state["version"]
        assert leave(client, game_id, people[2].token) == {"seat": 2, "computer": "weak"}
        staying = people[:2]
        for person in staying:
            check_state(get(client, game_id, person.token), shadow, person.seat, person.since, tokens)
        play_to_the_end(game_id, staying, shadow, random.Random(2))
        again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[1])).json()
        fresh = Shadow(client, again["id"])
        check_state(again["state"], fresh, 1, 0, tokens)
        check_state(get(client, again["id"], tokens[0]), fresh, 0, 0, tokens)
        assert again["state"]["seats"][2]["kind"] == "computer"
