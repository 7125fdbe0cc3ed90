"""The ``hint`` command: the computer's advice for the human's discard or play.

The advice comes from :mod:`cribbage.ai`: ``discard_options`` (each keep with its expected
``hand``, ``crib``, ``pegging`` and ``total``) and ``play_options`` (each card with its
``value`` and ``reasons``, worded by :func:`cribbage.text.reasons_text`).  When they are not
available, the hint lists the legal choices without values.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Final

from rich.text import Text

from ..engine.cards import Card
from ..engine.game import Discard, Play, SeatView
from ..text import reasons_text
from .look import Look

__all__ = ["discard_hint", "play_hint"]

SHOWN: Final = 5
"""How many discard options a hint lists."""


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
    own_crib = view.dealer is not None and view.rules.side_of(view.dealer) == view.side
    ranked = list(options(view.hand, own_crib, view.rules, scores=(own, others)))
    lines = [look.dim("The best throws, with the points they are expected to bring:")]
    for rank, option in enumerate(ranked[:SHOWN], 1):
        thrown = sorted(option.discard)
        crib = float(option.crib) if own_crib else -float(option.crib)
        line = Text(f"{rank}. throw ") + look.cards(thrown)
        line.append(f" ({_positions(thrown, hand)}), keep ")
        line.append_text(look.cards(sorted(option.keep)))
        line.append(
            f": hand {float(option.hand):.1f}, crib {crib:+.1f}, play {float(option.pegging):+.1f}, total "
        )
        line.append_text(look.points(f"{float(option.total):.1f}"))
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
    lines = [look.dim("Each card with the net points it is expected to bring to the end of the play:")]
    for option in options(view):
        line = look.card(option.card) + Text(f" ({hand.index(option.card) + 1}): {float(option.value):+.1f}")
        if option.reasons:
            line.append(f"  {reasons_text(option.reasons)}")
        lines.append(line)
    return lines
