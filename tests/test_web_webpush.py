"""Web Push (docs/api.md, "Web Push"; the live sockets' push is tests/test_web_push.py): a seat of
a correspondence game opts in, and when a stored change makes it that seat's turn, the server
sends one notice to its push service.

Nothing is mocked: a local HTTP server plays the push service (it receives the POST at the
subscription's endpoint), the browser's keys are a real P-256 pair and auth secret, and the test
decrypts the payload (RFC 8291, ``aes128gcm``) with them, as the browser would.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient

from cribbage.storage import Storage
from web_fixtures import TWO_PEOPLE, act_first, auth, get, make_app, table

DAY = 86_400
WAIT = 15.0


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class PushService:
    """A push service on localhost: every POST it receives, answered with ``status``."""

    url: str
    received: queue.Queue[tuple[str, dict[str, str], bytes]] = field(default_factory=queue.Queue)
    status: int = 201

    def next(self) -> tuple[str, dict[str, str], bytes]:
        return self.received.get(timeout=WAIT)

    def nothing(self, seconds: float = 0.5) -> bool:
        try:
            self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        return False


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            service.received.put((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(service.status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = PushService(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield service
    server.shutdown()
    server.server_close()


@dataclass
class Browser:
    """A browser's push subscription: its own key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def json(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.secret)},
        }

    def read(self, body: bytes) -> Any:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """A server on SQLite or PostgreSQL (the opt-ins' told flag is one conditional statement)."""
    url = "sqlite://" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    with TestClient(make_app(url, computer="weak", push_insecure=True)) as running:
        yield running


def subscribe(client: TestClient, game_id: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game_id}/push", json=body, headers=auth(token))


def turn_of(client: TestClient, game_id: str, tokens: list[str], seat: int) -> dict[str, Any]:
    """The others act until it is ``seat``'s turn; its state."""
    while (state := get(client, game_id, tokens[0]))["view"]["to_act"] != seat:
        act_first(client, game_id, tokens[state["view"]["to_act"]])
    return state


def test_the_seat_whose_turn_it_becomes_is_told_once_and_a_gone_subscription_is_removed(
    client: TestClient, push_service: PushService
) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    served = client.get("/api/push/key").json()
    key = served["key"]
    assert served["correspondence"] == 3600
    assert len(base64.urlsafe_b64decode(key + "=")) == 65
    game_id, tokens, _ = table(client, clock=DAY)
    first = get(client, game_id, tokens[0])["view"]["to_act"]
    waiter = 1 - first
    browser = Browser(f"{push_service.url}/send/{waiter}")
    opted = subscribe(client, game_id, tokens[waiter], browser.json())
    assert opted.status_code == 200, opted.text
    assert opted.json() == {"subscribed": True, "seat": waiter}

    state = turn_of(client, game_id, tokens, waiter)
    path, headers, body = push_service.next()
    assert path == f"/send/{waiter}"
    assert headers["content-encoding"] == "aes128gcm"
    assert f"k={key}" in headers["authorization"]  # signed with the server's VAPID key
    assert browser.read(body) == {
        "type": "your_turn",
        "game": game_id,
        "seat": waiter,
        "version": state["version"],
    }
    seen = client.post(
        f"/api/games/{game_id}/seen", json={"version": state["version"]}, headers=auth(tokens[waiter])
    )
    assert seen.status_code == 200  # a stored change, the same turn: no second notice
    assert push_service.nothing()

    act_first(client, game_id, tokens[waiter])
    push_service.status = 410  # the browser dropped the subscription
    turn_of(client, game_id, tokens, waiter)
    assert browser.read(push_service.next()[2])["type"] == "your_turn"  # told again: a new turn
    for _ in range(100):
        if not storage.subscriptions(game_id):
            break
        threading.Event().wait(0.05)
    assert storage.subscriptions(game_id) == []


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert "javascript" in worker.headers["content-type"]
    assert "notificationclick" in worker.text


def test_opting_out_stops_the_notices(client: TestClient, push_service: PushService) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=3 * DAY)
    waiter = 1 - get(client, game_id, tokens[0])["view"]["to_act"]
    assert (
        subscribe(client, game_id, tokens[waiter], Browser(f"{push_service.url}/x").json()).status_code == 200
    )
    assert [sub.seat for sub in storage.subscriptions(game_id)] == [waiter]
    off = client.delete(f"/api/games/{game_id}/push", headers=auth(tokens[waiter]))
    assert off.status_code == 200 and off.json() == {"subscribed": False, "seat": None}
    turn_of(client, game_id, tokens, waiter)
    assert push_service.nothing()


def test_what_is_refused(client: TestClient) -> None:
    game_id, tokens, _ = table(client, clock=DAY)
    good = Browser("https://push.example.net/send/1").json()
    assert subscribe(client, game_id, "nope", good).status_code == 401
    wrong = {
        "endpoint": [{**good, "endpoint": "ftp://push.example.net/x"}, {**good, "endpoint": "https://"}],
        "p256dh": [{**good, "keys": {**good["keys"], "p256dh": b64(b"\x04" + bytes(10))}}],
        "auth": [{**good, "keys": {**good["keys"], "auth": b64(bytes(8))}}],
    }
    for name, bodies in wrong.items():
        for body in bodies:
            refused = subscribe(client, game_id, tokens[0], body)
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "push.bad_subscription" and refused.json()["field"] == name
    too_long = subscribe(client, game_id, tokens[0], {**good, "endpoint": "https://p.example/" + "x" * 1100})
    assert too_long.status_code == 422
    quick_id, quick_tokens, _ = table(client, clock=120)
    refused = subscribe(client, quick_id, quick_tokens[0], good)
    assert refused.status_code == 409 and refused.json()["code"] == "push.not_correspondence"


def test_http_endpoints_need_the_insecure_setting() -> None:
    with TestClient(make_app(computer="weak")) as client:
        game_id, tokens, _ = table(client, seats=TWO_PEOPLE, clock=DAY)
        refused = subscribe(client, game_id, tokens[0], Browser("http://127.0.0.1:9/x").json())
        assert refused.status_code == 422 and refused.json()["field"] == "endpoint"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_server_key_is_made_once_whoever_asks_first(
    database: str, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """Several processes start at once on one database: the first key stored is everyone's."""
    url = (
        f"sqlite:///{tmp_path / 'games.db'}"
        if database == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    storages = [Storage(url) for _ in range(4)]
    try:
        with ThreadPoolExecutor(4) as pool:
            keys = list(pool.map(lambda i: storages[i].server_key("race", lambda: f"key-{i}"), range(4)))
        assert len(set(keys)) == 1 and keys[0].startswith("key-")
        assert storages[0].server_key("race", lambda: "later") == keys[0]
    finally:
        for storage in storages:
            storage.close()
    with TestClient(make_app(url)) as one, TestClient(make_app(url)) as two:
        assert one.get("/api/push/key").json() == two.get("/api/push/key").json()


def test_a_pruned_game_takes_its_opt_ins_along(client: TestClient) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=DAY)
    assert (
        subscribe(client, game_id, tokens[1], Browser("https://push.example.net/p").json()).status_code == 200
    )
    later = datetime.now(UTC) + timedelta(days=400)
    assert game_id in client.app.state.service.prune(keep_days=30, keep_finished_days=0, now=later).ids  # type: ignore[attr-defined]
    assert storage.subscriptions(game_id) == []
