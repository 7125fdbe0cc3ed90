"""``cribbage hint``: what the strong computer player would keep, or play, and why.

::

    $ cribbage hint discard 5H 5C 6D JS QH 2C --pone
    $ cribbage hint discard 5H 5C 6D JS QH 2C --dealer --scores 100,110 --exact --json
    $ cribbage hint play --hand 7C 8D 2S --sequence TD 5H --count 15 --json

``discard`` ranks every keep with its expected hand points (exact over the starters), expected
crib points (tables, or ``--exact``), pegging estimate and total.  ``play`` gives every legal card
with its value: the expected net points to the end of the play from a search over the unseen
cards, and its reasons (with ``--json`` as codes with numbers: ``"reasons"``, see docs/api.md).
``--variant`` picks the hand sizes (``five-card``, ``seven-card``...).  The tables show the
player's points, in lowball too (where the best brings the fewest, as a line above says; the JSON
keeps the advice's own ``total`` and ``value``, which are highest for the best), and the chance
of winning as a column whenever it is what ranks them.
"""

from __future__ import annotations

import argparse
import json

from ..ai.discard import KeepOption, discard_options
from ..ai.pegging import PlayOption, PlaySituation, play_options
from ..engine.cards import Card, format_cards, parse_cards
from ..engine.rules import Rules, get_rules
from ..text import reasons_text, win_note
from . import UsageError, card_text, seed

HELP = "advice: rank every discard of a dealt hand, or every card to play"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``discard CARDS... --dealer|--pone [...]`` or ``play --hand CARDS... [...]``."""
    sub = parser.add_subparsers(dest="what", required=True)
    discard_help = (
        "rank every way to discard from a dealt hand: the expected points of the hand, the crib and "
        "the play, and near the end of the game (with --scores) the chance of winning"
    )
    discard = sub.add_parser("discard", help=discard_help, description=discard_help)
    discard.add_argument("cards", nargs="+", type=card_text, help="the dealt hand, such as 5H 5C 6D JS QH 2C")
    side = discard.add_mutually_exclusive_group(required=True)
    side.add_argument("--dealer", action="store_true", help="the crib is yours")
    side.add_argument("--pone", action="store_true", help="the crib is the opponent's")
    discard.add_argument(
        "--partner",
        action="store_true",
        help="four players: you are the partner of the dealer (with --dealer) or of the pone (with"
        " --pone), so your hand counts second or third in the show (it matters near the end)",
    )
    discard.add_argument("--scores", help="your score and the opponent's, such as 100,110 (plays to win)")
    discard.add_argument(
        "--exact", action="store_true", help="exact crib over every starter and throw (slower)"
    )
    _common(discard)

    play_help = (
        "value every card you can play now: the net points it is expected to bring to the end "
        "of the play, and why"
    )
    play = sub.add_parser("play", help=play_help, description=play_help)
    play.add_argument(
        "--hand",
        nargs="+",
        type=card_text,
        required=True,
        help="the cards you hold (the cards you played are given with --sequence or --played)",
    )
    play.add_argument(
        "--sequence", nargs="*", type=card_text, default=[], help="the cards of the current count, in order"
    )
    play.add_argument("--count", type=int, help="the count (checked against the sequence)")
    play.add_argument(
        "--played",
        nargs="*",
        type=card_text,
        default=[],
        help="the cards played by both players earlier in this hand, before the count was last reset",
    )
    play.add_argument("--starter", type=card_text, help="the starter card (unknown when not given)")
    play.add_argument(
        "--opponent-holds",
        type=int,
        help="how many cards the opponent still holds (default: the rest of a hand)",
    )
    play.add_argument("--seed", type=seed, default=0, help="seed of the sampled deals (default 0)")
    _common(play)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", default="standard", help="the variant (hand sizes): standard, five-card..."
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.variant)
    if args.what == "discard":
        hand = parse_cards(" ".join(args.cards), size=rules.deal)
        scores = _scores(args.scores, rules)
        place = _place(args.dealer, args.partner, rules)
        options = discard_options(hand, args.dealer, rules, scores, exact=args.exact, place=place)
        if args.json:
            data = {
                "hand": [str(c) for c in hand],
                "dealer": args.dealer,
                "place": place,
                "variant": rules.name,
                "scores": None if scores is None else list(scores),
                "exact": args.exact,
                "options": [o.to_json() for o in options],
            }
            print(json.dumps(data))
        else:
            print(format_discards(hand, args.dealer, rules, options, scores))
        return 0
    situation = _situation(args, rules)
    plays = play_options(situation, seed=args.seed)
    if args.json:
        data = {
            "hand": [str(c) for c in situation.hand],
            "sequence": [str(c) for c in situation.sequence],
            "count": situation.count,
            "options": [o.to_json() for o in plays],
        }
        print(json.dumps(data))
    else:
        print(format_plays(situation, plays))
    return 0


def _place(dealer: bool, partner: bool, rules: Rules) -> int:
    """The player's place in the show's order (:func:`cribbage.ai.discard.show_place`): the pone
    counts first, the dealer last, and with four players the dealer's partner second and the
    pone's partner third."""
    if partner and rules.players != 4:
        raise UsageError(f"--partner is for four players in partnerships, not {rules.name}")
    last = rules.players - 1
    if partner:
        return 1 if dealer else 2
    return last if dealer else 0


def _scores(text: str | None, rules: Rules) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    if len(parts) == 2 and all(p.removeprefix("-").isdecimal() for p in parts) and "-" in text:
        raise UsageError(f"--scores {text}: a score is 0 or more")
    if len(parts) != 2 or not all(p.isdecimal() for p in parts):  # full-width too
        raise UsageError(f"--scores takes your score and the opponent's, such as 100,110, not {text!r}")
    own, other = int(parts[0]), int(parts[1])
    if max(own, other) >= rules.target:
        raise UsageError(f"--scores {text}: the game ends at {rules.target}, so scores are below it")
    return own, other


def _situation(args: argparse.Namespace, rules: Rules) -> PlaySituation:
    if rules.players != 2:
        raise UsageError(f"hint play is for two-player variants, not {rules.name!r}")
    hand = parse_cards(" ".join(args.hand))
    sequence = parse_cards(" ".join(args.sequence))
    earlier = parse_cards(" ".join(args.played))
    count = sum(c.value for c in sequence)
    if args.count is not None and args.count != count:
        shown = format_cards(sequence) or "no cards"
        raise UsageError(f"--count {args.count} does not match the sequence ({shown} makes {count})")
    mine = rules.hand_size - len(hand)  # the cards the seat has played: each must be given
    if 0 < len(hand) <= rules.hand_size and len(sequence) + len(earlier) < mine:
        given = len(sequence) + len(earlier)
        raise UsageError(
            f"--hand {format_cards(hand)} holds {len(hand)} of a {rules.hand_size}-card hand: give the "
            f"{mine} card{'s' if mine > 1 else ''} you played with --sequence or --played "
            f"({given} given)"
        )
    holds, size = args.opponent_holds, rules.hand_size
    if holds is not None and not 0 <= holds <= size:
        raise UsageError(
            f"--opponent-holds {holds}: the opponent holds 0 to {size} cards in {rules.name}, not {holds}"
        )
    starter = None if args.starter is None else Card.parse(args.starter)
    situation = PlaySituation.typed(hand, sequence, earlier, rules, starter, args.opponent_holds)
    if not situation.legal():
        raise UsageError(f"no card of {format_cards(hand)} can be played on a count of {count}: say go")
    return situation


LOWBALL = "lowball: points count against you, so the best {} brings the fewest points"
NO_PLAY = "with {} players the play is not estimated: the keeps are ranked by the show (no peg column)"
HALF_CRIB = "two opponents: a point in one opponent's crib costs you half a point (crib column: {:g} x crib)"


def format_discards(
    hand: tuple[Card, ...],
    dealer: bool,
    rules: Rules,
    options: list[KeepOption],
    scores: tuple[int, int] | None = None,
) -> str:
    """A table of every keep, best first.

    The columns are the player's points: ``total`` is ``hand ± crib + peg`` (in lowball too,
    where the best keep brings the fewest; with three players an opponent's crib is counted at
    its weight, :attr:`KeepOption.crib_weight`).  When the keeps are ranked by the chance of winning
    (near the end of the game), that chance is the last column, ``wins``.
    """
    whose = "your crib" if dealer else "the opponent's crib"
    size = rules.hand_size
    keep_width = 4 * size
    throw_width = max(6, 4 * rules.discard)
    wins = any(o.win is not None for o in options)
    lines = [f"{format_cards(hand, pretty=True)} ({rules.name}, {whose})"]
    if rules.lowball:
        lines.append(LOWBALL.format("keep"))
    if wins:
        lines.append(_lower(win_note("keeps", rules.target, scores)).removesuffix(".") + ": wins")
    play = any(o.pegging for o in options)  # four players: no estimate of the play
    if not play:
        lines.append(NO_PLAY.format(rules.players))
    weight = options[0].crib_weight if options else 1.0
    if weight != 1:
        lines.append(HALF_CRIB.format(weight))
    lines.append(
        f"{'keep':<{keep_width}} {'throw':<{throw_width}} {'hand':>6} {'crib':>6}"
        + (f" {'peg':>6}" if play else "")
        + f" {'total':>7}"
        + ("    wins" if wins else "")
    )
    sign = "+" if dealer else "-"
    for option in options:
        keep = format_cards(option.keep, pretty=True)
        throw = format_cards(option.discard, pretty=True)
        total = 0.0 - option.total if rules.lowball else option.total  # the AI's total is what it maximises
        crib = weight * option.crib
        lines.append(
            f"{keep:<{keep_width}} {throw:<{throw_width}} {option.hand:6.2f} {sign}{crib:5.2f}"
            + (f" {option.pegging:+6.2f}" if play else "")
            + f" {total:7.2f}"
            + (f"  {option.win:6.1%}" if option.win is not None else "")
        )
    return "\n".join(lines)


def _lower(sentence: str) -> str:
    """A sentence as a line of this command's tables, which start in lower case."""
    return sentence[:1].lower() + sentence[1:]


def format_plays(situation: PlaySituation, options: list[PlayOption]) -> str:
    """One line per card, best first: the card, its points now, its value and the reasons.

    The value is the net points the card is expected to bring to the end of the play (the
    player's less the opponent's; in lowball too, where the best brings the fewest).  When the
    cards are ranked by the chance of winning, that chance is a column, ``wins``.
    """
    sequence = format_cards(situation.sequence, pretty=True) or "nothing"
    wins = any(o.win is not None for o in options)
    lines = [f"hand {format_cards(situation.hand, pretty=True)}; count {situation.count} ({sequence})"]
    if situation.rules.lowball:
        lines.append(LOWBALL.format("card"))
    if wins:
        note = win_note("cards", situation.rules.target, situation.scores)
        lines.append(_lower(note).removesuffix(".") + ": wins")
    lines.append(f"{'card':>4} {'now':>4} {'value':>7}" + ("    wins" if wins else "") + "  reason")
    for option in options:
        value = 0.0 - option.value if situation.rules.lowball else option.value  # never -0.00
        win = "" if option.win is None else f"  {option.win:6.1%}"
        why = reasons_text(option.reasons)
        lines.append(f"{option.card.pretty:>4} {option.points:>4} {value:+7.2f}{win}  {why}")
    return "\n".join(lines)
