"""A brief database outage: clear errors meanwhile, then the tables resume by themselves.

The outage is real: the test's own PostgreSQL database stops taking connections and every
connection to it is ended (``ALLOW_CONNECTIONS false`` and ``pg_terminate_backend``), then it is
allowed again; the application is not touched in between.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient

from cribbage.web.ratelimits import NO_LIMITS
from service_urls import POSTGRES_URL
from web_fixtures import auth, first_action, make_app, new_game

pytestmark = pytest.mark.postgres


def _admin() -> sqlalchemy.Engine:
    return sqlalchemy.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")


def _outage(name: str, on: bool) -> None:
    """Stop (``on``) or allow again the connections to database ``name``, ending those open."""
    admin = _admin()
    try:
        with admin.connect() as conn:
            conn.execute(
                sqlalchemy.text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {str(not on).lower()}')
            )
            if on:
                conn.execute(
                    sqlalchemy.text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                )
    finally:
        admin.dispose()


@pytest.fixture
def database() -> Iterator[tuple[str, str]]:
    """A database of its own (its name and URL), dropped afterwards."""
    name = f"outage_{uuid.uuid4().hex[:12]}"
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    url = sqlalchemy.make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield name, url
    finally:
        _outage(name, False)
        _outage(name, True)  # end the application's connections, then drop
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def _act(client: TestClient, game_id: str, token: str, state: dict[str, Any]) -> Any:
    action = {**first_action(state), "version": state["version"]}
    return client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))


def test_a_brief_database_outage_gives_clear_errors_then_the_game_goes_on(database: tuple[str, str]) -> None:
    name, url = database
    client = TestClient(make_app(url, limits=NO_LIMITS))
    game_id, token, state = new_game(client, seed=5, level="normal")
    for _ in range(3):
        state = _act(client, game_id, token, state).json()
    before = state

    _outage(name, True)
    try:
        for answer in (
            client.get(f"/api/games/{game_id}", headers=auth(token)),
            _act(client, game_id, token, before),
            client.post("/api/games", json={"level": "weak"}),
        ):
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["code"] == "database_unavailable" and "database" in body["error"]
            assert int(answer.headers["retry-after"]) >= 1
        assert client.get("/api/health").status_code == 503
    finally:
        _outage(name, False)

    # Back: nothing was lost or half-applied, and the game goes on to its end without repair.
    again = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert again.status_code == 200, again.text
    assert again.json()["version"] == before["version"] and again.json()["actions"] == before["actions"]
    state = again.json()
    for _ in range(400):
        if state["over"]:
            break
        answer = _act(client, game_id, token, state)
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["over"]
    client.app.state.service.close()  # type: ignore[attr-defined]
