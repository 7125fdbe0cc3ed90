"""What :class:`~cribbage.app.GameService`'s requests answer, as types: the JSON of ``docs/api.md``.

Each is a :class:`~typing.TypedDict`, a plain dict at run time: the interfaces send it as it is
(the web's answer models, :mod:`cribbage.web.answers`, state the same shapes for
``/openapi.json``).  A key that is sometimes left out is :data:`~typing.NotRequired`; a key
always sent, even as null, is required.  The parts the engine writes (a seat's view, the events,
the options, the result, the action templates) are its own JSON, kept as plain dicts here.
"""

# No ``from __future__ import annotations``: a typed dict's NotRequired keys are known at run
# time only from evaluated annotations (``__required_keys__``, which the tests compare with the
# web's answer models).
from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "Acted",
    "Advice",
    "ClockShown",
    "CreatedGame",
    "GameRecord",
    "Invitation",
    "JoinedSeat",
    "LeftSeat",
    "ListedTable",
    "LobbyTables",
    "Rematched",
    "RunningClock",
    "SeatInvite",
    "SeatShown",
    "SeenClock",
    "State",
    "TableCounting",
    "TableFacts",
    "WatchLink",
]

# ------------------------------------------------------------------ the parts of a STATE


class SeatShown(TypedDict):
    """Who sits at a seat, as every seat, the lobby and an invitation see it
    (:func:`~.state.seats_json`)."""

    seat: int
    kind: str
    level: NotRequired[str | None]
    """A computer's level."""
    name: NotRequired[str]
    """A taken seat's name."""
    taken: bool
    code: NotRequired[str]
    """An open seat's invitation code, in the lobby."""


class SeatInvite(TypedDict):
    """An open seat's invitation (:meth:`~.live_game.LiveGame.invites`)."""

    seat: int
    code: str
    url: str


class RunningClock(TypedDict):
    """The running turn clock: whose turn runs out, and when (seconds since the epoch)."""

    seat: int
    deadline: float


class ClockShown(TypedDict):
    """The turn clock as every seat sees it (:meth:`~.live_game.LiveGame.clock_json`)."""

    turn_clock: RunningClock | None
    away: list[int]


class State(TypedDict):
    """A ``STATE``: a seat's, or a spectator's (``"spectator": true``, ``"seat": null``, and
    ``rematch_watch``), docs/api.md "Read the state" and "Watch"."""

    id: str
    version: int
    seat: int | None
    spectator: NotRequired[Literal[True]]
    names: list[str]
    options: dict[str, Any]
    view: dict[str, Any]
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    score_history: list[dict[str, Any]]
    breakdown: list[dict[str, int]]
    over: bool
    result: dict[str, Any] | None
    seats: list[SeatShown]
    people: bool
    waiting_for: list[int]
    invites: list[SeatInvite]
    connected: list[int]
    turn_clock: RunningClock | None
    away: list[int]
    arrival: float | None
    match: dict[str, Any] | None
    rating: str | None
    rating_change: dict[str, Any] | None
    rematch: str | None
    rematch_watch: NotRequired[str | None]


class Acted(TypedDict):
    """An action's answer without its state (an action over a live socket): the version now."""

    version: int


# ------------------------------------------------------------------ seats and tables


class CreatedGame(TypedDict):
    """A new game (``POST /api/games``): its id, the creator's token (seat 0), its ``STATE`` and
    the open seats' invitations."""

    id: str
    token: str
    state: State
    invites: list[SeatInvite]


class JoinedSeat(TypedDict):
    """A seat taken (``POST /api/join``): the game, the seat's own token, its number and its
    ``STATE``."""

    id: str
    token: str
    seat: int
    state: State


class LeftSeat(TypedDict):
    """A seat left: its number and the level of the computer now in it (None: it waits open)."""

    seat: int
    computer: str | None


class Rematched(TypedDict):
    """The game played again: its id, the asking seat in it and its ``STATE``."""

    id: str
    seat: int
    state: State


class SeenClock(ClockShown):
    """The answer to ``seen``: whether it started the turn clock now, and the clock."""

    started: bool


class WatchLink(TypedDict):
    """A table's watch code and the page's address for it."""

    code: str
    url: str


class TableCounting(TypedDict):
    """A table's counting, deal and clock, as the lobby and an invitation show them."""

    manual: bool
    muggins: bool
    muggins_play: bool
    dealer: str
    skunk: str
    clock: int | None
    takeover: str | None
    rated: bool


class TableFacts(TypedDict):
    """A table as the lobby and an invitation show it (:func:`~.state.table_facts`)."""

    variant: str
    players: int
    target: int
    options: TableCounting
    seats: list[SeatShown]


class ListedTable(TableFacts):
    """A public table of the lobby: the code of its first open seat, and when it was listed."""

    code: str
    created: str


class LobbyTables(TypedDict):
    """The lobby (``GET /api/lobby``): the public tables with an open seat, newest first."""

    tables: list[ListedTable]


class Invitation(TableFacts):
    """What an invitation opens (``GET /api/join/{code}``): the seat it takes, and the table."""

    seat: int


# ------------------------------------------------------------------ advice and the record


class Advice(TypedDict):
    """A hint (``GET .../hint``): the kind of decision, what ranks the options, and the options
    best first (:meth:`cribbage.ai.advice.Hint.to_json`)."""

    kind: Literal["discard", "play"]
    ranked_by: Literal["total", "win", "value"]
    options: list[dict[str, Any]]


class GameRecord(TypedDict):
    """The JSON record of a game (docs/api.md, "The record"; :meth:`cribbage.engine.record.Game.to_json`)."""

    format: str
    version: int
    rules: dict[str, Any]
    seed: int | None
    dealer: int | None
    names: list[str]
    seats: NotRequired[list[dict[str, Any] | None]]
    actions: NotRequired[list[dict[str, Any]]]
    result: NotRequired[dict[str, Any]]
