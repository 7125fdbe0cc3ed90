"""An account opens its own games from any browser (issue 31; docs/api.md, "Accounts",
``POST /api/accounts/games/{id}/open``): a new key for its seat, which plays the seat as its token
does (over HTTP, on the live socket, leaving, a rematch), in another server process too; the
seat's token keeps working; another's game, no game and a seat left are one ``not_found``; the
key outlives the session; leaving voids the seat's token and keys alike; a seat keeps its newest
ten; a pruned game's keys go with it.  On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cribbage.storage.seat_keys import MAX_KEYS
from cribbage.storage.tables import seat_keys
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import PASSWORD, act_first, auth, connect, get, make_client, play_out, receive, sign_up


@pytest.fixture
def servers(shared_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two server processes on one database (browser A talks to the first, B to the second)."""
    with (
        make_client(shared_url, computer="random", limits=NO_LIMITS) as first,
        make_client(shared_url, computer="random", limits=NO_LIMITS) as second,
    ):
        yield first, second


def sign_in(client: TestClient, name: str) -> str:
    answer = client.post("/api/accounts/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def open_game(client: TestClient, session: str | None, game_id: str) -> Any:
    return client.post(f"/api/accounts/games/{game_id}/open", headers=auth(session) if session else {})


def opened(client: TestClient, session: str, game_id: str) -> str:
    answer = open_game(client, session, game_id)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == {"game", "seat", "token"} and body["game"] == game_id
    return str(body["token"])


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code


def signed_in_game(client: TestClient, session: str, **options: Any) -> tuple[str, str]:
    made = client.post("/api/games", headers=auth(session), json={"level": "weak", **options})
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["token"]


def test_another_browser_opens_the_game_and_both_play_it(servers: tuple[TestClient, TestClient]) -> None:
    a, b = servers
    session_a = sign_up(a, "Aiko")
    game_id, token_a = signed_in_game(a, session_a)
    before = get(a, game_id, token_a)  # cached in the first process
    session_b = sign_in(b, "Aiko")  # browser B: a second session
    token_b = opened(b, session_b, game_id)
    assert token_b != token_a
    seen_b = get(b, game_id, token_b)
    assert seen_b["seat"] == 0
    assert (seen_b["version"], seen_b["view"]["hand"]) == (before["version"], before["view"]["hand"])
    moved = act_first(b, game_id, token_b)  # B acts
    assert moved["version"] > before["version"]
    # A, whose process cached the game before the key was minted, still plays; and so would B there.
    assert get(a, game_id, token_a)["version"] == moved["version"]
    act_first(a, game_id, token_a)
    assert get(a, game_id, token_b)["version"] == get(b, game_id, token_a)["version"]
    with ExitStack() as stack:  # the live socket accepts the key
        state = receive(connect(stack, b, game_id, token_b))["state"]
        assert state["seat"] == 0 and state["id"] == game_id
    # Signing out B's session does not void the key it got (a seat's key is not a session).
    assert b.post("/api/accounts/signout", headers=auth(session_b)).status_code == 200
    assert get(b, game_id, token_b)["seat"] == 0
    refused(open_game(b, session_b, game_id), 401, "account.bad_session")


def test_another_account_no_game_and_no_session_are_refused(servers: tuple[TestClient, TestClient]) -> None:
    a, _b = servers
    aiko = sign_up(a, "Aiko")
    boris = sign_up(a, "Boris")
    game_id, _token = signed_in_game(a, aiko)
    guest_game = a.post("/api/games", json={"level": "weak"}).json()["id"]
    for other in (game_id, guest_game):  # Boris's own 404 is the one of no such game
        refused(open_game(a, boris, other), 404, "not_found")
    refused(open_game(a, aiko, "no-such-game"), 404, "not_found")
    refused(open_game(a, aiko, guest_game), 404, "not_found")
    refused(open_game(a, None, game_id), 401, "account.bad_session")
    refused(open_game(a, "not a session", game_id), 401, "account.bad_session")
    deleted = a.post("/api/accounts/delete", headers=auth(aiko), json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    refused(open_game(a, aiko, game_id), 401, "account.bad_session")  # a deleted account's session


@pytest.mark.parametrize("leaver", ["token", "key"])
def test_leaving_voids_the_seats_token_and_keys(servers: tuple[TestClient, TestClient], leaver: str) -> None:
    a, b = servers
    aiko = sign_up(a, "Aiko")
    made = a.post("/api/games", headers=auth(aiko), json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    game_id, token_a = made.json()["id"], made.json()["token"]
    joined = a.post("/api/join", json={"code": made.json()["invites"][0]["code"], "name": "Bo"})
    assert joined.status_code == 201
    token_b = opened(b, sign_in(b, "Aiko"), game_id)
    left = b.post(f"/api/games/{game_id}/leave", headers=auth(token_b if leaver == "key" else token_a))
    assert left.status_code == 200, left.text
    for client in (a, b):
        for token in (token_a, token_b):
            refused(client.get(f"/api/games/{game_id}", headers=auth(token)), 401, "unauthorized")
    refused(open_game(a, aiko, game_id), 404, "not_found")  # a seat it left is no longer its
    assert get(a, game_id, joined.json()["token"])["waiting_for"] == [0]


def test_a_finished_game_opens_and_its_record_is_read(servers: tuple[TestClient, TestClient]) -> None:
    a, b = servers
    aiko = sign_up(a, "Aiko")
    game_id, token_a = signed_in_game(a, aiko, target=31)
    play_out(a, game_id, [token_a, None])
    token_b = opened(b, sign_in(b, "Aiko"), game_id)
    assert get(b, game_id, token_b)["over"] is True
    record = b.get(f"/api/games/{game_id}/record", headers=auth(token_b))
    assert (
        record.status_code == 200
        and record.json() == a.get(f"/api/games/{game_id}/record", headers=auth(token_a)).json()
    )
    # The key plays the rematch too, as the seat's token does.
    again = b.post(f"/api/games/{game_id}/rematch", headers=auth(token_b))
    assert again.status_code == 200, again.text
    assert get(a, again.json()["id"], token_b)["seat"] == 0


def test_a_seat_keeps_its_newest_keys(servers: tuple[TestClient, TestClient]) -> None:
    a, _b = servers
    aiko = sign_up(a, "Aiko")
    game_id, _token = signed_in_game(a, aiko)
    keys = [opened(a, aiko, game_id) for _ in range(MAX_KEYS + 1)]
    refused(a.get(f"/api/games/{game_id}", headers=auth(keys[0])), 401, "unauthorized")
    assert all(get(a, game_id, key)["seat"] == 0 for key in keys[1:])


def test_a_pruned_games_keys_are_gone(servers: tuple[TestClient, TestClient]) -> None:
    a, _b = servers
    aiko = sign_up(a, "Aiko")
    game_id, _token = signed_in_game(a, aiko)
    opened(a, aiko, game_id)
    storage = a.app.state.service.storage  # type: ignore[attr-defined]
    with storage.engine.connect() as conn:
        assert conn.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(seat_keys)).scalar() == 1
    later = storage.now() + timedelta(days=3)
    assert storage.pruning.prune(keep_days=1, keep_finished_days=1, now=later).ids == (game_id,)
    with storage.engine.connect() as conn:
        assert conn.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(seat_keys)).scalar() == 0
    refused(open_game(a, aiko, game_id), 404, "not_found")


def test_leaving_on_the_live_socket_closes_the_other_browsers(servers: tuple[TestClient, TestClient]) -> None:
    a, _b = servers
    aiko = sign_up(a, "Aiko")
    made = a.post("/api/games", headers=auth(aiko), json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    game_id, token_a = made.json()["id"], made.json()["token"]
    code = made.json()["invites"][0]["code"]
    assert a.post("/api/join", json={"code": code, "name": "Bo"}).status_code == 201
    token_b = opened(a, sign_in(a, "Aiko"), game_id)
    with ExitStack() as stack:
        here, there = connect(stack, a, game_id, token_a), connect(stack, a, game_id, token_b)
        assert receive(here)["state"]["seat"] == receive(there)["state"]["seat"] == 0
        there.send_json({"type": "leave"})  # browser B leaves, with its key
        message = receive(here)
        while message["type"] == "state":
            message = receive(here)
        assert message["code"] == "unauthorized"  # browser A's socket hears its seat is gone
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(here)
        assert closed.value.code == 1008
