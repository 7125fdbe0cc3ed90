"""cribbage: an exact rules engine for every common variant, computer players and games.

The layers, from the bottom up: :mod:`cribbage.engine` (cards, scoring, the variants' rules, the
game as a state machine with explicit chance steps, game records); :mod:`cribbage.players` and
:mod:`cribbage.ai` (computer players, outside the rules); :mod:`cribbage.table` (the one driver of
every game, bot matches); and the interfaces :mod:`cribbage.cli`, :mod:`cribbage.tui` (the
terminal game) and :mod:`cribbage.web` (the browser game).  Arrows point down only: no layer
re-implements a rule.
"""

from .engine.cards import DECK, Card, format_cards, parse_cards
from .engine.errors import CardError, CribbageError, IllegalActionError, MugginsError, RecordError, RulesError
from .engine.scoring import Combo, PlayScore, ShowScore, hand_points, score_play, score_show

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "Combo",
    "CribbageError",
    "IllegalActionError",
    "MugginsError",
    "PlayScore",
    "RecordError",
    "RulesError",
    "ShowScore",
    "format_cards",
    "hand_points",
    "parse_cards",
    "score_play",
    "score_show",
]
