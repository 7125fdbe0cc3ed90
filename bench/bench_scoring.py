"""Benchmark: the exact score distribution, and the fast scorer against a peer package.

Prints figures only (no assertions)::

    python bench/bench_scoring.py [--deals 20000] [--seed 1] [--no-peer] [--json]

(a) Seconds for :func:`cribbage.engine.stats.hand_distribution` (hands and cribs), measured cold in a
    fresh interpreter (empty rank-score cache) and warm in this one, against the 1-second target.
(b) Deals scored per second by :func:`cribbage.engine.scoring.hand_points` (and by the explaining
    :func:`cribbage.engine.scoring.score_show`) against ``cribbage_scorer.show_calc_score`` from the PyPI
    package ``cribbage-scorer``, on the same random deals in the same run.  The peer is installed
    only in its own virtual environment, ``bench/.venv-peers`` (created on first use, ignored by
    git), never among the project's dependencies; it runs there and sends its timing back as JSON.
    The bench also reports on how many deals the peer's totals differ from ours.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from cribbage.engine.cards import DECK, SUIT_CHARS, Card
from cribbage.engine.scoring import hand_points, score_show
from cribbage.engine.stats import hand_distribution

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".venv-peers"
PEER_PACKAGE = "cribbage-scorer"
TARGET_SECONDS = 1.0

Deal = tuple[tuple[Card, ...], Card]

# Runs inside the peer's interpreter: reads the deals as JSON on stdin, converts them to the
# peer's card tuples before timing, scores every deal with its public show scorer, and prints
# {"seconds", "deals", "totals", "version"} (best of the repeats).
PEER_SNIPPET = r"""
import json, sys, time
from importlib.metadata import version
from cribbage_scorer import cribbage_scorer as peer
deals = json.load(sys.stdin)
converted = [([tuple(c) for c in hand], tuple(starter)) for hand, starter in deals]
best = None
for _ in range(REPEATS):
    start = time.perf_counter()
    totals = [peer.show_calc_score(starter, hand, False)[0] for hand, starter in converted]
    seconds = time.perf_counter() - start
    best = seconds if best is None else min(best, seconds)
print(json.dumps({"seconds": best, "deals": len(deals), "totals": totals,
                  "version": version("cribbage-scorer")}))
"""


def random_deals(count: int, seed: int) -> list[Deal]:
    """``count`` random four-card hands with a starter, from a seeded generator."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        *hand, starter = rng.sample(DECK, 5)
        deals.append((tuple(hand), starter))
    return deals


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of ``repeats`` timings of ``work()``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


# --------------------------------------------------------------------------- (a) distribution


def distribution_cold(crib: bool) -> float:
    """Seconds of one call in a fresh interpreter (import excluded)."""
    code = (
        "import time\n"
        "from cribbage.engine.stats import hand_distribution\n"
        "start = time.perf_counter()\n"
        f"hand_distribution(crib={crib})\n"
        "print(time.perf_counter() - start)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def bench_distribution() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for crib in (False, True):
        name = "crib" if crib else "hand"
        cold = distribution_cold(crib)
        warm = best_of(3, partial(hand_distribution, crib=crib))
        figures[name] = {
            "cold_seconds": round(cold, 4),
            "warm_seconds": round(warm, 4),
            "fraction_of_target": round(cold / TARGET_SECONDS, 3),
        }
    return figures


# --------------------------------------------------------------------------- (b) scorers


def ensure_peer_venv() -> Path:
    """The peer venv's Python, creating the venv and installing the peer package if needed."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {PEER_VENV} with {PEER_PACKAGE} ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(PEER_VENV)
    check = subprocess.run([str(python), "-c", "import cribbage_scorer"], capture_output=True, check=False)
    if check.returncode:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PEER_PACKAGE],
            check=True,
        )
    return python


def to_peer(card: Card) -> list[int | str]:
    """The peer's card notation: ``(rank 1-13, suit letter)``."""
    return [card.rank, SUIT_CHARS[card.suit]]


def bench_peer(deals: Sequence[Deal], repeats: int) -> dict[str, Any]:
    python = ensure_peer_venv()
    payload = json.dumps([[[to_peer(c) for c in hand], to_peer(starter)] for hand, starter in deals])
    done = subprocess.run(
        [str(python), "-c", PEER_SNIPPET.replace("REPEATS", str(repeats))],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def bench_scorers(deals: Sequence[Deal], repeats: int, peer: bool) -> dict[str, Any]:
    ours = [hand_points(hand, starter) for hand, starter in deals]
    fast = best_of(repeats, lambda: [hand_points(hand, starter) for hand, starter in deals])
    explained = best_of(
        max(1, repeats // 3), lambda: [score_show(hand, starter).total for hand, starter in deals]
    )
    figures: dict[str, Any] = {
        "deals": len(deals),
        "hand_points_per_second": round(len(deals) / fast),
        "score_show_per_second": round(len(deals) / explained),
    }
    if peer:
        theirs = bench_peer(deals, repeats)
        figures["peer"] = f"{PEER_PACKAGE} {theirs['version']} show_calc_score"
        figures["peer_per_second"] = round(len(deals) / theirs["seconds"])
        figures["speedup"] = round(theirs["seconds"] / fast, 1)
        figures["peer_disagreements"] = sum(a != b for a, b in zip(ours, theirs["totals"], strict=True))
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the distribution and the fast scorer.")
    parser.add_argument("--deals", type=int, default=20000, help="random deals to score (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5, help="timings to take the best of (default 5)")
    parser.add_argument("--no-peer", action="store_true", help="skip the peer package")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    figures = {
        "distribution": bench_distribution(),
        "scorers": bench_scorers(random_deals(args.deals, args.seed), args.repeats, not args.no_peer),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0

    print(f"(a) hand_distribution, exact, target {TARGET_SECONDS:g} s")
    for name, f in figures["distribution"].items():
        print(
            f"    {name:5} cold {f['cold_seconds']:.3f} s ({f['fraction_of_target']:.0%} of target),"
            f" warm {f['warm_seconds']:.3f} s"
        )
    s = figures["scorers"]
    print(f"(b) show scoring, {s['deals']} random four-card deals, best of {args.repeats}")
    print(f"    cribbage.engine.scoring.hand_points               {s['hand_points_per_second']:>12,} deals/s")
    print(f"    cribbage.engine.scoring.score_show                {s['score_show_per_second']:>12,} deals/s")
    if "peer" in s:
        print(f"    {s['peer']:42} {s['peer_per_second']:>12,} deals/s")
        print(f"    hand_points / peer: {s['speedup']}x (target 10x)")
        print(f"    deals where the peer's total differs from ours: {s['peer_disagreements']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
