"""The Python side of the bench worker's messages: a game against the computer, driven by the
package's own table, with every decision and hint timed.

The same module runs in the browser (imported by ``worker.js`` under Pyodide) and natively
(imported by ``bench_pyodide.py``), so both run the same games with the same seeds: the same
decisions, timed on both sides.  Every answer is a JSON text (what the worker posts back).

A game is the one the web app starts against the computer: the person at seat 0, the computer
of the level at seat 1, driven by :class:`~cribbage.table.table.Table`.  The person's actions
are chosen by a stand-in computer of the same level (:func:`decide`), so the bench can play
games to the end; the decisions timed are those of the table's computer (seat 1), as the server
makes them.  Nothing here is a rule: the engine decides what is legal, the players what to do.
"""

from __future__ import annotations

import json
import time
from typing import Any

from cribbage.ai.advice import hint as advice
from cribbage.engine.actions import Action, Discard
from cribbage.engine.record import Game, SeatRecord
from cribbage.engine.rules import get_rules
from cribbage.engine.view import SeatView
from cribbage.players import Player, make_player
from cribbage.table.table import PERSON, Step, Table

__all__ = ["decide", "hint", "start", "warm"]

PERSON_SEAT = 0
COMPUTER_SEAT = 1


class Timed:
    """A computer player whose decisions are timed (seconds of wall clock, by kind)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.times: list[tuple[str, float]] = []

    def choose(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.player.choose(view)
        kind = "discard" if isinstance(action, Discard) else "play"
        self.times.append((kind, time.perf_counter() - start))
        return action

    def observe(self, view: SeatView) -> None:
        observe = getattr(self.player, "observe", None)
        if callable(observe):
            observe(view)

    def trim(self) -> None:
        trim = getattr(self.player, "trim", None)
        if callable(trim):
            trim()

    def taken(self) -> list[tuple[str, float]]:
        """The decisions timed since the last call."""
        times, self.times = self.times, []
        return times


class _Current:
    """The game in progress (one at a time, as in the page), its computer and the stand-in."""

    table: Table | None = None
    computer: Timed | None = None
    stand_in: Player | None = None


_current = _Current()


def _answer(steps: list[Step], **fields: Any) -> str:
    """The JSON answer: the fields, the steps' JSON text length (the worker's serialisation of
    what the page would be sent is part of the cost) and the computer's timed decisions."""
    table, computer = _current.table, _current.computer
    assert table is not None and computer is not None
    sent = json.dumps([step.to_json() for step in steps])
    return json.dumps(
        {
            **fields,
            "steps": len(steps),
            "bytes": len(sent),
            "over": table.over,
            "decisions": computer.taken(),
        }
    )


def start(level: str, seed: int, variant: str = "standard") -> str:
    """A new game against the computer ``level``; the table runs until the person must act."""
    began = time.perf_counter()
    game = Game(
        get_rules(variant),
        seed=seed,
        names=("You", "Computer"),
        seats=(PERSON, SeatRecord(level, seed + 1)),
    )
    computer = Timed(make_player(level, seed + 1))
    table = Table(game, [PERSON, computer])
    _current.table, _current.computer = table, computer
    _current.stand_in = make_player(level, seed + 2)
    steps = table.run()
    return _answer(steps, seconds=time.perf_counter() - began)


def _view() -> SeatView:
    table = _current.table
    if table is None or table.waiting_for != PERSON_SEAT:
        raise ValueError("no game waits for the person")
    return table.game.state.view(PERSON_SEAT)


def decide() -> str:
    """The stand-in decides the person's action (a forced one is taken as it is); the table
    applies it and runs on, the computer answering, until the person must act again or the game
    ends."""
    table, stand_in = _current.table, _current.stand_in
    assert table is not None and stand_in is not None
    began = time.perf_counter()
    view = _view()
    action = table.game.state.forced_action()
    if action is None:
        action = stand_in.choose(view)
    chosen = time.perf_counter() - began
    trim = getattr(stand_in, "trim", None)
    if callable(trim):
        trim()
    steps = table.act(action)
    return _answer(steps, seconds=time.perf_counter() - began, stand_in=chosen)


def hint() -> str:
    """The hint for the person's decision, as the web app gives it (:func:`cribbage.ai.advice.hint`)."""
    began = time.perf_counter()
    given = advice(_view())
    body = json.dumps(given.to_json())
    return json.dumps(
        {
            "kind": given.kind,
            "options": len(given.options),
            "bytes": len(body),
            "seconds": time.perf_counter() - began,
        }
    )


def warm() -> str:
    """A first hint in a fresh interpreter: loads the AI's data tables (they load on first use),
    what the first decision of a visit pays."""
    began = time.perf_counter()
    start("normal", seed=0)
    given = json.loads(hint())
    _current.table = _current.computer = _current.stand_in = None
    return json.dumps({"seconds": time.perf_counter() - began, "hint": given})
