"""What a game is created with: its options, who sits where, display names and codes.

:class:`Options` and :class:`SeatSpec` are read from the JSON of ``POST /api/games``
(``docs/api.md``) and checked here; a bad value is an :class:`~cribbage.app.errors.AppError`
``invalid`` naming the ``field``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from ...engine.errors import CribbageError
from ...engine.rules import Rules
from ...table.person import seat_names
from ...table.seating import DEALERS, HUMAN, LEVELS, GameOptions, computer_name
from ..errors import AppError, engine_error
from ..people.names import check_name
from .series import Series

__all__ = [
    "CLOCKS",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CORRESPONDENCE",
    "DEALERS",
    "HUMAN",
    "LEVELS",
    "SEAT_KINDS",
    "WATCH_LENGTH",
    "Options",
    "SeatSpec",
    "computer_name",
    "display_name",
    "given_names",
    "hash_token",
    "new_code",
    "seat_layout",
]


SEAT_KINDS: Final = ("human", "computer")
"""What sits in a seat: a person, or a computer player of a level."""


CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The characters of invitation codes: digits and capitals, without 0/O, 1/I/L (easy to read aloud)."""

CODE_LENGTH: Final = 6
"""31⁶ ≈ 887 million codes: with join attempts rate-limited, guessing an open one is hopeless."""

WATCH_LENGTH: Final = 10
"""A watch code's length: 31¹⁰ codes, so none can be guessed even without a rate limit."""

CLOCKS: Final = (10, 7 * 24 * 3600)
"""The turn clock's bounds, in seconds: 10 seconds to 7 days (a correspondence game's move)."""

CORRESPONDENCE: Final = 3600
"""A clock of this many seconds or more is a correspondence game's: people come back to it
between other things (its away seats wait longer, its players may be notified by Web Push)."""

ARRIVAL_SECONDS: Final = 60
"""How long the people of a rematch (a match's next game too) are given to arrive from the game
before, from the moment it was made: until then the seat of one who is offline does not go to a
computer (``seat_arriving``), nor does a page offer it."""


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options(GameOptions):
    """The options a game is created with (see ``docs/api.md``): the game's, who deals first,
    and the seats' names; checked by :meth:`rules`."""

    skunk: str | None = "marked"
    """The browser game marks skunks without counting them as extra games, unless asked."""
    dealer: str = "cut"
    names: tuple[str, ...] = ("You",)
    public: bool = False
    """The game is listed in the public lobby while a person's seat is open."""
    clock: int | None = None
    """Seconds per turn (None: no clock): when the person to act lets them run out, a computer
    moves for them and their seat is marked away until they act again."""
    takeover: str | None = None
    """The level of the computer that takes the seat of a person who leaves (None: the seat is
    open again, its invitation valid, and the table waits)."""
    rated: bool = False
    """The game asks to be rated: a signed-in creator's table, accepted by every joiner, or a
    game of Play now (:mod:`~cribbage.app.games.rating_policy` settles whether it is)."""
    match: Series | None = None
    """The match of "Play now" the game is part of (None: a game on its own); never given by a
    creator (``POST /api/games`` has no such field), shown as the ``STATE``'s ``match``."""
    tournament: str | None = None
    """The tournament whose table the game is (None: none); never given by a creator, made by
    :mod:`cribbage.app.tournaments` (its end decides the table)."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        """Options from their JSON form (unknown keys are refused)."""
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise AppError("invalid", f"unknown option {unknown[0]!r}", field="options")
        values = dict(data)
        if "names" in values:
            values["names"] = tuple(values["names"])
        if values.get("match") is not None:
            values["match"] = Series.from_json(values["match"])
        return cls(**values)

    def rules(self) -> Rules:
        """The rules of the game, or :class:`AppError` ``invalid`` naming the bad option."""
        if self.level not in LEVELS:
            raise AppError(
                "invalid", f"unknown level {self.level!r} (known: {', '.join(LEVELS)})", field="level"
            )
        if self.dealer not in DEALERS:
            raise AppError(
                "invalid", f"dealer must be one of {', '.join(DEALERS)}, not {self.dealer!r}", field="dealer"
            )
        if (self.muggins or self.muggins_play) and not self.manual:
            raise AppError("invalid", "muggins needs manual counting: set manual to true", field="muggins")
        try:
            rules = GameOptions.rules(self)
        except CribbageError as exc:
            raise engine_error(exc, field="options") from None
        if len(self.names) > rules.players:
            raise AppError("invalid", f"{len(self.names)} names for {rules.players} players", field="names")
        if self.takeover is not None and self.takeover not in LEVELS:
            raise AppError(
                "invalid",
                f"takeover must be one of {', '.join(LEVELS)} or null, not {self.takeover!r}",
                field="takeover",
            )
        if not isinstance(self.rated, bool):
            raise AppError("invalid", f"rated must be true or false, not {self.rated!r}", field="rated")
        if self.clock is not None and not CLOCKS[0] <= self.clock <= CLOCKS[1]:
            raise AppError(
                "invalid", f"clock must be {CLOCKS[0]} to {CLOCKS[1]} seconds, or null", field="clock"
            )
        return rules

    def seat_names(self, players: int) -> tuple[str, ...]:
        """The given names, then ``You`` and each computer's name (:func:`computer_name`)."""
        return seat_names(self.names, players)

    def table_names(self, kinds: Sequence[str]) -> tuple[str, ...]:
        """The names of a table's seats at its creation: the given ones (checked already:
        :func:`given_names`; seat 0's is the creator's), else ``Player N`` for a person (N: the
        seat counted from 1) and :func:`computer_name` for a computer.  Whoever takes an open
        seat gives their own."""
        given = [name.strip() for name in self.names]
        return tuple(
            given[i]
            if i < len(given) and given[i]
            else f"Player {i + 1}"
            if kind == "human"
            else computer_name(i, len(kinds))
            for i, kind in enumerate(kinds)
        )

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The options as the page sees them: the target resolved, the names filled in."""
        data = asdict(self)
        del data["match"]  # the STATE's own "match", with the score after the game
        data["target"] = rules.target
        data["names"] = list(self.seat_names(rules.players))
        return data


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """What the creator of a game asks for one seat: a person, or a computer of a level (the
    game's ``level`` when not given)."""

    kind: str
    level: str | None = None

    @classmethod
    def from_json(cls, data: object) -> SeatSpec:
        """A seat from ``{"kind": "human"}`` or ``{"kind": "computer", "level": ...}``."""
        if not isinstance(data, dict):
            raise AppError("invalid", "a seat must be an object with a kind", field="seats")
        unknown = sorted(set(data) - {"kind", "level"})
        if unknown:
            raise AppError("invalid", f"unknown seat field {unknown[0]!r}", field="seats")
        kind, level = data.get("kind"), data.get("level")
        if kind not in SEAT_KINDS:
            raise AppError(
                "invalid",
                f"a seat's kind must be one of {', '.join(SEAT_KINDS)}, not {kind!r}",
                field="seats",
            )
        if level is not None and not isinstance(level, str):
            raise AppError(
                "invalid", f"a seat's level must be one of {', '.join(LEVELS)}, not {level!r}", field="seats"
            )
        return cls(kind, level)


def seat_layout(options: Options, players: int, given: Sequence[SeatSpec] | None) -> list[SeatSpec]:
    """Who sits where, checked: the given seats (each computer's level filled in), or by default
    the creator against computers of the game's level."""
    if given is None:
        return [SeatSpec("human"), *(SeatSpec("computer", options.level) for _ in range(1, players))]
    if len(given) != players:
        raise AppError("invalid", f"{options.variant} has {players} seats, not {len(given)}", field="seats")
    if given[0].kind != "human":
        raise AppError("invalid", "seat 0 is the creator's: its kind must be human", field="seats")
    specs = []
    for spec in given:
        if spec.kind == "human":
            if spec.level is not None:
                raise AppError("invalid", "a person's seat has no level", field="seats")
            specs.append(spec)
            continue
        level = spec.level or options.level
        if level not in LEVELS:
            raise AppError("invalid", f"unknown level {level!r} (known: {', '.join(LEVELS)})", field="level")
        specs.append(SeatSpec("computer", level))
    if options.seed is not None and sum(spec.kind == "human" for spec in specs) > 1:
        raise AppError(
            "invalid",
            "a seeded game deals cards anyone can predict: no seed with several people",
            field="seed",
        )
    return specs


def hash_token(token: str) -> str:
    """The stored form of a seat's token (a token is 256 random bits: one SHA-256 is enough)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code(length: int = CODE_LENGTH) -> str:
    """A new invitation (or watch) code: ``length`` characters of :data:`CODE_ALPHABET`, from
    the operating system's generator.

    >>> code = new_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def display_name(text: object) -> str:
    """A person's name at a table (the creator's, one given to a seat, or one joining), checked
    by the one rule of every name (:func:`~cribbage.app.people.names.check_name`, an account's too):
    a refusal is ``bad_name`` with its ``reason``.

    >>> display_name("  Aiko ")
    'Aiko'
    >>> display_name("a\u202ebc")
    Traceback (most recent call last):
    ...
    cribbage.app.errors.AppError: a name holds letters, digits, '_', '-', '.' and single spaces
    """
    return check_name(text, code="bad_name", field="name")


def given_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names given to a new game's seats, each checked (:func:`display_name`); a blank one
    stays blank (the seat's default name)."""
    return tuple(display_name(name) if name.strip() else "" for name in names)
