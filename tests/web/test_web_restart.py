"""A real ``cribbage serve`` killed with SIGKILL mid-game loses nothing when started again."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cribbage.engine.record import Game
from e2e_helpers import free_port
from web_fixtures import actions_of

STARTUP_TIMEOUT = 30.0


@contextmanager
def serving(command: list[str], port: int) -> Iterator[subprocess.Popen[str]]:
    """Run a server ``command`` and wait until it answers on ``port`` (``/api/health``); kill it
    (SIGKILL) on the way out."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                request(port, "GET", "/api/health")
                break
            except OSError:
                if process.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                process.kill()  # what it wrote ends only when it does
                raise AssertionError(f"the server did not start: {process.communicate()[1]}") from None
        yield process
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def serve(db: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    """``cribbage serve`` on ``db``, answering, having said where to open the page."""
    command = [sys.executable, "-m", "cribbage", "serve", "--port", str(port), "--db", str(db)]
    with serving(command, port) as process:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"Open http://127.0.0.1:{port} in your browser" in line, line
        yield process


def request(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One HTTP request on loopback; returns the status and the JSON answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


@pytest.mark.slow
def test_a_game_survives_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    rng = random.Random(4)
    with serve(db, port) as first:
        status, created = request(
            port, "POST", "/api/games", {"level": "weak", "manual": True, "muggins": True}
        )
        assert status == 201
        game_id, token, state = created["id"], created["token"], created["state"]
        for _ in range(12):
            status, state = request(
                port, "POST", f"/api/games/{game_id}/actions", rng.choice(actions_of(state)), token
            )
            assert status == 200
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    with serve(db, port):
        status, again = request(port, "GET", f"/api/games/{game_id}", token=token)
        assert status == 200 and again == state
        while not state["over"]:
            action = {**rng.choice(actions_of(state)), "version": state["version"]}
            status, state = request(port, "POST", f"/api/games/{game_id}/actions", action, token)
            assert status == 200, state
        status, record = request(port, "GET", f"/api/games/{game_id}/record", token=token)
        assert status == 200
        assert Game.from_json(record).result.to_json() == state["result"]  # type: ignore[union-attr]


def test_the_listening_socket_names_tcp_so_small_answers_are_not_delayed() -> None:
    # asyncio turns Nagle's algorithm off on accepted connections only when the listening socket
    # says IPPROTO_TCP; otherwise every answer waits ~40 ms for a delayed acknowledgement.
    from cribbage.cli.serve import _listen

    sock = _listen("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
