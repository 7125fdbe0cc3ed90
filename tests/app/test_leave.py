"""Leaving a table (docs/api.md, "Leave"), against the core: a person leaves and their token is
void at once, in every process.  With the game's ``takeover`` level a computer takes the seat
(recorded among the record's seats, so the game is rebuilt with it from its record); without it
the seat is open again, its invitation valid, the table waits, and the creator may give the seat
to a computer.
"""

from __future__ import annotations

from app_fixtures import act_first, first_action, make_service, play_out, play_until, refusal, table
from cribbage.app import Actor, GameService
from cribbage.table.table import Table
from fake_time import FakeTime


def test_without_takeover_the_seat_opens_again_and_its_invitation_takes_it(service: GameService) -> None:
    found = table(service)
    state = service.state(found.id, Actor(found.token(0)))
    act_first(service, found.id, found.token(state["view"]["to_act"]))
    assert service.leave(found.id, Actor(found.token(1))) == {"seat": 1, "computer": None}
    assert refusal(service.state, found.id, Actor(found.token(1))).code == "unauthorized"  # void at once
    assert refusal(service.leave, found.id, Actor(found.token(1))).code == "unauthorized"
    creator = service.state(found.id, Actor(found.token(0)))
    assert creator["waiting_for"] == [1] and creator["actions"] == []
    assert creator["seats"][1] == {"seat": 1, "kind": "human", "taken": False}
    assert creator["names"][1] == "Player 2"
    code = found.codes[0]
    assert creator["invites"] == [{"seat": 1, "code": code, "url": f"/join/{code}"}]
    waiting = refusal(service.act, found.id, Actor(found.token(0)), {"type": "pass"})
    assert waiting.code == "table_waiting" and "waiting for seat 1" in waiting.message
    dana = service.join(code, "Dana")  # the same invitation
    assert dana["seat"] == 1 and dana["state"]["version"] == creator["version"]
    assert dana["state"]["waiting_for"] == [] and dana["state"]["names"][1] == "Dana"
    seat = service.state(found.id, Actor(found.token(0)))["view"]["to_act"]
    act_first(service, found.id, [found.token(0), dana["token"]][seat])  # the game goes on


def test_the_creators_seat_left_open_gets_a_new_invitation_every_seat_sees(service: GameService) -> None:
    found = table(service)
    assert service.leave(found.id, Actor(found.token(0))) == {"seat": 0, "computer": None}
    other = service.state(found.id, Actor(found.token(1)))
    [invite] = other["invites"]
    assert invite["seat"] == 0 and invite["code"] not in found.codes
    back = service.join(invite["code"], "Aiko")
    assert back["seat"] == 0 and back["state"]["waiting_for"] == []
    assert service.state(found.id, Actor(found.token(1)))["invites"] == []


def test_with_takeover_a_computer_plays_the_seat_to_the_end_and_the_record_rebuilds_it(
    service: GameService,
) -> None:
    found = table(service, takeover="weak", target=61)
    version = play_until(service, found, 1)["version"]
    assert service.leave(found.id, Actor(found.token(1))) == {"seat": 1, "computer": "weak"}
    creator = service.state(found.id, Actor(found.token(0)))
    assert creator["version"] > version  # the computer played the seat's turn at once
    assert creator["seats"][1] == {
        "seat": 1,
        "kind": "computer",
        "level": "weak",
        "name": "Computer",  # seat 1 of two: the one name of that seat
        "taken": True,
    }
    assert creator["waiting_for"] == [] and creator["invites"] == []
    final = play_out(service, found.id, [found.token(0), None])
    record = service.record(found.id, Actor(found.token(0)))
    assert record["seats"][0] is None and record["seats"][1]["player"] == "weak"
    assert isinstance(record["seats"][1]["seed"], int)
    rebuilt = Table.from_json(record)  # the game is wholly in its record, its computer too
    assert rebuilt.over and rebuilt.game.state.result is not None
    assert rebuilt.game.state.result.to_json() == final["result"]
    assert refusal(service.leave, found.id, Actor(found.token(0))).code == "game_over"


def test_the_creator_gives_an_open_seat_to_a_computer(service: GameService) -> None:
    found = table(service)
    service.leave(found.id, Actor(found.token(1)))
    before = service.state(found.id, Actor(found.token(0)))
    for seat, level, code in [(1, "genius", "invalid"), (7, "weak", "invalid"), (0, "weak", "seat_taken")]:
        assert refusal(service.seat_computer, found.id, Actor(found.token(0)), seat, level).code == code
    assert service.state(found.id, Actor(found.token(0))) == before  # nothing changed
    state = service.seat_computer(found.id, Actor(found.token(0)), 1, "normal")
    assert state["seats"][1]["kind"] == "computer" and state["seats"][1]["level"] == "normal"
    assert state["waiting_for"] == [] and state["invites"] == []
    assert refusal(service.seat_computer, found.id, Actor(found.token(0)), 1, "weak").code == "seat_taken"
    assert refusal(service.join, found.codes[0], "Eve").code == "no_invitation"  # its invitation is void
    assert play_out(service, found.id, [found.token(0), None])["over"]


def test_a_leave_through_one_process_voids_the_token_in_the_other(shared_url: str, time: FakeTime) -> None:
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first, takeover="weak")
        for seat in (0, 1):  # both processes hold the game in memory, with seat 1's person
            second.state(found.id, Actor(found.token(seat)))
        first.leave(found.id, Actor(found.token(1)))
        assert refusal(second.state, found.id, Actor(found.token(1))).code == "unauthorized"
        assert second.state(found.id, Actor(found.token(0)))["seats"][1]["kind"] == "computer"
        for turn in range(3000):  # the computer plays in either process
            through = (first, second)[turn % 2]
            if through.state(found.id, Actor(found.token(0)))["over"]:
                break
            act_first(through, found.id, found.token(0))
        assert first.state(found.id, Actor(found.token(0))) == second.state(found.id, Actor(found.token(0)))
        assert first.state(found.id, Actor(found.token(0)))["over"]
    finally:
        first.close()
        second.close()


def test_whoever_takes_a_left_seat_through_one_process_is_known_to_the_other(
    shared_url: str, time: FakeTime
) -> None:
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first)
        for seat in (0, 1):  # the second process holds the game, all seats taken
            second.state(found.id, Actor(found.token(seat)))
        first.leave(found.id, Actor(found.token(1)))
        dana = first.join(found.codes[0], "Dana")
        state = second.state(found.id, Actor(dana["token"]))  # not refused by the stale copy
        assert state["seat"] == 1 and state["names"][1] == "Dana" and state["waiting_for"] == []
        assert refusal(second.state, found.id, Actor(found.token(1))).code == "unauthorized"
    finally:
        first.close()
        second.close()


def test_an_action_through_a_stale_copy_is_decided_on_the_latest_game(
    shared_url: str, time: FakeTime
) -> None:
    """A process acts on the copy it holds: whatever another process changed meanwhile is still
    decided on the latest game.  An action sent with the latest version is not refused as stale;
    a person who left through one process cannot act through the other's stale copy."""
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first, takeover="weak", target=61)
        for seat in (0, 1):  # both processes hold the game at its first version
            second.state(found.id, Actor(found.token(seat)))
        moved = act_first(
            first, found.id, found.token(first.state(found.id, Actor(found.token(0)))["view"]["to_act"])
        )
        seat = moved["view"]["to_act"]
        action = first_action(first.state(found.id, Actor(found.token(seat))))
        assert action["version"] == moved["version"]
        answer = second.act(found.id, Actor(found.token(seat)), action)  # its copy was a version behind
        assert answer["version"] > moved["version"]

        # A person leaves (the seat opens: the version stays, the seating changes) through the
        # first process while the second holds a copy in which they are to act.
        found = table(first, target=61)
        leaver = first.state(found.id, Actor(found.token(0)))["view"]["to_act"]
        stale = second.state(found.id, Actor(found.token(leaver)))
        assert stale["actions"]
        first.leave(found.id, Actor(found.token(leaver)))
        assert (
            refusal(second.act, found.id, Actor(found.token(leaver)), first_action(stale)).code
            == "unauthorized"
        )
        after = first.state(found.id, Actor(found.token(1 - leaver)))
        assert after["version"] == stale["version"] and after["waiting_for"] == [leaver]
    finally:
        first.close()
        second.close()
