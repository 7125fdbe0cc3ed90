"""The trainers' endpoints (``docs/api.md``, "Trainers"): stateless, from a seed.

``POST /api/train/discard`` deals a discard drill and ``POST /api/train/discard/answer`` judges
a throw from the same deal, made again from its seed; ``POST /api/train/play`` and
``POST /api/train/play/answer`` do the same for a play drill (a position of a game between two
computer players).  Nothing is stored: everything needed is in the request.  The drills are
:mod:`cribbage.study.drills`; this module only translates.  Refusals are :class:`AppError` codes
(``{"error", "code", ...}``, all 422, :mod:`..errors`); the trainers' page, ``/practice``, is
served by :mod:`.pages`.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Final, Literal

from annotated_types import Interval
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic import Strict as StrictMode

from ...app.errors import AppError
from ...engine.cards import Card
from ...engine.errors import CribbageError
from ...engine.rules import VARIANTS, Rules, get_rules
from ...study.drills import (
    PLAY_VARIANTS,
    SEED_LIMIT,
    DiscardDeal,
    TrainError,
    discard_deal,
    judge_discard,
    judge_play,
    play_position,
)
from ..answers.study import DiscardDealAnswer, DiscardJudgedAnswer, PlayJudgedAnswer, PlayPositionAnswer
from ..bodies import Integer, integral
from ..middleware import JsonRoute
from ..models import CardText
from ..openapi import answer

router = APIRouter(route_class=JsonRoute)

DrillSeed = Annotated[
    Annotated[int, StrictMode(), Interval(ge=0, le=SEED_LIMIT - 1), BeforeValidator(integral)],
    Field(description="the drill's seed"),
]


class DiscardDrill(BaseModel):
    """A discard drill: its seed (drawn by the server when left out), variant, side and scores."""

    model_config = ConfigDict(extra="forbid")

    seed: DrillSeed | None = None
    variant: str = Field(default="standard", json_schema_extra={"enum": list(VARIANTS)})
    side: Literal["dealer", "pone"] | None = Field(
        default=None, description="whose crib: yours (dealer) or theirs (pone); by default from the seed"
    )
    scores: list[Integer] | None = Field(
        default=None, min_length=2, max_length=2, description="your score and the opponent's (two sides only)"
    )


class DiscardThrow(DiscardDrill):
    """The drill's deal, made again from its seed, and the cards thrown."""

    seed: DrillSeed
    throw: list[CardText] = Field(max_length=8, description="the cards thrown to the crib")


class PlayDrill(BaseModel):
    """A play drill: its seed (drawn by the server when left out) and a variant of two players
    (not lowball)."""

    model_config = ConfigDict(extra="forbid")

    seed: DrillSeed | None = None
    variant: str = Field(default="standard", json_schema_extra={"enum": list(PLAY_VARIANTS)})


class PlayCard(PlayDrill):
    """The drill's position, made again from its seed, and the card played."""

    seed: DrillSeed
    card: CardText = Field(description="the card played")


_REFUSED: Final[dict[int | str, dict[str, Any]]] = {
    422: {"description": "a malformed body, or a throw or card that does not fit the drill"}
}


def _seed(seed: int | None) -> int:
    """The seed of a drill: the one asked for, or one drawn now."""
    return random.SystemRandom().randrange(SEED_LIMIT) if seed is None else seed


def _rules(name: str) -> Rules:
    """The variant ``name``, or the refusal ``bad_variant``."""
    try:
        return get_rules(name)
    except CribbageError as exc:
        raise AppError("bad_variant", f"variant: {exc}", variant=name) from None


def _card(text: str, field: str) -> Card:
    """The card ``text`` of ``field``, or the refusal ``card_invalid``."""
    try:
        return Card.parse(text)
    except CribbageError as exc:
        raise AppError("card_invalid", f"{field}: {exc}", field=field, card=text) from None


def _refused(exc: TrainError) -> AppError:
    """A drill's refusal as the API's: its code and values."""
    return AppError(exc.code, str(exc), **exc.values)


def _deal(body: DiscardDrill, seed: int) -> DiscardDeal:
    """The deal of the discard drill ``body`` asks for, from ``seed``."""
    dealer = None if body.side is None else body.side == "dealer"
    return discard_deal(seed, _rules(body.variant), dealer, body.scores)


@router.post("/api/train/discard", tags=["trainers"], responses={**answer(DiscardDealAnswer), **_REFUSED})
def train_discard(body: DiscardDrill | None = None) -> JSONResponse:
    """A discard drill: the dealt hand, whose crib it is and the scores, from its seed."""
    body = body or DiscardDrill()
    try:
        return JSONResponse(_deal(body, _seed(body.seed)).to_json())
    except TrainError as exc:
        raise _refused(exc) from None


@router.post(
    "/api/train/discard/answer", tags=["trainers"], responses={**answer(DiscardJudgedAnswer), **_REFUSED}
)
def train_discard_answer(body: DiscardThrow) -> JSONResponse:
    """The throw judged: every keep ranked with its parts, the one chosen and its loss."""
    throw = [_card(text, "throw") for text in body.throw]
    try:
        return JSONResponse(judge_discard(_deal(body, body.seed), throw).to_json())
    except TrainError as exc:
        raise _refused(exc) from None


@router.post("/api/train/play", tags=["trainers"], responses={**answer(PlayPositionAnswer), **_REFUSED})
def train_play(body: PlayDrill | None = None) -> JSONResponse:
    """A play drill: one seat's view at a decision of a game between two computers."""
    body = body or PlayDrill()
    try:
        return JSONResponse(play_position(_seed(body.seed), _rules(body.variant)).to_json())
    except TrainError as exc:
        raise _refused(exc) from None


@router.post("/api/train/play/answer", tags=["trainers"], responses={**answer(PlayJudgedAnswer), **_REFUSED})
def train_play_answer(body: PlayCard) -> JSONResponse:
    """The card judged: every legal card with its value and reasons, the one played, the loss."""
    card = _card(body.card, "card")
    try:
        return JSONResponse(judge_play(play_position(body.seed, _rules(body.variant)), card).to_json())
    except TrainError as exc:
        raise _refused(exc) from None
