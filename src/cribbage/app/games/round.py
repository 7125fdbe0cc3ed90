"""A round of play: a seat's state, its actions, its page's word that it shows the decision,
hints, and the record of a finished game."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final, cast

from ...engine.actions import Action
from ...engine.errors import CribbageError
from ...engine.view import SeatView
from ...table.person import PERSON_ACTIONS, advice_for, check_version, person_action
from ...table.seating import HUMAN
from ..errors import AppError, engine_error
from .clocks import Clocks
from .live_game import LiveGame
from .rating_policy import RatingPolicy
from .repository import Repository
from .results import Acted, Advice, GameRecord, SeenClock, State

__all__ = ["ACTION_TYPES", "Round", "hint_for", "parse_action"]

ConnectedSeats = Callable[[str], Collection[int]]
"""The seats of a game with a live socket open now, in any server process."""

ACTION_TYPES: Final = PERSON_ACTIONS
"""The kinds of a person's action (the API's body names them too: its schema's enum)."""


def parse_action(data: dict[str, Any], seat: int = HUMAN) -> Action:
    """The action of ``seat`` from its JSON (without ``version``): :class:`AppError` ``invalid``
    if malformed, ``forbidden`` if it names another seat (:func:`~cribbage.table.person.person_action`)."""
    try:
        return person_action(data, seat)
    except CribbageError as exc:
        raise engine_error(exc) from None


def _check_turn(live: LiveGame, version: object, action: Action) -> None:
    """Refuse an action while the table waits for people, or sent at a stale ``version``
    (saying why it would be refused now too, if it would: a muggins call beaten)."""
    waiting = live.waiting
    if waiting:
        seats_text = ("seat " if len(waiting) == 1 else "seats ") + ", ".join(map(str, waiting))
        raise AppError(
            "table_waiting",
            f"waiting for {seats_text} to be taken: no action until every person has joined",
            seats=waiting,
        )
    try:
        check_version(live.game.state, live.version, version, action)
    except CribbageError as exc:
        raise engine_error(exc) from None


class Round:
    """The requests of a seat at its table: state, act, seen, hint, record."""

    def __init__(
        self,
        repository: Repository,
        clocks: Clocks,
        presence: ConnectedSeats,
        policy: RatingPolicy | None = None,
    ) -> None:
        self.repository = repository
        self.policy = policy or RatingPolicy(repository.storage)
        """Counts a rated game once every seat acted (:meth:`RatingPolicy.after_save`), before
        the action's answer shows it."""
        self.storage = repository.storage
        self.clocks = clocks
        self.presence = presence

    def state(self, game_id: str, token: str | None) -> State:
        """The ``STATE`` of the token's seat."""
        connected = self.presence(game_id)
        with self.repository.seated(game_id, token) as (live, seat):
            return live.to_json(seat, connected)

    def act(
        self,
        game_id: str,
        token: str | None,
        data: dict[str, Any],
        *,
        connected: Collection[int] | None = None,
    ) -> State | Acted:
        """Apply the action of the token's seat (its JSON, with an optional ``version``);
        returns that seat's ``STATE``, with ``connected`` the seats with a live socket open
        (without it, only ``{"version": N}``: an action sent over a live socket, whose state
        comes with every other socket's).

        One path: the game at its stored version, under its lock; the action, then the
        computers' answers; the save, before the lock is released.  A save refused (another
        process moved first) or failed leaves nothing behind: the changed copy is retired and
        the next request reads the stored game (:meth:`Repository.save`).

        Raises:
            AppError: ``invalid`` for a malformed action, ``forbidden`` for one naming another
                seat, ``table_waiting`` while the table waits for people to join, ``stale`` for a
                stale version or a save refused, ``illegal.*`` for one the engine refuses
                (another seat's turn, an illegal card); in each case nothing changes.
        """
        body = dict(data)
        version = body.pop("version", None)
        with self.repository.seated(game_id, token) as (live, seat):
            action = parse_action(body, seat)
            _check_turn(live, version, action)
            before, turn = live.version, live.table.waiting_for
            try:
                live.act(action)
            except CribbageError as exc:
                if live.version == before:  # refused by the rules: nothing changed
                    raise engine_error(exc) from None
                self.repository.retire(live)  # a computer player failed after the action
                raise RuntimeError(f"a computer player failed: {exc}") from exc
            except BaseException:
                self.repository.retire(live)
                raise
            clock = None
            if live.options.clock is not None:  # the seat acted: it is back, the next turn runs
                try:
                    clock = (self.clocks.deadline_after(live, seat, turn, before), live.away - {seat})
                except BaseException:
                    self.repository.retire(live)
                    raise
            if not self.repository.save(live, before, clock):
                raise AppError("stale", "the game was changed by another request: read it again")
            if live.options.rated:
                self.policy.after_save(live)
            return {"version": live.version} if connected is None else live.to_json(seat, connected)

    def seen(self, game_id: str, token: str | None, version: object) -> SeenClock:
        """The token's page shows its seat's decision of ``version`` (after replaying what
        happened since, and the show): if the turn clock runs for that seat at that version, it
        runs from now (its deadline brought forward to now plus the clock; never put back, so
        saying it again changes nothing).  Returns ``{"started", "turn_clock", "away"}``:
        whether this moved the deadline, and the clock as every seat sees it.

        Raises:
            AppError: ``invalid`` for a version that is not a whole number, ``unauthorized``
                without a right token.
        """
        if type(version) is not int or version < 0:
            raise AppError("invalid", f"version must be a whole number, not {version!r}", field="version")
        with self.repository.seated(game_id, token) as (live, seat):
            clock, deadline = live.options.clock, live.deadline
            started = False
            if (
                clock is not None
                and deadline is not None
                and version == live.version
                and live.table.waiting_for == seat
                and not live.waiting
            ):
                running = self.clocks.now() + clock
                if running < deadline and self.storage.clocks.start(game_id, version, running):
                    live.deadline, started = running, True
            return {"started": started, **live.clock_json()}

    def record(self, game_id: str, token: str | None) -> GameRecord:
        """The JSON record of a finished game (``not_over`` before the end)."""
        with self.repository.seated(game_id, token) as (live, _seat):
            if not live.over:
                raise AppError("not_over", "the record is available once the game is over")
            return cast(GameRecord, live.game.to_json())  # the engine's JSON, typed

    def hint(self, game_id: str, token: str | None) -> Advice:
        """The computer's advice for the discard or play of the token's seat, best first."""
        with self.repository.seated(game_id, token) as (live, seat):
            waiting = bool(live.waiting)
            view = live.game.state.view(seat)
        if waiting:
            raise AppError("no_hint", "no hint now: it is not your turn")
        return hint_for(view)


def hint_for(view: SeatView) -> Advice:
    """The advice for a seat's discard or play (see ``docs/api.md``), from its view only
    (:func:`~cribbage.table.person.advice_for`): ``no_hint`` when it has none to make."""
    try:
        return cast(Advice, advice_for(view))  # the AI's JSON, typed
    except CribbageError as exc:
        raise engine_error(exc) from None
