"""The application layer's fixtures: its behaviour tested against the core (:class:`GameService`)
directly, without HTTP (which ``tests/web/`` keeps for the contract).  Each test has its own
SQLite file, a clock it moves by hand (no test waits for a real one) and says who is online."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from app_fixtures import make_service
from cribbage.app import GameService
from fake_time import FakeTime


@pytest.fixture
def time() -> FakeTime:
    """The services' clock, moved by the test."""
    return FakeTime()


@pytest.fixture
def online() -> dict[str, set[int]]:
    """The seats with a live socket open, by game (nobody unless the test says so)."""
    return {}


@pytest.fixture
def database(tmp_path: Path) -> str:
    """The URL of the test's own SQLite file: a second service on it is another server process,
    or the same one restarted."""
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def service(database: str, time: FakeTime, online: dict[str, set[int]]) -> Iterator[GameService]:
    """The application of one server process, its computers fast, its clock :func:`time`."""

    def connected(game_id: str) -> Collection[int]:
        return online.get(game_id, set())

    made = make_service(database, time, connected)
    yield made
    made.close()
