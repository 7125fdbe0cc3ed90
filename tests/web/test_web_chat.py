"""Chat at the table on the live sockets (cribbage.web.chat, docs/api.md "Chat"): every socket of a
people's table hears what a seat said, in this process and through Redis in another; spectators
read but may not write; the limits, the checks of the text, the history a socket opened later is
sent, and reports, stored and listed by ``cribbage admin reports``."""

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

from cribbage.cli import main
from cribbage.web.messaging.broker import MemoryBroker
from cribbage.web.messaging.redis_broker import RedisBroker
from cribbage.web.ratelimits import NO_LIMITS
from service_urls import REDIS_URL
from web_fixtures import connect, make_client, receive, table, watch_link

pytestmark = pytest.mark.app(limits={**NO_LIMITS, "chat": "4/minute"})


def next_of(ws: WebSocketTestSession, *kinds: str) -> dict[str, Any]:
    """The socket's next message of one of ``kinds`` (states between: who is connected changed;
    the table's history, read once a socket opened, may come after a message said meanwhile)."""
    while True:
        message = receive(ws)
        if message["type"] in kinds:
            return message
        assert message["type"] in ("state", "chat_history"), message


def opened(ws: WebSocketTestSession) -> None:
    """A socket just opened: its first state (nothing was said at its table: no history)."""
    assert receive(ws)["type"] == "state"


def say(ws: WebSocketTestSession, **message: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", **message}))


def test_every_socket_of_the_table_hears_text_and_phrases(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    code = watch_link(client, game_id, tokens[0])
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        sockets.append(connect(stack, client, game_id, {"watch": code}))
        for ws in sockets:
            opened(ws)
        say(sockets[0], text="  <img src=x onerror=alert(1)> hi & bye ")
        heard = [next_of(ws, "chat", "error") for ws in sockets]
        assert heard[0] == heard[1] == heard[2]
        message = heard[0]["message"]
        assert message["seat"] == 0 and message["text"] == "<img src=x onerror=alert(1)> hi & bye"
        say(sockets[1], phrase="gg")
        heard = [next_of(ws, "chat", "error") for ws in sockets]
        assert {json.dumps(h) for h in heard} == {json.dumps(heard[0])}
        assert heard[0]["message"]["seat"] == 1 and heard[0]["message"]["phrase"] == "gg"
        assert heard[0]["message"]["id"] > message["id"]


def test_a_spectator_reads_but_may_not_write(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    code = watch_link(client, game_id, tokens[0])
    with ExitStack() as stack:
        seat = connect(stack, client, game_id, tokens[0])
        spectator = connect(stack, client, game_id, {"watch": code})
        opened(seat)
        opened(spectator)
        say(spectator, text="let me in")
        refused = next_of(spectator, "error", "chat")
        assert refused["code"] == "chat.spectator" and refused["status"] == 403
        spectator.send_text(json.dumps({"type": "report", "message": 1}))
        assert next_of(spectator, "error", "chat")["code"] == "chat.spectator"
        say(seat, phrase="hello")  # the spectator's socket is open still, and reads
        assert next_of(spectator, "chat", "error")["message"]["phrase"] == "hello"


def test_a_table_against_computers_has_no_chat(client: TestClient) -> None:
    game_id, tokens, _ = table(client, [{"kind": "human"}, {"kind": "computer", "level": "weak"}])
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, tokens[0])
        assert receive(ws)["type"] == "state"
        say(ws, phrase="gg")
        refused = next_of(ws, "error", "chat", "chat_history")  # no history was sent either
        assert refused["code"] == "chat.computer_table" and refused["status"] == 403


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"text": "x" * 201}, "chat.too_long"),
        ({"text": " \t "}, "chat.empty"),
        ({"text": "bell\x07bell"}, "chat.bad_text"),
        ({"text": "abc\u202edef"}, "chat.bad_text"),
        ({"phrase": "rude"}, "chat.bad_phrase"),
        ({"text": ["a"]}, "chat.bad_message"),
        ({"text": "a", "phrase": "gg"}, "chat.bad_message"),
    ],
)
def test_a_bad_message_is_refused_by_its_code_and_nobody_hears_it(
    client: TestClient, message: dict[str, Any], code: str
) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            opened(ws)
        say(sockets[0], **message)
        refused = next_of(sockets[0], "error", "chat")
        assert refused["code"] == code and refused["status"] == 422
        assert "x" * 20 not in refused["error"] and "bell" not in refused["error"]  # never repeated
        say(sockets[0], text="fine")  # the socket stays open; the other hears only this one
        # (or reads it in its history, when its history was read after "fine" was stored)
        heard = next_of(sockets[1], "chat", "chat_history", "error")
        assert (heard.get("message") or heard["messages"][-1])["text"] == "fine", heard


def test_a_flood_is_refused_by_the_chat_limit_and_the_socket_stays_open(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, tokens[0])
        opened(ws)
        for n in range(4):
            say(ws, text=str(n))
            assert next_of(ws, "chat", "error")["message"]["text"] == str(n)
        say(ws, text="more")
        refused = next_of(ws, "error", "chat")
        assert refused["code"] == "too_many" and refused["limit"] == "chat" and refused["status"] == 429
        assert 1 <= refused["retry_after"] <= 60
        ws.send_text("not json")  # still open
        assert next_of(ws, "error")["code"] == "bad_json"


@pytest.mark.app(limits={**NO_LIMITS, "chat": "4/minute", "report": "2/minute"})
def test_reports_count_apart_from_the_chat_so_a_flood_can_be_reported(client: TestClient) -> None:
    """Issue 42, item 9: a report inside the chat's window was refused, reports counting against
    the chat limit; they have a limit of their own (``report``)."""
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        flooder, reader = (connect(stack, client, game_id, token) for token in tokens)
        for ws in (flooder, reader):
            opened(ws)
        spam = []
        for n in range(3):
            say(flooder, text=f"spam {n}")
            spam.append(next_of(reader, "chat")["message"]["id"])
        for n in range(4):  # the reader's own chat, up to its limit
            say(reader, text=str(n))
            assert next_of(reader, "chat", "error")["message"]["text"] == str(n)
        say(reader, text="stop it")
        refused = next_of(reader, "error", "chat")
        assert refused["code"] == "too_many" and refused["limit"] == "chat"
        for message in spam[:2]:  # within the chat's window: reports still go
            reader.send_text(json.dumps({"type": "report", "message": message}))
            assert next_of(reader, "reported", "error") == {"type": "reported", "message": message}
        reader.send_text(json.dumps({"type": "report", "message": spam[2]}))
        refused = next_of(reader, "reported", "error")
        assert refused["code"] == "too_many" and refused["limit"] == "report" and refused["status"] == 429


def test_a_socket_opened_later_is_sent_the_last_messages(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, tokens[0])
        opened(ws)
        say(ws, text="first")
        say(ws, phrase="thanks")
        said = [next_of(ws, "chat")["message"] for _ in range(2)]
    with ExitStack() as stack:
        again = connect(stack, client, game_id, tokens[1])
        opened(again)
        assert next_of(again, "chat_history") == {"type": "chat_history", "messages": said}


def test_a_report_is_stored_and_the_operator_lists_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with make_client(url, limits=NO_LIMITS) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client)
        sockets = [connect(stack, client, game_id, token) for token in tokens]
        for ws in sockets:
            opened(ws)
        say(sockets[0], text="something rude")
        said = next_of(sockets[1], "chat")["message"]
        sockets[1].send_text(json.dumps({"type": "report", "message": said["id"]}))
        assert next_of(sockets[1], "reported", "error") == {"type": "reported", "message": said["id"]}
        sockets[1].send_text(json.dumps({"type": "report", "message": said["id"] + 99}))
        assert next_of(sockets[1], "reported", "error")["code"] == "chat.no_message"
    assert main(["admin", "reports", "--db", url, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    (report,) = listed["reports"]
    assert report["game"] == game_id and report["seat"] == 1 and report["message"] == said
    assert main(["admin", "reports", "--db", url]) == 0
    line = capsys.readouterr().out
    assert f"game {game_id}, seat 1 reported message {said['id']} of seat 0" in line
    assert "'something rude'" in line


def test_redis_carries_chat_between_server_processes_on_postgresql(postgres_url: str) -> None:
    """Two applications on one PostgreSQL database and one Redis (two processes): a seat's socket
    on each hears what the other seat said through the other process, once."""
    with (
        make_client(postgres_url, broker=REDIS_URL, limits=NO_LIMITS) as first,
        make_client(postgres_url, broker=REDIS_URL, limits=NO_LIMITS) as second,
        ExitStack() as stack,
    ):
        game_id, tokens, _ = table(first)
        sockets = [connect(stack, first, game_id, tokens[0]), connect(stack, second, game_id, tokens[1])]
        for ws in sockets:
            opened(ws)
        # Each heard before the next is said: two processes store at once in either order.
        say(sockets[0], text="from the first")
        for ws in sockets:
            assert next_of(ws, "chat")["message"]["text"] == "from the first"
        say(sockets[1], phrase="well_played")
        for ws in sockets:
            assert next_of(ws, "chat")["message"]["phrase"] == "well_played"
        say(sockets[0], phrase="gg")  # and nothing twice: the next one each hears is this one
        for ws in sockets:
            assert next_of(ws, "chat")["message"]["phrase"] == "gg"


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_a_chat_message_reaches_every_process_with_sockets_of_its_table_but_the_one_that_said_it(
    kind: str,
) -> None:
    g1, g2 = (f"chat-{uuid.uuid4().hex[:8]}-{n}" for n in (1, 2))

    async def run() -> list[tuple[str, str, str]]:
        heard: list[tuple[str, str, str]] = []
        brokers = [MemoryBroker()] if kind == "memory" else [RedisBroker(REDIS_URL) for _ in range(2)]
        nodes = [f"node-a-{g1}", f"node-b-{g1}"][: len(brokers)]
        for broker, node in zip(brokers, nodes, strict=True):

            async def deliver(_game_id: str) -> None:
                return None

            async def hear(game_id: str, text: str, node: str = node) -> None:
                if game_id in (g1, g2):  # not another test's, on a channel every process hears
                    heard.append((node[5], game_id, text))

            broker.heard = hear
            await broker.start(deliver, origin=node)
            broker.report(g1, node, frozenset({0}))
        brokers[0].report(g2, nodes[0], frozenset())  # only the first has sockets of g2
        try:
            await asyncio.to_thread(brokers[0].say, g1, '{"said": "a b"}', nodes[0])
            await asyncio.to_thread(brokers[-1].say, g2, "{}", "node-c")  # another process's
            for _ in range(200):
                await asyncio.sleep(0.01)
                if len(heard) >= len(brokers):
                    break
            await asyncio.sleep(0.1)
        finally:
            for broker, node in zip(brokers, nodes, strict=True):
                for game_id in (g1, g2):
                    broker.report(game_id, node, None)
                await broker.stop()
        return sorted(heard)

    heard = asyncio.run(run())
    if kind == "memory":
        assert heard == [("a", g2, "{}")]
    else:
        assert heard == sorted([("a", g2, "{}"), ("b", g1, '{"said": "a b"}')])
