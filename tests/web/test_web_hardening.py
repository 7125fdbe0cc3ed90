"""Web hardening (issue 17, item 4): the security headers, HEAD, compression, caching, the
allowed hosts, the health endpoint and the deadline on slow request bodies.

The page itself is checked against its Content-Security-Policy in Chromium in
``test_web_page_csp.py``.
"""

from __future__ import annotations

import contextlib
import gzip
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from cribbage.web.hardening import CSP, Hardening, default_hosts, parse_hosts
from e2e_helpers import running_server
from web_fixtures import make_app, make_client, new_game


def test_every_answer_carries_the_csp_and_the_permissions_policy() -> None:
    client = make_client()
    for path in ("/", "/howto", "/static/game/app.js", "/api/variants", "/api/health", "/api/no-such"):
        headers = client.get(path).headers
        assert headers["content-security-policy"] == CSP, path
        assert "camera=()" in headers["permissions-policy"], path
    assert "script-src 'self'" in CSP and "'unsafe-inline'" not in CSP.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in CSP


def test_the_page_has_no_inline_script_or_event_handler() -> None:
    import re

    from cribbage.web import STATIC_DIR

    for name in ("index.html", "howto.html"):
        html = (STATIC_DIR / name).read_text()
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S | re.I):
            assert not script.strip(), f"inline script in {name}"
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), f"inline event handler in {name}"
        assert "javascript:" not in html.lower()


def test_text_answers_are_gzipped_when_the_client_accepts_it() -> None:
    client = make_client()
    for path in ("/", "/static/game/app.js", "/static/shared/style.css", "/api/variants"):
        plain = client.get(path, headers={"accept-encoding": "identity"})
        zipped = client.get(path, headers={"accept-encoding": "gzip"})
        assert "content-encoding" not in plain.headers, path
        assert zipped.headers["content-encoding"] == "gzip", path
        assert "accept-encoding" in zipped.headers["vary"].lower()
        assert zipped.content == plain.content  # httpx undoes the gzip
        # What came over the wire (a file of over 64 KiB is sent in chunks, with no length).
        assert zipped.num_bytes_downloaded < len(plain.content) / 2, path


def test_answers_carrying_a_token_are_not_compressed() -> None:
    """POST answers hold fresh secret tokens beside chosen text: no gzip (BREACH)."""
    client = make_client()
    response = client.post(
        "/api/games", json={"names": ["x" * 20], "seed": 1}, headers={"accept-encoding": "gzip"}
    )
    assert response.status_code == 201
    assert "content-encoding" not in response.headers


def test_head_is_answered_wherever_get_is() -> None:
    client = make_client()
    game_id, token, _ = new_game(client, seed=3)
    for path, headers in (
        ("/", {}),
        ("/howto", {}),
        ("/join/ABCDEF", {}),
        ("/static/game/app.js", {}),
        ("/api/variants", {}),
        ("/api/lobby", {}),
        ("/api/health", {}),
        ("/openapi.json", {}),
        (f"/api/games/{game_id}", {"Authorization": f"Bearer {token}"}),
    ):
        get = client.get(path, headers=headers)
        head = client.head(path, headers=headers)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"", path
        assert head.headers["content-type"] == get.headers["content-type"], path
        # The same length, or none for both (a large file is sent gzipped in chunks).
        assert head.headers.get("content-length") == get.headers.get("content-length"), path
    # HEAD where only POST is served is refused as GET is.
    assert client.head("/api/score").status_code == 405


def test_the_api_is_never_cached_and_static_files_revalidate() -> None:
    client = make_client()
    assert client.get("/api/variants").headers["cache-control"] == "no-store"
    assert client.get("/api/health").headers["cache-control"] == "no-store"
    assert client.get("/").headers["cache-control"] == "no-cache"
    first = client.get("/static/game/app.js")
    assert first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = client.get("/static/game/app.js", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""


def test_the_health_endpoint_checks_the_database(tmp_path: Path) -> None:
    client = make_client()
    response = client.get("/api/health")
    assert response.status_code == 200 and response.json() == {"ok": True}
    # A database that cannot be reached: 503.
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}")
    app.state.service.storage.engine = create_engine("sqlite:////nonexistent-folder/x/games.db")
    broken = TestClient(app).get("/api/health")
    assert broken.status_code == 503 and broken.json()["ok"] is False


def test_only_the_allowed_hosts_are_answered() -> None:
    client = TestClient(make_app(hardening=Hardening(allowed_hosts=("cribbage.example.org",))))
    ok = client.get("/api/variants", headers={"host": "cribbage.example.org"})
    assert ok.status_code == 200
    wrong = client.get("/api/variants", headers={"host": "evil.example.com"})
    assert wrong.status_code == 400
    wrong_page = client.get("/", headers={"host": "evil.example.com:8000"})
    assert wrong_page.status_code == 400
    # A load balancer probes a process by its address.
    assert client.get("/api/health", headers={"host": "10.0.0.5:8000"}).status_code == 200


def test_the_default_hosts_are_the_local_names_and_the_listening_address() -> None:
    assert default_hosts("127.0.0.1") == ("localhost", "127.0.0.1", "[::1]")
    assert default_hosts("192.168.1.20") == ("localhost", "127.0.0.1", "[::1]", "192.168.1.20")
    assert default_hosts("0.0.0.0") == default_hosts("::") == ("localhost", "127.0.0.1", "[::1]")
    assert default_hosts("fd00::5") == ("localhost", "127.0.0.1", "[::1]", "[fd00::5]")
    assert parse_hosts(" A.example , [::1],,*.b.org, fd00::5") == (
        "a.example",
        "[::1]",
        "*.b.org",
        "[fd00::5]",
    )
    client = TestClient(make_app(hardening=Hardening(allowed_hosts=default_hosts("127.0.0.1"))))
    for host in ("localhost:8000", "LOCALHOST", "127.0.0.1:80", "[::1]:8000", "[::1]"):
        assert client.get("/api/variants", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "127.0.0.2", "[::2]", "localhost.evil.example"):
        assert client.get("/api/variants", headers={"host": host}).status_code == 400, host


@contextlib.contextmanager
def _uvicorn(app: object, **config: object) -> Iterator[int]:
    """The application in uvicorn in a thread, on a free port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_keep_alive=2, **config))  # type: ignore[arg-type]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def _read_all(conn: socket.socket, limit: float) -> bytes:
    conn.settimeout(limit)
    data = b""
    with contextlib.suppress(TimeoutError):
        while chunk := conn.recv(65536):
            data += chunk
    return data


def test_a_half_sent_body_is_refused_after_the_deadline_and_the_connection_closed() -> None:
    app = make_app(hardening=Hardening(body_timeout=1.0))
    with _uvicorn(app) as port:
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n" + b'{"hand": ["5H", '
            )
            answer = _read_all(conn, 10)  # ends when the server closes the connection
        took = time.monotonic() - started
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"too long" in answer
        assert 0.8 < took < 5, took
        # A whole body sent slowly but within the deadline is answered.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            body = b'{"hand": ["5H", "5C", "5S", "JD"], "starter": "5D"}'
            conn.sendall(
                b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10]
            )
            time.sleep(0.3)
            conn.sendall(body[10:])
            answer = _read_all(conn, 10)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b'"total":29' in answer.replace(b" ", b"")


def test_cribbage_serve_refuses_other_hosts_and_answers_health_and_head(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    with running_server(tmp_path / "games.db") as base:
        with urllib.request.urlopen(f"{base}/api/health", timeout=10) as response:
            assert response.status == 200
        request = urllib.request.Request(f"{base}/", method="HEAD")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200 and response.read() == b""
        request = urllib.request.Request(f"{base}/api/variants", headers={"Host": "evil.example.com"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        # The page's gzip reaches a real client.
        request = urllib.request.Request(f"{base}/static/game/app.js", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers["content-encoding"] == "gzip"
            assert b"import" in gzip.decompress(response.read())


def test_a_half_sent_head_or_a_silent_connection_is_closed_after_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cribbage.web.hardening import HEADER_TIMEOUT_ENV, HeaderDeadlineProtocol

    monkeypatch.setenv(HEADER_TIMEOUT_ENV, "1")
    with _uvicorn(make_app(), http=HeaderDeadlineProtocol) as port:
        for sent in (b"", b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "):
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.sendall(sent)
                answer = _read_all(conn, 10)
            took = time.monotonic() - started
            assert answer.startswith(b"HTTP/1.1 408") or answer == b"", answer[:100]
            assert 0.8 < took < 5, (sent, took)
        # A kept-alive connection answers, then the next request's head has its deadline too.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            conn.settimeout(5)
            first = b""
            while not first.endswith(b'{"ok":true}'):  # the head and the body may come apart
                chunk = conn.recv(65536)
                assert chunk, first
                first += chunk
            assert first.startswith(b"HTTP/1.1 200")
            started = time.monotonic()
            conn.sendall(b"GET /api/health HTTP/1.1\r\n")
            answer = _read_all(conn, 10)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
            assert time.monotonic() - started < 5


def test_the_live_websocket_outlives_the_header_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import json

    import websockets

    from cribbage.web.hardening import HEADER_TIMEOUT_ENV, HeaderDeadlineProtocol

    monkeypatch.setenv(HEADER_TIMEOUT_ENV, "0.5")
    app = make_app()
    client = TestClient(app)
    game_id, token, _ = new_game(client, seed=5)
    with _uvicorn(app, http=HeaderDeadlineProtocol) as port:

        async def talk() -> dict[str, object]:
            async with websockets.connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/live") as ws:
                await ws.send(json.dumps({"token": token}))
                first = json.loads(await ws.recv())
                await asyncio.sleep(1.5)  # past the header deadline
                await ws.send(json.dumps({"token": token, "type": "nonsense"}))
                second = json.loads(await ws.recv())
                return {"first": first["type"], "second": second["type"]}

        assert asyncio.run(talk()) == {"first": "state", "second": "error"}
