"""Passkeys over HTTP (issue 31, part 1; docs/api.md, "Passkeys"), on SQLite and PostgreSQL, with
a software authenticator (tests/helpers/soft_authenticator.py) whose attestations and assertions the
server really verifies: an account made with a passkey and signed in to with it (never with a
password), a passkey added to a password account, the ceremonies used once and for five minutes,
a wrong challenge, origin, counter or missing user verification refused, a name taken during
the ceremony, deletion taking the passkeys with it, and the options limited as signing in is."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import cbor2
import pytest
import sqlalchemy
from alembic import command
from fastapi.testclient import TestClient

from cribbage.app.people.accounts import NAME_HOLD_DAYS
from cribbage.storage import Storage
from cribbage.storage.migrations import Migrated, config, head
from cribbage.storage.tables import accounts, passkey_ceremonies, passkeys
from cribbage.web.ratelimits import NO_LIMITS
from fake_time import FakeTime
from soft_authenticator import UP, SoftAuthenticator, b64url
from web_fixtures import PASSWORD, auth, make_app

API = "/api/accounts/passkey"


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def client(shared_url: str, clock: FakeTime) -> Iterator[TestClient]:
    """A running application on SQLite or PostgreSQL whose storage reads ``clock``."""
    app = make_app(shared_url, limits=NO_LIMITS)
    app.state.service.storage.now = lambda: datetime.fromtimestamp(clock(), UTC)
    with TestClient(app) as running:
        yield running


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code, answer.text
    return dict(answer.json())


def begin(client: TestClient, step: str, token: str | None = None, **body: Any) -> tuple[str, dict[str, Any]]:
    answer = client.post(
        f"{API}/{step}/options", json=body if body else None, headers=auth(token) if token else {}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["ceremony"], answer.json()["options"]


def sign_up(client: TestClient, device: SoftAuthenticator, name: str) -> str:
    ceremony, options = begin(client, "signup", name=name)
    answer = client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": device.create(options)})
    assert answer.status_code == 201, answer.text
    assert answer.json()["account"]["name"] == name
    return str(answer.json()["token"])


def sign_in(client: TestClient, device: SoftAuthenticator, **spoil: Any) -> Any:
    ceremony, options = begin(client, "signin")
    return client.post(
        f"{API}/signin", json={"ceremony": ceremony, "credential": device.get(options, **spoil)}
    )


def rows(client: TestClient, table: sqlalchemy.Table) -> int:
    engine = client.app.state.service.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return int(conn.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(table)).scalar_one())


def test_an_account_made_with_a_passkey_signs_in_with_it_and_never_with_a_password(
    client: TestClient,
) -> None:
    device = SoftAuthenticator()
    token = sign_up(client, device, "Aiko")
    assert client.get("/api/accounts/me", headers=auth(token)).json()["name"] == "Aiko"
    assert client.post("/api/accounts/signout", headers=auth(token)).json() == {"ended": 1}
    signed = sign_in(client, device)
    assert signed.status_code == 200, signed.text
    assert signed.json()["account"]["name"] == "Aiko" and signed.json()["token"] != token
    again = sign_in(client, device)  # the counter moves on, every time
    assert again.status_code == 200, again.text
    # no password signs in to it: the answer of a wrong password
    for password in (PASSWORD, "", "x" * 8):
        answer = client.post("/api/accounts/signin", json={"name": "Aiko", "password": password})
        refused(answer, 401, "account.bad_credentials")


def test_the_options_are_for_a_discoverable_verified_passkey_of_this_host(client: TestClient) -> None:
    _ceremony, options = begin(client, "signup", name="Aiko")
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["user"]["name"] == "Aiko" and options["attestation"] == "none"
    _ceremony, request = begin(client, "signin")
    assert request["rpId"] == "testserver" and request.get("allowCredentials", []) == []


def test_a_passkey_added_to_a_password_account_signs_in_to_it(client: TestClient) -> None:
    made = client.post("/api/accounts", json={"name": "Boris", "password": PASSWORD})
    token = made.json()["token"]
    device = SoftAuthenticator()
    ceremony, options = begin(client, "add", token)
    assert options["excludeCredentials"] == []
    added = client.post(
        f"{API}/add", headers=auth(token), json={"ceremony": ceremony, "credential": device.create(options)}
    )
    assert added.status_code == 200 and added.json() == {"passkeys": 1}, added.text
    # the second's options exclude the first (the browser will not make it again)
    _ceremony, second = begin(client, "add", token)
    assert [item["id"] for item in second["excludeCredentials"]] == [b64url(device.keys[0].id)]
    assert second["user"]["name"] == "Boris"
    assert sign_in(client, device).json()["account"]["name"] == "Boris"
    assert (
        client.post("/api/accounts/signin", json={"name": "Boris", "password": PASSWORD}).status_code == 200
    )
    # the same passkey twice is refused, for this account or another
    ceremony, options = begin(client, "add", token)
    twice = device.create(options, device.keys[0])
    answer = client.post(f"{API}/add", headers=auth(token), json={"ceremony": ceremony, "credential": twice})
    refused(answer, 409, "passkey.taken")
    ceremony, options = begin(client, "signup", name="Chen")
    answer = client.post(
        f"{API}/signup", json={"ceremony": ceremony, "credential": device.create(options, device.keys[0])}
    )
    refused(answer, 409, "passkey.taken")
    assert rows(client, passkeys) == 1 and rows(client, accounts) == 1


def test_adding_needs_a_session(client: TestClient) -> None:
    refused(client.post(f"{API}/add/options"), 401, "account.bad_session")
    refused(client.post(f"{API}/add", json={"ceremony": "x", "credential": {}}), 401, "account.bad_session")


def test_a_ceremony_is_finished_once_within_five_minutes_and_for_its_own_step(
    client: TestClient, clock: FakeTime
) -> None:
    device = SoftAuthenticator()
    ceremony, options = begin(client, "signup", name="Aiko")
    credential = device.create(options)
    assert (
        client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": credential}).status_code == 201
    )
    refused(
        client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": credential}),
        400,
        "passkey.bad_ceremony",
    )
    # expired
    ceremony, options = begin(client, "signin")
    clock.advance(5 * 60 + 1)
    late = client.post(f"{API}/signin", json={"ceremony": ceremony, "credential": device.get(options)})
    refused(late, 400, "passkey.bad_ceremony")
    # a sign-up's ceremony finishing a sign-in
    ceremony, options = begin(client, "signup", name="Chen")
    wrong_step = client.post(
        f"{API}/signin",
        json={"ceremony": ceremony, "credential": device.get({**options, "rpId": "testserver"})},
    )
    refused(wrong_step, 400, "passkey.bad_ceremony")
    refused(
        client.post(
            f"{API}/signin",
            json={"ceremony": "never begun", "credential": device.get(options | {"rpId": "testserver"})},
        ),
        400,
        "passkey.bad_ceremony",
    )
    assert rows(client, passkey_ceremonies) == 0  # each was taken, even refused
    begin(client, "signin")
    clock.advance(5 * 60 + 1)
    begin(client, "signin")  # the expired one is cleared as another begins
    assert rows(client, passkey_ceremonies) == 1


def test_a_wrong_challenge_origin_or_unverified_person_makes_no_account(client: TestClient) -> None:
    device = SoftAuthenticator()
    for spoil in ({"challenge": "c29tZXRoaW5nIGVsc2U"}, {"origin": "http://evil.example"}, {"flags": UP}):
        ceremony, options = begin(client, "signup", name="Aiko")
        answer = client.post(
            f"{API}/signup", json={"ceremony": ceremony, "credential": device.create(options, **spoil)}
        )
        refused(answer, 401, "passkey.rejected")
    assert rows(client, accounts) == 0 and rows(client, passkeys) == 0
    sign_up(client, device, "Aiko")  # the name is still free


def test_a_wrong_challenge_origin_counter_or_unverified_person_signs_nobody_in(client: TestClient) -> None:
    device = SoftAuthenticator()
    sign_up(client, device, "Aiko")
    assert sign_in(client, device).status_code == 200  # its counter is 1 now
    for spoil in (
        {"challenge": "c29tZXRoaW5nIGVsc2U"},
        {"origin": "http://evil.example"},
        {"flags": UP},
        {"count": 1},
    ):
        refused(sign_in(client, device, **spoil), 401, "passkey.rejected")
    assert sign_in(client, device).status_code == 200


def test_a_malformed_or_unknown_credential_is_refused(client: TestClient) -> None:
    ceremony, _options = begin(client, "signup", name="Aiko")
    for credential in (
        {},
        {"id": "x", "rawId": "x", "type": "public-key", "response": {"clientDataJSON": 3}},
    ):
        refused(
            client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": credential}),
            422,
            "passkey.malformed",
        )
    stranger = SoftAuthenticator()
    stranger.create({"rp": {"id": "testserver"}, "user": {"id": "AAAA"}, "challenge": "AA"})
    refused(sign_in(client, stranger), 401, "passkey.unknown")


def test_a_name_taken_during_the_ceremony_stores_nothing(client: TestClient) -> None:
    device = SoftAuthenticator()
    ceremony, options = begin(client, "signup", name="Aiko")
    assert client.post("/api/accounts", json={"name": "aiko", "password": PASSWORD}).status_code == 201
    answer = client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": device.create(options)})
    refused(answer, 409, "account.name_taken")
    assert rows(client, accounts) == 1 and rows(client, passkeys) == 0
    refused(sign_in(client, device), 401, "passkey.unknown")
    refused(client.post(f"{API}/signup/options", json={"name": "AIKO"}), 409, "account.name_taken")
    refused(client.post(f"{API}/signup/options", json={"name": "<b>"}), 422, "account.bad_name")


def test_deleting_an_account_deletes_its_passkeys(client: TestClient) -> None:
    token = client.post("/api/accounts", json={"name": "Boris", "password": PASSWORD}).json()["token"]
    device = SoftAuthenticator()
    ceremony, options = begin(client, "add", token)
    client.post(
        f"{API}/add", headers=auth(token), json={"ceremony": ceremony, "credential": device.create(options)}
    )
    assert rows(client, passkeys) == 1
    deleted = client.post("/api/accounts/delete", headers=auth(token), json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert rows(client, passkeys) == 0
    refused(sign_in(client, device), 401, "passkey.unknown")


def test_the_options_are_limited_as_signing_up_and_in_are() -> None:
    app = make_app(limits={**NO_LIMITS, "signin": "2/minute", "signup": "1/minute"})
    with TestClient(app) as client:
        assert client.post(f"{API}/signup/options", json={"name": "Aiko"}).status_code == 200
        refused(client.post(f"{API}/signup/options", json={"name": "Boris"}), 429, "too_many")
        assert [client.post(f"{API}/signin/options").status_code for _ in range(2)] == [200, 200]
        refused(client.post(f"{API}/signin/options"), 429, "too_many")


def test_an_account_without_a_password_is_deleted_with_its_passkey_and_only_its_own(
    client: TestClient, clock: FakeTime
) -> None:
    aiko, boris = SoftAuthenticator(), SoftAuthenticator()
    token = sign_up(client, aiko, "Aiko")
    sign_up(client, boris, "Boris")
    assert client.post("/api/play", headers=auth(token), json={"pool": "short"}).status_code == 202
    refused(
        client.post("/api/accounts/delete", headers=auth(token), json={"password": PASSWORD}),
        401,
        "account.bad_credentials",
    )
    ceremony, options = begin(client, "signin")
    theirs = client.post(
        f"{API}/delete", headers=auth(token), json={"ceremony": ceremony, "credential": boris.get(options)}
    )
    refused(theirs, 401, "account.bad_credentials")
    ceremony, options = begin(client, "signin")
    refused(
        client.post(f"{API}/delete", json={"ceremony": ceremony, "credential": aiko.get(options)}),
        401,
        "account.bad_session",
    )
    ceremony, options = begin(client, "signin")
    deleted = client.post(
        f"{API}/delete", headers=auth(token), json={"ceremony": ceremony, "credential": aiko.get(options)}
    )
    assert deleted.status_code == 200 and deleted.json() == {"deleted": True, "games": 0}, deleted.text
    assert client.portal is not None  # and it waits to Play now no more (docs/api.md, "Play now")
    assert client.portal.call(client.app.state.play.queue.waiting, "short") == []  # type: ignore[attr-defined]
    refused(client.get("/api/accounts/me", headers=auth(token)), 401, "account.bad_session")
    refused(sign_in(client, aiko), 401, "passkey.unknown")
    assert rows(client, accounts) == 1 and rows(client, passkeys) == 1  # Boris's
    # The name, and any look-alike, is held (issue 41, item 7); then free again.
    for held in ("Aiko", "AIKO", "ａｉｋｏ"):
        answer = client.post(f"{API}/signup/options", json={"name": held})
        assert refused(answer, 409, "account.name_taken")["reason"] == "held"
    clock.advance(NAME_HOLD_DAYS * 24 * 3600)
    sign_up(client, SoftAuthenticator(), "Aiko")


def test_the_passkeys_revision_goes_down_and_up_again(shared_url: str) -> None:
    with TestClient(make_app(shared_url, limits=NO_LIMITS)) as client:
        sign_up(client, SoftAuthenticator(), "Aiko")
    engine = sqlalchemy.create_engine(shared_url)
    with engine.begin() as conn:
        command.downgrade(config(conn), "0006")
    found = sqlalchemy.inspect(engine)
    assert not {"passkeys", "passkey_ceremonies"} & set(found.get_table_names())
    with engine.connect() as conn:  # the account stays, with a hash no password matches
        assert conn.execute(sqlalchemy.text("SELECT name, password_hash FROM accounts")).all() == [
            ("Aiko", "!")
        ]
    engine.dispose()
    again = Storage(shared_url)
    try:
        assert again.migrated == Migrated("0006", head())
        account = again.accounts.by_name("aiko")
        assert account is not None and again.passkeys.of_account(account.id) == []
    finally:
        again.close()


GARBLED = {
    "clientDataJSON": b64url(b"{not json"),
    "attestationObject": b64url(cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": b"x" * 10})),
}


@pytest.mark.parametrize("field", ["clientDataJSON", "attestationObject", "authenticatorData", "signature"])
def test_garbled_bytes_are_refused_with_a_code_and_store_nothing(client: TestClient, field: str) -> None:
    device = SoftAuthenticator()
    if field in GARBLED:  # a registration's
        ceremony, options = begin(client, "signup", name="Aiko")
        credential = device.create(options)
        credential["response"][field] = GARBLED[field]
        refused(
            client.post(f"{API}/signup", json={"ceremony": ceremony, "credential": credential}),
            401,
            "passkey.rejected",
        )
        assert rows(client, accounts) == 0 and rows(client, passkeys) == 0
        return
    sign_up(client, device, "Aiko")
    ceremony, options = begin(client, "signin")
    credential = device.get(options)
    credential["response"][field] = b64url(b"xx")
    refused(
        client.post(f"{API}/signin", json={"ceremony": ceremony, "credential": credential}),
        401,
        "passkey.rejected",
    )
