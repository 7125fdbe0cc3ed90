"""Which seats are connected (docs/api.md, "Live"): every seat's state says which people's seats
have a live socket open now, in any server process, and each change of it reaches every socket.

Within one process the memory broker knows the sockets; between two processes (two applications
on one database) Redis carries each process's reports, which expire when a process stops renewing
them (a process killed with its sockets open).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cribbage.web.messaging.presence import Presence
from cribbage.web.messaging.redis_broker import PRESENCE_KEY, REDIS_RETRY_SECONDS, RedisBroker
from cribbage.web.ratelimits import NO_LIMITS
from service_urls import REDIS_URL
from web_fixtures import WAIT, act_first, auth, connect, first_action, make_client, receive, table


def until(ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The socket's states until one is ``wanted`` (a failure after a while, never a hang)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        message = receive(ws)
        assert message["type"] == "state", message
        state: dict[str, Any] = message["state"]
        if wanted(state):
            return state
    raise AssertionError("no such state came")


def connected(seats: list[int]) -> Callable[[dict[str, Any]], bool]:
    return lambda state: bool(state["connected"] == seats)


def read(client: TestClient, game_id: str, token: str, seats: list[int]) -> dict[str, Any]:
    """The seat's state over HTTP once it says ``seats`` are connected (a closed socket is
    noticed by the server a moment after the client closes it)."""
    deadline = time.monotonic() + WAIT
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        if state["connected"] == seats or time.monotonic() > deadline:
            assert state["connected"] == seats, state["connected"]
            return state
        time.sleep(0.02)


def test_a_seat_is_connected_while_one_of_its_sockets_is_open(client: TestClient) -> None:
    game_id, tokens, _ = table(client)
    assert client.get(f"/api/games/{game_id}", headers=auth(tokens[1])).json()["connected"] == []
    with ExitStack() as stack:
        first = connect(stack, client, game_id, tokens[0])
        assert until(first, lambda _: True)["connected"] == [0]  # the first state knows itself
        with ExitStack() as second_stack:
            second = connect(second_stack, client, game_id, tokens[1])
            mine = until(second, lambda _: True)
            assert mine["connected"] == [0, 1] and mine["seat"] == 1
            heard = until(first, connected([0, 1]))  # the other seat hears it, as its own state
            assert heard["seat"] == 0 and heard["version"] == mine["version"]
            read(client, game_id, tokens[1], [0, 1])
        until(first, connected([0]))  # seat 1's only socket closed
        read(client, game_id, tokens[0], [0])
        with ExitStack() as tab:  # a second tab of seat 0: closing one keeps the seat connected
            connect(tab, client, game_id, tokens[0])
            read(client, game_id, tokens[1], [0])
        read(client, game_id, tokens[1], [0])
    read(client, game_id, tokens[1], [])


def test_only_peoples_seats_are_listed_and_actions_answer_with_them(client: TestClient) -> None:
    layout = [{"kind": "human"}, {"kind": "computer", "level": "weak"}, {"kind": "human"}]
    game_id, tokens, _ = table(client, variant="three-player", seats=layout)
    with ExitStack() as stack:
        ws = connect(stack, client, game_id, tokens[2])
        until(ws, connected([2]))
        state = read(client, game_id, tokens[0], [2])
        seat = state["view"]["to_act"]
        assert seat in (0, 2)  # three-player: the computer's discard is made already
        token = tokens[seat]
        mine = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        answer = client.post(f"/api/games/{game_id}/actions", json=first_action(mine), headers=auth(token))
        assert answer.status_code == 200, answer.text
        assert answer.json()["connected"] == [2]


def test_redis_carries_who_is_connected_between_processes(shared_url: str) -> None:
    url = shared_url
    with (
        make_client(url, broker=REDIS_URL) as first,
        make_client(url, broker=REDIS_URL) as second,
        ExitStack() as stack,
    ):
        game_id, tokens, _ = table(first)
        ws = connect(stack, first, game_id, tokens[0])
        assert until(ws, lambda _: True)["connected"] == [0]
        read(second, game_id, tokens[1], [0])  # the other process knows of the socket here
        with ExitStack() as other:
            theirs = connect(other, second, game_id, tokens[1])
            assert until(theirs, lambda _: True)["connected"] == [0, 1]
            until(ws, connected([0, 1]))  # published by the second process
            read(first, game_id, tokens[0], [0, 1])
        until(ws, connected([0]))
        read(second, game_id, tokens[1], [0])


def test_a_socket_cancelled_as_it_closes_still_withdraws_its_seat(shared_url: str) -> None:
    """A socket's task cancelled while it closes (the server stopping it, or a test client, which
    cancels its socket's task as it closes it) still withdraws its seat's report: else every
    other process would see the seat connected until this one's report expired."""
    with make_client(shared_url, broker=REDIS_URL) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client)
        ws = connect(stack, client, game_id, tokens[0])
        until(ws, connected([0]))
        delivery = client.app.state.live.delivery  # type: ignore[attr-defined]
        [sock] = delivery.sockets[game_id]

        async def cancelled_close() -> None:
            with anyio.CancelScope() as scope:
                scope.cancel()
                await delivery.closed(game_id, sock)

        client.portal.call(cancelled_close)  # type: ignore[union-attr]
        assert RedisBroker(REDIS_URL).connected(game_id) == set()


class SlowRenewals(RedisBroker):
    """A broker whose renewals wait for a signal before they write (a busy machine's thread)."""

    def __init__(self) -> None:
        super().__init__(REDIS_URL)
        self.go = threading.Event()
        self.renewing = threading.Event()

    def refresh(self, node: str, reports: Mapping[str, frozenset[int] | None]) -> None:
        self.renewing.set()
        assert self.go.wait(WAIT)
        super().refresh(node, reports)


def test_a_renewal_on_its_way_never_writes_back_a_report_withdrawn_meanwhile() -> None:
    """A socket closes while the renewal round is writing this process's reports: its report is
    withdrawn after the renewal, never renewed after the withdrawal (it would stand, and every
    other process would see its seat connected, until it expired)."""
    broker = SlowRenewals()
    presence = Presence(broker)
    game_id = secrets.token_hex(8)
    presence.here[game_id] = frozenset({1})
    presence.report(game_id)
    assert broker.connected(game_id) == {1}
    with ThreadPoolExecutor(2) as pool:
        renewal = pool.submit(presence.renew)
        assert broker.renewing.wait(WAIT)
        del presence.here[game_id]  # the socket closed: its withdrawal goes after the renewal
        withdrawal = pool.submit(presence.report, game_id)
        time.sleep(0.1)
        broker.go.set()
        renewal.result(WAIT)
        withdrawal.result(WAIT)
    broker._forget()
    assert broker.connected(game_id) == set()


def test_the_seats_of_a_process_that_died_stop_counting_once_its_report_expires(tmp_path: Path) -> None:
    """A process killed with a socket open never withdraws its report: it expires (here after a
    second), and the processes still there send their sockets the change by themselves."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    broker = RedisBroker(REDIS_URL, presence_seconds=1.0)
    dead = RedisBroker(REDIS_URL, presence_seconds=1.0)  # another process: reports once, then dies
    with make_client(url, broker=broker) as client, ExitStack() as stack:
        game_id, tokens, _ = table(client)
        ws = connect(stack, client, game_id, tokens[0])
        until(ws, connected([0]))
        dead.report(game_id, "killed", frozenset({1}))
        until(ws, connected([0, 1]))  # noticed by this process's renewal round, unannounced
        started = time.monotonic()
        until(ws, connected([0]))
        assert time.monotonic() - started < 5
        read(client, game_id, tokens[1], [0])


def test_a_dead_process_seats_stop_counting_within_the_presence_time(tmp_path: Path) -> None:
    """docs/deploy.md: the seats of a killed process stop counting within PRESENCE_SECONDS (30)
    of its last report, not that plus a renewal round.  Here with 3 s: three games whose
    last reports fall at different moments of this process's rounds (a third of a round apart)
    are each seen without the dead seat within 3 s of their report (and some slack, less than a
    round)."""
    seconds = 3.0
    url = f"sqlite:///{tmp_path / 'games.db'}"
    broker = RedisBroker(REDIS_URL, presence_seconds=seconds)
    dead = RedisBroker(REDIS_URL, presence_seconds=seconds)
    # No limits: joins counted in the shared Redis would crowd other tests' (and runs') joins.
    with make_client(url, broker=broker, limits=NO_LIMITS) as client, ExitStack() as stack:
        games = [table(client) for _ in range(3)]
        sockets = [connect(stack, client, game_id, tokens[0]) for game_id, tokens, _ in games]
        for ws in sockets:
            until(ws, connected([0]))

        def gone(ws: WebSocketTestSession) -> float:
            until(ws, connected([0, 1]))
            until(ws, connected([0]))
            return time.monotonic()

        reported = []
        with ThreadPoolExecutor(3) as watchers:
            seen = []
            for (game_id, _tokens, _codes), ws in zip(games, sockets, strict=True):
                seen.append(watchers.submit(gone, ws))
                reported.append(time.monotonic())
                dead.report(game_id, "killed", frozenset({1}))
                time.sleep(seconds / 9)
            lasted = [future.result(timeout=WAIT) - at for future, at in zip(seen, reported, strict=True)]
        # A renewal round more would be a third of the presence time (1 s) late at the least; the
        # slack, well under it, is what a loaded machine takes to wake the rounds and the watchers
        # (0.15 s was too little on 4 test workers: 1.73 s measured once of a presence time of 1.5).
        assert max(lasted) <= seconds + 0.35, lasted


def test_a_process_reads_the_presence_reports_from_redis_once_until_a_presence_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reports read from Redis are kept for a moment (a round trip saved in each state
    read and action), until a presence message of another process or a report of this one."""
    broker = RedisBroker(REDIS_URL)
    other = RedisBroker(REDIS_URL)  # another process
    game_id = f"cache{secrets.token_hex(6)}"
    reads = 0
    hgetall = broker._publisher.hgetall

    def counted(key: str) -> Any:
        nonlocal reads
        reads += 1
        return hgetall(key)

    monkeypatch.setattr(broker._publisher, "hgetall", counted)

    async def scenario() -> None:
        heard = asyncio.Event()

        async def deliver(changed: str) -> None:
            if changed == game_id:
                heard.set()

        await broker.start(deliver)
        try:
            other.report(game_id, "other", frozenset({1}))
            assert [broker.connected(game_id) for _ in range(5)] == [frozenset({1})] * 5
            assert reads == 1
            other.report(game_id, "other", frozenset({1, 2}))  # unannounced: not seen yet
            assert broker.connected(game_id) == frozenset({1})
            other.publish(game_id)  # the presence message
            await asyncio.wait_for(heard.wait(), WAIT)
            assert broker.connected(game_id) == frozenset({1, 2})
            assert reads == 2
            broker.report(game_id, "this", frozenset({0}))  # this process's own change
            assert broker.connected(game_id) == frozenset({0, 1, 2})
            assert reads == 3
        finally:
            other.report(game_id, "other", frozenset())
            broker.report(game_id, "this", frozenset())
            await broker.stop()
            other._publisher.close()

    asyncio.run(scenario())


def test_a_process_s_first_socket_of_a_game_reads_it_again_once_every_process_knows_of_it(
    shared_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process may decide from the reports it read a moment ago that nobody else has
    sockets of the game and tell nobody of a change: the process of a game's first socket reads
    the game again once that moment passed, so its socket is sent the change all the same."""
    with (
        make_client(shared_url, broker=REDIS_URL, limits=NO_LIMITS) as first,  # (joins: see above)
        make_client(shared_url, broker=REDIS_URL, limits=NO_LIMITS) as second,
        ExitStack() as stack,
    ):
        game_id, tokens, _ = table(first)
        broker = first.app.state.messages
        monkeypatch.setattr(broker, "publish", lambda *_args, **_kwargs: None)  # tells nobody
        theirs = connect(stack, second, game_id, tokens[1])
        opened = time.monotonic()
        version = until(theirs, lambda _: True)["version"]
        time.sleep(0.4)  # the opening's presence message read the game (nothing new) meanwhile
        assert act_first(first, game_id, tokens[0])["version"] == version + 1
        # Sent by the read again (the heartbeat, which would find the change too, is 10 s away).
        settle = second.app.state.messages.settle_seconds
        message = receive(theirs, timeout=settle + 3.0)
        assert message["state"]["version"] == version + 1
        assert time.monotonic() - opened >= settle


class Relay:
    """A TCP relay on this host to the test Redis that can be cut (every connection dropped,
    none accepted) and mended on the same port: Redis unreachable for a moment, for real."""

    def __init__(self) -> None:
        host, _, port = REDIS_URL.removeprefix("redis://").partition("/")[0].partition(":")
        self.target = (host, int(port or 6379))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while True:
                near, _ = listener.accept()
                far = socket.create_connection(self.target)
                with self.lock:
                    self.open += [near, far]
                for one, other in ((near, far), (far, near)):
                    threading.Thread(target=self._pipe, args=(one, other), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # ends the accept() waiting on it (Linux)
        self.listener.close()
        with self.lock:
            for sock in self.open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.open.clear()

    def mend(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()


def test_a_report_withdrawn_while_redis_is_away_is_withdrawn_when_it_is_back() -> None:
    """A socket that closes while Redis cannot be reached: its seat stops counting once Redis
    answers again (within a retry or two), not only when the report expires (20 s here)."""
    game_id = f"g{secrets.token_hex(6)}"
    relay = Relay()
    broker = RedisBroker(relay.url)
    plain = redis.Redis.from_url(REDIS_URL)

    async def deliver(_game_id: str) -> None:
        pass

    async def scenario() -> None:
        await broker.start(deliver)
        try:
            await asyncio.to_thread(broker.report, game_id, "here", frozenset({1}))
            assert plain.hget(PRESENCE_KEY + game_id, "here") is not None
            relay.cut()
            await asyncio.to_thread(broker.report, game_id, "here", None)  # cannot be written now
            assert plain.hget(PRESENCE_KEY + game_id, "here") is not None
            relay.mend()
            deadline = time.monotonic() + 5 * REDIS_RETRY_SECONDS + 2
            while plain.hget(PRESENCE_KEY + game_id, "here") is not None:
                assert time.monotonic() < deadline, "the withdrawal never reached Redis"
                await asyncio.sleep(0.05)
        finally:
            await broker.stop()

    try:
        asyncio.run(scenario())
    finally:
        relay.cut()
        plain.delete(PRESENCE_KEY + game_id)
        plain.close()
