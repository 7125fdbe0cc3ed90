"""The hint for a seat's view: the one place that says how a view is turned into advice.

The hint of the browser (:func:`cribbage.app.games.round.hint_for`) and the game review
(:mod:`cribbage.study.review`) both rank a seat's choices with these functions, so the review's
best choice is always the hint's first option for the same view.

* :func:`keep_advice`: every keep of the seat's dealt hand (:func:`~cribbage.ai.discard.discard_options`),
  with the crib counted for or against its side and, near the end of a two-sided game, the
  chance of winning from the side's score and the other side's, the seat's hand counted at
  its place in the show;
* :func:`play_advice`: every card it may play (:func:`~cribbage.ai.pegging.play_options`), with
  the fixed seed ``0``, so the advice for a position is the same every time it is asked;
* :func:`hint`: the one or the other as the hint a client gets (:class:`Hint`, whose
  :meth:`Hint.to_json` is the body of ``GET /api/games/{id}/hint``, ``docs/api.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..engine.view import Phase, SeatView
from .discard import KeepOption, discard_options, show_place
from .pegging import PlayOption, play_options

__all__ = ["PLAY_SEED", "Hint", "hint", "keep_advice", "play_advice", "ranked_by_win"]

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


@dataclass(frozen=True, slots=True)
class Hint:
    """The advice for a seat's decision as a client gets it: every keep of its discard, or every
    card it may play, best first.

    Attributes:
        kind: ``"discard"`` (:attr:`options` are :class:`KeepOption`) or ``"play"``
            (:class:`PlayOption`).
        options: the options, best first.
    """

    kind: Literal["discard", "play"]
    options: tuple[KeepOption, ...] | tuple[PlayOption, ...]

    @property
    def ranked_by(self) -> str:
        """What the order follows: the chance of winning (``"win"``, near the end of the game),
        else a keep's ``"total"`` or a card's ``"value"``."""
        if any(o.win is not None for o in self.options):
            return "win"
        return "total" if self.kind == "discard" else "value"

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "ranked_by", "options"}``: the hint of ``docs/api.md``.  A keep is
        ``{"keep", "discard", "hand_points", "crib_points", "crib_weight"?, "pegging", "total",
        "win"?}``, a card ``{"card", "value", "reasons", "win"?}``; points to 2 decimals, a
        chance to 4."""
        options = [_keep_json(o) if isinstance(o, KeepOption) else _play_json(o) for o in self.options]
        return {"kind": self.kind, "ranked_by": self.ranked_by, "options": options}


def hint(view: SeatView) -> Hint:
    """The hint for ``view``'s seat: its keeps in the discard (:func:`keep_advice`), else the
    cards it may play (:func:`play_advice`)."""
    if view.phase is Phase.DISCARD:
        return Hint("discard", tuple(keep_advice(view)))
    return Hint("play", tuple(play_advice(view)))


def _keep_json(option: KeepOption) -> dict[str, Any]:
    data: dict[str, Any] = {
        "keep": [str(c) for c in option.keep],
        "discard": [str(c) for c in option.discard],
        "hand_points": round(option.hand, 2),
        "crib_points": round(option.crib, 2),
    }
    if option.crib_weight != 1:  # with three players an opponent's crib point weighs half one's own
        data["crib_weight"] = round(option.crib_weight, 4)
    data["pegging"] = round(option.pegging, 2)
    data["total"] = round(option.total, 2)
    if option.win is not None:
        data["win"] = round(option.win, 4)
    return data


def _play_json(option: PlayOption) -> dict[str, Any]:
    data: dict[str, Any] = {
        "card": str(option.card),
        "value": round(option.value, 2),
        "reasons": [r.to_json() for r in option.reasons],
    }
    if option.win is not None:
        data["win"] = round(option.win, 4)
    return data
