"""Shared helpers: set up games with chosen cards; where the test servers are; the web tests'
client and shared database (their helpers are in web_fixtures.py)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import sqlalchemy

from cribbage.engine.actions import Deal, Discard, Play, Starter
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.rules import Rules, get_rules
from cribbage.engine.state import GameState

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


def deal_game(
    hands: Sequence[str],
    starter: str,
    discards: Sequence[str],
    rules: Rules | None = None,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    crib_from_deck: str = "",
) -> GameState:
    """A game at the start of the play: the given hands dealt, discards made, the starter cut."""
    state = GameState(rules or get_rules("standard"), dealer=dealer)
    if scores is not None:
        state.scores = list(scores)
        state.previous_scores = list(scores)
    state.apply(Deal(tuple(parse_cards(h) for h in hands), parse_cards(crib_from_deck)))
    n = state.players
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        state.apply(Discard(seat, parse_cards(discards[seat])))
    state.apply(Starter(Card.parse(starter)))
    return state


def play(state: GameState, *cards: str) -> list[object]:
    """Play cards in turn order (each by the seat to act); returns all events."""
    events: list[object] = []
    for text in cards:
        events += state.apply(Play(state.to_act, Card.parse(text)))
    return events


POSTGRES_URL = os.environ.get("CRIBBAGE_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
"""The PostgreSQL of the tests: the standard local one, or the throwaway one test.sh started."""


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema of its own, dropped afterwards: the URL selects it for every
    connection (``search_path``), so tests never meet each other's tables."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(POSTGRES_URL)
    with admin.begin() as conn:
        conn.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        # Named after the schema, so that the connections a test's pools kept are ended with it:
        # a whole run would otherwise hold more than the server's max_connections (100).
        yield f"{POSTGRES_URL}{separator}options=-csearch_path%3D{schema}&application_name={schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(
                sqlalchemy.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": schema},
            )
            conn.execute(sqlalchemy.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for two server processes: an SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """A test client of a fresh application, running (its lifespan started): the settings of the
    test's ``pytest.mark.app(...)`` (:func:`web_fixtures.make_app`'s arguments), if it has one."""
    from web_fixtures import make_client  # the web stack is loaded by the web tests only

    marker = request.node.get_closest_marker("app")
    with make_client(**(marker.kwargs if marker else {})) as running:
        yield running


@pytest.fixture(autouse=True)
def redis_keys() -> Iterator[None]:
    """The web tests' applications name their keys in Redis (rate-limit counters, Play now's
    queue) by a prefix of this test's own (``web_fixtures.KEYS``), and those keys are removed
    when it ends: counters or people waiting left by earlier tests never reach a later one."""
    fixtures = sys.modules.get("web_fixtures")  # loaded by the web tests only
    if fixtures is None:
        yield
        return
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    fixtures.KEYS[0] = prefix
    try:
        yield
    finally:
        fixtures.KEYS[0] = "test:"
        import redis

        client = redis.Redis.from_url(fixtures.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
        try:
            keys = list(client.scan_iter(match=prefix + "*", count=1000))
            if keys:
                client.delete(*keys)
        except redis.ConnectionError:
            pass  # no Redis: no test of this run could leave keys there
        finally:
            client.close()


@pytest.fixture(autouse=True)
def page_errors() -> Iterator[None]:
    """A browser test fails, naming them, when its pages threw errors (``e2e_helpers.watch_errors``)."""
    helpers = sys.modules.get("e2e_helpers")  # loaded by the browser tests only
    if helpers is not None:
        helpers.PAGE_ERRORS.clear()
    yield
    helpers = sys.modules.get("e2e_helpers")
    if helpers is not None and helpers.PAGE_ERRORS:
        thrown, helpers.PAGE_ERRORS[:] = list(helpers.PAGE_ERRORS), []
        pytest.fail(f"the page threw: {thrown}")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright, for a module's browser tests.

    Never skipped: test.sh installs Playwright (the test extra) and ``chromium``; without them
    the browser tests fail, naming what is missing.
    """
    from playwright.sync_api import sync_playwright

    from e2e_helpers import CHROMIUM_ARGS, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError("the browser tests need Debian's chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
