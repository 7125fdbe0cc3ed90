"""The rules of tournaments (issue 44): pure values and functions, no I/O (docs/tournaments.md).

- :mod:`~cribbage.tournament.scoring`: game points, spread and standings of the qualifying round;
- :mod:`~cribbage.tournament.pairing`: its pairings, by rotation or Swiss;
- :mod:`~cribbage.tournament.entrants` and :mod:`~cribbage.tournament.errors`: entrant ids
  (a player or a partnership) and the exceptions, each a :class:`ValueError`.
"""

from __future__ import annotations

from .entrants import EntrantId, check_entrant, check_entrants
from .errors import (
    BracketError,
    EntrantError,
    GameScoreError,
    PairingError,
    PlayoffMatchError,
    TournamentError,
)
from .pairing import PairedRound, rotation_capacity, rotation_rounds, swiss_round
from .scoring import (
    CLUB_GAMES,
    CONSOLATION_GAMES,
    MAIN_EVENT_GAMES,
    SKUNK_LINE,
    ByeCredit,
    GameScore,
    QualifyingScoring,
    QualifyingStanding,
    standings,
)

__all__ = [
    "CLUB_GAMES",
    "CONSOLATION_GAMES",
    "MAIN_EVENT_GAMES",
    "SKUNK_LINE",
    "BracketError",
    "ByeCredit",
    "EntrantError",
    "EntrantId",
    "GameScore",
    "GameScoreError",
    "PairedRound",
    "PairingError",
    "PlayoffMatchError",
    "QualifyingScoring",
    "QualifyingStanding",
    "TournamentError",
    "check_entrant",
    "check_entrants",
    "rotation_capacity",
    "rotation_rounds",
    "standings",
    "swiss_round",
]
