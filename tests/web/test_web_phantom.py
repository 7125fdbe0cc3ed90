"""No phantom states between processes (issue 29, item 2): an action tried on a process's cached
copy whose save is refused (another process moved first) changed that copy; a request that
already held the copy must serve, and act on, the stored game, never that unsaved one.

Two :class:`GameService` instances on one PostgreSQL schema stand for two server processes;
a hook in one's save lets another request take the game in the moment the save is refused.
Then two real ``cribbage serve`` processes on PostgreSQL + Redis are raced (retried actions,
muggins answered at once) and every state they served is checked against the stored record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cribbage.app import Actor, AppError, GameService, Options, SeatSpec
from cribbage.app.games.live_game import LiveGame
from cribbage.engine.record import Game
from cribbage.storage import Storage
from cribbage.table.table import Table
from cribbage.web.errors import status_of
from cribbage.web.ratelimits import LIMITS
from service_urls import REDIS_URL
from web_fixtures import actions_of

pytestmark = pytest.mark.postgres

WAIT = 10.0
STARTUP = 60.0
"""A server process answers within this (a busy machine may take half of it)."""
PEOPLE = [SeatSpec("human"), SeatSpec("human")]


@pytest.fixture
def services(postgres_url: str) -> Iterator[tuple[GameService, GameService]]:
    """Two services on one database, as two server processes: each its own connections and cache."""
    first, second = GameService(Storage(postgres_url)), GameService(Storage(postgres_url))
    yield first, second
    first.close()
    second.close()


def table_of_two(services: tuple[GameService, GameService]) -> tuple[str, list[str], int]:
    """A table of two people, cached by both services at its first decision: the game, the
    seats' tokens and the version."""
    a, b = services
    new_game = a.create(Options(), PEOPLE)
    token, state = new_game["token"], new_game["state"]
    joined = a.join(state["invites"][0]["code"], "Dana")
    tokens = [token, joined["token"]]
    for service in (a, b):
        for token in tokens:
            assert service.state(state["id"], Actor(token))["version"] == state["version"]
    return state["id"], tokens, state["version"]


def refused_with(
    monkeypatch: pytest.MonkeyPatch,
    service: GameService,
    game_id: str,
    request: Callable[[], Any],
    first: Callable[[], Any],
) -> Callable[[], Any]:
    """Make ``service``'s next save of ``game_id`` first run ``first`` (another process moves
    the game on, so that the save is refused), then start ``request`` in a thread and wait until
    that request holds the cached game (it then waits for the game's lock, which the action
    holds until its refused save is handled); returns what gives the request's answer."""
    took = threading.Event()
    answer: dict[str, Any] = {}
    load, update = service.repository.load, service.storage.games.update

    def holding(wanted: str) -> LiveGame:
        session = load(wanted)
        if threading.current_thread() is thread:
            took.set()
        return session

    def run() -> None:
        try:
            answer["value"] = request()
        except AppError as exc:
            answer["value"] = exc

    thread = threading.Thread(target=run)

    def saving(wanted: str, *args: Any, **kwargs: Any) -> bool:
        if wanted == game_id and not thread.is_alive() and "value" not in answer:
            first()
            thread.start()
            assert took.wait(WAIT), "the other request never took the game"
        return update(wanted, *args, **kwargs)

    monkeypatch.setattr(service.repository, "load", holding)
    monkeypatch.setattr(service.storage.games, "update", saving)

    def result() -> Any:
        thread.join(WAIT)
        assert not thread.is_alive(), "the other request never ended"
        return answer["value"]

    return result


def race(
    monkeypatch: pytest.MonkeyPatch,
    services: tuple[GameService, GameService],
    request: Callable[[GameService, str, list[str], int], Any],
) -> tuple[str, list[str], int, dict[str, Any], dict[str, Any], Any]:
    """The seat to act discards a pair through A (another tab, or the page's retry) while it
    discards another through B: B's is stored the moment before A's save, so A's save is
    refused, while ``request(a, game_id, tokens, seat)`` holds A's cached game.  Returns the
    game, the tokens, the seat, the stored discard, B's answer to it and the request's answer."""
    a, b = services
    game_id, tokens, version = table_of_two(services)
    seat = b.state(game_id, Actor(tokens[0]))["view"]["to_act"]
    legal = [{**a, "seat": seat} for a in actions_of(b.state(game_id, Actor(tokens[seat])))]  # naming it
    assert len(legal) > 1 and legal[0]["type"] == "discard"
    stored: dict[str, Any] = {}

    def b_first() -> None:
        stored.update(b.act(game_id, Actor(tokens[seat]), {**legal[0], "version": version}))

    result = refused_with(monkeypatch, a, game_id, lambda: request(a, game_id, tokens, seat), b_first)
    with pytest.raises(AppError) as refused:  # A's save is refused: the seat discarded already
        a.act(game_id, Actor(tokens[seat]), legal[1])
    assert refused.value.code in ("illegal.action", "stale")
    assert status_of(refused.value.code) in (400, 409)
    assert stored, "B's discard was never stored"
    return game_id, tokens, seat, legal[0], stored, result()


def test_a_state_read_while_a_refused_action_held_the_game_is_the_stored_one(
    monkeypatch: pytest.MonkeyPatch, services: tuple[GameService, GameService]
) -> None:
    def read(a: GameService, game_id: str, tokens: list[str], seat: int) -> Any:
        return a.state(game_id, Actor(tokens[seat]))

    game_id, tokens, seat, _sent, stored, served = race(monkeypatch, services, read)
    assert not isinstance(served, AppError), served
    # At the stored version, and its hand is the one kept by the stored discard (the unsaved
    # copy kept another pair: a hand, at the same version, that was never stored).
    assert served["version"] == stored["version"]
    assert served["view"] == stored["view"]
    assert served == services[1].state(game_id, Actor(tokens[seat]))


def test_an_action_sent_while_a_refused_action_held_the_game_builds_on_the_stored_one(
    monkeypatch: pytest.MonkeyPatch, services: tuple[GameService, GameService]
) -> None:
    a, b = services

    def other_seat_discards(a: GameService, game_id: str, tokens: list[str], seat: int) -> Any:
        # The other seat's page acts on the version B answered.  Tried on the unsaved copy (at
        # that version too), the action would be saved: a record built on a discard never made.
        legal = actions_of(b.state(game_id, Actor(tokens[1 - seat])))
        version = b.state(game_id, Actor(tokens[1 - seat]))["version"]
        return a.act(game_id, Actor(tokens[1 - seat]), {**legal[0], "version": version})

    game_id, tokens, seat, sent, acknowledged, answer = race(monkeypatch, services, other_seat_discards)
    assert not isinstance(answer, AppError), answer
    stored = a.storage.games.load(game_id)
    assert stored is not None
    # The discard B acknowledged stays the stored one, and the other seat's came after it.
    assert stored.record["actions"][acknowledged["version"] - 1] == sent
    assert answer == b.state(game_id, Actor(tokens[1 - seat]))


# --------------------------------------------------------------------------- two real processes


class Http:
    """JSON over one keep-alive HTTP/1.1 connection to a server, with asyncio streams."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        writer.write(head.encode() + b"\r\n" + payload)
        status = int((await asyncio.wait_for(reader.readline(), WAIT)).split()[1])
        length = 0
        for _ in range(100):  # the headers
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await reader.readexactly(length)
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            with contextlib.suppress(OSError):
                await self.streams[1].wait_closed()


@contextlib.contextmanager
def servers(db: str, count: int = 2) -> Iterator[list[int]]:
    """``cribbage serve`` processes on ``db`` and the shared Redis, started at once, every abuse
    limit off (one address plays thousands of actions); yields their ports."""
    command = [sys.executable, "-m", "cribbage", "serve", "--port", "0", "--db", db, "--broker", REDIS_URL]
    command += [arg for name in LIMITS for arg in ("--limit", f"{name}=off")]
    command += ["--keep-alive-timeout", "60"]  # a busy machine may leave a connection idle a while
    processes: list[subprocess.Popen[str]] = []
    try:
        for _ in range(count):
            processes.append(
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            )
        ports = []
        for process in processes:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert "Open http://127.0.0.1:" in line, line
            ports.append(int(line.split(":")[2].split()[0]))
        deadline = time.monotonic() + STARTUP
        for port in ports:
            while True:  # the address is told a moment before the process answers
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()
                    break
                except ConnectionRefusedError:
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.05)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=WAIT)
            if process.stdout is not None:
                process.stdout.close()


class Race:
    """Games of three people with manual counting and muggins, played through two processes at
    once: every action is sent to both (the page's retry of a socket action reaching the other
    process), both opponents answer a muggins decision at the same moment on different
    processes, and every seat reads its state from both processes meanwhile.  Every state
    served (an action's answer or a read) is kept, to be checked against the stored record.
    Games follow one another until ``actions`` were sent or the ``seconds`` ran out."""

    def __init__(self, ports: tuple[int, int], actions: int, seconds: float) -> None:
        self.ports = ports
        self.target = actions
        self.deadline = time.monotonic() + seconds
        self.rng = random.Random(29)
        self.served: list[tuple[str, int, dict[str, Any]]] = []
        self.actions = 0
        self.muggins = 0

    def done(self) -> bool:
        return self.actions >= self.target or time.monotonic() >= self.deadline

    async def table(self) -> None:
        """Games at one table after another, each seat with its own connection to each process."""
        lanes = [[Http(port) for _ in range(4)] for port in self.ports]
        try:
            while not self.done():
                await self.game(lanes)
        finally:
            for lane in lanes:
                for http in lane:
                    await http.close()

    async def game(self, lanes: list[list[Http]]) -> None:
        seats = [{"kind": "human"}] * 3
        body = {"seats": seats, "variant": "three-player", "manual": True, "muggins": True}
        status, created = await lanes[0][0].call("POST", "/api/games", body)
        assert status == 201, created
        game_id, tokens = created["id"], [created["token"]]
        for n, invite in enumerate(created["invites"]):
            joining = {"code": invite["code"], "name": f"P{n + 1}"}
            status, joined = await lanes[n % 2][0].call("POST", "/api/join", joining)
            assert status == 201, joined
            tokens.append(joined["token"])
        latest: dict[int, dict[str, Any]] = {}  # each seat's newest state
        for _ in range(MAX_STEPS):
            if self.done():
                return
            version = max((state["version"] for state in latest.values()), default=-1)
            behind = [seat for seat in range(3) if latest.get(seat, {}).get("version") != version]
            if behind:  # read the seats whose newest state is older than another's
                reads = [(seat, lanes[self.rng.randrange(2)][1 + seat], None) for seat in behind]
                self.keep(latest, await self.send(game_id, tokens, reads))
                continue
            if latest[0]["over"]:
                return
            movers = [state for state in latest.values() if state["actions"]]
            if not movers:  # states that cannot all be stored ones (checked at the end): read again
                latest.clear()
                continue
            if len(movers) > 1:  # opponents deciding on a count: each answers through its process
                self.muggins += 1
                requests = [(m["seat"], lanes[n][0], self.choose(m)) for n, m in enumerate(movers[:2])]
            else:  # one action, sent to both processes
                action = self.choose(movers[0])
                requests = [(movers[0]["seat"], lanes[n][0], action) for n in range(2)]
            self.actions += len(requests)
            # Meanwhile every seat reads its state from both processes.
            requests += [(seat, lanes[n][1 + seat], None) for n in range(2) for seat in range(3)]
            self.keep(latest, await self.send(game_id, tokens, requests))
        raise AssertionError(f"game {game_id} did not end in {MAX_STEPS} steps")

    @staticmethod
    def keep(latest: dict[int, dict[str, Any]], states: list[tuple[int, dict[str, Any]]]) -> None:
        for seat, state in states:
            if seat not in latest or state["version"] > latest[seat]["version"]:
                latest[seat] = state

    async def send(
        self, game_id: str, tokens: list[str], requests: list[tuple[int, Http, dict[str, Any] | None]]
    ) -> list[tuple[int, dict[str, Any]]]:
        """Send the requests at once: each a seat, its connection and its action (None: a read of
        its state).  Keeps the states served; returns them with their seats."""
        path = f"/api/games/{game_id}"
        answers = await asyncio.gather(
            *(
                http.call("GET", path, token=tokens[seat])
                if action is None
                else http.call("POST", f"{path}/actions", action, tokens[seat])
                for seat, http, action in requests
            )
        )
        states = []
        for (seat, _http, action), (status, state) in zip(requests, answers, strict=True):
            if status == 200:
                self.served.append((game_id, seat, state))
                states.append((seat, state))
            else:  # an action another process took first, or its version gone
                assert action is not None and status in (400, 409), (status, state)
        return states

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        """A random legal action, with claims and calls of a few points (the count is unknown)."""
        legal = [a for a in actions_of(state) if a.get("points", 0) <= 12]
        return {**self.rng.choice(legal), "version": state["version"]}


def phantoms(url: str, served: list[tuple[str, int, dict[str, Any]]]) -> tuple[int, list[str]]:
    """How many served states were checked, and those that no stored record holds: each is
    compared with the state of its seat rebuilt from its game's stored record at its version."""
    storage = Storage(url)
    found: list[str] = []
    by_game: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for game_id, seat, state in served:
        by_game.setdefault(game_id, []).append((seat, state))
    try:
        for game_id, states in by_game.items():
            stored = storage.games.load(game_id)
            assert stored is not None
            record = stored.record
            game, entries, result = Game.parse(record)
            session = LiveGame(
                game_id, Options.from_json(stored.options), Table(game), storage.seats.load(game_id)
            )
            wanted: dict[int, list[tuple[int, dict[str, Any]]]] = {}
            for seat, state in states:
                wanted.setdefault(state["version"], []).append((seat, state))
            assert max(wanted) <= len(entries), (
                f"{game_id}: a state at {max(wanted)}, past the record's {len(entries)}"
            )
            for version in range(len(entries) + 1):
                if version:
                    session.table.replay(
                        entries[version - 1 : version], result if version == len(entries) else None
                    )
                for seat, state in wanted.get(version, []):
                    expected = session.to_json(seat)
                    differ = sorted(key for key in COMPARED if state[key] != expected[key])
                    if differ:
                        found.append(
                            f"{game_id} seat {seat} at version {version}: {', '.join(differ)} differ"
                        )
    finally:
        storage.close()
    return len(served), found


COMPARED = ("version", "view", "actions", "events", "score_history", "breakdown", "over", "result")
"""What a served state must have as the stored game has it (the seats and who is connected are
read afresh each time)."""

MAX_STEPS = 2_000
"""More steps than any game of three takes: every game's loop ends."""


RACE_ACTIONS = 400
RACE_SECONDS = 40.0
"""The race stops at this many actions, or after so long on a busy machine (the suite gives a
test 60 s).  Before the fix of issue 29 (item 2) a few hundred actions gave dozens of states
that were never stored (a full run of 1,000 actions, twice this test's CPU, showed nothing
more)."""

TABLES = 6


@pytest.mark.slow
def test_no_state_served_through_two_processes_racing_is_one_never_stored(postgres_url: str) -> None:
    with servers(postgres_url) as (first, second):
        race = Race((first, second), RACE_ACTIONS, RACE_SECONDS)

        async def main() -> None:
            await asyncio.gather(*(race.table() for _ in range(TABLES)))

        asyncio.run(main())
    checked, found = phantoms(postgres_url, race.served)
    print(f"{race.actions} actions ({race.muggins} muggins decisions at once), {checked} states checked")
    assert not found, f"{len(found)} of {checked} served states were never stored: {found[:5]}"
    assert race.actions >= 300 and race.muggins >= 20, "too few actions to tell"
