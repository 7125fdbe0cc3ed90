"""No-shows in the playoffs (ACC Rule 13.1): a qualifier who has not appeared five minutes after
the scheduled start forfeits a game to the opponent, and another every fifteen minutes after
that, until the match is over or the qualifier appears.

>>> [forfeited_games(minutes) for minutes in (4.9, 5, 19, 20, 35)]
[0, 1, 1, 2, 3]
>>> forfeited_games(60, best_of=3)
2
"""

from __future__ import annotations

import math
from typing import Final

from .bracket import check_best_of
from .errors import TournamentError

__all__ = ["FIRST_FORFEIT_MINUTES", "FORFEIT_EVERY_MINUTES", "forfeited_games"]

FIRST_FORFEIT_MINUTES: Final = 5
"""Minutes after the scheduled start at which an absent qualifier forfeits the first game."""

FORFEIT_EVERY_MINUTES: Final = 15
"""Minutes between each further forfeited game."""


def forfeited_games(minutes_late: float, best_of: int | None = None) -> int:
    """The games forfeited by a qualifier still absent ``minutes_late`` minutes after the
    scheduled start: none before 5, then one at 5, 20, 35...; at most the games that lose a
    match best of ``best_of`` (None: no cap).

    Raises:
        TournamentError: a negative, infinite or not-a-number time.
        PlayoffMatchError: ``best_of`` not a positive odd number.
    """
    if not (minutes_late >= 0 and math.isfinite(minutes_late)):
        raise TournamentError(f"{minutes_late} minutes late is not a time", minutes_late=minutes_late)
    games = 0
    if minutes_late >= FIRST_FORFEIT_MINUTES:
        games = 1 + int((minutes_late - FIRST_FORFEIT_MINUTES) // FORFEIT_EVERY_MINUTES)
    if best_of is not None:
        games = min(games, check_best_of(best_of) // 2 + 1)
    return games
