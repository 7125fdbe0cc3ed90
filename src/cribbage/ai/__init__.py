"""Analysis for the computer players and for hints, from a seat's view only.

* :func:`discard_options`: every way to discard, ranked by expected value (exact average hand
  over the starters, expected crib from the shipped tables or computed exactly, pegging estimate).
* :func:`play_options`: every card that can be played, valued by a search of the rest of the
  play over sampled deals of the unseen cards, with a short reason.

The modules, from the bottom up: :mod:`.tables` (exact averages, the crib and pegging tables),
:mod:`.search` (the exact search of the play with every hand known), :mod:`.discard`,
:mod:`.pegging`, and :mod:`.counting` (claims and muggins calls under manual counting).  The
computer players themselves are in :mod:`cribbage.players.levels`.
"""

from .discard import KeepOption, discard_options
from .pegging import PlayOption, PlaySituation, play_options

__all__ = ["KeepOption", "PlayOption", "PlaySituation", "discard_options", "play_options"]
