"""Deleting an account with a passkey from the page (issue 42, item 2): an account made with a
passkey has no password, so Account → Delete account asks for no password (any password was
answered "wrong name or password") but for a passkey of the account
(``POST /api/accounts/passkey/delete``); an account with both lets the person choose.  Chromium's
virtual authenticator stands in for the device, as in ``test_web_passkey_e2e.py``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_helpers import running_server
from test_web_account_e2e import PASSWORD, me, open_account, session_of, sign_up
from test_web_passkey_e2e import authenticator
from test_web_tables_e2e import Person


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("passkey-delete") / "games.db"
    with running_server(db) as base:
        yield base.replace("127.0.0.1", "localhost"), db


def accounts(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [str(name) for (name,) in conn.execute("SELECT name FROM accounts")]


def start(person: Person, base: str, lang: str) -> Any:
    page = person.page
    page.goto(f"{base}/?lang={lang}&speed=instant")
    page.wait_for_function("() => window.cribbage?.state")
    authenticator(page)
    return page


def test_an_account_made_with_a_passkey_is_deleted_with_it_never_asked_a_password(
    browser: Any, served: tuple[str, Path]
) -> None:
    base, db = served
    person = Person(browser)
    try:
        page = start(person, base, "en")
        open_account(page)
        page.fill("#account-name", "Daiki")
        page.click("#account-passkey-create")
        page.wait_for_selector("#account-signout")
        session = session_of(page)
        assert session
        status, account = me(base.replace("localhost", "127.0.0.1"), session)
        assert status == 200 and account["password"] is False and account["passkeys"] == 1

        page.click("#account-delete")
        page.wait_for_selector("#account-delete-form:not([hidden]) #account-delete-passkey")
        assert page.inner_text("#account-delete-how") == (
            "Use a passkey of this account to delete it: the browser asks for it."
        )
        assert page.query_selector("#account-delete-password") is None  # no password to ask for
        assert page.query_selector("#account-delete-confirm") is None
        page.click("#account-delete-passkey")
        page.wait_for_selector("#account-note")
        assert page.inner_text("#account-note") == "The account is deleted."
        assert session_of(page) is None and page.inner_text("#btn-account") == "Sign in"
        assert me(base.replace("localhost", "127.0.0.1"), session)[0] == 401
        assert "Daiki" not in accounts(db)
    finally:
        person.close()


def test_an_account_with_a_password_and_a_passkey_chooses_and_deletes_with_the_passkey(
    browser: Any, served: tuple[str, Path]
) -> None:
    base, db = served
    person = Person(browser)
    try:
        page = start(person, base, "en")
        sign_up(page, "Emiko")
        page.click("#account-passkey-add")
        page.wait_for_selector("#account-note:not([hidden])")
        page.click("#account-close")
        page.select_option("#lang-select", "ja")

        open_account(page)
        page.click("#account-delete")
        page.wait_for_selector("#account-delete-form:not([hidden]) #account-delete-passkey")
        assert page.inner_text("#account-delete-how") == (
            "削除するにはパスワードを入力するか、このアカウントのパスキーを使ってください。"
        )
        assert page.is_visible("#account-delete-password") and page.is_visible("#account-delete-confirm")
        assert page.inner_text("#account-delete-passkey") == "パスキーで削除"
        page.click("#account-delete-passkey")
        page.wait_for_selector("#account-note")
        assert page.inner_text("#account-note") == "アカウントを削除しました。"
        assert session_of(page) is None
        assert "Emiko" not in accounts(db)
    finally:
        person.close()


def test_an_account_with_a_password_only_is_asked_its_password_as_before(
    browser: Any, served: tuple[str, Path]
) -> None:
    base, db = served
    person = Person(browser)
    try:
        page = start(person, base, "en")
        sign_up(page, "Fumiko")
        page.click("#account-delete")
        page.wait_for_selector("#account-delete-form:not([hidden]) #account-delete-password")
        assert page.inner_text("#account-delete-how") == "Type your password to delete the account."
        assert page.query_selector("#account-delete-passkey") is None  # it has no passkey
        page.fill("#account-delete-password", PASSWORD)
        page.click("#account-delete-confirm")
        page.wait_for_selector("#account-note")
        assert "Fumiko" not in accounts(db)
    finally:
        person.close()
