"""A tournament as the API shows it (``GET /api/tournaments/{id}``, docs/api.md, "Tournaments"):
its settings and entrants, every table with its outcome, game points and spread, the standings of
the qualifying (and the consolation), the bracket, the champions, and ``you``: the reader's entry.

Everything is computed here from the stored rows by the rules (:mod:`cribbage.tournament`): a
page shows it and computes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...storage import StoredAccount
from ...storage.tournaments import StoredEntrant, StoredTable, StoredTournament
from ...tournament import GameScore, QualifyingScoring, QualifyingStanding
from ...tournament.event import CONSOLATION, PLAYOFFS, QUALIFYING, TournamentEvent
from .entries import entry_of
from .progress import REGISTRATION, event_of, stored_settings

__all__ = ["standings_rows", "tournament_json", "with_watch_codes"]


def _standing(s: QualifyingStanding) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "entrant": s.entrant,
        "game_points": s.game_points,
        "won": s.won,
        "played": s.played,
        "byes": s.byes,
        "skunks": s.skunks,
        "spread": s.spread,
        "forfeits": s.forfeits,
    }


def _entrant(e: StoredEntrant) -> dict[str, Any]:
    """An entrant as shown: ``name`` the player's, or the team's (``"Ann & Bob"``); a team's
    ``players`` and whether its partner has accepted (``partner_pending``)."""
    players = [e.name] if e.partner_name is None else [e.name, e.partner_name]
    return {
        "number": e.number,
        "name": " & ".join(players),
        "players": players,
        "partner_pending": e.partner_name is not None and not e.partner_accepted,
        "checked_in": e.checked_in,
        "withdrawn": e.withdrawn,
        "guest": e.account_id is None,
    }


def _to_accept(entry: StoredEntrant, account_id: str) -> bool:
    """Whether ``account_id`` is ``entry``'s partner, yet to accept."""
    return entry.partner_id == account_id and not entry.partner_accepted


def _points(table: StoredTable, scoring: QualifyingScoring) -> tuple[list[int], list[int]] | None:
    """Each side's game points and spread at a decided table (None: undecided, or a bye)."""
    outcome = table.outcome
    if outcome is None or table.second is None:
        return None
    sides = [table.first, table.second]
    winner = outcome["winner"]
    if outcome["forfeit"]:
        credit = scoring.forfeit
        return ([credit.game_points if side == winner else 0 for side in sides], [0, 0])
    score = GameScore(winner, outcome["loser"], outcome["winner_points"], outcome["loser_points"])
    points = scoring.game_points(score)
    return (
        [points if side == winner else 0 for side in sides],
        [score.margin if side == winner else -score.margin for side in sides],
    )


def _table(table: StoredTable, scoring: QualifyingScoring, director: bool) -> dict[str, Any]:
    entries = table.entries
    disputed = len(entries) == 2 and len({_entry_key(e) for e in entries.values()}) == 2
    shown: dict[str, Any] = {
        "stage": table.stage,
        "round": table.round,
        "number": table.number,
        "game": table.game,
        "first": table.first,
        "second": table.second,
        "game_id": table.game_id,
        "outcome": table.outcome,
        "entered": sorted(int(n) for n in entries),
        "disputed": disputed and table.outcome is None,
    }
    points = _points(table, scoring)
    if points is not None:
        shown["game_points"], shown["spread"] = points
    if director:
        shown["entries"] = entries
    return shown


def _entry_key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry.get("winner"), entry.get("loser_points"))


def _bracket(event: TournamentEvent) -> list[list[dict[str, Any]]] | None:
    bracket = event.bracket()
    if bracket is None:
        return None
    rounds = []
    for number in range(1, bracket.rounds + 1):
        rounds.append(
            [
                {
                    "round": m.round,
                    "index": m.index,
                    "top": m.top,
                    "bottom": m.bottom,
                    "best_of": m.best_of,
                    "winner": m.winner,
                    "wins": _wins(event, m.round, m.index + 1, (m.top, m.bottom)),
                }
                for m in bracket.matches(number)
            ]
        )
    return rounds


def _wins(event: TournamentEvent, round_number: int, number: int, sides: tuple[Any, Any]) -> list[int]:
    """The games each side of a playoff match has won so far."""
    won = [0, 0]
    for table, outcome in event.stage_tables(PLAYOFFS):
        if table.round == round_number and table.number == number and outcome is not None:
            for i, side in enumerate(sides):
                won[i] += side is not None and outcome.winner == side
    return won


def tournament_json(stored: StoredTournament, account: StoredAccount | None) -> dict[str, Any]:
    """The tournament's answer for ``account`` (None: a visitor)."""
    settings = stored_settings(stored)
    director = account is not None and account.id == stored.director_id
    mine = None if account is None else entry_of(stored, account.id)
    scoring = settings.event_format().scoring
    shown: dict[str, Any] = {
        "id": stored.id,
        "name": stored.name,
        "stage": stored.stage,
        "settings": settings.to_json(),
        "created": stored.created.isoformat(),
        "teams": settings.teams,
        "entrants": [_entrant(e) for e in stored.entrants],
        "tables": [_table(t, scoring, director) for t in stored.tables],
        "you": {
            "director": director,
            "entrant": None if mine is None else mine.number,
            "accept": mine is not None and account is not None and _to_accept(mine, account.id),
        },
        "standings": [],
        "consolation": [],
        "bracket": None,
        "rounds": {},
        "champion": None,
        "consolation_champion": None,
    }
    if stored.stage == REGISTRATION:
        return shown
    event = event_of(stored)
    shown["standings"] = [_standing(s) for s in event.standings(QUALIFYING)]
    if event.rounds_made(CONSOLATION):
        shown["consolation"] = [_standing(s) for s in event.standings(CONSOLATION)]
    shown["bracket"] = _bracket(event)
    shown["rounds"] = {stage: event.rounds_made(stage) for stage in (QUALIFYING, PLAYOFFS, CONSOLATION)}
    shown["champion"] = event.champion(PLAYOFFS)
    shown["consolation_champion"] = event.champion(CONSOLATION)
    return shown


def with_watch_codes(shown: dict[str, Any], code_of: Callable[[str], str]) -> dict[str, Any]:
    """The tournament ``shown`` with each online game in progress's public watch code (``watch``,
    ``code_of(game_id)``: the game's code, stored at its first asking): a spectator's link
    ``/watch/{watch}``.  A decided table, a club's and a bye have none (``watch`` null)."""
    for table in shown["tables"]:
        game_id = table.get("game_id")
        table["watch"] = code_of(game_id) if game_id and table["outcome"] is None else None
    return shown


STANDINGS_COLUMNS = (
    "rank", "number", "name", "game_points", "won", "skunks", "spread", "played", "byes", "forfeits",
)  # fmt: skip
"""The columns of the standings' CSV (``GET /api/tournaments/{id}/standings.csv``), in order."""


def standings_rows(shown: dict[str, Any]) -> list[list[Any]]:
    """The qualifying's standings of a tournament ``shown`` as rows of :data:`STANDINGS_COLUMNS`,
    the header first (each entrant by its number and name)."""
    names = {e["number"]: e["name"] for e in shown["entrants"]}
    rows: list[list[Any]] = [list(STANDINGS_COLUMNS)]
    for s in shown["standings"]:
        line = {**s, "number": s["entrant"], "name": names.get(s["entrant"], "")}
        rows.append([line[column] for column in STANDINGS_COLUMNS])
    return rows
