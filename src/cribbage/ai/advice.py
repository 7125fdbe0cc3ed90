"""The hint for a seat's view: the one place that says how a view is turned into advice.

The hint of the browser (:func:`cribbage.app.round.hint_for`) and the game review
(:mod:`cribbage.review`) both rank a seat's choices with these functions, so the review's
best choice is always the hint's first option for the same view.

* :func:`keep_advice`: every keep of the seat's dealt hand (:func:`~cribbage.ai.discard.discard_options`),
  with the crib counted for or against its side and, near the end of a two-sided game, the
  chance of winning from the side's score and the other side's, the seat's hand counted at
  its place in the show;
* :func:`play_advice`: every card it may play (:func:`~cribbage.ai.pegging.play_options`), with
  the fixed seed ``0``, so the advice for a position is the same every time it is asked.
"""

from __future__ import annotations

from typing import Final

from ..engine.game import SeatView
from .discard import KeepOption, discard_options, show_place
from .pegging import PlayOption, play_options

__all__ = ["PLAY_SEED", "keep_advice", "play_advice", "ranked_by_win"]

PLAY_SEED: Final = 0
"""The seed of the sampled deals behind a play hint: one position, one answer."""


def keep_advice(view: SeatView) -> list[KeepOption]:
    """Every keep of ``view.hand``, best first (the hint's order)."""
    side = view.side
    others = [score for s, score in enumerate(view.scores) if s != side]
    dealer = view.dealer
    own_crib = dealer is not None and view.rules.side_of(dealer) == side
    place = None if dealer is None else show_place(view.seat, dealer, view.rules)
    return discard_options(
        view.hand, own_crib, view.rules, scores=(view.scores[side], max(others)), place=place
    )


def play_advice(view: SeatView) -> list[PlayOption]:
    """Every card ``view``'s seat may play now, best first (the hint's order)."""
    return play_options(view, seed=PLAY_SEED)


def ranked_by_win(options: list[KeepOption] | list[PlayOption]) -> bool:
    """Whether the options are ranked by their chance of winning (near the end of the game)."""
    return any(o.win is not None for o in options)
