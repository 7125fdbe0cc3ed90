"""Accounts (issue 31, part 1) at the application: names one under NFKC and case, the rules of
names and passwords, sessions that expire on the storage's clock, signing out here and
everywhere, claiming a browser's guest seats (never another account's) and deletion, after
which every seat the account played is ``deleted player`` in every process, its games kept;
on SQLite and PostgreSQL."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy
from alembic import command
from argon2 import PasswordHasher, Type

from cribbage.app import Actor, AppError, GameService, Options, SeatSpec, one_player
from cribbage.app.games.options import hash_token
from cribbage.app.people import accounts as accounts_module
from cribbage.app.people.accounts import (
    DUMMY_HASH,
    HASHER,
    NAME_HOLD_DAYS,
    SESSION_DAYS,
    check_name,
    name_key,
)
from cribbage.storage import ERASED_NAME, Storage, account_sessions, games
from cribbage.storage.migrations import Migrated, config, head

START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
PASSWORD = "correct horse battery"


class Clock:
    """The storage's clock, moved on by the tests (no sleeps)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(shared_url: str, clock: Clock) -> Iterator[GameService]:
    opened = GameService(Storage(shared_url, clock=clock), players=one_player("random"))
    yield opened
    opened.close()


def refused(code: str, call: Any, *args: Any, **values: Any) -> AppError:
    with pytest.raises(AppError) as caught:
        call(*args, **values)
    assert caught.value.code == code, caught.value.to_json()
    return caught.value


def test_the_hasher_is_argon2id_at_the_owasp_minimum_and_the_dummy_hash_agrees() -> None:
    parameters = HASHER.hash("x" * 8).split("$")
    assert parameters[1] == "argon2id" and parameters[3] == "m=19456,t=2,p=1"
    assert DUMMY_HASH.split("$")[:4] == parameters[:4]
    assert not HASHER.check_needs_rehash(DUMMY_HASH)


def test_a_name_is_one_under_width_and_case(service: GameService) -> None:
    book = service.accounts
    signed = book.sign_up("Aiko", PASSWORD)
    assert signed["account"]["name"] == "Aiko" and signed["token"]
    for same in ("aiko", "AIKO", "Ａｉｋｏ", " aiKo "):
        refused("account.name_taken", book.sign_up, same, PASSWORD)
    assert name_key("ＡＩＫＯ") == name_key("aiko")
    assert book.sign_in("ａｉｋｏ", PASSWORD)["account"]["name"] == "Aiko"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("a", "length"),
        ("a" * 21, "length"),
        ("two  spaces", "spaces"),
        ("<b>bold</b>", "characters"),
        ("tab\there", "characters"),
        ("nul\x00x", "characters"),
        ("rtl\u202eeman", "characters"),
        ("a&b;c", "characters"),
        ("\u0301abc", "characters"),  # a combining mark on nothing
        ("ab \u0301c", "characters"),
    ],
)
def test_names_the_rules_refuse(name: str, reason: str) -> None:
    assert refused("account.bad_name", check_name, name).values == {"field": "name", "reason": reason}


def test_names_the_rules_allow() -> None:
    for name in ("Aiko", "Борис", "陳さん", "a.b-c_d", "Mary Ann", "x12", "नमस्ते", "สมชาย"):
        assert check_name(name) == name


def test_passwords_short_huge_or_the_name_are_refused_before_hashing(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed: list[str] = []

    class Counting:
        def hash(self, password: str) -> str:
            hashed.append(password)
            return HASHER.hash(password)

    monkeypatch.setattr(accounts_module, "HASHER", Counting())
    book = service.accounts
    for weak in ("short", "x" * 257, "x" * 10_000_000):
        assert refused("account.bad_password", book.sign_up, "Aiko", weak).values["reason"] == "length"
    assert refused("account.bad_password", book.sign_up, "Aiko_San", "aiko_san").values["reason"] == "name"
    assert hashed == []
    book.sign_up("Aiko", "x" * 256)
    assert len(hashed) == 1
    refused("account.bad_credentials", book.sign_in, "Aiko", "x" * 10_000_000)


def test_a_wrong_password_and_an_unknown_name_are_one_answer(service: GameService) -> None:
    book = service.accounts
    book.sign_up("Aiko", PASSWORD)
    wrong = refused("account.bad_credentials", book.sign_in, "Aiko", "not the password")
    unknown = refused("account.bad_credentials", book.sign_in, "Nobody", PASSWORD)
    same = {"error": "wrong name or password", "code": "account.bad_credentials"}
    assert wrong.to_json() == unknown.to_json() == same


def test_a_session_expires_after_30_days_on_the_storage_clock(service: GameService, clock: Clock) -> None:
    book = service.accounts
    token = book.sign_up("Aiko", PASSWORD)["token"]
    clock.now = START + timedelta(days=SESSION_DAYS) - timedelta(seconds=1)
    assert book.me(token)["name"] == "Aiko"
    clock.now = START + timedelta(days=SESSION_DAYS)
    refused("account.bad_session", book.me, token)
    refused("account.bad_session", book.me, None)
    refused("account.bad_session", book.me, "made up")


def test_pruning_removes_the_expired_sessions_only(service: GameService, clock: Clock) -> None:
    book = service.accounts
    old = book.sign_up("Aiko", PASSWORD)["token"]
    clock.now = START + timedelta(days=SESSION_DAYS - 1)
    new = book.sign_in("Aiko", PASSWORD)["token"]
    clock.now = START + timedelta(days=SESSION_DAYS)
    service.prune(keep_days=0, keep_finished_days=0)
    with sqlalchemy.create_engine(service.storage.url).connect() as conn:
        kept = conn.execute(sqlalchemy.select(account_sessions.c.token_hash)).scalars().all()
    assert kept == [hash_token(new)] and hash_token(old) not in kept
    assert book.me(new)["name"] == "Aiko"


def test_sign_out_here_and_everywhere(service: GameService) -> None:
    book = service.accounts
    first = book.sign_up("Aiko", PASSWORD)["token"]
    second, third = (book.sign_in("Aiko", PASSWORD)["token"] for _ in range(2))
    assert book.sign_out(first) == {"ended": 1}
    refused("account.bad_session", book.me, first)
    assert book.me(second)["name"] == "Aiko"
    assert book.sign_out(second, everywhere=True) == {"ended": 2}
    for token in (second, third):
        refused("account.bad_session", book.me, token)


def _table(service: GameService) -> tuple[str, list[str]]:
    """A table of two people, both seats taken: its id and the seats' tokens."""
    new_game = service.create(
        Options(level="weak", names=("Aiko at home",)), [SeatSpec("human"), SeatSpec("human")]
    )
    token, state = new_game["token"], new_game["state"]
    joined = service.join(state["invites"][0]["code"], "Boris")
    return state["id"], [token, joined["token"]]


def test_a_claim_links_the_browsers_seats_and_never_another_accounts(service: GameService) -> None:
    book = service.accounts
    aiko = book.sign_up("Aiko", PASSWORD)["token"]
    boris = book.sign_up("Boris", PASSWORD)["token"]
    game_id, (first, second) = _table(service)
    claimed = book.claim(aiko, [first, "not a token"])["claimed"]
    assert claimed == [{"id": game_id, "seat": 0, "over": False, "url": f"/api/games/{game_id}"}]
    assert book.claim(aiko, [first])["claimed"] == claimed  # again: nothing new
    refused("account.seat_claimed", book.claim, boris, [second, first])  # all or nothing
    assert book.me(boris)["games"] == []
    assert book.claim(boris, [second])["claimed"][0]["seat"] == 1
    assert [game["seat"] for game in book.me(aiko)["games"]] == [0]
    refused("account.bad_session", book.claim, "made up", [first])


def test_deletion_needs_the_password_and_leaves_the_games_under_deleted_player(
    service: GameService, shared_url: str, clock: Clock
) -> None:
    book = service.accounts
    token = book.sign_up("Aiko", PASSWORD)["token"]
    other = book.sign_in("Aiko", PASSWORD)["token"]
    game_id, (mine, theirs) = _table(service)
    book.claim(token, [mine])
    assert service.state(game_id, Actor(theirs))["names"][0] == "Aiko at home"
    refused("account.bad_credentials", book.delete, token, "not the password")
    assert book.me(token)["games"]  # nothing changed
    assert book.delete(token, PASSWORD) == {"deleted": True, "games": 1}
    for session in (token, other):
        refused("account.bad_session", book.me, session)
    # Every process: another service on the same database had the game cached before.
    elsewhere = GameService(Storage(shared_url), players=one_player("random"))
    try:
        for seen in (service, elsewhere):
            state = seen.state(game_id, Actor(theirs))
            assert state["names"] == [ERASED_NAME, "Boris"]
            assert state["seats"][0]["name"] == ERASED_NAME
            assert seen.state(game_id, Actor(mine))["seat"] == 0  # the seat's own token still plays it
    finally:
        elsewhere.close()
    with sqlalchemy.create_engine(shared_url).connect() as conn:
        record, options = conn.execute(
            sqlalchemy.select(games.c.record, games.c.options).where(games.c.id == game_id)
        ).one()
    assert "Aiko at home" not in record and "Aiko at home" not in options
    # The name is held (issue 41, item 7), then free again; the erased seat is nobody's to claim.
    assert refused("account.name_taken", book.sign_up, "Aiko", PASSWORD).values["reason"] == "held"
    clock.now += timedelta(days=NAME_HOLD_DAYS)
    fresh = book.sign_up("Aiko", PASSWORD)["token"]
    refused("account.seat_claimed", book.claim, fresh, [mine])


def test_the_accounts_revision_goes_down_and_up_again(shared_url: str) -> None:
    service = GameService(Storage(shared_url), players=one_player("random"))
    token = service.accounts.sign_up("Aiko", PASSWORD)["token"]
    game_id, (mine, _theirs) = _table(service)
    service.accounts.claim(token, [mine])
    service.close()
    engine = sqlalchemy.create_engine(shared_url)
    with engine.begin() as conn:
        command.downgrade(config(conn), "0002")
    found = sqlalchemy.inspect(engine)
    assert not {"accounts", "account_sessions"} & set(found.get_table_names())
    assert not {"account_id", "erased"} & {column["name"] for column in found.get_columns("seats")}
    engine.dispose()
    again = Storage(shared_url)  # and up again: the game plays on, nobody's
    try:
        assert again.migrated == Migrated("0002", head())
        assert [seat.name for seat in again.seats.load(game_id)] == ["Aiko at home", "Boris"]
        assert again.accounts.by_name("aiko") is None
    finally:
        again.close()


def test_a_password_is_one_in_any_unicode_form_and_rehashed_when_the_parameters_grow(
    service: GameService,
) -> None:
    book, storage = service.accounts, service.storage
    composed = "mot de passe é"
    book.sign_up("Aiko", unicodedata.normalize("NFC", composed))
    assert book.sign_in("Aiko", unicodedata.normalize("NFD", composed))["account"]["name"] == "Aiko"
    account = storage.accounts.by_name("aiko")
    assert account is not None
    weaker = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1, type=Type.ID)
    storage.accounts.set_password_hash(account.id, weaker.hash(unicodedata.normalize("NFKC", composed)))
    book.sign_in("Aiko", composed)
    again = storage.accounts.by_name("aiko")
    assert again is not None and "$m=19456,t=2,p=1$" in again.password_hash
    assert book.sign_in("Aiko", composed)["account"]["name"] == "Aiko"
