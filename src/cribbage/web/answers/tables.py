"""The answers about tables: a new game, joining, the lobby and an invitation, leaving, playing
again, the turn clock's ``seen`` and the watch link (docs/api.md, "Tables")."""

from __future__ import annotations

from pydantic import Field

from .base import Answer, Dealer, Level
from .games import Invite, SeatInfo, StateAnswer, TurnClock

__all__ = [
    "InvitationAnswer",
    "JoinAnswer",
    "LeaveAnswer",
    "LobbyAnswer",
    "NewGameAnswer",
    "RematchAnswer",
    "SeenAnswer",
    "WatchLinkAnswer",
]


class NewGameAnswer(Answer):
    id: str
    token: str = Field(description="seat 0's secret: send it as Authorization: Bearer TOKEN")
    state: StateAnswer
    invites: list[Invite]


class UploadAnswer(Answer):
    id: str
    token: str = Field(description="the person's seat's new secret: send it as Authorization: Bearer TOKEN")
    seat: int = Field(description="the person's seat: 0")


class JoinAnswer(Answer):
    id: str
    token: str = Field(description="the seat's own secret")
    seat: int
    state: StateAnswer


class TableOptions(Answer):
    """A table's counting, deal and clock, as the lobby and an invitation show them."""

    manual: bool
    muggins: bool
    muggins_play: bool
    dealer: Dealer
    skunk: str
    clock: int | None
    takeover: Level | None
    rated: bool = Field(description="the table asks to be rated: join with rated true to accept")


class LobbyTable(Answer):
    code: str
    variant: str
    players: int
    target: int
    options: TableOptions
    seats: list[SeatInfo]
    created: str


class InvitationAnswer(Answer):
    """What an invitation code opens, shown before joining: the seat it takes and the table."""

    seat: int
    variant: str
    players: int
    target: int
    options: TableOptions
    seats: list[SeatInfo]


class LobbyAnswer(Answer):
    tables: list[LobbyTable]


class SeenAnswer(Answer):
    """Whether your turn clock started now, and the running clock as every seat sees it."""

    started: bool = Field(description="this request started your turn clock")
    turn_clock: TurnClock | None
    away: list[int]


class LeaveAnswer(Answer):
    """The seat left, and the level of the computer now in it (null: the seat waits open)."""

    seat: int
    computer: Level | None


class RematchAnswer(Answer):
    """The game played again: its id, your seat in it and its state."""

    id: str
    seat: int
    state: StateAnswer


class WatchLinkAnswer(Answer):
    """The table's watch code and the page's address for it."""

    code: str
    url: str
