"""Spectators (docs/api.md, "Watch"): the creator's watch link shows only what every seat sees.

A spectator's state, over HTTP and on its live socket, never holds a seat's hand, kept cards or
discards, the crib before it is turned up, the pack, a seed, a token or an invitation; the leak
check reads every message a spectator's socket receives through whole games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from service_urls import REDIS_URL
from spectators import check_spectator
from web_fixtures import auth, first_action, make_client, play_out, receive, table, watch_link


def messages(ws: WebSocketTestSession) -> Iterator[dict[str, Any]]:
    while True:
        yield receive(ws)


def test_only_the_creator_gets_the_watch_link_and_always_the_same(client: TestClient) -> None:
    game_id, tokens, _ = table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    assert tokens[0] is not None and tokens[1] is not None
    code = watch_link(client, game_id, tokens[0])
    assert len(code) == 10 and watch_link(client, game_id, tokens[0]) == code
    refused = client.post(f"/api/games/{game_id}/watch", headers=auth(tokens[1]))
    assert refused.status_code == 403 and "creator" in refused.json()["error"]
    assert client.post(f"/api/games/{game_id}/watch").status_code == 401
    assert client.post(f"/api/games/{game_id}/watch", headers=auth("nope")).status_code == 401
    other_id, other_tokens, _ = table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    assert other_tokens[0] is not None and watch_link(client, other_id, other_tokens[0]) != code
    for unknown in ("ZZZZZZZZZZ", "short", code[:-1] + "0"):
        missing = client.get(f"/api/watch/{unknown}")
        assert missing.status_code == 404 and missing.json() == {
            "error": "no table has this watch code",
            "code": "no_watch_code",
        }
    seen = client.get(f"/api/watch/{code.lower()}")
    assert seen.status_code == 200 and seen.json()["id"] == game_id
    page = client.get(f"/watch/{code}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_a_spectator_cannot_act_nor_read_the_record_and_does_not_count_as_connected(
    client: TestClient,
) -> None:
    game_id, tokens, _ = table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    assert tokens[0] is not None
    code = watch_link(client, game_id, tokens[0])
    before = client.get(f"/api/watch/{code}").json()
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
        ws.send_text(json.dumps({"watch": code}))
        incoming = messages(ws)
        first = next(incoming)
        assert first["type"] == "state" and first["state"]["connected"] == []
        seat = before["view"]["to_act"]
        mine = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat] or "")).json()
        ws.send_text(json.dumps({"type": "action", "action": first_action(mine)}))
        refused = next(incoming)
        assert refused == {
            "type": "error",
            "error": "a spectator cannot act",
            "code": "spectator_cannot_act",
            "status": 403,
        }
    assert client.get(f"/api/watch/{code}").json() == before
    assert client.get(f"/api/games/{game_id}/record").status_code == 401
    with client.websocket_connect(f"/api/games/{game_id}/live") as ws:  # another game's code
        other_id, other_tokens, _ = table(client, seats=[{"kind": "human"}, {"kind": "human"}])
        ws.send_text(json.dumps({"watch": watch_link(client, other_id, other_tokens[0] or "")}))
        assert next(messages(ws))["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            next(messages(ws))
        assert closed.value.code == 1008


@pytest.mark.parametrize(  # whole games to 61: a spectator's leaks are in the phases, not the length
    "options",
    [
        {"seats": [{"kind": "human"}, {"kind": "human"}], "target": 61},
        {
            "variant": "four-player",
            "target": 61,
            "manual": True,
            "muggins": True,
            "seats": [
                {"kind": "human"},
                {"kind": "computer", "level": "weak"},
                {"kind": "human"},
                {"kind": "human"},
            ],
        },
        {"seats": None, "level": "weak", "seed": 11, "target": 61},  # seeded: the seed stays hidden
    ],
    ids=["two-people", "four-player-muggins", "seeded-against-computer"],
)
def test_every_message_a_spectator_receives_through_a_whole_game_is_public(
    client: TestClient, options: dict[str, Any]
) -> None:
    game_id, tokens, _ = table(client, **options)
    assert tokens[0] is not None
    code = watch_link(client, game_id, tokens[0])
    with ExitStack() as stack:
        ws = stack.enter_context(client.websocket_connect(f"/api/games/{game_id}/live"))
        ws.send_text(json.dumps({"watch": code}))
        _, actions = play_out(client, game_id, tokens)
        final = client.get(f"/api/watch/{code}").json()
        assert final["over"] and final["result"] is not None
        received, mentioned, last = 0, 0, -1
        for message in messages(ws):
            assert message["type"] == "state", message
            state = message["state"]
            assert state["version"] >= last
            last = state["version"]
            mentioned += check_spectator(state)
            received += 1
            if last == final["version"]:
                break
    assert actions > 20 and received > actions / 2 and mentioned > 50
    check_spectator(final)


def _spectator_tables() -> list[Any]:
    from test_web_tables import LEAK_TABLES

    wanted = {"four-muggins-play", "partners", "three-muggins"}
    return [param for param in LEAK_TABLES if param.id in wanted]


@pytest.mark.parametrize(("seats", "options"), _spectator_tables())
def test_a_spectator_never_gets_a_card_any_seat_cannot_see(
    seats: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    """Checked against the engine's own replay of the record (the seats' leak check): at every
    version, no card hidden from any seat is in the spectator's state, and its events are exactly
    the engine's last ones, none naming a card hidden then."""
    import random

    from test_web_security import PUBLIC_EVENTS, STEP_KEYS, cards_in
    from test_web_tables import play_to_the_end, seat_everyone
    from web_fixtures import make_client

    with make_client() as client:  # its lifespan runs: live updates are delivered
        game_id, people, shadow = seat_everyone([client], seats, **options)
        code = watch_link(client, game_id, people[0].token)
        frames: list[dict[str, Any]] = []
        with client.websocket_connect(f"/api/games/{game_id}/live") as ws:
            ws.send_text(json.dumps({"watch": code}))
            final = next(iter(play_to_the_end(game_id, people, shadow, random.Random(5)).values()))
            for message in messages(ws):
                assert message["type"] == "state", message
                frames.append(message["state"])
                if message["state"]["version"] == final["version"]:
                    break
        frames.append(client.get(f"/api/watch/{code}").json())
    shadow.catch_up()
    flat: list[tuple[dict[str, Any], set[str]]] = []
    ends = [0]
    for events, hidden in shadow.steps:
        flat += [(event, set().union(*hidden)) for event in events]
        ends.append(len(flat))
    tokens = {person.token for person in people}
    for state in frames:
        version = state["version"]
        hidden_now = set().union(*shadow.steps[version - 1][1])
        leaked = cards_in(state, skip=frozenset({"events", "id"})) & hidden_now
        assert not leaked, f"the spectator sees {sorted(leaked)} at version {version}"
        events = [{k: v for k, v in e.items() if k not in STEP_KEYS} for e in state["events"]]
        expected = flat[ends[version] - len(events) : ends[version]]
        assert events == [event for event, _ in expected]
        for step, (_, hidden_then) in zip(state["events"], expected, strict=True):  # the table after it
            assert not cards_in(step["after"]) & hidden_then, f"a snapshot names a hidden card: {step}"
        for event, hidden_then in expected:
            if event["kind"] not in PUBLIC_EVENTS:
                assert not cards_in(event) & hidden_then, f"{event} names a card hidden then"
        check_spectator(state)
        assert not any(token in json.dumps(state) for token in tokens)
    assert len(frames) > 5  # states the spectator was sent while the game went on (a burst may be one)


@pytest.mark.parametrize("where", ["one-process", "two-processes-postgresql-redis"])
def test_a_spectator_follows_the_people_to_their_rematch(request: pytest.FixtureRequest, where: str) -> None:
    """When the people play again, the spectator's socket of the old game is sent the new game's
    watch code (never its id nor a token); with it the spectator watches the new game, over HTTP
    and on a socket of its own, in any process."""

    with ExitStack() as stack:
        if where == "one-process":
            first = second = stack.enter_context(make_client())
        else:
            url = request.getfixturevalue("postgres_url")
            first = stack.enter_context(make_client(url, broker=REDIS_URL))
            second = stack.enter_context(make_client(url, broker=REDIS_URL))
        game_id, tokens, _ = table(first, variant="short", seats=[{"kind": "human"}, {"kind": "human"}])
        assert tokens[0] is not None and tokens[1] is not None
        code = watch_link(first, game_id, tokens[0])
        play_out(first, game_id, tokens)
        old = first.get(f"/api/watch/{code}").json()
        assert old["over"] and old["rematch"] is None and old["rematch_watch"] is None
        ws = stack.enter_context(first.websocket_connect(f"/api/games/{game_id}/live"))
        ws.send_text(json.dumps({"watch": code}))
        incoming = messages(ws)
        assert next(incoming)["state"]["rematch_watch"] is None
        asked = second.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[1]))  # another process
        assert asked.status_code == 200, asked.text
        new_id = asked.json()["id"]
        told = next(incoming)
        assert told["type"] == "state", told
        follow = told["state"]["rematch_watch"]
        assert isinstance(follow, str) and len(follow) == 10 and follow != code
        assert told["state"]["id"] == game_id and told["state"]["rematch"] is None
        check_spectator(told["state"])
        assert not any(secret in json.dumps(told) for secret in (new_id, tokens[0], tokens[1]))
        # The old code still shows the old game, and says where the table went.
        again = second.get(f"/api/watch/{code}").json()
        assert again["id"] == game_id and again["rematch_watch"] == follow
        # The new game's watch code is its own watch link: its creator gets the same one.
        assert watch_link(second, new_id, tokens[0]) == follow
        watched = second.get(f"/api/watch/{follow}").json()
        assert watched["id"] == new_id and not watched["over"] and watched["rematch_watch"] is None
        check_spectator(watched)
        live = stack.enter_context(first.websocket_connect(f"/api/games/{new_id}/live"))
        live.send_text(json.dumps({"watch": follow}))
        following = messages(live)
        assert next(following)["state"]["version"] == watched["version"]
        seat = watched["view"]["to_act"]
        token = tokens[seat]
        assert token is not None
        mine = second.get(f"/api/games/{new_id}", headers=auth(token)).json()
        acted = second.post(f"/api/games/{new_id}/actions", json=first_action(mine), headers=auth(token))
        assert acted.status_code == 200, acted.text
        state = next(following)["state"]
        while state["version"] < acted.json()["version"]:  # presence may change meanwhile
            state = next(following)["state"]
        assert state["id"] == new_id
        check_spectator(state)
