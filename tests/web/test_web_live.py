"""Live updates (docs/api.md, "Live"): every change reaches every seat's socket, in any process.

Each seat's socket gets its own state after every change made by anyone, through any server
process: within one process by the in-memory broker, between two processes (two applications on
one database) by Redis publish/subscribe on a real Redis (and between the worker processes of
``cribbage serve --workers 2``: tests/web/test_web_workers.py, on its server).  Malformed live
messages get an error naming the problem and change nothing.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from cribbage.web.messaging.broker import MemoryBroker
from cribbage.web.messaging.redis_broker import RedisBroker
from cribbage.web.messaging.redis_client import RedisClients
from service_urls import REDIS_URL
from web_fixtures import auth, connect, first_action, make_client, receive, table


def state_after(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The socket's next state at ``version`` or later: states at an older version before it may
    only say who is connected now (a socket opened or closed), never an older game."""
    last = -1
    while True:
        message = receive(ws)
        assert message["type"] == "state", message
        state: dict[str, Any] = message["state"]
        assert state["version"] >= last
        last = state["version"]
        if last >= version:
            return state


def first_legal(client: TestClient, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to act and its first legal action, read over HTTP with that seat's token."""
    state = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
    seat = state["view"]["to_act"]
    mine = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()
    return seat, {**first_action(mine), "version": mine["version"]}


def check_own(state: dict[str, Any], seat: int) -> None:
    assert state["seat"] == seat and state["view"]["seat"] == seat


def test_every_change_reaches_every_seat_as_its_own_state(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        versions = []
        for seat, ws in enumerate(sockets):
            first = receive(ws)
            assert first["type"] == "state"
            check_own(first["state"], seat)
            versions.append(first["state"]["version"])
        for _ in range(6):
            seat, action = first_legal(client, game_id, tokens)
            answer = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(tokens[seat]))
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            for other, ws in enumerate(sockets):
                state = state_after(ws, version)
                check_own(state, other)
                assert state["version"] == version


def test_actions_may_be_sent_over_the_socket(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            receive(ws)
        seat, action = first_legal(client, game_id, tokens)
        sockets[seat].send_text(json.dumps({"type": "action", "action": action}))
        for other, ws in enumerate(sockets):
            state = state_after(ws, action["version"] + 1)
            check_own(state, other)


def test_an_action_reads_who_is_connected_once_over_http_and_over_the_socket(client: TestClient) -> None:
    """Who has a socket open is read once per action: over HTTP for its answer, and the sockets'
    states of the change are made with that read; over the socket by the fan-out alone."""
    game_id, tokens, _ = table(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    reads: list[str] = []
    presence = service.round.presence

    def counted(read_game: str) -> Any:
        reads.append(read_game)
        return presence(read_game)

    service.round.presence = service.fanout.presence = counted
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            receive(ws)
        for over_socket in (False, True):
            seat, action = first_legal(client, game_id, tokens)
            reads.clear()
            if over_socket:
                sockets[seat].send_text(json.dumps({"type": "action", "action": action}))
            else:
                answer = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(tokens[seat]))
                assert answer.status_code == 200 and answer.json()["connected"] == [0, 1], answer.text
            for ws in sockets:
                assert state_after(ws, action["version"] + 1)["connected"] == [0, 1]
            assert reads == [game_id], (over_socket, reads)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("not json", "a message must be JSON"),
        ("[1, 2]", "a message must be"),
        ('{"type": "shout"}', "a message must be"),
        ('{"type": "action", "action": 5}', "'action' must be an object"),
        ('{"type": "action", "action": {"type": "discard", "cards": ["1X", "5H"]}}', "1X"),
    ],
)
def test_a_malformed_live_message_gets_an_error_and_changes_nothing(
    client: TestClient, text: str, error: str
) -> None:
    game_id, tokens, _ = table(client)
    before = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, tokens[0])
        receive(ws)
        ws.send_text(text)
        message = receive(ws)
        assert message["type"] == "error" and error in message["error"]
        ws.send_text("still there?")  # the socket stays open
        assert receive(ws)["type"] == "error"
    after = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
    assert {**after, "connected": []} == {**before, "connected": []}


@pytest.mark.parametrize(
    ("first", "error"),
    [("hello", "the first message must be"), ('{"token": "wrong"}', "wrong token"), ("{}", "first message")],
)
def test_a_socket_without_a_right_token_is_refused(client: TestClient, first: str, error: str) -> None:
    game_id, _, _ = table(client)
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
        ws.send_text(first)
        message = receive(ws)
        assert message["type"] == "error" and error in message["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1008


def test_a_token_reads_only_its_own_game(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    other_id, _, _ = table(client)
    with client.websocket_connect(f"/api/games/{other_id}/live") as ws:
        ws.send_text(json.dumps({"token": tokens[0]}))
        assert receive(ws)["type"] == "error"
    assert game_id != other_id


def test_redis_carries_changes_between_server_processes(tmp_path: Path) -> None:
    """Two applications on one database (two processes): a seat's socket on the first hears of
    the other seat's action taken through the second."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with (
        make_client(url, broker=REDIS_URL) as first,
        make_client(url, broker=REDIS_URL) as second,
        ExitStack() as stack,
    ):
        game_id, tokens, _ = table(first)
        sockets = [connect(stack, first, game_id, tokens[0]), connect(stack, second, game_id, tokens[1])]
        for ws in sockets:
            receive(ws)
        for turn in range(4):
            seat, action = first_legal(second, game_id, tokens)
            through = (first, second)[turn % 2]  # actions through either process
            answer = through.post(f"/api/games/{game_id}/actions", json=action, headers=auth(tokens[seat]))
            assert answer.status_code == 200, answer.text
            for other, ws in enumerate(sockets):
                state = state_after(ws, answer.json()["version"])
                check_own(state, other)
                assert state["version"] == answer.json()["version"]


def test_a_process_talks_to_redis_through_one_blocking_and_one_asyncio_client(tmp_path: Path) -> None:
    """Redis in one place (issue 43): the broker's publisher and the limits' storage share the
    process's blocking client, its listener and the queue of "Play now" its asyncio client, all
    made by :class:`~cribbage.web.messaging.redis_client.RedisClients` of the broker's URL."""
    with make_client(f"sqlite:///{tmp_path / 'games.db'}", broker=REDIS_URL) as client:
        state = client.app.state  # type: ignore[attr-defined]
        clients = state.messages.redis
        assert isinstance(clients, RedisClients) and clients.url == REDIS_URL
        assert state.messages._publisher is clients.blocking
        assert state.limits.limiter.storage.storage.connection_pool is clients.blocking.connection_pool
        assert state.play.queue._redis is clients.asyncio
        game_id, tokens, _ = table(client)  # counted in Redis, published through it
        assert client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).status_code == 200


def test_an_action_sent_with_a_ref_is_answered_with_it(client: TestClient) -> None:
    """A ``ref``: the action stored, the socket hears ``acted`` with the new version before its
    state; refused, the error carries the ref; a bad ref is refused and nothing changes."""
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            receive(ws)
        seat, action = first_legal(client, game_id, tokens)
        ws = sockets[seat]

        def reply(version: int = action["version"]) -> dict[str, Any]:
            """The next message but the states at ``version`` (presence: the same step again)."""
            message = receive(ws)
            while message["type"] == "state" and message["state"]["version"] == version:
                message = receive(ws)
            return message

        for bad in (True, 1.5, "x" * 65, ["a"]):
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": bad}))
            refused = reply()
            assert refused["type"] == "error" and "'ref'" in refused["error"] and "ref" not in refused
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": "a-1"}))
        assert reply() == {"type": "acted", "ref": "a-1", "version": action["version"] + 1}
        assert state_after(ws, action["version"] + 1)["version"] == action["version"] + 1
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 7}))  # the same again: stale
        stale = reply(action["version"] + 1)
        assert stale["type"] == "error" and stale["status"] == 409 and stale["ref"] == 7
        assert "stale version" in stale["error"]
        after = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
        assert after["version"] == action["version"] + 1


def test_a_ref_of_64_bits_or_more_is_refused_before_the_action_and_the_socket_stays(
    client: TestClient,
) -> None:
    """Issue 41, item 4: a ``ref`` of 2**64 dropped the socket (the encoder's ``Integer exceeds
    64-bit range``, close 1006) after the action was stored.  Now an integer ``ref`` beyond
    JavaScript's safe integers is ``bad_ref``, nothing is stored, and the socket serves on."""
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            receive(ws)
        seat, action = first_legal(client, game_id, tokens)
        ws = sockets[seat]
        for bad in (2**64, -(2**64), 2**53, 10**30):
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": bad}))
            message = receive(ws)
            while message["type"] == "state":
                message = receive(ws)
            assert message["type"] == "error" and message["code"] == "bad_ref" and "ref" not in message
            after = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()
            assert after["version"] == action["version"]  # nothing stored
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 2**53 - 1}))
        message = receive(ws)
        while message["type"] == "state" and message["state"]["version"] == action["version"]:
            message = receive(ws)
        assert message == {"type": "acted", "ref": 2**53 - 1, "version": action["version"] + 1}


def test_a_change_told_to_every_process_is_delivered_only_where_its_game_has_sockets() -> None:
    """A change published without an origin goes to every process on the common channel; each
    delivers only those of games it has sockets of (``wanted``)."""

    # Names of this test's own: other tests (and runs) on the same Redis hear the common channel.
    g1, g2, g3 = (f"told-{uuid.uuid4().hex[:8]}-{n}" for n in range(3))
    nodes = [f"node-a-{g1}", f"node-b-{g1}"]

    async def run() -> list[tuple[str, str]]:
        heard: list[tuple[str, str]] = []
        brokers = [RedisBroker(REDIS_URL) for _ in nodes]
        for broker, node, games in zip(brokers, nodes, [{g1}, {g1, g2}], strict=True):

            async def deliver(game_id: str, node: str = node) -> None:
                heard.append((node[5], game_id))

            broker.wanted = games.__contains__
            await broker.start(deliver, origin=node)
        try:
            for game_id in (g1, g2, g3):
                brokers[0].publish(game_id)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if len(heard) >= 3:
                    break
            await asyncio.sleep(0.1)  # nothing more comes
        finally:
            for broker in brokers:
                await broker.stop()
        return sorted(heard)

    assert asyncio.run(run()) == sorted([("a", g1), ("b", g1), ("b", g2)])


def test_a_change_a_process_sent_its_own_sockets_reaches_the_others_with_sockets_of_its_game() -> None:
    """A change published with its origin (the process that told its own sockets itself) is
    delivered by Redis to each other process that reports sockets of the game (seats, or
    spectators only), and to no other: not to its origin, not to a process without sockets of
    the game, not to one whose report was withdrawn.  The memory broker (one process) delivers
    only a change published without its own origin."""
    games = [f"routed-{uuid.uuid4().hex[:8]}-{n}" for n in range(4)]
    g1, g2, g3, g4 = games

    async def run() -> list[tuple[str, str]]:
        heard: list[tuple[str, str]] = []
        nodes = [f"node-a-{g1}", f"node-b-{g1}", f"node-c-{g1}"]
        brokers = [RedisBroker(REDIS_URL) for _ in nodes]
        for broker, node in zip(brokers, nodes, strict=True):

            async def deliver(game_id: str, node: str = node) -> None:
                if game_id in games:  # not another test's change, broadcast to every process at once
                    heard.append((node[5], game_id))

            await broker.start(deliver, origin=node)
        a, b, c = brokers
        a.report(g1, nodes[0], frozenset({0}))
        b.report(g1, nodes[1], frozenset())  # spectators only
        a.report(g3, nodes[0], frozenset({1}))
        c.report(g4, nodes[2], frozenset({0}))
        c.report(g4, nodes[2], None)  # its last socket closed
        try:
            a.publish(g1, origin=nodes[0])  # to b only
            b.publish(g2, origin=nodes[1])  # nobody has sockets of g2
            b.publish(g3, origin=nodes[1])  # to a only
            a.publish(g4, origin=nodes[0])  # c's report withdrawn: to nobody
            for _ in range(200):
                await asyncio.sleep(0.01)
                if len(heard) >= 2:
                    break
            await asyncio.sleep(0.1)  # nothing more comes
        finally:
            for game_id in games:
                for broker, node in zip(brokers, nodes, strict=True):
                    broker.report(game_id, node, None)
            for broker in brokers:
                await broker.stop()
        return sorted(heard)

    assert asyncio.run(run()) == sorted([("b", g1), ("a", g3)])


def test_the_memory_broker_delivers_what_its_own_process_did_not_send() -> None:
    async def run() -> list[str]:
        heard: list[str] = []
        broker = MemoryBroker()

        async def deliver(game_id: str) -> None:
            heard.append(game_id)

        await broker.start(deliver, origin="node-a")
        try:
            broker.publish("g1", origin="node-a")  # told its sockets itself
            broker.publish("g2")
            broker.publish("g3", origin="node-b")
            for _ in range(100):
                await asyncio.sleep(0.01)
                if len(heard) >= 2:
                    break
            await asyncio.sleep(0.05)
        finally:
            await broker.stop()
        return sorted(heard)

    assert asyncio.run(run()) == ["g2", "g3"]


def test_a_process_alone_with_sockets_of_a_game_publishes_nothing_until_another_reports() -> None:
    """A change's origin publishes nothing while the reports it read a moment ago name no other
    process (a game of its sockets only); once those reports are older than the settling time,
    it reads them again and tells the newcomer."""
    game_id = f"alone-{uuid.uuid4().hex[:8]}"

    async def run() -> tuple[list[str], list[str]]:
        heard: list[str] = []
        a, b = RedisBroker(REDIS_URL, presence_seconds=1.2), RedisBroker(REDIS_URL, presence_seconds=1.2)
        assert a.settle_seconds == pytest.approx(0.2)

        async def deliver(changed: str) -> None:
            if changed == game_id:  # not another test's change, broadcast to every process at once
                heard.append(changed)

        async def nothing(_changed: str) -> None:
            return None

        await a.start(nothing, origin="node-a")
        await b.start(deliver, origin="node-b")
        try:
            a.report(game_id, "node-a", frozenset({0}))
            assert a.connected(game_id) == frozenset({0})  # read now: node-a's report alone
            b.report(game_id, "node-b", frozenset({1}))  # unannounced (no presence message)
            a.publish(game_id, origin="node-a")  # decided from the reports just read: nobody
            await asyncio.sleep(0.3)
            before = list(heard)
            assert a.connected(game_id) == frozenset({0, 1})  # older than the settling time: read again
            a.publish(game_id, origin="node-a")
            for _ in range(200):
                if heard:
                    break
                await asyncio.sleep(0.01)
        finally:
            for broker, node in ((a, "node-a"), (b, "node-b")):
                broker.report(game_id, node, None)
                await broker.stop()
        return before, heard

    before, after = asyncio.run(run())
    assert before == [] and after == [game_id]
