"""What the JSON API answers, as ``/openapi.json`` states it (docs/api.md has every field).

The service builds its answers as plain JSON (dicts, made by the engine's and the service's
``to_json``); these models are the types of what it sends.  They are not checked on every
request (that would cost CPU on every action): the fuzz test (tests/test_web_fuzz.py) checks
every answer against them, and tests/test_web_answers.py checks real states of every phase.
A key that is sometimes left out has a default (``None``); a key always sent, even as null, has
none (the schema lists it as required).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..app import DEALERS, LEVELS, SEAT_KINDS
from ..engine.game import Kind, Phase
from .action_templates import ActionTemplate

__all__ = [
    "Combo",
    "HintAnswer",
    "InvitationAnswer",
    "JoinAnswer",
    "LeaveAnswer",
    "LobbyAnswer",
    "MetaAnswer",
    "NewGameAnswer",
    "PegAnswer",
    "RematchAnswer",
    "SeenAnswer",
    "ShowAnswer",
    "StateAnswer",
    "WatchAnswer",
    "WatchLinkAnswer",
]


def _in(choices: Collection[str]) -> Callable[[str], str]:
    """A check that text is one of ``choices``."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(f"not one of {', '.join(choices)}")
        return value

    return check


Level = Annotated[str, AfterValidator(_in(LEVELS)), Field(json_schema_extra={"enum": list(LEVELS)})]
"""A computer player's level."""
Dealer = Annotated[str, AfterValidator(_in(DEALERS)), Field(json_schema_extra={"enum": list(DEALERS)})]
"""Who deals first: the ``dealer`` option."""
SeatKind = Annotated[
    str, AfterValidator(_in(SEAT_KINDS)), Field(json_schema_extra={"enum": list(SEAT_KINDS)})
]
"""A person or a computer."""
What = Literal["hand", "crib"]


class _Answer(BaseModel):
    """Every answer's part: exactly the keys documented, no other."""

    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- the rules


class RulesFacts(_Answer):
    """``Rules.facts``: a variant's rules and what follows from them."""

    name: str
    players: int
    partnerships: bool
    deal: int
    discard: int
    crib_from_deck: int
    target: int
    one_count: bool
    first_hand_bonus: int
    lowball: bool
    manual_count: bool
    muggins: bool
    muggins_play: bool
    muggins_all_opponents: bool
    overcount_penalty: bool
    skunk: str
    first_dealer: str
    cut_ties: str
    next_dealer: str
    kept: int = Field(description="cards each hand keeps")
    crib_size: int
    sides: int = Field(description="separate scores")
    seat_sides: list[int] = Field(description="each seat's side: the index of its score")
    skunk_line: int | None
    double_skunk_line: int | None


class PoolAnswer(_Answer):
    """A pool of "Play now" (cribbage.app.playnow.matchmaking.POOLS): its name, its tables' size
    and variant."""

    name: str
    players: int
    variant: str


class MetaAnswer(_Answer):
    """``GET /api/meta``: the lists the page offers that the server defines once."""

    levels: list[Level] = Field(description="the computer levels, weakest first (cribbage.players.LEVELS)")
    default_level: Level = Field(description="the level of a game created without one")
    pools: list[PoolAnswer] = Field(description='the pools of "Play now", in the order the page offers them')
    rating_pools: list[str] = Field(
        description="the rating pools, as the leaderboards name them (cribbage.app.people.rating_pools.POOLS)"
    )


# --------------------------------------------------------------------------- a seat's view


class PlayedCard(_Answer):
    seat: int
    card: str


class ShownCards(_Answer):
    seat: int
    what: What
    cards: list[str]


class ShowCount(_Answer):
    seat: int
    what: What


class Claim(_Answer):
    """A stated count awaiting the muggins decision (its true points are in no view)."""

    seat: int = Field(description="the seat that counted")
    what: Literal["play", "hand", "crib"]
    points: int = Field(description="the points stated")
    callers: list[int] = Field(description="the opponents still entitled to call, the next first")


class View(_Answer):
    """``SeatView.to_json``: what the seat may see (a spectator's: seat 0's without its cards)."""

    seat: int | None
    players: int
    variant: str
    target: int
    phase: Phase
    to_act: int
    dealer: int | None
    scores: list[int]
    previous_scores: list[int]
    hand: list[str]
    kept: list[str]
    discards: list[str]
    starter: str | None
    count: int
    sequence: list[str]
    played: list[PlayedCard]
    held: list[int]
    shown: list[ShownCards]
    crib: list[str]
    claim: Claim | None
    hand_number: int
    rules: RulesFacts
    show_order: list[ShowCount]


class Combo(_Answer):
    kind: str
    cards: list[str]
    points: int


class PublicTable(_Answer):
    """``Public.to_json``: the table after a step as every seat sees it (docs/api.md)."""

    ph: Phase = Field(description="the phase")
    d: int | None = Field(description="the dealer")
    h: int = Field(description="the hand's number")
    st: str | None = Field(default=None, description="the starter, once cut")
    c: int = Field(description="the play's count")
    pl: list[tuple[int, str]] = Field(description="the cards played this hand, as [seat, card]")
    run: int = Field(description="how many of the last cards played make the count")
    held: list[int] = Field(description="each seat's number of cards in hand")
    crib: int = Field(description="the crib's number of cards")
    prev: list[int] = Field(description="each side's back peg")


class Event(_Answer):
    """``Step.to_json``: one event of the game, its place among the game's steps, each side's
    score after it and the public table after it."""

    kind: Kind
    seat: int | None = None
    side: int | None = None
    count: int | None = None
    claim: int | None = None
    points: int | None = None
    cards: list[str] | None = None
    combos: list[Combo] | None = None
    detail: str | None = None
    scores: list[int]
    index: int = Field(description="the step's place among the game's steps, from 0")
    after: PublicTable


class GameOptions(_Answer):
    """The game's options as created, the target resolved and the names filled in (a
    spectator's have no seed)."""

    level: Level
    variant: str
    target: int
    manual: bool
    muggins: bool
    muggins_play: bool
    skunk: str | None
    seed: int | None
    dealer: Dealer
    names: list[str]
    public: bool
    clock: int | None
    takeover: Level | None
    rated: bool = Field(description="the game asks to be rated (see the state's rating)")


class Result(_Answer):
    winner: int = Field(description="the winning side")
    loser: int = Field(description="the side that lost (in lowball: the side that reached the target)")
    scores: list[int]
    skunk: int = Field(description="0, 1 (skunk) or 2 (double skunk)")
    game_points: int


class Breakdown(_Answer):
    """A side's points by source."""

    pegging: int
    hand: int
    crib: int
    other: int


# --------------------------------------------------------------------------- a seat's STATE


class Invite(_Answer):
    """An open seat's invitation."""

    seat: int
    code: str
    url: str


class SeatInfo(_Answer):
    """Who sits at a seat (``level`` for computers; ``name`` once taken; ``code`` in the lobby
    for an open seat)."""

    seat: int
    kind: SeatKind
    level: Level | None = None
    name: str | None = None
    taken: bool
    code: str | None = None


class ScoreHistoryEntry(_Answer):
    hand: int
    scores: list[int]


class TurnClock(_Answer):
    seat: int = Field(description="the seat whose turn it is")
    deadline: float = Field(description="when its clock runs out (seconds since 1970, UTC)")


class MatchScore(_Answer):
    """The match of "Play now" a game is part of (``POST /api/play`` with ``first_to``)."""

    first_to: int = Field(description="the games a side must win to win the match")
    number: int = Field(description="this game's number in the match, from 1")
    wins: list[int] = Field(description="each seat's games won, this one counted once it is over")
    over: bool = Field(description="a side has won the match (no next game follows)")
    winner: int | None = Field(description="the side that won the match, once it is over")


class SeatRatingChange(_Answer):
    """A seat's rating after a rated game, and its change in it."""

    seat: int
    shown: int = Field(description="the seat's account's rating after the game, as profiles show it")
    change: int | None = Field(description="its change in the game (null: the pool's first game)")


class RatingChange(_Answer):
    """What a finished rated game did to its seats' ratings (docs/ratings.md)."""

    pool: str = Field(description="the rating pool of the game")
    seats: list[SeatRatingChange] = Field(description="each rated seat, in seat order")


class _State(_Answer):
    """What a seat's and a spectator's ``STATE`` share."""

    id: str
    version: int
    names: list[str]
    options: GameOptions
    view: View
    actions: list[ActionTemplate]
    events: list[Event]
    score_history: list[ScoreHistoryEntry]
    breakdown: list[Breakdown]
    over: bool
    result: Result | None
    seats: list[SeatInfo]
    waiting_for: list[int]
    invites: list[Invite]
    connected: list[int] = Field(description="the people's seats with a live socket open now")
    turn_clock: TurnClock | None = Field(description="the running turn clock, if the table has one")
    away: list[int] = Field(description="the seats whose turn clock ran out, until their person acts")
    arrival: float | None = Field(
        description="a rematch's: until when its people are given to arrive (seconds since 1970, UTC);"
        " until then an offline person's seat does not go to a computer"
    )
    match: MatchScore | None = Field(description="the match this game is part of; null: a game on its own")
    rating: Literal["pending", "counted", "aborted", "declined", "pair_limit"] | None = Field(
        description="whether the game is rated (docs/ratings.md): null if it does not ask to be"
    )
    rating_change: RatingChange | None = Field(
        description="once the finished game's ratings are recorded, each seat's; null before"
    )


class StateAnswer(_State):
    """A seat's ``STATE`` (docs/api.md, "Read the state")."""

    seat: int
    rematch: str | None = Field(description="the id of the game played again after this one, once made")


class WatchAnswer(_State):
    """A spectator's ``STATE`` (docs/api.md, "Watch"): only what every seat sees."""

    seat: None
    spectator: Literal[True]
    rematch: None = Field(description="always null: the new game's id is the seats'")
    rematch_watch: str | None = Field(description="the watch code of the game played again, once made")


# --------------------------------------------------------------------------- games and tables


class NewGameAnswer(_Answer):
    id: str
    token: str = Field(description="seat 0's secret: send it as Authorization: Bearer TOKEN")
    state: StateAnswer
    invites: list[Invite]


class JoinAnswer(_Answer):
    id: str
    token: str = Field(description="the seat's own secret")
    seat: int
    state: StateAnswer


class TableOptions(_Answer):
    """A table's counting, deal and clock, as the lobby and an invitation show them."""

    manual: bool
    muggins: bool
    muggins_play: bool
    dealer: Dealer
    skunk: str
    clock: int | None
    takeover: Level | None
    rated: bool = Field(description="the table asks to be rated: join with rated true to accept")


class LobbyTable(_Answer):
    code: str
    variant: str
    players: int
    target: int
    options: TableOptions
    seats: list[SeatInfo]
    created: str


class InvitationAnswer(_Answer):
    """What an invitation code opens, shown before joining: the seat it takes and the table."""

    seat: int
    variant: str
    players: int
    target: int
    options: TableOptions
    seats: list[SeatInfo]


class LobbyAnswer(_Answer):
    tables: list[LobbyTable]


class SeenAnswer(_Answer):
    """Whether your turn clock started now, and the running clock as every seat sees it."""

    started: bool = Field(description="this request started your turn clock")
    turn_clock: TurnClock | None
    away: list[int]


class LeaveAnswer(_Answer):
    """The seat left, and the level of the computer now in it (null: the seat waits open)."""

    seat: int
    computer: Level | None


class RematchAnswer(_Answer):
    """The game played again: its id, your seat in it and its state."""

    id: str
    seat: int
    state: StateAnswer


class WatchLinkAnswer(_Answer):
    """The table's watch code and the page's address for it."""

    code: str
    url: str


# --------------------------------------------------------------------------- hints


class KeepOption(_Answer):
    """A discard: the cards kept and thrown, and their expected points."""

    keep: list[str]
    discard: list[str]
    hand_points: float
    crib_points: float
    crib_weight: float | None = Field(
        default=None, description="an opponent's crib point's weight (three players)"
    )
    pegging: float
    total: float
    win: float | None = Field(default=None, description="the chance of winning, near the end")


class Reason(_Answer):
    """Why a card is worth playing, or not: a code and its numbers."""

    code: Literal["combo", "leaves", "avoids", "safe_lead", "no_points"]
    kind: str | None = None
    points: int | None = None
    length: int | None = None
    rank: str | None = None
    count: int | None = None
    makes: int | None = None


class PlayOption(_Answer):
    """A card to play, its value and the reasons for it."""

    card: str
    value: float
    reasons: list[Reason]
    win: float | None = Field(default=None, description="the chance of winning, near the end")


class HintAnswer(_Answer):
    """The computer's advice, best first."""

    kind: Literal["discard", "play"]
    ranked_by: Literal["total", "win", "value"]
    options: list[KeepOption] | list[PlayOption]


# --------------------------------------------------------------------------- scoring


class ShowAnswer(_Answer):
    """``ShowScore.to_json``: the totals by category and every combination."""

    hand: list[str]
    starter: str
    crib: bool
    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    combos: list[Combo]


class PegAnswer(_Answer):
    """``PlayScore.to_json``: the points of the last card."""

    cards: list[str]
    points: int
    count: int
    combos: list[Combo]
