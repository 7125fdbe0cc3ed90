"""The web tests' helpers, each once: an application and its test client, a game against the
computer or a table of people, a seat's state, the actions its templates allow and its first
one, a game played out, a live socket and its messages.  The fixtures built on them
(``client``) are in tests/web/conftest.py; a test module chooses its application's
settings with ``pytest.mark.app(...)``.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any, NamedTuple

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cribbage.app import one_player
from cribbage.engine.templates import choices
from cribbage.web import Settings, create_app

WAIT = 15.0
"""Seconds a test waits for a socket's message before it fails (it never hangs the suite)."""

HUMAN: dict[str, str] = {"kind": "human"}
TWO_PEOPLE: list[dict[str, Any]] = [HUMAN, HUMAN]

_pool = ThreadPoolExecutor(4)


KEYS = ["test:"]
"""The prefix of the running test's keys in Redis (tests/web/conftest.py's ``redis_keys`` gives each test its
own and removes its keys when it ends): a test's rate-limit counters and Play now's queue never
meet another test's, however many ran before it on the same Redis."""


def make_app(database_url: str = "sqlite://", *, computer: str | None = None, **settings: Any) -> FastAPI:
    """A fresh application (a private in-memory database unless told otherwise): ``settings``
    are :class:`~cribbage.web.settings.Settings`'; ``computer`` plays every computer seat.  Its
    keys in Redis are the running test's (:data:`KEYS`) unless ``settings`` name others."""
    players = None if computer is None else one_player(computer)
    settings.setdefault("limits_prefix", KEYS[0] + "limits")
    settings.setdefault("queue_prefix", KEYS[0] + "queue:")
    return create_app(Settings(database_url=database_url, **settings), players=players)


def make_client(
    database_url: str = "sqlite://", *, computer: str | None = None, **settings: Any
) -> TestClient:
    """A test client of a fresh application (see :func:`make_app`)."""
    return TestClient(make_app(database_url, computer=computer, **settings))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


PASSWORD = "correct horse battery"
"""The password of the tests' accounts (long enough for docs/api.md's "Accounts")."""


def sign_up(client: TestClient, name: str) -> str:
    """A new account named ``name`` (password :data:`PASSWORD`): its session token."""
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def new_game(client: TestClient, **options: Any) -> tuple[str, str, dict[str, Any]]:
    """A game of one person against weak computers (unless told otherwise): its id, the
    person's token and the first state."""
    options.setdefault("level", "weak")
    response = client.post("/api/games", json=options)
    assert response.status_code == 201, response.text
    data = response.json()
    assert set(data) == {"id", "token", "state", "invites"}
    assert data["invites"] == data["state"]["invites"] == []  # no seat waits for a person
    return data["id"], data["token"], data["state"]


class Table(NamedTuple):
    """A table whose people's seats are all taken."""

    id: str
    tokens: list[Any]
    """Each seat's token (a ``str``); None at a computer's seat."""
    codes: list[str]
    """The invitations' codes, by which the people took their seats."""


def table(client: TestClient, seats: list[dict[str, Any]] | None = TWO_PEOPLE, **options: Any) -> Table:
    """A new table of ``seats`` (two people by default; None: one person against computers),
    every open seat taken by its invitation (seat N by ``PN``)."""
    created = client.post("/api/games", json=options if seats is None else {"seats": seats, **options})
    assert created.status_code == 201, created.text
    data = created.json()
    tokens: list[Any] = [data["token"]] + [None] * (len(data["state"]["seats"]) - 1)
    codes = []
    for invite in data["invites"]:
        joined = client.post("/api/join", json={"code": invite["code"], "name": f"P{invite['seat']}"})
        assert joined.status_code == 201, joined.text
        tokens[invite["seat"]] = joined.json()["token"]
        codes.append(invite["code"])
    return Table(data["id"], tokens, codes)


def get(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The seat's state (a failure unless it is answered)."""
    answer = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def act(client: TestClient, game_id: str, token: str, action: dict[str, Any]) -> Any:
    """The answer to an action (whatever it is)."""
    return client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))


def actions_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action the state's templates (its ``actions``) allow, as a client sends them (no
    seat), in the engine's order of its legal actions."""
    return [choice for template in state["actions"] for choice in choices(template)]


def first_action(state: dict[str, Any]) -> dict[str, Any]:
    """The first action the state's templates allow: the engine's first legal action."""
    return next(choices(state["actions"][0]))


def act_first(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The seat takes its first legal action (at its state's version); the state answered."""
    mine = get(client, game_id, token)
    answer = act(client, game_id, token, {**first_action(mine), "version": mine["version"]})
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def play_out(
    client: TestClient, game_id: str, tokens: list[Any], limit: int = 3000
) -> tuple[dict[str, Any], int]:
    """Every person takes their first legal action (at their state's version) until the game is
    over: its last state, read by the first person's seat once it is over (after what the end
    set off, such as the rating, is recorded), and how many actions the people took.  An
    action's answer is the actor's next state, so a seat's state is asked for only when the
    turn passes to it from another."""
    anyone = next(t for t in tokens if t)
    holder, state = anyone, get(client, game_id, anyone)  # the seat whose state this is
    for count in range(limit):
        if state["over"]:
            return get(client, game_id, anyone), count
        token = tokens[state["view"]["to_act"]]
        assert token is not None
        if token != holder:
            holder, state = token, get(client, game_id, token)
        answer = act(client, game_id, token, {**first_action(state), "version": state["version"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    raise AssertionError("the game did not end")


def watch_link(client: TestClient, game_id: str, token: str) -> str:
    """The table's watch code, asked by its creator's ``token``."""
    answer = client.post(f"/api/games/{game_id}/watch", headers=auth(token))
    assert answer.status_code == 200, answer.text
    link = answer.json()
    assert link["url"] == f"/watch/{link['code']}"
    return str(link["code"])


def connect(
    stack: ExitStack, client: TestClient, game_id: str, first: str | dict[str, str]
) -> WebSocketTestSession:
    """A live socket on the game, open until ``stack`` closes; its first message sent (a seat's
    token, or a message such as ``{"watch": CODE}``)."""
    ws = stack.enter_context(client.websocket_connect(f"/api/games/{game_id}/live"))
    ws.send_text(json.dumps({"token": first} if isinstance(first, str) else first))
    return ws


def receive(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The socket's next message, or a failure after ``timeout`` seconds (never a hang)."""
    message: dict[str, Any] = _pool.submit(ws.receive_json).result(timeout=timeout)
    return message


def receive_text(ws: WebSocketTestSession) -> str:
    """The socket's next message as sent, or a failure after :data:`WAIT` seconds."""
    text: str = _pool.submit(ws.receive_text).result(timeout=WAIT)
    return text
