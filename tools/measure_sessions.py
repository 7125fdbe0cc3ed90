"""Measure what a cached game really holds, to calibrate ``estimate_bytes`` (docs/deploy.md).

    PYTHONPATH=src python tools/measure_sessions.py [--games 12] [--seed 1]

For each level and several points of a game (a few actions in, mid-game, finished), plays games
through :class:`~cribbage.app.GameService` with random legal human actions, then
measures with ``tracemalloc`` the memory that a session restored from the stored record keeps
alive (after a garbage collection), and the memory that dropping the session played in this
process gives back (the strong player's search memos must not stay in the cache: the test
suite checks this for one seed, tests/web/test_web_cache_memory.py), and prints both beside
:func:`estimate_bytes`.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import tracemalloc

from cribbage.app import Actor, GameService, Options
from cribbage.app.games.live_game import LiveGame
from cribbage.app.games.repository import estimate_bytes
from cribbage.engine.templates import choices
from cribbage.storage import Storage


def held_bytes(service: GameService, game_id: str) -> tuple[int, LiveGame]:
    """The bytes a session restored from storage keeps alive, and the session."""
    stored = service.storage.games.load(game_id)
    seated = service.storage.seats.load(game_id)
    assert stored is not None
    LiveGame.restore(stored, seated)  # warm up: imports, tables and caches shared by all games
    gc.collect()
    before = tracemalloc.take_snapshot()
    session = LiveGame.restore(stored, seated)
    gc.collect()
    after = tracemalloc.take_snapshot()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return size, session


def freed_bytes(service: GameService, game_id: str) -> int:
    """The bytes given back when the cached session played in this process is dropped (traced
    since before it was made)."""
    gc.collect()
    before = tracemalloc.take_snapshot()
    del service.repository._cache[game_id]
    gc.collect()
    after = tracemalloc.take_snapshot()
    return -sum(stat.size_diff for stat in after.compare_to(before, "filename"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per level and point")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    service = GameService(Storage("sqlite://"))
    tracemalloc.start()
    header = f"{'level':8} {'actions':>7} {'hands':>5} {'measured':>9} {'played':>9} {'estimate':>9}"
    print(f"{header}  (KiB, mean of {args.games})")
    for level in ("weak", "normal", "strong"):
        for moves in (2, 20, 10_000):
            measured, played, estimated, actions, hands = [], [], [], [], []
            for _ in range(args.games):
                new_game = service.create(Options(level=level, seed=rng.randrange(2**32)))
                token, state = new_game["token"], new_game["state"]
                game_id = state["id"]
                for _ in range(moves):
                    if state["over"]:
                        break
                    allowed = [choice for template in state["actions"] for choice in choices(template)]
                    state = service.act(game_id, Actor(token), rng.choice(allowed))
                size, session = held_bytes(service, game_id)
                measured.append(size)
                played.append(freed_bytes(service, game_id))
                estimated.append(estimate_bytes(session))
                actions.append(len(session.game.actions))
                hands.append(session.table.tally.hands)
            print(
                f"{level:8} {statistics.mean(actions):7.0f} {statistics.mean(hands):5.1f} "
                f"{statistics.mean(measured) / 1024:9.1f} {statistics.mean(played) / 1024:9.1f} "
                f"{statistics.mean(estimated) / 1024:9.1f}"
                f"   max {max(measured) / 1024:.1f} {max(played) / 1024:.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
