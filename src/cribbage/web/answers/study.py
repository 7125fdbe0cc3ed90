"""The trainers' answers (docs/api.md, "Trainers"): a discard drill's deal and its judged throw, a
play drill's position and its judged card, as :mod:`cribbage.study.drills` gives them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Answer
from .games import PlayedCard, ReasonAnswer

__all__ = ["DiscardDealAnswer", "DiscardJudgedAnswer", "PlayJudgedAnswer", "PlayPositionAnswer"]

_LOSS = "what the choice gave away: the best option's value less the chosen one's (never below 0)"


class DiscardDealAnswer(Answer):
    """``DiscardDeal.to_json``: the dealt hand, whose crib it is and the scores, from the seed."""

    seed: int
    variant: str
    hand: list[str]
    side: Literal["dealer", "pone"]
    dealer: bool = Field(description="the crib is yours")
    scores: list[int] | None = Field(description="yours and the opponent's, when the drill is at a score")
    target: int
    discard: int = Field(description="how many cards to throw")
    lowball: bool


class RankedKeep(Answer):
    """A keep as ``cribbage hint discard --json`` gives it (``KeepOption.to_json``)."""

    keep: list[str]
    discard: list[str]
    hand: float
    crib: float
    own_crib: bool
    pegging: float
    total: float
    win: float | None = Field(default=None, description="the chance of winning, near the end")
    crib_weight: float | None = Field(
        default=None, description="an opponent's crib point's weight (three players)"
    )


class DiscardJudgedAnswer(Answer):
    """``DiscardAnswer.to_json``: the throw judged against every keep."""

    deal: DiscardDealAnswer
    ranked_by: Literal["total", "win"]
    options: list[RankedKeep] = Field(description="every keep, best first")
    chosen: int = Field(description="the index in options of the keep thrown")
    loss: float = Field(description=_LOSS)
    best: bool = Field(description="the throw is a best one (no loss)")


class PlayPositionAnswer(Answer):
    """``PlayPosition.to_json``: one seat's view at a decision of a game between two computers."""

    seed: int
    variant: str
    target: int
    lowball: bool
    seat: int
    dealer: int = Field(description="the dealer's seat")
    starter: str | None
    scores: list[int] = Field(description="by side")
    hand: list[str]
    kept: list[str]
    discards: list[str]
    sequence: list[str]
    count: int
    played: list[PlayedCard] = Field(description="the cards played this hand")
    held: list[int] = Field(description="each seat's number of cards in hand")
    hand_number: int
    legal: list[str] = Field(description="the cards that may be played")


class RankedCard(Answer):
    """A card as ``cribbage hint play --json`` gives it (``PlayOption.to_json``)."""

    card: str
    points: int
    value: float
    reasons: list[ReasonAnswer]
    win: float | None = Field(default=None, description="the chance of winning, near the end")


class PlayJudgedAnswer(Answer):
    """``PlayAnswer.to_json``: the card judged against every legal card."""

    position: PlayPositionAnswer
    ranked_by: Literal["value", "win"]
    options: list[RankedCard] = Field(description="every legal card, best first")
    chosen: int = Field(description="the index in options of the card played")
    loss: float = Field(description=_LOSS)
    best: bool = Field(description="the card is a best one (no loss)")
