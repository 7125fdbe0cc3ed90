"""Tables with several people (docs/api.md, "Tables with several people", "Join"), against the
core: a table gets an invitation for each person's seat but the creator's and waits until every
one is taken; joining takes the seat with its own token and name; a code takes one seat once,
however many ask at once in however many processes; an invitation shows its table first.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from app_fixtures import PERSON, act_first, make_service, refusal, table
from cribbage.app import Actor, AppError, GameService, Options, SeatSpec
from fake_time import FakeTime

ALPHABET = set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
"""The invitation codes' characters (docs: no 0/O, 1/I/L)."""


def computer(level: str = "weak") -> SeatSpec:
    return SeatSpec("computer", level)


def test_a_table_gets_an_invitation_for_each_open_seat(service: GameService) -> None:
    options = Options(variant="four-player", public=True, clock=60, names=("Aiko",))
    state = service.create(options, [PERSON, computer("strong"), PERSON, PERSON])["state"]
    invites = state["invites"]
    assert [invite["seat"] for invite in invites] == [2, 3]
    assert len({invite["code"] for invite in invites}) == 2
    for invite in invites:
        assert len(invite["code"]) == 6 and set(invite["code"]) <= ALPHABET
        assert invite["url"] == f"/join/{invite['code']}"
    assert state["waiting_for"] == [2, 3] and state["actions"] == []
    assert state["names"] == ["Aiko", "Computer 2", "Player 3", "Player 4"]
    assert state["seats"] == [
        {"seat": 0, "kind": "human", "name": "Aiko", "taken": True},
        {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
        {"seat": 2, "kind": "human", "taken": False},
        {"seat": 3, "kind": "human", "taken": False},
    ]
    assert state["options"]["public"] is True and state["options"]["clock"] == 60


def test_without_seats_a_game_is_one_person_against_computers_of_its_level(service: GameService) -> None:
    state = service.create(Options(level="normal", variant="three-player"))["state"]
    assert state["invites"] == [] and state["waiting_for"] == [] and state["actions"]
    assert [(seat["kind"], seat.get("level")) for seat in state["seats"]] == [
        ("human", None),
        ("computer", "normal"),
        ("computer", "normal"),
    ]
    state = service.create(Options(level="strong"), [PERSON, SeatSpec("computer")])["state"]
    assert state["seats"][1]["level"] == "strong"  # a computer without a level plays the game's
    assert state["invites"] == [] and state["actions"]  # no person to wait for: the creator plays


@pytest.mark.parametrize(
    ("seats", "options", "field", "message"),
    [
        ([PERSON, PERSON, PERSON], {}, "seats", "standard has 2 seats, not 3"),
        ([computer(), PERSON], {}, "seats", "seat 0 is the creator's: its kind must be human"),
        ([PERSON, {"kind": "robot"}], {}, "seats", "a seat's kind must be one of human, computer"),
        ([PERSON, SeatSpec("human", "weak")], {}, "seats", "a person's seat has no level"),
        ([PERSON, computer("genius")], {}, "level", "unknown level 'genius'"),
        ([PERSON, PERSON], {"seed": 5}, "seed", "no seed with several people"),
        ([PERSON, PERSON], {"takeover": "genius"}, "takeover", "takeover must be one of"),
    ],
)
def test_a_bad_table_is_refused_with_the_problem_named(
    service: GameService, seats: list[Any], options: dict[str, Any], field: str, message: str
) -> None:
    wrong = refusal(service.create, Options(**options), seats)
    assert (wrong.code, wrong.values) == ("invalid", {"field": field}) and message in wrong.message
    assert service.lobby()["tables"] == []


def test_joining_takes_the_seat_with_its_own_token_and_name(service: GameService) -> None:
    new_game = service.create(Options(variant="three-player", names=("Aiko",)), [PERSON, PERSON, computer()])
    creator, state = new_game["token"], new_game["state"]
    code = state["invites"][0]["code"]
    joined = service.join(f" {code.lower()} ", "  Boris  ")  # codes are read case-blind, names trimmed
    assert set(joined) == {"id", "token", "seat", "state"}
    assert joined["seat"] == 1 and joined["id"] == state["id"] and joined["token"] != creator
    mine = joined["state"]
    assert mine["seat"] == 1 and mine["names"] == ["Aiko", "Boris", "Computer 3"]
    assert mine["waiting_for"] == [] and mine["invites"] == []
    theirs = service.state(state["id"], Actor(creator))
    assert theirs["seat"] == 0 and theirs["names"] == mine["names"] and theirs["invites"] == []
    assert theirs["seats"][1] == {"seat": 1, "kind": "human", "name": "Boris", "taken": True}
    assert set(theirs["view"]["hand"]).isdisjoint(mine["view"]["hand"])  # each seat its own hand
    assert service.state(state["id"], Actor(joined["token"]))["seat"] == 1


@pytest.mark.parametrize(
    ("name", "reason"), [("", "length"), ("x" * 21, "length"), ("Ai\u202eko", "characters")]
)
def test_a_bad_name_takes_no_seat(service: GameService, name: str, reason: str) -> None:
    new_game = service.create(Options(), [PERSON, PERSON])
    creator, state = new_game["token"], new_game["state"]
    wrong = refusal(service.join, state["invites"][0]["code"], name)
    assert (wrong.code, wrong.values) == ("bad_name", {"field": "name", "reason": reason})
    assert service.state(state["id"], Actor(creator))["waiting_for"] == [1]


def test_a_code_takes_its_seat_once(service: GameService) -> None:
    new_game = service.create(Options(names=()), [PERSON, PERSON])
    creator, state = new_game["token"], new_game["state"]  # as a table without names
    code = state["invites"][0]["code"]
    for unknown in ("ZZZZZZ", "0O1IL0", code + "X", ""):
        assert refusal(service.join, unknown, "Aiko").code == "no_invitation"
    boris = service.join(code, "Boris")
    taken = refusal(service.join, code, "Chen")
    assert (taken.code, taken.values) == ("seat_taken", {"seat": 1})
    assert service.state(state["id"], Actor(boris["token"]))["names"] == ["Player 1", "Boris"]
    assert service.state(state["id"], Actor(creator))["waiting_for"] == []


@pytest.mark.parametrize("joins", [2, 6])
def test_of_joins_sent_at_once_with_one_code_exactly_one_wins(
    joins: int, database: str, time: FakeTime
) -> None:
    services = [make_service(database, time), make_service(database, time)]  # two processes
    try:
        state = services[0].create(Options(), [PERSON, PERSON])["state"]
        code = state["invites"][0]["code"]
        barrier = threading.Barrier(joins)
        answers: list[dict[str, Any] | AppError] = [AppError("none", "not answered")] * joins

        def send(i: int) -> None:
            barrier.wait()
            try:
                answers[i] = services[i % 2].join(code, f"Person {i}")
            except AppError as refused:
                answers[i] = refused

        threads = [threading.Thread(target=send, args=(i,)) for i in range(joins)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        [won] = [answer for answer in answers if isinstance(answer, dict)]
        assert sorted(answer.code for answer in answers if isinstance(answer, AppError)) == ["seat_taken"] * (
            joins - 1
        )
        for service in services:
            assert service.state(state["id"], Actor(won["token"]))["names"][1] == won["state"]["names"][1]
    finally:
        for service in services:
            service.close()


def test_the_game_waits_until_every_person_has_joined(service: GameService) -> None:
    new_game = service.create(Options(variant="three-player"), [PERSON, PERSON, computer()])
    creator, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    assert state["waiting_for"] == [1] and state["actions"] == []
    assert state["view"]["hand"] and state["view"]["phase"] == "discard"  # dealt: the creator sees theirs
    waiting = refusal(
        service.act, game_id, Actor(creator), {"type": "discard", "cards": state["view"]["hand"][:1]}
    )
    assert (waiting.code, waiting.values) == ("table_waiting", {"seats": [1]})
    assert waiting.message == "waiting for seat 1 to be taken: no action until every person has joined"
    assert refusal(service.hint, game_id, Actor(creator)).code == "no_hint"
    assert service.state(game_id, Actor(creator)) == state
    joined = service.join(state["invites"][0]["code"], "Boris")
    now = service.state(game_id, Actor(creator))
    assert now["waiting_for"] == [] and now["version"] == state["version"]
    mover = [creator, joined["token"]][now["view"]["to_act"]]
    assert act_first(service, game_id, mover)["version"] > now["version"]


def test_a_token_acts_only_for_its_own_seat(service: GameService) -> None:
    found = table(service)
    state = service.state(found.id, Actor(found.token(0)))
    actor = state["view"]["to_act"]
    other = 1 - actor
    mine = service.state(found.id, Actor(found.token(actor)))
    legal = {"type": "discard", "cards": mine["view"]["hand"][:2]}  # two of its six cards
    forged = refusal(service.act, found.id, Actor(found.token(other)), {**legal, "seat": actor})
    assert (forged.code, forged.values) == ("forbidden", {"seat": other})
    assert forged.message == f"your token plays seat {other}, not seat {actor}"
    theirs = refusal(service.act, found.id, Actor(found.token(other)), legal)
    assert theirs.code.startswith("illegal.") and f"seat {other} does not hold" in theirs.message
    assert refusal(service.act, found.id, Actor("x" * 43), legal).code == "unauthorized"
    stale = refusal(
        service.act, found.id, Actor(found.token(actor)), {**legal, "version": state["version"] - 1}
    )
    assert (stale.code, stale.values) == ("stale", {"version": state["version"]})
    assert service.state(found.id, Actor(found.token(0))) == state  # nothing changed
    assert service.act(found.id, Actor(found.token(actor)), legal)["version"] > state["version"]


def test_an_invitation_shows_its_table_before_joining(service: GameService) -> None:
    options = Options(variant="four-player", names=("Aiko",), manual=True)
    new_game = service.create(options, [PERSON, computer("strong"), PERSON, PERSON])
    creator, state = new_game["token"], new_game["state"]
    first, second = (invite["code"] for invite in state["invites"])
    service.join(second, "Boris")
    preview = service.invitation(first.lower())
    assert preview == {
        "seat": 2,
        "variant": "four-player",
        "players": 4,
        "target": 121,
        "options": {
            "manual": True, "muggins": False, "muggins_play": False, "dealer": "cut", "skunk": "marked",
            "clock": None, "takeover": None, "rated": False,
        },
        "seats": [
            {"seat": 0, "kind": "human", "name": "Aiko", "taken": True},
            {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
            {"seat": 2, "kind": "human", "taken": False},
            {"seat": 3, "kind": "human", "name": "Boris", "taken": True},
        ],
    }  # fmt: skip
    assert refusal(service.invitation, second).code == "seat_taken"
    assert refusal(service.invitation, "ZZZZZZ").code == "no_invitation"
    assert service.join(first, "Carla")["seat"] == 2  # nothing changed by looking
    assert service.state(state["id"], Actor(creator))["waiting_for"] == []
