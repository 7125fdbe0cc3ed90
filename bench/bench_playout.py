"""The compact playout against the engine: the same games on many seeds, and how much faster.

Usage::

    python bench/bench_playout.py                         # 1,000 games of each two-player variant
    python bench/bench_playout.py --games 200 --variant lowball

For each two-player variant (or ``--variant``), plays ``--games`` seeded games between ``weak``
and ``normal`` (the four pairings in turn, new players for each game) once with the engine
(:func:`cribbage.table.match.play_game`) and once with the compact playout
(:func:`cribbage.table.playout.play_greedy_game`), and prints how many were the same game (the
same statistics: points by source, winner, hands and steps) and the CPU time of each.  The seeds
are those of ``tests/core/test_playout.py``, whose games are the first of these: the suite plays
a few dozen a variant (every branch of the playout is met within the first twenty), this study as
many as asked.  Exits with status 1, naming the first seeds, if any game differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from cribbage.engine.rules import VARIANTS, get_rules
from cribbage.players import Player, make_player
from cribbage.table.match import derive_seed, play_game
from cribbage.table.playout import play_greedy_game

TWO_PLAYER = [name for name, rules in VARIANTS.items() if rules.players == 2]
PAIRS = (("normal", "normal"), ("normal", "weak"), ("weak", "normal"), ("weak", "weak"))


def players(names: tuple[str, str], game: int) -> list[Player]:
    return [make_player(name, derive_seed(7, game, seat)) for seat, name in enumerate(names)]


def compare(variant: str, games: int) -> tuple[list[int], float, float]:
    """The seeds of the games that differ, and the CPU seconds of the engine and the playout."""
    rules = get_rules(variant)
    differ: list[int] = []
    engine = playout = 0.0
    for game in range(games):
        names = PAIRS[game % len(PAIRS)]
        seed = derive_seed(3, game)
        start = time.process_time()
        _, expected = play_game(rules, players(names, game), seed)
        middle = time.process_time()
        got = play_greedy_game(rules, players(names, game), seed)
        engine += middle - start
        playout += time.process_time() - middle
        if got != expected:
            differ.append(seed)
    return differ, engine, playout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000, help="games of each variant (default 1000)")
    parser.add_argument("--variant", choices=TWO_PLAYER, help="this variant only")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    failed = False
    for variant in [args.variant] if args.variant else TWO_PLAYER:
        differ, engine, playout = compare(variant, args.games)
        same = args.games - len(differ)
        print(
            f"{variant:11} {same} of {args.games} games the same;"
            f" CPU engine {engine:.2f} s, playout {playout:.2f} s ({engine / max(playout, 1e-9):.1f}x)"
        )
        if differ:
            failed = True
            print(f"    differ at seeds {differ[:10]}")
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
