"""The answers about a game: a seat's and a spectator's ``STATE`` (its view, events, options and
result) and a hint (docs/api.md, "Read the state", "Watch", "Hints")."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...engine.events import Kind
from ...engine.view import Phase
from ..action_templates import ActionTemplate
from .base import Answer, Dealer, Level, SeatKind
from .rules import ComboAnswer, RulesFacts

__all__ = [
    "EventAnswer",
    "GameOptionsAnswer",
    "HintAnswer",
    "Invite",
    "KeepOptionAnswer",
    "PlayOptionAnswer",
    "PlayedCard",
    "ReasonAnswer",
    "SeatInfo",
    "StateAnswer",
    "TurnClock",
    "WatchAnswer",
]

What = Literal["hand", "crib"]


# --------------------------------------------------------------------------- a seat's view


class PlayedCard(Answer):
    seat: int
    card: str


class ShownCards(Answer):
    seat: int
    what: What
    cards: list[str]


class ShowCountAnswer(Answer, title="ShowCount"):
    seat: int
    what: What


class Claim(Answer):
    """A stated count awaiting the muggins decision (its true points are in no view)."""

    seat: int = Field(description="the seat that counted")
    what: Literal["play", "hand", "crib"]
    points: int = Field(description="the points stated")
    callers: list[int] = Field(description="the opponents still entitled to call, the next first")


class View(Answer):
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
    show_order: list[ShowCountAnswer]


class PublicTable(Answer):
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


class EventAnswer(Answer, title="Event"):
    """``Step.to_json``: one event of the game, its place among the game's steps, each side's
    score after it and the public table after it."""

    kind: Kind
    seat: int | None = None
    side: int | None = None
    count: int | None = None
    claim: int | None = None
    points: int | None = None
    cards: list[str] | None = None
    combos: list[ComboAnswer] | None = None
    detail: str | None = None
    scores: list[int]
    index: int = Field(description="the step's place among the game's steps, from 0")
    after: PublicTable


class GameOptionsAnswer(Answer, title="GameOptions"):
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
    tournament: str | None = Field(
        description="the tournament whose table the game is (GET /api/tournaments/{id}); null: none"
    )


class Result(Answer):
    winner: int = Field(description="the winning side")
    loser: int = Field(description="the side that lost (in lowball: the side that reached the target)")
    scores: list[int]
    skunk: int = Field(description="0, 1 (skunk) or 2 (double skunk)")
    game_points: int


class Breakdown(Answer):
    """A side's points by source."""

    pegging: int
    hand: int
    crib: int
    other: int


# --------------------------------------------------------------------------- a seat's STATE


class Invite(Answer):
    """An open seat's invitation."""

    seat: int
    code: str
    url: str


class SeatInfo(Answer):
    """Who sits at a seat (``level`` for computers; ``name`` once taken; ``code`` in the lobby
    for an open seat)."""

    seat: int
    kind: SeatKind
    level: Level | None = None
    name: str | None = None
    taken: bool
    code: str | None = None


class ScoreHistoryEntry(Answer):
    hand: int
    scores: list[int]


class TurnClock(Answer):
    seat: int = Field(description="the seat whose turn it is")
    deadline: float = Field(description="when its clock runs out (seconds since 1970, UTC)")


class MatchScore(Answer):
    """The match of "Play now" a game is part of (``POST /api/play`` with ``first_to``)."""

    first_to: int = Field(description="the games a side must win to win the match")
    number: int = Field(description="this game's number in the match, from 1")
    wins: list[int] = Field(description="each seat's games won, this one counted once it is over")
    over: bool = Field(description="a side has won the match (no next game follows)")
    winner: int | None = Field(description="the side that won the match, once it is over")


class SeatRatingChange(Answer):
    """A seat's rating after a rated game, and its change in it."""

    seat: int
    shown: int = Field(description="the seat's account's rating after the game, as profiles show it")
    change: int | None = Field(description="its change in the game (null: the pool's first game)")


class RatingChange(Answer):
    """What a finished rated game did to its seats' ratings (docs/ratings.md)."""

    pool: str = Field(description="the rating pool of the game")
    seats: list[SeatRatingChange] = Field(description="each rated seat, in seat order")


class _State(Answer):
    """What a seat's and a spectator's ``STATE`` share."""

    id: str
    version: int
    names: list[str]
    options: GameOptionsAnswer
    view: View
    actions: list[ActionTemplate]
    events: list[EventAnswer]
    score_history: list[ScoreHistoryEntry]
    breakdown: list[Breakdown]
    over: bool
    result: Result | None
    seats: list[SeatInfo]
    people: bool = Field(
        description="whether the table is between people (two seats or more kept for people)"
    )
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


# --------------------------------------------------------------------------- hints


class KeepOptionAnswer(Answer, title="KeepOption"):
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


class ReasonAnswer(Answer, title="Reason"):
    """Why a card is worth playing, or not: a code and its numbers."""

    code: Literal["combo", "leaves", "avoids", "safe_lead", "no_points"]
    kind: str | None = None
    points: int | None = None
    length: int | None = None
    rank: str | None = None
    count: int | None = None
    makes: int | None = None


class PlayOptionAnswer(Answer, title="PlayOption"):
    """A card to play, its value and the reasons for it."""

    card: str
    value: float
    reasons: list[ReasonAnswer]
    win: float | None = Field(default=None, description="the chance of winning, near the end")


class HintAnswer(Answer):
    """The computer's advice, best first."""

    kind: Literal["discard", "play"]
    ranked_by: Literal["total", "win", "value"]
    options: list[KeepOptionAnswer] | list[PlayOptionAnswer]
