"""Game sessions for the browser: the human at seat 0 against computer players, server-side.

A :class:`Session` is one game: the recorded :class:`~cribbage.engine.record.Game`, the computer
players, and what the page is shown (:meth:`Session.to_json`, the ``STATE`` of ``docs/api.md``).
The computers act synchronously until the human must act or the game is over.  The human only
ever receives the :class:`~cribbage.engine.game.SeatView` of seat 0, its legal actions and the public
events, each with the scores after it.

:class:`GameService` holds the sessions: it creates them, checks the seat's token, serialises
the actions of each game (a lock per game, and an optional version check), saves every action
before answering, and keeps recently used games in memory; any other game is reloaded from
storage by replaying its record.  It knows nothing of HTTP: problems are :class:`ApiError`
values carrying the status the server answers with.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any, Final

from ..engine.errors import CribbageError, RecordError
from ..engine.game import (
    TERMINAL,
    Action,
    Count,
    Discard,
    Event,
    GameState,
    Muggins,
    Pass,
    Phase,
    Play,
    SeatView,
    action_from_json,
)
from ..engine.record import Game
from ..engine.rules import VARIANTS, Rules, get_rules
from ..engine.scoring import GO, LAST_CARD
from ..players import PLAYERS, Player, make_player, tell_hand_over
from .storage import Storage, StoredGame

__all__ = [
    "DEALERS",
    "HUMAN",
    "LEVELS",
    "SOURCES",
    "ApiError",
    "ComputerFactory",
    "GameService",
    "Options",
    "Session",
    "Tally",
    "level_player",
]

HUMAN: Final = 0
"""The human's seat; every other seat is a computer player."""

LEVELS: Final = ("weak", "normal", "strong")
"""The computer levels a game can be played against."""

DEALERS: Final[dict[str, int | None]] = {"cut": None, "you": HUMAN, "computer": 1}
"""The ``dealer`` option: cut for deal, the human deals first, or the computer to the left does."""

SOURCES: Final = ("pegging", "hand", "crib", "other")
"""Where points come from, for ``breakdown``: the play (with go and the last card), the show of
the hands, the show of the crib, and the rest (his heels, muggins, penalties, the five-card bonus)."""

_PEGGING_DETAILS: Final = frozenset({"play", GO, LAST_CARD})
_HUMAN_ACTIONS: Final = ("discard", "play", "count", "muggins", "pass")

ComputerFactory = Callable[[str, int | None], Player]
"""Builds the computer player of a level, with a seed (or None)."""


class ApiError(Exception):
    """A request the service refuses, with the HTTP status to answer and a message naming why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    """The options a game is created with (see ``docs/api.md``); checked by :meth:`rules`."""

    level: str = "normal"
    variant: str = "standard"
    target: int | None = None
    manual: bool = False
    muggins: bool = False
    muggins_play: bool = False
    dealer: str = "cut"
    skunk: str = "marked"
    seed: int | None = None
    names: tuple[str, ...] = ("You",)

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
        if self.variant not in VARIANTS:
            raise ApiError(422, f"unknown variant {self.variant!r} (known: {', '.join(VARIANTS)})")
        if self.dealer not in DEALERS:
            raise ApiError(422, f"dealer must be one of {', '.join(DEALERS)}, not {self.dealer!r}")
        if (self.muggins or self.muggins_play) and not self.manual:
            raise ApiError(422, "muggins needs manual counting: set manual to true")
        changes: dict[str, Any] = {
            "manual_count": self.manual,
            "muggins": self.muggins,
            "muggins_play": self.muggins_play,
            # With muggins on, an over-count is not a free guess: its excess goes to the opponent.
            "overcount_penalty": self.muggins or self.muggins_play,
            "skunk": self.skunk,
        }
        if self.target is not None:
            changes["target"] = self.target
        try:
            rules = get_rules(self.variant, **changes)
        except CribbageError as exc:
            raise ApiError(422, str(exc)) from None
        if len(self.names) > rules.players:
            raise ApiError(422, f"{len(self.names)} names for {rules.players} players")
        return rules

    def seat_names(self, players: int) -> tuple[str, ...]:
        """The given names, then ``Computer`` (or ``Computer 1``, ``Partner``...) for the rest."""
        defaults = ["You"] + (["Computer"] if players == 2 else [f"Computer {i}" for i in range(1, players)])
        if players == 4:
            defaults[2] = "Partner"
        given = [name.strip() for name in self.names]
        return tuple(given[i] if i < len(given) and given[i] else defaults[i] for i in range(players))

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The options as the page sees them: the target resolved, the names filled in."""
        data = asdict(self)
        data["target"] = rules.target
        data["names"] = list(self.seat_names(rules.players))
        return data


# --------------------------------------------------------------------------- players


def level_player(level: str, seed: int | None) -> Player:
    """The computer player of a level, or :class:`ApiError` 503 when it is not available."""
    if level not in PLAYERS:
        raise ApiError(503, f"the {level!r} computer player is not available on this server")
    return make_player(level, seed)


def _player_seed(seed: int | None, seat: int) -> int | None:
    """A seed for each computer seat of a seeded game (none for an unseeded one)."""
    return None if seed is None else (seed * 8 + seat) % 2**63


# --------------------------------------------------------------------------- scores


def _source(event: Event) -> str:
    """Which of :data:`SOURCES` an event's points belong to."""
    if event.kind == "show":
        return "crib" if event.detail == "crib" else "hand"
    if event.kind == "score" and event.detail in _PEGGING_DETAILS:
        return "pegging"
    return "other"


class Tally:
    """Follows a game's events: the scores after each, the score history, the points by source."""

    def __init__(self, sides: int) -> None:
        self.scores = [0] * sides
        self.hands = 0
        self.history: list[dict[str, Any]] = []
        """Each side's score at the start of every hand, then the final scores."""
        self.breakdown: list[dict[str, int]] = [dict.fromkeys(SOURCES, 0) for _ in range(sides)]

    def feed(self, events: Iterable[Event]) -> list[dict[str, Any]]:
        """Count the events; returns their JSON, each with the ``scores`` after it."""
        out = []
        for event in events:
            if event.kind == "deal":
                self.hands += 1
                self.history.append({"hand": self.hands, "scores": list(self.scores)})
            if event.points and event.side is not None:
                self.scores[event.side] += event.points
                self.breakdown[event.side][_source(event)] += event.points
            if event.kind == "win":
                self.history.append({"hand": self.hands + 1, "scores": list(self.scores)})
            data = event.to_json()
            data["scores"] = list(self.scores)
            out.append(data)
        return out


# --------------------------------------------------------------------------- a session


def _is_human(action: Action) -> bool:
    return isinstance(action, (Discard, Play, Count, Muggins, Pass)) and action.seat == HUMAN


class Session:
    """One game in progress (or over) between the human at seat 0 and the computers."""

    def __init__(
        self, game_id: str, token_hash: str, options: Options, game: Game, computer: ComputerFactory
    ) -> None:
        self.id = game_id
        self.token_hash = token_hash
        self.options = options
        self.game = game
        if game.seed is None:
            # An unseeded game draws its cards from the operating system: nothing to predict.
            game.rng = secrets.SystemRandom()
        players = game.rules.players
        self.computers = {
            seat: computer(options.level, _player_seed(options.seed, seat)) for seat in range(1, players)
        }
        self.tally = Tally(game.rules.sides)
        self.events: list[dict[str, Any]] = []
        """The events since the human's previous action, each with the scores after it."""
        self.lock = threading.Lock()

    @classmethod
    def new(cls, game_id: str, token_hash: str, options: Options, computer: ComputerFactory) -> Session:
        """A new game, played up to the human's first decision."""
        rules = options.rules()
        names = options.seat_names(rules.players)
        game = Game(rules, seed=options.seed, dealer=DEALERS[options.dealer], names=names)
        session = cls(game_id, token_hash, options, game, computer)
        session.events = session.tally.feed(session._advance())
        return session

    @classmethod
    def restore(cls, stored: StoredGame, computer: ComputerFactory) -> Session:
        """A stored game, replayed from its record."""
        options = Options.from_json(stored.options)
        game = Game.from_json(stored.record)
        session = cls(stored.id, stored.token_hash, options, game, computer)
        state = GameState(game.rules, dealer=game.first_dealer)
        for action in game.actions:
            if _is_human(action):
                session.events = []
            session.events += session.tally.feed(state.apply(action))
        return session

    @property
    def version(self) -> int:
        """The number of actions in the record: it changes with every step of the game."""
        return len(self.game.actions)

    @property
    def over(self) -> bool:
        return self.game.state.is_terminal

    def act(self, action: Action) -> None:
        """Apply the human's action, then the computers' until the human must act again.

        Raises:
            CribbageError: the engine refuses the human's action; nothing changed.
        """
        events = self.game.apply(action)
        self._tell(events)
        events += self._advance()
        self.events = self.tally.feed(events)

    def _tell(self, events: list[Event]) -> None:
        """Let the computers learn from a hand that is over (see :func:`tell_hand_over`)."""
        computers = [self.computers.get(s) for s in range(self.game.rules.players)]
        tell_hand_over(computers, self.game.state, events)

    def _advance(self) -> list[Event]:
        """Deal and play the computer seats until the human must act or the game is over."""
        game, state = self.game, self.game.state
        events: list[Event] = []
        while True:
            actor = state.to_act
            if actor in (HUMAN, TERMINAL):
                return events
            if state.is_chance:
                events += game.deal_chance()
                continue
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else self.computers[actor].choose(state.view(actor))
            step = game.apply(action)
            self._tell(step)
            events += step

    def to_json(self) -> dict[str, Any]:
        """The ``STATE`` the human's seat may see."""
        state = self.game.state
        view = state.view(HUMAN)
        result = state.result
        return {
            "id": self.id,
            "version": self.version,
            "seat": HUMAN,
            "names": list(self.game.names),
            "options": self.options.to_json(self.game.rules),
            "view": view.to_json(),
            "legal": [action.to_json() for action in view.legal],
            "events": self.events,
            "score_history": list(self.tally.history),
            "breakdown": [dict(sides) for sides in self.tally.breakdown],
            "over": state.is_terminal,
            "result": None if result is None else result.to_json(),
        }


# --------------------------------------------------------------------------- the service


def hash_token(token: str) -> str:
    """The stored form of a seat's token (a token is 256 random bits: one SHA-256 is enough)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def parse_action(data: dict[str, Any]) -> Action:
    """The human's action from its JSON (without ``version``); :class:`ApiError` 422 if malformed."""
    kind = data.get("type")
    if kind not in _HUMAN_ACTIONS:
        raise ApiError(422, f"unknown action type {kind!r} (known: {', '.join(_HUMAN_ACTIONS)})")
    seat = data.get("seat", HUMAN)
    if seat != HUMAN or isinstance(seat, bool):
        raise ApiError(422, f"you play seat {HUMAN}, not {seat!r}")
    try:
        return action_from_json({**data, "seat": HUMAN})
    except CribbageError as exc:
        raise ApiError(422, str(exc)) from None


class GameService:
    """Creates, loads, plays and saves games; thread-safe.

    Args:
        storage: where games are saved.
        computer: builds the computer players (by default the registered levels).
        cache_size: how many games to keep in memory; the least recently used beyond it are
            dropped (they are saved already, and replayed when asked for again).
    """

    def __init__(
        self, storage: Storage, computer: ComputerFactory = level_player, cache_size: int = 10_000
    ) -> None:
        self.storage = storage
        self.computer = computer
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Session] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ------------------------------------------------------------------ the cache

    def _remember(self, session: Session) -> Session:
        """Cache a session (or return the one another thread cached first)."""
        with self._cache_lock:
            cached = self._cache.setdefault(session.id, session)
            self._cache.move_to_end(session.id)
            excess = max(len(self._cache) - self.cache_size, 0)
            for old_id in list(islice(self._cache, excess)):
                if not self._cache[old_id].lock.locked():  # never drop a game being played
                    del self._cache[old_id]
            return cached

    def _forget(self, session: Session) -> None:
        with self._cache_lock:
            if self._cache.get(session.id) is session:
                del self._cache[session.id]

    def _session(self, game_id: str, token: str | None) -> Session:
        """The game, after checking the seat's token: 401 without a right token, 404 without a game."""
        if not token:
            raise ApiError(401, "missing token: send 'Authorization: Bearer TOKEN'")
        with self._cache_lock:
            session = self._cache.get(game_id)
            if session is not None:
                self._cache.move_to_end(game_id)
        if session is None:
            stored = self.storage.load(game_id)
            if stored is None:
                raise ApiError(404, "no such game")
            if not hmac.compare_digest(stored.token_hash, hash_token(token)):
                raise ApiError(401, "wrong token for this game")
            try:
                session = Session.restore(stored, self.computer)
            except RecordError as exc:
                raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None
            return self._remember(session)
        if not hmac.compare_digest(session.token_hash, hash_token(token)):
            raise ApiError(401, "wrong token for this game")
        return session

    # ------------------------------------------------------------------ requests

    def create(self, options: Options) -> tuple[str, dict[str, Any]]:
        """A new game: returns the human seat's token and the ``STATE``."""
        token = secrets.token_urlsafe(32)
        session = Session.new(secrets.token_urlsafe(24), hash_token(token), options, self.computer)
        self.storage.insert(
            StoredGame(
                id=session.id,
                token_hash=session.token_hash,
                options={**asdict(options), "names": list(options.names)},
                record=session.game.to_json(),
                version=session.version,
                over=session.over,
            )
        )
        self._remember(session)
        return token, session.to_json()

    def state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game's ``STATE``."""
        session = self._session(game_id, token)
        with session.lock:
            return session.to_json()

    def act(self, game_id: str, token: str | None, data: dict[str, Any]) -> dict[str, Any]:
        """Apply the human's action (its JSON, with an optional ``version``); returns the ``STATE``.

        Raises:
            ApiError: 422 for a malformed action, 400 for one the engine refuses, 409 for a stale
                version; in each case nothing changes.
        """
        session = self._session(game_id, token)
        body = dict(data)
        version = body.pop("version", None)
        action = parse_action(body)
        with session.lock:
            before = session.version
            if version is not None and version != before:
                raise ApiError(409, f"stale version {version}: the game is at version {before}")
            try:
                session.act(action)
            except CribbageError as exc:
                if session.version != before:  # a computer player failed after the human's action
                    self._forget(session)
                    raise RuntimeError(f"a computer player failed: {exc}") from exc
                raise ApiError(400, str(exc)) from None
            except BaseException:
                self._forget(session)
                raise
            try:
                saved = self.storage.update(
                    session.id,
                    session.game.to_json(),
                    version=session.version,
                    over=session.over,
                    expected=before,
                )
            except BaseException:
                self._forget(session)
                raise
            if not saved:
                self._forget(session)
                raise ApiError(409, "the game was changed by another request: read it again")
            return session.to_json()

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The JSON record of a finished game (409 before the end)."""
        session = self._session(game_id, token)
        with session.lock:
            if not session.over:
                raise ApiError(409, "the record is available once the game is over")
            return session.game.to_json()

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's advice for the human's discard or play, best first."""
        session = self._session(game_id, token)
        with session.lock:
            view = session.game.state.view(HUMAN)
        if not view.legal:
            raise ApiError(409, "no hint now: it is not your turn")
        if view.phase not in (Phase.DISCARD, Phase.PLAY) or isinstance(view.legal[0], (Muggins, Pass)):
            raise ApiError(409, "hints are given for discards and plays")
        return hint_for(view)

    def close(self) -> None:
        self.storage.close()


def hint_for(view: SeatView) -> dict[str, Any]:
    """The advice for a seat's discard or play (see ``docs/api.md``), from its view only."""
    from ..ai.discard import discard_options
    from ..ai.pegging import play_options

    rules = view.rules
    if view.phase is Phase.DISCARD:
        side = view.side
        others = [score for s, score in enumerate(view.scores) if s != side]
        own_crib = view.dealer is not None and rules.side_of(view.dealer) == side
        keeps = discard_options(view.hand, own_crib, rules, scores=(view.scores[side], max(others)))
        return {
            "kind": "discard",
            "options": [
                {
                    "keep": [str(c) for c in o.keep],
                    "discard": [str(c) for c in o.discard],
                    "hand_points": round(o.hand, 2),
                    "crib_points": round(o.crib, 2),
                    "pegging": round(o.pegging, 2),
                    "total": round(o.total, 2),
                }
                for o in keeps
            ],
        }
    plays = play_options(view)
    return {
        "kind": "play",
        "options": [
            {"card": str(o.card), "value": round(o.value, 2), "reasons": [r.to_json() for r in o.reasons]}
            for o in plays
        ],
    }
