"""Benchmark the trainers: how long a drill's answer takes (issue 15: at most 100 ms).

Usage::

    python bench/bench_drill.py              # 200 drills of each kind
    python bench/bench_drill.py --drills 50

A drill's answer is timed as the web API computes it, from the seed alone: for the discard drill
the deal made again from its seed and the throw judged against every keep
(:func:`cribbage.study.drills.judge_discard`; at a score near the end, by the chance of winning, too);
for the play drill the position found again by replaying its seeded game between two computer
players, and the card judged against every legal card's value
(:func:`cribbage.study.drills.judge_play`), and the same with the position kept from its deal (as the
server keeps the last positions).  Prints the 50th and 95th percentiles and the worst, as
wall-clock and CPU time (which a busy machine does not inflate).  :func:`time_drill` is meant
to be folded into ``bench/bench_review.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from cribbage.study.drills import (
    SEED_LIMIT,
    discard_deal,
    judge_discard,
    judge_play,
    play_position,
)

GOAL_MS = 100.0
"""The issue's goal for a drill's answer."""


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _timed(
    work: Callable[[int], object], seeds: Sequence[int], prepare: Callable[[int], object] | None = None
) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for seed in seeds:
        if prepare is not None:
            prepare(seed)
        wall, cpu = time.perf_counter(), time.process_time()
        work(seed)
        walls.append(1000 * (time.perf_counter() - wall))
        cpus.append(1000 * (time.process_time() - cpu))
    return walls, cpus


def _discard(seed: int) -> object:
    deal = discard_deal(seed)
    return judge_discard(deal, deal.hand[:2])


def _discard_at_score(seed: int) -> object:
    deal = discard_deal(seed, scores=(100, 108))
    return judge_discard(deal, deal.hand[:2])


def _play(seed: int) -> object:
    play_position.cache_clear()  # the game is replayed from the seed
    position = play_position(seed)
    return judge_play(position, position.legal()[0])


def _play_judged(seed: int) -> object:
    position = play_position(seed)  # found when the drill was dealt: kept by the server
    return judge_play(position, position.legal()[0])


def time_drill(drills: int = 200, seed: int = 15) -> dict[str, dict[str, float]]:
    """Time ``drills`` answers of each kind; prints the figures and returns them (milliseconds):
    ``{kind: {"p50", "p95", "max", "cpu_p50", "cpu_p95"}}``."""
    rng = random.Random(seed)
    _discard(0)  # the tables are loaded once, as in a running server
    _play(0)
    results: dict[str, dict[str, float]] = {}
    print(f"drill answers ({drills} of each, ms; goal: at most {GOAL_MS:.0f} ms)")
    kinds = (
        ("discard", _discard, None),
        ("discard at 100-108", _discard_at_score, None),
        ("play, game replayed", _play, None),
        ("play, position kept", _play_judged, play_position),
    )
    for kind, work, prepare in kinds:
        seeds = [rng.randrange(SEED_LIMIT) for _ in range(drills)]
        walls, cpus = _timed(work, seeds, prepare)
        figures = {
            "p50": _percentile(walls, 0.5),
            "p95": _percentile(walls, 0.95),
            "max": max(walls),
            "cpu_p50": _percentile(cpus, 0.5),
            "cpu_p95": _percentile(cpus, 0.95),
        }
        results[kind] = figures
        # CPU time is what a busy machine does not inflate: the goal is judged on both.
        verdict = "/".join("ok" if figures[k] <= GOAL_MS else "OVER" for k in ("p95", "cpu_p95"))
        print(
            f"  {kind:<20} p50 {figures['p50']:6.1f}  p95 {figures['p95']:6.1f}  max {figures['max']:6.1f}"
            f"   cpu p50 {figures['cpu_p50']:6.1f}  p95 {figures['cpu_p95']:6.1f}   p95 wall/cpu: {verdict}"
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--drills", type=int, default=200, help="drills of each kind (default 200)")
    args = parser.parse_args(argv)
    time_drill(args.drills)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
