"""One way in for every command of a game, from an HTTP route or a live socket's message alike
(issue 43): the guard, the abuse limits, the action's check and the hand-off to a thread are
here once, and :mod:`.routers` and :mod:`.live` only read their requests and send the answers.

:class:`Commands` is the web's side of the application (:class:`~cribbage.app.GameService`).  A
command either answers or raises: an :class:`~cribbage.app.AppError` (a limit's too:
:class:`~.ratelimits.LimitError`), whose code names the problem, or one of
:data:`~.errors.DATABASE_ERRORS` when the database does not answer; HTTP turns them into a
status (:mod:`.handlers`), the socket into an error message (:mod:`.socket_messages`).

Where a call runs: on the event loop when nothing it does can wait on a network or think for
long (``local``: an SQLite database and the in-process broker; for an action, no computer at
the table but of a level that answers at once, :meth:`~cribbage.app.GameService.quick_to_act`),
else in a worker thread (:class:`~.threads.Threads`, the cheapest hand-off there is: a
benchmark, ``bench/bench_cost.py``, measures it).  The limits are counted on the event loop when
they are counted in this process's memory (or off), in a thread when they may ask Redis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from pydantic import ValidationError

from ..app import Actor, AppError, GameService
from ..app.games.results import (
    Acted,
    Advice,
    GameRecord,
    LeftSeat,
    Rematched,
    SeenClock,
    State,
    WatchLink,
)
from .hardening import good_game_id
from .models import ActionBody
from .ratelimits import RateLimits, token_key
from .threads import Threads

__all__ = ["WRONG_TOKEN_CODES", "Commands", "check_action"]

T = TypeVar("T")

WRONG_TOKEN_CODES: Final = frozenset({"unauthorized", "no_watch_code"})
"""The refusals that count against the client's address as a guess (a wrong seat token or
watch code): too many, and the address is refused before its next one is looked at."""


def check_action(action: object) -> dict[str, Any]:
    """An action as the application takes it: the body of ``POST .../actions`` (read by FastAPI
    into an :class:`~.models.ActionBody`), or a socket's ``action``, checked by the same model.

    Raises:
        AppError: ``bad_action`` naming the first problem (never repeating the input).
    """
    if isinstance(action, ActionBody):
        return action.model_dump(exclude_none=True)
    if not isinstance(action, dict):
        raise AppError("bad_action", "'action' must be an object", field="action")
    try:
        checked = ActionBody.model_validate(action)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "extra_forbidden":  # its name is the client's: not repeated
            raise AppError("bad_action", "action: an unknown field", field="action") from None
        where = ".".join(str(part) for part in ("action", *first["loc"]))
        raise AppError("bad_action", f"{where}: {first['msg']}", field=where) from None
    return checked.model_dump(exclude_none=True)


def _writer(actor: Actor) -> str:
    """The token of the seat a chat message or report comes from: a spectator (no token) may
    read, never write."""
    if not actor.token:
        raise AppError("chat.spectator", "a spectator may read the chat, not write")
    return actor.token


class Commands:
    """The commands of a game's seats and spectators, each guarded, limited and run where it
    costs least.  ``local``: the service reads and stores all in this process."""

    def __init__(self, service: GameService, limits: RateLimits, *, local: bool = False) -> None:
        self.service = service
        self.limits = limits
        self.local = local
        self.threads = Threads()

    # ------------------------------------------------------------ where a call runs

    async def run(self, call: Callable[..., T], *args: Any, quick: bool = True) -> T:
        """``call(*args)``: on the event loop when the application keeps all it reads in this
        process and the call is ``quick`` (no computer searches in it), else in a thread."""
        if quick and self.local:
            return call(*args)
        return await self.threads.run(call, *args)

    # ------------------------------------------------------------ the limits

    async def count(self, name: str, key: str) -> None:
        """Count one request of ``key`` against the limit ``name`` (:meth:`RateLimits.hit`)."""
        await self._limit(self.limits.hit, name, key)

    async def refuse_over(self, name: str, key: str) -> None:
        """Refuse ``key`` if it is over the limit ``name`` already, counting nothing
        (:meth:`RateLimits.check`)."""
        await self._limit(self.limits.check, name, key)

    async def failed(self, address: str) -> None:
        """A wrong token or watch code from ``address``: one failure against ``wrong_token``."""
        await self._limit(self.limits.failed, "wrong_token", address)

    async def _limit(self, count: Callable[[str, str], None], name: str, key: str) -> None:
        if self.limits.waits(name):  # Redis: it may wait on the network
            await self.threads.run(count, name, key)
        else:  # counted in this process's memory (or not at all)
            count(name, key)

    async def refused(self, exc: AppError, address: str) -> None:
        """A command was refused: a wrong token or watch code counts against the address."""
        if exc.code in WRONG_TOKEN_CODES:
            await self.failed(address)

    async def guard(self, game_id: str, address: str, token: str | None) -> None:
        """Before a seat's command: an id no game can have is not found; an address with too many
        wrong tokens is refused before its token is looked at; then the token's request counts."""
        if not good_game_id(game_id):  # never reaches the database (a NUL byte, say)
            raise AppError("not_found", "no such game")
        await self.refuse_over("wrong_token", address)
        if token:
            await self.count("token", token_key(token))

    # ------------------------------------------------------------ a seat's commands

    async def state(self, game_id: str, actor: Actor) -> State:
        """The state the seat may see."""
        return await self.run(self.service.state, game_id, actor)

    async def act(
        self, game_id: str, actor: Actor, action: ActionBody | object, *, answer: bool = True
    ) -> State | Acted:
        """One action (checked by :func:`check_action`), stored; the computers answer.  Its
        state unless ``answer`` is false (a socket's state comes with the others')."""
        data = check_action(action)
        quick = self.local and self.service.quick_to_act(game_id)  # only asked where it can matter
        return await self.run(self._act, game_id, actor, data, answer, quick=quick)

    def _act(self, game_id: str, actor: Actor, data: dict[str, Any], answer: bool) -> State | Acted:
        return self.service.act(game_id, actor, data, answer=answer)

    async def seen(self, game_id: str, actor: Actor, version: object) -> SeenClock:
        """The page shows the seat's decision of ``version``: its turn clock runs from now."""
        return await self.run(self.service.seen, game_id, actor, version)

    async def leave(self, game_id: str, actor: Actor) -> LeftSeat:
        """The seat leaves the table."""
        return await self.run(self.service.leave, game_id, actor, quick=False)

    async def hint(self, game_id: str, actor: Actor) -> Advice:
        """The computer's advice for the seat's decision."""
        return await self.run(self.service.hint, game_id, actor, quick=False)

    async def record(self, game_id: str, actor: Actor) -> GameRecord:
        """The record of a finished game."""
        return await self.run(self.service.record, game_id, actor, quick=False)

    async def seat_computer(self, game_id: str, actor: Actor, seat: int, level: str) -> State:
        """The creator gives an open seat to a computer."""
        return await self.run(self.service.seat_computer, game_id, actor, seat, level, quick=False)

    async def rematch(self, game_id: str, actor: Actor) -> Rematched:
        """Play again at the same table."""
        return await self.run(self.service.rematch, game_id, actor, quick=False)

    async def watch_link(self, game_id: str, actor: Actor) -> WatchLink:
        """The table's watch link (for its creator)."""
        return await self.run(self.service.watch_link, game_id, actor, quick=False)

    async def chat(self, game_id: str, actor: Actor, text: object, phrase: object) -> dict[str, Any]:
        """What a seat says at its table (counted against the seat's ``chat`` limit); the
        message stored.  A spectator (no token) may read, never write."""
        token = _writer(actor)
        await self.count("chat", token_key(token))
        return await self.run(self._say, game_id, token, text, phrase, quick=False)

    def _say(self, game_id: str, token: str, text: object, phrase: object) -> dict[str, Any]:
        return self.service.chat.say(game_id, token, text=text, phrase=phrase)

    async def report(self, game_id: str, actor: Actor, message: object) -> dict[str, Any]:
        """A seat reports a message of the chat for an operator (its ``report`` limit)."""
        token = _writer(actor)
        await self.count("report", token_key(token))
        return await self.run(self.service.chat.report, game_id, token, message, quick=False)

    # ------------------------------------------------------------ a spectator's

    async def watch(self, code: str) -> State:
        """A spectator's state of a watch code's game (a wrong code is a guess, as a wrong token:
        :meth:`refused`)."""
        return await self.run(self.service.watch, code, quick=False)
