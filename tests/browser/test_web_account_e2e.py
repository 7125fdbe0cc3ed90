"""Accounts in the browser (issue 31, part 7, first step): two people sign up through the page's
account dialog, one creates a table for two and the other joins it by its invitation link, and
both seats are their accounts' (GET /api/accounts/me); signing out forgets the session; a wrong
password is worded in the page's language.

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_tables_e2e.py``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import running_server, shot
from test_web_tables_e2e import Person, create_table, join_by_link
from web_fixtures import PASSWORD


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("accounts") / "games.db", args=limits) as base:
        yield base


def me(server: str, session: str) -> tuple[int, dict[str, Any]]:
    """GET /api/accounts/me with a session: its status and its answer."""
    request = urllib.request.Request(
        f"{server}/api/accounts/me", headers={"Authorization": f"Bearer {session}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def session_of(page: Any) -> str | None:
    kept = page.evaluate("() => localStorage.getItem('cribbage.session')")
    return json.loads(kept)["token"] if kept else None


def open_account(page: Any) -> None:
    page.click("#btn-account")
    page.wait_for_selector("#account-dialog[open]")


def sign_up(page: Any, name: str) -> None:
    """Through the dialog, as a person would: the name, the password, "Create account"."""
    open_account(page)
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-create")
    page.wait_for_selector("#account-signout")
    assert name in page.inner_text("#account-title")
    assert page.inner_text("#btn-account") == f"{name} ▾"


def test_two_accounts_make_and_join_a_table_and_sign_out(browser: Any, server: str) -> None:
    aiko, boris = Person(browser), Person(browser)
    try:
        # Aiko plays the computer as a guest first: after signing up, that game can be hers.
        aiko.page.goto(f"{server}/?lang=en&speed=instant")
        aiko.page.wait_for_function("() => window.cribbage?.state")
        assert aiko.page.inner_text("#btn-account") == "Sign in"
        # The dialog's module is loaded at the first click, not with the page.
        loaded = aiko.page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        assert not any(url.endswith("/view-account.js") for url in loaded)
        guest_game = json.loads(aiko.page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))[
            "id"
        ]
        sign_up(aiko.page, "Aiko")
        aiko.page.click("#account-claim")
        aiko.page.wait_for_selector("#account-note:not([hidden])")
        assert "1 game added" in aiko.page.inner_text("#account-note")
        shot(aiko.page, "account-signed-up")
        aiko.page.click("#account-close")
        aiko_session = session_of(aiko.page)
        assert aiko_session
        status, account = me(server, aiko_session)
        assert status == 200 and guest_game in [g["id"] for g in account["games"]]

        link = create_table(aiko, server, "standard", {1: "human"}, "Aiko")[0]
        # still signed in after a reload, once the server said the session holds (issue 42, item 7)
        aiko.page.wait_for_function("() => document.getElementById('btn-account').textContent === 'Aiko ▾'")

        boris.page.goto(f"{server}/?lang=en&speed=instant")
        boris.page.wait_for_function("() => window.cribbage?.state")
        sign_up(boris.page, "Boris")
        assert boris.page.is_visible("#account-claim")  # his guest game, which he leaves a guest's
        boris.page.click("#account-close")
        join_by_link(boris, link, "Boris")
        boris_session = session_of(boris.page)
        assert boris_session and boris_session != aiko_session

        table = json.loads(aiko.page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))["id"]
        assert (
            json.loads(boris.page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))["id"]
            == table
        )
        for session, seat in ((aiko_session, 0), (boris_session, 1)):
            status, account = me(server, session)
            assert status == 200, account
            assert {"id": table, "seat": seat} in [
                {"id": g["id"], "seat": g["seat"]} for g in account["games"]
            ], account

        # Signing out ends the session on the server and forgets it here.
        open_account(aiko.page)
        aiko.page.click("#account-signout")
        aiko.page.wait_for_function("() => localStorage.getItem('cribbage.session') === null")
        assert aiko.page.inner_text("#btn-account") == "Sign in"
        assert me(server, aiko_session)[0] == 401

        # A session ended elsewhere (or expired) is found out as the page loads: its name is never
        # shown (issue 42, item 7) ...
        keep_ended = (
            "(token) => localStorage.setItem('cribbage.session', JSON.stringify({token, name: 'Aiko'}))"
        )
        aiko.page.evaluate(keep_ended, aiko_session)
        aiko.page.goto(f"{server}/?lang=ja&speed=instant")
        aiko.page.wait_for_function("() => window.cribbage?.state")
        aiko.page.wait_for_function("() => localStorage.getItem('cribbage.session') === null")
        assert aiko.page.inner_text("#btn-account") == "サインイン"
        # ... and, ended while the page is open, at the dialog's opening, worded in the page's language.
        aiko.page.evaluate(keep_ended, aiko_session)
        open_account(aiko.page)
        aiko.page.wait_for_selector("#account-name")
        aiko.page.wait_for_selector("#account-error:not([hidden])")
        assert (
            aiko.page.inner_text("#account-error")
            == "サインアウトしています。もう一度サインインしてください。"
        )
        assert aiko.page.inner_text("#btn-account") == "サインイン"
        assert session_of(aiko.page) is None

        # A wrong password, worded in the page's language.
        aiko.page.fill("#account-name", "Aiko")
        aiko.page.fill("#account-password", "not the password")
        aiko.page.click("#account-signin")
        aiko.page.wait_for_selector("#account-error:not([hidden])")
        assert aiko.page.inner_text("#account-error") == "名前またはパスワードが違います。"
        assert session_of(aiko.page) is None
        shot(aiko.page, "account-wrong-password-ja")
    finally:
        aiko.close()
        boris.close()
