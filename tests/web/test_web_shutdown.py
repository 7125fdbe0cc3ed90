"""An application always shuts down: its background loops end even when their cancellation is
lost (Python 3.11's ``asyncio.wait_for``, which the Redis client wraps each command in, returns
the command's result instead of raising when the task is cancelled as the command completes;
``cribbage.web.background``).  Each shutdown here runs in a thread given a bound, so a test that
would hang fails instead, naming the shutdown."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cribbage.app.playnow.matchmaking import Pairing
from cribbage.app.playnow.orchestrator import QUEUES
from cribbage.web.messaging.queue import MemoryMatchQueue
from cribbage.web.ratelimits import NO_LIMITS
from service_urls import REDIS_URL
from web_fixtures import auth, make_app

BOUND = 60.0
"""Seconds a shutdown may take before the test fails (they take a fraction of a second)."""


def within_bound(step: Callable[[], Any]) -> None:
    """Run ``step`` in a thread; fail if it has not ended within :data:`BOUND`."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            step()
        except BaseException as exc:  # the test's thread raises it
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND)
    assert not thread.is_alive(), f"the application did not shut down within {BOUND} s"
    if failed:
        raise failed[0]


class LosesItsCancellation(MemoryMatchQueue):
    """A queue whose every pairing round loses a cancellation arriving during it, as the Redis
    client's commands do on Python 3.11 when the cancellation meets the command's completion."""

    def __init__(self) -> None:
        super().__init__(pools=QUEUES)
        self.rounds = 0
        self.lost = 0

    async def pair_once(self, pool: str, now: float | None = None) -> list[Pairing]:
        self.rounds += 1
        try:
            await asyncio.sleep(0.001)
        except asyncio.CancelledError:
            self.lost += 1  # swallowed, as wait_for does
        return await super().pair_once(pool, now)


def test_the_pairing_loop_ends_at_shutdown_even_when_its_cancellation_is_lost() -> None:
    app = make_app(pair_every=0.0, limits=NO_LIMITS)
    queue = LosesItsCancellation()
    app.state.play.queue = queue
    client = TestClient(app)
    client.__enter__()
    while queue.rounds < 3:
        client.get("/api/health")  # the pairing loop runs meanwhile
    within_bound(lambda: client.__exit__(None, None, None))
    assert queue.lost == 1  # the case this test is about happened


def test_an_application_on_redis_pairing_people_it_cannot_seat_shuts_down_every_time(tmp_path: Path) -> None:
    """The case a whole test run met: people left waiting in Redis by another process (whose
    accounts this database does not have) are paired again and again while the application
    shuts down; with the Redis client's commands lost cancellations are frequent, and the
    shutdown hung within a few tries."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    settings: dict[str, Any] = {
        "broker": REDIS_URL,
        "queue_prefix": prefix + "queue:",
        "limits_prefix": prefix + "limits",
        "limits": NO_LIMITS,
    }
    for attempt in range(12):
        other = make_app(f"sqlite:///{tmp_path / f'other{attempt}.db'}", pair_every=3600.0, **settings)
        with TestClient(other) as client:
            for name in ("ann", "bob"):
                account = {"name": f"{name}{attempt}", "password": "a long secret"}
                made = client.post("/api/accounts", json=account)
                assert made.status_code == 201, made.text
                token = made.json()["token"]
                joined = client.post("/api/play", json={"pool": "standard"}, headers=auth(token))
                assert joined.status_code == 202, joined.text
                client.get("/api/play", headers=auth(token))  # as the page polls
        here = make_app(f"sqlite:///{tmp_path / f'here{attempt}.db'}", pair_every=0.0, **settings)
        client = TestClient(here)
        client.__enter__()
        for _ in range(attempt % 4):  # shut down at different points of its rounds
            client.get("/api/health")
        within_bound(lambda c=client: c.__exit__(None, None, None))  # type: ignore[misc]
