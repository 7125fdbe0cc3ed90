"""The answer models of cribbage.web.answers are the real types of what the API sends: real
answers of every phase, of every kind of table and of every endpoint validate against them, and
anything else does not.  (The service builds its answers as dicts and production never validates
them, for the CPU; the fuzz test checks the answers it meets, this test every phase on purpose.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from cribbage.web.answers.games import HintAnswer, StateAnswer, WatchAnswer
from cribbage.web.answers.rules import MetaAnswer
from cribbage.web.answers.tables import (
    InvitationAnswer,
    JoinAnswer,
    LeaveAnswer,
    LobbyAnswer,
    NewGameAnswer,
    RematchAnswer,
    SeenAnswer,
    WatchLinkAnswer,
)
from web_fixtures import HUMAN, actions_of, auth, first_action, get, make_client, table

COMPUTER = {"kind": "computer", "level": "weak"}

AUTOMATIC = {"discard", "play", "over"}
"""The phases a person's state rests in when the computer counts (a person acts in them)."""

GAMES = [
    pytest.param({"variant": "short", "seed": 3}, AUTOMATIC, id="against-the-computer"),
    pytest.param(
        {"variant": "short", "seats": [HUMAN, HUMAN], "manual": True, "muggins": True},
        AUTOMATIC | {"show", "claim"},
        id="two-people-muggins",
    ),
    pytest.param(  # random claims in the play may end the game before any show
        {
            "variant": "short",
            "seats": [HUMAN, COMPUTER],
            "manual": True,
            "muggins": True,
            "muggins_play": True,
        },
        AUTOMATIC | {"claim"},
        id="muggins-in-the-play",
    ),
    pytest.param(  # to 31, as the four's: every phase in two or three deals, half the CPU of 61
        {"variant": "three-player", "target": 31, "seats": [HUMAN, COMPUTER, HUMAN], "clock": 600},
        AUTOMATIC,
        id="three-player-clock",
    ),
    pytest.param(
        {"variant": "four-player", "target": 31, "seats": [HUMAN, COMPUTER, HUMAN, COMPUTER], "manual": True},
        AUTOMATIC | {"show"},
        id="four-player-manual",
    ),
]


def valid(model: type[BaseModel], answer: Any) -> dict[str, Any]:
    """The answer's JSON, validated against ``model`` (a failure naming what does not fit)."""
    assert answer.status_code in (200, 201), answer.text
    data: dict[str, Any] = answer.json()
    model.model_validate(data, strict=False)
    return data


def play_checking(client: TestClient, game_id: str, tokens: list[Any], code: str) -> set[str]:
    """Play the game to its end with random legal actions, validating every seat's state, the
    spectator's, each decision's hint and ``seen``; returns the phases met (and ``claim`` once a
    count awaited the muggins decision)."""
    rng = random.Random(7)
    phases: set[str] = set()
    for _ in range(3000):
        spectator = valid(WatchAnswer, client.get(f"/api/watch/{code}"))
        phases.add(spectator["view"]["phase"])
        if spectator["view"]["claim"] is not None:
            phases.add("claim")  # a count awaiting the muggins decision
        states = {
            seat: valid(StateAnswer, client.get(f"/api/games/{game_id}", headers=auth(token)))
            for seat, token in enumerate(tokens)
            if token
        }
        if spectator["over"]:
            return phases
        seat, state = next((s, st) for s, st in states.items() if st["actions"])
        token = tokens[seat]
        seen = client.post(
            f"/api/games/{game_id}/seen", json={"version": state["version"]}, headers=auth(token)
        )
        valid(SeenAnswer, seen)
        if first_action(state)["type"] in ("discard", "play"):
            valid(HintAnswer, client.get(f"/api/games/{game_id}/hint", headers=auth(token)))
        action = {**rng.choice(actions_of(state)), "version": state["version"]}
        valid(StateAnswer, client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("options", "phases"), GAMES)
def test_every_answer_of_a_whole_game_is_of_its_model(options: dict[str, Any], phases: set[str]) -> None:
    met: set[str] = set()
    with make_client(computer="weak") as client:
        for _ in range(5):  # a table of people deals at random: a few games until every phase met
            game_id, tokens, _ = table(client, **{"seats": None, **options})
            watch = client.post(f"/api/games/{game_id}/watch", headers=auth(tokens[0]))
            met |= play_checking(client, game_id, tokens, valid(WatchLinkAnswer, watch)["code"])
            if met >= phases:
                break
        assert met >= phases and ("claim" in met) == ("claim" in phases)
        if any(tokens[1:]):  # a table of people plays again
            again = valid(
                RematchAnswer, client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0]))
            )
            assert again["id"] != game_id


def test_a_table_s_lobby_invitation_join_and_leave_answers_are_of_their_models() -> None:
    with make_client(computer="weak") as client:
        created = client.post(
            "/api/games", json={"seats": [HUMAN, HUMAN, COMPUTER], "variant": "three-player", "public": True}
        )
        data = valid(NewGameAnswer, created)
        lobby = valid(LobbyAnswer, client.get("/api/lobby"))
        code = data["invites"][0]["code"]
        assert [t["code"] for t in lobby["tables"]] == [code]
        valid(InvitationAnswer, client.get(f"/api/join/{code}"))
        joined = valid(JoinAnswer, client.post("/api/join", json={"code": code, "name": "Aiko"}))
        left = valid(
            LeaveAnswer, client.post(f"/api/games/{data['id']}/leave", headers=auth(joined["token"]))
        )
        assert left == {"seat": joined["seat"], "computer": None}
        given = client.post(
            f"/api/games/{data['id']}/computer",
            json={"seat": joined["seat"], "level": "weak"},
            headers=auth(data["token"]),
        )
        assert valid(StateAnswer, given)["seats"][joined["seat"]]["kind"] == "computer"
        valid(MetaAnswer, client.get("/api/meta"))


def test_the_models_refuse_what_the_api_does_not_send() -> None:
    """The models are exact: a key more, a key missing or a value of another type is refused
    (so the checks above can fail)."""
    with make_client() as client:
        game_id, tokens, _ = table(client)
        state = get(client, game_id, tokens[0])
    StateAnswer.model_validate(state)
    wrong = [
        {**state, "extra": 1},
        {k: v for k, v in state.items() if k != "turn_clock"},
        {**state, "view": {**state["view"], "hand": "5H"}},
        {**state, "view": {**state["view"], "phase": "lunch"}},
        {**state, "actions": [{"type": "discard", "cards": ["5H"], "count": 1, "bid": 3}]},
        {**state, "actions": [{"type": "play", "cards": ["5H"], "claim": 2}]},
        {**state, "legal": []},
        {**state, "options": {**state["options"], "level": "grandmaster"}},
    ]
    for data in wrong:
        with pytest.raises(ValidationError):
            StateAnswer.model_validate(data)
    for meta in ({"levels": ["weak", "grandmaster"], "default_level": "weak"}, {"levels": ["weak"]}):
        with pytest.raises(ValidationError):
            MetaAnswer.model_validate(meta)


def test_openapi_describes_the_state_s_parts_not_bare_objects() -> None:
    schemas = make_client().get("/openapi.json").json()["components"]["schemas"]
    state = schemas["StateAnswer"]["properties"]
    for key in ("view", "options"):
        assert "$ref" in state[key], state[key]
    for key in ("events", "breakdown"):
        assert "$ref" in state[key]["items"], state[key]
    templates = {ref["$ref"].rsplit("/", 1)[-1] for ref in state["actions"]["items"]["oneOf"]}
    assert templates == {"DiscardTemplate", "PlayTemplate", "PointsTemplate", "PassTemplate"}
    assert {"hand", "phase", "rules", "claim"} <= set(schemas["View"]["properties"])
    assert schemas["View"]["additionalProperties"] is False
