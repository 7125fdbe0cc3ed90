"""Benchmark of the qualifying round's pairings (cribbage.tournament.pairing, docs/tournaments.md).

    python bench/bench_tournament_pairing.py [--entrants 1000] [--games 22] [--seed 1]

Plays a Swiss qualifying of ``--entrants`` (a main event's most games by default) with random
results from ``--seed``: each round the standings, then :func:`swiss_round`, timed alone.  Then
times :func:`rotation_rounds` for the same field and games.  Prints the slowest and the total
pairing time (wall clock and CPU: the machine may be shared), and checks that no opponent was
met twice and every entrant had every game.  Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from cribbage.tournament import GameScore, PairedRound, rotation_rounds, standings, swiss_round


def play(paired: PairedRound, rng: random.Random) -> list[GameScore]:
    """Random results for a round's tables (the loser between 60 and 120 of 121)."""
    games = []
    for a, b in paired.tables:
        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
        games.append(GameScore(winner, loser, 121, rng.randint(60, 120)))
    return games


def check(field: list[int], rounds: list[PairedRound], games: int) -> list[str]:
    """The problems of a schedule: a second meeting, an entrant without a place in a round."""
    problems = []
    meetings = Counter(frozenset(table) for paired in rounds for table in paired.tables)
    problems += [f"{sorted(pair)} met {n} times" for pair, n in meetings.items() if n > 1]
    places = Counter(entrant for paired in rounds for entrant in paired.entrants())
    problems += [f"{e} had {places[e]} of {games} games" for e in field if places[e] != games]
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--games", type=int, default=22)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    field = list(range(1, args.entrants + 1))
    rounds: list[PairedRound] = []
    results: list[GameScore] = []
    timings = []
    for _ in range(args.games):
        byes = [paired.bye for paired in rounds if paired.bye is not None]
        ranked = [line.entrant for line in standings(field, results, byes)]
        start, cpu = time.perf_counter(), time.process_time()
        paired = swiss_round(ranked, rounds)
        timings.append((time.perf_counter() - start, time.process_time() - cpu))
        rounds.append(paired)
        results += play(paired, rng)
    start, cpu = time.perf_counter(), time.process_time()
    rotation = rotation_rounds(field, args.games)
    rotation_time = (time.perf_counter() - start, time.process_time() - cpu)
    print(f"{args.entrants} entrants, {args.games} games, seed {args.seed}")
    wall, cpu = max(timings)
    print(
        f"swiss: slowest round {wall:.3f} s ({cpu:.3f} s CPU), all {args.games} rounds "
        f"{sum(t[0] for t in timings):.3f} s ({sum(t[1] for t in timings):.3f} s CPU)"
    )
    print(f"rotation: all {args.games} rounds {rotation_time[0]:.3f} s ({rotation_time[1]:.3f} s CPU)")
    problems = check(field, rounds, args.games) + check(field, list(rotation), args.games)
    for problem in problems[:10]:
        print("problem:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
