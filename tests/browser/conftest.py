"""The browser tests' fixtures: a test fails, naming them, when its pages threw errors.  Chromium
itself (``browser``) is the root conftest's (a web test uses it too); the helpers are in
tests/helpers/e2e_helpers.py."""

from __future__ import annotations

from collections.abc import Iterator

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
