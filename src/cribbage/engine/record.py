"""Recorded games and matches: a game with its random generator and its JSON record.

A :class:`Game` is a :class:`~cribbage.engine.state.GameState` plus the list of every action applied to
it (chance steps included) and the seeded generator that draws the chance steps.  Its record is
a JSON object::

    {"format": "cribbage-record", "version": 1, "rules": {...}, "seed": 7, "dealer": null,
     "names": ["you", "computer"], "seats": [null, {"player": "strong", "seed": 12}],
     "actions": [{"type": "cut", ...}, ...]}

``seats`` (optional) says who sat in each seat: ``null`` for a person, else a computer player's
name and seed, from which :class:`~cribbage.table.table.Table` rebuilds it.

:func:`Game.from_json` replays a record exactly.  When the record has a seed, every chance step
is drawn again from it and must match the recorded one, so a replayed game continues with the
same generator state.  A malformed or illegal record raises :class:`~cribbage.engine.errors.RecordError`
naming the first bad entry, and nothing is returned half-loaded.

A :class:`Match` is a series of games between the same sides, with game points (skunks) and the
next game's first dealer chosen by the rules (the loser deals, by default).
"""

from __future__ import annotations

import contextlib
import json
import random
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .actions import CHANCE_ACTIONS, Action, action_from_json
from .dealing import next_dealer
from .errors import CribbageError, RecordError
from .events import Event, GameResult
from .rules import Rules
from .state import GameState

FORMAT: Final = "cribbage-record"
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who played a seat: a computer player's name and seed (a person's seat is ``None``)."""

    player: str
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "seed": self.seed}

    @classmethod
    def from_json(cls, data: object) -> SeatRecord | None:
        if data is None:
            return None
        if not isinstance(data, dict):
            raise RecordError(f"a seat must be null or an object, not {data!r}")
        player, seed = data.get("player"), data.get("seed")
        if not isinstance(player, str) or not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"a seat needs a player name and an integer seed, not {data!r}")
        return cls(player, seed)


Observer = Callable[[Action, list[Event]], None]
"""Called with each action replayed from a record and the events it caused."""


class Game:
    """A game in progress with its record: apply actions, draw chance steps, save and load.

    Args:
        rules: the rules of the game.
        seed: seeds the generator of the chance steps.  With ``None`` the generator is seeded
            from the system and the record holds only the chance outcomes.
        dealer: the first dealer, or ``None`` to cut for deal.
        names: optional names of the seats, kept in the record.
        seats: optionally, who plays each seat (see :class:`SeatRecord`), kept in the record.
        explain: whether events list every combination (see :attr:`GameState.explain`).
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        dealer: int | None = None,
        names: Sequence[str] = (),
        seats: Sequence[SeatRecord | None] = (),
        *,
        explain: bool = True,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.names = tuple(names)
        self.seats = tuple(seats)
        self.rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(2**63))
        self.state = GameState(rules, dealer=dealer, explain=explain)
        self.actions: list[Action] = []

    def apply(self, action: Action) -> list[Event]:
        """Apply a player's (or a chance) action and record it; see :meth:`GameState.apply`."""
        events = self.state.apply(action)
        self.actions.append(action)
        return events

    def deal_chance(self) -> list[Event]:
        """Draw and apply every pending chance step (the cut, the deal, the starter)."""
        events: list[Event] = []
        while self.state.is_chance:
            events += self.apply(self.state.sample_chance(self.rng))
        return events

    @property
    def result(self) -> GameResult | None:
        return self.state.result

    def to_json(self, *, actions: bool = True) -> dict[str, Any]:
        """The JSON record of the game so far (without ``actions``: all of it but the actions,
        for a writer that keeps their JSON from one save to the next)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "dealer": self.first_dealer,
            "names": list(self.names),
            **({"seats": [None if s is None else s.to_json() for s in self.seats]} if self.seats else {}),
        }
        if actions:
            data["actions"] = [a.to_json() for a in self.actions]
        if self.state.result is not None:
            data["result"] = self.state.result.to_json()
        return data

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (to a temporary file first, so a crash loses nothing)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
            tmp.replace(target)
        except BaseException:  # nothing half-written is left behind
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | Path) -> Game:
        """Read and replay a record file; raises :class:`RecordError` for any problem."""
        return cls.from_json(cls.read(path))

    @staticmethod
    def read(path: str | Path) -> object:
        """The JSON of a record file, not yet checked; raises :class:`RecordError` if unreadable."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"{path} is not a record: not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise RecordError(f"{path} is not a record: its JSON is nested too deeply") from None

    @classmethod
    def from_json(cls, data: object, observer: Observer | None = None) -> Game:
        """Replay a record (see the module documentation).

        ``observer``, if given, is called with every action replayed and its events (a table
        rebuilds what its players learned that way, in the same single replay).
        """
        game, entries, result = cls.parse(data)
        game.replay(entries, observer, result)
        return game

    @classmethod
    def parse(cls, data: object) -> tuple[Game, list[Any], object]:
        """The game a record starts (nothing applied yet), its actions unparsed, and its result.

        Raises :class:`RecordError` for a bad header; :meth:`replay` then checks the actions.
        """
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise RecordError(f"not a {FORMAT} version {VERSION} record")
        try:
            rules = Rules.from_json(data.get("rules"))
        except CribbageError as exc:
            raise RecordError(f"bad rules: {exc}") from None
        seed, dealer, names = data.get("seed"), data.get("dealer"), data.get("names", [])
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"bad seed {seed!r}")
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < rules.players):
            raise RecordError(f"bad first dealer {dealer!r}")
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise RecordError("names must be a list of strings")
        seats = data.get("seats", [])
        if not isinstance(seats, list) or (seats and len(seats) != rules.players):
            raise RecordError(f"seats must be a list of {rules.players} seats")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError("the record has no list of actions")
        game = cls(
            rules, seed=seed, dealer=dealer, names=names, seats=[SeatRecord.from_json(s) for s in seats]
        )
        return game, actions, data.get("result")

    def replay(
        self, entries: Sequence[Any], observer: Observer | None = None, expected: object = None
    ) -> None:
        """Apply a record's actions (their JSON), checking each chance step against the seed and,
        at the end, the game's result against ``expected`` (a result's JSON), if given.

        Raises:
            RecordError: naming the first bad entry.
        """
        for index, entry in enumerate(entries):
            try:
                action = action_from_json(entry)
                if self.seed is not None and isinstance(action, CHANCE_ACTIONS) and self.state.is_chance:
                    drawn = self.state.sample_chance(self.rng)
                    if drawn != action:
                        raise RecordError(f"the {entry.get('type')} does not match the record's seed")
                events = self.apply(action)
            except CribbageError as exc:
                raise RecordError(f"action {index + 1} {_entry_text(entry)}: {exc}") from None
            except RecursionError:  # a value nested deeper than Python can walk (not from a file)
                raise RecordError(f"action {index + 1} is nested too deeply") from None
            if observer is not None:
                observer(action, events)
        if expected is not None:
            got = self.state.result
            if got is None or got.to_json() != expected:
                raise RecordError("the recorded result does not match the replayed game")


def _entry_text(entry: object) -> str:
    """A record's entry for an error message: its JSON, cut short (its repr, cut short, if it
    cannot be written as JSON: too deep, circular, not JSON data)."""
    try:
        return json.dumps(entry)[:120]
    except (ValueError, TypeError, RecursionError):
        return reprlib.repr(entry)


@dataclass
class Match:
    """A series of games between the same sides, scored in game points.

    The first game cuts for deal (unless ``dealer`` is given); each next game's first dealer
    follows ``rules.next_dealer`` (:func:`~cribbage.engine.dealing.next_dealer`): the loser of the last
    game (ACC), a new cut, or alternating.
    """

    rules: Rules
    seed: int = 0
    dealer: int | None = None
    games: list[Game] = field(default_factory=list)
    seats: tuple[SeatRecord | None, ...] = ()
    """Who plays each seat, recorded in every game."""

    def new_game(self) -> Game:
        """Start the next game (the previous one must be over)."""
        if self.games and self.games[-1].result is None:
            raise RecordError("the current game is not over")
        dealer = next_dealer(self.games[-1].state) if self.games else self.dealer
        game = Game(self.rules, seed=self.seed + len(self.games), dealer=dealer, seats=self.seats)
        self.games.append(game)
        return game

    @property
    def game_points(self) -> list[int]:
        """Game points won by each side so far."""
        points = [0] * self.rules.sides
        for game in self.games:
            if game.result is not None:
                points[game.result.winner] += game.result.game_points
        return points
