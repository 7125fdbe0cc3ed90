"""Benchmark learning from games: the review of a whole game, and the trainers' answers.

Usage::

    python bench/bench_review.py                 # 5 games to 121
    python bench/bench_review.py --games 10 --seed 3

Prints, over ``--games`` recorded games to 121 (``strong`` in seat 0 against ``normal``, seeded),
the wall-clock and CPU time (which a machine busy with other work does not inflate; the goal is
judged on it) of :func:`cribbage.study.review.review_game` (what ``cribbage review``,
the terminal's review and ``POST /api/review`` do after reading the record): for one seat (a
person's game, the usual case) and for both seats (a game between computers), with the number
of decisions judged.  The tables are loaded before the timing.

Then the trainers' drill answers (:func:`bench_drill.time_drill`, also runnable alone).

The issue's targets: the review of a whole 121-point game in at most 2 s on this machine, and a
drill's answer in at most 100 ms.

Each timing is a function in :data:`TIMINGS` taking the parsed arguments and returning its
lines; ``main`` prints them in turn (``--only NAME`` runs one), so another can be added.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from cribbage.ai.discard import discard_options
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.study.review import review_game
from cribbage.table.table import Table, seats

TARGET_SECONDS = 2.0
"""The issue's goal for the review of a whole 121-point game."""


def recorded_games(count: int, seed: int) -> list[Game]:
    """``count`` finished games to 121 between ``strong`` (seat 0) and ``normal``."""
    games = []
    for number in range(count):
        players = seats(["strong", "normal"], [number, 99])
        game = Game(get_rules("standard"), seed=seed + number, seats=players)
        Table(game).run()
        games.append(game)
    return games


def _seconds(values: Sequence[float]) -> str:
    return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"


def time_review(args: argparse.Namespace) -> list[str]:
    """The review of whole games to 121: one seat, then both."""
    discard_options("5H 5C 6D JS QH 2C", dealer=True)  # loads the tables
    games = recorded_games(args.games, args.seed)
    head = f"review of a whole game to 121 ({args.games} games, strong vs normal)"
    lines = [f"{head}; goal <= {TARGET_SECONDS:g} s"]
    worst = 0.0
    for label, chosen in (("one seat", [0]), ("both seats", [0, 1])):
        wall, cpu, decisions = [], [], []
        for game in games:
            start, start_cpu = time.perf_counter(), time.process_time()
            review = review_game(game, chosen)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            decisions.append(len(review.decisions))
        if chosen == [0]:
            worst = max(cpu)
        lines.append(
            f"  {label}: {_seconds(wall)}; CPU {_seconds(cpu)};"
            f" {statistics.mean(decisions):.0f} decisions a game"
        )
    verdict = "meets" if worst <= TARGET_SECONDS else "MISSES"
    lines.append(f"  one seat {verdict} the goal in CPU time (slowest {worst:.2f} s)")
    return lines


def time_drills(args: argparse.Namespace) -> list[str]:
    """The trainers' answers (bench/bench_drill.py, which prints its own lines as it goes)."""
    from bench_drill import time_drill  # this script's folder is on the path

    time_drill(args.drills)
    return []


TIMINGS: dict[str, Callable[[argparse.Namespace], list[str]]] = {"review": time_review, "drill": time_drills}
"""Each timing of this benchmark by name, in the order they are printed."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=5, help="games to 121 reviewed (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--drills", type=int, default=200, help="drill answers of each kind (default 200)")
    parser.add_argument("--only", choices=sorted(TIMINGS), help="run one timing only")
    args = parser.parse_args(argv)
    for name, timing in TIMINGS.items():
        if args.only is None or args.only == name:
            for line in timing(args):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
