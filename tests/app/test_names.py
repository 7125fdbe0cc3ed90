"""Names no one can fake (issue 41, items 11, 3 and the name half of 7): one rule for every name
(PRECIS UsernameCasePreserved word by word, Unicode TS #39's identifier checks), accounts unique
by their names' skeletons in the database (racing sign-ups included), a deleted account's name
held for a while, and the seats' names at tables checked by the same rule, with seats or without;
on SQLite and PostgreSQL where storage is involved."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy
from alembic import command

from cribbage.app import AppError, GameService, one_player
from cribbage.app.people.accounts import NAME_HOLD_DAYS, new_account
from cribbage.app.people.names import check_name, name_skeleton
from cribbage.app.playnow.matchmaking import get_pool
from cribbage.app.playnow.play import seat_match
from cribbage.storage import NameTaken, Storage, StoredAccount
from cribbage.storage.migrations import config
from cribbage.storage.tables import accounts, held_names
from test_accounts import START, Clock
from web_fixtures import PASSWORD, make_client

LOOK_ALIKES = {
    "Aik\u043e": "scripts",  # a Cyrillic о
    "\u0410iko": "scripts",  # a Cyrillic А
    "Aik\u03bf": "scripts",  # a Greek ο
    "Aiko\u034f": "characters",  # combining grapheme joiner
    "Aiko\ufe0f": "characters",  # variation selector 16
    "Aiko\ufe00": "characters",  # variation selector 1
    "Aiko\u3164": "characters",  # Hangul filler
    "\u115fAiko": "characters",  # Hangul choseong filler
    "\u3164\u3164\u3164": "characters",  # fillers only
    "A\u0336i\u0336k\u0336o\u0336": "characters",  # combining strikethrough
    "A" + "\u0301" * 19: "characters",  # 19 stacked marks
    "Ai" + "\u0300\u0301\u0302\u0303\u0304\u0306": "characters",  # six different marks stacked
    "a\u202eb\nc": "characters",  # a bidi override and a line break
    "\U0001f469\u200d\U0001f469\u200d\U0001f467": "characters",  # emoji
}

NAMES = ("さくら", "Иван Петров", "Aiko", "José", "नमस्ते", "สมชาย", "陳さん", "Mary Ann", "a.b-c_d", "愛子")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(shared_url: str, clock: Clock) -> Iterator[GameService]:
    opened = GameService(Storage(shared_url, clock=clock), players=one_player("random"))
    yield opened
    opened.close()


def refusal(call: Any, *args: Any) -> AppError:
    with pytest.raises(AppError) as caught:
        call(*args)
    return caught.value


# --------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(("name", "reason"), LOOK_ALIKES.items())
def test_every_look_alike_of_the_issue_breaks_the_rule(name: str, reason: str) -> None:
    refused = refusal(check_name, name)
    assert refused.code == "account.bad_name" and refused.values == {"field": "name", "reason": reason}


def test_names_of_every_script_follow_the_rule() -> None:
    for name in NAMES:
        assert check_name(name) == name
    assert check_name("Ｉｖａｎ") == "Ivan"  # the profile maps full-width letters


def test_look_alikes_have_one_skeleton_under_case() -> None:
    assert len({name_skeleton(name) for name in ("Aiko", "aiko", "AIKO", "Aik\u043e", "\u0410IKO")}) == 1
    assert name_skeleton("poco") == name_skeleton("\u0440\u043e\u0441\u043e")  # Cyrillic росо
    assert name_skeleton("Aiko") != name_skeleton("Akio")


# --------------------------------------------------------------------------- accounts


def test_no_look_alike_signs_up_beside_aiko(service: GameService) -> None:
    book = service.accounts
    book.sign_up("Aiko", PASSWORD)
    for name, reason in LOOK_ALIKES.items():
        refused = refusal(book.sign_up, name, PASSWORD)
        assert (refused.code, refused.values.get("reason")) == ("account.bad_name", reason), name
    for same in ("aiko", "AIKO", "Ａｉｋｏ"):
        refused = refusal(book.sign_up, same, PASSWORD)
        assert (refused.code, refused.values["reason"]) == ("account.name_taken", "taken")
    for name in NAMES[:2] + NAMES[3:]:
        assert book.sign_up(name, PASSWORD)["account"]["name"] == name


def test_a_name_of_one_script_that_looks_like_anothers_is_taken(service: GameService) -> None:
    book = service.accounts
    book.sign_up("poco", PASSWORD)
    for alike in ("\u0440\u043e\u0441\u043e", "\u0420\u043e\u0441\u043e", "POCO"):  # росо, Росо
        refused = refusal(book.sign_up, alike, PASSWORD)
        assert refused.code == "account.name_taken" and refused.values["reason"] in ("confusable", "taken")
    assert refusal(book.sign_up, "\u0440\u043e\u0441\u043e", PASSWORD).values == {
        "field": "name",
        "reason": "confusable",
    }


def test_the_database_keeps_skeletons_unique_under_racing_sign_ups(service: GameService) -> None:
    """Past the rule (as a race past a look-up would be): the unique column refuses the second."""
    storage = service.storage
    storage.accounts.add(new_account("a" * 32, "Aiko", None, START))
    with pytest.raises(NameTaken) as caught:
        storage.accounts.add(new_account("b" * 32, "Aik\u043e", None, START))
    assert caught.value.reason == "confusable"
    names = ["p\u043eco", "po\u0441o", "\u0440oco", "poc\u043e", "\u0440\u043e\u0441\u043e", "poco"]

    def sign(n: int) -> bool:
        try:
            storage.accounts.add(new_account(f"{n:032x}", names[n], None, START))
        except NameTaken:
            return False
        return True

    with ThreadPoolExecutor(len(names)) as pool:
        won = list(pool.map(sign, range(len(names))))
    assert won.count(True) == 1
    with storage.engine.connect() as conn:
        assert conn.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(accounts)).scalar() == 2


# --------------------------------------------------------------------------- held names


def test_a_deleted_accounts_name_is_held_then_free(service: GameService, clock: Clock) -> None:
    book = service.accounts
    token = book.sign_up("Aiko", PASSWORD)["token"]
    book.delete(token, PASSWORD)
    until = (START + timedelta(days=NAME_HOLD_DAYS)).isoformat()
    for again in ("Aiko", "aiko", "ＡＩＫＯ"):
        refused = refusal(book.sign_up, again, PASSWORD)
        assert refused.code == "account.name_taken"
        assert refused.values == {"field": "name", "reason": "held", "until": until}
    assert book.sign_up("Akio", PASSWORD)  # another name is free
    clock.now += timedelta(days=NAME_HOLD_DAYS - 1)
    assert refusal(book.sign_up, "Aiko", PASSWORD).values["reason"] == "held"
    service.prune(keep_days=30, keep_finished_days=365)  # the hold is kept while it lasts
    clock.now += timedelta(days=1)
    service.prune(keep_days=30, keep_finished_days=365)  # and pruned once over
    with service.storage.engine.connect() as conn:
        assert conn.execute(sqlalchemy.select(held_names)).all() == []
    assert book.sign_up("Aiko", PASSWORD)["account"]["name"] == "Aiko"


def test_a_held_name_is_refused_even_past_the_look_up(service: GameService) -> None:
    """A sign-up that looked before the deletion stored its hold still fails in its transaction."""
    book, storage = service.accounts, service.storage
    token = book.sign_up("Aiko", PASSWORD)["token"]
    book.delete(token, PASSWORD)
    with pytest.raises(NameTaken) as caught:
        storage.accounts.add(new_account("c" * 32, "AIKO", None, START))
    assert caught.value.reason == "held" and caught.value.until == START + timedelta(days=NAME_HOLD_DAYS)


def test_the_hold_is_the_operators_setting(shared_url: str) -> None:
    service = GameService(Storage(shared_url), players=one_player("random"), name_hold_days=0)
    try:
        token = service.accounts.sign_up("Aiko", PASSWORD)["token"]
        service.accounts.delete(token, PASSWORD)
        assert service.accounts.sign_up("Aiko", PASSWORD)  # not held
    finally:
        service.close()


# --------------------------------------------------------------------------- the migration


def test_the_migration_gives_existing_accounts_their_skeletons(shared_url: str) -> None:
    Storage(shared_url).close()
    engine = sqlalchemy.create_engine(shared_url)
    with engine.begin() as conn:
        command.downgrade(config(conn), "0010")
        for n, (name, key) in enumerate((("Aiko", "aiko"), ("Aik\u043e", "aik\u043e"), ("Boris", "boris"))):
            created = START + timedelta(minutes=n)
            conn.execute(
                sqlalchemy.text("INSERT INTO accounts (id, name, name_key, created) VALUES (:i, :n, :k, :c)"),
                {"i": f"{n:032x}", "n": name, "k": key, "c": created},
            )
    engine.dispose()
    storage = Storage(shared_url)  # migrated up again
    try:
        with storage.engine.connect() as conn:
            rows = conn.execute(sqlalchemy.select(accounts.c.name, accounts.c.name_skeleton)).all()
        assert dict(rows) == {"Aiko": "aiko", "Aik\u043e": None, "Boris": "boris"}  # the older keeps it
        with pytest.raises(NameTaken):
            storage.accounts.add(new_account("d" * 32, "AIKO", None, START))
    finally:
        storage.close()


# --------------------------------------------------------------------------- seats at tables

HUMAN = {"kind": "human"}


@pytest.mark.parametrize("seats", [None, [HUMAN, HUMAN]], ids=["without seats", "with seats"])
def test_a_seat_name_follows_the_rule_with_seats_or_without(seats: list[dict[str, str]] | None) -> None:
    client = make_client()
    for name, reason in {"a\u202eb\nc": "characters", **LOOK_ALIKES}.items():
        body: dict[str, Any] = {"names": [name], "level": "weak"}
        if seats is not None:
            body["seats"] = seats
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "bad_name" and answer.json()["reason"] == reason, name
    assert client.app.state.service.storage.pruning.count() == 0  # type: ignore[attr-defined]
    body = {"names": ["Иван Петров"], "level": "weak", **({} if seats is None else {"seats": seats})}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201 and made.json()["state"]["names"][0] == "Иван Петров"


def test_a_joining_name_follows_the_rule() -> None:
    client = make_client(limits={"join": "100/minute"})
    made = client.post("/api/games", json={"seats": [HUMAN, HUMAN], "names": ["さくら"]}).json()
    code = made["invites"][0]["code"]
    for name, reason in LOOK_ALIKES.items():
        answer = client.post("/api/join", json={"code": code, "name": name})
        assert answer.status_code == 422 and answer.json()["reason"] == reason, answer.text
    joined = client.post("/api/join", json={"code": code, "name": "Иван Петров"})
    assert joined.status_code == 201 and joined.json()["state"]["names"] == ["さくら", "Иван Петров"]


def test_an_account_made_before_the_rule_still_plays_now_under_its_name(service: GameService) -> None:
    """Play now seats accounts under their names as they are: one the rule would refuse today
    (made before it, kept by the migration) is not locked out of playing."""
    old = StoredAccount("e" * 32, "Aik\u043e", "aik\u043e", None, START)  # the migration's null skeleton
    service.storage.accounts.add(old)
    boris = service.accounts.sign_up("Boris", PASSWORD)
    boris_id = service.storage.accounts.by_name("boris")
    assert boris and boris_id is not None
    seated = seat_match(service, get_pool("standard"), [old.id, boris_id.id])
    game = service.storage.seats.load(seated[0].game)
    assert [seat.name for seat in game] == ["Aik\u043e", "Boris"]
