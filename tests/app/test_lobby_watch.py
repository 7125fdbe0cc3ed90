"""The public lobby and the watch codes (docs/api.md, "Lobby", "Watch"), against the core: the
lobby lists the public tables with a seat to take, the newest first, and a table leaves it with
its last seat taken; a table's watch link is its creator's, the same every time, and shows a
spectator only what every seat sees.
"""

from __future__ import annotations

from app_fixtures import PERSON, act_first, refusal, table
from cribbage.app import Actor, GameService, Options, SeatSpec

ALPHABET = set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")


def test_the_lobby_lists_public_tables_with_an_open_seat_newest_first(service: GameService) -> None:
    service.create(Options(), [PERSON, PERSON])  # private: not listed
    service.create(Options(public=True), [PERSON, SeatSpec("computer", "weak")])  # no seat to take
    older = service.create(Options(public=True, names=("Aiko",), target=61, manual=True), [PERSON, PERSON])[
        "state"
    ]
    newer_options = Options(variant="four-player", public=True, clock=30, takeover="weak", names=())
    newer = service.create(newer_options, [PERSON, SeatSpec("computer", "strong"), PERSON, PERSON])["state"]
    codes = [invite["code"] for invite in newer["invites"]]
    tables = service.lobby()["tables"]
    assert [listed["code"] for listed in tables] == [codes[0], older["invites"][0]["code"]]
    four, two = tables
    assert set(four) == {"code", "variant", "players", "target", "options", "seats", "created"}
    assert (four["variant"], four["players"], four["target"]) == ("four-player", 4, 121)
    assert four["options"] == {
        "manual": False, "muggins": False, "muggins_play": False, "dealer": "cut", "skunk": "marked",
        "clock": 30, "takeover": "weak", "rated": False,
    }  # fmt: skip
    assert four["seats"] == [
        {"seat": 0, "kind": "human", "name": "Player 1", "taken": True},
        {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
        {"seat": 2, "kind": "human", "taken": False, "code": codes[0]},
        {"seat": 3, "kind": "human", "taken": False, "code": codes[1]},
    ]
    assert (two["variant"], two["target"], two["options"]["manual"]) == ("standard", 61, True)
    assert two["options"]["takeover"] is None and two["seats"][0]["name"] == "Aiko"
    assert service.lobby(limit=1)["tables"] == [four]
    # A seat taken: the table stays listed with its other seat; the last one taken: it goes.
    service.join(codes[0], "Boris")
    four = service.lobby()["tables"][0]
    assert four["code"] == codes[1] and four["seats"][2]["name"] == "Boris"
    service.join(codes[1], "Chen")
    assert [listed["code"] for listed in service.lobby()["tables"]] == [older["invites"][0]["code"]]


def test_only_the_creator_gets_the_watch_link_and_always_the_same(service: GameService) -> None:
    found = table(service)
    link = service.watch_link(found.id, Actor(found.token(0)))
    code = link["code"]
    assert link == {"code": code, "url": f"/watch/{code}"}
    assert len(code) == 10 and set(code) <= ALPHABET
    assert service.watch_link(found.id, Actor(found.token(0))) == link
    wrong = refusal(service.watch_link, found.id, Actor(found.token(1)))
    assert (wrong.code, wrong.values) == ("forbidden", {"seat": 1})
    assert refusal(service.watch_link, found.id, Actor()).code == "unauthorized"
    other = table(service)
    assert service.watch_link(other.id, Actor(other.token(0)))["code"] != code
    for unknown in ("ZZZZZZZZZZ", "short", code[:-1] + "0", ""):
        assert refusal(service.watch, unknown).code == "no_watch_code"
    assert service.watch(f" {code.lower()} ")["id"] == found.id  # read case-blind, spaces trimmed


def test_a_spectator_sees_only_what_every_seat_sees(service: GameService) -> None:
    new_game = service.create(Options(level="weak", seed=11))
    token, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    code = service.watch_link(game_id, Actor(token))["code"]
    act_first(service, game_id, token)  # the discard: the crib holds cards nobody sees yet
    mine = service.state(game_id, Actor(token))
    seen = service.watch(code)
    assert seen["spectator"] is True and seen["seat"] is None and seen["view"]["seat"] is None
    assert seen["actions"] == [] and seen["invites"] == [] and seen["rematch"] is None
    assert seen["view"]["hand"] == seen["view"]["kept"] == seen["view"]["discards"] == []
    assert mine["view"]["hand"] and mine["view"]["discards"]  # what the seat sees and it does not
    assert seen["options"]["seed"] is None and mine["options"]["seed"] == 11
    assert seen["version"] == mine["version"] and seen["view"]["scores"] == mine["view"]["scores"]
