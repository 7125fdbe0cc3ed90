"""Passkeys in the browser (issue 31, part 1): Chromium's virtual authenticator (CDP's WebAuthn
domain: CTAP2, internal transport, resident keys, the person verified) stands in for a phone or a
laptop's.  Through the account dialog a person creates an account with a passkey, signs out and
signs in again with it, and the account's name shows; the server verified a real attestation and
assertion (its stored counter moved).  The page is served as ``localhost``: browsers refuse an IP
address as a passkey's relying party.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_helpers import running_server, shot
from test_web_tables_e2e import Person


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("passkeys") / "games.db"
    with running_server(db) as base:
        yield base.replace("127.0.0.1", "localhost"), db


def authenticator(page: Any, *, verified: bool = True) -> tuple[Any, str]:
    """A virtual platform authenticator on this page's browser context, whose person is present
    and verified (or fails the verification: ``verified``): its CDP session and id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": verified,
        "automaticPresenceSimulation": True,
    }
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    return cdp, added["authenticatorId"]


def stored(db: Path, name: str) -> list[int]:
    """The passkeys the server keeps for the account of this name: their signature counters."""
    with sqlite3.connect(db) as conn:
        query = "SELECT p.sign_count FROM passkeys p JOIN accounts a ON a.id = p.account_id WHERE a.name = ?"
        return [int(count) for (count,) in conn.execute(query, (name,))]


WITHOUT_JSON_HELPERS = """
delete PublicKeyCredential.parseCreationOptionsFromJSON;
delete PublicKeyCredential.parseRequestOptionsFromJSON;
delete PublicKeyCredential.prototype.toJSON;
"""
"""A browser older than WebAuthn's JSON helpers: the page's own base64url conversions run."""


@pytest.mark.parametrize("helpers", ["browser's JSON helpers", "the page's conversions"])
def test_create_an_account_with_a_passkey_sign_out_and_sign_in_with_it(
    browser: Any, served: tuple[str, Path], helpers: str
) -> None:
    base, db = served
    person = Person(browser)  # its options stored: no welcome dialog
    if helpers == "the page's conversions":
        person.context.add_init_script(WITHOUT_JSON_HELPERS)
    name = "Aiko" if helpers.startswith("browser") else "Boris"
    try:
        page = person.page
        page.goto(f"{base}/?lang=en&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        cdp, device = authenticator(page)

        page.click("#btn-account")
        page.wait_for_selector("#account-dialog[open]")
        page.fill("#account-name", name)  # no password: the passkey is the account's key
        page.click("#account-passkey-create")
        page.wait_for_selector("#account-signout")
        assert name in page.inner_text("#account-title")
        assert page.inner_text("#btn-account") == f"{name} ▾"
        keys = cdp.send("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]
        assert len(keys) == 1 and keys[0]["isResidentCredential"] and keys[0]["rpId"] == "localhost"
        [made] = stored(db, name)  # the counter of the attestation
        shot(page, "passkey-account-created")

        page.click("#account-signout")
        page.wait_for_function("() => localStorage.getItem('cribbage.session') === null")
        assert page.inner_text("#btn-account") == "Sign in"

        page.click("#btn-account")
        page.wait_for_selector("#account-passkey-signin")
        page.click("#account-passkey-signin")  # no name typed: the passkey says whose it is
        page.wait_for_selector("#account-signout")
        assert page.inner_text("#btn-account") == f"{name} ▾"
        session = json.loads(page.evaluate("() => localStorage.getItem('cribbage.session')"))
        assert session["name"] == name
        me = page.evaluate(
            "(token) => fetch('/api/accounts/me', {headers: {Authorization: `Bearer ${token}`}})"
            ".then((r) => r.json())",
            session["token"],
        )
        assert me["name"] == name
        [count] = stored(db, name)
        assert count > made  # the sign-in's assertion moved the stored counter

        # A second passkey, added while signed in, on another authenticator of this browser.
        cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": device})
        authenticator(page)
        page.click("#account-passkey-add")
        page.wait_for_selector("#account-note:not([hidden])")
        assert page.inner_text("#account-note") == "Passkey added: you can sign in with it."
        assert len(stored(db, name)) == 2
    finally:
        person.close()


def test_a_cancelled_passkey_is_worded_in_the_pages_language(browser: Any, served: tuple[str, Path]) -> None:
    base, _db = served
    person = Person(browser)
    try:
        page = person.page
        page.goto(f"{base}/?lang=ja&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        authenticator(page, verified=False)  # the person's check fails: the browser refuses, as on a cancel
        page.click("#btn-account")
        page.wait_for_selector("#account-dialog[open]")
        page.click("#account-passkey-signin")
        page.wait_for_selector("#account-error:not([hidden])", timeout=90_000)
        assert (
            page.inner_text("#account-error") == "パスキーは使われませんでした（キャンセルまたは時間切れ）。"
        )
    finally:
        person.close()
