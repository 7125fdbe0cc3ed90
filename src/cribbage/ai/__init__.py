"""Analysis for the computer players and for hints, from a seat's view only.

* :func:`discard_options`: every way to discard, ranked by expected value (exact average hand
  over the starters, expected crib from the shipped tables or computed exactly, pegging
  estimate), and near the end of a game of two sides (two players or partners) by the chance
  of winning.
* :func:`play_options`: every card that can be played, valued by the rest of the play (solved
  against a guess at the opponent's hand, or searched over sampled deals with more players),
  with its reasons as codes and numbers (:class:`Reason`), worded by each interface.

The modules, from the bottom up: :mod:`.tables` (exact averages, the crib and pegging tables),
:mod:`.winning` (the chance of winning from a score), :mod:`.search` (the exact search of the
play with every hand known), :mod:`.worlds` and :mod:`.belief` (guessing hidden cards),
:mod:`.response` (the best play against a guess), :mod:`.discard`, :mod:`.pegging`, and
:mod:`.counting` (claims and muggins calls under manual counting).  The computer players
themselves are in :mod:`cribbage.players.levels`; docs/ai.md describes the whole.
"""

from .discard import KeepOption, discard_options
from .pegging import PlayOption, PlaySituation, Reason, ReasonCode, play_options

__all__ = [
    "KeepOption",
    "PlayOption",
    "PlaySituation",
    "Reason",
    "ReasonCode",
    "discard_options",
    "play_options",
]
