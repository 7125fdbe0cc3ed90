"""Turn clocks: when the turn of the person to act runs out, and a computer moving for them.

A table with a ``clock`` gives the person to act that many seconds, from when their page shows
the decision (:meth:`~cribbage.app.games.round.Round.seen`) or :data:`READING_SECONDS` after the turn
began; a seat whose clock ran out is away, and its next turns run :func:`away_seconds`.  Any
process may notice a clock that ran out (:meth:`Clocks.expire_due`): the stored version decides
which one moves, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from ...engine.errors import CribbageError
from ...players import new_seed
from ..errors import AppError
from .live_game import LiveGame
from .options import CORRESPONDENCE
from .rating_policy import RatingPolicy
from .repository import Repository

__all__ = [
    "AWAY_CORRESPONDENCE_SECONDS",
    "AWAY_SECONDS",
    "CLOCK_LEVEL",
    "READING_SECONDS",
    "Clocks",
    "away_seconds",
]

CLOCK_LEVEL: Final = "normal"
"""The computer that moves for a seat whose turn clock ran out."""

READING_SECONDS: Final = 60
"""How long a turn's clock waits for the seat's page to show the decision (:meth:`Round.seen`:
it may first replay what happened, or hold the person at the show): the clock runs from the
page's word, or from this long after the turn began, whichever comes first."""

AWAY_SECONDS: Final = 10
"""The clock of an away seat's turn (its clock ran out before, and it has not acted since),
running from the turn's start: the table does not wait long for someone who is not there."""

AWAY_CORRESPONDENCE_SECONDS: Final = 3600
"""The same in a correspondence game (a clock of :data:`~.options.CORRESPONDENCE` or more): an
hour a turn, so that a night away does not hand the rest of the game to the computer in
seconds, and a seat long gone still does not hold the table for days a move."""


def away_seconds(clock: int) -> int:
    """The clock of an away seat's turn at a table whose clock is ``clock`` seconds: never more
    than the clock itself.

    >>> away_seconds(30), away_seconds(5), away_seconds(86400)
    (10, 5, 3600)
    """
    away = AWAY_CORRESPONDENCE_SECONDS if clock >= CORRESPONDENCE else AWAY_SECONDS
    return min(clock, away)


class Clocks:
    """The turn clocks of the games of ``repository``, read with ``now`` (seconds since the
    epoch; tests give their own)."""

    def __init__(self, repository: Repository, policy: RatingPolicy | None = None) -> None:
        self.repository = repository
        self.policy = policy or RatingPolicy(repository.storage)
        """Told before a computer moves for a person (an abort before everyone acted)."""
        self.storage = repository.storage
        self.players = repository.players
        self.now: Callable[[], float] = time.time

    def next_deadline(self, live: LiveGame, away: frozenset[int] | None = None) -> float | None:
        """When the turn of the person to act now runs out, at the latest: the clock plus
        :data:`READING_SECONDS` (:meth:`Round.seen` starts it earlier), or :func:`away_seconds` for a
        seat ``away`` (by default the game's).  None without a clock, while the table waits
        for people, or once the game is over."""
        clock = live.options.clock
        seat = live.table.waiting_for
        if clock is None or live.over or live.waiting or seat is None:
            return None
        if seat in (live.away if away is None else away):
            return self.now() + away_seconds(clock)
        return self.now() + READING_SECONDS + clock

    def deadline_after(self, live: LiveGame, seat: int, turn: int | None, before: int) -> float | None:
        """The deadline once ``seat`` acted at version ``before``, when ``turn`` was the seat to
        act: the stored one when another person acted early (a discard, a muggins call or pass)
        and ``turn`` is still to act (its page may have started it, in any process), else the
        next turn's (:meth:`next_deadline`)."""
        if seat != turn and live.table.waiting_for == turn:
            row = self.storage.clocks.load(live.id)
            if row is not None and row.version == before and row.deadline is not None:
                return row.deadline
        return self.next_deadline(live, live.away - {seat})

    def start(self, live: LiveGame) -> None:
        """Start the turn of the person to act (every seat taken, a computer seated)."""
        if live.options.clock is None:
            return
        live.deadline = self.next_deadline(live)
        self.storage.clocks.set(live.id, live.version, live.deadline, live.away)

    def expire_due(self) -> list[str]:
        """Move for every person whose turn clock ran out (any game, whichever process notices
        first); returns the games moved on.  A game another process moves first is left alone."""
        moved = []
        for game_id in self.storage.clocks.due(self.now()):
            try:
                if self.expire(game_id):
                    moved.append(game_id)
            except AppError:
                continue
        return moved

    def expire(self, game_id: str) -> bool:
        """If the turn clock of the person to act ran out, a computer (:data:`CLOCK_LEVEL`) makes
        their move, recorded as theirs, and marks their seat away; the computers then play on,
        and the next turn's clock runs.  Under the game's lock and the stored version's check,
        so it happens once whichever processes notice it.  True if it moved the game."""
        with self.repository.held(game_id) as live:
            row = self.storage.clocks.load(game_id)
            if row is None or row.deadline is None or row.deadline > self.now():
                return False
            seat = live.table.waiting_for
            if row.version != live.version or seat is None or live.waiting:
                self.storage.clocks.void(game_id, row.deadline)  # nobody's turn runs: stop asking
                return False
            state = live.game.state
            self.policy.absent(live)
            action = state.forced_action()
            if action is None:
                player = self.players(CLOCK_LEVEL, new_seed())
                action = player.choose(state.view(seat))
            before = live.version
            try:
                live.act(action)
                clock = (self.next_deadline(live, row.away | {seat}), row.away | {seat})
            except BaseException as exc:
                self.repository.retire(live)
                if isinstance(exc, CribbageError):
                    raise RuntimeError(f"the computer moving for seat {seat} failed: {exc}") from exc
                raise
            return self.repository.save(live, before, clock)  # False: another process was first
