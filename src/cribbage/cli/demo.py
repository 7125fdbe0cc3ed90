"""``cribbage demo``: a seeded game between two computer players, printed hand by hand."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..engine.record import Game
from ..engine.rules import Rules, get_rules
from ..table.seating import seat_seed
from ..table.table import Table, seats
from .replay import print_game

HELP = "watch a game between two computer players, hand by hand"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="standard", help="variant name (default: standard)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal (default: 1)")
    parser.add_argument("--a", default="normal", help="player in seat 0 (default: normal)")
    parser.add_argument("--b", default="strong", help="player in the other seats (default: strong)")


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.variant)
    print_game(demo_game(rules, [args.a] + [args.b] * (rules.players - 1), args.seed))
    return 0


def demo_game(rules: Rules, players: Sequence[str], seed: int) -> Game:
    """A game between the named computer players (one per seat), seeded as every seeded game is."""
    game = Game(
        rules,
        seed=seed,
        names=[f"{n} ({seat})" for seat, n in enumerate(players)],
        seats=seats(players, [seat_seed(seed, seat) for seat in range(rules.players)]),
    )
    Table(game).run()
    return game
