"""A game of cribbage as a state machine: state -> legal actions -> apply -> events.

The names of the game, from the modules that define them (issue 43 split this module by
concern): :mod:`~cribbage.engine.state` (:class:`GameState`), :mod:`~cribbage.engine.actions`
(the actions and their JSON), :mod:`~cribbage.engine.events` (events and results),
:mod:`~cribbage.engine.view` (a seat's view, the phases), :mod:`~cribbage.engine.checks`
(the checks of an action), :mod:`~cribbage.engine.dealing`, :mod:`~cribbage.engine.pegging`,
:mod:`~cribbage.engine.show` and :mod:`~cribbage.engine.muggins` (the transitions of each phase)
and :mod:`~cribbage.engine.points` (pegging, the game's end, a count awaiting muggins).

Import them from those modules.  This module only re-exports them for the importers not yet
moved (``app/``, ``web/``, ``tui/``, ``review.py``, ``text.py``, ``train.py``); it goes once they are.
"""

from __future__ import annotations

# Re-exported for the importers not yet moved to the new modules (to be removed with them).
from .actions import (
    CHANCE_ACTIONS,
    MAX_CLAIM,
    Action,
    Count,
    CutForDeal,
    Deal,
    Discard,
    Muggins,
    Pass,
    Play,
    Starter,
    action_from_json,
)
from .dealing import next_dealer
from .events import SOURCES, Event, GameResult, Kind, Source
from .rules import get_rules
from .state import GameState
from .view import CHANCE, TERMINAL, Phase, SeatView

__all__ = [
    "CHANCE",
    "CHANCE_ACTIONS",
    "MAX_CLAIM",
    "SOURCES",
    "TERMINAL",
    "Action",
    "Count",
    "CutForDeal",
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
    "Source",
    "Starter",
    "action_from_json",
    "get_rules",
    "next_dealer",
]
