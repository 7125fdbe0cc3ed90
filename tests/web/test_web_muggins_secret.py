"""A stated count awaiting the muggins decision tells nobody its true points (issue 29).

Whole games between people counting by hand with muggins, two, three and four at a table (muggins
in the play too with three and four).  At every open decision every seat and a spectator read
their state over HTTP and over the socket: each holds the count's cards and the points stated,
and nowhere in the whole JSON the count's true points: not its event, not its combinations, not
an over-count's penalty, not a score that pegged it.  Once the decision closes, every one of
them is given the count's events, each exactly once.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cribbage.engine.actions import Count, Pass
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.events import Kind
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import play_combos, score_show
from cribbage.engine.state import GameState
from cribbage.engine.view import Phase
from engine_fixtures import deal_game
from spectators import check_spectator
from test_web_security import STEP_KEYS, Shadow
from test_web_tables import Seat, check_state, seat_everyone
from web_fixtures import HUMAN, act, actions_of, get, make_client, receive, watch_link

MUGGINS = {"manual": True, "muggins": True}
TABLES = [
    # to 61, as the others: 112 states checked at open decisions and 16 decisions closed (at
    # 121, 252 and 36 for twice the CPU)
    pytest.param(2, {"variant": "standard", "target": 61, **MUGGINS}, id="two"),
    pytest.param(3, {"variant": "three-player", "target": 61, **MUGGINS, "muggins_play": True}, id="three"),
    pytest.param(4, {"variant": "four-player", "target": 61, **MUGGINS, "muggins_play": True}, id="four"),
]


def dicts_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every object anywhere in a JSON value."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from dicts_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from dicts_in(value)


def bare(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in STEP_KEYS}


class Secret:
    """What a count awaiting the muggins decision must not tell, and what everyone may see of it."""

    def __init__(self, shadow: Shadow) -> None:
        state = shadow.state
        pending = state.pending
        assert pending is not None and shadow.held is not None
        self.held = [bare(e) for e in shadow.held]
        """The events from the stated count on (the count, an over-count's penalty, passes)."""
        self.claim = {"seat": pending.counter, "what": pending.what, "points": pending.claim}
        if pending.phase == "show":
            counted = state.crib if pending.what == "crib" else state.kept[pending.counter]
            self.cards = [str(c) for c in counted]
            assert state.starter is not None
            combos = score_show(counted, state.starter, crib=pending.what == "crib").combos
        else:
            self.cards = [str(state.sequence[-1])]
            combos = tuple(play_combos(state.sequence, state.count))
        self.combos = [c.to_json() for c in combos]
        # The scores before the count: the engine's now, less what the held events pegged.
        self.before = list(state.scores)
        for event in self.held:
            if event.get("side") is not None and event["kind"] != "pass":
                self.before[event["side"]] -= event.get("points", 0)

    def check(self, doc: dict[str, Any], who: str) -> None:
        """The whole STATE ``doc`` tells the count's cards and claim, never its true points."""
        view = doc["view"]
        claim = view["claim"]
        assert claim is not None and {k: claim[k] for k in self.claim} == self.claim, (who, claim)
        if self.claim["what"] == "play":
            assert view["played"][-1]["card"] == self.cards[0], who
        else:
            assert sorted(view["shown"][-1]["cards"]) == sorted(self.cards), who
        counts = [e for e in self.held if "claim" in e]  # the count itself (any other is like others)
        for found in dicts_in(doc):
            assert bare(found) not in counts, f"{who} is told {found} before the muggins decision"
            if self.combos and "combos" in found:
                assert found["combos"] != self.combos, f"{who} is told the combinations {found}"
        assert view["scores"] == self.before, (who, view["scores"], self.before)
        for event in doc["events"]:
            assert all(s <= b for s, b in zip(event["scores"], self.before, strict=True)), (who, event)
            assert all(p <= b for p, b in zip(event["after"]["prev"], self.before, strict=True)), (who, event)
        if doc["events"]:
            assert doc["events"][-1]["scores"] == self.before, (who, doc["events"][-1])
        assert [sum(side.values()) for side in doc["breakdown"]] == self.before, (who, doc["breakdown"])

    def told(self, doc: dict[str, Any], who: str) -> None:
        """After the decision: the count's events are in ``doc``, in order, exactly once."""
        events = [bare(e) for e in doc["events"]]
        n = len(self.held)
        if not any("claim" in e for e in self.held):
            return  # a play stated as 0 that scored nothing: nothing told but passes, like others
        runs = sum(events[i : i + n] == self.held for i in range(len(events)))
        assert runs == 1, f"{who} is given {self.held} {runs} times in {events}"


def choose(rng: random.Random, state: GameState, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A person's action: counts near the truth (under, right or over), calls and passes alike."""
    kind = legal[0]["type"]
    if kind == "count":
        seat, what = state.show_order()[state.show_step]
        assert state.starter is not None
        cards = state.crib if what == "crib" else state.kept[seat]
        true = score_show(cards, state.starter, crib=what == "crib").total
        return {"type": "count", "points": max(0, true + rng.choice([-4, -2, -1, 0, 0, 1, 3]))}
    if kind == "play" and "claim" in legal[0]:
        card = Card.parse(rng.choice(sorted({a["card"] for a in legal})))
        true = sum(c.points for c in play_combos([*state.sequence, card], state.count + card.value))
        return {"type": "play", "card": str(card), "claim": max(0, true + rng.choice([-2, -1, 0, 0, 1, 2]))}
    if kind in ("pass", "muggins"):
        mine = [a for a in legal if a["type"] == "pass"] if rng.random() < 0.5 else []
        return mine[0] if mine else {"type": "muggins", "points": rng.randint(1, 3)}
    return rng.choice(legal)


def pushed(ws: WebSocketTestSession, version: int) -> list[dict[str, Any]]:
    """The states the socket was sent up to the one at ``version``."""
    states = []
    while True:
        message = receive(ws)
        assert message["type"] == "state", message
        states.append(message["state"])
        if message["state"]["version"] >= version:
            return states


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_nobody_is_told_a_stated_counts_true_points_before_the_muggins_decision(
    players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(players)
    with make_client() as client:  # its lifespan runs: live updates are delivered
        game_id, people, shadow = seat_everyone([client], [HUMAN] * players, **options)
        tokens = [p.token for p in people]
        code = watch_link(client, game_id, tokens[0])
        with ExitStack() as stack:
            sockets: dict[str, WebSocketTestSession] = {}
            for person in people:
                ws = stack.enter_context(client.websocket_connect(f"/api/games/{game_id}/live"))
                ws.send_text(json.dumps({"token": person.token}))
                sockets[f"seat {person.seat}"] = ws
            ws = stack.enter_context(client.websocket_connect(f"/api/games/{game_id}/live"))
            ws.send_text(json.dumps({"watch": code}))
            sockets["spectator"] = ws
            decisions, closed = play(client, game_id, code, people, shadow, sockets, rng)
    assert decisions >= 10 and closed >= 5, (decisions, closed)


def play(
    client: TestClient,
    game_id: str,
    code: str,
    people: list[Seat],
    shadow: Shadow,
    sockets: dict[str, WebSocketTestSession],
    rng: random.Random,
) -> tuple[int, int]:
    """Play the game to its end, checking every state (each seat's and the spectator's, over HTTP
    and the socket) at every open decision and once each closes; returns how many states were
    checked at open decisions and how many decisions closed."""
    tokens = [p.token for p in people]
    secrets: dict[int, Secret | None] = {}  # by version: the count awaiting the decision
    closing: dict[int, Secret] = {}  # by version: the count whose decision closed with it
    last: Secret | None = None
    decisions = 0

    def judge(doc: dict[str, Any], who: str) -> None:
        nonlocal decisions
        version = doc["version"]
        secret = secrets[version]
        if secret is not None:
            secret.check(doc, f"{who} at version {version}")
            decisions += 1
        elif version in closing:
            closing[version].told(doc, f"{who} at version {version}")

    for _ in range(5000):
        shadow.catch_up()
        version = len(shadow.steps)
        secrets[version] = opened = Secret(shadow) if shadow.state.pending is not None else None
        if opened is None and last is not None:
            closing[version] = last
        last = opened
        states = {f"seat {p.seat}": get(p.client, game_id, p.token) for p in people}
        watched = client.get(f"/api/watch/{code}")
        assert watched.status_code == 200
        states["spectator"] = watched.json()
        check_spectator(states["spectator"])
        for person in people:
            check_state(states[f"seat {person.seat}"], shadow, person.seat, person.since, tokens)
        for who, doc in states.items():
            judge(doc, f"{who} over HTTP")
        for who, ws in sockets.items():
            for doc in pushed(ws, version):
                judge(doc, f"{who} over the socket")
        if states["seat 0"]["over"]:
            return decisions, len(closing)
        actor = rng.choice([p for p in people if states[f"seat {p.seat}"]["actions"]])
        mine = states[f"seat {actor.seat}"]
        action = choose(rng, shadow.state, actions_of(mine))
        response = act(actor.client, game_id, actor.token, {**action, "version": mine["version"]})
        assert response.status_code == 200, response.text
        actor.since = mine["version"]
        shadow.catch_up()
        secrets[len(shadow.steps)] = Secret(shadow) if shadow.state.pending is not None else None
        judge(response.json(), f"the answer to seat {actor.seat}")
    raise AssertionError("the game did not end")


def test_the_views_show_the_scores_before_a_count_until_its_decision_closes() -> None:
    """The engine's views (what every interface and computer is shown) leave an over-count's
    correction and penalty out until the decision; the state itself holds the truth throughout."""
    rules = get_rules("standard", manual_count=True, muggins=True, overcount_penalty=True)
    state = deal_game(
        ("5H 5C 5D JS 2C 3D", "7H 8H 9S TS KC QC"), "AS", ("2C 3D", "KC QC"), rules=rules, scores=(10, 20)
    )
    while state.phase is Phase.PLAY:
        state.apply(state.legal_actions()[0])
    before, previous = list(state.scores), list(state.previous_scores)
    true = score_show(parse_cards("7H 8H 9S TS"), Card.parse("AS")).total
    events = state.apply(Count(1, true + 3))  # the pone over-counts its hand by 3
    assert [(e.kind, e.points) for e in events] == [(Kind.SHOW, true), (Kind.PENALTY, 3)]
    assert state.scores == [before[0] + 3, before[1] + true]  # the truth, in the state
    for seat in (0, 1):
        view = state.view(seat)
        assert (list(view.scores), list(view.previous_scores)) == (before, previous)
        assert view.claim == (1, "hand", true + 3)
    state.apply(Pass(0))
    assert list(state.view(0).scores) == state.scores == [before[0] + 3, before[1] + true]
