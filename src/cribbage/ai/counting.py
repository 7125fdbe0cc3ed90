"""Counting with manual scoring: what to claim, and when to call muggins, from a seat's view.

With manual counting a player states the points of each card it plays (when muggins applies to
the play) and of its hand and crib in the show; an opponent may then call muggins on points
the count left out.  Everything here is computed from the :class:`~cribbage.engine.view.SeatView`:

* in the show, the hand or crib being counted is the next in the show order: the seat's own
  hand (``view.kept``) or the crib, turned up for everyone (``view.crib``); once counted, hands
  are in ``view.shown``;
* in the play, the card just played is the last of ``view.sequence``;
* what the last count stated is ``view.claim``.
"""

from __future__ import annotations

import random

from ..engine.actions import MAX_CLAIM
from ..engine.cards import Card
from ..engine.scoring import Combo, play_combos, score_show
from ..engine.view import Phase, SeatView

__all__ = ["claim_with_slips", "missed_points", "play_combos_now", "show_count", "show_turn"]


def show_turn(view: SeatView) -> tuple[int, str] | None:
    """The (seat, ``"hand"`` or ``"crib"``) counted next in the show, or None outside it."""
    if view.phase is not Phase.SHOW or view.dealer is None:
        return None
    order = view.rules.show_order(view.dealer)
    step = len(view.shown)
    return order[step] if step < len(order) else None


def show_count(view: SeatView) -> tuple[Combo, ...] | None:
    """The combinations of the hand or crib this seat counts now, or None outside the show."""
    turn = show_turn(view)
    if turn is None or view.starter is None:
        return None
    if turn[1] == "hand":
        return score_show(view.kept, view.starter).combos
    return score_show(view.crib, view.starter, crib=True).combos


def play_combos_now(view: SeatView, card: Card) -> tuple[Combo, ...]:
    """The combinations ``card`` makes if played now."""
    return tuple(play_combos((*view.sequence, card), view.count + card.value))


def claim_with_slips(combos: tuple[Combo, ...] | None, rng: random.Random, slips: float = 0.0) -> int:
    """The points to state for ``combos``; with chance ``slips``, one combination is forgotten."""
    if combos is None:
        return 0
    total = sum(c.points for c in combos)
    if combos and slips and rng.random() < slips:
        total -= rng.choice(combos).points
    return min(total, MAX_CLAIM)


def missed_points(view: SeatView) -> int:
    """The points the count awaiting a muggins decision left out (0 when nothing was missed)."""
    if view.claim is None:
        return 0
    seat, what, stated = view.claim
    if what == "play":
        true = sum(c.points for c in play_combos(view.sequence, view.count))
    else:
        shown = (c for s, w, c in reversed(view.shown) if s == seat and w == what)
        cards = view.crib if what == "crib" else next(shown, ())
        if view.starter is None or not cards:
            return 0
        true = score_show(cards, view.starter, crib=what == "crib").total
    return max(0, true - stated)
