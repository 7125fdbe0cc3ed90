"""The web tests' fixtures: the test client of a fresh application (``client``, its settings
chosen by ``pytest.mark.app(...)``), and Redis keys of each test's own (``redis_keys``).  Their
helpers are in tests/helpers/web_fixtures.py."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from fastapi.testclient import TestClient

import web_fixtures
from service_urls import REDIS_URL


@pytest.fixture
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """A test client of a fresh application, running (its lifespan started): the settings of the
    test's ``pytest.mark.app(...)`` (:func:`web_fixtures.make_app`'s arguments), if it has one."""
    marker = request.node.get_closest_marker("app")
    with web_fixtures.make_client(**(marker.kwargs if marker else {})) as running:
        yield running


@pytest.fixture(autouse=True)
def redis_keys() -> Iterator[None]:
    """The applications of a web test name their keys in Redis (rate-limit counters, Play now's
    queue) by a prefix of this test's own (``web_fixtures.KEYS``), and those keys are removed
    when it ends: counters or people waiting left by earlier tests (or by a test running at the
    same time on the other worker) never reach another."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    web_fixtures.KEYS[0] = prefix
    try:
        yield
    finally:
        web_fixtures.KEYS[0] = "test:"
        client = redis.Redis.from_url(REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
        try:
            keys = list(client.scan_iter(match=prefix + "*", count=1000))
            if keys:
                client.delete(*keys)
        except redis.ConnectionError:
            pass  # no Redis: no test of this run could leave keys there
        finally:
            client.close()
