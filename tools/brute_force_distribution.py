"""Write the golden score distributions by brute force: score every hand with every starter.

This is deliberately the slow, obvious method, independent of the combinatorics in
:mod:`cribbage.engine.stats`: it walks all ``C(52, n)`` hands and, for each, all ``52 - n`` starters, and
scores each deal with :func:`cribbage.engine.scoring.hand_points` (or, with ``--explained``, with the
explaining scorer :func:`cribbage.engine.scoring.score_show`, which is far slower).  The output files are
the project's "perft table" for the show, checked exactly by ``tests/core/test_stats.py``.

Usage::

    python tools/brute_force_distribution.py                 # 4-card hands and cribs (~1 minute)
    python tools/brute_force_distribution.py --hand-size 3   # five-card cribbage hands

It writes ``tests/golden/hand_distribution.json`` and ``hand_distribution_crib.json`` (for other
hand sizes ``hand_distribution_<n>cards.json``, and ``..._crib.json`` when ``--crib`` is given).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from multiprocessing import Pool
from pathlib import Path

from cribbage.engine.cards import DECK, Card
from cribbage.engine.scoring import hand_points, score_show

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
MAX_POINTS = 64  # above any score of a hand of at most 5 cards with a starter

Job = tuple[int, int, bool, bool]  # first card index, hand size, crib, explained


def _scorer(explained: bool) -> Callable[[Sequence[Card], Card, bool], int]:
    if explained:
        return lambda hand, starter, crib: score_show(hand, starter, crib=crib).total
    return hand_points


def _count_from(job: Job) -> list[int]:
    """The histogram of the deals whose hand's lowest card is ``DECK[first]``."""
    first, hand_size, crib, explained = job
    score = _scorer(explained)
    histogram = [0] * MAX_POINTS
    low = DECK[first]
    for rest in combinations(DECK[first + 1 :], hand_size - 1):
        hand = (low, *rest)
        used = 0
        for card in hand:
            used |= card.bit
        for starter in DECK:
            if not used & starter.bit:
                histogram[score(hand, starter, crib)] += 1
    return histogram


def brute_force(hand_size: int, crib: bool, explained: bool = False, workers: int = 2) -> list[int]:
    """The histogram ``[deals scoring 0, deals scoring 1, ...]`` over every hand and starter."""
    jobs: list[Job] = [(first, hand_size, crib, explained) for first in range(52 - hand_size + 1)]
    histogram = [0] * MAX_POINTS
    with Pool(workers) as pool:
        for part in pool.imap_unordered(_count_from, jobs):
            histogram = [a + b for a, b in zip(histogram, part, strict=True)]
    while histogram and histogram[-1] == 0:
        histogram.pop()
    return histogram


def golden_path(hand_size: int, crib: bool) -> Path:
    """Where the golden file for this hand size and scoring is kept."""
    size = "" if hand_size == 4 else f"_{hand_size}cards"
    return GOLDEN / f"hand_distribution{size}{'_crib' if crib else ''}.json"


def write_golden(hand_size: int, crib: bool, explained: bool, workers: int) -> Path:
    start = time.perf_counter()
    histogram = brute_force(hand_size, crib, explained, workers)
    seconds = time.perf_counter() - start
    hands = sum(histogram)
    expected = comb(52, hand_size) * (52 - hand_size)
    if hands != expected:
        raise SystemExit(f"counted {hands} deals, expected {expected}")
    total_points = sum(points * n for points, n in enumerate(histogram))
    data = {
        "description": (
            f"Show scores of every {hand_size}-card {'crib' if crib else 'hand'} with every starter, "
            "counted one deal at a time."
        ),
        "generator": "tools/brute_force_distribution.py"
        + (f" --hand-size {hand_size}" if hand_size != 4 else "")
        + (" --explained" if explained else ""),
        "scorer": "cribbage.engine.scoring.score_show"
        if explained
        else "cribbage.engine.scoring.hand_points",
        "hand_size": hand_size,
        "crib": crib,
        "hands": hands,
        "total_points": total_points,
        "mean": total_points / hands,
        "distribution": {str(points): n for points, n in enumerate(histogram)},
    }
    path = golden_path(hand_size, crib)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{path}: {hands} deals, mean {total_points / hands:.6f}, {seconds:.1f} s", file=sys.stderr)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hand-size", type=int, choices=(3, 4, 5), default=4)
    parser.add_argument(
        "--crib", action="store_true", help="only the crib file (default for 4 cards: hand and crib)"
    )
    parser.add_argument("--hand", action="store_true", help="only the hand file")
    parser.add_argument("--explained", action="store_true", help="score with score_show (much slower)")
    parser.add_argument("--workers", type=int, default=2, help="processes to use (default 2)")
    args = parser.parse_args(argv)
    if args.crib or args.hand:
        kinds = [crib for crib, wanted in ((False, args.hand), (True, args.crib)) if wanted]
    else:
        kinds = [False, True] if args.hand_size == 4 else [False]
    for crib in kinds:
        write_golden(args.hand_size, crib, args.explained, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
