"""Where the hot routes call the service (``cribbage.web.deps.Caller.run``): on the event loop when all
they read is in this process and no computer searches for long, in the thread pool otherwise
(a database across the network, a strong computer to answer)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app import GameService
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import auth, first_action, make_client, new_game, table


def on_loop(service: GameService, name: str) -> list[bool]:
    """Record, at each call of the service's method ``name``, whether it runs on the event loop."""
    calls: list[bool] = []
    method: Callable[..., Any] = getattr(service, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            calls.append(True)
        except RuntimeError:  # a worker thread has no running loop
            calls.append(False)
        return method(*args, **kwargs)

    setattr(service, name, recorded)
    return calls


def play(client: TestClient, game_id: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(
        f"/api/games/{game_id}/actions",
        json={**first_action(state), "version": state["version"]},
        headers=auth(token),
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_local_application_answers_people_and_quick_computers_on_the_event_loop() -> None:
    with make_client(limits=NO_LIMITS) as client:
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        states, acts = on_loop(service, "state"), on_loop(service, "act")
        people = table(client)
        seat_to_act = client.get(f"/api/games/{people.id}", headers=auth(people.tokens[0])).json()["view"][
            "to_act"
        ]
        state = client.get(f"/api/games/{people.id}", headers=auth(people.tokens[seat_to_act])).json()
        play(client, people.id, people.tokens[seat_to_act], state)
        game_id, token, state = new_game(client, level="normal", seed=3)
        play(client, game_id, token, state)
        assert states == [True, True] and acts == [True, True]

        strong_id, strong_token, strong_state = new_game(client, level="strong", seed=4)
        play(client, strong_id, strong_token, strong_state)
        assert acts[-1] is False  # a strong computer answers: in a worker thread


@pytest.mark.postgres
def test_an_application_on_a_database_server_calls_it_from_worker_threads(postgres_url: str) -> None:
    with make_client(postgres_url, limits=NO_LIMITS) as client:
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        states, acts = on_loop(service, "state"), on_loop(service, "act")
        game_id, token, state = new_game(client, seed=5)
        client.get(f"/api/games/{game_id}", headers=auth(token))
        play(client, game_id, token, state)
        assert states == [False] and acts == [False]
