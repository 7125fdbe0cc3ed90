"""Game sessions for the browser: the person at seat 0 against computer players, server-side.

A :class:`Session` is one game at a :class:`~cribbage.table.table.Table` (the recorded game and
who sits where) and what the page is shown (:meth:`Session.to_json`, the ``STATE`` of
``docs/api.md``).  The table plays the computers until the person must act or the game is over.
The person only ever receives the :class:`~cribbage.engine.game.SeatView` of seat 0, its legal
actions and the public events, each with the scores after it.

:class:`GameService` holds the sessions: it creates them, checks the seat's token, serialises
the actions of each game (a lock per game, and an optional version check), saves every action
before answering, and keeps recently used games in memory.  Every request first compares the
cached game's version with the stored one, so several server processes on one database never
serve an older state than the stored one; a game that is not cached, or is out of date, is
rebuilt from its record (:meth:`~cribbage.table.table.Table.from_json`, one replay).  It knows
nothing of HTTP: problems are :class:`ApiError` values carrying the status the server answers with.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any, Final

from ..engine.errors import CribbageError, RecordError
from ..engine.game import Action, Muggins, Pass, Phase, SeatView, action_from_json
from ..engine.record import Game
from ..engine.rules import Rules
from ..players import PLAYERS
from ..table.seating import HUMAN, LEVELS, GameOptions
from ..table.table import Table
from .storage import Storage, StoredGame

__all__ = ["DEALERS", "HUMAN", "LEVELS", "ApiError", "GameService", "Options", "Session"]

DEALERS: Final[dict[str, int | None]] = {"cut": None, "you": HUMAN, "computer": 1}
"""The ``dealer`` option: cut for deal, the person deals first, or the computer to the left does."""

_HUMAN_ACTIONS: Final = ("discard", "play", "count", "muggins", "pass")


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


# --------------------------------------------------------------------------- a session


class Session:
    """One game in progress (or over) between the person at seat 0 and the computers."""

    def __init__(self, game_id: str, token_hash: str, options: Options, table: Table) -> None:
        self.id = game_id
        self.token_hash = token_hash
        self.options = options
        self.table = self._seat(table)
        self.lock = threading.Lock()

    @staticmethod
    def _seat(table: Table) -> Table:
        if table.game.seed is None:
            # An unseeded game draws its cards from the operating system: nothing to predict.
            table.game.rng = secrets.SystemRandom()
        return table

    def rebuild(self, stored: StoredGame) -> None:
        """Replace the game by the stored one (another process moved it on)."""
        self.table = self._seat(_table(stored.record, self.options))

    @classmethod
    def new(cls, game_id: str, token_hash: str, options: Options, computer: str | None = None) -> Session:
        """A new game, played up to the person's first decision; ``computer`` plays every
        computer seat instead of the level (testing)."""
        rules = options.rules()
        if (computer or options.level) not in PLAYERS:
            raise ApiError(503, f"the {computer or options.level!r} computer player is not available")
        game = Game(
            rules,
            seed=options.seed,
            dealer=DEALERS[options.dealer],
            names=options.seat_names(rules.players),
            seats=options.seats(rules.players, computer),
        )
        session = cls(game_id, token_hash, options, Table(game))
        session.table.run()
        return session

    @classmethod
    def restore(cls, stored: StoredGame) -> Session:
        """A stored game, rebuilt from its record (replayed once, its computers with it)."""
        options = Options.from_json(stored.options)
        return cls(stored.id, stored.token_hash, options, _table(stored.record, options))

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

    def act(self, action: Action) -> None:
        """Apply the person's action, then the computers' until the person must act again.

        Raises:
            CribbageError: the engine refuses the person's action; nothing changed.
        """
        self.table.act(action)

    def to_json(self) -> dict[str, Any]:
        """The ``STATE`` the person's seat may see."""
        table = self.table
        state = table.state
        view = state.view(HUMAN)
        result = state.result
        return {
            "id": self.id,
            "version": self.version,
            "seat": HUMAN,
            "names": list(table.game.names),
            "options": self.options.to_json(table.rules),
            "view": view.to_json(),
            "legal": [action.to_json() for action in view.legal],
            "events": [step.to_json() for step in table.recent],
            "score_history": table.tally.history_json(),
            "breakdown": table.tally.by_side(),
            "over": state.is_terminal,
            "result": None if result is None else result.to_json(),
        }


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
        computer: a player that plays every computer seat instead of the level asked for
            (testing); by default the level's.
        cache_size: how many games to keep in memory; the least recently used beyond it are
            dropped (they are saved already, and replayed when asked for again).
    """

    def __init__(self, storage: Storage, computer: str | None = None, cache_size: int = 10_000) -> None:
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
        """The game, after checking the seat's token: 401 without a right token, 404 without a game.

        Use it under its lock after :meth:`_latest`, which brings it to the stored version.
        """
        if not token:
            raise ApiError(401, "missing token: send 'Authorization: Bearer TOKEN'")
        with self._cache_lock:
            session = self._cache.get(game_id)
            if session is not None:
                self._cache.move_to_end(game_id)
        if session is not None:
            if not hmac.compare_digest(session.token_hash, hash_token(token)):
                raise ApiError(401, "wrong token for this game")
            return session
        stored = self.storage.load(game_id)
        if stored is None:
            raise ApiError(404, "no such game")
        if not hmac.compare_digest(stored.token_hash, hash_token(token)):
            raise ApiError(401, "wrong token for this game")
        try:
            session = Session.restore(stored)
        except (RecordError, CribbageError) as exc:
            raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None
        return self._remember(session)

    def _latest(self, session: Session) -> None:
        """Bring a session to the stored version, if another process moved the game on.

        Called with the session's lock held, so no request of this process is changing it: one
        cheap read of the stored version, and a replay of the record only when it differs.
        """
        if self.storage.version(session.id) == session.version:
            return
        stored = self.storage.load(session.id)
        if stored is None:
            raise ApiError(404, "no such game")
        try:
            session.rebuild(stored)
        except CribbageError as exc:
            raise ApiError(500, f"the stored game cannot be replayed: {exc}") from None

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
            self._latest(session)
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
            self._latest(session)
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
            self._latest(session)
            if not session.over:
                raise ApiError(409, "the record is available once the game is over")
            return session.game.to_json()

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's advice for the human's discard or play, best first."""
        session = self._session(game_id, token)
        with session.lock:
            self._latest(session)
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
                    "pegging": round(o.pegging, 2),
                    "total": round(o.total, 2),
                    **({"win": round(o.win, 4)} if o.win is not None else {}),
                }
                for o in keeps
            ],
        }
    plays = play_options(view)
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
