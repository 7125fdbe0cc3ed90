"""A rematch's people are given time to arrive (docs/api.md, "Leave", "Matches"), against the
core: until ``arrival`` (60 seconds after the rematch, or a match's next game, was made) the seat
of a person who is offline does not go to a computer (``seat_arriving``, with the seat and until
when); every state says until when, a spectator's too, the same in a restarted process.  A game
that is no rematch has no such wait.
"""

from __future__ import annotations

from app_fixtures import make_service, play_out, refusal, series, table
from cribbage.app import Actor, GameService
from fake_time import FakeTime

ARRIVAL = 60
"""The time a rematch's people are given (docs: ``app.games.options.ARRIVAL_SECONDS``)."""


def test_a_seat_of_the_next_game_goes_to_a_computer_only_once_its_person_had_time_to_arrive(
    service: GameService, database: str, time: FakeTime
) -> None:
    found = table(service, variant="short", match=series(2), clock=60)
    assert service.state(found.id, Actor(found.token(0)))["arrival"] is None  # its people joined it
    code = service.watch_link(found.id, Actor(found.token(0)))["code"]
    play_out(service, found.id, found.tokens)
    made = time()
    following = service.state(found.id, Actor(found.token(0)))["rematch"]
    assert following is not None
    arrival = service.state(following, Actor(found.token(0)))["arrival"]
    assert arrival == made + ARRIVAL
    assert service.state(following, Actor(found.token(1)))["arrival"] == arrival  # every seat's
    assert service.watch(service.watch(code)["rematch_watch"])["arrival"] == arrival  # a spectator's
    time.advance(ARRIVAL - 1)
    refused = refusal(service.seat_computer, following, Actor(found.token(0)), 1, "weak")
    assert (refused.code, refused.values) == ("seat_arriving", {"seat": 1, "until": arrival})
    assert service.state(following, Actor(found.token(1)))["seats"][1]["kind"] == "human"  # his token acts

    restarted = make_service(database, time)  # another process's copy has the same arrival
    try:
        assert abs(restarted.state(following, Actor(found.token(0)))["arrival"] - arrival) < 0.01
        assert (
            refusal(restarted.seat_computer, following, Actor(found.token(0)), 1, "weak").code
            == "seat_arriving"
        )
        time.advance(1.1)  # the time to arrive is over: the offline seat may go
        given = restarted.seat_computer(following, Actor(found.token(0)), 1, "weak")
        assert given["seats"][1]["kind"] == "computer"
    finally:
        restarted.close()


def test_a_rematch_asked_for_gives_its_people_time_to_arrive_too(
    service: GameService, time: FakeTime
) -> None:
    found = table(service, variant="short")
    play_out(service, found.id, found.tokens)
    time.advance(5)
    again = service.rematch(found.id, Actor(found.token(1)))
    assert again["state"]["arrival"] == time() + ARRIVAL
    assert (
        refusal(service.seat_computer, again["id"], Actor(found.token(0)), 1, "weak").code == "seat_arriving"
    )


def test_a_game_that_is_no_rematch_has_no_wait(service: GameService) -> None:
    found = table(service, variant="short")
    assert service.state(found.id, Actor(found.token(0)))["arrival"] is None
    given = service.seat_computer(found.id, Actor(found.token(0)), 1, "weak")  # offline: it goes at once
    assert given["seats"][1]["kind"] == "computer" and given["arrival"] is None
