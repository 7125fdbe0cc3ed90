"""Play again (docs/api.md, "Rematch"), against the core: once a game is over, one new game with
the same people in the same seats (their tokens act there too), the same computers and options,
its first dealer as the rules say for a match's next game (the loser deals); whoever asks first
makes it, in any process, and every later request answers the same game; spectators follow by
the new game's watch code.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app_fixtures import PERSON, make_service, people, play_out, refusal, table
from cribbage.app import Actor, GameService, Options, SeatSpec
from fake_time import FakeTime


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        ((PERSON, PERSON), {"variant": "short", "names": ("Aiko",), "clock": 60}),
        (
            (PERSON, SeatSpec("computer", "weak"), PERSON, PERSON),
            {"variant": "four-player", "target": 61},
        ),
    ],
    ids=["two-people", "four-player"],
)
def test_play_again_seats_the_same_people_and_the_loser_deals_first(
    service: GameService, seats: tuple[SeatSpec, ...], options: dict[str, Any]
) -> None:
    found = table(service, seats, **options)
    last = max(seat for seat, token in enumerate(found.tokens) if token)
    assert refusal(service.rematch, found.id, Actor(found.token(last))).code == "not_over"
    final = play_out(service, found.id, found.tokens)
    again = service.rematch(found.id, Actor(found.token(last)))
    assert again["id"] != found.id and again["seat"] == last
    for seat, token in enumerate(found.tokens):  # the same game for everyone, each token at its seat
        if token is None:
            continue
        theirs = service.rematch(found.id, Actor(token))
        assert theirs["id"] == again["id"] and theirs["seat"] == seat
        state = service.state(again["id"], Actor(token))
        assert state["seat"] == seat and state["waiting_for"] == [] and not state["over"]
        assert state["names"] == final["names"] and state["seats"] == final["seats"]
        assert (
            service.state(found.id, Actor(token))["rematch"] == again["id"]
        )  # the old game says where to go
    assert state["view"]["dealer"] == final["result"]["loser"]  # the loser deals the next game
    assert state["options"] == {**final["options"], "public": False}
    assert (state["turn_clock"] is not None) == ("clock" in options)  # its first turn runs at once
    assert refusal(service.record, again["id"], Actor(found.token(0))).code == "not_over"  # a new game


def test_a_rematch_is_asked_for_a_known_game_with_a_seat_of_it(service: GameService) -> None:
    found = table(service)
    play_out(service, found.id, found.tokens)
    for game_id, token, code in [
        ("nope", found.token(0), "not_found"),
        (found.id, None, "unauthorized"),
        (found.id, "not a token", "unauthorized"),
    ]:
        assert refusal(service.rematch, game_id, Actor(token)).code == code
    assert service.state(found.id, Actor(found.token(0)))["rematch"] is None  # nothing made


def test_a_seeded_games_rematch_is_seeded_one_more_and_unlisted(service: GameService) -> None:
    new_game = service.create(Options(seed=5, level="weak", public=True, variant="short"))
    token, state = new_game["token"], new_game["state"]
    play_out(service, state["id"], [token, None])
    again = service.rematch(state["id"], Actor(token))["state"]
    assert (again["options"]["seed"], again["options"]["public"]) == (6, False)
    assert again["seats"] == state["seats"] and again["version"] > 0  # its computer dealt and played


def test_spectators_follow_by_the_new_games_own_watch_code(service: GameService) -> None:
    found = table(service, variant="short")
    code = service.watch_link(found.id, Actor(found.token(0)))["code"]
    play_out(service, found.id, found.tokens)
    assert service.watch(code)["rematch_watch"] is None
    again = service.rematch(found.id, Actor(found.token(1)))
    watched = service.watch(code)  # the old code still shows the old game, with where to go
    assert watched["id"] == found.id and watched["over"] and watched["rematch"] is None
    follow = watched["rematch_watch"]
    assert follow == service.watch_link(again["id"], Actor(found.token(0)))["code"]  # the new game's own
    assert service.watch(follow)["id"] == again["id"] and service.watch(follow)["spectator"] is True


def test_two_processes_asked_at_once_make_one_rematch(shared_url: str, time: FakeTime) -> None:
    first, second = make_service(shared_url, time), make_service(shared_url, time)
    try:
        found = table(first, variant="short")
        play_out(first, found.id, found.tokens)
        second.state(found.id, Actor(found.token(1)))  # both processes hold the game
        asks = [(first, found.token(0)), (second, found.token(1))]
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda ask: ask[0].rematch(found.id, Actor(ask[1])), asks))
        assert [answer["seat"] for answer in answers] == [0, 1]
        assert answers[0]["id"] == answers[1]["id"] != found.id
        for service, token in zip((first, second), people(found), strict=True):
            assert service.state(found.id, Actor(token))["rematch"] == answers[0]["id"]
    finally:
        first.close()
        second.close()
