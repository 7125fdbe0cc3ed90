"""Game sessions for the browser: people and computers at one table, server-side.

A :class:`Session` is one game at a :class:`~cribbage.table.table.Table` (the recorded game and
who sits where), its seats (:class:`~cribbage.web.storage.StoredSeat`: a person or a computer,
the display name, the hash of the seat's token, the invitation code) and what each seat is
shown (:meth:`Session.to_json`, the ``STATE`` of ``docs/api.md``).  The table plays the
computers until a person must act or the game is over.  A seat only ever receives its own
:class:`~cribbage.engine.game.SeatView`, its legal actions (as templates) and the public events since its own
previous action, each with the scores after it.

By default a game is one person (seat 0) against computers; its creator may instead choose a
person or a computer for every seat (:class:`SeatSpec`).  Each person's seat other than the
creator's gets an invitation code; someone who gives it (:meth:`GameService.join`) takes the seat
and its own token.  Until every person's seat is taken, the game waits: no action is accepted.

:class:`GameService` holds the sessions: it creates them, checks the seat's token, serialises
the actions of each game (a lock per game, and an optional version check), saves every action
before answering, and keeps recently used games in memory within a memory budget (the
finished ones leave first; :func:`estimate_bytes`).  Every request first compares the
cached game's version with the stored one, so several server processes on one database never
serve an older state than the stored one; a game that is not cached, or is out of date, is
rebuilt from its record (:meth:`~cribbage.table.table.Table.from_json`, one replay).  An action
changes the cached game under its lock and is saved before the lock is released; if the save is
refused (another process moved first) the changed copy is marked unsaved and dropped, so no
request ever serves or acts on a state that was not stored.  It knows nothing of HTTP: problems
are :class:`ApiError` values carrying the status the server answers with.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Final

from ..engine.errors import CribbageError, RecordError
from ..engine.game import Action, Muggins, Pass, Phase, SeatView, action_from_json
from ..engine.record import Game, SeatRecord
from ..engine.rules import Rules
from ..engine.templates import templates
from ..players import PLAYERS, make_player, new_seed
from ..table.seating import HUMAN, LEVELS, GameOptions, seat_seed
from ..table.table import PERSON, Table, seats
from .storage import Conflict, Pruned, Storage, StoredGame, StoredSeat

__all__ = [
    "CACHE_BYTES",
    "CODE_ALPHABET",
    "DEALERS",
    "HUMAN",
    "LEVELS",
    "SEAT_KINDS",
    "ApiError",
    "GameService",
    "Options",
    "SeatSpec",
    "Session",
    "computer_name",
    "display_name",
    "estimate_bytes",
    "new_code",
]

DEALERS: Final[dict[str, int | None]] = {"cut": None, "you": HUMAN, "computer": 1}
"""The ``dealer`` option: cut for deal, the person deals first, or the computer to the left does."""

_HUMAN_ACTIONS: Final = ("discard", "play", "count", "muggins", "pass")

SEAT_KINDS: Final = ("human", "computer")
"""What sits in a seat: a person, or a computer player of a level."""


def computer_name(seat: int, players: int) -> str:
    """The one name of a computer's seat, at its creation as after a takeover: ``Computer N``,
    N the seat counted from 1 as in ``Seat N``, but plain ``Computer`` for seat 1 of two players.
    The page words the same rule in the reader's language (``seatLabel`` in i18n.js)."""
    return "Computer" if players == 2 and seat == 1 else f"Computer {seat + 1}"


CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The characters of invitation codes: digits and capitals, without 0/O, 1/I/L (easy to read aloud)."""

CODE_LENGTH: Final = 6
"""31⁶ ≈ 887 million codes: with join attempts rate-limited, guessing an open one is hopeless."""

WATCH_LENGTH: Final = 10
"""A watch code's length: 31¹⁰ codes, so none can be guessed even without a rate limit."""

MAX_NAME: Final = 30
"""The longest display name, in characters."""

CLOCKS: Final = (10, 3600)
"""The turn clock's bounds, in seconds."""

CLOCK_LEVEL: Final = "normal"
"""The computer that moves for a seat whose turn clock ran out."""

READING_SECONDS: Final = 60
"""How long a turn's clock waits for the seat's page to show the decision (:meth:`GameService.seen`:
it may first replay what happened, or hold the person at the show): the clock runs from the
page's word, or from this long after the turn began, whichever comes first."""

AWAY_SECONDS: Final = 10
"""The clock of an away seat's turn (its clock ran out before, and it has not acted since),
running from the turn's start: the table does not wait long for someone who is not there."""


CACHE_BYTES: Final = 256 * 1024 * 1024
"""The default memory budget of the cached games (``cribbage serve --cache-mb 256``)."""

LOW_WATER: Final = 0.95
"""A cache over its budget is shrunk to this share of it."""

SESSION_BYTES: Final = 10_000
ACTION_BYTES: Final = 150
STRONG_BYTES: Final = 2_000
STRONG_HAND_BYTES: Final = 2_500
"""The calibration of :func:`estimate_bytes`: a session, each action of its record, each strong
seat and each hand such a seat learned from; about 1.3 times what ``tools/measure_sessions.py``
measures with ``tracemalloc`` (the allocator's overhead), see ``docs/deploy.md``, "Memory"."""


def estimate_bytes(session: Session) -> int:
    """The memory a cached session holds, estimated from its record's length and its seats'
    computer levels (a strong player keeps what it learned of each hand).  Cheap: no walk over
    the objects.  Calibrated with ``tracemalloc`` on played games (``docs/deploy.md``)."""
    game = session.table.game
    actions = len(game.actions)
    strong = sum(1 for seat in session.seats if seat.kind == "computer" and seat.level == "strong")
    hands = session.table.tally.hands
    return SESSION_BYTES + ACTION_BYTES * actions + strong * (STRONG_BYTES + STRONG_HAND_BYTES * hands)


class ApiError(Exception):
    """A request the service refuses, with the HTTP status to answer and a message naming why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        """Options from their JSON form (unknown keys are refused)."""
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ApiError(422, f"unknown option {unknown[0]!r}")
        values = dict(data)
        if "names" in values:
            values["names"] = tuple(values["names"])
        return cls(**values)

    def rules(self) -> Rules:
        """The rules of the game, or :class:`ApiError` 422 naming the bad option."""
        if self.level not in LEVELS:
            raise ApiError(422, f"unknown level {self.level!r} (known: {', '.join(LEVELS)})")
        if self.dealer not in DEALERS:
            raise ApiError(422, f"dealer must be one of {', '.join(DEALERS)}, not {self.dealer!r}")
        if (self.muggins or self.muggins_play) and not self.manual:
            raise ApiError(422, "muggins needs manual counting: set manual to true")
        try:
            rules = GameOptions.rules(self)
        except CribbageError as exc:
            raise ApiError(422, str(exc)) from None
        if len(self.names) > rules.players:
            raise ApiError(422, f"{len(self.names)} names for {rules.players} players")
        if self.takeover is not None and self.takeover not in LEVELS:
            raise ApiError(422, f"takeover must be one of {', '.join(LEVELS)} or null, not {self.takeover!r}")
        if self.clock is not None and not CLOCKS[0] <= self.clock <= CLOCKS[1]:
            raise ApiError(422, f"clock must be {CLOCKS[0]} to {CLOCKS[1]} seconds, or null")
        return rules

    def seat_names(self, players: int) -> tuple[str, ...]:
        """The given names, then ``You`` and each computer's name (:func:`computer_name`)."""
        defaults = ["You"] + [computer_name(i, players) for i in range(1, players)]
        given = [name.strip() for name in self.names]
        return tuple(given[i] if i < len(given) and given[i] else defaults[i] for i in range(players))

    def table_names(self, kinds: Sequence[str]) -> tuple[str, ...]:
        """The names of a table's seats at its creation: the given ones, checked as display names
        (seat 0's is the creator's), else ``Player N`` for a person (N: the seat counted from 1)
        and :func:`computer_name` for a computer.  Whoever takes an open seat gives their own."""
        given = list(self.names)
        return tuple(
            display_name(given[i])
            if i < len(given) and given[i].strip()
            else f"Player {i + 1}"
            if kind == "human"
            else computer_name(i, len(kinds))
            for i, kind in enumerate(kinds)
        )

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The options as the page sees them: the target resolved, the names filled in."""
        data = asdict(self)
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
            raise ApiError(422, "a seat must be an object with a kind")
        unknown = sorted(set(data) - {"kind", "level"})
        if unknown:
            raise ApiError(422, f"unknown seat field {unknown[0]!r}")
        kind, level = data.get("kind"), data.get("level")
        if kind not in SEAT_KINDS:
            raise ApiError(422, f"a seat's kind must be one of {', '.join(SEAT_KINDS)}, not {kind!r}")
        if level is not None and not isinstance(level, str):
            raise ApiError(422, f"a seat's level must be one of {', '.join(LEVELS)}, not {level!r}")
        return cls(kind, level)


# --------------------------------------------------------------------------- a session


class Session:
    """One game in progress (or over): its table, its seats and what each seat is shown."""

    def __init__(self, game_id: str, options: Options, table: Table, seated: Sequence[StoredSeat]) -> None:
        self.id = game_id
        self.options = options
        self.table = self._seat(table)
        self.seats: tuple[StoredSeat, ...] = ()
        self.lock = threading.Lock()
        self.generation = 0
        """The seating generation this copy holds (see :meth:`Storage.position`)."""
        self.unsaved = False
        """This copy may hold what was never stored: an action whose save was refused (another
        process moved first) or that failed changed it.  Whoever still holds it rebuilds it
        from the stored record before reading it (:meth:`GameService._latest`)."""
        self.deadline: float | None = None
        """When the turn clock of the person to act runs out (seconds since the epoch), or None."""
        self.away: frozenset[int] = frozenset()
        """The seats a computer moved for when their clock ran out, until their person acts."""
        self.rematch: str | None = None
        """The game its people went on to once it was over ("play again"), once there is one."""
        self.rematch_watch: str | None = None
        """The watch code of :attr:`rematch`, once a spectator asked for this game after it
        (:meth:`GameService.watch`): where the spectators go next."""
        self.set_seats(seated)

    @staticmethod
    def _seat(table: Table) -> Table:
        if table.game.seed is None:
            # An unseeded game draws its cards from the operating system: nothing to predict.
            table.game.rng = secrets.SystemRandom()
        return table

    def set_seats(self, seated: Sequence[StoredSeat]) -> None:
        """Take the seats as stored (a person may have taken one): the record's names follow."""
        self.seats = tuple(seated)
        self.table.game.names = tuple(seat.name for seat in self.seats)

    def rebuild(self, stored: StoredGame, *, catch_up: bool = True) -> None:
        """Bring the game to the stored one (another process moved it on).

        With ``catch_up`` (the same players sit at the table), when the stored record continues
        this game, only the actions it added are applied, as if played here (the players see the
        hands that ended): one action or a few, where replaying the whole record would cost the
        whole game's.  Otherwise, or if applying them fails, the game is replayed from its record.
        """
        if not (catch_up and self._caught_up(stored.record)):
            self.table = self._seat(_table(stored.record, self.options))
        self.table.game.names = tuple(seat.name for seat in self.seats)

    def _caught_up(self, record: dict[str, Any]) -> bool:
        """Apply the actions ``record`` has past this game's, if it continues this game."""
        done = self.game.actions
        actions = record.get("actions")
        if (
            self.table.forfeit is not None
            or not isinstance(actions, list)
            or len(actions) < len(done)
            or record.get("seed") != self.game.seed
            or (done and actions[len(done) - 1] != done[-1].to_json())  # records only grow
        ):
            return False
        try:
            self.table.replay(actions[len(done) :], record.get("result"))
        except CribbageError:
            return False  # the table is replayed whole instead
        return True

    @classmethod
    def new(
        cls,
        game_id: str,
        token_hash: str,
        options: Options,
        layout: Sequence[SeatSpec] | None = None,
        computer: str | None = None,
    ) -> Session:
        """A new game, played up to the first person's decision.

        ``layout`` says who sits where (seat 0 is the creator, a person); by default the
        creator against computers of the game's level.  Each other person's seat gets an
        invitation code.  ``computer`` plays every computer seat instead of its level (testing).
        """
        rules = options.rules()
        specs = _layout(options, rules.players, layout)
        for spec in specs:
            if spec.kind == "computer" and (computer or spec.level) not in PLAYERS:
                raise ApiError(503, f"the {computer or spec.level!r} computer player is not available")
        if layout is None:
            names = options.seat_names(rules.players)
        else:
            names = options.table_names([spec.kind for spec in specs])
        seeds = [None if options.seed is None else seat_seed(options.seed, s) for s in range(rules.players)]
        players = [PERSON if spec.kind == "human" else computer or spec.level for spec in specs]
        game = Game(
            rules,
            seed=options.seed,
            dealer=DEALERS[options.dealer],
            names=names,
            seats=seats(players, seeds),
        )
        seated = [
            StoredSeat(
                seat=s,
                kind=spec.kind,
                level=spec.level,
                name=names[s],
                token_hash=token_hash if s == HUMAN else None,
                code=new_code() if spec.kind == "human" and s != HUMAN else None,
                taken=spec.kind == "computer" or s == HUMAN,
            )
            for s, spec in enumerate(specs)
        ]
        session = cls(game_id, options, Table(game), seated)
        session.table.run()
        return session

    @classmethod
    def restore(cls, stored: StoredGame, seated: Sequence[StoredSeat]) -> Session:
        """A stored game, rebuilt from its record (replayed once, its computers with it).  A
        game stored without seat rows is one person at seat 0 against computers."""
        options = Options.from_json(stored.options)
        table = _table(stored.record, options)
        if not seated:
            seated = _one_person(stored.token_hash, table, options.level)
        return cls(stored.id, options, table, seated)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def version(self) -> int:
        """The number of actions in the record: it changes with every step of the game."""
        return len(self.table.game.actions)

    @property
    def over(self) -> bool:
        return self.table.over

    @property
    def waiting(self) -> list[int]:
        """The people's seats nobody has taken yet: the game waits for them."""
        return [seat.seat for seat in self.seats if not seat.taken]

    def seat_of(self, token_hash: str) -> int | None:
        """The seat whose token has this hash, or None."""
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, token_hash):
                found = seat.seat
        return found

    def invites(self) -> list[dict[str, Any]]:
        """The open seats' invitations: ``{"seat", "code", "url"}``."""
        return [
            {"seat": seat.seat, "code": seat.code, "url": f"/join/{seat.code}"}
            for seat in self.seats
            if not seat.taken and seat.code is not None
        ]

    def act(self, action: Action) -> None:
        """Apply a person's action, then the computers' until a person must act again.

        Raises:
            CribbageError: the action is not the waiting person's, or the engine refuses it;
                nothing changed.
        """
        self.table.act(action)  # it drops the players' memos, which the memory estimate leaves out

    def to_json(self, seat: int = HUMAN, connected: Collection[int] = ()) -> dict[str, Any]:
        """The ``STATE`` that ``seat`` may see; ``connected`` are the people's seats with a live
        socket open now (:attr:`GameService.presence`)."""
        table = self.table
        state = table.state
        view = state.view(seat)
        result = state.result
        waiting = self.waiting
        # The seat to act's; while a count awaits the muggins decision also every other opponent's
        # entitled to it, who may call first, and in the discard every seat's still to discard
        # (the view says which seats may act now).
        legal = view.legal if not waiting and table.waiting_for is not None else ()
        names = [s.name for s in self.seats]
        options = self.options.to_json(table.rules)
        options["names"] = names
        return {
            "id": self.id,
            "version": self.version,
            "seat": seat,
            "names": names,
            "options": options,
            "view": view.to_json(),
            "actions": templates(legal),
            "events": [step.to_json() for step in table.recent_for(seat)],
            "score_history": table.tally.history_json(),
            "breakdown": table.tally.by_side(),
            "over": state.is_terminal,
            "result": None if result is None else result.to_json(),
            "seats": seats_json(self.seats),
            "waiting_for": waiting,
            # The creator's; every person's while the creator's seat is open (its creator left).
            "invites": self.invites() if seat == HUMAN or not self.seats[HUMAN].taken else [],
            "connected": sorted(s.seat for s in self.seats if s.kind == "human" and s.seat in connected),
            **self.clock_json(),
            "rematch": self.rematch,
        }

    def clock_json(self) -> dict[str, Any]:
        """``turn_clock`` (whose turn runs out when) and ``away``, as every seat sees them."""
        seat = self.table.waiting_for
        running = self.deadline is not None and seat is not None and not self.waiting
        return {
            "turn_clock": {"seat": seat, "deadline": self.deadline} if running else None,
            "away": sorted(self.away),
        }

    def watch_json(self, connected: Collection[int] = ()) -> dict[str, Any]:
        """The ``STATE`` a spectator may see: only what every seat sees.  The view is seat 0's
        without its hand, kept cards and discards (its ``seat`` is null); ``actions`` and
        ``invites`` are empty, the options hold no seed, the events are the public ones since a
        person last acted.  ``rematch`` is null (the new game's id is the seats'); once the
        people played again, ``rematch_watch`` is the new game's watch code instead."""
        table = self.table
        state = table.state
        view = state.view(HUMAN).to_json()
        view.update(seat=None, hand=[], kept=[], discards=[])
        result = state.result
        names = [s.name for s in self.seats]
        options = self.options.to_json(table.rules)
        options.update(names=names, seed=None)
        return {
            "id": self.id,
            "version": self.version,
            "seat": None,
            "spectator": True,
            "names": names,
            "options": options,
            "view": view,
            "actions": [],
            "events": [step.to_json() for step in table.recent],
            "score_history": table.tally.history_json(),
            "breakdown": table.tally.by_side(),
            "over": state.is_terminal,
            "result": None if result is None else result.to_json(),
            "seats": seats_json(self.seats),
            "waiting_for": self.waiting,
            "invites": [],
            "connected": sorted(s.seat for s in self.seats if s.kind == "human" and s.seat in connected),
            **self.clock_json(),
            "rematch": None,
            "rematch_watch": self.rematch_watch,
        }


def seats_json(seated: Sequence[StoredSeat], *, codes: bool = False) -> list[dict[str, Any]]:
    """The seats as every seat and the lobby see them: ``{"seat", "kind", "level"?, "name"?,
    "taken"}`` (a computer's level; the name of a taken seat; with ``codes``, an open seat's code)."""
    shown = []
    for seat in seated:
        data: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind}
        if seat.kind == "computer":
            data["level"] = seat.level
        if seat.taken:
            data["name"] = seat.name
        data["taken"] = seat.taken
        if codes and not seat.taken and seat.code is not None:
            data["code"] = seat.code
        shown.append(data)
    return shown


def _table_facts(options: Options, rules: Rules, shown: list[dict[str, Any]]) -> dict[str, Any]:
    """A table as the lobby and an invitation show it: its variant, target, counting and seats."""
    return {
        "variant": rules.name,
        "players": rules.players,
        "target": rules.target,
        "options": {
            "manual": rules.manual_count,
            "muggins": rules.muggins,
            "muggins_play": rules.muggins_play,
            "dealer": options.dealer,
            "skunk": rules.skunk,
            "clock": options.clock,
            "takeover": options.takeover,
        },
        "seats": shown,
    }


def _layout(options: Options, players: int, layout: Sequence[SeatSpec] | None) -> list[SeatSpec]:
    """Who sits where, checked: the given seats (each computer's level filled in), or by default
    the creator against computers of the game's level."""
    if layout is None:
        return [SeatSpec("human"), *(SeatSpec("computer", options.level) for _ in range(1, players))]
    if len(layout) != players:
        raise ApiError(422, f"{options.variant} has {players} seats, not {len(layout)}")
    if layout[0].kind != "human":
        raise ApiError(422, "seat 0 is the creator's: its kind must be human")
    specs = []
    for spec in layout:
        if spec.kind == "human":
            if spec.level is not None:
                raise ApiError(422, "a person's seat has no level")
            specs.append(spec)
            continue
        level = spec.level or options.level
        if level not in LEVELS:
            raise ApiError(422, f"unknown level {level!r} (known: {', '.join(LEVELS)})")
        specs.append(SeatSpec("computer", level))
    if options.seed is not None and sum(spec.kind == "human" for spec in specs) > 1:
        raise ApiError(422, "a seeded game deals cards anyone can predict: no seed with several people")
    return specs


def _one_person(token_hash: str, table: Table, level: str) -> list[StoredSeat]:
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


def _table(record: dict[str, Any], options: Options) -> Table:
    """The table of a stored record, replayed once.  A game stored before records kept their
    seats is seated from its options (its computers' seeds from its seed, when it has one)."""
    game, entries, result = Game.parse(record)
    if not game.seats:
        game.seats = options.seats(game.rules.players)
    table = Table(game)
    table.replay(entries, result)
    return table


# --------------------------------------------------------------------------- the service


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
    """A person's display name, checked: trimmed, 1 to :data:`MAX_NAME` characters, no control
    or format characters (the zero-width joiner of emoji excepted), no line breaks.

    >>> display_name("  Aiko ")
    'Aiko'
    >>> display_name("a\u202ebc")
    Traceback (most recent call last):
    ...
    cribbage.web.service.ApiError: a name may not hold control characters (U+202E)
    """
    if not isinstance(text, str):
        raise ApiError(422, "a name must be text")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise ApiError(422, "a name must not be empty")
    if len(name) > MAX_NAME:
        raise ApiError(422, f"a name is at most {MAX_NAME} characters, not {len(name)}")
    for char in name:
        category = unicodedata.category(char)
        if (category[0] == "C" and char != "\u200d") or category in ("Zl", "Zp"):
            raise ApiError(422, f"a name may not hold control characters (U+{ord(char):04X})")
    return name


def parse_action(data: dict[str, Any], seat: int = HUMAN) -> Action:
    """The action of ``seat`` from its JSON (without ``version``): :class:`ApiError` 422 if
    malformed, 403 if it names another seat."""
    kind = data.get("type")
    if kind not in _HUMAN_ACTIONS:
        raise ApiError(422, f"unknown action type {kind!r} (known: {', '.join(_HUMAN_ACTIONS)})")
    given = data.get("seat", seat)
    if type(given) is not int:
        raise ApiError(422, f"seat must be an integer, not {given!r}")
    if given != seat:
        raise ApiError(403, f"your token plays seat {seat}, not seat {given}")
    try:
        return action_from_json({**data, "seat": seat})
    except CribbageError as exc:
        raise ApiError(422, str(exc)) from None


def _nobody(_game_id: str) -> Collection[int]:
    return ()


class _Stale(Exception):
    """An action tried on a process's copy of a game needs the stored game read afresh."""


class GameService:
    """Creates, loads, plays and saves games; thread-safe.

    Args:
        storage: where games are saved.
        computer: a player that plays every computer seat instead of the level asked for
            (testing); by default the level's.
        cache_size: at most this many games in memory (None: no bound but the memory's).
        cache_bytes: the memory the cached games may take, as :func:`estimate_bytes` counts
            it; the least recently used beyond it are dropped, the finished games first (they
            are saved already, and replayed when asked for again).
    """

    def __init__(
        self,
        storage: Storage,
        computer: str | None = None,
        cache_size: int | None = None,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        if cache_bytes < 0 or (cache_size is not None and cache_size < 0):
            raise ValueError(
                f"the cache's bounds cannot be negative: {cache_bytes} bytes, {cache_size} games"
            )
        self.storage = storage
        self.computer = computer
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, Session] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self.cached_bytes = 0
        """The estimated memory of the cached sessions (:func:`estimate_bytes`)."""
        self._cache_lock = threading.Lock()
        self.now: Callable[[], float] = time.time
        """The time (seconds since the epoch) the turn clocks are read with; tests set their own."""
        self.presence: Callable[[str], Collection[int]] = _nobody
        """The seats of a game with a live socket open now, in any server process: the live
        layer (:class:`~cribbage.web.live.Live`) sets it; by default nobody is connected."""

    # ------------------------------------------------------------------ the cache

    def _remember(self, session: Session) -> Session:
        """Cache a session (or return the one another thread cached first)."""
        with self._cache_lock:
            cached = self._cache.setdefault(session.id, session)
            self._cache.move_to_end(session.id)
            self._resize_locked(cached)
            return cached

    def _resize(self, session: Session) -> None:
        """Count a cached session's size again (it grew by an action, or was rebuilt)."""
        with self._cache_lock:
            if self._cache.get(session.id) is session:
                self._resize_locked(session)

    def _resize_locked(self, session: Session) -> None:
        size = estimate_bytes(session)
        self.cached_bytes += size - self._sizes.get(session.id, 0)
        self._sizes[session.id] = size
        self._shrink_locked()

    def _shrink_locked(self) -> None:
        """Drop the least recently used sessions while the cache is over its budget (down to
        :data:`LOW_WATER` of it, so that a full cache does not scan on every request), the
        finished games first; never a game whose lock is held (one being played)."""
        over_count = self.cache_size is not None and len(self._cache) > self.cache_size
        if self.cached_bytes <= self.cache_bytes and not over_count:
            return
        goal = int(self.cache_bytes * LOW_WATER) if self.cached_bytes > self.cache_bytes else self.cache_bytes
        most = len(self._cache) if self.cache_size is None else self.cache_size
        for finished_only in (True, False):
            for game_id, session in list(self._cache.items()):
                if self.cached_bytes <= goal and len(self._cache) <= most:
                    return
                if session.lock.locked() or (finished_only and not session.over):
                    continue
                self._drop_locked(game_id)

    def _drop_locked(self, game_id: str) -> None:
        del self._cache[game_id]
        self.cached_bytes -= self._sizes.pop(game_id, 0)

    def _forget(self, session: Session) -> None:
        """Drop a session that a refused or failed change may have left unlike the stored game
        (its lock held): marked :attr:`~Session.unsaved`, so that a request already holding it
        reads the stored game rather than this copy, and never acts on it."""
        session.unsaved = True
        with self._cache_lock:
            if self._cache.get(session.id) is session:
                self._drop_locked(session.id)

    def cached(self) -> list[str]:
        """The ids of the cached games, least recently used first."""
        with self._cache_lock:
            return list(self._cache)

    def _load(self, game_id: str) -> Session:
        """The game from the cache, or restored from storage (404 if there is none).

        Use it under its lock after :meth:`_latest`, which brings it to the stored version.
        """
        with self._cache_lock:
            session = self._cache.get(game_id)
            if session is not None:
                self._cache.move_to_end(game_id)
        if session is not None:
            return session
        position = self.storage.position(game_id)  # read first: a later change is seen later
        stored = self.storage.load(game_id)
        if stored is None or position is None:
            raise ApiError(404, "no such game")
        try:
            session = Session.restore(stored, self.storage.seats(game_id))
        except (RecordError, CribbageError) as exc:
            raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None
        session.generation = position[1]
        self._read_clock(session)
        return self._remember(session)

    def _read_clock(self, session: Session) -> None:
        """The stored turn clock of a game that has one (a deadline of another version is void)."""
        if session.options.clock is None:
            return
        clock = self.storage.clock(session.id)
        session.away = frozenset() if clock is None else clock.away
        session.deadline = None if clock is None or clock.version != session.version else clock.deadline

    def _next_deadline(self, session: Session, away: frozenset[int] | None = None) -> float | None:
        """When the turn of the person to act now runs out, at the latest: the clock plus
        :data:`READING_SECONDS` (:meth:`seen` starts it earlier), or :data:`AWAY_SECONDS` for a
        seat ``away`` (by default the session's).  None without a clock, while the table waits
        for people, or once the game is over."""
        clock = session.options.clock
        seat = session.table.waiting_for
        if clock is None or session.over or session.waiting or seat is None:
            return None
        if seat in (session.away if away is None else away):
            return self.now() + min(clock, AWAY_SECONDS)
        return self.now() + READING_SECONDS + clock

    def _deadline_after(self, session: Session, seat: int, turn: int | None, before: int) -> float | None:
        """The deadline once ``seat`` acted at version ``before``, when ``turn`` was the seat to
        act: the stored one when another person acted early (a discard, a muggins call or pass)
        and ``turn`` is still to act (its page may have started it, in any process), else the
        next turn's (:meth:`_next_deadline`)."""
        if seat != turn and session.table.waiting_for == turn:
            row = self.storage.clock(session.id)
            if row is not None and row.version == before and row.deadline is not None:
                return row.deadline
        return self._next_deadline(session, session.away - {seat})

    def _start_clock(self, session: Session) -> None:
        """Start the turn of the person to act (every seat taken, a computer seated)."""
        if session.options.clock is None:
            return
        session.deadline = self._next_deadline(session)
        self.storage.set_clock(session.id, session.version, session.deadline, session.away)

    def _session(self, game_id: str, token: str | None) -> tuple[Session, int]:
        """The game and the token's seat: 401 without a right token, 404 without a game.

        Use it under its lock after :meth:`_latest`, which brings it to the stored version.
        """
        if not token:
            raise ApiError(401, "missing token: send 'Authorization: Bearer TOKEN'")
        session = self._load(game_id)
        token_hash = hash_token(token)
        seat = session.seat_of(token_hash)
        if seat is None:  # a seat may have been taken (or left and taken again) through another process
            with session.lock:
                self._latest(session)
            seat = session.seat_of(token_hash)
        if seat is None:
            raise ApiError(401, "wrong token for this game")
        return session, seat

    def _latest(self, session: Session, token: str | None = None, seat: int | None = None) -> None:
        """Bring a session to the stored version, if another process moved the game on.

        Called with the session's lock held, so no request of this process is changing it: one
        cheap read of the stored version and seating generation, and a replay of the record only
        when either differs.  While a person's seat is open, the seats are read again too
        (another process may have seated someone); otherwise they change only with the
        generation (a person left, a computer took a seat).  With a ``token``, it must still hold
        ``seat`` (401 otherwise: its person left meanwhile, through another process).
        """
        position = self.storage.position(session.id)
        if position is None:  # removed (pruned, see prune) since it was cached
            self._forget(session)
            raise ApiError(404, "no such game")
        version, generation = position
        reseated = session.waiting or generation != session.generation
        if reseated:
            session.set_seats(self.storage.seats(session.id))
        moved = session.unsaved or version != session.version or generation != session.generation
        if moved:
            stored = self.storage.load(session.id)
            if stored is None:
                self._forget(session)
                raise ApiError(404, "no such game")
            # A copy that may hold an unsaved action is replayed whole: even at the stored
            # version it is another game (another hand, starter or score).
            catch_up = generation == session.generation and not session.unsaved
            session.unsaved = True  # until the rebuild is done
            try:
                session.rebuild(stored, catch_up=catch_up)
            except CribbageError as exc:
                raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None
            session.unsaved = False
            session.generation = generation
            self._resize(session)
        if reseated or moved or session.options.clock is not None:  # a page may have started it
            self._read_clock(session)
        if session.over and session.rematch is None:
            session.rematch = self.storage.rematch(session.id)
        if token is not None and session.seat_of(hash_token(token)) != seat:
            raise ApiError(401, "wrong token for this game")

    # ------------------------------------------------------------------ requests

    def create(
        self, options: Options, layout: Sequence[SeatSpec | dict[str, Any]] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """A new game: returns the creator's token (seat 0) and its ``STATE`` (whose ``invites``
        are the open seats' invitations).

        ``layout`` is one :class:`SeatSpec` (or its JSON) per seat; by default seat 0 is the
        creator and every other seat a computer of ``options.level``.
        """
        specs = (
            None
            if layout is None
            else [s if isinstance(s, SeatSpec) else SeatSpec.from_json(s) for s in layout]
        )
        token = secrets.token_urlsafe(32)
        session = Session.new(secrets.token_urlsafe(24), hash_token(token), options, specs, self.computer)
        for attempt in range(5):
            try:
                self.storage.insert(
                    StoredGame(
                        id=session.id,
                        token_hash=hash_token(token),
                        options={**asdict(options), "names": list(options.names)},
                        record=session.game.to_json(),
                        version=session.version,
                        over=session.over,
                    ),
                    session.seats,
                    listed=options.public,
                )
                break
            except Conflict:  # an invitation code drawn twice: draw the codes again
                if attempt == 4:
                    raise
                session.set_seats(
                    [seat if seat.code is None else replace(seat, code=new_code()) for seat in session.seats]
                )
        if not session.waiting:
            self._start_clock(session)
        self._remember(session)
        return token, session.to_json(HUMAN)

    def join(self, code: str, name: str) -> dict[str, Any]:
        """Take the open seat of an invitation ``code`` under a display ``name``.

        Returns ``{"id", "token", "seat", "state"}``: the game, the seat's own token, its
        number and its ``STATE``.

        Raises:
            ApiError: 422 for a bad name, 404 for an unknown code, 409 for a seat taken already.
        """
        name = display_name(name)
        code = code.strip().upper() if isinstance(code, str) else ""
        if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
            raise ApiError(404, "no table has this invitation code")
        token = secrets.token_urlsafe(32)
        joined = self.storage.take_seat(code, hash_token(token), name)
        if joined is None:
            raise ApiError(404, "no table has this invitation code")
        if not joined.won:
            raise ApiError(409, f"seat {joined.seat} of this table is taken already")
        session = self._load(joined.game_id)
        connected = self.presence(joined.game_id)
        with session.lock:
            self._latest(session)
            if not session.waiting and session.deadline is None:
                self._start_clock(session)  # the last seat taken: the first turn's clock runs
            state = session.to_json(joined.seat, connected)
        return {"id": joined.game_id, "token": token, "seat": joined.seat, "state": state}

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The token's person leaves the table: their token is void from now on.

        With the game's ``takeover`` level a computer of that level takes the seat at once (and
        plays it if it is its turn); without it the seat is open again, its invitation valid,
        and the table waits until someone takes it (or the creator gives it to a computer,
        :meth:`seat_computer`).  Returns ``{"seat", "computer"}``: the seat left and the level
        of the computer now in it (None: the seat is open).

        Raises:
            ApiError: 401 without a right token, 409 once the game is over or when another
                request changed the table first; nothing changed.
        """
        session, seat = self._session(game_id, token)
        assert token is not None
        with session.lock:
            self._latest(session, token, seat)
            if session.over:
                raise ApiError(409, "the game is over: there is no table to leave")
            level = session.options.takeover
            if level is not None:
                self._takeover(session, seat, level, holder=hash_token(token))
                return {"seat": seat, "computer": level}
            old = session.seats[seat]
            opened = replace(
                old, name=f"Player {seat + 1}", token_hash=None, code=old.code or new_code(), taken=False
            )
            generation = self.storage.reseat(game_id, opened, holder=hash_token(token))
            if generation is None:
                self._forget(session)
                raise ApiError(409, "the table was changed by another request: read it again")
            session.set_seats([opened if s.seat == seat else s for s in session.seats])
            session.generation = generation
            if session.options.clock is not None:  # the table waits: no turn runs
                session.deadline, session.away = None, session.away - {seat}
                self.storage.set_clock(game_id, session.version, None, session.away - {seat})
            return {"seat": seat, "computer": None}

    def seat_computer(self, game_id: str, token: str | None, seat: object, level: object) -> dict[str, Any]:
        """The creator (seat 0) gives a person's seat to a computer of ``level``, which plays it
        from now on: an open seat, or one whose person is offline (no live socket open, see
        :attr:`presence`), whose token then acts no more; returns the creator's ``STATE``.

        Raises:
            ApiError: 401/403 for a token not the creator's, 422 for a bad seat or level, 409
                for the creator's own seat, a computer's, one whose person is online, or once
                the game is over.
        """
        session, mine = self._session(game_id, token)
        if mine != HUMAN:
            raise ApiError(403, f"only the table's creator (seat 0) may seat a computer, not seat {mine}")
        if level not in LEVELS:
            raise ApiError(422, f"unknown level {level!r} (known: {', '.join(LEVELS)})")
        assert isinstance(level, str)
        connected = self.presence(game_id)
        with session.lock:
            self._latest(session, token, mine)
            if type(seat) is not int or not 0 <= seat < len(session.seats):
                raise ApiError(422, f"no seat {seat!r} at this table of {len(session.seats)}")
            target = session.seats[seat]
            if target.kind != "human":
                raise ApiError(409, f"seat {seat} is a computer's already")
            if seat == HUMAN:
                raise ApiError(409, "seat 0 is your own: leave the table to give it up")
            if target.taken and seat in connected:
                raise ApiError(
                    409,
                    f"seat {seat}'s person is online: only an open or offline seat goes to a computer",
                )
            if session.over:
                raise ApiError(409, "the game is over")
            self._takeover(session, seat, level, holder=target.token_hash if target.taken else None)
            return session.to_json(HUMAN, connected)

    def _takeover(self, session: Session, seat: int, level: str, holder: str | None) -> None:
        """A computer of ``level`` takes ``seat`` (its person leaving, ``holder`` their token's
        hash, or an open seat): recorded among the record's seats with its seed, so the game is
        rebuilt with it from its record; the table is rebuilt so (one replay) and the computer
        plays at once if it is its turn.  All is stored together, or nothing (409).

        Called with the session's lock held, after :meth:`_latest`.
        """
        player = self.computer or level
        if player not in PLAYERS:
            raise ApiError(503, f"the {player!r} computer player is not available")
        options = session.options
        seed = new_seed() if options.seed is None else seat_seed(options.seed, seat)
        name = computer_name(seat, len(session.seats))
        record = session.game.to_json()
        record["seats"] = [
            SeatRecord(player, seed).to_json() if s == seat else (None if r is None else r.to_json())
            for s, r in enumerate(session.game.seats)
        ]
        seated = [
            replace(s, kind="computer", level=level, name=name, token_hash=None, code=None, taken=True)
            if s.seat == seat
            else s
            for s in session.seats
        ]
        before = session.version
        try:
            table = Session._seat(_table(record, options))
        except CribbageError as exc:
            raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None
        table.game.names = tuple(s.name for s in seated)
        try:
            table.run()  # as at a table's creation, computers play up to a person's turn
        except CribbageError as exc:
            raise RuntimeError(f"a computer player failed: {exc}") from exc
        generation = self.storage.reseat(
            session.id,
            seated[seat],
            holder=holder,
            record=table.game.to_json(),
            version=len(table.game.actions),
            over=table.over,
            expected=before,
        )
        if generation is None:
            self._forget(session)
            raise ApiError(409, "the table was changed by another request: read it again")
        session.table = table
        session.set_seats(seated)
        session.generation = generation
        session.away -= {seat}
        if not session.waiting:
            self._start_clock(session)

    def watch_link(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game's watch link, for its creator (seat 0) only: ``{"code", "url"}``, the same
        every time it is asked for.

        Raises:
            ApiError: 401 without a right token, 403 for another seat's token.
        """
        session, seat = self._session(game_id, token)
        with session.lock:
            self._latest(session, token, seat)  # the token still holds its seat (nobody left)
        if seat != HUMAN:
            raise ApiError(403, f"only the table's creator (seat 0) may give a watch link, not seat {seat}")
        code = self._watch_code(game_id)
        return {"code": code, "url": f"/watch/{code}"}

    def _watch_code(self, game_id: str) -> str:
        """The game's watch code: the one it has, else a new one stored now (in any process,
        the first stored is everyone's)."""
        for _ in range(4):
            try:
                return self.storage.watch_code(game_id, new_code(WATCH_LENGTH))
            except Conflict:  # a code drawn twice: draw again
                continue
        return self.storage.watch_code(game_id, new_code(WATCH_LENGTH))  # a Conflict again: raised

    def watch(self, code: str) -> dict[str, Any]:
        """A spectator's ``STATE`` of the game of a watch ``code`` (:meth:`Session.watch_json`).

        Raises:
            ApiError: 404 for an unknown code.
        """
        code = code.strip().upper() if isinstance(code, str) else ""
        game_id = None
        if len(code) == WATCH_LENGTH and set(code) <= set(CODE_ALPHABET):
            game_id = self.storage.watched(code)
        if game_id is None:
            raise ApiError(404, "no table has this watch code")
        session = self._load(game_id)
        connected = self.presence(game_id)
        with session.lock:
            self._latest(session)
            if session.rematch is not None and session.rematch_watch is None:
                # The people played again: the spectators follow them to the new game's watch
                # code (the same code its creator's watch link gives, made now if it has none).
                session.rematch_watch = self._watch_code(session.rematch)
            return session.watch_json(connected)

    def lobby(self, limit: int = 100) -> dict[str, Any]:
        """The public tables with an open seat, newest first (``GET /api/lobby``): never a token,
        a hand or a record."""
        tables = []
        for listed in self.storage.lobby(limit):
            try:
                options = Options.from_json(listed.options)
                rules = options.rules()
            except (ApiError, CribbageError, TypeError):  # not a game this version can show
                continue
            shown = seats_json(listed.seats, codes=True)
            free = [seat["code"] for seat in shown if "code" in seat]
            if not free:
                continue
            tables.append(
                {"code": free[0], **_table_facts(options, rules, shown), "created": listed.listed.isoformat()}
            )
        return {"tables": tables}

    def invitation(self, code: str) -> dict[str, Any]:
        """What an invitation ``code`` opens, to be shown before joining (``GET /api/join/{code}``):
        ``{"seat", "variant", "players", "target", "options", "seats"}`` as in the lobby, the
        seat being the one the code takes; never a token, nor another seat's code.

        Raises:
            ApiError: 404 for an unknown code (or a game over), 409 for a seat taken already.
        """
        code = code.strip().upper() if isinstance(code, str) else ""
        found = None
        if len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET):
            found = self.storage.invitation(code)
        if found is None:
            raise ApiError(404, "no table has this invitation code")
        (seat,) = [s for s in found.seats if s.code == code]
        if seat.taken:
            raise ApiError(409, f"seat {seat.seat} of this table is taken already")
        options = Options.from_json(found.options)
        rules = options.rules()
        return {"seat": seat.seat, **_table_facts(options, rules, seats_json(found.seats))}

    def state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The ``STATE`` of the token's seat."""
        session, seat = self._session(game_id, token)
        connected = self.presence(game_id)
        with session.lock:
            self._latest(session, token, seat)
            return session.to_json(seat, connected)

    def act(self, game_id: str, token: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Apply the action of the token's seat (its JSON, with an optional ``version``);
        returns that seat's ``STATE``.

        The action is tried first on the copy this process holds, without reading the stored
        version: the save succeeds only if the stored version and seating are still the ones
        the copy was at (one statement), and anything else (a refusal, a save refused) is
        decided again on the game read afresh.  So an action costs one statement to the
        database, and every answer is the one the latest stored game gives.

        Raises:
            ApiError: 422 for a malformed action, 403 for one naming another seat, 409 while the
                table waits for people to join or for a stale version, 400 for one the engine
                refuses (another seat's turn, an illegal card); in each case nothing changes.
        """
        try:
            return self._act(game_id, token, data, fresh=False)
        except _Stale:
            return self._act(game_id, token, data, fresh=True)

    def _act(self, game_id: str, token: str | None, data: dict[str, Any], *, fresh: bool) -> dict[str, Any]:
        """:meth:`act`; unless ``fresh``, on the copy held, raising :class:`_Stale` for
        whatever the latest stored game might decide otherwise."""
        session, seat = self._session(game_id, token)
        body = dict(data)
        version = body.pop("version", None)
        action = parse_action(body, seat)
        connected = self.presence(game_id)
        with session.lock:
            # Open seats are read each time (people join elsewhere); a copy another request's
            # refused action left unsaved is read again, never acted on.
            if fresh or session.waiting or session.unsaved:
                fresh = True
                self._latest(session, token, seat)
            waiting = session.waiting
            if waiting:
                seats_text = ("seat " if len(waiting) == 1 else "seats ") + ", ".join(map(str, waiting))
                raise ApiError(
                    409, f"waiting for {seats_text} to be taken: no action until every person has joined"
                )
            before = session.version
            turn = session.table.waiting_for
            if version is not None and version != before:
                if not fresh:
                    raise _Stale
                why = ""
                try:  # say why the action is refused now too, if it is (a muggins call beaten)
                    session.game.state.verify(action)
                except CribbageError as exc:
                    why = f" ({exc})"
                raise ApiError(409, f"stale version {version}: the game is at version {before}{why}")
            try:
                session.act(action)
            except CribbageError as exc:
                if session.version != before:  # a computer player failed after the person's action
                    self._forget(session)
                    raise RuntimeError(f"a computer player failed: {exc}") from exc
                if not fresh:
                    raise _Stale from None
                raise ApiError(400, str(exc)) from None
            except BaseException:
                self._forget(session)
                raise
            clock = None
            try:
                if session.options.clock is not None:  # the seat acted: it is back, the next turn runs
                    clock = (self._deadline_after(session, seat, turn, before), session.away - {seat})
                saved = self.storage.update(
                    session.id,
                    session.game.to_json(),
                    version=session.version,
                    over=session.over,
                    expected=before,
                    generation=session.generation,
                    clock=clock,
                )
            except BaseException:
                self._forget(session)
                raise
            if not saved:
                self._forget(session)
                if not fresh:
                    raise _Stale
                raise ApiError(409, "the game was changed by another request: read it again")
            if clock is not None:
                session.deadline, session.away = clock
            self._resize(session)
            return session.to_json(seat, connected)

    def seen(self, game_id: str, token: str | None, version: object) -> dict[str, Any]:
        """The token's page shows its seat's decision of ``version`` (after replaying what
        happened since, and the show): if the turn clock runs for that seat at that version, it
        runs from now (its deadline brought forward to now plus the clock; never put back, so
        saying it again changes nothing).  Returns ``{"started", "turn_clock", "away"}``:
        whether this moved the deadline, and the clock as every seat sees it.

        Raises:
            ApiError: 422 for a version that is not a whole number, 401 without a right token.
        """
        if type(version) is not int or version < 0:
            raise ApiError(422, f"version must be a whole number, not {version!r}")
        session, seat = self._session(game_id, token)
        with session.lock:
            self._latest(session, token, seat)
            clock, deadline = session.options.clock, session.deadline
            started = False
            if (
                clock is not None
                and deadline is not None
                and version == session.version
                and session.table.waiting_for == seat
                and not session.waiting
            ):
                running = self.now() + clock
                if running < deadline and self.storage.start_clock(game_id, version, running):
                    session.deadline, started = running, True
            return {"started": started, **session.clock_json()}

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Play again: once the game is over, a new game with the same people in the same seats
        (their tokens now act in it too), the same computers and options, its first dealer as
        the rules say for a match's next game (``Rules.next_dealer``: the loser, a new cut, or
        the seat after the last first dealer).  One rematch per game: whoever asks first makes
        it, every later call (any seat, any process) gets the same game.

        Returns ``{"id", "seat", "state"}``: the new game, the token's seat and its ``STATE``.

        Raises:
            ApiError: 401 without a right token, 409 before the game is over.
        """
        session, seat = self._session(game_id, token)
        with session.lock:
            self._latest(session, token, seat)
            if not session.over:
                raise ApiError(409, "play again once the game is over")
            found = session.rematch or self._new_rematch(session)
            session.rematch = found
        again = self._load(found)
        connected = self.presence(found)
        with again.lock:
            self._latest(again, token, seat)
            return {"id": found, "seat": seat, "state": again.to_json(seat, connected)}

    def _new_rematch(self, old: Session) -> str:
        """Store the rematch of a finished game (its lock held) and return its id (another
        process's, if it stored one first)."""
        rules = old.table.rules
        state = old.game.state
        result = state.result
        dealer: int | None = None
        if result is not None and rules.next_dealer == "loser":
            dealer = result.loser  # a side's first seat is its number (partners: n and n + 2)
        elif result is not None and rules.next_dealer == "alternate" and state.first_dealer is not None:
            dealer = (state.first_dealer + 1) % rules.players
        seed = None if old.options.seed is None else (old.options.seed + 1) % 2**63
        options = replace(old.options, seed=seed, public=False, names=tuple(s.name for s in old.seats))
        seeds = [None if seed is None else seat_seed(seed, s) for s in range(rules.players)]
        players = [PERSON if s.kind == "human" else self.computer or s.level for s in old.seats]
        game = Game(rules, seed=seed, dealer=dealer, names=options.names, seats=seats(players, seeds))
        seated = [replace(s, code=None if s.taken else new_code()) for s in old.seats]
        again = Session(secrets.token_urlsafe(24), options, Table(game), seated)
        again.table.run()
        creator = seated[HUMAN].token_hash or hash_token(secrets.token_urlsafe(32))
        try:
            self.storage.insert(
                StoredGame(
                    id=again.id,
                    token_hash=creator,
                    options={**asdict(options), "names": list(options.names)},
                    record=again.game.to_json(),
                    version=again.version,
                    over=again.over,
                ),
                seated,
                rematch_of=old.id,
            )
        except Conflict:
            found = self.storage.rematch(old.id)
            if found is None:
                raise
            return found
        if not again.waiting:
            self._start_clock(again)
        self._remember(again)
        return again.id

    def expire_due(self) -> list[str]:
        """Move for every person whose turn clock ran out (any game, whichever process notices
        first); returns the games moved on.  A game another process moves first is left alone."""
        moved = []
        for game_id in self.storage.due(self.now()):
            try:
                if self.expire(game_id):
                    moved.append(game_id)
            except ApiError:
                continue
        return moved

    def expire(self, game_id: str) -> bool:
        """If the turn clock of the person to act ran out, a computer (:data:`CLOCK_LEVEL`) makes
        their move, recorded as theirs, and marks their seat away; the computers then play on,
        and the next turn's clock runs.  Under the game's lock and the stored version's check,
        so it happens once whichever processes notice it.  True if it moved the game."""
        session = self._load(game_id)
        with session.lock:
            self._latest(session)
            row = self.storage.clock(game_id)
            if row is None or row.deadline is None or row.deadline > self.now():
                return False
            seat = session.table.waiting_for
            if row.version != session.version or seat is None or session.waiting:
                self.storage.void_clock(game_id, row.deadline)  # nobody's turn runs: stop asking
                return False
            state = session.game.state
            action = state.forced_action()
            if action is None:
                player = make_player(self.computer or CLOCK_LEVEL, new_seed())
                action = player.choose(state.view(seat))
            before = session.version
            try:
                session.act(action)
            except CribbageError as exc:
                self._forget(session)
                raise RuntimeError(f"the computer moving for seat {seat} failed: {exc}") from exc
            clock = (self._next_deadline(session, row.away | {seat}), row.away | {seat})
            saved = self.storage.update(
                session.id,
                session.game.to_json(),
                version=session.version,
                over=session.over,
                expected=before,
                clock=clock,
            )
            if not saved:  # another process was first
                self._forget(session)
                return False
            session.deadline, session.away = clock
            self._resize(session)
            return True

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The JSON record of a finished game (409 before the end)."""
        session, seat = self._session(game_id, token)
        with session.lock:
            self._latest(session, token, seat)
            if not session.over:
                raise ApiError(409, "the record is available once the game is over")
            return session.game.to_json()

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's advice for the discard or play of the token's seat, best first."""
        session, seat = self._session(game_id, token)
        with session.lock:
            self._latest(session, token, seat)
            waiting = bool(session.waiting)
            view = session.game.state.view(seat)
        if waiting or not view.legal:
            raise ApiError(409, "no hint now: it is not your turn")
        if view.phase not in (Phase.DISCARD, Phase.PLAY) or isinstance(view.legal[0], (Muggins, Pass)):
            raise ApiError(409, "hints are given for discards and plays")
        return hint_for(view)

    def prune(
        self, *, keep_days: int, keep_finished_days: int, now: datetime | None = None, dry_run: bool = False
    ) -> Pruned:
        """Remove the old games from storage (:meth:`Storage.prune`) and from this process's
        cache; another process's cached copy answers 404 at its next request (:meth:`_latest`)."""
        pruned = self.storage.prune(
            keep_days=keep_days, keep_finished_days=keep_finished_days, now=now, dry_run=dry_run
        )
        with self._cache_lock:
            for game_id in pruned.ids:
                if game_id in self._cache:
                    self._drop_locked(game_id)
        return pruned

    def close(self) -> None:
        self.storage.close()


def hint_for(view: SeatView) -> dict[str, Any]:
    """The advice for a seat's discard or play (see ``docs/api.md``), from its view only."""
    from ..ai.advice import keep_advice, play_advice

    if view.phase is Phase.DISCARD:
        keeps = keep_advice(view)
        # Near the end the keeps are ranked by their chance of winning: each option then says it
        # (``win``, 0 to 1), and ``ranked_by`` tells the client which column the order follows.
        ranked_by_win = any(o.win is not None for o in keeps)
        return {
            "kind": "discard",
            "ranked_by": "win" if ranked_by_win else "total",
            "options": [
                {
                    "keep": [str(c) for c in o.keep],
                    "discard": [str(c) for c in o.discard],
                    "hand_points": round(o.hand, 2),
                    "crib_points": round(o.crib, 2),
                    # With three players an opponent's crib point weighs half one's own.
                    **({"crib_weight": round(o.crib_weight, 4)} if o.crib_weight != 1 else {}),
                    "pegging": round(o.pegging, 2),
                    "total": round(o.total, 2),
                    **({"win": round(o.win, 4)} if o.win is not None else {}),
                }
                for o in keeps
            ],
        }
    plays = play_advice(view)
    return {
        "kind": "play",
        "ranked_by": "win" if any(o.win is not None for o in plays) else "value",
        "options": [
            {
                "card": str(o.card),
                "value": round(o.value, 2),
                "reasons": [r.to_json() for r in o.reasons],
                **({"win": round(o.win, 4)} if o.win is not None else {}),
            }
            for o in plays
        ],
    }
