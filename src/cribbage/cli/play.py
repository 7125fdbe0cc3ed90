"""``cribbage play``: a game against the computer in the terminal (see :mod:`cribbage.tui`)."""

from __future__ import annotations

import argparse

from ..engine.rules import VARIANTS

HELP = "play a game against the computer in the terminal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        metavar="weak|normal|strong",
        help="the computer's strength (default: normal, or the saved game's)",
    )
    parser.add_argument("--target", type=int, metavar="121|61", help="points to win (default: the variant's)")
    parser.add_argument(
        "--variant",
        default="standard",
        choices=sorted(VARIANTS),
        metavar="NAME",
        help="the variant: " + ", ".join(VARIANTS) + " (default: standard)",
    )
    parser.add_argument("--manual", action="store_true", help="count your own hands and crib")
    parser.add_argument(
        "--muggins", action="store_true", help="missed points may be taken by the opponent (implies --manual)"
    )
    parser.add_argument("--seed", type=int, help="seed of the deal, to play the same cards again")
    parser.add_argument("--ascii", action="store_true", help="no colour and no suit symbols")
    parser.add_argument("--resume", metavar="FILE", help="continue a game saved with 'save FILE'")


def run(args: argparse.Namespace) -> int:
    from ..tui import Options, play  # imported here: the other commands need not load rich

    return play(
        Options(
            level=args.level,
            variant=args.variant,
            target=args.target,
            manual=args.manual,
            muggins=args.muggins,
            seed=args.seed,
            ascii=args.ascii,
            resume=args.resume,
        )
    )
