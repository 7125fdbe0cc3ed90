"""Benchmark the computer players: decision times, hint times, and strength.

Usage::

    python bench/bench_ai.py                          # quick: 400 games of each match-up
    python bench/bench_ai.py --games 10000 --jobs 2   # the issue's figures (about 50 minutes)
    python bench/bench_ai.py --skip-strength          # times only
    python bench/bench_ai.py --variant four-player --games 300 --jobs 1   # one variant
    python bench/bench_ai.py --variant all --games 200                    # every variant

Prints

* the 50th and 95th percentiles of the strong player's decision times (discard and play,
  measured inside ``--timing-games`` real games against ``normal``, standard rules, as
  wall-clock and as CPU time, which a busy machine does not inflate), split into the plays far
  from the end of the game and those where it plays to win; then its plays in the same games
  when it reads the opponent by the learned logit (as it does against magmacrunch: the search
  then answers the cards the logit gives, which costs more than the points-taker's card);
* the same for ``cribbage hint discard`` run in-process (the analysis and its printing; the
  tables loaded once) and for the analysis of ``hint discard --exact``;
* the win rates, with 95% confidence intervals, of strong against normal and normal against
  weak, from :func:`cribbage.table.match.run_match` (the code of ``cribbage match``: seat-swapped
  pairs of games that share their cards), with the points per game by source.

With ``--variant NAME`` (or ``all``) it prints instead, for each variant, strong against normal
(:func:`variant_strength`): the games of ``cribbage match --a strong --b normal --variant NAME``
with the same seed (seat-swapped: strong's seat(s) rotate over every position; in partnerships
the strong pair against the normal pair; with three players strong in one seat against two
normals), strong's win share with its 95% (Wilson) interval, the even share for comparison
(50%, or 33.3% with three players), the deals a game and strong's side's net points a deal
(to compare games of different lengths), and the 50th and 95th percentiles of strong's decision
times in those games, the discard and the play apart.

The issue's targets: strong beats normal in at least 68% of games and normal beats weak in
60%; strong decides in at most 100 ms at the 95th percentile; ``hint discard`` in at most 50 ms
and ``--exact`` in at most 0.25 s.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence

from cribbage.ai.discard import discard_options
from cribbage.ai.pegging import RACE_NEED
from cribbage.ai.playmodel import PlayReader
from cribbage.cli import main as cli_main
from cribbage.engine.actions import Action, Discard
from cribbage.engine.cards import DECK
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS, Rules, get_rules
from cribbage.engine.view import SeatView
from cribbage.players import Player, make_player
from cribbage.players.levels import StrongPlayer
from cribbage.table.match import (
    SOURCES,
    GameStats,
    MatchResult,
    derive_seed,
    play_game,
    run_match,
    seat_roles,
    set_size,
)
from cribbage.table.table import Table

Times = dict[str, list[float]]
KINDS = ("discard", "play", "discard cpu", "play cpu", "play to win", "play to win cpu")


def percentiles(values: Sequence[float]) -> str:
    if not values:
        return "(none)"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    top = ordered[-1] * 1000
    return f"p50 {at(0.50):6.1f} ms   p95 {at(0.95):6.1f} ms   max {top:6.1f} ms   (n={len(ordered)})"


class Timed:
    """Wraps the strong player: times each of its decisions by kind."""

    def __init__(self, player: Player, times: Times, target: int) -> None:
        self.player, self.times, self.target = player, times, target

    def choose(self, view: SeatView) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.player.choose(view)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        kind = "discard" if isinstance(action, Discard) else "play"
        self.times[kind].append(elapsed)
        self.times[f"{kind} cpu"].append(cpu)
        if kind == "play" and min(self.target - s for s in view.scores) <= RACE_NEED:
            self.times["play to win"].append(elapsed)
            self.times["play to win cpu"].append(cpu)
        return action

    def observe(self, view: SeatView) -> None:
        observe = getattr(self.player, "observe", None)
        if callable(observe):
            observe(view)


def decision_times(games: int, logit: bool = False) -> Times:
    """The strong player's decisions in games against normal, timed (seat 0 and 1 in turn); it is
    told each hand's end, as in a match, so it plays with the reading it has learned.  With
    ``logit``, that reading is always the learned logit (its rival scored minus infinity)."""
    times: Times = {kind: [] for kind in KINDS}
    rules = get_rules()
    for game in range(games):
        strong = game % 2
        players: list[Player] = [make_player("normal", game), make_player("normal", game)]
        me = make_player("strong", game)
        if logit and isinstance(me, StrongPlayer):
            me.reader = PlayReader(fit_score=-math.inf)
        players[strong] = Timed(me, times, rules.target)
        Table(Game(rules, seed=game, explain=False), players).run()
    return times


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


def strength(a: str, b: str, games: int, jobs: int, seed: int) -> None:
    result = run_match(a, b, games, seed, jobs, get_rules())
    data = result.to_json()
    lo, hi = data["ci95"]
    print(
        f"{a} beats {b} in {data['a_win_rate']:.1%} of {data['games']} games (95% CI {lo:.1%}-{hi:.1%}),"
        f" {data['a_points_per_game']:.1f} to {data['b_points_per_game']:.1f} points a game,"
        f" {data['seconds']:.0f} s"
    )
    for role, name in (("a", a), ("b", b)):
        parts = " / ".join(f"{s} {data[f'{role}_points'][s]:.1f}" for s in SOURCES)
        seats = data["by_seat"][role]
        print(
            f"    {name:7} {parts}; dealing first: wins {seats['first_dealer']['win_rate']:.1%},"
            f" not: {seats['not_first_dealer']['win_rate']:.1%}"
        )


# --------------------------------------------------------------------------- variants

VariantTask = tuple[str, int, int, int]  # variant, match seed, set index, rotation


def variant_game(task: VariantTask) -> tuple[int, GameStats, Times]:
    """One game of ``cribbage match --a strong --b normal`` in a variant (the same seeds, so the
    same game), with strong's decisions timed: (rotation, the game's stats, the times)."""
    variant, seed, index, rotation = task
    rules = get_rules(variant)
    times: Times = {kind: [] for kind in KINDS}
    players: list[Player] = []
    for seat, role in enumerate(seat_roles(rules, rotation)):
        player_seed = derive_seed(seed, index, rotation, seat)
        if role == "a":
            players.append(Timed(make_player("strong", player_seed), times, rules.target))
        else:
            players.append(make_player("normal", player_seed))
    stats = play_game(rules, players, derive_seed(seed, index))[1]
    return rotation, stats, times


def even_share(rules: Rules) -> float:
    """The win share of one seat's side when every side is as strong: 1/2, 1/3 with three."""
    return 1 / rules.sides


def variant_strength(variant: str, games: int, jobs: int, seed: int) -> tuple[MatchResult, Times]:
    """Strong against normal in ``variant``, seat-swapped in whole sets (as :func:`run_match`),
    with strong's decision times."""
    rules = get_rules(variant)
    size = set_size(rules)
    sets = -(-games // size)
    tasks = [(variant, seed, index, rotation) for index in range(sets) for rotation in range(size)]
    result = MatchResult("strong", "normal", rules, seed, jobs=jobs)
    times: Times = {kind: [] for kind in KINDS}
    start = time.perf_counter()
    with multiprocessing.get_context().Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        for rotation, stats, game_times in (pool.imap if pool else map)(variant_game, tasks):
            result.add(stats, rotation)  # in the order of the tasks, as run_match counts them
            for kind, values in game_times.items():
                times[kind] += values
    result.seconds = time.perf_counter() - start
    return result, times


def print_variant(result: MatchResult, times: Times) -> None:
    data = result.to_json()
    lo, hi = data["ci95"]
    print(
        f"{result.rules.name:13} strong beats normal in {data['a_win_rate']:.1%} of {data['games']} games"
        f" (95% CI {lo:.1%}-{hi:.1%}; even share {even_share(result.rules):.1%}),"
        f" {data['a_points_per_game']:.1f} to {data['b_points_per_game']:.1f} points a game"
        f" (a side), {data['seconds']:.0f} s"
    )
    deals = data["hands_per_game"]
    net = (data["a_points_per_game"] - data["b_points_per_game"]) / deals if deals else 0.0
    print(f"    {deals:.1f} deals a game; strong's side nets {net:+.2f} points a deal")
    parts = " / ".join(f"{s} {data['a_points'][s]:.1f} to {data['b_points'][s]:.1f}" for s in SOURCES)
    print(f"    points a game by source, strong to normal: {parts}")
    print(f"    strong discard     {percentiles(times['discard'])}")
    print(f"    strong play        {percentiles(times['play'])}")
    print(f"    (CPU time) discard {percentiles(times['discard cpu'])}")
    print(f"    (CPU time) play    {percentiles(times['play cpu'])}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games of each match-up (default 400)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the matches (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing-games", type=int, default=20, help="games timed (default 20)")
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument(
        "--variant",
        choices=(*VARIANTS, "all"),
        help="strong vs normal in this variant (or all) with decision times, instead of the standard run",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if args.variant is not None:
        for variant in VARIANTS if args.variant == "all" else (args.variant,):
            print_variant(*variant_strength(variant, args.games, args.jobs, args.seed))
            sys.stdout.flush()
        return 0

    start = time.perf_counter()
    discard_options("5H 5C 6D JS QH 2C", dealer=True)  # loads the tables
    print(f"first discard analysis (loads the tables): {(time.perf_counter() - start) * 1000:.0f} ms")
    quick, exact = hint_times(200)
    print(f"hint discard           {percentiles(quick)}")
    print(f"hint discard --exact   {percentiles(exact)}")
    times = decision_times(args.timing_games)
    print(f"strong discard         {percentiles(times['discard'])}")
    print(f"strong play            {percentiles(times['play'])}")
    print(f"  of which to win      {percentiles(times['play to win'])}")
    print(f"  (CPU time) discard   {percentiles(times['discard cpu'])}")
    print(f"  (CPU time) play      {percentiles(times['play cpu'])}")
    times = decision_times(args.timing_games, logit=True)
    print(f"strong play, logit     {percentiles(times['play'])}")
    print(f"  of which to win      {percentiles(times['play to win'])}")
    if not args.skip_strength:
        strength("strong", "normal", args.games, args.jobs, args.seed)
        strength("normal", "weak", args.games, args.jobs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
