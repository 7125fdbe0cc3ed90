"""A whole tournament as a value: its field, its format and the tables of its games with their
outcomes; what stands and which tables come next (docs/tournaments.md, "The event").

The application stores the tables and their outcomes, nothing else: every process rebuilds the
same :class:`TournamentEvent` from them and asks it for the next tables
(:meth:`TournamentEvent.next_tables`), so the tournament is a state machine whose moves are the
games' outcomes.

- **Qualifying**: ``games`` rounds, paired by rotation or Swiss (:mod:`.pairing`); a round's
  tables come once every table of the round before is decided.
- **Playoffs** (when the format has them): the top quarter of the qualifying standings
  (:func:`~.bracket.qualifier_count`) in a :class:`~.bracket.Bracket`; a match's games are tables
  one after another (game 1, 2...) until :func:`~.bracket.match_winner` names its winner, and a
  match begins as soon as both its sides are known.
- **Consolation** (``consolation_games`` over 0): the entrants who did not qualify play a
  qualifying of their own, paired the same way, beside the playoffs.

An entrant who **withdraws** forfeits every game not yet decided: the application records the
forfeit of a game in progress, and each new table with a withdrawn side is decided as it is
made (:meth:`TournamentEvent.forfeit_of`).  Withdrawn entrants stay in the field, as in a club's
rotation: the schedule and the pairings stay as they would have been (so a field that can be
paired without a third meeting still can), the opponents are credited the forfeits, and a
withdrawn entrant who qualifies anyway forfeits its matches (as a qualifier who does not appear,
ACC Rule 13.1).  The consolation's field is fixed by its first round: the entrants who did not
qualify and were still playing then.

>>> event = TournamentEvent(("ann", "bob", "cy"), EventFormat(games=2, playoffs=None))
>>> [(t.first, t.second) for t in event.next_tables()]
[('bob', 'cy'), ('ann', None)]
>>> event = event.with_tables(event.next_tables())
>>> event = event.decide(event.tables[0], TableOutcome("bob", "cy", 121, 90))
>>> [(t.round, t.first, t.second) for t in event.next_tables()]
[(2, 'cy', 'ann'), (2, 'bob', None)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, TypeAlias

from .bracket import Bracket, PlayoffFormat, match_winner, qualifier_count
from .entrants import EntrantId, check_entrant, check_entrants
from .errors import EntrantError, GameScoreError, PairingError, TournamentError
from .pairing import PairedRound, rotation_capacity, rotation_rounds, swiss_round
from .scoring import CLUB_GAMES, ForfeitedGame, GameScore, QualifyingScoring, QualifyingStanding, standings

__all__ = [
    "CONSOLATION",
    "PAIRINGS",
    "PLAYOFFS",
    "QUALIFYING",
    "STAGES",
    "EventFormat",
    "EventTable",
    "Stage",
    "TableOutcome",
    "TournamentEvent",
]

Stage: TypeAlias = Literal["qualifying", "playoffs", "consolation"]
QUALIFYING: Final = "qualifying"
PLAYOFFS: Final = "playoffs"
CONSOLATION: Final = "consolation"
STAGES: Final[tuple[Stage, ...]] = (QUALIFYING, PLAYOFFS, CONSOLATION)

PAIRINGS: Final = ("rotation", "swiss")
"""How qualifying rounds are paired: the clubs' rotation through the field, or Swiss by game points."""


@dataclass(frozen=True, slots=True)
class EventFormat:
    """How a tournament is played: the qualifying games, their pairing, the playoffs (None:
    none, the qualifying's standings are the result, as at a club night), the consolation's
    games (0: none) and the qualifying's scoring.

    Raises:
        PairingError: games below 1, a consolation below 0, or an unknown pairing.
    """

    games: int = CLUB_GAMES
    pairing: str = "rotation"
    playoffs: PlayoffFormat | None = field(default_factory=PlayoffFormat)
    consolation_games: int = 0
    scoring: QualifyingScoring = field(default_factory=QualifyingScoring)

    def __post_init__(self) -> None:
        if self.games < 1 or self.consolation_games < 0:
            raise PairingError(
                f"{self.games} qualifying and {self.consolation_games} consolation games: at least 1 and 0",
                games=self.games,
                consolation_games=self.consolation_games,
            )
        if self.pairing not in PAIRINGS:
            raise PairingError(
                f"no pairing {self.pairing!r}: one of {', '.join(PAIRINGS)}", pairing=self.pairing
            )


@dataclass(frozen=True, slots=True)
class EventTable:
    """A table of a round: its stage, round (from 1), number in the round (from 1) and game (from
    1: a playoff match's games are tables one after another; 1 elsewhere); its two sides
    (``second`` None: ``first`` has the round's bye, decided as it is made)."""

    stage: Stage
    round: int
    number: int
    game: int
    first: EntrantId
    second: EntrantId | None = None

    @property
    def key(self) -> tuple[str, int, int, int]:
        """What names the table in its tournament: stage, round, number, game."""
        return (self.stage, self.round, self.number, self.game)

    @property
    def bye(self) -> bool:
        return self.second is None

    def sides(self) -> tuple[EntrantId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """How a table's game ended: its winner and loser and their scores; ``forfeit``: not played
    to its end (a withdrawal, a no-show, a side absent at the end), the scores then 0 and
    ``winner`` None when both sides forfeited.

    Raises:
        GameScoreError: a played game whose scores are not a win (:class:`~.scoring.GameScore`).
        EntrantError: a bad id, or the winner is the loser.
    """

    winner: EntrantId | None
    loser: EntrantId
    winner_points: int = 0
    loser_points: int = 0
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.forfeit:
            ForfeitedGame(self.winner, self.loser)
        elif self.winner is None:
            raise GameScoreError("a game played to its end has a winner", loser=self.loser)
        else:
            GameScore(self.winner, self.loser, self.winner_points, self.loser_points)

    @property
    def spread(self) -> int:
        """The winner's margin (0 for a forfeit)."""
        return 0 if self.forfeit else self.winner_points - self.loser_points


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """A tournament: its entrants in entry order, its format, its tables with their outcomes
    (None: not decided yet; a bye needs none) and the entrants who withdrew.

    Raises:
        EntrantError: fewer than two entrants, a bad or duplicate id, or a table or withdrawal
            naming someone not entered.
    """

    entrants: tuple[EntrantId, ...]
    format: EventFormat = field(default_factory=EventFormat)
    played: tuple[tuple[EventTable, TableOutcome | None], ...] = ()
    withdrawn: frozenset[EntrantId] = frozenset()

    def __post_init__(self) -> None:
        known = set(check_entrants(self.entrants, least=2))
        for table, outcome in self.played:
            for entrant in (*table.sides(), *((outcome.winner, outcome.loser) if outcome else ())):
                if entrant is not None and entrant not in known:
                    raise EntrantError(
                        f"entrant {entrant!r} is not entered", problem="unknown", entrant=entrant
                    )
        for entrant in self.withdrawn:
            if check_entrant(entrant) not in known:
                raise EntrantError(f"entrant {entrant!r} is not entered", problem="unknown", entrant=entrant)

    # ------------------------------------------------------------------ changes

    def with_tables(self, tables: Iterable[EventTable]) -> TournamentEvent:
        """This event with new tables, undecided (a bye is decided by itself)."""
        return replace(self, played=(*self.played, *((table, None) for table in tables)))

    def decide(self, table: EventTable, outcome: TableOutcome) -> TournamentEvent:
        """This event with ``table``'s outcome.

        Raises:
            TournamentError: no such table, decided already, a bye, or an outcome of others.
        """
        for i, (known, found) in enumerate(self.played):
            if known.key == table.key:
                if found is not None or known.bye:
                    raise TournamentError(f"table {table.key} is decided already", table=list(table.key))
                if {outcome.winner, outcome.loser} - {None} - set(known.sides()):
                    raise TournamentError(
                        f"the outcome is not of table {table.key}'s sides", table=list(table.key)
                    )
                return replace(self, played=(*self.played[:i], (known, outcome), *self.played[i + 1 :]))
        raise TournamentError(f"no table {table.key}", table=list(table.key))

    def withdraw(self, entrant: EntrantId) -> TournamentEvent:
        """This event with ``entrant`` withdrawn (its undecided tables are the caller's to decide
        by :meth:`forfeit_of`)."""
        return replace(self, withdrawn=self.withdrawn | {check_entrant(entrant)})

    # ------------------------------------------------------------------ reading

    @property
    def tables(self) -> tuple[EventTable, ...]:
        return tuple(table for table, _ in self.played)

    def outcome(self, table: EventTable) -> TableOutcome | None:
        return next((found for known, found in self.played if known.key == table.key), None)

    def undecided(self) -> tuple[EventTable, ...]:
        """The tables whose game is to be played (or is being played) now."""
        return tuple(table for table, found in self.played if found is None and not table.bye)

    def stage_tables(self, stage: Stage) -> tuple[tuple[EventTable, TableOutcome | None], ...]:
        return tuple((table, found) for table, found in self.played if table.stage == stage)

    def rounds_made(self, stage: Stage) -> int:
        """The last round of ``stage`` with tables (0: none yet)."""
        return max((table.round for table, _ in self.stage_tables(stage)), default=0)

    def forfeit_of(self, table: EventTable) -> TableOutcome | None:
        """The outcome a table has as it is made because a side withdrew (both: a forfeit with no
        winner), or None."""
        gone = [side for side in table.sides() if side in self.withdrawn]
        if table.second is None or not gone:
            return None
        if len(gone) == 2:  # a playoff match must have a winner: the higher seed goes through
            return TableOutcome(table.first if table.stage == PLAYOFFS else None, table.second, forfeit=True)
        loser = gone[0]
        return TableOutcome(table.second if loser == table.first else table.first, loser, forfeit=True)

    def field_of(self, stage: Stage) -> tuple[EntrantId, ...]:
        """Who plays a stage: everyone in the qualifying, the bracket's seeds in the playoffs, the
        entrants still playing who did not qualify in the consolation."""
        if stage == QUALIFYING:
            return self.entrants
        qualifiers = self.qualifiers()
        if stage == PLAYOFFS:
            return qualifiers
        made = {
            side for table, _ in self.stage_tables(CONSOLATION) if table.round == 1 for side in table.sides()
        }
        standing = self.standings(QUALIFYING)
        if made:  # fixed by the consolation's first round
            return tuple(s.entrant for s in standing if s.entrant in made)
        return tuple(
            s.entrant for s in standing if s.entrant not in qualifiers and s.entrant not in self.withdrawn
        )

    def standings(self, stage: Stage = QUALIFYING) -> tuple[QualifyingStanding, ...]:
        """The standings of the qualifying (or the consolation) from the outcomes so far."""
        games, byes, forfeits = [], [], []
        for table, found in self.stage_tables(stage):
            if table.second is None:
                byes.append(table.first)
            elif found is not None and found.forfeit:
                forfeits.append(ForfeitedGame(found.winner, found.loser))
            elif found is not None and found.winner is not None:
                games.append(GameScore(found.winner, found.loser, found.winner_points, found.loser_points))
        field_ = self.entrants if stage == QUALIFYING else self.field_of(stage)
        return standings(field_, games, byes, self.format.scoring, forfeits)

    def stage_done(self, stage: Stage) -> bool:
        """Whether a qualifying or consolation has played all its rounds (every table decided)."""
        games = self.format.games if stage == QUALIFYING else self.consolation_games()
        return self.rounds_made(stage) >= games and not any(
            found is None and not table.bye for table, found in self.stage_tables(stage)
        )

    def qualifiers(self) -> tuple[EntrantId, ...]:
        """The playoffs' seeds, best first: the top quarter of the field (rounding up) by the
        qualifying's standings (a withdrawn one forfeits its matches); () before the qualifying is
        over or without playoffs."""
        if self.format.playoffs is None or not self.stage_done(QUALIFYING):
            return ()
        ranked = [s.entrant for s in self.standings(QUALIFYING)]
        return tuple(ranked[: qualifier_count(len(self.entrants))])

    def bracket(self) -> Bracket | None:
        """The playoffs' bracket with every match won so far; None before the playoffs."""
        seeds = self.qualifiers()
        if not seeds or self.format.playoffs is None:
            return None
        bracket = Bracket.seeded(seeds, self.format.playoffs)
        while True:
            for match in bracket.pending():
                winners = self._match_games(match.round, match.index + 1)
                assert match.top is not None and match.bottom is not None
                won = match_winner(match.top, match.bottom, winners, match.best_of)
                if won is not None:
                    bracket = bracket.advance(won)
                    break
            else:
                return bracket

    def _match_games(self, round_number: int, number: int) -> list[EntrantId]:
        """The winners of a playoff match's decided games, in order (a double forfeit counts for nobody)."""
        games = sorted(
            (table.game, found.winner)
            for table, found in self.stage_tables(PLAYOFFS)
            if table.round == round_number and table.number == number and found is not None
        )
        return [winner for _, winner in games if winner is not None]

    @property
    def finished(self) -> bool:
        """Whether every stage is over."""
        if not self.stage_done(QUALIFYING):
            return False
        bracket = self.bracket()
        if bracket is not None and bracket.champion is None:
            return False
        consolation = self._consolation_field()
        return not consolation or self.stage_done(CONSOLATION)

    def champion(self, stage: Stage = PLAYOFFS) -> EntrantId | None:
        """The winner of the playoffs (or, without playoffs, of the qualifying; ``stage``
        consolation: of the consolation), once decided."""
        if stage == CONSOLATION:
            if not self._consolation_field() or not self.stage_done(CONSOLATION):
                return None
            return self.standings(CONSOLATION)[0].entrant
        if not self.stage_done(QUALIFYING):
            return None
        bracket = self.bracket()
        if bracket is None:
            return self.standings(QUALIFYING)[0].entrant
        return bracket.champion

    def consolation_games(self) -> int:
        """The consolation's games: the format's, but no more than its field can play without a
        third meeting (a small field plays fewer)."""
        field_ = self._consolation_field()
        return min(self.format.consolation_games, 2 * rotation_capacity(len(field_))) if field_ else 0

    def _consolation_field(self) -> tuple[EntrantId, ...]:
        if self.format.consolation_games < 1 or not self.qualifiers():
            return ()
        field_ = self.field_of(CONSOLATION)
        return field_ if len(field_) >= 2 else ()

    # ------------------------------------------------------------------ what comes next

    def next_tables(self) -> tuple[EventTable, ...]:
        """The tables to make now (none while the games of a round are being played, or once the
        event is finished): the next qualifying round once the last is decided, each playoff
        match's next game, the consolation's next round.  The same for the same event in every
        process: whoever stores them first makes them.

        Raises:
            PairingError: more rounds than the field can be paired for without a third meeting.
        """
        if not self.stage_done(QUALIFYING):
            return self._next_round(QUALIFYING, self.entrants, self.format.games)
        found = list(self._next_playoff_games())
        consolation = self._consolation_field()
        if consolation:
            found += self._next_round(CONSOLATION, consolation, self.consolation_games())
        return tuple(found)

    def due(self) -> tuple[tuple[EventTable, TableOutcome | None], ...]:
        """The tables to store now, each with the outcome it has as it is made (a withdrawn side's
        forfeit, :meth:`forfeit_of`), and the tables those outcomes bring in turn: what one
        process stores in one step after an outcome (empty: nothing to make now)."""
        event, made = self, list[tuple[EventTable, TableOutcome | None]]()
        while True:
            tables = event.next_tables()
            if not tables:
                return tuple(made)
            for table in tables:
                outcome = event.forfeit_of(table)
                event = event.with_tables([table])
                if outcome is not None:
                    event = event.decide(table, outcome)
                made.append((table, outcome))

    def forfeits_on_withdrawal(self, entrant: EntrantId) -> tuple[tuple[EventTable, TableOutcome], ...]:
        """The undecided tables of ``entrant`` and their outcome once it withdraws (its games
        forfeited to its opponents)."""
        event = self.withdraw(entrant)
        return tuple(
            (table, outcome)
            for table in event.undecided()
            if entrant in table.sides()
            for outcome in (event.forfeit_of(table),)
            if outcome is not None
        )

    def _next_round(self, stage: Stage, field_: Sequence[EntrantId], games: int) -> tuple[EventTable, ...]:
        made = self.rounds_made(stage)
        if made >= games or any(found is None and not t.bye for t, found in self.stage_tables(stage)):
            return ()
        number = made + 1
        if self.format.pairing == "rotation":
            most = 2 * rotation_capacity(len(field_))
            if games > most:
                raise PairingError(
                    f"{games} games for {len(field_)} entrants: 1 to {most}", games=games, most=most
                )
            paired = rotation_rounds(field_, number)[-1]
        else:
            ranked = [s.entrant for s in self.standings(stage)]
            paired = swiss_round(ranked, self._paired_rounds(stage, set(ranked)))
        tables = [EventTable(stage, number, i, 1, a, b) for i, (a, b) in enumerate(paired.tables, 1)]
        if paired.bye is not None:
            tables.append(EventTable(stage, number, len(tables) + 1, 1, paired.bye))
        return tuple(tables)

    def _paired_rounds(self, stage: Stage, among: set[EntrantId]) -> list[PairedRound]:
        """The rounds of a stage so far as pairings among ``among`` (the others' tables left out)."""
        rounds: list[PairedRound] = []
        for number in range(1, self.rounds_made(stage) + 1):
            tables = [t for t, _ in self.stage_tables(stage) if t.round == number]
            pairs = tuple(
                (t.first, t.second)
                for t in tables
                if t.second is not None and t.first in among and t.second in among
            )
            bye = next((t.first for t in tables if t.second is None and t.first in among), None)
            rounds.append(PairedRound(pairs, bye))
        return rounds

    def _next_playoff_games(self) -> Iterable[EventTable]:
        bracket = self.bracket()
        if bracket is None:
            return
        for match in bracket.pending():
            number = match.index + 1
            games = [
                (table, found)
                for table, found in self.stage_tables(PLAYOFFS)
                if table.round == match.round and table.number == number
            ]
            if any(found is None for _, found in games):
                continue
            assert match.top is not None and match.bottom is not None
            yield EventTable(PLAYOFFS, match.round, number, len(games) + 1, match.top, match.bottom)
