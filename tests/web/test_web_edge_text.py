"""Text no database stores is refused at the edge (issue 41, item 2): the probe's requests with a
NUL byte, which were 500s with a traceback on PostgreSQL, are ``422 bad_text``, on SQLite and
PostgreSQL alike; a lone surrogate too; a fault of the server closes its connection; profiles and
leaderboards are limited per address.  The fuzz of every field is tests/web/test_web_text_fuzz.py."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import auth, make_app, new_game


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    with TestClient(make_app(url, limits=NO_LIMITS), raise_server_exceptions=False) as running:
        yield running


def test_the_probes_nul_requests_are_refused_bad_text(client: TestClient) -> None:
    game_id, token, _ = new_game(client, clock=3600)
    subscription = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/a\x00b",
        "keys": {"p256dh": "BA", "auth": "AA"},
    }
    answers = [
        client.get("/api/players/a%00b"),
        client.post("/api/accounts/signin", json={"name": "a\x00b", "password": "whatever it is"}),
        client.post(f"/api/games/{game_id}/push", json=subscription, headers=auth(token)),
        client.post("/api/games", json={"names": ["a\x00"]}),
        client.get("/api/leaderboard/short?x=%00"),
        client.get(f"/api/games/{game_id}", headers={"authorization": "Bearer a\x00b"}),
    ]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.json() == {
            "error": "text may not hold a NUL character or a lone surrogate",
            "code": "bad_text",
        }


def test_a_lone_surrogate_in_json_is_refused_bad_text(client: TestClient) -> None:
    for path, body in (
        ("/api/games", b'{"names": ["a\\ud800"]}'),
        ("/api/accounts", b'{"name": "\\udfff", "password": "a long password"}'),
        ("/api/join", b'{"code": "ABCDEF", "name": "x", "\\ud800": 1}'),  # a key too
    ):
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_text"), answer.text
    pair = client.post(  # a surrogate pair is one character, not a lone surrogate
        "/api/games",
        content=b'{"names": ["Ai\\ud835\\udc00ko"]}',
        headers={"content-type": "application/json"},
    )
    assert pair.status_code < 500 and pair.json().get("code") != "bad_text", pair.text  # the name rule's


def test_a_fault_of_the_server_closes_the_connection() -> None:
    """A 500 leaves nothing half-done on a kept-alive connection: the answer says
    ``Connection: close`` and uvicorn (as ``cribbage serve`` runs it, over loopback here) closes
    the connection after it."""
    app = make_app()

    @app.get("/api/broken")
    def broken() -> None:
        raise RuntimeError("a fault")

    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", http="httptools")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"GET /api/broken HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            answer = b""
            while chunk := conn.recv(65536):  # until the server closes the connection
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 500 ") and b"\r\nconnection: close" in head.lower()
        assert b'"code":"internal"' in body
    finally:
        server.should_exit = True
        thread.join(10)


def test_profiles_and_leaderboards_are_limited_per_address() -> None:
    with TestClient(make_app(limits={"players": "3/minute"})) as client:
        answers = [client.get("/api/players/Nobody").status_code for _ in range(3)]
        answers.append(client.get("/api/leaderboard/short").status_code)
        assert answers == [404, 404, 404, 429]
        refused = client.get("/api/players/Nobody")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        assert int(refused.headers["retry-after"]) > 0
