"""A round of play: a seat's state, its actions, its page's word that it shows the decision,
hints, and the record of a finished game."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from ..engine.errors import CribbageError
from ..engine.game import Action, Muggins, Pass, Phase, SeatView, action_from_json
from ..table.seating import HUMAN
from .clocks import Clocks
from .errors import AppError, engine_error
from .repository import Repository

__all__ = ["Round", "hint_for", "parse_action"]

Presence = Callable[[str], Collection[int]]
"""The seats of a game with a live socket open now, in any server process."""

_HUMAN_ACTIONS: Final = ("discard", "play", "count", "muggins", "pass")


def parse_action(data: dict[str, Any], seat: int = HUMAN) -> Action:
    """The action of ``seat`` from its JSON (without ``version``): :class:`AppError` ``invalid``
    if malformed, ``forbidden`` if it names another seat."""
    kind = data.get("type")
    if kind not in _HUMAN_ACTIONS:
        raise AppError(
            "invalid", f"unknown action type {kind!r} (known: {', '.join(_HUMAN_ACTIONS)})", field="type"
        )
    given = data.get("seat", seat)
    if type(given) is not int:
        raise AppError("invalid", f"seat must be an integer, not {given!r}", field="seat")
    if given != seat:
        raise AppError("forbidden", f"your token plays seat {seat}, not seat {given}", seat=seat)
    try:
        return action_from_json({**data, "seat": seat})
    except CribbageError as exc:
        raise AppError("invalid", str(exc), field="action") from None


class _Stale(Exception):
    """An action tried on a process's copy of a game needs the stored game read afresh."""


class Round:
    """The requests of a seat at its table: state, act, seen, hint, record."""

    def __init__(self, repository: Repository, clocks: Clocks, presence: Presence) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.clocks = clocks
        self.presence = presence

    def state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The ``STATE`` of the token's seat."""
        session, seat = self.repository.session(game_id, token)
        connected = self.presence(game_id)
        with session.lock:
            self.repository.latest(session, token, seat)
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
            AppError: ``invalid`` for a malformed action, ``forbidden`` for one naming another
                seat, ``table_waiting`` while the table waits for people to join, ``stale`` for a
                stale version, ``illegal.*`` for one the engine refuses (another seat's turn, an
                illegal card); in each case nothing changes.
        """
        try:
            return self._act(game_id, token, data, fresh=False)
        except _Stale:
            return self._act(game_id, token, data, fresh=True)

    def _act(self, game_id: str, token: str | None, data: dict[str, Any], *, fresh: bool) -> dict[str, Any]:
        """:meth:`act`; unless ``fresh``, on the copy held, raising :class:`_Stale` for
        whatever the latest stored game might decide otherwise."""
        session, seat = self.repository.session(game_id, token)
        body = dict(data)
        version = body.pop("version", None)
        action = parse_action(body, seat)
        connected = self.presence(game_id)
        with session.lock:
            # Open seats are read each time (people join elsewhere); a copy another request's
            # refused action left unsaved is read again, never acted on.
            if fresh or session.waiting or session.unsaved:
                fresh = True
                self.repository.latest(session, token, seat)
            waiting = session.waiting
            if waiting:
                seats_text = ("seat " if len(waiting) == 1 else "seats ") + ", ".join(map(str, waiting))
                raise AppError(
                    "table_waiting",
                    f"waiting for {seats_text} to be taken: no action until every person has joined",
                    seats=waiting,
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
                raise AppError(
                    "stale", f"stale version {version}: the game is at version {before}{why}", version=before
                )
            try:
                session.act(action)
            except CribbageError as exc:
                if session.version != before:  # a computer player failed after the person's action
                    self.repository.forget(session)
                    raise RuntimeError(f"a computer player failed: {exc}") from exc
                if not fresh:
                    raise _Stale from None
                raise engine_error(exc) from None
            except BaseException:
                self.repository.forget(session)
                raise
            clock = None
            try:
                if session.options.clock is not None:  # the seat acted: it is back, the next turn runs
                    clock = (self.clocks.deadline_after(session, seat, turn, before), session.away - {seat})
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
                self.repository.forget(session)
                raise
            if not saved:
                self.repository.forget(session)
                if not fresh:
                    raise _Stale
                raise AppError(
                    "stale", "the game was changed by another request: read it again", version=session.version
                )
            if clock is not None:
                session.deadline, session.away = clock
            self.repository.resize(session)
            return session.to_json(seat, connected)

    def seen(self, game_id: str, token: str | None, version: object) -> dict[str, Any]:
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
        session, seat = self.repository.session(game_id, token)
        with session.lock:
            self.repository.latest(session, token, seat)
            clock, deadline = session.options.clock, session.deadline
            started = False
            if (
                clock is not None
                and deadline is not None
                and version == session.version
                and session.table.waiting_for == seat
                and not session.waiting
            ):
                running = self.clocks.now() + clock
                if running < deadline and self.storage.start_clock(game_id, version, running):
                    session.deadline, started = running, True
            return {"started": started, **session.clock_json()}

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The JSON record of a finished game (409 before the end)."""
        session, seat = self.repository.session(game_id, token)
        with session.lock:
            self.repository.latest(session, token, seat)
            if not session.over:
                raise AppError("not_over", "the record is available once the game is over")
            return session.game.to_json()

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's advice for the discard or play of the token's seat, best first."""
        session, seat = self.repository.session(game_id, token)
        with session.lock:
            self.repository.latest(session, token, seat)
            waiting = bool(session.waiting)
            view = session.game.state.view(seat)
        if waiting or not view.legal:
            raise AppError("no_hint", "no hint now: it is not your turn")
        if view.phase not in (Phase.DISCARD, Phase.PLAY) or isinstance(view.legal[0], (Muggins, Pass)):
            raise AppError("no_hint", "hints are given for discards and plays")
        return hint_for(view)


def hint_for(view: SeatView) -> dict[str, Any]:
    """The advice for a seat's discard or play (see ``docs/api.md``), from its view only: the
    AI's own :class:`~cribbage.ai.advice.Hint` as JSON."""
    from ..ai.advice import hint  # the advice is loaded with the first hint

    return hint(view).to_json()
