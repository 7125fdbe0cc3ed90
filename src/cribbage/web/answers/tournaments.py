"""The answers of the tournaments' routes (``docs/api.md``, "Tournaments"): a tournament as
:func:`cribbage.app.tournaments.view.tournament_json` shows it, a guest entered, and the list."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Answer

__all__ = [
    "GuestAnswer",
    "TournamentAnswer",
    "TournamentListAnswer",
    "TournamentPushAnswer",
]

TournamentStage = Literal["registration", "running", "finished"]
"""A tournament's stage: open for registration, running (tables being played), or over."""


class TournamentSettingsAnswer(Answer, title="TournamentSettings"):
    """The settings the director created the tournament with, every one filled in."""

    name: str
    variant: str = Field(description="a two-player variant, the higher score winning")
    games: int = Field(description="the qualifying games each entrant plays, 1 to 22")
    pairing: Literal["rotation", "swiss"]
    best_of: Literal[0, 3, 5] = Field(description="the playoff matches' length (0: no playoffs)")
    longer_from: int | None = Field(description="the playoff round from which matches are best of 5")
    consolation: int = Field(description="the consolation's games (0: none)")
    clock: int | None = Field(description="online: each side's seconds (null: no clock)")
    starts: str | None = Field(description="when the director means to start, ISO 8601 (informative)")
    limit: int = Field(description="the most entrants")
    rated: bool = Field(description="online: whether the games are rated")
    venue: Literal["online", "club"]


class TournamentEntrant(Answer):
    """An entrant, by the number it was entered with."""

    number: int
    name: str = Field(description="the player's name, or a team's: its players' names joined by ' & '")
    players: list[str] = Field(description="the player, or a team's two: its first player and partner")
    partner_pending: bool = Field(description="a team whose partner has not accepted yet")
    checked_in: bool
    withdrawn: bool
    guest: bool = Field(description="entered by name by the director (a club's guest): no account")


class TableOutcomeAnswer(Answer):
    """How a table was decided: the winner (null: both sides forfeited), the loser, their scores
    (0 and 0 for a forfeit) and whether it was a forfeit."""

    winner: int | None
    loser: int
    winner_points: int
    loser_points: int
    forfeit: bool


class ResultEntry(Answer):
    """A player's entry of a club table's result."""

    winner: int
    loser_points: int


class TournamentTable(Answer):
    """A table: its stage, round, number and game (the game of a playoff match), its two
    entrants (``second`` null: a bye), its online game, and its outcome once decided."""

    stage: Literal["qualifying", "playoffs", "consolation"]
    round: int
    number: int
    game: int = Field(description="the game of the match at this table (1 in the qualifying)")
    first: int
    second: int | None = Field(description="null: a bye")
    game_id: str | None = Field(
        description="online: the table's game (each side's account opens its seat with "
        "POST /api/accounts/games/{game_id}/open); null at a club and for a forfeit"
    )
    outcome: TableOutcomeAnswer | None
    entered: list[int] = Field(description="at a club: the entrants whose result is entered")
    disputed: bool = Field(description="at a club: the two entries disagree and the table is undecided")
    game_points: list[int] | None = Field(
        default=None, description="decided, not a bye: each side's game points (first, second)"
    )
    spread: list[int] | None = Field(default=None, description="decided, not a bye: each side's spread")
    watch: str | None = Field(
        default=None,
        description="online, undecided: the game's public watch code (a spectator's page: /watch/{watch})",
    )
    entries: dict[str, ResultEntry] | None = Field(
        default=None, description="the director's only: the players' entries by entrant number"
    )


class TournamentYou(Answer):
    """The reader: whether it is the director, and its entrant number (null: not entered)."""

    director: bool
    entrant: int | None = Field(description="the reader's entrant: its own, or its team's")
    accept: bool = Field(description="the reader is named a team's partner and has yet to accept")


class TournamentStanding(Answer):
    """A line of the standings."""

    rank: int
    entrant: int
    game_points: int
    won: int
    played: int
    byes: int
    skunks: int
    spread: int
    forfeits: int


class TournamentMatch(Answer):
    """A playoff match of the bracket: its sides (null: not known yet), length, winner and the
    games each side has won."""

    round: int
    index: int
    top: int | None
    bottom: int | None
    best_of: int
    winner: int | None
    wins: list[int]


class TournamentAnswer(Answer):
    """A tournament: its settings, entrants, every table, the standings, the bracket and the
    champions, and ``you``, the reader's part."""

    id: str
    name: str
    stage: TournamentStage
    settings: TournamentSettingsAnswer
    created: str
    teams: bool = Field(description="a team event: each entrant a partnership, four at a table")
    entrants: list[TournamentEntrant]
    tables: list[TournamentTable]
    you: TournamentYou
    standings: list[TournamentStanding] = Field(description="the qualifying's (empty before the start)")
    consolation: list[TournamentStanding] = Field(description="the consolation's (empty: none yet)")
    bracket: list[list[TournamentMatch]] | None = Field(description="the playoffs by round (null: none yet)")
    rounds: dict[str, int] = Field(
        description="the rounds made of each stage: qualifying, playoffs, consolation "
        "(empty before the start)"
    )
    champion: int | None
    consolation_champion: int | None


class GuestAnswer(TournamentAnswer):
    """The tournament, and the guest's entrant number."""

    number: int


class TournamentSummary(Answer):
    """A tournament of the list."""

    id: str
    name: str
    stage: TournamentStage
    settings: TournamentSettingsAnswer
    entrants: int = Field(description="how many are entered")
    created: str


class TournamentListAnswer(Answer):
    """The newest tournaments (100), newest first."""

    tournaments: list[TournamentSummary]


class TournamentPushAnswer(Answer):
    """Whether your browser is told when your next game of the tournament is ready."""

    subscribed: bool = Field(
        description="your browser is told (by Web Push) when a table of yours gets its game"
    )
