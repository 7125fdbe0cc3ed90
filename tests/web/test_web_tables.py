"""Tables of two to four with people at several seats (docs/api.md, "Tables with several people").

Creating a table with seats and invitations, joining by code (and every way a join is refused,
the rate limit included), the public lobby, each seat's own state and legal actions, the waiting
state before every person has joined, acting for another seat or out of turn, stale versions,
whole games played by several clients, and the leak check: every answer to every seat (states,
join answers, errors, the lobby) is read, and none may hold a card that seat cannot know.
What a table's seats become (invitations, joins, one code taken once however many ask at once,
computers' levels) is tested against the core in tests/app/test_seats.py.

The core test also runs on PostgreSQL (marked ``postgres``: the server at 127.0.0.1:5432 with
trust authentication and a database ``test``), each run in a schema of its own, dropped after.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from cribbage.app.games.options import CODE_ALPHABET, CODE_LENGTH
from cribbage.engine.templates import expand
from cribbage.players import PLAYERS
from cribbage.storage import migrations
from cribbage.web.errors import status_of
from cribbage.web.ratelimits import NO_LIMITS
from test_web_security import PUBLIC_EVENTS, STEP_KEYS, Shadow, cards_in, keys_in
from web_fixtures import HUMAN, act, actions_of, auth, first_action, get, make_client

FORBIDDEN_KEYS = {"hands", "deck", "dealt", "token", "token_hash", "rng", "record", "actions"}
TEMPLATE_KEYS = {"type", "cards", "count", "claim", "points"}


def computer(level: str = "weak") -> dict[str, str]:
    return {"kind": "computer", "level": level}


def create(client: TestClient, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """Create a table; returns the answer (id, token, state, invites)."""
    options.setdefault("level", "weak")
    response = client.post("/api/games", json={**options, "seats": seats})
    assert response.status_code == 201, response.text
    data = response.json()
    assert set(data) == {"id", "token", "state", "invites"}
    assert data["invites"] == data["state"]["invites"]
    return data


def join(client: TestClient, code: str, name: str) -> Any:
    return client.post("/api/join", json={"code": code, "name": name})


# --------------------------------------------------------------------------- the leak check


def check_state(state: dict[str, Any], shadow: Shadow, seat: int, since: int, tokens: list[str]) -> None:
    """A seat's STATE: its own view, nothing hidden from it anywhere, its events exactly the
    engine's since its own previous action (``since``), no token, the right legal actions."""
    shadow.catch_up()
    assert state["version"] == len(shadow.steps)
    assert state["seat"] == state["view"]["seat"] == seat
    leaked = cards_in(state, skip=frozenset({"events", "id"})) & shadow.hidden(seat)
    assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
    expected = shadow.events_since(since, seat)
    assert [{k: v for k, v in e.items() if k not in STEP_KEYS} for e in state["events"]] == [
        e for e, _ in expected
    ]
    for step, (_, hidden_then) in zip(state["events"], expected, strict=True):  # the table after it
        assert not cards_in(step["after"]) & hidden_then, f"a snapshot names a hidden card: {step}"
    for event, hidden_then in expected:
        if event["kind"] not in PUBLIC_EVENTS:
            assert not cards_in(event) & hidden_then, f"event {event} names a card hidden from seat {seat}"
    text = json.dumps(state)
    assert not any(token in text for token in tokens)
    # The STATE's own "actions" are its templates (their keys only), never a record's actions.
    assert not keys_in({k: v for k, v in state.items() if k != "actions"}) & FORBIDDEN_KEYS
    assert all(set(t) <= TEMPLATE_KEYS for t in state["actions"]), state["actions"]
    if seat != 0:
        assert state["invites"] == []
    view = state["view"]
    # The seat to act, and while a count awaits the muggins decision every opponent entitled to it.
    mine = not state["waiting_for"] and not state["over"] and shadow.state.may_act(seat)
    assert bool(state["actions"]) == mine
    # The templates name no seat: they describe exactly the engine's legal actions of this seat.
    assert set(expand(state["actions"], seat)) == (set(shadow.state.view(seat).legal) if mine else set())
    assert [s["seat"] for s in state["seats"]] == list(range(view["players"]))


def check_error(response: Any, shadow: Shadow, seat: int, sent: set[str], tokens: list[str]) -> None:
    """An error names only what was sent: no card hidden from the seat, no token."""
    assert 400 <= response.status_code < 500
    body = response.json()
    assert {"error", "code"} <= set(body) and body["error"] and body["code"]
    assert status_of(body["code"]) == response.status_code
    assert not (cards_in(body) - sent) & shadow.hidden(seat)
    assert not any(token in response.text for token in tokens)


def check_lobby(client: TestClient, tokens: list[str]) -> dict[str, Any]:
    """The lobby: no card, no token, nothing but the public facts of each table."""
    response = client.get("/api/lobby")
    assert response.status_code == 200
    lobby = response.json()
    assert not cards_in(lobby)
    assert not any(token in response.text for token in tokens)
    assert keys_in(lobby) <= {
        "tables", "code", "variant", "players", "target", "options", "seats", "created",
        "manual", "muggins", "muggins_play", "dealer", "skunk", "clock", "takeover", "rated",
        "seat", "kind", "level", "name", "taken",
    }  # fmt: skip
    return lobby  # type: ignore[no-any-return]


class Seat:
    """One person at a table: the client they use, their token and their seat."""

    def __init__(self, client: TestClient, token: str, seat: int) -> None:
        self.client, self.token, self.seat = client, token, seat
        self.since = 0
        """The version before this seat's own last action (0 before its first)."""


def seat_everyone(
    clients: list[TestClient], seats: list[dict[str, Any]], **options: Any
) -> tuple[str, list[Seat], Shadow]:
    """Create a table on the first client and have a person join every open seat, each through
    the next client in turn; every answer is checked."""
    first = clients[0]
    data = create(first, seats, **options)
    game_id = data["id"]
    shadow = Shadow(first, game_id)
    people = [Seat(first, data["token"], 0)]
    tokens = [data["token"]]
    check_state(data["state"], shadow, 0, 0, tokens)
    assert data["state"]["waiting_for"] == [i["seat"] for i in data["invites"]]
    for n, invite in enumerate(data["invites"], start=1):
        check_lobby(first, tokens)
        client = clients[n % len(clients)]
        response = join(client, invite["code"], f"Person {invite['seat']}")
        assert response.status_code == 201, response.text
        joined = response.json()
        assert set(joined) == {"id", "token", "seat", "state"}
        assert (joined["id"], joined["seat"]) == (game_id, invite["seat"])
        assert joined["token"] not in tokens and len(joined["token"]) >= 32
        check_state(joined["state"], shadow, invite["seat"], 0, tokens)  # no earlier token in it
        tokens.append(joined["token"])
        people.append(Seat(client, joined["token"], invite["seat"]))
    return game_id, people, shadow


def play_to_the_end(game_id: str, people: list[Seat], shadow: Shadow, rng: random.Random) -> dict[str, Any]:
    """The people play (a random legal action each time) until the game is over, every seat
    reading its state after every action; every answer and some errors are checked."""
    tokens = [p.token for p in people]
    for _ in range(5000):
        states = {}
        for person in people:
            states[person.seat] = state = get(person.client, game_id, person.token)
            check_state(state, shadow, person.seat, person.since, tokens)
        if next(iter(states.values()))["over"]:
            return states
        actors = [p for p in people if states[p.seat]["actions"]]
        assert actors, "a person is waited for"
        if len(actors) > 1:  # a count open to several opponents: each may call (or pass) first;
            # or the discard: every person still to discard may, at the same time
            kinds = {a["type"] for p in actors for a in states[p.seat]["actions"]}
            assert kinds in ({"pass", "muggins"}, {"discard"})
        actor = rng.choice(actors)
        state = states[actor.seat]
        action = {**rng.choice(actions_of(state)), "seat": actor.seat}  # sent naming its seat
        probe = rng.choice(sorted(shadow.hidden(actor.seat) or {"5H"}))
        for other in people:
            if other is not actor and not states[other.seat]["actions"] and rng.random() < 0.3:
                # Another person sends the actor's action: for the actor's seat (403) or its own (400).
                forged = act(other.client, game_id, other.token, action)
                assert forged.status_code == 403, forged.text
                check_error(forged, shadow, other.seat, set(), tokens)
                mine = {k: v for k, v in action.items() if k != "seat"}
                early = act(other.client, game_id, other.token, mine)
                assert early.status_code == 400, early.text
                check_error(early, shadow, other.seat, cards_in(mine), tokens)
                bad = act(other.client, game_id, other.token, {"type": "play", "card": probe})
                check_error(bad, shadow, other.seat, {probe}, tokens)
        if rng.random() < 0.1:
            bad = act(actor.client, game_id, actor.token, {"type": "play", "card": probe, "claim": -1})
            check_error(bad, shadow, actor.seat, {probe}, tokens)
        response = act(actor.client, game_id, actor.token, {**action, "version": state["version"]})
        assert response.status_code == 200, response.text
        actor.since = state["version"]
        check_state(response.json(), shadow, actor.seat, actor.since, tokens)
        if rng.random() < 0.2:
            stale = act(actor.client, game_id, actor.token, {**action, "version": state["version"]})
            assert stale.status_code == 409
            check_error(stale, shadow, actor.seat, cards_in(action), tokens)
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def shared() -> Iterator[TestClient]:
    """One running application for the module's tests that need no application of their own
    (each makes its own tables; none reads the whole lobby or counts the whole database through
    it), with no abuse limit (:func:`test_join_attempts_are_rate_limited_per_client` has its
    own): a fresh application's first answers build its routes (about 0.2 CPU-s a test), and a
    running one serves every request on one event loop instead of starting one for each."""
    with make_client(limits=NO_LIMITS) as client:
        yield client


# --------------------------------------------------------------------------- creating tables


def test_a_table_gets_an_invitation_for_each_open_seat(shared: TestClient) -> None:
    client = shared
    seats = [HUMAN, computer("strong"), HUMAN, HUMAN]
    data = create(client, seats, variant="four-player", public=True, clock=60, names=["Aiko"])
    state = data["state"]
    assert [i["seat"] for i in data["invites"]] == [2, 3]
    codes = [i["code"] for i in data["invites"]]
    assert len(set(codes)) == 2
    for invite in data["invites"]:
        assert len(invite["code"]) == CODE_LENGTH and set(invite["code"]) <= set(CODE_ALPHABET)
        assert not set(invite["code"]) & set("0O1IL")
        assert invite["url"] == f"/join/{invite['code']}"
    assert state["waiting_for"] == [2, 3] and state["actions"] == []
    assert state["names"] == ["Aiko", "Computer 2", "Player 3", "Player 4"]
    assert state["seats"] == [
        {"seat": 0, "kind": "human", "name": "Aiko", "taken": True},
        {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
        {"seat": 2, "kind": "human", "taken": False},
        {"seat": 3, "kind": "human", "taken": False},
    ]
    assert state["options"]["public"] is True and state["options"]["clock"] == 60
    # The invitation's link serves the page.
    page = client.get(data["invites"][0]["url"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


BAD_TABLES = [
    ({"seats": [HUMAN, HUMAN, HUMAN]}, "standard has 2 seats, not 3"),
    ({"seats": [HUMAN]}, "seats: List should have at least 2 items"),
    ({"seats": [computer(), HUMAN]}, "seat 0 is the creator's: its kind must be human"),
    ({"seats": [HUMAN, {"kind": "robot"}]}, "a seat's kind must be one of human, computer, not 'robot'"),
    ({"seats": [HUMAN, {"kind": "human", "level": "weak"}]}, "a person's seat has no level"),
    ({"seats": [HUMAN, computer("genius")]}, "unknown level 'genius'"),
    ({"seats": [HUMAN, {"kind": "computer", "seed": 3}]}, "seats.1.seed: Extra inputs are not permitted"),
    ({"seats": [HUMAN, HUMAN], "seed": 5}, "no seed with several people"),
    ({"seats": [HUMAN, HUMAN], "clock": 5}, "clock: Input should be greater than or equal to 10"),
    ({"seats": [HUMAN, HUMAN], "clock": "60"}, "clock: Input should be a valid integer"),
    ({"seats": [HUMAN, HUMAN], "public": "yes"}, "public: Input should be a valid boolean"),
    ({"seats": [HUMAN, HUMAN], "names": ["Ai\u202eko"]}, "a name holds letters, digits"),
    ({"seats": "human"}, "seats: Input should be a valid list"),
]


@pytest.mark.parametrize(("body", "message"), BAD_TABLES)
def test_bad_tables_are_refused_with_the_problem_named(
    body: dict[str, Any], message: str, shared: TestClient
) -> None:
    games = shared.app.state.service.storage.pruning  # type: ignore[attr-defined]
    before = games.count()
    response = shared.post("/api/games", json={"level": "weak", **body})
    assert response.status_code == 422, response.text
    assert message in response.json()["error"]
    assert games.count() == before  # nothing stored


def test_a_computer_level_that_is_not_installed_is_503(
    monkeypatch: pytest.MonkeyPatch, shared: TestClient
) -> None:
    monkeypatch.delitem(PLAYERS, "strong")
    response = shared.post("/api/games", json={"seats": [HUMAN, computer("strong")]})
    assert response.status_code == 503 and "strong" in response.json()["error"]


# --------------------------------------------------------------------------- joining


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "length"),
        ("   ", "length"),
        ("x" * 21, "length"),
        ("Ai\nko", "characters"),
        ("Ai\u202eko", "characters"),
        ("Ai\u2028ko", "characters"),
        ("Ai\x7fko", "characters"),
        ("\U0001f469\u200d\U0001f469\u200d\U0001f467", "characters"),
        ("Aik\u043e", "scripts"),
    ],
)
def test_a_bad_name_is_422_and_takes_no_seat(name: str, reason: str, shared: TestClient) -> None:
    """A name joining a table follows the rule of every name (an account's: cribbage.app.people.names)."""
    client = shared
    data = create(client, [HUMAN, HUMAN])
    response = join(client, data["invites"][0]["code"], name)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "bad_name" and response.json()["reason"] == reason, response.text
    assert get(client, data["id"], data["token"])["waiting_for"] == [1]


def test_names_of_every_script_are_welcome(shared: TestClient) -> None:
    client = shared
    for name in ("愛子", "さくら", "Борис", "Иван Петров", "José", "नमस्ते", "x" * 20):
        data = create(client, [HUMAN, HUMAN])
        response = join(client, data["invites"][0]["code"], name)
        assert response.status_code == 201, response.text
        assert response.json()["state"]["names"][1] == name


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"code": "ZZZZZZ", "name": "Aiko"}, 404, "no table has this invitation code"),
        ({"code": "0O1IL0", "name": "Aiko"}, 404, "no table has this invitation code"),
        ({"code": "K7QX2MX", "name": "Aiko"}, 404, "no table has this invitation code"),
        ({"code": "", "name": "Aiko"}, 422, "code: String should have at least 1 character"),
        ({"code": 123456, "name": "Aiko"}, 422, "code: Input should be a valid string"),
        ({"code": "K7QX2M"}, 422, "name: Field required"),
        ({"code": "K7QX2M", "name": "Aiko", "seat": 1}, 422, "seat: Extra inputs are not permitted"),
        ({"code": "K7QX2M", "name": "x" * 201}, 422, "name: String should have at most 200 characters"),
        (["K7QX2M", "Aiko"], 422, "the body must be a JSON object"),
    ],
)
def test_unknown_codes_are_404_and_malformed_joins_422(
    body: Any, status: int, message: str, shared: TestClient
) -> None:
    client = shared
    create(client, [HUMAN, HUMAN])
    response = client.post("/api/join", json=body)
    assert response.status_code == status and message in response.json()["error"], response.text
    code = "no_invitation" if status == 404 else "bad_request"
    assert set(response.json()) - {"field"} == {"error", "code"} and response.json()["code"] == code


def test_a_used_code_is_409_and_the_seat_keeps_its_person(shared: TestClient) -> None:
    client = shared
    data = create(client, [HUMAN, HUMAN])
    code = data["invites"][0]["code"]
    first = join(client, code, "Boris")
    assert first.status_code == 201
    again = join(client, code, "Chen")
    assert again.status_code == 409 and again.json() == {
        "error": "seat 1 of this table is taken already",
        "code": "seat_taken",
        "seat": 1,
    }
    assert get(client, data["id"], first.json()["token"])["names"] == ["Player 1", "Boris"]


def test_join_attempts_are_rate_limited_per_client() -> None:
    client = make_client(limits={"join": "3/minute"})
    data = create(client, [HUMAN, HUMAN, HUMAN], variant="three-player")
    for _ in range(3):
        assert join(client, "ZZZZZZ", "Guess").status_code == 404
    limited = join(client, data["invites"][0]["code"], "Boris")  # even the right code, now
    assert limited.status_code == 429
    body = limited.json()
    assert "too many join attempts" in body["error"]
    assert body == {
        "error": body["error"],
        "code": "too_many",
        "limit": "join",
        "retry_after": body["retry_after"],
    }
    assert 1 <= int(limited.headers["retry-after"]) == body["retry_after"] <= 60
    assert get(client, data["id"], data["token"])["waiting_for"] == [1, 2]
    # Other requests are not limited.
    assert client.get("/api/lobby").status_code == 200


# --------------------------------------------------------------------------- the lobby


def test_the_lobby_lists_public_tables_with_an_open_seat_and_nothing_hidden() -> None:
    client = make_client(limits={"join": "100/minute"})
    private = create(client, [HUMAN, HUMAN])
    full = create(client, [HUMAN, computer()], public=True)  # no seat to take: not listed
    older = create(client, [HUMAN, HUMAN], public=True, names=["Aiko"], target=61, manual=True)
    newer = create(
        client,
        [HUMAN, computer("strong"), HUMAN, HUMAN],
        variant="four-player",
        public=True,
        clock=30,
        takeover="weak",
    )
    tokens = [d["token"] for d in (private, full, older, newer)]
    lobby = check_lobby(client, tokens)
    assert [t["code"] for t in lobby["tables"]] == [newer["invites"][0]["code"], older["invites"][0]["code"]]
    four, two = lobby["tables"]
    assert (four["variant"], four["players"], four["target"]) == ("four-player", 4, 121)
    assert four["options"] == {
        "manual": False, "muggins": False, "muggins_play": False, "dealer": "cut", "skunk": "marked",
        "clock": 30, "takeover": "weak", "rated": False,
    }  # fmt: skip
    assert four["seats"] == [
        {"seat": 0, "kind": "human", "name": "Player 1", "taken": True},
        {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
        {"seat": 2, "kind": "human", "taken": False, "code": newer["invites"][0]["code"]},
        {"seat": 3, "kind": "human", "taken": False, "code": newer["invites"][1]["code"]},
    ]
    assert (two["variant"], two["target"], two["options"]["manual"]) == ("standard", 61, True)
    assert two["options"]["takeover"] is None  # the seat of a person who leaves waits
    assert two["seats"][0]["name"] == "Aiko"
    # A seat taken: the table stays listed with its other seat; the last one taken: it goes.
    taken = join(client, newer["invites"][0]["code"], "Boris").json()
    tokens.append(taken["token"])
    four = check_lobby(client, tokens)["tables"][0]
    assert four["code"] == newer["invites"][1]["code"] and four["seats"][2]["name"] == "Boris"
    tokens.append(join(client, newer["invites"][1]["code"], "Chen").json()["token"])
    assert [t["code"] for t in check_lobby(client, tokens)["tables"]] == [older["invites"][0]["code"]]


# --------------------------------------------------------------------------- waiting, turns, tokens


def test_the_game_waits_until_every_person_has_joined(shared: TestClient) -> None:
    client = shared
    data = create(client, [HUMAN, HUMAN, computer()], variant="three-player")
    game_id, token = data["id"], data["token"]
    state = data["state"]
    assert state["waiting_for"] == [1] and state["actions"] == []
    view = state["view"]
    assert view["hand"] and view["phase"] == "discard"  # dealt: the creator sees their own hand
    discard = {"type": "discard", "cards": view["hand"][:1]}
    refused = act(client, game_id, token, discard)
    assert refused.status_code == 409
    assert refused.json() == {
        "error": "waiting for seat 1 to be taken: no action until every person has joined",
        "code": "table_waiting",
        "seats": [1],
    }
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth(token))
    assert hint.status_code == 409
    assert get(client, game_id, token) == state
    joined = join(client, data["invites"][0]["code"], "Boris").json()
    now = get(client, game_id, token)
    assert now["waiting_for"] == [] and now["version"] == state["version"]
    actor = now["view"]["to_act"]
    mover = token if actor == 0 else joined["token"]
    legal = actions_of(get(client, game_id, mover))
    assert legal and act(client, game_id, mover, legal[0]).status_code == 200


def test_each_seat_has_its_own_state_and_both_may_discard_at_once(shared: TestClient) -> None:
    client = shared
    data = create(client, [HUMAN, HUMAN], seed=None)
    joined = join(client, data["invites"][0]["code"], "Boris").json()
    tokens = {0: data["token"], 1: joined["token"]}
    states = {seat: get(client, data["id"], token) for seat, token in tokens.items()}
    assert states[0]["view"]["to_act"] == states[1]["view"]["to_act"] in (0, 1)
    for state in states.values():  # the people discard at the same time
        assert state["actions"] and {a["type"] for a in state["actions"]} == {"discard"}
        assert set(state["actions"][0]["cards"]) == set(state["view"]["hand"])  # its own cards
    assert set(states[0]["view"]["hand"]).isdisjoint(states[1]["view"]["hand"])
    for seat, state in states.items():
        assert state["seat"] == state["view"]["seat"] == seat
        assert state["names"] == ["Player 1", "Boris"]


def test_a_token_acts_only_for_its_seat(shared: TestClient) -> None:
    client = shared
    data = create(client, [HUMAN, HUMAN])
    game_id = data["id"]
    joined = join(client, data["invites"][0]["code"], "Boris").json()
    tokens = {0: data["token"], 1: joined["token"]}
    state = get(client, game_id, tokens[0])
    actor = state["view"]["to_act"]
    waiting = 1 - actor
    legal = {**first_action(get(client, game_id, tokens[actor])), "seat": actor}  # the seat named
    before = client.app.state.service.storage.games.load(game_id)  # type: ignore[attr-defined]
    # For the other seat: 403, whatever the turn.
    forged = act(client, game_id, tokens[waiting], legal)
    assert forged.status_code == 403
    assert forged.json() == {
        "error": f"your token plays seat {waiting}, not seat {actor}",
        "code": "forbidden",
        "seat": waiting,
    }
    assert act(client, game_id, tokens[actor], {**legal, "seat": waiting}).status_code == 403
    # Out of turn, for its own seat: 400, the engine's reason (a play during the discard).
    card = get(client, game_id, tokens[waiting])["view"]["hand"][0]
    early = act(client, game_id, tokens[waiting], {"type": "play", "card": card})
    assert early.status_code == 400 and f"seat {actor}'s turn" in early.json()["error"]
    # Another seat's cards: 400, the engine's reason.
    own = {k: v for k, v in legal.items() if k != "seat"}
    theirs = act(client, game_id, tokens[waiting], own)
    assert theirs.status_code == 400 and f"seat {waiting} does not hold" in theirs.json()["error"]
    # A wrong or foreign token: 401.
    other = create(client, [HUMAN, HUMAN])
    for bad in (other["token"], tokens[0][:-1], "x" * 43):
        assert act(client, game_id, bad, legal).status_code == 401
        assert client.get(f"/api/games/{game_id}", headers=auth(bad)).status_code == 401
    after = client.app.state.service.storage.games.load(game_id)  # type: ignore[attr-defined]
    assert (after.version, after.record) == (before.version, before.record)
    # A stale version: 409; the right one goes through.
    version = state["version"]
    assert act(client, game_id, tokens[actor], {**legal, "version": version - 1}).status_code == 409
    assert act(client, game_id, tokens[actor], {**legal, "version": version}).status_code == 200
    assert act(client, game_id, tokens[actor], {**legal, "version": version}).status_code in (400, 409)


def test_the_record_is_for_every_seat_once_the_game_is_over(shared: TestClient) -> None:
    client = shared
    data = create(client, [HUMAN, HUMAN])
    joined = join(client, data["invites"][0]["code"], "Boris").json()
    for token in (data["token"], joined["token"]):
        response = client.get(f"/api/games/{data['id']}/record", headers=auth(token))
        assert response.status_code == 409 and set(response.json()) == {"error", "code"}
        assert response.json()["code"] == "not_over"


def test_a_database_made_before_tables_keeps_its_games(tmp_path: Path) -> None:
    """A database with only the games table (no seats, no lobby): its games go on as one person
    against computers, and new tables can be made in it."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    old = make_client(database_url=url)
    response = old.post("/api/games", json={"level": "weak", "seed": 4, "names": ["Ann"]})
    game_id, token, state = (response.json()[k] for k in ("id", "token", "state"))
    old.app.state.service.close()  # type: ignore[attr-defined]
    engine = create_engine(url)
    with engine.begin() as conn:  # back to the tables before migrations, then to the games table alone
        command.downgrade(migrations.config(conn), "0001")
        for table in ("seats", "lobby", "watch", "seating", "clocks", "rematches", "alembic_version"):
            conn.execute(text(f"DROP TABLE {table}"))
    engine.dispose()
    client = make_client(database_url=url)
    again = get(client, game_id, token)
    assert again == state
    assert again["seats"][0] == {"seat": 0, "kind": "human", "name": "Ann", "taken": True}
    assert again["seats"][1] == {
        "seat": 1,
        "kind": "computer",
        "level": "weak",
        "name": "Computer",
        "taken": True,
    }
    assert act(client, game_id, token, first_action(again)).status_code == 200
    assert act(client, game_id, "x" * 43, first_action(again)).status_code == 401
    data = create(client, [HUMAN, HUMAN], public=True)
    assert join(client, data["invites"][0]["code"], "Boris").status_code == 201


# --------------------------------------------------------------------------- whole games


def test_two_people_play_a_whole_game_through_two_servers(tmp_path: Path) -> None:
    """Two people, each through their own server process on one database, alternately to the end."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with make_client(database_url=url) as one, make_client(database_url=url) as two:
        clients = [one, two]
        game_id, people, shadow = seat_everyone(clients, [HUMAN, HUMAN], manual=True, muggins=True)
        assert people[1].client is clients[1]
        final = play_to_the_end(game_id, people, shadow, random.Random(1))
        assert final[0]["result"] == final[1]["result"] and max(final[0]["view"]["scores"]) >= 121
        for person in people:  # the record, for either seat, with the people's names
            record = person.client.get(f"/api/games/{game_id}/record", headers=auth(person.token)).json()
            assert record["names"] == ["Player 1", "Person 1"] and record["seats"] == [None, None]
            assert record["result"] == final[0]["result"]


def test_a_partnership_of_two_people_and_two_computers_plays_to_the_end(shared: TestClient) -> None:
    client = shared
    seats = [HUMAN, computer("weak"), HUMAN, computer("normal")]
    game_id, people, shadow = seat_everyone([client], seats, variant="four-player", target=61)
    assert [p.seat for p in people] == [0, 2]  # partners, opposite
    final = play_to_the_end(game_id, people, shadow, random.Random(2))
    result = final[0]["result"]
    assert result == final[2]["result"] and len(result["scores"]) == 2


FOUR_TO_61 = {"variant": "four-player", "target": 61}
LEAK_TABLES = [
    pytest.param([HUMAN, HUMAN], {"variant": "five-card", "target": 61}, id="two"),
    pytest.param([HUMAN, HUMAN, HUMAN], {"variant": "three-player", "target": 61}, id="three"),
    pytest.param(
        [HUMAN, HUMAN, computer()],
        {"variant": "three-player", "target": 61, "manual": True, "muggins": True},
        id="three-muggins",
    ),
    pytest.param([HUMAN] * 4, {"variant": "four-player", "target": 61}, id="four"),
    pytest.param(
        [HUMAN, HUMAN, HUMAN, HUMAN],
        {"variant": "four-player", "target": 61, "manual": True, "muggins": True, "muggins_play": True},
        id="four-muggins-play",
    ),
    pytest.param(
        [HUMAN, computer(), HUMAN, computer()], {"variant": "four-player", "target": 61}, id="partners"
    ),
    pytest.param(
        [HUMAN, HUMAN, computer(), computer()], {"variant": "four-player", "target": 61}, id="opponents"
    ),
]


@pytest.mark.parametrize(("seats", "options"), LEAK_TABLES)
def test_no_seat_ever_sees_what_it_may_not(
    seats: list[dict[str, Any]], options: dict[str, Any], shared: TestClient
) -> None:
    game_id, people, shadow = seat_everyone([shared], seats, **options)
    play_to_the_end(game_id, people, shadow, random.Random(len(seats)))


# --------------------------------------------------------------------------- PostgreSQL


def core(url: str) -> None:
    """The core of tables on one database: two servers, a table in the lobby, joins at once with
    one code (one wins), the waiting state, and a whole game by two people on the two servers."""
    clients = [make_client(database_url=url, limits={"join": "100/minute"}) for _ in range(2)]
    with ExitStack() as running:
        for client in clients:
            running.callback(client.app.state.service.close)  # type: ignore[attr-defined]
        for client in clients:
            running.enter_context(client)
        data = create(clients[0], [HUMAN, HUMAN, computer()], variant="three-player", public=True, target=31)
        game_id, code = data["id"], data["invites"][0]["code"]
        assert [t["code"] for t in check_lobby(clients[1], [data["token"]])["tables"]] == [code]
        barrier = threading.Barrier(4)
        answers: list[Any] = [None] * 4

        def send(i: int) -> None:
            barrier.wait()
            answers[i] = join(clients[i % 2], code, f"Person {i}")

        threads = [threading.Thread(target=send, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
        winner = next(a.json() for a in answers if a.status_code == 201)
        assert check_lobby(clients[0], [data["token"], winner["token"]])["tables"] == []
        # Seat 0 on the server that did not seat the joiner: it sees the seat taken.
        assert get(clients[0], game_id, data["token"])["waiting_for"] == []
        people = [Seat(clients[0], data["token"], 0), Seat(clients[1], winner["token"], 1)]
        shadow = Shadow(clients[0], game_id)
        final = play_to_the_end(game_id, people, shadow, random.Random(3))
        assert final[0]["result"] == final[1]["result"] and final[0]["over"]


def test_the_core_of_tables_on_sqlite(tmp_path: Path) -> None:
    core(f"sqlite:///{tmp_path / 'games.db'}")


@pytest.mark.postgres
def test_the_core_of_tables_on_postgresql(postgres_url: str) -> None:
    core(postgres_url)
