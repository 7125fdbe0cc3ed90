"""The browser tests' fixtures: a test fails, naming them, when its pages threw errors.  Chromium
itself (``browser``) is the root conftest's (a web test uses it too); the helpers are in
tests/helpers/e2e_helpers.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import e2e_helpers


@pytest.fixture(autouse=True)
def page_errors() -> Iterator[None]:
    """A browser test fails, naming them, when its pages threw errors (``e2e_helpers.watch_errors``)."""
    e2e_helpers.PAGE_ERRORS.clear()
    yield
    if e2e_helpers.PAGE_ERRORS:
        thrown, e2e_helpers.PAGE_ERRORS[:] = list(e2e_helpers.PAGE_ERRORS), []
        pytest.fail(f"the page threw: {thrown}")


@pytest.fixture(scope="module", autouse=True)
def contexts_closed(browser: Any) -> Iterator[None]:
    """The browser is the worker's (the root conftest's ``browser``): a module's contexts left
    open are closed when it ends, so the next module starts with none."""
    yield
    for context in list(browser.contexts):
        context.close()
