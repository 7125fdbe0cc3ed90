"""A game against the computer played in the browser, kept at the server once over (issue 45
item 2; ``POST /api/games/upload``, docs/api.md): the engine replays its record, the server
stores it as a finished game (the account's, when signed in; never rated) whose seat reads its
state, record and review as any game's; a game not over, a tampered record, options that are not
the record's or a server's option are refused by name, and nothing is stored.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.engine.templates import choices
from cribbage.local.game import LocalGame, LocalOptions
from cribbage.web.answers.tables import UploadAnswer
from web_fixtures import auth, make_client, sign_up

OPTIONS = {"variant": "short", "level": "normal", "seed": 31, "manual": True, "muggins": True}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as made:
        yield made


def played(options: dict[str, Any], until_over: bool = True) -> LocalGame:
    """A game played in the browser's engine (natively here): to its end, or a few actions."""
    game = LocalGame.new("local-up", LocalOptions.from_json(dict(options)))
    rng = random.Random(3)
    for _ in range(3000 if until_over else 6):
        state = game.state()
        if state["over"]:
            break
        game.act(
            {**rng.choice([c for t in state["actions"] for c in choices(t)]), "version": state["version"]}
        )
    return game


def upload(
    client: TestClient, options: dict[str, Any], record: dict[str, Any], token: str | None = None
) -> Any:
    # The body as text, as the page sends it: a record's 64-bit seeds stay whole.
    body = '{"options": ' + json.dumps(options) + ', "record": ' + json.dumps(record) + "}"
    headers = {"content-type": "application/json", **(auth(token) if token else {})}
    return client.post("/api/games/upload", content=body, headers=headers)


def test_a_finished_browser_game_is_kept_in_the_accounts_games(client: TestClient) -> None:
    game = played(OPTIONS)
    session = sign_up(client, "Offline Olga")
    before = client.get("/api/accounts/me", headers=auth(session)).json()["finished"]
    answer = upload(client, OPTIONS, game.record(), session)
    assert answer.status_code == 201, answer.text
    UploadAnswer.model_validate(answer.json())
    kept = answer.json()
    assert kept["seat"] == 0
    state = client.get(f"/api/games/{kept['id']}", headers=auth(kept["token"])).json()
    assert state["over"] and state["result"] == game.state()["result"] and state["rating"] is None
    assert state["score_history"] == game.state()["score_history"]
    record = client.get(f"/api/games/{kept['id']}/record", headers=auth(kept["token"]))
    assert record.json() == game.record(), "the same record, its seeds whole"
    assert client.get("/api/accounts/me", headers=auth(session)).json()["finished"] == before + 1
    # Without a session it is kept too, the seat's token its only key.
    assert upload(client, OPTIONS, game.record()).status_code == 201


def test_refusals_name_the_problem_and_keep_nothing(client: TestClient) -> None:
    over = played(OPTIONS).record()
    session = sign_up(client, "Offline Oleg")
    cases = [
        (OPTIONS, played(OPTIONS, until_over=False).saved()["record"], 409, "not_over", None),
        (OPTIONS, {**over, "actions": [*over["actions"][:5], {"type": "play", "seat": 0, "card": "ZZ"}]},
         422, "bad_record", None),
        ({**OPTIONS, "variant": "standard"}, over, 422, "invalid", "options"),
        ({**OPTIONS, "level": "weak"}, over, 422, "invalid", "options"),
        ({**OPTIONS, "rated": True}, over, 422, "invalid", "options"),
        ({**OPTIONS, "seats": [{"kind": "human"}, {"kind": "computer"}]}, over, 422, "invalid", "options"),
    ]  # fmt: skip
    for options, record, status, code, field in cases:
        answer = upload(client, options, record, session)
        assert answer.status_code == status, (options, answer.text)
        assert answer.json()["code"] == code and answer.json().get("field") == field, answer.json()
    assert client.get("/api/accounts/me", headers=auth(session)).json()["finished"] == 0
