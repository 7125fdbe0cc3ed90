"""Matches of "Play now" (docs/api.md, "Matches"; docs/matchmaking.md), against the core: when a
game of a match ends and nobody has won the match yet, the next game is made by itself, as a
rematch (the same seats and tokens, the loser dealing first); every state carries the series'
score; a game lost by absence is the absent side's loss; a match someone left ends with its
game; the series is kept with each game, so a restarted process goes on with it.

The match's pairing and rating (Play now's queue, accounts) are tested through the API
(tests/web/test_web_matches.py); here a game is given its series as Play now gives it.
"""

from __future__ import annotations

from typing import Any

from app_fixtures import Table, act_first, make_service, people, play_out, play_until, series, table
from cribbage.app import Actor, GameService
from fake_time import FakeTime


def score(number: int, wins: list[int], winner: int | None = None, first_to: int = 2) -> dict[str, Any]:
    """A state's ``match``: game ``number``, each seat's ``wins``, the ``winner`` once over."""
    return {
        "first_to": first_to,
        "number": number,
        "wins": wins,
        "over": winner is not None,
        "winner": winner,
    }


def play_game(service: GameService, found: Table, number: int, wins: list[int]) -> dict[str, Any]:
    """Play game ``number`` of a best-of-3 to its end, its score checked before and after (``wins``
    updated): its last state."""
    assert service.state(found.id, Actor(found.token(1)))["match"] == score(number, wins)
    last = play_out(service, found.id, found.tokens)
    wins[last["result"]["winner"]] += 1
    won = wins.index(2) if 2 in wins else None
    assert last["match"] == score(number, wins, won)
    return last


def test_a_best_of_3_match_is_played_to_its_end_each_next_game_made_by_itself(
    service: GameService, database: str, time: FakeTime
) -> None:
    found = table(service, variant="short", match=series(2))
    wins = [0, 0]
    last = play_game(service, found, 1, wins)
    following = service.state(found.id, Actor(found.token(1)))["rematch"]  # made as the game ended
    assert following is not None and following != found.id
    game = found._replace(id=following)
    for seat, token in enumerate(found.tokens):  # both seats' tokens act there
        state = service.state(following, Actor(token))
        assert state["seat"] == seat and state["waiting_for"] == [] and not state["over"]
    assert state["view"]["dealer"] == last["result"]["loser"] and state["view"]["hand_number"] == 1
    assert state["names"] == last["names"] and state["match"] == score(2, wins)
    # The series is kept with the game: a restarted process goes on with the match.
    restarted = make_service(database, time)
    try:
        number = 2
        while True:
            last = play_game(restarted, game, number, wins)
            if last["match"]["over"]:
                break
            number += 1
            game = game._replace(id=restarted.state(game.id, Actor(game.token(0)))["rematch"])
            assert restarted.state(game.id, Actor(game.token(0)))["match"] == score(number, wins)
        assert sorted(wins) in ([0, 2], [1, 2]) and last["match"]["winner"] == wins.index(2)
        assert restarted.state(game.id, Actor(game.token(0)))["rematch"] is None  # no game follows the match
        again = restarted.rematch(game.id, Actor(game.token(0)))  # asked for: a game on its own
        assert again["state"]["match"] is None
        assert restarted.state(game.id, Actor(game.token(1)))["rematch"] == again["id"]
    finally:
        restarted.close()


def test_a_game_on_its_own_is_no_match(service: GameService) -> None:
    found = table(service, variant="short")
    assert service.state(found.id, Actor(found.token(0)))["match"] is None
    last = play_out(service, found.id, found.tokens)
    assert last["match"] is None and last["rematch"] is None  # nothing follows by itself


def test_a_match_someone_left_ends_with_its_game(service: GameService) -> None:
    """A seat left (a computer takes it at once, as at every table of Play now): no next game
    follows, the match is not over, and a rematch is a game on its own."""
    found = table(service, variant="short", match=series(2), takeover="weak")
    for token in people(found):  # each discards
        act_first(service, found.id, token)
    assert service.leave(found.id, Actor(found.token(1))) == {"seat": 1, "computer": "weak"}
    last = play_out(service, found.id, [found.token(0), None])
    assert last["over"] and last["rematch"] is None
    assert last["match"]["number"] == 1 and not last["match"]["over"]
    assert last["match"]["wins"] == [1, 0]  # the leaver's side lost it, whatever the score
    again = service.rematch(found.id, Actor(found.token(0)))
    assert again["state"]["match"] is None and again["state"]["seats"][1]["kind"] == "computer"


def test_a_seat_away_at_the_end_loses_its_game_and_the_match_goes_on(
    service: GameService, time: FakeTime
) -> None:
    """Seat 1's person lets their clock run out and never acts again: seat 0 wins the game for
    the match whatever the score, and the next game follows (they may lose it game by game)."""
    found = table(service, variant="short", match=series(2), clock=30)
    for _ in range(500):
        state = play_until(service, found, 1)
        if state["over"]:
            break
        time.advance(61 + 30)  # past its reading time and clock (10 s once away)
        assert service.expire_due() == [found.id]
        assert service.state(found.id, Actor(found.token(0)))["away"] == [1]
    last = service.state(found.id, Actor(found.token(0)))
    assert last["over"] and last["away"] == [1]
    assert last["match"] == score(1, [1, 0])
    following = last["rematch"]
    assert following is not None
    assert service.state(following, Actor(found.token(1)))["match"] == score(2, [1, 0])
