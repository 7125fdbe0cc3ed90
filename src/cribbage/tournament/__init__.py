"""The rules of tournaments (issue 44): pure values and functions, no I/O (docs/tournaments.md).

- :mod:`~cribbage.tournament.scoring`: game points, spread and standings of the qualifying round;
- :mod:`~cribbage.tournament.pairing`: its pairings, by rotation or Swiss;
- :mod:`~cribbage.tournament.bracket`: the playoffs' qualifiers, byes, bracket and matches;
- :mod:`~cribbage.tournament.forfeits`: the games a no-show forfeits;
- :mod:`~cribbage.tournament.entrants` and :mod:`~cribbage.tournament.errors`: entrant ids
  (a player or a partnership) and the exceptions, each a :class:`ValueError`.
"""

from __future__ import annotations

from .bracket import (
    Bracket,
    BracketMatch,
    PlayoffFormat,
    bracket_size,
    bye_count,
    check_best_of,
    match_winner,
    qualifier_count,
    seed_order,
)
from .entrants import EntrantId, check_entrant, check_entrants
from .errors import (
    BracketError,
    EntrantError,
    GameScoreError,
    PairingError,
    PlayoffMatchError,
    TournamentError,
)
from .forfeits import FIRST_FORFEIT_MINUTES, FORFEIT_EVERY_MINUTES, forfeited_games
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
    "FIRST_FORFEIT_MINUTES",
    "FORFEIT_EVERY_MINUTES",
    "MAIN_EVENT_GAMES",
    "SKUNK_LINE",
    "Bracket",
    "BracketError",
    "BracketMatch",
    "ByeCredit",
    "EntrantError",
    "EntrantId",
    "GameScore",
    "GameScoreError",
    "PairedRound",
    "PairingError",
    "PlayoffFormat",
    "PlayoffMatchError",
    "QualifyingScoring",
    "QualifyingStanding",
    "TournamentError",
    "bracket_size",
    "bye_count",
    "check_best_of",
    "check_entrant",
    "check_entrants",
    "forfeited_games",
    "match_winner",
    "qualifier_count",
    "rotation_capacity",
    "rotation_rounds",
    "seed_order",
    "standings",
    "swiss_round",
]
