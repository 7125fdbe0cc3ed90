"""Turn clocks (docs/api.md, "Turn clock"), against the core: when the person to act lets their
clock run out a computer makes their move, recorded as theirs, and their seat is away until they
act again; the clock runs from when their page shows the decision (``seen``), or after the
reading time; an away seat's turns are short; a correspondence game's clock runs days.  The
deadline is stored with the game: whichever process notices first moves, once.

The time is the test's own (``time``): no test waits for a real clock.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from app_fixtures import PERSON, act_first, make_service, play_until, refusal, table
from cribbage.app import Actor, GameService, Options
from fake_time import FakeTime

READING = 60
"""The reading time a turn's deadline first allows (docs: ``service.READING_SECONDS``)."""

AWAY = 10
"""An away seat's turn (docs: ``clocks.AWAY_SECONDS``)."""

AWAY_CORRESPONDENCE = 3600
"""An away seat's turn in a correspondence game (docs: ``clocks.AWAY_CORRESPONDENCE_SECONDS``)."""

DAY = 86_400


def test_a_computer_moves_for_the_seat_whose_clock_ran_out_and_marks_it_away(
    service: GameService, time: FakeTime
) -> None:
    found = table(service, clock=30)
    state = service.state(found.id, Actor(found.token(0)))
    seat = state["view"]["to_act"]
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + READING + 30}
    assert state["away"] == []
    said = service.seen(found.id, Actor(found.token(seat)), state["version"])  # its page shows the decision
    assert said == {"started": True, "turn_clock": {"seat": seat, "deadline": time() + 30}, "away": []}
    state = service.state(found.id, Actor(found.token(0)))
    assert state["turn_clock"] == said["turn_clock"]
    time.advance(29.9)
    assert service.expire_due() == []
    assert service.state(found.id, Actor(found.token(0))) == state  # not yet
    time.advance(0.2)
    assert service.expire_due() == [found.id]
    after = service.state(found.id, Actor(found.token(0)))
    assert after["version"] > state["version"] and after["away"] == [seat]
    # The next turn's clock runs: the other seat's (the discards), waiting for its page.
    assert after["turn_clock"] == {"seat": 1 - seat, "deadline": time() + READING + 30}
    assert service.expire_due() == []  # once
    # The move is recorded as the seat's own: the action after the state is its discard.
    [moved] = [event for event in after["events"] if event["index"] == state["version"]]
    assert (moved["kind"], moved["seat"]) == ("discard", seat)
    play_until(service, found, seat)  # the away seat's person acts again: no longer away
    assert act_first(service, found.id, found.token(seat))["away"] == []


def test_no_clock_runs_without_a_clock(service: GameService, time: FakeTime) -> None:
    found = table(service)
    before = service.state(found.id, Actor(found.token(0)))
    assert before["turn_clock"] is None and before["options"]["clock"] is None
    time.advance(1000)
    assert service.expire_due() == []
    assert service.state(found.id, Actor(found.token(0))) == before


def test_no_clock_runs_while_the_table_waits(service: GameService, time: FakeTime) -> None:
    new_game = service.create(Options(clock=10), [PERSON, PERSON])
    creator, created = new_game["token"], new_game["state"]
    game_id = created["id"]
    assert created["turn_clock"] is None and created["waiting_for"] == [1]
    time.advance(1000)
    assert service.expire_due() == []
    joined = service.join(created["invites"][0]["code"], "Chen")
    # It runs from the last join (its page first shows the decision).
    assert joined["state"]["turn_clock"]["deadline"] == time() + READING + 10
    # A person leaves (no takeover): the table waits, the clock stops, nothing moves.
    assert service.leave(game_id, Actor(joined["token"])) == {"seat": 1, "computer": None}
    version = service.state(game_id, Actor(creator))["version"]
    time.advance(1000)
    assert service.expire_due() == []
    after = service.state(game_id, Actor(creator))
    assert after["version"] == version and after["turn_clock"] is None


def test_the_clock_runs_from_when_the_page_shows_the_decision(service: GameService, time: FakeTime) -> None:
    found = table(service, clock=30)
    state = service.state(found.id, Actor(found.token(0)))
    seat, version = state["view"]["to_act"], state["version"]
    time.advance(50)  # the page replays what happened, its person reads the show
    assert service.expire_due() == []
    # Only the seat to act, at the version it is shown, starts its clock.
    assert not service.seen(found.id, Actor(found.token(1 - seat)), version)["started"]
    assert not service.seen(found.id, Actor(found.token(seat)), version - 1)["started"]
    assert (
        service.state(found.id, Actor(found.token(0)))["turn_clock"]["deadline"] == time() - 50 + READING + 30
    )
    started = time() + 30
    assert service.seen(found.id, Actor(found.token(seat)), version)["turn_clock"]["deadline"] == started
    time.advance(5)  # said again (a reload): the clock goes on, never put back
    again = service.seen(found.id, Actor(found.token(seat)), version)
    assert again == {"started": False, "turn_clock": {"seat": seat, "deadline": started}, "away": []}
    time.advance(24.9)
    assert service.expire_due() == []  # 29.9 s after its page showed it (79.9 s after the turn began)
    time.advance(0.2)
    assert service.expire_due() == [found.id]
    assert service.state(found.id, Actor(found.token(0)))["away"] == [seat]


@pytest.mark.parametrize("version", ["3", -1, None, True, 1.5])
def test_a_version_seen_is_a_whole_number(service: GameService, version: object) -> None:
    found = table(service, clock=30)
    wrong = refusal(service.seen, found.id, Actor(found.token(0)), version)
    assert (wrong.code, wrong.values) == ("invalid", {"field": "version"})
    assert refusal(service.seen, found.id, Actor(), 1).code == "unauthorized"


def test_a_page_that_never_shows_the_decision_cannot_stall_the_game(
    service: GameService, time: FakeTime
) -> None:
    found = table(service, clock=30)
    state = service.state(found.id, Actor(found.token(0)))
    time.advance(READING + 29.9)
    assert service.expire_due() == []
    time.advance(0.2)
    assert service.expire_due() == [found.id]
    assert service.state(found.id, Actor(found.token(0)))["away"] == [state["view"]["to_act"]]


def test_an_away_seat_gets_a_short_clock_until_it_acts_again(service: GameService, time: FakeTime) -> None:
    found = table(service, clock=120)
    seat = service.state(found.id, Actor(found.token(0)))["view"]["to_act"]
    time.advance(READING + 121)
    assert service.expire_due() == [found.id]  # its first timeout: away
    for _ in range(2):  # the other seat plays on; each turn of the away seat runs out in seconds
        state = play_until(service, found, seat)
        assert state["away"] == [seat]
        assert state["turn_clock"] == {"seat": seat, "deadline": time() + AWAY}
        assert not service.seen(found.id, Actor(found.token(seat)), state["version"])["started"]  # not longer
        time.advance(AWAY + 0.1)
        assert service.expire_due() == [found.id]
    play_until(service, found, seat)
    back = act_first(service, found.id, found.token(seat))  # it acts in time: back, its full clock again
    assert back["away"] == []
    state = play_until(service, found, seat)
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + READING + 120}


def test_an_early_discard_leaves_the_turn_of_the_seat_to_act_as_it_was(
    service: GameService, time: FakeTime
) -> None:
    found = table(service, clock=30)
    state = service.state(found.id, Actor(found.token(0)))
    seat = state["view"]["to_act"]
    service.seen(found.id, Actor(found.token(seat)), state["version"])
    deadline = time() + 30
    time.advance(20)
    early = act_first(service, found.id, found.token(1 - seat))  # the other person discards first
    assert early["view"]["to_act"] == seat and early["turn_clock"] == {"seat": seat, "deadline": deadline}
    assert not service.seen(found.id, Actor(found.token(seat)), early["version"])["started"]  # no new turn
    assert service.state(found.id, Actor(found.token(0)))["turn_clock"]["deadline"] == deadline


def test_a_correspondence_clock_runs_days_and_its_away_seat_gets_an_hour(
    service: GameService, time: FakeTime
) -> None:
    """A clock of days a move (up to 7); once it ran out, the away seat's turns run an hour,
    not the live tables' seconds."""
    found = table(service, clock=3 * DAY)
    state = service.state(found.id, Actor(found.token(0)))
    seat = state["view"]["to_act"]
    assert state["options"]["clock"] == 3 * DAY
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + READING + 3 * DAY}
    time.advance(2 * DAY)
    assert service.expire_due() == []
    time.advance(DAY + READING + 1)
    assert service.expire_due() == [found.id]
    state = play_until(service, found, seat)
    assert state["away"] == [seat]
    assert state["turn_clock"] == {"seat": seat, "deadline": time() + AWAY_CORRESPONDENCE}


@pytest.mark.parametrize(("clock", "allowed"), [(9, False), (10, True), (604_800, True), (604_801, False)])
def test_a_clock_is_ten_seconds_to_seven_days(service: GameService, clock: int, allowed: bool) -> None:
    if allowed:
        found = table(service, clock=clock)
        assert service.state(found.id, Actor(found.token(0)))["options"]["clock"] == clock
        return
    wrong = refusal(service.create, Options(clock=clock), [PERSON, PERSON])
    assert (wrong.code, wrong.values) == ("invalid", {"field": "clock"})


def test_the_creator_hands_an_offline_person_to_a_computer(
    service: GameService, online: dict[str, set[int]]
) -> None:
    found = table(service, (PERSON, PERSON, PERSON), variant="three-player")
    creator = found.token(0)
    assert refusal(service.seat_computer, found.id, Actor(found.token(1)), 2, "weak").code == "forbidden"
    assert refusal(service.seat_computer, found.id, Actor(creator), 0, "weak").code == "seat_taken"  # its own
    online[found.id] = {1}
    assert refusal(service.seat_computer, found.id, Actor(creator), 1, "weak").code == "seat_online"
    state = service.seat_computer(found.id, Actor(creator), 2, "weak")  # offline: a computer takes the seat
    assert state["seats"][2]["kind"] == "computer" and state["seats"][1]["kind"] == "human"
    assert (
        refusal(service.state, found.id, Actor(found.token(2))).code == "unauthorized"
    )  # its token acts no more
    assert refusal(service.seat_computer, found.id, Actor(creator), 2, "weak").code == "seat_taken"
    # The game goes on with the computer at seat 2: the people play, it never waits for seat 2.
    for _ in range(20):
        state = service.state(found.id, Actor(creator))
        assert state["view"]["to_act"] in (0, 1) and not state["over"]
        act_first(service, found.id, found.token(state["view"]["to_act"]))


def test_at_a_correspondence_table_only_an_away_seat_goes_to_a_computer(
    service: GameService, time: FakeTime
) -> None:
    """People are offline between the moves of a slow game: the creator may hand a seat to a
    computer only once its person's clock ran out (the seat is away)."""
    found = table(service, clock=DAY)
    play_until(service, found, 1)
    wrong = refusal(service.seat_computer, found.id, Actor(found.token(0)), 1, "weak")
    assert (wrong.code, wrong.values) == ("seat_not_away", {"seat": 1})
    time.advance(DAY + READING + 1)
    assert service.expire_due() == [found.id]
    given = service.seat_computer(found.id, Actor(found.token(0)), 1, "weak")
    assert given["seats"][1]["kind"] == "computer" and given["away"] == []


def test_two_processes_noticing_at_once_move_only_once(shared_url: str, time: FakeTime) -> None:
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first, clock=60)
        before = second.state(found.id, Actor(found.token(0)))  # both processes hold the game
        seat = before["view"]["to_act"]
        time.advance(READING + 61)
        with ThreadPoolExecutor(2) as pool:
            moved = list(pool.map(GameService.expire_due, (first, second)))
        assert sorted(moved) == [[], [found.id]]
        states = [service.state(found.id, Actor(found.token(0))) for service in (first, second)]
        assert states[0] == states[1] and states[0]["away"] == [seat]
        # One move: the seat's discard, then the computers' nothing (the other seat is a person's).
        assert states[0]["version"] == before["version"] + 1
    finally:
        first.close()
        second.close()


def test_every_process_serves_the_clock_a_page_started(shared_url: str, time: FakeTime) -> None:
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first, clock=30)
        state = second.state(found.id, Actor(found.token(0)))  # both processes hold the game
        seat = state["view"]["to_act"]
        first.seen(found.id, Actor(found.token(seat)), state["version"])
        for service in (first, second):
            assert service.state(found.id, Actor(found.token(0)))["turn_clock"]["deadline"] == time() + 30
        time.advance(30.1)
        assert second.expire_due() == [found.id]
    finally:
        first.close()
        second.close()
