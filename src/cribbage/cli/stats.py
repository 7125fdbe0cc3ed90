"""``cribbage stats hands``: the exact distribution of show scores over every hand and starter.

    $ cribbage stats hands --json
    {"hands": 12994800, "crib": false, "hand_size": 4, "distribution": {"0": 1009008, ...},
     "mean": 4.769..., "seconds": 0.13}

Without ``--json`` it prints a table of every score with its number of deals and percentage.
"""

from __future__ import annotations

import argparse
import json
import time

from ..engine.stats import HAND_SIZES, HandDistribution, hand_distribution

HELP = "exact statistics: 'hands' is the score distribution over every hand (or crib) and starter"

TOPICS = ("hands",)
BAR_WIDTH = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``hands [--crib] [--hand-size N] [--json]``."""
    parser.add_argument("topic", choices=TOPICS, help="what to compute: 'hands'")
    parser.add_argument("--crib", action="store_true", help="score the hands as cribs")
    parser.add_argument(
        "--hand-size",
        type=int,
        choices=HAND_SIZES,
        default=4,
        help="cards in the hand: 4 (default), 3 (five-card cribbage) or 5 (seven-card cribbage)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def format_distribution(dist: HandDistribution, seconds: float) -> str:
    """A table: one row per score from 0 to the highest, with deals, percentage and a bar."""
    what = "crib" if dist.crib else "hand"
    lines = [
        f"Show scores of every {dist.hand_size}-card {what} with every starter: {dist.hands:,} deals",
        "",
        f"{'points':>6}  {'deals':>12}  {'percent':>8}",
    ]
    widest = max(dist.counts)
    for points, deals in dist.items():
        share = 100 * deals / dist.hands
        bar = "#" * round(BAR_WIDTH * deals / widest)
        if deals and not bar:
            bar = "."
        lines.append(f"{points:>6}  {deals:>12,}  {share:>7.3f}%  {bar}")
    lines.append("")
    lines.append(f"mean {dist.mean:.4f} points; computed in {seconds:.3f} s")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    dist = hand_distribution(crib=args.crib, hand_size=args.hand_size)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({**dist.to_json(), "seconds": round(seconds, 6)}))
    else:
        print(format_distribution(dist, seconds))
    return 0
