"""``cribbage review FILE``: every decision of a recorded game judged against the computer's best.

::

    $ cribbage review game.json                 # the people's seats (all seats of a bot game)
    $ cribbage review game.json --seat 1 --json

Any saved record will do: the browser's download, ``save FILE`` in ``cribbage play``, the API's
``GET /api/games/{id}/record``.  The review (:mod:`cribbage.study.review`) judges each discard, each
play with a real choice and each count from the seat's view at that moment, grades it by what it
gave away, adds up each hand and the game, and gives each side's chance of winning at each deal;
``--json`` prints it as ``POST /api/review`` answers it (docs/api.md).
"""

from __future__ import annotations

import argparse
import json

from ..engine.record import Game
from ..study.review import review_game
from ..study.review_text import review_lines
from . import file_name

HELP = "review a recorded game: each decision against the computer's best, graded, hand by hand"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_name, help="a game record saved by cribbage (JSON)")
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="N",
        help="a seat to review, 0 first (may be repeated; default: the people's seats of the "
        "record, or every seat of a game between computers)",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")


def run(args: argparse.Namespace) -> int:
    game = Game.load(args.file)  # the whole record is checked before anything is reviewed
    review = review_game(game, args.seat)
    if args.json:
        print(json.dumps(review.to_json()))
    else:
        print("\n".join(review_lines(review)))
    return 0
