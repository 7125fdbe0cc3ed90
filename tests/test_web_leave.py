"""Leaving a table (docs/api.md, "Leave"): a person leaves, over HTTP or their live socket; their
token is void at once, in every process.  With the game's ``takeover`` level a computer takes the
seat (recorded among the record's seats, so the game is rebuilt with it from its record);
without it the seat is open again, its invitation valid, and the creator may give it to a
computer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cribbage.table.table import Table
from web_fixtures import act_first, actions_of, auth, first_action, get, make_client, receive, table

pytestmark = pytest.mark.app(computer="weak")


def leave(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/leave", headers=auth(token))
    assert answer.status_code == 200, answer.text
    left: dict[str, Any] = answer.json()
    return left


def test_without_takeover_the_seat_opens_again_and_its_invitation_takes_it(client: TestClient) -> None:
    game_id, tokens, codes = table(client)
    act_first(client, game_id, tokens[get(client, game_id, tokens[0])["view"]["to_act"]])
    assert leave(client, game_id, tokens[1]) == {"seat": 1, "computer": None}
    gone = client.get(f"/api/games/{game_id}", headers=auth(tokens[1]))
    assert gone.status_code == 401  # the leaver's token is void at once
    assert client.post(f"/api/games/{game_id}/leave", headers=auth(tokens[1])).status_code == 401
    creator = get(client, game_id, tokens[0])
    assert creator["waiting_for"] == [1] and creator["actions"] == []
    assert creator["seats"][1] == {"seat": 1, "kind": "human", "taken": False}
    assert creator["invites"] == [{"seat": 1, "code": codes[0], "url": f"/join/{codes[0]}"}]
    before = creator["version"]
    refused = client.post(f"/api/games/{game_id}/actions", json={"type": "pass"}, headers=auth(tokens[0]))
    assert refused.status_code == 409 and "waiting for seat 1" in refused.json()["error"]
    joined = client.post("/api/join", json={"code": codes[0], "name": "Dana"})  # the same invitation
    assert joined.status_code == 201, joined.text
    dana = joined.json()
    assert dana["seat"] == 1 and dana["state"]["version"] == before and dana["state"]["waiting_for"] == []
    assert dana["state"]["names"][1] == "Dana"
    seat = get(client, game_id, tokens[0])["view"]["to_act"]
    act_first(client, game_id, [tokens[0], dana["token"]][seat])


def test_with_takeover_a_computer_plays_the_seat_to_the_end_and_the_record_rebuilds_it(
    client: TestClient, tmp_path: Path
) -> None:
    game_id, tokens, _ = table(client, takeover="weak", target=61)
    while get(client, game_id, tokens[0])["view"]["to_act"] != 1:
        act_first(client, game_id, tokens[0])
    version = get(client, game_id, tokens[0])["version"]
    assert leave(client, game_id, tokens[1]) == {"seat": 1, "computer": "weak"}
    creator = get(client, game_id, tokens[0])
    assert creator["version"] > version  # the computer played the seat's turn at once
    assert creator["seats"][1] == {
        "seat": 1,
        "kind": "computer",
        "level": "weak",
        "name": "Computer",  # seat 1 of two: the one name of that seat (service.computer_name)
        "taken": True,
    }
    assert creator["waiting_for"] == [] and creator["invites"] == []
    while not get(client, game_id, tokens[0])["over"]:
        act_first(client, game_id, tokens[0])
    record = client.get(f"/api/games/{game_id}/record", headers=auth(tokens[0])).json()
    assert record["seats"][0] is None and record["seats"][1]["player"] == "weak"
    assert isinstance(record["seats"][1]["seed"], int)
    rebuilt = Table.from_json(record)  # the game is wholly in its record, its computer too
    assert rebuilt.over and rebuilt.game.state.result is not None
    assert rebuilt.game.state.result.to_json() == get(client, game_id, tokens[0])["result"]
    assert client.post(f"/api/games/{game_id}/leave", headers=auth(tokens[0])).status_code == 409


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
        assert message == {"type": "error", "error": "wrong token for this game", "code": "unauthorized"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(other_tab)
        assert closed.value.code == 1008
        state = receive(creator)["state"]
        while state["waiting_for"] != [1]:
            state = receive(creator)["state"]
        assert state["seats"][1]["taken"] is False


def test_a_leave_through_one_process_voids_the_token_in_the_other(shared_url: str) -> None:
    url = shared_url
    with (
        make_client(url, computer="weak") as first,
        make_client(url, computer="weak") as second,
    ):
        game_id, tokens, _ = table(first, takeover="weak")
        for seat in (0, 1):  # both processes hold the game in memory, with seat 1's person
            get(second, game_id, tokens[seat])
        leave(first, game_id, tokens[1])
        assert second.get(f"/api/games/{game_id}", headers=auth(tokens[1])).status_code == 401
        assert get(second, game_id, tokens[0])["seats"][1]["kind"] == "computer"
        while not get(second, game_id, tokens[0])["over"]:  # the computer plays in either process
            through = (first, second)[get(first, game_id, tokens[0])["version"] % 2]
            act_first(through, game_id, tokens[0])


def test_whoever_takes_a_left_seat_through_one_process_is_known_to_the_other(shared_url: str) -> None:
    with (
        make_client(shared_url, computer="weak") as first,
        make_client(shared_url, computer="weak") as second,
    ):
        game_id, tokens, codes = table(first)
        for seat in (0, 1):
            get(second, game_id, tokens[seat])  # the second process holds the game, all seats taken
        leave(first, game_id, tokens[1])
        joined = first.post("/api/join", json={"code": codes[0], "name": "Dana"})
        assert joined.status_code == 201, joined.text
        state = get(second, game_id, joined.json()["token"])  # not refused by the stale copy
        assert state["seat"] == 1 and state["names"][1] == "Dana" and state["waiting_for"] == []
        assert second.get(f"/api/games/{game_id}", headers=auth(tokens[1])).status_code == 401


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


def test_an_action_through_a_stale_copy_is_decided_on_the_latest_game(shared_url: str) -> None:
    """A process acts on the copy it holds without reading the stored version first (one round
    trip): whatever another process changed meanwhile is still decided on the latest game.  A
    person who left through one process cannot act through the other's stale copy; an action
    sent with the latest version (heard live from the other process) is not refused as stale; an
    action the stale copy would refuse as out of turn is accepted when the latest game allows it."""
    with (
        make_client(shared_url, computer="weak") as first,
        make_client(shared_url, computer="weak") as second,
    ):
        game_id, tokens, _ = table(first, takeover="weak", target=61)
        for seat in (0, 1):  # both processes hold the game at version 0
            get(second, game_id, tokens[seat])
        to_act = get(first, game_id, tokens[0])["view"]["to_act"]
        moved = act_first(first, game_id, tokens[to_act])  # through the first process only
        seat = moved["view"]["to_act"]
        legal = actions_of(get(first, game_id, tokens[seat]))
        assert legal, "the next seat has something to do"
        action = {**legal[0], "version": moved["version"]}
        answer = second.post(f"/api/games/{game_id}/actions", json=action, headers=auth(tokens[seat]))
        assert answer.status_code == 200, answer.text  # the second's copy was a version behind
        assert answer.json()["version"] > moved["version"]

        # A person leaves (no computer takes the seat: the version stays, the seating changes)
        # through the first process while the second holds a copy in which they are to act.
        game_id, tokens, _ = table(first, target=61)
        leaver = get(first, game_id, tokens[0])["view"]["to_act"]
        stale = get(second, game_id, tokens[leaver])
        assert stale["actions"]
        leave(first, game_id, tokens[leaver])
        action = {**first_action(stale), "version": stale["version"]}
        refused = second.post(f"/api/games/{game_id}/actions", json=action, headers=auth(tokens[leaver]))
        assert refused.status_code == 401, refused.text
        after = get(first, game_id, tokens[1 - leaver])
        assert after["version"] == stale["version"] and after["waiting_for"] == [leaver]
