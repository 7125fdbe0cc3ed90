"""The people at a table discard at the same time (docs/api.md, "Tables with several people"):
every person still to discard may discard at once, whoever the engine asks first; the seat's
own state shows its discard done at once, and nobody else sees the cards thrown.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.engine.record import Game
from cribbage.study.review import review_game
from test_web_security import Shadow, cards_in
from test_web_tables import check_state, create, join
from web_fixtures import HUMAN, act, actions_of, first_action, get


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
def test_the_last_seat_to_discard_discards_first_and_nobody_waits(variant: str, client: TestClient) -> None:
    players = 3 if variant == "three-player" else 4
    data = create(client, [HUMAN] * players, variant=variant, seed=None)
    game_id = data["id"]
    tokens = [data["token"]]
    for invite in data["invites"]:
        answer = join(client, invite["code"], f"Person {invite['seat']}")
        assert answer.status_code == 201, answer.text
        tokens.append(answer.json()["token"])
    shadow = Shadow(client, game_id)
    since = [0] * players
    orders = []
    for _hand in range(2):  # two hands: two dealers, two orders
        states = [get(client, game_id, token) for token in tokens]
        view = states[0]["view"]
        assert view["phase"] == "discard"
        dealer, first = view["dealer"], view["to_act"]
        assert first == (dealer + 1) % players  # the engine asks the dealer's left first...
        order = [(dealer - i) % players for i in range(players)]  # ...the dealer discards first
        orders += order
        for n, seat in enumerate(order):
            for other in order[n:]:  # nobody waits: every seat still to discard may, now
                state = get(client, game_id, tokens[other])
                check_state(state, shadow, other, since[other], tokens)
                assert state["actions"] and {a["type"] for a in state["actions"]} == {"discard"}
                assert state["view"]["to_act"] == order[-1]
            state = get(client, game_id, tokens[seat])
            chosen = actions_of(state)[-1]
            hand = state["view"]["hand"]
            answer = act(client, game_id, tokens[seat], {**chosen, "version": state["version"]})
            assert answer.status_code == 200, answer.text
            since[seat] = state["version"]
            mine: dict[str, Any] = answer.json()
            check_state(mine, shadow, seat, since[seat], tokens)
            if n < players - 1:  # the seat's discard is done at once, in its own state
                assert mine["view"]["phase"] == "discard" and mine["actions"] == []
                assert mine["view"]["discards"] == chosen["cards"]
                assert sorted(mine["view"]["hand"]) == sorted(set(hand) - set(chosen["cards"]))
                again = act(client, game_id, tokens[seat], chosen)
                assert again.status_code == 400 and "has discarded already" in again.json()["error"]
            for other in range(players):  # nothing of it reaches the others (check_state: no leak)
                seen = get(client, game_id, tokens[other])
                check_state(seen, shadow, other, since[other], tokens)
                if other != seat:
                    assert not set(chosen["cards"]) & cards_in(seen["view"])
        # The hand goes on: play it out (the seat to act, or a caller, takes the first legal action).
        while get(client, game_id, tokens[0])["view"]["phase"] != "discard":
            for seat, token in enumerate(tokens):
                state = get(client, game_id, token)
                if state["actions"]:
                    assert act(client, game_id, token, first_action(state)).status_code == 200
                    since[seat] = state["version"]
                    break
            else:
                raise AssertionError("nobody may act")
    # The record replays, the discards in the order they came.
    record = client.app.state.service.storage.games.load(game_id).record  # type: ignore[attr-defined]
    game = Game.from_json(record)
    shadow.catch_up()
    assert game.state == shadow.state
    assert [a["seat"] for a in record["actions"] if a.get("type") == "discard"] == orders
    # The review judges each discard from its own seat's view.
    judged = [d for d in review_game(game).decisions if d.kind == "discard"]
    assert [d.seat for d in judged] == orders
    assert all(set(d.chosen.discard) <= set(d.view.hand) for d in judged)  # type: ignore[union-attr]
