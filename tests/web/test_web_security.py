"""The server is authoritative and a client sees only what its seat may see.

The walk plays many random games and, after every answer, computes from the server's own record
which cards seat 0 cannot know (the other hands, the undealt deck, the crib before its show) and
checks that none appears anywhere in the answer.  Events are checked against the moment they
happened: each answer's events must be exactly the engine's events since the human's previous
action, and none may name a card that was hidden right after the action that produced it.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.engine.actions import action_from_json
from cribbage.engine.cards import Card
from cribbage.engine.rules import Rules
from cribbage.engine.state import GameState
from cribbage.engine.templates import expand
from cribbage.engine.view import Phase
from cribbage.web.errors import status_of
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import actions_of, auth, first_action, make_client, new_game

CARD = re.compile(r"^[A2-9TJQK][CDHS]$")
CARD_IN_TEXT = re.compile(r"(?<![\w-])(?:10|[A2-9TJQK])[CDHS♣♦♥♠](?![\w-])")
PUBLIC_EVENTS = {"cut", "recut"}
"""The cut for deal shows cards that go back into the deck: public, and no clue to any hand."""


STEP_KEYS = frozenset({"scores", "index", "after"})
"""What a step adds to its event (docs/api.md): left out where events are compared."""


def hidden_cards(state: GameState, seat: int = 0) -> set[str]:
    """The cards ``seat`` cannot know now, as text."""
    hidden: set[Card] = set()
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    if state.dealt:
        hidden |= set(state.deck()) - {state.starter}
        hidden |= set(state.crib) - set(state.discards[seat])
    if state.dealer is not None and state.show_step:
        for shown_seat, what in state.show_order()[: state.show_step]:
            hidden -= set(state.crib if what == "crib" else state.kept[shown_seat])
        # The crib is turned up once every hand is counted, for the dealer to count it.
        if state.show_step >= state.players and state.phase is Phase.SHOW:
            hidden -= set(state.crib)
    hidden -= {card for _, card in state.played}
    return {str(card) for card in hidden}


def cards_in(data: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card named anywhere in a JSON value (whole strings, or inside a sentence)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in skip:
                found |= cards_in(value, skip)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value, skip)
    elif isinstance(data, str):
        if CARD.match(data):
            found.add(data)
        else:
            for token in CARD_IN_TEXT.findall(data):
                found.add(str(Card.parse(token)))
    return found


def keys_in(data: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(data, dict):
        return set(data).union(*(keys_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_in(v) for v in data))
    return set()


def shown_now(
    state: GameState, held: list[dict[str, Any]] | None, events: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """Of an action's events (``state`` is the game after it), those every seat may see now, and
    those held back.  A stated count's true points (its events from the one bearing the claim or
    an over-count's penalty on) and the passes on it come once every opponent has decided; before
    that, ``held`` are the events held back, after it None."""
    if state.pending is None:
        return (held or []) + events, None
    if held is None:
        tells = [i for i, e in enumerate(events) if "claim" in e or e.get("detail") == "over-count"]
        cut = tells[0] if tells else len(events)
        return events[:cut], events[cut:]
    return [], held + events


class Shadow:
    """Replays a game's stored record action by action, with what each seat could not see after each."""

    def __init__(self, client: TestClient, game_id: str) -> None:
        self.store = client.app.state.service.storage  # type: ignore[attr-defined]
        self.game_id = game_id
        record = self.store.games.load(game_id).record
        self.state = GameState(Rules.from_json(record["rules"]), dealer=record["dealer"])
        self.steps: list[tuple[list[dict[str, Any]], list[set[str]]]] = []
        """For each action: the JSON of the events it shows and, for each seat, the cards hidden
        right after it."""
        self.held: list[dict[str, Any]] | None = None
        """While a stated count awaits the muggins decision: the events shown once it closes
        (:func:`shown_now`)."""

    def catch_up(self) -> None:
        actions = self.store.games.load(self.game_id).record["actions"]
        for entry in actions[len(self.steps) :]:
            events = [e.to_json() for e in self.state.apply(action_from_json(entry))]
            hidden = [hidden_cards(self.state, seat) for seat in range(self.state.players)]
            shown, self.held = shown_now(self.state, self.held, events)
            self.steps.append((shown, hidden))

    def hidden(self, seat: int) -> set[str]:
        return hidden_cards(self.state, seat)

    def events_since(self, version: int, seat: int = 0) -> list[tuple[dict[str, Any], set[str]]]:
        """The events shown since ``version``, each with the cards hidden from ``seat`` after it."""
        return [(event, hidden[seat]) for events, hidden in self.steps[version:] for event in events]


def check_answer(state: dict[str, Any], shadow: Shadow, since: int, token: str) -> None:
    """No hidden card anywhere; the events exactly the engine's since ``since``, none then hidden."""
    shadow.catch_up()
    assert state["version"] == len(shadow.steps)
    hidden = hidden_cards(shadow.state)
    leaked = cards_in(state, skip=frozenset({"events", "id"})) & hidden
    assert not leaked, f"hidden cards {sorted(leaked)} in the state"
    expected = shadow.events_since(since)
    assert [{k: v for k, v in e.items() if k not in STEP_KEYS} for e in state["events"]] == [
        e for e, _ in expected
    ]
    for step, (_, hidden_then) in zip(state["events"], expected, strict=True):  # the table after it
        assert not cards_in(step["after"]) & hidden_then, f"a snapshot names a hidden card: {step}"
    for event, hidden_then in expected:
        if event["kind"] not in PUBLIC_EVENTS:
            assert not cards_in(event) & hidden_then, f"event {event} names a hidden card"
    text = json.dumps(state)
    assert token not in text
    # Its "actions" are the templates of exactly the engine's legal actions, never a record's actions.
    assert set(expand(state["actions"], 0)) == set(shadow.state.view(0).legal)
    public = {k: v for k, v in state.items() if k != "actions"}
    assert not keys_in(public) & {"hands", "deck", "dealt", "token", "token_hash", "rng", "record", "actions"}


@pytest.fixture(scope="module")
def shared() -> Iterator[TestClient]:
    """One running application for the module's tests that need no application of their own
    (each makes its own games), with no abuse limit (the wrong tokens sent here would lock the
    address out): a fresh application's first answers build its routes (about 0.2 CPU-s a
    test), and a running one serves every request on one event loop instead of starting one for
    each.  The actions sent at once keep a client of their own that is not running, so that each
    request has its own event loop, in its own thread, at the same time as the others."""
    with make_client(limits=NO_LIMITS) as client:
        yield client


WALKS: list[tuple[dict[str, Any], int]] = [
    ({"variant": "standard"}, 1),
    ({"variant": "standard", "manual": True, "muggins": True, "muggins_play": True}, 2),
    ({"variant": "five-card"}, 3),
    ({"variant": "seven-card", "target": 61}, 4),
    ({"variant": "three-player", "manual": True, "muggins": True}, 5),
    ({"variant": "four-player"}, 6),
    ({"variant": "crib-deal", "dealer": "you"}, 7),
    ({"variant": "lowball", "target": 61, "dealer": "computer"}, 8),
    ({"variant": "short"}, 9),
]


@pytest.mark.parametrize(("options", "seed"), WALKS, ids=[f"{o['variant']}-{s}" for o, s in WALKS])
def test_no_answer_ever_shows_a_hidden_card(options: dict[str, Any], seed: int, shared: TestClient) -> None:
    client = shared
    rng = random.Random(seed)
    game_id, token, state = new_game(client, **options)
    shadow = Shadow(client, game_id)
    check_answer(state, shadow, 0, token)
    while not state["over"]:
        since = state["version"]
        action = rng.choice(actions_of(state))
        response = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))
        assert response.status_code == 200, response.text
        state = response.json()
        check_answer(state, shadow, since, token)
        if rng.random() < 0.2:
            assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state
        if rng.random() < 0.1:
            hint = client.get(f"/api/games/{game_id}/hint", headers=auth(token))
            assert hint.status_code in (200, 409)
            assert not cards_in(hint.json()) & hidden_cards(shadow.state)
        # An error names only what was sent: it is no oracle for where a card is.
        probe = rng.choice(sorted(hidden_cards(shadow.state) or {"5H"}))
        bad = client.post(
            f"/api/games/{game_id}/actions",
            json={"type": "play", "card": probe, "claim": -1},
            headers=auth(token),
        )
        assert 400 <= bad.status_code < 500
        assert not (cards_in(bad.json()) - {probe}) & hidden_cards(shadow.state)


# --------------------------------------------------------------------------- tokens

AUTHED = [
    ("get", "/api/games/{id}", None),
    ("post", "/api/games/{id}/actions", {"type": "pass"}),
    ("get", "/api/games/{id}/hint", None),
    ("get", "/api/games/{id}/record", None),
]


@pytest.mark.parametrize(("method", "path", "body"), AUTHED)
def test_requests_without_the_right_token_are_401(
    method: str, path: str, body: Any, shared: TestClient
) -> None:
    client = shared
    game_id, token, state = new_game(client)
    _, other_token, _ = new_game(client)
    url = path.format(id=game_id)
    for headers in (
        {},
        auth(""),
        auth("x" * 43),
        auth(other_token),
        auth(token[:-1]),
        {"Authorization": f"Basic {token}"},
        {"Authorization": token},
    ):
        response = client.request(method, url, json=body, headers=headers)
        assert response.status_code == 401, (headers, response.text)
        assert set(response.json()) == {"error", "code"} and response.json()["code"] == "unauthorized"
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state
    missing = client.request(method, path.format(id="no-such-game"), json=body, headers=auth(token))
    assert missing.status_code == 404 and set(missing.json()) == {"error", "code"}
    assert missing.json()["code"] == "not_found"


def test_ids_and_tokens_are_long_and_random(shared: TestClient) -> None:
    client = shared
    games = [new_game(client) for _ in range(5)]
    ids = {game_id for game_id, _, _ in games}
    tokens = {token for _, token, _ in games}
    assert len(ids) == len(tokens) == 5
    assert all(len(x) >= 32 for x in ids | tokens) and not ids & tokens


def test_only_a_hash_of_the_token_is_stored(shared: TestClient) -> None:
    client = shared
    game_id, token, _ = new_game(client)
    stored = client.app.state.service.storage.games.load(game_id)  # type: ignore[attr-defined]
    assert token not in json.dumps([stored.token_hash, stored.options, stored.record])


# --------------------------------------------------------------------------- bad actions


def bad_actions(state: dict[str, Any]) -> list[tuple[Any, int]]:
    """Malformed (422) and illegal (400) actions while seat 0 must discard."""
    hand = state["view"]["hand"]
    legal = first_action(state)["cards"]
    not_held = next(str(c) for c in map(Card.from_index, range(52)) if str(c) not in hand)
    return [
        ({"type": "play", "card": hand[0]}, 400),
        ({"type": "discard", "cards": [hand[0]]}, 400),
        ({"type": "discard", "cards": [not_held, hand[0]]}, 400),
        ({"type": "count", "points": 5}, 400),
        ({"type": "muggins", "points": 2}, 400),
        ({"type": "pass"}, 400),
        ({"type": "discard", "cards": [hand[0], hand[0]]}, 422),
        ({"type": "discard", "cards": ["ZZ", hand[0]]}, 422),
        ({"type": "discard", "cards": " ".join(legal)}, 422),
        ({"type": "discard", "cards": legal, "seat": 1}, 403),
        ({"type": "discard", "cards": legal, "seat": True}, 422),
        ({"type": "discard", "cards": legal, "version": "0"}, 422),
        ({"type": "discard", "cards": legal, "hands": [legal]}, 422),
        ({"type": "discard"}, 422),
        ({"type": "deal", "cards": legal}, 422),
        ({"type": "starter", "card": hand[0]}, 422),
        ({"type": "cut", "cards": legal}, 422),
        ({"type": 1}, 422),
        ({"card": hand[0]}, 422),
        ({"type": "play", "card": 5}, 422),
        ({"type": "count", "points": 2.5}, 422),
        ([legal], 422),
        ("discard", 422),
    ]


def test_bad_actions_are_refused_and_change_nothing(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=12)
    store = client.app.state.service.storage  # type: ignore[attr-defined]
    before = store.games.load(game_id)
    for body, status in bad_actions(state):
        response = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(token))
        assert response.status_code == status, (body, response.text)
        error = response.json()
        assert {"error", "code"} <= set(error) and error["error"], body
        assert status_of(error["code"]) == status, error
        assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state
    for raw in (b"{", b"", b"\xff\xfe", b"null"):
        response = client.post(
            f"/api/games/{game_id}/actions",
            content=raw,
            headers={**auth(token), "content-type": "application/json"},
        )
        assert response.status_code == 422 and "error" in response.json()
    huge = client.post(
        f"/api/games/{game_id}/actions",
        content=b'{"type": "pass", "x": "' + b"a" * 100_000 + b'"}',
        headers={**auth(token), "content-type": "application/json"},
    )
    assert huge.status_code == 413 and "error" in huge.json()
    chunked = client.post(  # no Content-Length: the body is refused all the same
        f"/api/games/{game_id}/actions",
        content=(b"a" * 1000 for _ in range(100)),
        headers={**auth(token), "content-type": "application/json"},
    )
    assert chunked.status_code == 413 and "error" in chunked.json()
    after = store.games.load(game_id)
    assert (after.version, after.record) == (before.version, before.record)


def test_illegal_plays_are_refused_with_the_reason(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=13)
    state = client.post(f"/api/games/{game_id}/actions", json=first_action(state), headers=auth(token)).json()
    card = first_action(state)["card"]
    claim = client.post(
        f"/api/games/{game_id}/actions", json={"type": "play", "card": card, "claim": 2}, headers=auth(token)
    )
    assert claim.status_code == 400 and "claims are only stated with muggins" in claim.json()["error"]
    discarded = state["view"]["discards"][0]
    response = client.post(
        f"/api/games/{game_id}/actions", json={"type": "play", "card": discarded}, headers=auth(token)
    )
    assert response.status_code == 400 and f"does not hold {discarded}" in response.json()["error"]
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state


# --------------------------------------------------------------------------- concurrency


def send_at_once(client: TestClient, path: str, token: str, bodies: list[dict[str, Any]]) -> list[Any]:
    """POST every body from its own thread, all released at the same instant; the answers in order."""
    barrier = threading.Barrier(len(bodies))
    answers: list[Any] = [None] * len(bodies)

    def send(i: int) -> None:
        barrier.wait()
        answers[i] = client.post(path, json=bodies[i], headers=auth(token))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.parametrize("with_version", [False, True])
def test_actions_sent_at_once_cannot_both_apply(with_version: bool) -> None:
    client = make_client()
    game_id, token, state = new_game(client, seed=14)
    for human_actions in range(1, 5):  # a few rounds: discards and plays
        if state["over"]:
            break
        if with_version:  # different actions, all answering the same state: one wins, the rest are stale
            bodies = [{**action, "version": state["version"]} for action in actions_of(state)] * 2
        else:  # the same action sent many times (a double click): it applies once
            bodies = [actions_of(state)[-1]] * 8
        answers = send_at_once(client, f"/api/games/{game_id}/actions", token, bodies)
        codes = [a.status_code for a in answers]
        assert codes.count(200) == 1, codes
        assert codes.count(409 if with_version else 400) == len(codes) - 1, codes
        state = next(a.json() for a in answers if a.status_code == 200)
        record = client.app.state.service.storage.games.load(game_id).record  # type: ignore[attr-defined]
        assert sum(1 for a in record["actions"] if a.get("seat") == 0) == human_actions
        assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state
