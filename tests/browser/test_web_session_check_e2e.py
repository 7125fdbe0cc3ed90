"""The session is checked as the page loads (issue 42, item 7): after "Sign out everywhere" in one
browser, another browser signed in to the same account, reloaded, never shows the account's name
in the top bar: the page asks ``GET /api/accounts/me`` first and forgets the session the server
refuses.  A session the server still takes shows its name after a reload, as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import running_server
from test_web_account_e2e import PASSWORD, open_account, session_of, sign_up
from test_web_tables_e2e import Person

RECORD_LABELS = """
window.accountLabels = [];
new MutationObserver(() => {
  const button = document.getElementById('btn-account');
  if (button) window.accountLabels.push(button.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
"""Every text the account's button has from the page's first byte on (window.accountLabels)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("session-check") / "games.db") as base:
        yield base


def sign_in(page: Any, name: str) -> None:
    open_account(page)
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-signin")
    page.wait_for_selector("#account-signout")
    page.click("#account-close")


def test_a_session_ended_everywhere_never_shows_its_name_after_a_reload(browser: Any, server: str) -> None:
    here, there = Person(browser), Person(browser)
    there.context.add_init_script(RECORD_LABELS)
    try:
        here.page.goto(f"{server}/?lang=en&speed=instant")
        here.page.wait_for_function("() => window.cribbage?.state")
        sign_up(here.page, "Chiyo")
        there.page.goto(f"{server}/?lang=en&speed=instant")
        there.page.wait_for_function("() => window.cribbage?.state")
        sign_in(there.page, "Chiyo")
        assert there.page.inner_text("#btn-account") == "Chiyo ▾"

        # Still valid: after a reload the name shows, once the server said so.
        there.page.reload()
        there.page.wait_for_function("() => document.getElementById('btn-account').textContent === 'Chiyo ▾'")
        assert session_of(there.page)

        here.page.click("#account-signout-all")
        here.page.wait_for_function("() => localStorage.getItem('cribbage.session') === null")

        there.page.reload()
        there.page.wait_for_function("() => localStorage.getItem('cribbage.session') === null")
        there.page.wait_for_function("() => document.getElementById('btn-account').textContent === 'Sign in'")
        labels = there.page.evaluate("() => window.accountLabels")
        assert not any("Chiyo" in label for label in labels), labels
    finally:
        here.close()
        there.close()
