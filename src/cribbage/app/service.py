"""The application's one entry: :class:`GameService`, the requests of ``docs/api.md`` on the games.

It composes the parts of the application (the games at a table, :mod:`.games`: its
:mod:`~.games.repository`, :mod:`~.games.seating`, :mod:`~.games.lobby`, :mod:`~.games.watch`,
:mod:`~.games.round`, :mod:`~.games.rematch`, :mod:`~.games.clocks`, :mod:`~.games.fanout`; the
people, :mod:`.people`: :mod:`~.people.accounts`, :mod:`~.people.passkeys`,
:mod:`~.people.standings`; and :mod:`.chat`) and knows nothing of HTTP: refusals are
:class:`~cribbage.app.errors.AppError` codes, which the edge maps to statuses.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, Final, Protocol

from ..players import make_player
from ..storage import Pruned, Storage
from .actor import GUEST, Actor
from .chat import Chat
from .errors import AppError
from .games.clocks import Clocks
from .games.fanout import Fanout, StateParts
from .games.lobby import Lobby
from .games.options import Options, SeatSpec
from .games.rated import Rated
from .games.rating_policy import PAIR_LIMIT_GAMES, RatingPolicy, check_rated_table
from .games.rematch import Rematches
from .games.replay import Players
from .games.repository import CACHE_BYTES, Repository
from .games.results import (
    Acted,
    Advice,
    CreatedGame,
    GameRecord,
    Invitation,
    JoinedSeat,
    LeftSeat,
    LobbyTables,
    Rematched,
    SeenClock,
    State,
    WatchLink,
)
from .games.round import ConnectedSeats, Round
from .games.seating import Seating
from .games.uploads import uploaded_game
from .games.watch import Watching
from .people.accounts import NAME_HOLD_DAYS, AccountBook
from .people.passkeys import PasskeyBook
from .people.standings import Standings
from .tournaments.book import Tournaments
from .tournaments.ready import TournamentReady

__all__ = ["QUICK_LEVELS", "GameService", "Sink"]

QUICK_LEVELS: Final = frozenset({"random", "weak", "normal"})
"""The computer levels that answer in a millisecond or two (measured through the service: a
person's action and every computer's answer to it, saved, in under 3 ms in every variant);
``strong`` searches for longer."""

log = logging.getLogger(__name__)


class Sink(Protocol):
    """Where the service tells the transports what it stored: in the thread that stored it, right
    after the save.  Nothing else publishes."""

    def changed(self, game_id: str, connected: Collection[int] | None = None) -> None:
        """A game's stored state changed (a transport then reads it:
        :meth:`GameService.state_parts` with ``saved``, from the copy just stored; with
        ``connected``, who has a live socket open as the change's answer read it, not again)."""

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        """A chat message was stored at a game's table, as every socket of it is sent it
        (:meth:`Chat.say`)."""


def _nobody(_game_id: str) -> Collection[int]:
    return ()


class _Nowhere:
    """A sink that tells nobody (a service without transports: tests, the command line)."""

    def changed(self, game_id: str, connected: Collection[int] | None = None) -> None:
        return None

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        return None


class GameService:
    """Creates, loads, plays and saves games; thread-safe.

    Args:
        storage: where games are saved.
        presence: the seats of a game with a live socket open now, in any server process (by
            default nobody is connected).
        sink: told a game's id once after every change of it is stored (a new game, an
            action, a seat taken or left, a clock started, a rematch, a seat's account
            deleted); nothing else publishes.
        pair_limit: the rated games two accounts may play together in 24 hours
            (:class:`RatingPolicy`).
        players: the factory of the computer players (by default the level's own player;
            tests give one, :func:`~cribbage.app.games.replay.one_player`).
        cache_size: at most this many games in memory (None: no bound but the memory's).
        cache_bytes: the memory the cached games may take (:class:`Repository`).
        name_hold_days: how long a deleted account's name is held (:class:`AccountBook`).
    """

    def __init__(
        self,
        storage: Storage,
        players: Players = make_player,
        cache_size: int | None = None,
        cache_bytes: int = CACHE_BYTES,
        *,
        presence: ConnectedSeats = _nobody,
        sink: Sink | None = None,
        name_hold_days: int = NAME_HOLD_DAYS,
        pair_limit: int = PAIR_LIMIT_GAMES,
    ) -> None:
        self._sink: Sink = _Nowhere() if sink is None else sink
        self.repository = Repository(storage, cache_size, cache_bytes, players)
        self.storage = storage
        self.rating_policy = RatingPolicy(storage, pair_limit)
        self.repository.rating = self.rating_policy.status
        self.clocks = Clocks(self.repository, self.rating_policy)
        self.seating = Seating(self.repository, self.clocks, presence, self.rating_policy)
        self._lobby = Lobby(storage)
        self.watching = Watching(self.repository, presence)
        self.round = Round(self.repository, self.clocks, presence, self.rating_policy)
        self.rematches = Rematches(self.repository, self.clocks, presence)
        self.fanout = Fanout(self.repository, self.watching, presence)
        self.chat = Chat(self.repository, self._sink)
        self.rated = Rated(self.repository, self.rating_policy)
        self.repository.rating_change = self.rated.change
        self.accounts = AccountBook(
            self.repository, lambda game_id: self.sink(game_id), name_hold_days, self.rated.forfeit
        )
        self.standings = Standings(self.accounts)
        self.passkeys = PasskeyBook(self.accounts)
        self.tournaments = Tournaments(self)
        self.tournament_ready = TournamentReady(storage)
        """Entrants told by Web Push when their next game is ready (the transport attaches)."""

    def sink(self, game_id: str, connected: Collection[int] | None = None) -> None:
        """A game's change is stored: the transports are told (with ``connected``, who is
        connected as the change's answer read it), then a game it finished is rated
        (:meth:`Rated.after_save`, which never raises; the transports are told again, its
        state now carrying the rating changes) and, a game of a match, followed by the match's
        next game (:meth:`follow_match`); a tournament's game over decides its table
        (:meth:`Tournaments.game_changed`)."""
        live = self.repository.peek(game_id)
        if live is not None and live.options.rated:
            self.rating_policy.after_save(live)  # counted once everyone acted, before it is shown
        self._sink.changed(game_id, connected)
        if self.rated.after_save(game_id):
            self._sink.changed(game_id)
        self.follow_match(game_id)
        self.tournaments.game_changed(game_id)

    def sweep_ratings(self) -> list[str]:
        """:meth:`Rated.sweep`: the games left due settled; the transports are told of each (a
        game recorded now shows its rating changes)."""
        handled = self.rated.sweep()
        for game_id in handled:
            self._sink.changed(game_id)
        return handled

    def follow_match(self, game_id: str) -> None:
        """Make the next game of a match once one of its games is over
        (:meth:`Rematches.next_in_match`; every page of the game follows it as a rematch).
        Never raises: a failure is logged, and any seat may still ask for the rematch, which
        goes on with the match."""
        live = self.repository.peek(game_id)
        if live is None or not live.over or live.options.match is None or live.rematch:
            return
        try:
            found = self.rematches.next_in_match(game_id)
        except Exception:
            log.exception("the next game of the match of game %s was not made", game_id)
            return
        if found is not None:
            self.sink(game_id)
            self.sink(found)

    # ------------------------------------------------------------------ the clock and the cache

    @property
    def now(self) -> Callable[[], float]:
        """The time (seconds since the epoch) the turn clocks are read with; tests set their own."""
        return self.clocks.now

    @now.setter
    def now(self, now: Callable[[], float]) -> None:
        self.clocks.now = now

    @property
    def cached_bytes(self) -> int:
        """The estimated memory of the cached games."""
        return self.repository.cached_bytes

    def cached(self) -> list[str]:
        """The ids of the cached games, least recently used first."""
        return self.repository.cached()

    def quick_to_act(self, game_id: str) -> bool:
        """Whether an action in the game is answered at once: the game is cached here, and its
        computers (if any) are of :data:`QUICK_LEVELS`, played by their own level's player.  A
        guess, read without the game's lock (a computer may take a seat meanwhile): an
        interface uses it to choose where to run :meth:`act`, never to refuse one."""
        live = self.repository.peek(game_id)
        if live is None:
            return False
        quick = QUICK_LEVELS if self.repository.players is make_player else frozenset()
        return all(seat.kind == "human" or seat.level in quick for seat in live.seats)

    # ------------------------------------------------------------------ requests

    # Every request that returns from a stored change tells the sink, once it is stored (a
    # refusal raises before): the one place the transports learn of changes.  A request made by
    # someone takes them as an :class:`Actor`: a seat's request reads the seat of its token, a
    # new game or a join links the seat it gives to its account.

    def create(
        self,
        options: Options,
        layout: Sequence[SeatSpec | dict[str, Any]] | None = None,
        *,
        actor: Actor = GUEST,
        accounts_names: bool = False,
    ) -> CreatedGame:
        """:meth:`Seating.create`: a new game, stored.  A signed-in ``actor``'s seat 0 is its
        account's (linked to it); only such a table may ask to be rated (people only, in a
        rating pool, :func:`check_rated_table`).

        Raises:
            AppError: ``invalid`` (``field: rated``) for a rated table without an account, and
                :meth:`Seating.create`'s refusals.
        """
        creator = actor.account
        if options.rated:
            if creator is None:
                raise AppError("invalid", "a rated table is created by a signed-in account", field="rated")
            check_rated_table(options, layout)
        created = self.seating.create(options, layout, accounts_names=accounts_names)
        self.sink(created["id"])
        if creator is not None:
            self.accounts.link(creator, [created["token"]])
        return created

    def upload(self, options: Options, record: object, *, actor: Actor = GUEST) -> dict[str, Any]:
        """:func:`~.games.uploads.uploaded_game`: a finished game played in the browser, kept;
        a signed-in ``actor``'s seat is its account's (its games list it)."""
        kept = uploaded_game(self.storage, options, record, self.repository.players)
        if actor.account is not None:
            self.accounts.link(actor.account, [kept["token"]])
        return kept

    def join(
        self,
        code: str,
        name: str,
        *,
        actor: Actor = GUEST,
        account_name: bool = False,
        accept_rating: bool = False,
    ) -> JoinedSeat:
        """:meth:`Seating.join`: a seat taken, stored.  A signed-in ``actor``'s seat is its
        account's (linked to it), and only an account may ``accept_rating`` of a rated table (a
        guest plays it unrated)."""
        account = actor.account
        accept = accept_rating and account is not None
        joined = self.seating.join(code, name, account_name=account_name, accept_rating=accept)
        self.sink(joined["id"])
        if account is not None:
            self.accounts.link(account, [joined["token"]])
        return joined

    def leave(self, game_id: str, actor: Actor) -> LeftSeat:
        """:meth:`Seating.leave`: a seat left (open, or a computer's), stored."""
        left = self.seating.leave(game_id, actor.token)
        self.sink(game_id)
        return left

    def seat_computer(self, game_id: str, actor: Actor, seat: object, level: object) -> State:
        """:meth:`Seating.seat_computer`: a seat given to a computer, stored."""
        state = self.seating.seat_computer(game_id, actor.token, seat, level)
        self.sink(game_id)
        return state

    def watch_link(self, game_id: str, actor: Actor) -> WatchLink:
        return self.watching.watch_link(game_id, actor.token)

    def watch(self, code: str) -> State:
        return self.watching.watch(code)

    def lobby(self, limit: int = 100) -> LobbyTables:
        return self._lobby.lobby(limit)

    def invitation(self, code: str) -> Invitation:
        return self._lobby.invitation(code)

    def state(self, game_id: str, actor: Actor) -> State:
        return self.round.state(game_id, actor.token)

    def state_parts(
        self,
        game_id: str,
        tokens: Collection[str],
        spectators: bool = False,
        *,
        saved: bool = False,
        connected: Collection[int] | None = None,
    ) -> StateParts:
        """:meth:`Fanout.parts`: the parts of the states of several seats (and the spectators) at
        once, for their live sockets."""
        return self.fanout.parts(game_id, tokens, spectators, saved=saved, connected=connected)

    def act(self, game_id: str, actor: Actor, data: dict[str, Any], *, answer: bool = True) -> State | Acted:
        """:meth:`Round.act`: an action, stored; the seat's ``STATE`` (without ``answer``, only
        the version: a live socket's state comes with the others').  Who is connected is read
        once, for its answer and its live sockets' states."""
        connected = self.round.presence(game_id) if answer else None
        state = self.round.act(game_id, actor.token, data, connected=connected)
        self.sink(game_id, connected)
        return state

    def seen(self, game_id: str, actor: Actor, version: object) -> SeenClock:
        """:meth:`Round.seen`: stored when it started the turn clock."""
        seen = self.round.seen(game_id, actor.token, version)
        if seen["started"]:
            self.sink(game_id)
        return seen

    def hint(self, game_id: str, actor: Actor) -> Advice:
        return self.round.hint(game_id, actor.token)

    def record(self, game_id: str, actor: Actor) -> GameRecord:
        return self.round.record(game_id, actor.token)

    def rematch(self, game_id: str, actor: Actor) -> Rematched:
        """:meth:`Rematches.rematch`: the new game, and the old one's link to it, stored by the
        first call (every page of the old game hears where to go)."""
        again, created = self.rematches.rematch(game_id, actor.token)
        if created:
            self.sink(game_id)
            self.sink(again["id"])
        return again

    def expire_due(self) -> list[str]:
        """:meth:`Clocks.expire_due`: each game moved, stored."""
        moved = self.clocks.expire_due()
        for game_id in moved:
            self.sink(game_id)
        return moved

    def expire(self, game_id: str) -> bool:
        """:meth:`Clocks.expire`: stored when it moved the game."""
        moved = self.clocks.expire(game_id)
        if moved:
            self.sink(game_id)
        return moved

    def prune(
        self, *, keep_days: int, keep_finished_days: int, now: datetime | None = None, dry_run: bool = False
    ) -> Pruned:
        """Remove the old games from storage (:meth:`~cribbage.storage.pruning.Pruning.prune`) and
        from this process's cache; another process's cached copy answers ``not_found`` at its next
        request.  The expired account sessions go too, and the names held no longer."""
        pruned = self.storage.pruning.prune(
            keep_days=keep_days, keep_finished_days=keep_finished_days, now=now, dry_run=dry_run
        )
        self.repository.prune(pruned)
        if not dry_run:
            self.storage.accounts.end_expired_sessions()
            self.storage.accounts.hold_names_expired()
        return pruned

    def close(self) -> None:
        self.storage.close()
