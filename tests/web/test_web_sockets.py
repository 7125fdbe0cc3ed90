"""The live socket's costs are bounded and its errors are messages (issue 29, items 3 and 4).

A message is at most ``MAX_MESSAGE`` bytes (refused by uvicorn under ``cribbage serve`` before
it is inflated whole, and by the application whatever serves it); an error names its problem by
a code and never repeats what the client sent; spectators' messages are limited, and so are the
sockets open at once per address and the spectators per game; every spectator of a game is sent
one state read and encoded once.  Binary frames, ids no game can have (a NUL byte, on
PostgreSQL too) and a database that does not answer get error messages, never a dropped socket.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
import zlib
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

import web_fixtures
from cribbage.web.live import MAX_MESSAGE
from cribbage.web.ratelimits import NO_LIMITS
from e2e_helpers import running_server
from test_web_outage import _outage, database  # noqa: F401 - the fixture, used by name
from web_fixtures import WAIT, auth, connect, first_action, make_app, make_client, table, watch_link

pytestmark = pytest.mark.app(limits=NO_LIMITS)


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The socket's next message other than a state, or a failure after a while."""
    while True:
        message: dict[str, Any] = web_fixtures.receive(ws)
        if message["type"] != "state":
            return message


def first_state(ws: WebSocketTestSession) -> dict[str, Any]:
    message: dict[str, Any] = web_fixtures.receive(ws)
    assert message["type"] == "state", message
    state: dict[str, Any] = message["state"]
    return state


def closed_with(ws: WebSocketTestSession) -> int:
    """The close code of a socket the server closes (a failure if it sends anything else)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        web_fixtures.receive(ws)
    return closed.value.code


def to_act(client: TestClient, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of the seat to act and its first legal action (with the version)."""
    state = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
    token = tokens[state["view"]["to_act"]]
    mine = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    return token, {**first_action(mine), "version": mine["version"]}


# --------------------------------------------------------------------------- message size, echo


def test_a_message_over_the_size_limit_is_refused_and_closes_the_socket(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": tokens[0]})
        first_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": {"type": "pass"}, "pad": "x" * MAX_MESSAGE}))
        refused = receive(ws)
        assert refused["code"] == "too_large" and str(MAX_MESSAGE) in refused["error"]
        assert "xxxx" not in json.dumps(refused)
        assert closed_with(ws) == 1009


def test_error_replies_name_the_problem_by_code_and_never_repeat_the_input(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    token, action = to_act(client, game_id, tokens)
    marker = "QZQZ" * 200  # 800 characters: under the size limit, far over any field
    bad = [
        ({"type": "action", "action": {**action, "type": marker}}, "bad_action"),
        ({"type": "action", "action": {**action, marker: 1}}, "bad_action"),
        ({"type": "action", "action": {"type": "play", "card": marker}}, "bad_action"),
        ({"type": "action", "action": {"type": "discard", "cards": [marker, marker]}}, "bad_action"),
        ({"type": marker}, "bad_message"),
        ({"type": "action", "action": action, "ref": marker}, "bad_ref"),
    ]
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": token})
        version = first_state(ws)["version"]
        for message, code in bad:
            ws.send_text(json.dumps(message))
            refused = receive(ws)
            assert refused["type"] == "error" and refused["code"] == code, refused
            assert "QZQZ" not in json.dumps(refused), refused
        ws.send_text(marker)  # not JSON
        refused = receive(ws)
        assert refused["code"] == "bad_json" and "QZQZ" not in json.dumps(refused)
        # Nothing changed, and the socket still acts.
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 7}))
        assert receive(ws) == {"type": "acted", "ref": 7, "version": version + 1}


async def _send_and_hear(port: int, game_id: str, token: str, message: str) -> tuple[str, Any]:
    """Over a real connection with permessage-deflate: send ``message`` after the token, and
    say what came back: ("closed", code) or ("message", the message)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async with connect(
        f"ws://127.0.0.1:{port}/api/games/{game_id}/live", compression="deflate", max_size=None
    ) as ws:
        await ws.send(json.dumps({"token": token}))
        assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "state"
        await ws.send(message)
        try:
            while True:
                answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                if answer["type"] != "state":
                    return "message", answer
        except ConnectionClosed as closed:
            return "closed", closed.rcvd.code if closed.rcvd else None


def test_cribbage_serve_refuses_a_large_message_before_reading_it_whole(tmp_path: Path) -> None:
    """A megabyte of one letter deflates to about a kilobyte on the wire: uvicorn refuses it
    (1009, message too big) before inflating it, and the application never sees it."""
    big = json.dumps({"type": "action", "action": {"type": "pass"}, "pad": "a" * 1_000_000})
    assert len(zlib.compress(big.encode())) < 16 * 1024
    with running_server(tmp_path / "games.db", args=["--limit", "token=off"]) as base:
        port = int(base.rsplit(":", 1)[1])
        request = urllib.request.Request(
            f"{base}/api/games",
            data=json.dumps({"seats": [{"kind": "human"}, {"kind": "human"}]}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            created = json.loads(answer.read())
        assert asyncio.run(_send_and_hear(port, created["id"], created["token"], big)) == ("closed", 1009)
        # A message of the size limit's order is read, and answered with an error code.
        small = json.dumps({"type": "nonsense", "pad": "a" * 3000})
        kind, answer = asyncio.run(_send_and_hear(port, created["id"], created["token"], small))
        assert kind == "message" and answer["code"] == "bad_message"


# --------------------------------------------------------------------------- spectators, caps


def test_spectators_messages_count_against_their_address() -> None:
    app = make_app(limits={**NO_LIMITS, "spectator": "3/minute"})
    with TestClient(app) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client, public=True)
        ws = connect(stack, client, game_id, {"watch": watch_link(client, game_id, tokens[0])})
        first_state(ws)
        for _ in range(3):
            ws.send_text(json.dumps({"type": "action", "action": {"type": "pass"}}))
            assert receive(ws)["code"] == "spectator_cannot_act"
        ws.send_text("{}")
        refused = receive(ws)
        assert refused["code"] == "too_many" and refused["limit"] == "spectator"
        assert refused["retry_after"] >= 1
        assert closed_with(ws) == 1013


def test_an_address_may_hold_only_so_many_sockets_open_at_once() -> None:
    """Silent sockets count (from the upgrade on); one that closes frees its place."""
    app = make_app(limits={**NO_LIMITS, "sockets": "2"})
    with TestClient(app) as client:
        game_id, tokens, _ = table(client)
        path = f"/api/games/{game_id}/live"
        with client.websocket_connect(path) as silent, client.websocket_connect(path):
            with client.websocket_connect(path) as third:
                refused = receive(third)
                assert refused["code"] == "too_many" and refused["limit"] == "sockets"
                assert closed_with(third) == 1013
            silent.close()
            with ExitStack() as stack:
                deadline = 50
                while True:  # the server notices the closed socket a moment later
                    ws = connect(stack, client, game_id, {"token": tokens[0]})
                    message = web_fixtures.receive(ws)
                    if message["type"] == "state" or deadline == 0:
                        break
                    deadline -= 1
                assert message["type"] == "state", message


def test_a_game_may_have_only_so_many_spectators_in_a_process() -> None:
    app = make_app(limits={**NO_LIMITS, "spectators": "2"})
    with TestClient(app) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client, public=True)
        code = watch_link(client, game_id, tokens[0])
        for _ in range(2):
            first_state(connect(stack, client, game_id, {"watch": code}))
        third = connect(stack, client, game_id, {"watch": code})
        refused = receive(third)
        assert refused["code"] == "too_many" and refused["limit"] == "spectators"
        assert closed_with(third) == 1013
        # The seats' own sockets are not spectators.
        assert first_state(connect(stack, client, game_id, {"token": tokens[1]}))["seat"] == 1


def test_every_spectator_is_sent_one_state_read_and_encoded_once_per_change(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, public=True)
    code = watch_link(client, game_id, tokens[0])
    with ExitStack() as stack:
        spectators = [connect(stack, client, game_id, {"watch": code}) for _ in range(6)]
        versions = [first_state(ws)["version"] for ws in spectators]
        reads = []
        parts = service.state_parts

        def counted(*args: Any, **kwargs: Any) -> Any:
            reads.append((args, kwargs))
            return parts(*args, **kwargs)

        service.state_parts = counted
        token, action = to_act(client, game_id, tokens)
        answer = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))
        assert answer.status_code == 200, answer.text
        texts = set()
        for ws, version in zip(spectators, versions, strict=True):
            text = web_fixtures.receive_text(ws)
            assert json.loads(text)["state"]["version"] == version + 1
            texts.add(text)
        assert len(texts) == 1  # the same message for all
        # Read once for the six, where the change was stored (from the copy stored, no read of
        # the stored version; who is connected as the action's answer read it), and the
        # spectators' part encoded once.
        assert reads == [((game_id, set(), True), {"saved": True, "connected": frozenset()})]


def test_a_change_reaches_this_processs_sockets_without_reading_the_game_again(client: TestClient) -> None:
    """An action read the stored version once (to act on the game at it); its state reaches every
    socket of the game in this process (both seats', a spectator's) from the copy just stored,
    with no second read of the stored version nor of the game."""
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, public=True)
    code = watch_link(client, game_id, tokens[0])
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        sockets.append(connect(stack, client, game_id, {"watch": code}))
        versions = [first_state(ws)["version"] for ws in sockets]
        games = service.storage.games
        reads: list[str] = []
        originals = {name: getattr(games, name) for name in ("position", "load", "moved")}

        def counted(name: str) -> Any:
            def read(*args: Any) -> Any:
                reads.append(name)
                return originals[name](*args)

            return read

        for name in originals:
            setattr(games, name, counted(name))
        try:
            token, action = to_act(client, game_id, tokens)
            reads.clear()  # to_act read the state over HTTP
            answer = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))
            assert answer.status_code == 200, answer.text
            for ws, version in zip(sockets, versions, strict=True):
                state = first_state(ws)
                while state["version"] == version:  # a socket opened: who is connected
                    state = first_state(ws)
                assert state["version"] == answer.json()["version"]
        finally:
            for name, original in originals.items():
                setattr(games, name, original)
        assert reads == ["moved"]  # the action's own: the stored version, the record if behind


# --------------------------------------------------------------------------- errors outside JSON


def test_a_binary_frame_is_answered_with_an_error_and_the_socket_stays_open(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    token, action = to_act(client, game_id, tokens)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, {"token": token})
        version = first_state(ws)["version"]
        ws.send_bytes(b'{"type": "action"}')
        refused = receive(ws)
        assert refused["code"] == "binary_message" and refused["type"] == "error"
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": "r"}))
        assert receive(ws) == {"type": "acted", "ref": "r", "version": version + 1}
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:  # as the first message
        ws.send_bytes(json.dumps({"token": token}).encode())
        assert receive(ws)["code"] == "bad_first_message"
        assert closed_with(ws) == 1008


@pytest.mark.postgres
def test_an_id_no_game_can_have_is_not_found_on_postgresql(postgres_url: str) -> None:
    with make_client(postgres_url, limits=NO_LIMITS) as client:
        game_id, tokens, _ = table(client)
        for bad in ("ab%00cd", f"{game_id}%00", "a%27b", "caf%C3%A9"):
            # A NUL is refused at the edge, before any route (issue 41, item 2); the rest: no game
            refusal = (422, "bad_text") if "%00" in bad else (404, "not_found")
            answers = [
                client.get(f"/api/games/{bad}", headers=auth(tokens[0])),
                client.post(f"/api/games/{bad}/actions", json={"type": "pass"}, headers=auth(tokens[0])),
                client.post(f"/api/games/{bad}/leave", headers=auth(tokens[0])),
                client.get(f"/api/games/{bad}/hint", headers=auth(tokens[0])),
            ]
            for answer in answers:
                assert (answer.status_code, answer.json()["code"]) == refusal, (bad, answer.text)
            with client.websocket_connect(f"/api/games/{bad}/live") as ws:
                ws.send_text(json.dumps({"token": tokens[0]}))
                refused = receive(ws)
                assert refused["code"] == "not_found" and refused["status"] == 404
                assert closed_with(ws) == 1008
        # The table is untouched.
        assert client.get(f"/api/games/{game_id}", headers=auth(tokens[1])).status_code == 200


@pytest.mark.postgres
def test_a_database_outage_is_an_error_message_on_the_socket_which_stays_open(
    database: tuple[str, str],  # noqa: F811 - the fixture imported above
) -> None:
    name, url = database
    with make_client(url, limits=NO_LIMITS) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client)
        token, action = to_act(client, game_id, tokens)
        ws = connect(stack, client, game_id, {"token": token})
        version = first_state(ws)["version"]
        _outage(name, True)
        try:
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": 1}))
            refused = receive(ws)
            assert refused["code"] == "database_unavailable" and refused["status"] == 503, refused
            assert refused["ref"] == 1 and refused["retry_after"] >= 1
            ws.send_text(json.dumps({"type": "leave"}))
            assert receive(ws)["code"] == "database_unavailable"
            with client.websocket_connect(f"/api/games/{game_id}/live") as late:  # a new socket
                late.send_text(json.dumps({"token": tokens[0]}))
                refused = receive(late)
                assert refused["code"] == "database_unavailable" and refused["retry_after"] >= 1
                assert closed_with(late) == 1013  # try again later (the page does, after retry_after)
        finally:
            _outage(name, False)
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 2}))
        assert receive(ws) == {"type": "acted", "ref": 2, "version": version + 1}
