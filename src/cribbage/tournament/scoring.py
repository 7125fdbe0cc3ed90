"""The qualifying round's score: game points, spread and standings (docs/tournaments.md).

The American Cribbage Congress's Point Scoring System: a win is 2 game points, a skunk win 3
(the loser below the skunk line, 91 in a game to 121, 31 in a game to 61), a loss 0.  The
**spread** of a game is the winner's margin, counted plus for the winner and minus for the
loser.  Entrants are ranked by game points, then games won, then spread, then the game points
each scored against the others tied with them, then entry order.  A bye (an odd field) is worth
:class:`ByeCredit`, by default a win of 2 game points and no spread.

>>> field = ["ann", "bob", "cy"]
>>> games = [GameScore("ann", "bob", 121, 85), GameScore("bob", "cy", 121, 119)]
>>> for line in standings(field, games, byes=["cy"]):
...     print(line.rank, line.entrant, line.game_points, line.won, line.spread)
1 ann 3 1 36
2 cy 2 1 -2
3 bob 2 1 -34
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .entrants import EntrantId, check_entrant, check_entrants
from .errors import EntrantError, GameScoreError, TournamentError

if TYPE_CHECKING:
    from ..engine.rules import Rules

__all__ = [
    "CLUB_GAMES",
    "CONSOLATION_GAMES",
    "MAIN_EVENT_GAMES",
    "SKUNK_LINE",
    "ByeCredit",
    "ForfeitedGame",
    "GameScore",
    "QualifyingScoring",
    "QualifyingStanding",
    "standings",
]

SKUNK_LINE: Final = 91
"""A loser below this score in a game to 121 is skunked (31 in a game to 61)."""

MAIN_EVENT_GAMES: Final = range(12, 23)
"""The qualifying games of an ACC main event a director chooses from (12 to 22)."""

CONSOLATION_GAMES: Final = range(7, 13)
"""The qualifying games of an ACC consolation event (7 to 12)."""

CLUB_GAMES: Final = 9
"""The games of a club (Grass Roots) night."""


@dataclass(frozen=True, slots=True)
class ByeCredit:
    """What a qualifying-round bye is worth: game points, spread, and whether it counts as a
    game won (the second ranking key)."""

    game_points: int = 2
    spread: int = 0
    won: bool = True


@dataclass(frozen=True, slots=True)
class GameScore:
    """A finished qualifying game: who won, who lost, and each one's final score.

    Raises:
        EntrantError: a bad id, or the winner is the loser (``self``).
        GameScoreError: a negative score, or the winner's not above the loser's.
    """

    winner: EntrantId
    loser: EntrantId
    winner_points: int
    loser_points: int

    def __post_init__(self) -> None:
        check_entrant(self.winner)
        check_entrant(self.loser)
        if self.winner == self.loser:
            raise EntrantError(
                f"entrant {self.winner!r} cannot play itself", problem="self", entrant=self.winner
            )
        if not 0 <= self.loser_points < self.winner_points:
            raise GameScoreError(
                f"a win needs 0 <= loser's score < winner's, not {self.winner_points}-{self.loser_points}",
                winner_points=self.winner_points,
                loser_points=self.loser_points,
            )

    @property
    def margin(self) -> int:
        """The spread of the game: the winner's margin (+ for the winner, - for the loser)."""
        return self.winner_points - self.loser_points


@dataclass(frozen=True, slots=True)
class QualifyingScoring:
    """How a qualifying game counts: the skunk line, the game points of a win and of a skunk
    win (a loss is 0), and what a bye is worth.

    Raises:
        TournamentError: a skunk line below 1, or negative game points.
    """

    skunk_line: int = SKUNK_LINE
    win: int = 2
    skunk: int = 3
    bye: ByeCredit = field(default_factory=ByeCredit)
    forfeit: ByeCredit = field(default_factory=ByeCredit)
    """What the winner of a forfeited game is credited (the loser: a game played, lost, no spread)."""

    def __post_init__(self) -> None:
        if self.skunk_line < 1 or self.win < 0 or self.skunk < 0:
            raise TournamentError(
                f"skunk line {self.skunk_line} (at least 1), game points {self.win} and {self.skunk} "
                "(at least 0)",
                skunk_line=self.skunk_line,
                win=self.win,
                skunk=self.skunk,
            )

    @classmethod
    def for_rules(cls, rules: Rules) -> QualifyingScoring:
        """The ACC's scoring with the skunk line of a variant (91 at 121, 31 at 61).

        >>> from cribbage.engine.rules import get_rules
        >>> QualifyingScoring.for_rules(get_rules("short")).skunk_line
        31
        """
        return cls(skunk_line=rules.skunk_line)

    def skunked(self, game: GameScore) -> bool:
        """Whether the game's loser finished below the skunk line."""
        return game.loser_points < self.skunk_line

    def game_points(self, game: GameScore) -> int:
        """The winner's game points for ``game`` (the loser's are 0).

        >>> scoring = QualifyingScoring()
        >>> scoring.game_points(GameScore(1, 2, 121, 91)), scoring.game_points(GameScore(1, 2, 121, 90))
        (2, 3)
        """
        return self.skunk if self.skunked(game) else self.win


@dataclass(frozen=True, slots=True)
class QualifyingStanding:
    """An entrant's line in the standings: its place (from 1), game points, games won (byes
    included when :attr:`ByeCredit.won`), games played at a table, byes, skunk wins and spread."""

    rank: int
    entrant: EntrantId
    game_points: int
    won: int
    played: int
    byes: int
    skunks: int
    spread: int
    forfeits: int = 0
    """Games won or lost by forfeit (counted in :attr:`played`, and in :attr:`won` by their winner)."""


@dataclass(frozen=True, slots=True)
class ForfeitedGame:
    """A qualifying game nobody played: ``loser`` withdrew or did not come, and ``winner`` is
    credited as :attr:`QualifyingScoring.forfeit` says (by default a win of 2 game points and no
    spread, as a bye).  ``winner`` None: both sides forfeited (two entrants who withdrew), a
    loss to each.

    Raises:
        EntrantError: a bad id, or the winner is the loser.
    """

    winner: EntrantId | None
    loser: EntrantId

    def __post_init__(self) -> None:
        check_entrant(self.loser)
        if self.winner is not None and check_entrant(self.winner) == self.loser:
            raise EntrantError(
                f"entrant {self.loser!r} cannot play itself", problem="self", entrant=self.loser
            )


@dataclass(slots=True)
class _Tally:
    game_points: int = 0
    won: int = 0
    played: int = 0
    byes: int = 0
    skunks: int = 0
    spread: int = 0
    forfeits: int = 0


def standings(
    entrants: Sequence[EntrantId],
    games: Iterable[GameScore],
    byes: Iterable[EntrantId] = (),
    scoring: QualifyingScoring | None = None,
    forfeits: Iterable[ForfeitedGame] = (),
) -> tuple[QualifyingStanding, ...]:
    """The field ranked after ``games``, ``byes`` (an entrant once per bye) and ``forfeits``,
    best first.

    ``entrants`` in entry order, the last tie-break; ``scoring`` by default the ACC's at 121.
    Ties of game points, games won and spread are broken by the game points each scored in
    the games among the tied entrants, then by entry order.

    Raises:
        EntrantError: a duplicate in ``entrants``, or a game or bye naming one not in it.
    """
    rules = scoring or QualifyingScoring()
    field_ = check_entrants(entrants)
    tallies = {entrant: _Tally() for entrant in field_}
    played = list(games)
    for game in played:
        winner, loser = _tally(tallies, game.winner), _tally(tallies, game.loser)
        points = rules.game_points(game)
        winner.game_points += points
        winner.won += 1
        winner.skunks += rules.skunked(game)
        winner.spread += game.margin
        loser.spread -= game.margin
        winner.played += 1
        loser.played += 1
    for entrant in byes:
        tally = _tally(tallies, entrant)
        tally.byes += 1
        tally.game_points += rules.bye.game_points
        tally.spread += rules.bye.spread
        tally.won += rules.bye.won
    for forfeit in forfeits:
        _tally(tallies, forfeit.loser).played += 1
        _tally(tallies, forfeit.loser).forfeits += 1
        if forfeit.winner is not None:
            tally = _tally(tallies, forfeit.winner)
            tally.played += 1
            tally.forfeits += 1
            tally.game_points += rules.forfeit.game_points
            tally.spread += rules.forfeit.spread
            tally.won += rules.forfeit.won
    order = _ranked(field_, tallies, played, rules)
    return tuple(
        QualifyingStanding(
            rank, entrant, t.game_points, t.won, t.played, t.byes, t.skunks, t.spread, t.forfeits
        )
        for rank, entrant in enumerate(order, 1)
        for t in (tallies[entrant],)
    )


def _tally(tallies: dict[EntrantId, _Tally], entrant: EntrantId) -> _Tally:
    """The running tally of ``entrant``, which must be in the field."""
    tally = tallies.get(entrant)
    if tally is None or isinstance(entrant, bool):
        raise EntrantError(f"entrant {entrant!r} is not in the field", problem="unknown", entrant=entrant)
    return tally


def _ranked(
    field_: tuple[EntrantId, ...],
    tallies: dict[EntrantId, _Tally],
    games: list[GameScore],
    rules: QualifyingScoring,
) -> list[EntrantId]:
    """The field in ranking order: the three ACC keys, then head to head, then entry order."""
    entry = {entrant: index for index, entrant in enumerate(field_)}

    def key(entrant: EntrantId) -> tuple[int, int, int]:
        t = tallies[entrant]
        return (-t.game_points, -t.won, -t.spread)

    groups: dict[tuple[int, int, int], list[EntrantId]] = defaultdict(list)
    for entrant in field_:
        groups[key(entrant)].append(entrant)
    order: list[EntrantId] = []
    for group_key in sorted(groups):
        group = groups[group_key]
        if len(group) > 1:
            inside = set(group)
            head: dict[EntrantId, int] = dict.fromkeys(group, 0)
            for game in games:
                if game.winner in inside and game.loser in inside:
                    head[game.winner] += rules.game_points(game)
            group = sorted(group, key=lambda entrant: (-head[entrant], entry[entrant]))
        order += group
    return order
