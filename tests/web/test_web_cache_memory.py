"""The game cache is bounded by memory: its budget holds, finished games leave first, a game
being played never leaves, and a game that left is rebuilt from its record identically."""

from __future__ import annotations

import gc
import random
import tracemalloc
from typing import Any

import pytest

from cribbage.app import Actor, GameService, Options
from cribbage.app.games.live_game import LiveGame
from cribbage.app.games.repository import estimate_bytes
from cribbage.storage import Storage
from web_fixtures import actions_of, first_action


def service(cache_bytes: int = 10**12, cache_size: int | None = None) -> GameService:
    return GameService(Storage("sqlite://"), cache_bytes=cache_bytes, cache_size=cache_size)


def create(games: GameService, seed: int, level: str = "weak") -> tuple[str, str, dict[str, Any]]:
    new_game = games.create(Options(level=level, seed=seed))
    token, state = new_game["token"], new_game["state"]
    return state["id"], token, state


def finish(games: GameService, game_id: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    for _ in range(2000):
        if state["over"]:
            return state
        state = games.act(game_id, Actor(token), first_action(state))
    raise AssertionError("the game did not end")


def consistent(games: GameService) -> None:
    """The running total is the sum of the cached sessions' estimates, with the record text
    kept for each one saved here."""
    sessions = [games.repository._cache[game_id] for game_id in games.cached()]
    assert games.cached_bytes == sum(games.repository.size_of(session) for session in sessions)


def test_the_budget_holds() -> None:
    probe = service()
    one = estimate_bytes(probe.repository._cache[create(probe, 1)[0]])
    games = service(cache_bytes=5 * one)
    ids = []
    for seed in range(20):
        game_id, token, state = create(games, seed)
        ids.append(game_id)
        games.act(game_id, Actor(token), first_action(state))  # a game grows as it is played
        assert games.cached_bytes <= games.repository.cache_bytes
        consistent(games)
    cached = games.cached()
    assert 0 < len(cached) < 20
    assert cached == [game_id for game_id in ids if game_id in cached]  # the most recent stay
    assert ids[-1] in cached


def test_finished_games_leave_first() -> None:
    games = service()
    older = [create(games, seed) for seed in (1, 2)]
    game_id, token, state = create(games, 3)
    finish(games, game_id, token, state)  # the most recently used, but over
    games.repository.cache_bytes = games.cached_bytes  # full to the byte: the next game is one too many
    create(games, 4)
    cached = games.cached()
    assert game_id not in cached
    assert all(old_id in cached for old_id, _, _ in older)
    assert games.cached_bytes <= games.repository.cache_bytes
    consistent(games)


def test_unfinished_games_leave_least_recently_used_first() -> None:
    games = service()
    first, _second, _third = (create(games, seed) for seed in (1, 2, 3))
    games.state(first[0], Actor(first[1]))  # used again: now the second is the least recent
    games.repository.cache_bytes = games.cached_bytes
    fourth = create(games, 4)
    cached = games.cached()
    # Order of use: second, third, first, fourth; shrunk to 95 % of the budget, two leave.
    assert cached == [first[0], fourth[0]]


def test_a_game_being_played_never_leaves() -> None:
    games = service()
    game_id, _token, _state = create(games, 1)
    games.repository.cache_bytes = 1  # everything is over budget
    session = games.repository._cache[game_id]
    with session.lock:
        for seed in range(2, 6):
            create(games, seed)
        assert game_id in games.cached()
    create(games, 7)
    assert game_id not in games.cached()
    consistent(games)


def test_a_game_that_left_is_rebuilt_identically() -> None:
    """Two copies of one seeded strong game, one always cached, one rebuilt from its record at
    every request: every state is the same (the strong player's learning included)."""
    keeps, drops = service(), service(cache_bytes=1)
    a = create(keeps, 11, "strong")
    b = create(drops, 11, "strong")
    rng = random.Random(5)
    states = (a[2], b[2])
    hands = 0
    for _ in range(60):
        assert {**states[0], "id": None} == {**states[1], "id": None}
        if states[0]["over"]:
            break
        assert drops.cached() == []  # nothing kept: the next request replays the record
        action = rng.choice(actions_of(states[0]))
        states = (keeps.act(a[0], Actor(a[1]), action), drops.act(b[0], Actor(b[1]), action))
        hands = keeps.repository._cache[a[0]].table.tally.hands
    assert hands >= 3  # the strong player learned from several hands


def test_count_bound_still_applies() -> None:
    games = service(cache_size=2)
    for seed in range(5):
        create(games, seed)
    assert len(games.cached()) == 2


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        service(cache_bytes=-1)


def test_the_estimate_covers_what_a_strong_game_holds() -> None:
    """The calibration (docs/deploy.md): a strong game of several hands, restored from its
    record, keeps alive less than its estimate, and not far less."""
    games = service()
    game_id, token, state = create(games, 21, "strong")
    rng = random.Random(2)
    for _ in range(45):
        if state["over"]:
            break
        state = games.act(game_id, Actor(token), rng.choice(actions_of(state)))
    stored = games.storage.games.load(game_id)
    assert stored is not None
    seated = games.storage.seats.load(game_id)
    LiveGame.restore(stored, seated)  # warm the shared tables and caches first
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        session = LiveGame.restore(stored, seated)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    estimate = estimate_bytes(session)
    assert session.table.tally.hands >= 3
    assert held <= estimate <= 3 * held, (held, estimate)


@pytest.mark.parametrize(("variant", "moves"), [("standard", 12), ("short", 2000)], ids=["middle", "end"])
def test_the_estimate_covers_a_strong_game_played_in_this_process(variant: str, moves: int) -> None:
    """A game played here, not restored: the strong player's search memos (hundreds of KiB in
    the middle of a hand) are dropped after each request, so what the cache keeps alive is no
    more than its estimate.  Measured by what freeing the cached game gives back (traced from
    before the game is made), in the middle of a game (a dozen actions, several hands) and at
    its end (a game to 61: every request under tracemalloc costs several times its CPU);
    tools/measure_sessions.py prints the same measure over many games of every level."""
    games = service()
    tracemalloc.start()
    try:
        new_game = games.create(Options(level="strong", seed=1, variant=variant))
        game_id, token, state = new_game["state"]["id"], new_game["token"], new_game["state"]
        rng = random.Random(1)
        for _ in range(moves):
            if state["over"]:
                break
            state = games.act(game_id, Actor(token), rng.choice(actions_of(state)))
        assert state["over"] == (moves == 2000)  # the middle is not the end
        session = games.repository._cache[game_id]
        estimate = estimate_bytes(session)
        assert session.table.tally.hands >= 2
        gc.collect()
        before = tracemalloc.take_snapshot()
        del games.repository._cache[game_id], session
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    freed = -sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert 0 < freed <= estimate, (freed, estimate)
