"""The application tests' helpers, each once: a :class:`GameService` on a database of its own,
its computers fast and its clock moved by hand; a table of people, every seat taken; a seat's
first legal action; a game played out.  They call only the service's public requests, as an
interface does (``docs/api.md``), so that they hold however the application is arranged inside.
The fixtures built on them (``time``, ``online``, ``service``) are in this folder's conftest.py.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple

from cribbage.app import Actor, AppError, GameService, Options, SeatSpec, one_player
from cribbage.engine.templates import choices
from cribbage.storage import Storage

COMPUTER = "weak"
"""The player of every computer seat (whatever its level): it answers in a millisecond."""

PERSON = SeatSpec("human")

Presence = Callable[[str], Collection[int]]
"""The seats of a game with a live socket open (the service's ``presence``)."""


def nobody(_game_id: str) -> Collection[int]:
    """Nobody is online (no live socket open)."""
    return ()


def make_service(url: str, now: Callable[[], float], presence: Presence = nobody) -> GameService:
    """A service (one server process) on the database at ``url``, reading its turn clocks with
    ``now``; ``presence`` says who is online."""
    service = GameService(Storage(url), players=one_player(COMPUTER), presence=presence)
    service.now = now
    return service


class Table(NamedTuple):
    """A table whose people's seats are all taken."""

    id: str
    tokens: list[str | None]
    """Each seat's token; None at a computer's seat."""
    codes: list[str]
    """The invitations' codes, by which the people took their seats (seat 1's first)."""

    def token(self, seat: int) -> str:
        """The token of a person's seat."""
        token = self.tokens[seat]
        assert token is not None, f"seat {seat} is a computer's"
        return token


def table(service: GameService, seats: Sequence[SeatSpec] = (PERSON, PERSON), **options: Any) -> Table:
    """A new table of ``seats`` (two people by default) with ``options``, every person's seat
    taken by its invitation (seat N by ``PN``)."""
    new_game = service.create(Options(**options), list(seats))
    token, state = new_game["token"], new_game["state"]
    tokens: list[str | None] = [token] + [None] * (len(seats) - 1)
    codes = []
    for invite in state["invites"]:
        joined = service.join(invite["code"], f"P{invite['seat']}")
        tokens[joined["seat"]] = joined["token"]
        codes.append(invite["code"])
    return Table(state["id"], tokens, codes)


def people(found: Table) -> list[str]:
    """The tokens of a table's people, by seat."""
    return [token for token in found.tokens if token is not None]


def first_action(state: dict[str, Any]) -> dict[str, Any]:
    """The first action the state's templates allow (the engine's first legal action), at the
    state's version."""
    return {**next(choices(state["actions"][0])), "version": state["version"]}


def act_first(service: GameService, game_id: str, token: str) -> dict[str, Any]:
    """The token's seat takes its first legal action; its ``STATE`` after it."""
    return service.act(game_id, Actor(token), first_action(service.state(game_id, Actor(token))))


def play_until(service: GameService, found: Table, seat: int) -> dict[str, Any]:
    """The people take their first legal actions until ``seat`` is to act (it may be at once)
    or the game is over: the state then, as the first person sees it."""
    anyone = people(found)[0]
    for _ in range(100):
        state = service.state(found.id, Actor(anyone))
        if state["view"]["to_act"] == seat or state["over"]:
            return state
        token = found.tokens[state["view"]["to_act"]]
        assert token is not None, "a computer's turn is played at once"
        act_first(service, found.id, token)
    raise AssertionError(f"seat {seat} was never to act")


def play_out(service: GameService, game_id: str, tokens: Sequence[str | None]) -> dict[str, Any]:
    """Every person takes their first legal action until the game is over: its last state, as
    the first person sees it."""
    anyone = next(token for token in tokens if token)
    for _ in range(3000):
        state = service.state(game_id, Actor(anyone))
        if state["over"]:
            return state
        token = tokens[state["view"]["to_act"]]
        assert token is not None, "a computer's turn is played at once"
        act_first(service, game_id, token)
    raise AssertionError("the game did not end")


def refusal(call: Callable[..., object], *args: object) -> AppError:
    """The :class:`AppError` that ``call(*args)`` must raise."""
    try:
        call(*args)
    except AppError as refused:
        return refused
    raise AssertionError(f"{getattr(call, '__name__', call)}{args} was not refused")


def series(first_to: int, players: int = 2) -> Any:
    """The series of a match's first game (as "Play now" makes it): the ``match`` option of a
    game, from its JSON."""
    return Options.from_json({"match": {"first_to": first_to, "number": 1, "wins": [0] * players}}).match
