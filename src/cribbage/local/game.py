"""One game of a person (seat 0) against the computer, played where the person is:
:class:`LocalGame` and its options, :class:`LocalOptions`.  A refusal is a
:class:`~cribbage.table.person.Refusal` (or the engine's own error) with the code and values the
server gives the same refusal (``docs/api.md``: ``invalid`` with its ``field``, ``forbidden``,
``stale``, ``not_over``, ``no_hint``, ``bad_record``, the engine's ``illegal.*``).

Its ``STATE`` is the server's for a game against the computer, key for key: the game's own
fields made by the same code (:mod:`cribbage.table.shown`, the table's tally and recent steps,
the engine's templates), and the fields only a server has at their values for such a game (no
clock, match, rating, invitation or rematch; nobody connected).  tests/app/test_local_game.py
plays seeded games both ways and compares every ``STATE``.

>>> game = LocalGame.new("local-1", LocalOptions(variant="short", seed=3))
>>> state = game.state()
>>> state["options"]["target"], state["seat"], state["actions"][0]["type"]
(61, 0, 'discard')
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, fields
from typing import Any, Final

from ..engine.errors import CribbageError
from ..engine.record import Game
from ..engine.rules import Rules
from ..engine.templates import templates
from ..players import make_player
from ..table.person import Refusal, advice_for, check_version, person_action, seat_names
from ..table.seating import DEALERS, HUMAN, LEVELS, GameOptions, seat_seed
from ..table.shown import merge_parts, own_view, public_view
from ..table.table import PERSON, Table, seats

__all__ = ["SERVER_ONLY", "LocalGame", "LocalOptions"]

SERVER_ONLY: Final[dict[str, Any]] = {
    "public": False,
    "clock": None,
    "takeover": None,
    "rated": False,
    "tournament": None,
}
"""The options only a server's game has, at their values for a game against the computer: the
``STATE``'s ``options`` shows them as the server's does."""


@dataclass(frozen=True, slots=True)
class LocalOptions(GameOptions):
    """A game against the computer's options: the game's (:class:`GameOptions`: level,
    variant, target, counting, muggins, skunks, seed), who deals first and the seats' names."""

    skunk: str | None = "marked"
    """As the browser game at the server: skunks marked, not counted as extra games."""
    dealer: str = "cut"
    names: tuple[str, ...] = ("You",)

    @classmethod
    def from_json(cls, data: object) -> LocalOptions:
        """Options from their JSON (``POST /api/games``'s ``options`` for a game against the
        computer); unknown keys, and values of the wrong kind, refused.

        Raises:
            Refusal: ``invalid`` naming the ``field``.
        """
        if not isinstance(data, dict):
            raise Refusal("invalid", "the options are a JSON object", field="options")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise Refusal("invalid", f"unknown option {unknown[0]!r}", field="options")
        values = dict(data)
        for name in ("manual", "muggins", "muggins_play"):
            if not isinstance(values.get(name, False), bool):
                raise Refusal("invalid", f"{name} is true or false", field=name)
        for name in ("target", "seed"):
            value = values.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise Refusal("invalid", f"{name} is a whole number or null", field=name)
        for name in ("level", "variant", "dealer"):
            if name in values and not isinstance(values[name], str):
                raise Refusal("invalid", f"{name} is a text", field=name)
        names = values.get("names", ["You"])
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) and len(n) <= 64 for n in names):
            raise Refusal("invalid", "names are texts of at most 64 characters", field="names")
        values["names"] = tuple(names)
        return cls(**values)

    def checked_rules(self) -> Rules:
        """The rules of the game, every option checked as the server checks it.

        Raises:
            Refusal: ``invalid`` naming the ``field``, or the engine's refusal.
        """
        if self.level not in LEVELS:
            known = ", ".join(LEVELS)
            raise Refusal("invalid", f"unknown level {self.level!r} (known: {known})", field="level")
        if self.dealer not in DEALERS:
            known = ", ".join(DEALERS)
            raise Refusal("invalid", f"dealer must be one of {known}, not {self.dealer!r}", field="dealer")
        if (self.muggins or self.muggins_play) and not self.manual:
            raise Refusal("invalid", "muggins needs manual counting: set manual to true", field="muggins")
        try:
            rules = self.rules()
        except CribbageError as exc:
            raise Refusal(exc.code, str(exc), **{**exc.values, "field": "options"}) from None
        if len(self.names) > rules.players:
            raise Refusal("invalid", f"{len(self.names)} names for {rules.players} players", field="names")
        return rules

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The options as the page sees them, as the server shows a game against the computer."""
        data = asdict(self)
        data.update(SERVER_ONLY)
        data["target"] = rules.target
        data["names"] = list(seat_names(self.names, rules.players))
        return data


class LocalGame:
    """A person at seat 0 against computers: the table, and what the person is shown."""

    def __init__(self, game_id: str, options: LocalOptions, table: Table) -> None:
        self.id = game_id
        self.options = options
        self.table = table
        if table.game.seed is None:  # an unseeded game draws its cards from the system
            table.game.rng = secrets.SystemRandom()
        self._options_json = options.to_json(table.rules)

    @classmethod
    def new(cls, game_id: str, options: LocalOptions) -> LocalGame:
        """A new game, played up to the person's first decision.

        Raises:
            Refusal: a bad option (``invalid``, with its ``field``).
        """
        rules = options.checked_rules()
        seeds = [None if options.seed is None else seat_seed(options.seed, s) for s in range(rules.players)]
        game = Game(
            rules,
            seed=options.seed,
            dealer=DEALERS[options.dealer],
            names=seat_names(options.names, rules.players),
            seats=seats([PERSON if s == HUMAN else options.level for s in range(rules.players)], seeds),
        )
        live = cls(game_id, options, Table(game, _players(game)))
        live.table.run()
        return live

    @classmethod
    def restore(cls, game_id: str, options: LocalOptions, record: object) -> LocalGame:
        """A kept game, rebuilt from its record (replayed once, its computers with it).

        Raises:
            Refusal: a bad option, or a record that is not this package's (``bad_record``,
                naming what is wrong: a corrupt or tampered saved game, or another version's).
        """
        options.checked_rules()
        try:
            game, entries, result = Game.parse(record)
            if not game.seats or game.seats[HUMAN] is not PERSON:
                raise CribbageError("the record has no person at seat 0")
            table = Table(game, _players(game))
            table.replay(entries, result)
        except CribbageError as exc:
            raise Refusal("bad_record", f"the saved game cannot be read: {exc}", reason=str(exc)) from None
        return cls(game_id, options, table)

    @property
    def version(self) -> int:
        """The number of actions in the record: it changes with every step of the game."""
        return len(self.table.game.actions)

    @property
    def over(self) -> bool:
        return self.table.over

    def state(self) -> dict[str, Any]:
        """The person's ``STATE``: the public part and the person's own, merged."""
        table = self.table
        view = table.state.view(HUMAN)
        result = table.state.result
        names = list(table.game.names)
        options = dict(self._options_json)
        options.update(names=names, seed=None)
        level = self.options.level
        public = {
            "id": self.id,
            "version": self.version,
            "names": names,
            "options": options,
            "view": public_view(view),
            "score_history": table.tally.history_json(),
            "breakdown": table.tally.by_side(),
            "over": table.state.is_terminal,
            "result": None if result is None else result.to_json(),
            "seats": [
                {"seat": s, "kind": "human" if s == HUMAN else "computer"}
                | ({} if s == HUMAN else {"level": level})
                | {"name": name, "taken": True}
                for s, name in enumerate(names)
            ],
            "people": False,
            "waiting_for": [],
            "connected": [],
            "arrival": None,
            "match": None,
            "rating": None,
            "rating_change": None,
            "turn_clock": None,
            "away": [],
        }
        legal = view.legal if table.waiting_for is not None else ()
        private = {
            "seat": HUMAN,
            "view": own_view(view),
            "options": {"seed": self.options.seed},
            "actions": templates(legal),
            "events": [step.to_json() for step in table.recent_for(HUMAN)],
            "invites": [],
            "rematch": None,
        }
        return merge_parts(public, private)

    def act(self, data: object) -> dict[str, Any]:
        """Apply the person's action (its JSON, with an optional ``version``), then the
        computers' until the person must act again: the new ``STATE``.

        Raises:
            Refusal: ``invalid`` (malformed), ``forbidden`` (another seat), ``stale`` (an
                old ``version``), the engine's ``illegal.*``; nothing changed.
        """
        if not isinstance(data, dict):
            raise Refusal("invalid", "an action is a JSON object", field="action")
        body = dict(data)
        version = body.pop("version", None)
        action = person_action(body, HUMAN)
        check_version(self.table.state, self.version, version, action)
        self.table.act(action)
        return self.state()

    def hint(self) -> dict[str, Any]:
        """The computer's advice for the person's discard or play, best first (as
        ``GET /api/games/{id}/hint``).

        Raises:
            Refusal: ``no_hint`` when it is not the person's discard or play.
        """
        if self.table.waiting_for is None:
            raise Refusal("no_hint", "no hint now: it is not your turn")
        return advice_for(self.table.state.view(HUMAN))

    def record(self) -> dict[str, Any]:
        """The game's record (the engine's JSON: ``cribbage replay`` and ``review`` read it).

        Raises:
            Refusal: ``not_over`` before the end.
        """
        if not self.over:
            raise Refusal("not_over", "the record is available once the game is over")
        return self.table.game.to_json()

    def saved(self) -> dict[str, Any]:
        """What the browser keeps of the game, finished or not: its id, options and record."""
        return {"id": self.id, "options": asdict(self.options), "record": self.table.game.to_json()}


def _players(game: Game) -> list[Any]:
    """The computer players the record names, each with its seed (None: the person's seat)."""
    return [None if seat is None else make_player(seat.player, seat.seed) for seat in game.seats]
