"""``cribbage demo``: a seeded game between two computer players, printed hand by hand.

On a terminal the game is paced: it waits for Enter before each hand (or ``--pace SECONDS``),
and ``--at-once`` prints it all.  When standard output is not a terminal it is printed at once.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from ..engine.record import Game
from ..engine.rules import Rules, get_rules
from ..table.seating import seat_seed
from ..table.table import Table, seats
from . import seed
from .replay import print_game

HELP = "watch a game between two computer players, hand by hand"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"must be 0 to 3600 seconds, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="standard", help="variant name (default: standard)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of the deal (default: 1)")
    parser.add_argument("--a", default="normal", help="player in seat 0 (default: normal)")
    parser.add_argument("--b", default="strong", help="player in the other seats (default: strong)")
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--pace",
        type=_seconds,
        metavar="SECONDS",
        help="on a terminal, wait this long before each hand instead of waiting for Enter",
    )
    pace.add_argument(
        "--at-once",
        action="store_true",
        help="print the whole game at once (as always when the output is not a terminal)",
    )


class _Stop(Exception):
    """The watcher stops the demo."""


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.variant)
    game = demo_game(rules, [args.a] + [args.b] * (rules.players - 1), args.seed)
    with contextlib.suppress(_Stop):
        print_game(game, before_hand=_pace(args))
    return 0


def _pace(args: argparse.Namespace) -> Callable[[int], bool] | None:
    """What to do before each hand after the first: nothing (off a terminal, or ``--at-once``),
    wait ``--pace`` seconds, or wait for Enter.  Returns False to print the rest at once; raises
    :class:`_Stop` to stop (q, or Ctrl-D)."""
    if args.at_once or not _isatty(sys.stdout):
        return None
    if args.pace is not None:
        seconds: float = args.pace

        def wait(hand: int) -> bool:
            sys.stdout.flush()
            time.sleep(seconds)
            return True

        return wait
    if not _isatty(sys.stdin):
        return None

    def ask(hand: int) -> bool:
        try:
            answer = input(f"Press Enter for hand {hand} (a: all the rest, q: stop) ").strip().lower()
        except EOFError:  # Ctrl-D: the end of the input stops, as q does
            print()
            raise _Stop from None
        if answer in ("q", "quit"):
            raise _Stop
        return answer not in ("a", "all")

    return ask


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


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
