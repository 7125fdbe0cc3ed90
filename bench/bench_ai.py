"""Benchmark the computer players: decision times, hint times, and strength.

Usage::

    python bench/bench_ai.py            # 20 paired games of each match-up
    python bench/bench_ai.py 1000 4     # 1000 paired games on 4 processes

Prints the 50th and 95th percentiles of the strong player's decision times (discard and
play, measured inside real games, as wall-clock and as CPU time, which a busy machine does not
inflate), of ``cribbage hint discard`` (in-process, tables loaded) and of ``--exact``, then
the win rates of strong against normal and normal against weak.  A pair of
games deals the same cards to both seats in turn, so the luck of the deal cancels out.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool

from cribbage.ai.discard import discard_options
from cribbage.cards import DECK
from cribbage.cli import main as cli_main
from cribbage.game import Discard, GameState
from cribbage.players import Player, make_player
from cribbage.players import levels as _levels  # noqa: F401  (registers the levels)
from cribbage.rules import get_rules

Times = dict[str, list[float]]
KINDS = ("discard", "play", "discard cpu", "play cpu")


def percentiles(values: Sequence[float]) -> str:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    top = ordered[-1] * 1000
    return f"p50 {at(0.50):6.1f} ms   p95 {at(0.95):6.1f} ms   max {top:6.1f} ms   (n={len(ordered)})"


def play_game(
    names: tuple[str, str], seed: int, variant: str = "standard", timed: int | None = None
) -> tuple[int, Times]:
    """One game; returns the winning seat and the decision times of seat ``timed``."""
    rng = random.Random(seed)
    state = GameState(get_rules(variant))
    players: list[Player] = [make_player(name, seed * 2 + i) for i, name in enumerate(names)]
    times: Times = {kind: [] for kind in KINDS}
    while not state.is_terminal:
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        seat = state.to_act
        view = state.view(seat)
        start, cpu = time.perf_counter(), time.process_time()
        action = players[seat].choose(view)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        if seat == timed and len(view.legal) > 1:
            kind = "discard" if isinstance(action, Discard) else "play"
            times[kind].append(elapsed)
            times[f"{kind} cpu"].append(cpu)
        state.apply(action)
    assert state.result is not None
    return state.result.winner, times


def paired(job: tuple[str, str, int]) -> tuple[int, Times]:
    """Both seatings of one deal seed: the number of wins of the first player (0 to 2)."""
    first, second, seed = job
    winner_a, times_a = play_game((first, second), seed, timed=0)
    winner_b, times_b = play_game((second, first), seed, timed=1)
    wins = (winner_a == 0) + (winner_b == 1)
    return wins, {k: times_a[k] + times_b[k] for k in times_a}


def match(first: str, second: str, pairs: int, workers: int) -> tuple[float, Times]:
    jobs = [(first, second, seed) for seed in range(pairs)]
    wins = 0
    times: Times = {kind: [] for kind in KINDS}
    with Pool(workers) as pool:
        for won, part in pool.imap_unordered(paired, jobs):
            wins += won
            for key in times:
                times[key] += part[key]
    return wins / (2 * pairs), times


def hint_times(hands: int) -> tuple[list[float], list[float]]:
    rng = random.Random(1)
    quick, exact = [], []
    for i in range(hands):
        cards = [str(c) for c in rng.sample(DECK, 6)]
        role = "--dealer" if i % 2 else "--pone"
        start = time.perf_counter()
        with open("/dev/null", "w") as sink:
            stdout, sys.stdout = sys.stdout, sink
            try:
                cli_main(["hint", "discard", *cards, role])
            finally:
                sys.stdout = stdout
        quick.append(time.perf_counter() - start)
        start = time.perf_counter()
        discard_options(" ".join(cards), dealer=bool(i % 2), exact=True)
        exact.append(time.perf_counter() - start)
    return quick, exact


def main(argv: Sequence[str]) -> int:
    pairs = int(argv[1]) if len(argv) > 1 else 10
    workers = int(argv[2]) if len(argv) > 2 else 2
    start = time.perf_counter()
    discard_options("5H 5C 6D JS QH 2C", dealer=True)  # loads the tables
    print(f"first discard analysis (loads the tables): {(time.perf_counter() - start) * 1000:.0f} ms")
    quick, exact = hint_times(200)
    print(f"hint discard           {percentiles(quick)}")
    print(f"hint discard --exact   {percentiles(exact)}")

    rate, times = match("strong", "normal", pairs, workers)
    print(f"strong discard         {percentiles(times['discard'])}")
    print(f"strong play            {percentiles(times['play'])}")
    print(f"  (CPU time) discard   {percentiles(times['discard cpu'])}")
    print(f"  (CPU time) play      {percentiles(times['play cpu'])}")
    print(f"strong beats normal in {rate:.1%} of {2 * pairs} games ({pairs} seat-swapped pairs)")
    rate, _ = match("normal", "weak", pairs, workers)
    print(f"normal beats weak in   {rate:.1%} of {2 * pairs} games ({pairs} seat-swapped pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
