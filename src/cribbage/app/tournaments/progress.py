"""A stored tournament as the rules see it, and the steps that move it on.

:func:`event_of` rebuilds the :class:`~cribbage.tournament.event.TournamentEvent` of a stored tournament
(its checked-in entrants by number, its tables and outcomes); :func:`advance` stores, in the
transaction that holds the tournament, the tables the event asks for next (and the stage once it
is finished); :func:`outcome_of_game` reads a finished online game's outcome.  Whatever a process
remembers of a tournament is rebuilt from these rows.
"""

from __future__ import annotations

from typing import Any

from ...engine.rules import Rules
from ...storage.tournaments import StoredTable, StoredTournament, TournamentTx
from ...tournament import rotation_capacity
from ...tournament.event import EventTable, Stage, TableOutcome, TournamentEvent
from ..errors import AppError
from ..games.live_game import LiveGame
from ..games.series import deciding_side
from .settings import TournamentSettings

__all__ = [
    "advance",
    "check_startable",
    "entered_outcome",
    "event_of",
    "find_table",
    "outcome_json",
    "outcome_of_game",
    "stored_settings",
    "table_of",
]

REGISTRATION, RUNNING, FINISHED = "registration", "running", "finished"


def stored_settings(stored: StoredTournament) -> TournamentSettings:
    return TournamentSettings(**stored.settings)


def table_of(stored: StoredTable) -> EventTable:
    stage: Stage = stored.stage  # type: ignore[assignment]  # written from Stage only
    return EventTable(stage, stored.round, stored.number, stored.game, stored.first, stored.second)


def outcome_json(outcome: TableOutcome) -> dict[str, Any]:
    return {
        "winner": outcome.winner,
        "loser": outcome.loser,
        "winner_points": outcome.winner_points,
        "loser_points": outcome.loser_points,
        "forfeit": outcome.forfeit,
    }


def _outcome(data: dict[str, Any]) -> TableOutcome:
    return TableOutcome(
        data["winner"], data["loser"], data["winner_points"], data["loser_points"], bool(data["forfeit"])
    )


def playing(stored: StoredTournament) -> list[int]:
    """The entrants who play (checked in), by number in entry order."""
    return [e.number for e in stored.entrants if e.checked_in]


def event_of(stored: StoredTournament) -> TournamentEvent:
    """The event of a started tournament: its checked-in entrants, format, tables and withdrawals."""
    field_ = playing(stored)
    played = tuple((table_of(t), None if t.outcome is None else _outcome(t.outcome)) for t in stored.tables)
    withdrawn = frozenset(e.number for e in stored.entrants if e.withdrawn and e.checked_in)
    return TournamentEvent(tuple(field_), stored_settings(stored).event_format(), played, withdrawn)


def advance(tx: TournamentTx) -> list[StoredTable]:
    """Store the tables the tournament's event asks for now (each decided at once if a side has
    withdrawn), and mark it finished once it is; the new tables still to be played."""
    stored = tx.tournament
    if stored.stage != RUNNING:
        return []
    event = event_of(stored)
    due = event.due()
    tables = [
        StoredTable(
            t.stage,
            t.round,
            t.number,
            t.game,
            int(t.first),
            None if t.second is None else int(t.second),
            outcome=None if outcome is None else outcome_json(outcome),
        )
        for t, outcome in due
    ]
    tx.add_tables(tables)
    event = event.with_tables([table for table, _ in due])  # at once: each copy checks the field
    for table, outcome in due:
        if outcome is not None:
            event = event.decide(table, outcome)
    if event.finished:
        tx.set_stage(FINISHED)
    return [t for t in tables if t.outcome is None and t.second is not None]


def check_startable(stored: StoredTournament) -> None:
    """Refuse a start (writing nothing) that cannot be made.

    Raises:
        AppError: ``tournament.too_few`` (fewer than two checked in),
            ``tournament.too_many_games`` (more qualifying games than the field can play: a
            rotation twice round its circle, a Swiss round by standing as many rounds as the
            circle has, never a third meeting).
    """
    field_ = [e for e in stored.entrants if e.checked_in]
    if len(field_) < 2:
        raise AppError(
            "tournament.too_few", "a tournament needs two entrants checked in", entrants=len(field_)
        )
    settings = stored_settings(stored)
    # A rotation goes round the circle twice at most; a Swiss round by standing, once.
    most = rotation_capacity(len(field_)) * (2 if settings.pairing == "rotation" else 1)
    if settings.games > most:
        raise AppError(
            "tournament.too_many_games",
            f"{len(field_)} entrants play at most {most} games paired by {settings.pairing}",
            games=settings.games,
            most=most,
        )


def outcome_of_game(live: LiveGame, table: StoredTable, rules: Rules) -> TableOutcome | None:
    """The outcome of a finished online game at ``table`` (side 0 its first entrant, side 1 its
    second: seats 0 and 1, or in a team event 0 and 2, 1 and 3): played when its winner by
    score is the side that won it; a forfeit when the side that reached the target was absent
    at the end (a computer had its seat, or its turn clock
    ran out: it loses, as in a rating and a match), both absent a double forfeit (in the
    playoffs, the winner by score goes through).  None while the game is not over."""
    if not live.over or table.second is None:
        return None
    sides = (table.first, table.second)
    result = live.game.state.result
    absent = live.absent_seats()
    if result is None:  # ended without a result: the side whose players all stayed wins by forfeit
        gone = {rules.side_of(seat) for seat in absent}
        stayed = [side for side in (0, 1) if side not in gone]
        if len(stayed) != 1:
            return TableOutcome(None, table.first, forfeit=True)
        return TableOutcome(sides[stayed[0]], sides[1 - stayed[0]], forfeit=True)
    side = deciding_side(rules, result, absent)
    scores = [int(s) for s in result.scores]
    if side is None and table.stage == "playoffs":
        side = int(result.winner)
    if side is None:
        return TableOutcome(None, table.first, forfeit=True)
    if side == int(result.winner):  # reached the target first: the game's score counts
        return TableOutcome(sides[side], sides[1 - side], scores[side], scores[1 - side])
    return TableOutcome(sides[side], sides[1 - side], forfeit=True)


def find_table(stored: StoredTournament, data: dict[str, Any]) -> StoredTable:
    key = (data.get("stage"), data.get("round"), data.get("number"), data.get("game", 1))
    table = next((t for t in stored.tables if t.key == key), None)
    if table is None or table.second is None:
        raise AppError("tournament.no_table", "no such table to play at", table=list(key))
    return table


def entered_outcome(table: StoredTable, data: dict[str, Any], target: int) -> TableOutcome:
    """The outcome an entry says: its winner (one of the table's two), and the loser's score
    below the target (the winner's is the target), or a forfeit."""
    winner = data.get("winner")
    if winner not in (table.first, table.second) or isinstance(winner, bool):
        raise AppError("invalid", "winner is the number of one of the table's two entrants", field="winner")
    loser = table.second if winner == table.first else table.first
    assert loser is not None
    if data.get("forfeit") is True:
        return TableOutcome(winner, loser, forfeit=True)
    points = data.get("loser_points")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points < target:
        raise AppError(
            "invalid",
            f"loser_points is the loser's score, 0 to {target - 1}",
            field="loser_points",
            high=target - 1,
        )
    return TableOutcome(winner, loser, target, points)
