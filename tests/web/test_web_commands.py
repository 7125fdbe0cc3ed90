"""One way in for every command (issue 43, item 1): an action sent over HTTP and one sent on the
live socket go through the same :meth:`Commands.act`, which checks it with the same model; the
socket speaks a named version of its messages, and its refusals carry the same values as HTTP's."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app import Actor
from cribbage.web.commands import Commands, check_action
from cribbage.web.ratelimits import NO_LIMITS
from cribbage.web.socket_messages import PROTOCOL
from test_web_sockets import closed_with, first_state, receive, to_act
from web_fixtures import auth, connect, table

pytestmark = pytest.mark.app(limits=NO_LIMITS)


def test_an_action_over_http_and_over_the_socket_goes_through_one_command(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    act = Commands.act

    async def counted(self: Commands, game_id: str, actor: Actor, action: object, **kw: Any) -> Any:
        seen.append((game_id, check_action(action)))
        return await act(self, game_id, actor, action, **kw)

    monkeypatch.setattr(Commands, "act", counted)
    game_id, tokens, _ = table(client)
    token, action = to_act(client, game_id, tokens)
    answer = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert seen == [(game_id, action)]
    token, action = to_act(client, game_id, tokens)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": token, "protocol": PROTOCOL})
        version = first_state(ws)["version"]
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": "r1"}))
        acted = receive(ws)
        assert acted["type"] == "acted" and acted["ref"] == "r1" and acted["version"] > version, acted
    assert seen[1:] == [(game_id, action)]


def test_a_socket_action_is_checked_as_the_http_body_is(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    token, action = to_act(client, game_id, tokens)
    bad = {**action, "version": "three"}
    over_http = client.post(f"/api/games/{game_id}/actions", json=bad, headers=auth(token))
    assert over_http.status_code == 422 and over_http.json()["field"] == "version"
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": token})
        first_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": bad, "ref": 5}))
        refused = receive(ws)
        assert refused["code"] == "bad_action" and refused["field"] == "action.version", refused
        assert refused["ref"] == 5 and refused["status"] == 400
        ws.send_text(json.dumps({"type": "action", "action": [1], "ref": 6}))
        assert receive(ws)["error"] == "'action' must be an object"


@pytest.mark.parametrize("protocol", [2, 0, "1", True])
def test_a_socket_speaking_another_version_is_refused_naming_this_one(
    client: TestClient, protocol: object
) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": tokens[0], "protocol": protocol})
        refused = receive(ws)
        assert refused["code"] == "bad_protocol" and refused["protocol"] == PROTOCOL == 1, refused
        assert refused["status"] == 400
        assert closed_with(ws) == 1008


def test_a_refusal_on_the_socket_carries_the_values_http_gives(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    token, action = to_act(client, game_id, tokens)
    stale = {**action, "version": action["version"] - 1}
    over_http = client.post(f"/api/games/{game_id}/actions", json=stale, headers=auth(token)).json()
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": token})
        first_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": stale}))
        refused = receive(ws)
    assert refused == {"type": "error", **over_http, "status": 409}
