"""Benchmark of the ratings: how many games the rating needs to order players of known strength.

    python bench/bench_ratings.py play [--games 1500] [--strong-games 150] [--jobs 1]
    python bench/bench_ratings.py replay [--runs 200] [--length 1500] [--seed 1]

The stand-ins for people of known strength are the computer players, weakest first: ``random``,
``weak``, ``normal``, ``strong`` (:data:`cribbage.players.PLAYERS`).

``play`` plays real games through the engine's one driver (:func:`cribbage.table.match.play_game`,
a :class:`~cribbage.table.table.Table`): for the ``standard`` pool every pair of the four, and for
the ``three`` pool every three of the four, each game with the seats rotated and its own chance
seed; ``--games`` games per pairing, ``--strong-games`` for the pairings with ``strong`` (it
thinks about a second a game).  Each game's outcome (who sat where, the final scores, the
winning side) is saved to ``bench/ratings_outcomes.json``.

``replay`` rates those outcomes as they would arrive on a server: each run starts the four with
new ratings and rates ``--length`` games drawn at random (uniformly over the pairings, then over
the games recorded for the pairing) through :func:`cribbage.app.people.ratings.rate`; after each game it
checks whether the shown ratings order the four as their strength does (the full order, and
whether the strongest is on top).  It prints, per pool, the share of runs ordered right after N
games and the first N from which 90% of the runs are right (and stay at least 90% right up to
``--length``), in games in all and games per player.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cribbage.engine.rules import get_rules
from cribbage.players import make_player
from cribbage.table.match import play_game

HERE = Path(__file__).resolve().parent
OUTCOMES = HERE / "ratings_outcomes.json"
STRENGTH = ("strong", "normal", "weak", "random")
"""The stand-ins, strongest first: the order the ratings should find."""
POOLS = {"standard": ("standard", 2), "three": ("three-player", 3)}
"""The pools simulated: their variant and number of players."""
CHECKPOINTS = (10, 20, 30, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- play


def _play_one(task: tuple[str, tuple[str, ...], int]) -> dict[str, Any]:
    """One game of ``variant`` with ``names`` in seat order; its outcome."""
    variant, names, seed = task
    rules = get_rules(variant)
    players = [make_player(name, seed * 8 + seat) for seat, name in enumerate(names)]
    _game, stats = play_game(rules, players, seed)
    return {"players": list(names), "scores": list(stats.scores), "winner": stats.winner}


def _tasks(pool: str, games: int, strong_games: int, seed: int) -> list[tuple[str, tuple[str, ...], int]]:
    variant, players = POOLS[pool]
    tasks = []
    for group in itertools.combinations(STRENGTH, players):
        count = strong_games if "strong" in group else games
        for number in range(count):
            shift = number % players  # everyone takes every seat in turn
            names = group[shift:] + group[:shift]
            tasks.append((variant, names, seed + len(tasks)))
    return tasks


def play(args: argparse.Namespace) -> None:
    result: dict[str, Any] = {"strength": list(STRENGTH), "pools": {}}
    started = time.perf_counter()
    for pool in POOLS:
        tasks = _tasks(pool, args.games, args.strong_games, args.seed * 1_000_003)
        say(f"bench: {pool}: {len(tasks)} games on {args.jobs} process(es)")
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as workers:
                outcomes = workers.map(_play_one, tasks, chunksize=8)
        else:
            outcomes = [_play_one(task) for task in tasks]
        result["pools"][pool] = {"variant": POOLS[pool][0], "games": outcomes}
    result["seconds"] = round(time.perf_counter() - started, 1)
    args.out.write_text(json.dumps(result, indent=None, separators=(",", ":")) + "\n")
    say(f"bench: wrote {args.out} in {result['seconds']} s")
    for pool, data in result["pools"].items():
        print(f"{pool}: {len(data['games'])} games")
        for line in win_rates(data["games"]):
            print(f"  {line}")


def win_rates(outcomes: Sequence[dict[str, Any]]) -> list[str]:
    """Each group's games and how often each of its players won."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for outcome in outcomes:
        groups.setdefault(tuple(sorted(outcome["players"], key=STRENGTH.index)), []).append(outcome)
    lines = []
    for group, games in sorted(groups.items(), key=lambda item: [STRENGTH.index(n) for n in item[0]]):
        wins = {name: sum(g["players"][g["winner"]] == name for g in games) for name in group}
        shares = ", ".join(f"{name} {wins[name] / len(games):.1%}" for name in group)
        lines.append(f"{' v '.join(group):24} {len(games):5} games: {shares}")
    return lines


# --------------------------------------------------------------------------- replay


def replay(args: argparse.Namespace) -> None:
    from cribbage.app.people.rating_pools import pool_of
    from cribbage.app.people.ratings import Outcome, Rating, rate

    data = json.loads(args.out.read_text())
    print(f"ratings replay: {args.runs} runs of {args.length} games each, seed {args.seed}")
    print("a run is right after N games when the shown ratings order the players by strength")
    for pool, recorded in data["pools"].items():
        rules = get_rules(recorded["variant"])
        assert pool_of(rules) == pool, (pool, pool_of(rules))
        ids = {name: name for name in STRENGTH}  # each level is an account of its own name
        groups: dict[tuple[str, ...], list[Outcome]] = {}
        for game in recorded["games"]:
            outcome = Outcome.of_game(
                rules, [ids[name] for name in game["players"]], game["scores"], game["winner"]
            )
            groups.setdefault(tuple(sorted(game["players"])), []).append(outcome)
        pairings = list(groups.values())
        rng = random.Random(args.seed)
        right = [0] * (args.length + 1)
        top = [0] * (args.length + 1)
        present = {name for game in recorded["games"] for name in game["players"]}
        truth = [ids[name] for name in STRENGTH if name in present]
        for _ in range(args.runs):
            ratings: dict[str, Rating] = {}
            for played in range(1, args.length + 1):
                outcome = rng.choice(rng.choice(pairings))
                ratings.update(rate(ratings, outcome))
                if len(ratings) == len(truth):
                    order = sorted(ratings, key=lambda account: -ratings[account].shown)
                    right[played] += order == truth
                    top[played] += order[0] == truth[0]
        per_player = rules.players / len(truth)
        order = " > ".join(name for name in STRENGTH if name in present)
        games = len(recorded["games"])
        print(f"\npool {pool} ({rules.players} players a game, {games} recorded games): {order}")
        print(f"  {'games':>6} {'per player':>10} {'order right':>12} {'best on top':>12}")
        for checkpoint in (c for c in CHECKPOINTS if c <= args.length):
            print(
                f"  {checkpoint:6} {checkpoint * per_player:10.0f} {right[checkpoint] / args.runs:12.1%}"
                f" {top[checkpoint] / args.runs:12.1%}"
            )
        for name, counts in (("order right", right), ("best on top", top)):
            settled = _settled(counts, args.runs, 0.9)
            said = "never" if settled is None else f"{settled} games ({settled * per_player:.0f} per player)"
            print(f"  {name} in 90% of runs from: {said}")


def _settled(counts: Sequence[int], runs: int, share: float) -> int | None:
    """The first number of games from which at least ``share`` of the runs are right to the end."""
    first = None
    for played in range(1, len(counts)):
        right = counts[played] >= share * runs
        first = (first or played) if right else None
    return first


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play the games, save their outcomes")
    playing.add_argument("--games", type=int, default=1500, help="games per pairing without strong")
    playing.add_argument("--strong-games", type=int, default=150, help="games per pairing with strong")
    playing.add_argument("--jobs", type=int, default=1)
    playing.add_argument("--seed", type=int, default=1)
    playing.add_argument("--out", type=Path, default=OUTCOMES, help="where the outcomes go")
    replaying = commands.add_parser("replay", help="rate the saved outcomes in many random orders")
    replaying.add_argument("--runs", type=int, default=200)
    replaying.add_argument("--length", type=int, default=1500)
    replaying.add_argument("--seed", type=int, default=1)
    replaying.add_argument("--out", type=Path, default=OUTCOMES, help="the outcomes to replay")
    args = parser.parse_args(argv)
    play(args) if args.command == "play" else replay(args)


if __name__ == "__main__":
    main()
