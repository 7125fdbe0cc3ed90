"""``cribbage score`` counts a hand or crib in the show; ``cribbage peg`` scores a card in the play.

Both print one line per scoring combination, or with ``--json`` one JSON object::

    $ cribbage score 5H 5C 5S JD --starter 5D --json
    {"hand": [...], "starter": "5D", "crib": false, "total": 29, "fifteens": 16, ...}
    $ cribbage peg 4H 6D 5S --json
    {"cards": ["4H", "6D", "5S"], "points": 3, "count": 15, "combos": [...]}

Cards are written ``5H``, ``10h``, ``TH`` or ``5♥``, separated by spaces or commas.
"""

from __future__ import annotations

import argparse
import json

from ..engine.cards import Card, format_cards, parse_cards
from ..engine.errors import CardError
from ..engine.rules import VARIANTS, get_rules
from ..engine.scoring import PlayScore, ShowScore, score_play, score_show
from ..text import show_lines
from . import card_text

HELP_SCORE = "count a hand (3, 4 or 5 cards) or a crib with its starter, combination by combination"
HELP_PEG = "score the last card played in the play (pegging), given the cards since the count reset"

HAND_SIZES = (3, 4, 5)
CRIB_SIZES = tuple(sorted({get_rules(name).crib_size for name in VARIANTS}))
"""The sizes of a crib in the variants (4 in every one of them)."""


def add_score_arguments(parser: argparse.ArgumentParser) -> None:
    """``cards... --starter CARD [--crib] [--json]``."""
    parser.add_argument(
        "cards", nargs="+", type=card_text, help="the hand: 3, 4 or 5 cards such as 5H 5C 5S JD"
    )
    parser.add_argument("-s", "--starter", required=True, help="the starter (cut) card, such as 5D")
    parser.add_argument(
        "--crib",
        action="store_true",
        help="count as the crib: 4 cards, and a flush needs the starter's suit too",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_peg_arguments(parser: argparse.ArgumentParser) -> None:
    """``cards... [--json]``."""
    parser.add_argument(
        "cards",
        nargs="+",
        type=card_text,
        help="the cards played since the count was last reset, in order (4H 6D 5S)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def show_score(args: argparse.Namespace) -> ShowScore:
    """The explained count asked for by the ``score`` arguments (raises :class:`CardError`)."""
    hand = parse_cards(" ".join(args.cards), size=HAND_SIZES)
    if args.crib and len(hand) not in CRIB_SIZES:
        sizes = " or ".join(str(n) for n in CRIB_SIZES)
        raise CardError(f"a crib has {sizes} cards, not {len(hand)}: {format_cards(hand)}")
    starter = Card.parse(args.starter)
    return score_show(hand, starter, crib=args.crib)


def format_show(show: ShowScore) -> str:
    """The text ``cribbage score`` prints: a heading, then one line per combination as a player
    names them (:func:`~cribbage.text.show_lines`: ``pair royal for 6``, ``double run of 3 for 8``)
    with a running total, then the total."""
    what = "crib" if show.crib else "hand"
    lines = [f"{what} {format_cards(show.hand, pretty=True)}, starter {show.starter.pretty}"]
    running = 0
    for line in show_lines(show.combos):
        running += line.points
        lines.append(f"{line.words + ' (' + format_cards(line.cards, pretty=True) + ')':40} {running:3}")
    lines.append(f"{'total':40} {show.total:3}" if show.combos else "nineteen (no points): 0")
    return "\n".join(lines)


def format_play(play: PlayScore) -> str:
    """The text ``cribbage peg`` prints: the cards and count, each combination, the points."""
    lines = [f"{format_cards(play.cards, pretty=True)}: count {play.count}"]
    running = 0
    for combo in play.combos:
        running += combo.points
        lines.append(f"{combo!s:40} {running:3}")
    last = play.cards[-1].pretty
    lines.append(f"{play.points} point{'' if play.points == 1 else 's'} for the {last}")
    return "\n".join(lines)


def run_score(args: argparse.Namespace) -> int:
    show = show_score(args)
    print(json.dumps(show.to_json(), ensure_ascii=False) if args.json else format_show(show))
    return 0


def run_peg(args: argparse.Namespace) -> int:
    play = score_play(parse_cards(" ".join(args.cards)))
    print(json.dumps(play.to_json(), ensure_ascii=False) if args.json else format_play(play))
    return 0
