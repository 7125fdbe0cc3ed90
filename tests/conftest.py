"""Fixtures of more than one layer of tests: a PostgreSQL schema of a test's own and the shared
database of two server processes (the application's and the web's tests), and Chromium (the
browser tests, and one of tests/web/test_web_limits.py).  Each layer's folder has its own
conftest.py; the helpers every layer imports by name are in tests/helpers/."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from service_urls import POSTGRES_URL


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


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright, for a module's browser tests (one launch a module:
    with pytest -n, a module's tests all run on one worker; a Playwright kept for the next
    module would keep its event loop running in the worker, where a web test's ``asyncio.run``
    then fails).

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
        yield WorkersBlocked(launched)
        launched.close()


class WorkersBlocked:
    """A launched browser whose contexts block service workers unless a test allows them
    (``service_workers="allow"``: the tests of Web Push, the installable page and the games in
    the browser).  Every page registers the worker, which downloads the whole offline shell at
    its install: in a test about something else, that is CPU for nothing, a hundred times over."""

    def __init__(self, launched: Any) -> None:
        self._launched = launched

    def new_context(self, **options: Any) -> Any:
        options.setdefault("service_workers", "block")
        return self._launched.new_context(**options)

    def new_page(self, **options: Any) -> Any:
        options.setdefault("service_workers", "block")
        return self._launched.new_page(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._launched, name)
