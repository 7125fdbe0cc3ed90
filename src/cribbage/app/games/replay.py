"""A game's table rebuilt from its record: the computer players its seats name, and the replay.

The computer players are made by a factory (:data:`Players`): by default each level's own
player; tests give one that plays every computer seat fast (:func:`one_player`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.record import Game
from ...players import Player, make_player
from ...storage import StoredSeat
from ...table.seating import HUMAN
from ...table.table import Table
from .options import Options, computer_name

__all__ = ["Players", "first_seats", "one_player", "replayed", "seat_players"]

Players = Callable[[str, int | None], Player]
"""The player factory: the computer player a record names (a level, or another of
:data:`~cribbage.players.PLAYERS`) with its seed.  By default :func:`~cribbage.players.make_player`,
the level's own player; tests give their own (:func:`one_player`)."""


def one_player(name: str) -> Players:
    """A factory whose player ``name`` plays every computer seat, whatever its level (tests: a
    fast player).  The records still name the levels."""

    def make(_level: str, seed: int | None) -> Player:
        return make_player(name, seed)

    return make


def seat_players(game: Game, players: Players) -> list[Player | None]:
    """The players of a game's seats as its record names them (None: a person's)."""
    return [None if seat is None else players(seat.player, seat.seed) for seat in game.seats]


def first_seats(token_hash: str, table: Table, level: str) -> list[StoredSeat]:
    """The seats of a game stored before seats were: the person at seat 0, computers elsewhere."""
    names = table.game.names
    return [
        StoredSeat(
            seat=s,
            kind="human" if s == HUMAN else "computer",
            level=None if s == HUMAN else level,
            name=names[s] if s < len(names) else computer_name(s, table.rules.players),
            token_hash=token_hash if s == HUMAN else None,
            code=None,
            taken=True,
        )
        for s in range(table.rules.players)
    ]


def replayed(record: dict[str, Any], options: Options, players: Players = make_player) -> Table:
    """The table of a stored record, replayed once.  A game stored before records kept their
    seats is seated from its options (its computers' seeds from its seed, when it has one)."""
    game, entries, result = Game.parse(record)
    if not game.seats:
        game.seats = options.seats(game.rules.players)
    table = Table(game, seat_players(game, players))
    table.replay(entries, result)
    return table
