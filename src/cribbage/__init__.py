"""cribbage: an exact rules engine for every common variant, computer players and games.

The layers, from the bottom up: :mod:`cribbage.cards` (cards, parsing, formatting),
:mod:`cribbage.scoring` (the show and the play, explained), :mod:`cribbage.rules` (variants as one
rules object), :mod:`cribbage.game` (the game as a state machine with explicit chance steps) and
:mod:`cribbage.record` (JSON game records).  Players, the command line and the interfaces sit on
top and never re-implement a rule.
"""

from .cards import DECK, Card, format_cards, parse_cards
from .errors import CardError, CribbageError, IllegalActionError, RecordError, RulesError
from .scoring import Combo, PlayScore, ShowScore, hand_points, score_play, score_show

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "Combo",
    "CribbageError",
    "IllegalActionError",
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
