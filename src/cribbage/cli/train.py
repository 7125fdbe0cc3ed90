"""``cribbage train``: practise the discard or the play against the computer's own advice.

::

    $ cribbage train discard --pone --seed 7
    $ cribbage train discard --dealer --scores 100,110
    $ cribbage train play --seed 7

``discard`` deals a hand, reads the two cards thrown, then ranks every keep (hand, crib, play,
total; the chance of winning near the end of the game) and says what the throw gave away.
``play`` shows a position from a game between two computer players and judges the card played
against every card's value from ``cribbage hint play``.  A tally is kept over the session and
printed at the end (``quit``, Ctrl-D or Ctrl-C).  See :mod:`cribbage.study.drills`.
"""

from __future__ import annotations

import argparse

from ..engine.rules import VARIANTS, get_rules
from ..study.drills import PLAY_VARIANTS
from . import UsageError, seed
from .hint import _scores

HELP = "practise: discard drills and play drills judged by the computer's advice"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``discard [--dealer|--pone] [--scores A,B] [--seed N] [--variant V]`` or ``play [--seed N]``."""
    sub = parser.add_subparsers(dest="drill", required=True)
    discard_help = "throw to the crib from random deals; every keep is then shown ranked, with your loss"
    discard = sub.add_parser("discard", help=discard_help, description=discard_help)
    side = discard.add_mutually_exclusive_group()
    side.add_argument("--dealer", action="store_true", help="always deal: the crib is yours")
    side.add_argument("--pone", action="store_true", help="never deal: the crib is the opponent's")
    discard.add_argument("--scores", help="your score and the opponent's, such as 100,110 (plays to win)")
    discard.add_argument(
        "--variant",
        default="standard",
        choices=sorted(VARIANTS),
        metavar="NAME",
        help="the variant (hand sizes): " + ", ".join(VARIANTS) + " (default: standard)",
    )
    _common(discard)
    play_help = "choose a card in positions from real games; every card is then shown with its value"
    play = sub.add_parser("play", help=play_help, description=play_help)
    play.add_argument(
        "--variant",
        default="standard",
        choices=PLAY_VARIANTS,
        metavar="NAME",
        help="a two-player variant: " + ", ".join(PLAY_VARIANTS) + " (default: standard)",
    )
    _common(play)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed, help="seed of the session: the same seed, the same drills")
    parser.add_argument("--ascii", action="store_true", help="no colour and no suit symbols")


def run(args: argparse.Namespace) -> int:
    from ..tui.train import TrainOptions, train  # imported here: the other commands need not load rich

    rules = get_rules(args.variant)
    dealer = None
    scores = None
    if args.drill == "discard":
        dealer = True if args.dealer else False if args.pone else None
        scores = _scores(args.scores, rules)
        if scores is not None and rules.sides != 2:
            raise UsageError(f"--scores is for games of two sides, not {rules.name!r}")
    options = TrainOptions(args.drill, rules, args.seed, dealer, scores, args.ascii)
    return train(options)
