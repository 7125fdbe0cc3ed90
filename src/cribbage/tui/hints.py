"""The ``hint`` command: the computer's advice for the human's discard or play.

The advice comes from :mod:`cribbage.ai`: ``discard_options`` (each keep with its expected
``hand``, ``crib``, ``pegging`` and ``total``, and near the end of the game its chance to ``win``)
and ``play_options`` (each card with its ``value``, ``reasons`` worded by
:func:`cribbage.text.reasons_text`, and near the end its chance to ``win``).  When they are not
available, the hint lists the legal choices without values.

Every line fits :data:`WIDTH` columns.  The values are the player's points: in lowball, where
points count against their taker, the best choice is the one that brings the fewest, and the
hint says so.  When the advice ranks by the chance of winning, that chance is shown as a column.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, Final

from rich.text import Text

from ..engine.actions import Discard, Play
from ..engine.cards import Card
from ..engine.view import SeatView
from ..text import reasons_text, win_note
from .look import Look

__all__ = ["SHOWN", "WIDTH", "discard_hint", "play_hint"]

SHOWN: Final = 5
"""How many discard options a hint lists."""
WIDTH: Final = 80
"""The columns every hint line fits in."""

LOWBALL: Final = "Lowball: points count against you, so the best choice brings the fewest."
NO_PLAY: Final = "With {} players the play is not estimated: the throws are ranked by the show."


def _ai(name: str) -> Callable[..., Any] | None:
    """The function ``name`` of :mod:`cribbage.ai`, or ``None`` when it is not available."""
    try:
        module = importlib.import_module("cribbage.ai")
    except ImportError:
        return None
    function = getattr(module, name, None)
    return function if callable(function) else None


def _positions(cards: Sequence[Card], hand: Sequence[Card]) -> str:
    return " ".join(str(hand.index(c) + 1) for c in cards)


def _pad(text: Text, width: int) -> Text:
    """``text`` followed by spaces up to ``width`` cells."""
    return text + Text(" " * max(0, width - text.cell_len))


def _win(option: Any) -> float | None:
    win = getattr(option, "win", None)
    return None if win is None else float(win)


def discard_hint(view: SeatView, hand: Sequence[Card], look: Look) -> list[Text]:
    """The best discards with their expected points; ``hand`` is the hand in display order."""
    options = _ai("discard_options")
    if options is None:
        throws = [a.cards for a in view.legal if isinstance(a, Discard)]
        line = Text("You may throw any of: ")
        line.append(", ".join(_positions(cards, hand) for cards in throws))
        return [line, look.dim("(the computer's advice is not installed: no values)")]
    own = view.scores[view.side]
    others = max(s for side, s in enumerate(view.scores) if side != view.side)
    dealer = view.dealer
    own_crib = dealer is not None and view.rules.side_of(dealer) == view.side
    # The seat's place in the show: the pone counts first, the dealer last.
    place = None if dealer is None else (view.seat - dealer - 1) % view.rules.players
    ranked = list(options(view.hand, own_crib, view.rules, scores=(own, others), place=place))[:SHOWN]
    lowball = view.rules.lowball
    wins = any(_win(o) is not None for o in ranked)
    lines = [look.dim(LOWBALL)] if lowball else []
    if wins:
        lines.append(look.dim(win_note("throws", view.rules.target, view.scores)))
    play = any(float(o.pegging) for o in ranked)  # four players: no estimate of the play
    if not play:
        lines.append(look.dim(NO_PLAY.format(view.rules.players)))
    lines.append(look.dim("The best throws, with the points they are expected to bring:"))
    thrown_texts: list[Text] = []
    kept_texts: list[Text] = []
    for option in ranked:
        thrown = sorted(option.discard)
        thrown_texts.append(look.cards(thrown) + Text(f" ({_positions(thrown, hand)})"))
        kept_texts.append(look.cards(sorted(option.keep)))
    throw_width = max([5, *(t.cell_len for t in thrown_texts)])
    keep_width = max([4, *(k.cell_len for k in kept_texts)])
    head = f"    {'throw':<{throw_width}}  {'keep':<{keep_width}}"
    head += f" {'hand':>6} {'crib':>6}" + (f" {'play':>6}" if play else "") + f" {'total':>6}"
    head += "   wins" if wins else ""
    lines.append(look.dim(head))
    for rank, (option, throw, keep) in enumerate(zip(ranked, thrown_texts, kept_texts, strict=True), 1):
        crib = float(option.crib) if own_crib else -option.crib_weight * float(option.crib)
        total = float(option.hand) + crib + float(option.pegging)  # the points it brings
        line = Text(f"{rank:>2}. ") + _pad(throw, throw_width) + Text("  ") + _pad(keep, keep_width)
        line.append(f" {float(option.hand):6.1f} {crib:+6.1f} ")
        if play:
            line.append(f"{float(option.pegging):+6.1f} ")
        line.append_text(look.points(f"{total:6.1f}"))
        win = _win(option)
        if win is not None:
            line.append_text(look.points(f" {win:6.1%}"))
        lines.append(line)
    return lines


def play_hint(view: SeatView, hand: Sequence[Card], look: Look) -> list[Text]:
    """Each playable card with its value and the reason; ``hand`` is the hand in display order."""
    options = _ai("play_options")
    if options is None:
        line = Text("You may play: ")
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        line.append_text(Text(", ").join(look.card(c) + Text(f" ({hand.index(c) + 1})") for c in cards))
        return [line, look.dim("(the computer's advice is not installed: no values)")]
    ranked = list(options(view))
    lowball = view.rules.lowball
    wins = any(_win(o) is not None for o in ranked)
    lines = [look.dim(LOWBALL)] if lowball else []
    if wins:
        lines.append(look.dim(win_note("cards", view.rules.target, view.scores)))
    lines.append(look.dim("Each card with the net points it is expected to bring to the end of the play:"))
    for option in ranked:
        points = 0.0 - float(option.value) if lowball else float(option.value)  # never -0.0
        line = _pad(look.card(option.card) + Text(f" ({hand.index(option.card) + 1})"), 8)
        line.append(f" {points:+6.1f}")
        win = _win(option)
        if win is not None:
            line.append_text(look.points(f"  wins {win:.1%}".ljust(13)))
        lines.extend(_with_reasons(line, reasons_text(option.reasons) if option.reasons else ""))
    return lines


def _with_reasons(line: Text, reasons: str) -> list[Text]:
    """``line`` and its reasons after two spaces, wrapped under each other to fit :data:`WIDTH`."""
    if not reasons:
        return [line]
    indent = line.cell_len + 2  # at most 31: the card, its position, the value and the chance
    first, *rest = textwrap.wrap(reasons, WIDTH - indent)
    return [line + Text("  " + first), *(Text(" " * indent + part) for part in rest)]
