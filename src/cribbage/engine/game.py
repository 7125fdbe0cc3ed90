"""The names of a game, re-exported from the modules that define them (issue 43 split this module
by concern): :mod:`~cribbage.engine.state` (:class:`GameState`), :mod:`~cribbage.engine.actions`
(the actions and their JSON), :mod:`~cribbage.engine.events` (events and results),
:mod:`~cribbage.engine.view` (a seat's view, the phases), :mod:`~cribbage.engine.checks`,
:mod:`~cribbage.engine.dealing`, :mod:`~cribbage.engine.pegging`, :mod:`~cribbage.engine.show`,
:mod:`~cribbage.engine.muggins` and :mod:`~cribbage.engine.points`.

Import them from those modules: this one only keeps the importers not yet moved working.
"""

from __future__ import annotations

# The names still imported from here, by app/, web/, tui/, study/ and text.py: to go
# once they import the modules.
from .actions import MAX_CLAIM, Action, Count, Deal, Discard, Muggins, Pass, Play, action_from_json
from .dealing import next_dealer
from .events import SOURCES, Event, GameResult, Kind
from .state import GameState
from .view import Phase, SeatView

__all__ = [
    "MAX_CLAIM",
    "SOURCES",
    "Action",
    "Count",
    "Deal",
    "Discard",
    "Event",
    "GameResult",
    "GameState",
    "Kind",
    "Muggins",
    "Pass",
    "Phase",
    "Play",
    "SeatView",
    "action_from_json",
    "next_dealer",
]
