"""Web Push (docs/api.md, "Web Push"; the live sockets' fan-out is tests/web/test_web_fanout.py): a seat of
a correspondence game opts in, and when a stored change makes it that seat's turn, the server
sends one notice to its push service, and to nothing else (issue 41: no request for a stranger).

Nothing is mocked but the names: a local HTTPS server plays the push service (its certificate,
made here with ``cryptography``, is for the name ``push.test``, and the server trusts it by the
``ca_file`` setting); the browser's keys are a real P-256 pair and auth secret, and the test
decrypts the payload (RFC 8291, ``aes128gcm``) with them, as the browser would.  The names
``*.test`` resolve (by the server's resolver, replaced here) to loopback addresses, which the
server reaches only with ``private`` allowed.  Every other address is tested as a refusal,
never by sending to it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient
from sqlalchemy import select

from cribbage.app.notify.endpoints import PushRules, endpoint_of
from cribbage.storage import Storage
from cribbage.storage.tables import push_subscriptions
from cribbage.web.ratelimits import NO_LIMITS
from cribbage.web.webpush import PinnedSender, PushFailed, WebPush
from web_fixtures import act_first, auth, get, make_app, table

DAY = 86_400
WAIT = 15.0
NAMES = ("push.test", "hole.test", "other.test")
"""The push services' names here (``*.test``: never a real name, RFC 2606)."""


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# --------------------------------------------------------------------------- certificates


@dataclass(frozen=True)
class Certificates:
    ca_file: str
    """The authority the server is told to trust."""
    cert_file: str
    key_file: str
    """The push services' certificate (for :data:`NAMES`) and its key."""


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    """A certificate authority of the test's own, and a certificate it signed for :data:`NAMES`."""
    folder = tmp_path_factory.mktemp("push-tls")
    now = datetime.now(UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("push test authority"))
        .issuer_name(_name("push test authority"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(NAMES[0]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name) for name in NAMES]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = Certificates(str(folder / "ca.pem"), str(folder / "cert.pem"), str(folder / "key.pem"))
    Path(paths.ca_file).write_bytes(ca.public_bytes(Encoding.PEM))
    Path(paths.cert_file).write_bytes(cert.public_bytes(Encoding.PEM))
    Path(paths.key_file).write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return paths


# --------------------------------------------------------------------------- push services


@dataclass
class PushService:
    """A push service on a loopback address over TLS: every POST it receives, answered with
    ``status`` (and ``location``, for a redirect); ``connections`` counts the connections it
    accepted."""

    host: str
    port: int
    received: queue.Queue[tuple[str, dict[str, str], bytes]] = field(default_factory=queue.Queue)
    status: int = 201
    location: str | None = None
    connections: int = 0

    def url(self, name: str, path: str) -> str:
        return f"https://{name}:{self.port}{path}"

    def next(self) -> tuple[str, dict[str, str], bytes]:
        return self.received.get(timeout=WAIT)

    def nothing(self, seconds: float = 0.5) -> bool:
        try:
            self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        return False


@dataclass
class Running:
    start: Callable[[str, int], PushService]
    """A push service at a loopback address (and port: 0, any)."""


@pytest.fixture
def push_services(certificates: Certificates) -> Iterator[Running]:
    """Starts push services over TLS with the certificate for :data:`NAMES`; stops them after."""
    servers: list[ThreadingHTTPServer] = []

    def start(host: str, port: int = 0) -> PushService:
        service: PushService

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                service.received.put((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                if service.location:
                    self.send_header("location", service.location)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def get_request(self) -> tuple[Any, Any]:
                service.connections += 1
                return super().get_request()

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certificates.cert_file, certificates.key_file)
        server = Server((host, port), Handler)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        servers.append(server)
        service = PushService(host, server.server_address[1])
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return service

    yield Running(start)
    for server in servers:
        server.shutdown()
        server.server_close()


class BlackHole:
    """A push service that accepts connections, reads what comes, and never answers."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.released = False
        self.accepted = threading.Semaphore(0)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # released
            conn.settimeout(WAIT)
            if self.released:
                conn.close()
                continue
            with contextlib.suppress(OSError):
                conn.recv(65536)  # the TLS hello, left unanswered
            self.held.append(conn)
            self.accepted.release()

    def waiting(self) -> int:
        """The connections whose sender still waits (has not closed its side)."""
        count = 0
        for conn in self.held:
            conn.setblocking(False)
            try:
                if conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                    count += 1
            except BlockingIOError:
                count += 1
            except OSError:
                pass
        return count

    def release(self) -> None:
        """Connections are closed, new ones refused."""
        self.released = True
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self.listener.close()
        for conn in self.held:
            conn.close()


class Resolver:
    """The server's resolver here: the names of :data:`NAMES` to loopback addresses."""

    def __init__(self, addresses: dict[str, str]) -> None:
        self.addresses = addresses
        self.asked: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host not in self.addresses:
            raise socket.gaierror(socket.EAI_NONAME, "unknown")
        return [self.addresses[host]]


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


def serve(
    url: str, certificates: Certificates, resolver: Resolver, ports: tuple[int, ...], **rules: Any
) -> TestClient:
    """A server whose push services are :data:`NAMES` at ``ports`` of loopback addresses
    (``private`` allowed unless ``rules`` say otherwise), trusting the test's certificates."""
    push = PushRules(
        **{"hosts": NAMES, "ports": ports, "private": True, "ca_file": certificates.ca_file, **rules}
    )
    app = make_app(url, computer="weak", push=push, limits=NO_LIMITS)
    web_push: WebPush = app.state.web_push
    web_push.sender.resolver = resolver
    return TestClient(app)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str:
    """SQLite or PostgreSQL (the opt-ins' told flag and failures are conditional statements)."""
    return "sqlite://" if request.param == "sqlite" else str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def push_service(push_services: Running) -> PushService:
    return push_services.start("127.0.0.1", 0)


@pytest.fixture
def client(database: str, certificates: Certificates, push_service: PushService) -> Iterator[TestClient]:
    resolver = Resolver({"push.test": "127.0.0.1"})
    with serve(database, certificates, resolver, (push_service.port,)) as running:
        yield running


def subscribe(client: TestClient, game_id: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game_id}/push", json=body, headers=auth(token))


def act_decided(client: TestClient, game_id: str, token: str) -> None:
    """The seat acts, and the server decides whom to tell of it before anyone acts again (as
    on a quiet machine: a notice is decided from the game as it is when its worker runs)."""
    act_first(client, game_id, token)
    web_push: WebPush = client.app.state.web_push  # type: ignore[attr-defined]
    web_push.decided()


def turn_of(client: TestClient, game_id: str, tokens: list[str], seat: int) -> dict[str, Any]:
    """The others act until it is ``seat``'s turn; its state."""
    while (state := get(client, game_id, tokens[0]))["view"]["to_act"] != seat:
        act_decided(client, game_id, tokens[state["view"]["to_act"]])
    return state


def next_turn(client: TestClient, game_id: str, tokens: list[str], seat: int) -> dict[str, Any]:
    """``seat`` acts while it is its turn, and the others until it is its turn again (a new turn:
    the seat is told again)."""
    while get(client, game_id, tokens[0])["view"]["to_act"] == seat:
        act_decided(client, game_id, tokens[seat])
    return turn_of(client, game_id, tokens, seat)


def waiting_seat(client: TestClient, game_id: str, tokens: list[str]) -> int:
    return 1 - int(get(client, game_id, tokens[0])["view"]["to_act"])


def eventually(check: Callable[[], bool]) -> bool:
    for _ in range(int(WAIT / 0.05)):
        if check():
            return True
        threading.Event().wait(0.05)
    return check()


def failures(storage: Storage, game_id: str) -> list[int]:
    table = push_subscriptions
    with storage.engine.connect() as conn:
        query = select(table.c.failures).where(table.c.game_id == game_id).order_by(table.c.seat)
        return [row[0] for row in conn.execute(query)]


def test_the_seat_whose_turn_it_becomes_is_told_once_and_a_gone_subscription_is_removed(
    client: TestClient, push_service: PushService
) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    served = client.get("/api/push/key").json()
    key = served["key"]
    assert served["correspondence"] == 3600
    assert len(base64.urlsafe_b64decode(key + "=")) == 65
    game_id, tokens, _ = table(client, clock=DAY)
    waiter = waiting_seat(client, game_id, tokens)
    browser = Browser(push_service.url("push.test", f"/send/{waiter}?x=1"))
    opted = subscribe(client, game_id, tokens[waiter], browser.json())
    assert opted.status_code == 200, opted.text
    assert opted.json() == {"subscribed": True, "seat": waiter}

    state = turn_of(client, game_id, tokens, waiter)
    path, headers, body = push_service.next()
    assert path == f"/send/{waiter}?x=1"
    assert headers["host"] == f"push.test:{push_service.port}"  # the name, over TLS checked for it
    assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == "86400"
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
    assert failures(storage, game_id) == [0]

    push_service.status = 410  # the browser dropped the subscription
    next_turn(client, game_id, tokens, waiter)
    assert browser.read(push_service.next()[2])["type"] == "your_turn"  # told again: a new turn
    assert eventually(lambda: not storage.push.subscriptions(game_id))  # at once, not after failures


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert "javascript" in worker.headers["content-type"]
    assert "notificationclick" in worker.text


def test_opting_out_stops_the_notices(client: TestClient, push_service: PushService) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=3 * DAY)
    waiter = waiting_seat(client, game_id, tokens)
    browser = Browser(push_service.url("push.test", "/x"))
    assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
    assert [sub.seat for sub in storage.push.subscriptions(game_id)] == [waiter]
    off = client.delete(f"/api/games/{game_id}/push", headers=auth(tokens[waiter]))
    assert off.status_code == 200 and off.json() == {"subscribed": False, "seat": None}
    turn_of(client, game_id, tokens, waiter)
    assert push_service.nothing()


# The probe's endpoints (issue 41), and the other spellings of an address; none is ever sent to.
FORGED = {
    "https://127.0.0.1:9443/x": "address",
    "https://localhost/x": "host_not_allowed",
    "https://169.254.169.254/latest/meta-data/": "address",
    "https://[::1]/x": "address",
    "https://[::ffff:127.0.0.1]/x": "address",
    "https://10.0.0.1/x": "address",
    "https://metadata.google.internal/computeMetadata/v1/": "host_not_allowed",
    "https://2130706433/x": "address",
    "https://0x7f000001/x": "address",
    "https://0177.0.0.1/x": "address",
    "https://127.1/x": "address",
    "https://user:pass@127.0.0.1/x": "userinfo",
    "https://user:pass@fcm.googleapis.com/fcm/send/x": "userinfo",
    "https://fcm.googleapis.com@127.0.0.1/x": "userinfo",
    "http://fcm.googleapis.com/fcm/send/x": "not_https",
    "ftp://fcm.googleapis.com/x": "not_https",
    "https://fcm.googleapis.com:8443/fcm/send/x": "port_not_allowed",
    "https://fcm.googleapis.com.evil.example/x": "host_not_allowed",
    "https://evil.example/fcm.googleapis.com": "host_not_allowed",
    "https://notify.windows.com/x": "host_not_allowed",
    "https://": "host_not_allowed",
    "https://fcm.googleapis.com/fcm/send/" + "x" * 1000: "too_long",
}


def test_endpoints_anywhere_but_the_browsers_push_services_are_refused(database: str) -> None:
    resolver = Resolver({})
    app = make_app(database, computer="weak", limits=NO_LIMITS)  # the default rules
    app.state.web_push.sender.resolver = resolver
    with TestClient(app) as client:
        storage = client.app.state.service.storage  # type: ignore[attr-defined]
        game_id, tokens, _ = table(client, clock=DAY)
        for url, reason in FORGED.items():
            refused = subscribe(client, game_id, tokens[0], Browser(url).json())
            assert refused.status_code == 422, (url, refused.text)
            assert refused.json()["code"] == "push.bad_endpoint", url
            assert refused.json()["reason"] == reason, url
        assert storage.push.subscriptions(game_id) == []
        for url in (
            "https://fcm.googleapis.com/fcm/send/abc:APA91b",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
            "https://web.push.apple.com/QGuQyavXutnMH",
        ):  # the browsers' own: taken, and never sent to here (nobody's turn comes)
            taken = subscribe(client, game_id, tokens[0], Browser(url).json())
            assert taken.status_code == 200, (url, taken.text)
        assert resolver.asked == []


def test_keys_that_are_not_a_browsers_are_refused(client: TestClient, push_service: PushService) -> None:
    game_id, tokens, _ = table(client, clock=DAY)
    good = Browser(push_service.url("push.test", "/send/1")).json()
    assert subscribe(client, game_id, "nope", good).status_code == 401
    off_curve = b"\x04" + bytes(31) + b"\x01" + bytes(31) + b"\x01"  # (1, 1) is not on P-256
    wrong = {
        "p256dh": [
            {**good, "keys": {**good["keys"], "p256dh": b64(b"\x04" + bytes(10))}},
            {**good, "keys": {**good["keys"], "p256dh": b64(off_curve)}},
            {**good, "keys": {**good["keys"], "p256dh": b64(b"\x04" + bytes(64))}},
        ],
        "auth": [{**good, "keys": {**good["keys"], "auth": b64(bytes(8))}}],
    }
    for name, bodies in wrong.items():
        for body in bodies:
            refused = subscribe(client, game_id, tokens[0], body)
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "push.bad_subscription" and refused.json()["field"] == name
    too_long = subscribe(client, game_id, tokens[0], {**good, "endpoint": "https://push.test/" + "x" * 1100})
    assert too_long.status_code == 422
    quick_id, quick_tokens, _ = table(client, clock=120)
    refused = subscribe(client, quick_id, quick_tokens[0], good)
    assert refused.status_code == 409 and refused.json()["code"] == "push.not_correspondence"


def test_a_redirect_is_not_followed(
    client: TestClient, push_service: PushService, push_services: Running
) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    elsewhere = push_services.start("127.0.0.1", 0)
    push_service.status = 307
    push_service.location = elsewhere.url("push.test", "/latest/meta-data/iam/security-credentials/")
    game_id, tokens, _ = table(client, clock=DAY)
    waiter = waiting_seat(client, game_id, tokens)
    browser = Browser(push_service.url("push.test", "/send/1"))
    assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
    turn_of(client, game_id, tokens, waiter)
    assert push_service.next()[0] == "/send/1"
    assert eventually(lambda: failures(storage, game_id) == [1])  # a 3xx is a failure
    assert elsewhere.nothing() and elsewhere.connections == 0


def test_the_address_checked_is_the_one_connected_to(
    database: str,
    certificates: Certificates,
    push_services: Running,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name resolves to 127.0.0.1 when it is checked; resolved again (DNS rebinding), it
    would be 127.0.0.2, where another service listens at the same port: nothing goes there."""
    checked = push_services.start("127.0.0.1", 0)
    rebound = push_services.start("127.0.0.2", checked.port)
    system = socket.getaddrinfo

    def rebinding(host: Any, *args: Any, **kwargs: Any) -> Any:
        return system("127.0.0.2" if host == "push.test" else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)  # the name resolved any other way
    resolver = Resolver({"push.test": "127.0.0.1"})
    with serve(database, certificates, resolver, (checked.port,)) as client:
        game_id, tokens, _ = table(client, clock=DAY)
        waiter = waiting_seat(client, game_id, tokens)
        browser = Browser(checked.url("push.test", "/send/1"))
        assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
        for _ in range(2):
            next_turn(client, game_id, tokens, waiter)
            assert browser.read(checked.next()[2])["type"] == "your_turn"
    assert resolver.asked == ["push.test", "push.test"]  # once a notice
    assert rebound.nothing(0.1) and rebound.connections == 0


def test_a_name_at_a_private_address_is_not_connected_to(
    database: str, certificates: Certificates, push_service: PushService
) -> None:
    resolver = Resolver({"push.test": "127.0.0.1"})
    with serve(database, certificates, resolver, (push_service.port,), private=False) as client:
        storage = client.app.state.service.storage  # type: ignore[attr-defined]
        game_id, tokens, _ = table(client, clock=DAY)
        waiter = waiting_seat(client, game_id, tokens)
        browser = Browser(push_service.url("push.test", "/send/1"))
        assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
        turn_of(client, game_id, tokens, waiter)
        assert eventually(lambda: failures(storage, game_id) == [1])
    assert resolver.asked == ["push.test"]
    assert push_service.nothing(0.1) and push_service.connections == 0


def test_a_black_hole_does_not_delay_another_push_services_notices(
    certificates: Certificates, push_service: PushService
) -> None:
    """Three tables' notices go to a push service that never answers; another table's notice
    reaches its own push service while the black hole still holds the first two (at most
    ``per_host`` at once to one service: the third waits in its line, not in front of others)."""
    hole = BlackHole()
    resolver = Resolver({"push.test": "127.0.0.1", "hole.test": "127.0.0.1"})
    try:
        with serve(
            "sqlite://", certificates, resolver, (push_service.port, hole.port), timeout=WAIT * 2
        ) as client:
            storage = client.app.state.service.storage  # type: ignore[attr-defined]
            holed = []
            for n in range(3):
                game_id, tokens, _ = table(client, clock=DAY)
                waiter = waiting_seat(client, game_id, tokens)
                browser = Browser(f"https://hole.test:{hole.port}/send/{n}")
                assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
                holed.append((game_id, tokens, waiter))
            game_id, tokens, _ = table(client, clock=DAY)
            waiter = waiting_seat(client, game_id, tokens)
            browser = Browser(push_service.url("push.test", "/send/ok"))
            assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200

            for hole_id, hole_tokens, hole_waiter in holed:
                turn_of(client, hole_id, hole_tokens, hole_waiter)
            for _ in range(2):  # the black hole holds two notices before the other is due
                assert hole.accepted.acquire(timeout=WAIT)
            turn_of(client, game_id, tokens, waiter)
            assert browser.read(push_service.next()[2])["type"] == "your_turn"
            assert hole.waiting() == 2  # both still waiting for the black hole's answer
            assert len(hole.held) == 2  # the third waits in the black hole's line
            hole.release()  # the black hole goes: its notices fail
            assert eventually(lambda: all(failures(storage, g) == [1] for g, _, _ in holed))
    finally:
        hole.release()


def test_a_dead_endpoint_is_dropped_after_its_failures(client: TestClient, push_service: PushService) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    rules: PushRules = client.app.state.web_push.rules  # type: ignore[attr-defined]
    assert rules.failures == 3
    game_id, tokens, _ = table(client, clock=DAY)
    waiter = waiting_seat(client, game_id, tokens)
    browser = Browser(push_service.url("push.test", "/send/1"))
    assert subscribe(client, game_id, tokens[waiter], browser.json()).status_code == 200
    push_service.status = 500
    for count in (1, 2):
        next_turn(client, game_id, tokens, waiter)
        push_service.next()
        assert eventually(lambda: failures(storage, game_id) == [count])  # noqa: B023
    push_service.status = 201  # taken: the failures start again
    next_turn(client, game_id, tokens, waiter)
    push_service.next()
    assert eventually(lambda: failures(storage, game_id) == [0])
    push_service.status = 503
    for count in (1, 2):
        next_turn(client, game_id, tokens, waiter)
        push_service.next()
        assert eventually(lambda: failures(storage, game_id) == [count])  # noqa: B023
    next_turn(client, game_id, tokens, waiter)
    push_service.next()
    assert eventually(lambda: storage.push.subscriptions(game_id) == [])


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
            keys = list(pool.map(lambda i: storages[i].push.server_key("race", lambda: f"key-{i}"), range(4)))
        assert len(set(keys)) == 1 and keys[0].startswith("key-")
        assert storages[0].push.server_key("race", lambda: "later") == keys[0]
    finally:
        for storage in storages:
            storage.close()
    with TestClient(make_app(url)) as one, TestClient(make_app(url)) as two:
        assert one.get("/api/push/key").json() == two.get("/api/push/key").json()


def test_a_pruned_game_takes_its_opt_ins_along(client: TestClient, push_service: PushService) -> None:
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    game_id, tokens, _ = table(client, clock=DAY)
    assert (
        subscribe(client, game_id, tokens[1], Browser(push_service.url("push.test", "/p")).json()).status_code
        == 200
    )
    later = datetime.now(UTC) + timedelta(days=400)
    assert game_id in client.app.state.service.prune(keep_days=30, keep_finished_days=0, now=later).ids  # type: ignore[attr-defined]
    assert storage.push.subscriptions(game_id) == []


def test_the_operators_rules_travel_through_the_environment() -> None:
    from cribbage.web.settings import Settings

    rules = PushRules(
        hosts=("push.example.org", "*.push.example.net"), ports=(443, 8443), private=True, timeout=2.5
    )
    settings = Settings(database_url="sqlite://", push=rules)
    assert Settings.from_environment(settings.environment()).push == rules
    assert Settings.from_environment({"CRIBBAGE_SERVE_DB": "sqlite://"}).push == PushRules()


@pytest.mark.parametrize(
    "address",
    [
        *("127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1"),
        *("0.0.0.0", "240.0.0.1", "::1", "fe80::1", "fc00::1", "::ffff:169.254.169.254", "::", "ff02::1"),
    ],
)
def test_a_name_with_any_address_not_public_is_refused_before_any_connection(address: str) -> None:
    """Checked, never connected to: a name resolving to a public address and to ``address``
    is refused whole (the sender would else pick either)."""
    sender = PinnedSender(PushRules(), lambda _host, _port: ["8.8.8.8", address])
    endpoint = endpoint_of("https://fcm.googleapis.com/fcm/send/x", PushRules())
    with pytest.raises(PushFailed, match="not a"):
        sender.address(endpoint)
    assert PinnedSender(PushRules(), lambda _host, _port: ["8.8.8.8"]).address(endpoint) == "8.8.8.8"
