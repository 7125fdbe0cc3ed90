"""``cribbage play``: a game against the computer in the terminal (see :mod:`cribbage.tui`)."""

from __future__ import annotations

import argparse
import shlex

from ..engine.rules import VARIANTS
from ..table.seating import DEFAULT_LEVEL, LEVELS
from . import UsageError, file_name, seed, whole_number

HELP = "play a game against the computer in the terminal"

MAX_TARGET = 1000
"""The highest target of a game, the browser's too."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        choices=(*LEVELS, "random"),
        metavar="|".join((*LEVELS, "random")),
        help=f"the computer's strength; random plays any legal card (default: {DEFAULT_LEVEL}, or the "
        "saved game's)",
    )
    parser.add_argument(
        "--target",
        type=whole_number(1, MAX_TARGET),
        metavar="N",
        help=f"points to win, 1 to {MAX_TARGET} as in the browser (default: the variant's: 121, 61...)",
    )
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        metavar="NAME",
        help="the variant: " + ", ".join(VARIANTS) + " (default: standard)",
    )
    parser.add_argument("--manual", action="store_true", help="count your own hands and crib")
    parser.add_argument(
        "--muggins",
        action="store_true",
        help="points missed in a count may be taken by the opponent, and a count stated too high "
        "gives the excess to the opponent (implies --manual)",
    )
    parser.add_argument("--seed", type=seed, help="seed of the deal, to play the same cards again")
    parser.add_argument("--ascii", action="store_true", help="no colour and no suit symbols")
    parser.add_argument(
        "--resume",
        type=file_name,
        metavar="FILE",
        help="continue a game saved with 'save FILE', with its own variant, target, counting and seed "
        "(--level may change the computer)",
    )


def run(args: argparse.Namespace) -> int:
    from ..tui import TerminalOptions, play  # imported here: the other commands need not load rich

    if args.resume is not None:
        _check_resume(args)
    return play(
        TerminalOptions(
            level=args.level,
            variant=args.variant or "standard",
            target=args.target,
            manual=args.manual,
            muggins=args.muggins,
            seed=args.seed,
            ascii=args.ascii,
            resume=args.resume,
        )
    )


def _check_resume(args: argparse.Namespace) -> None:
    """A saved game keeps its rules and its deal: refuse the options of a new game with --resume."""
    given = [
        f"{flag} {value}"
        for flag, value in (("--variant", args.variant), ("--target", args.target), ("--seed", args.seed))
        if value is not None
    ]
    given += [flag for flag, on in (("--manual", args.manual), ("--muggins", args.muggins)) if on]
    if given:
        raise UsageError(
            f"--resume {shlex.quote(args.resume)} continues the saved game with its own variant, target, "
            f"counting and seed: leave out {', '.join(given)}, or start a new game without --resume"
        )
