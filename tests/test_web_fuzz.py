"""Fuzzing the API from its own /openapi.json: no request, valid or not, gets a 5xx answer.

Schemathesis generates valid and invalid requests for every operation.  Half of the requests on
a game use a real game with its real token, so the fuzzing reaches the engine and not only the
404 and 401 answers.  Every 4xx answer must be ``{"error": "..."}``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from cribbage.web.ratelimits import NO_LIMITS
from test_web_api import make_client, new_game

MAX_EXAMPLES = 200

# Thousands of requests from one address, many with wrong tokens: no abuse limit applies here
# (tests/test_web_limits.py tests them).
client: TestClient = make_client(limits=NO_LIMITS)
schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
schema.config.generation.update(max_examples=MAX_EXAMPLES)

_games: list[tuple[str, str]] = []
_rng = random.Random(0)


def real_game() -> tuple[str, str]:
    """A game in progress (a fresh one now and then, so some are in the play and the show)."""
    if not _games or _rng.random() < 0.1:
        game_id, token, state = new_game(client, manual=True, muggins=True)
        for _ in range(_rng.randrange(12)):  # move it on a little
            if state["over"]:
                break
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json=_rng.choice(state["legal"]),
                headers={"Authorization": f"Bearer {token}"},
            )
            state = answer.json()
        _games.append((game_id, token))
    return _rng.choice(_games)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case: Any) -> None:
    if "game_id" in (case.path_parameters or {}) and _rng.random() < 0.5:
        game_id, token = real_game()
        case.path_parameters["game_id"] = game_id
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text)
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], response.text
        # Only the scoring endpoints add a code with its values (docs/api.md).
        assert set(body) == {"error"} or isinstance(body.get("code"), str), response.text
