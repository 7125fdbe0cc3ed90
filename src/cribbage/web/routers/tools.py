"""The stateless tools: a game's review, the variants' rules, the lists the page offers, and the
scoring of a hand or of the last card played (``docs/api.md``, "Review", "Variants", "Meta",
"Scoring")."""

from __future__ import annotations

import threading
from typing import Annotated, Any, Final

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse

from ...app import LEVELS, AppError
from ...app.people.rating_pools import POOLS as RATING_POOLS
from ...app.playnow.matchmaking import POOLS
from ...engine.cards import Card, parse_cards
from ...engine.errors import CardError, CountError, CribbageError
from ...engine.rules import VARIANTS
from ...engine.scoring import score_play, score_show
from ...table.seating import DEFAULT_LEVEL
from ..answers.rules import MetaAnswer, PegAnswer, ShowAnswer
from ..deps import per_address
from ..jsontext import Json
from ..middleware import JsonRoute, error_response
from ..models import PegBody, ScoreBody
from ..openapi import OBJECT, REVIEW_RESPONSES, SCORING_RESPONSES, VARIANTS_SCHEMA, answer

router = APIRouter(route_class=JsonRoute)

REVIEWS_AT_ONCE: Final = 2
"""How many game reviews (``POST /api/review``, a second or two of work each) one server process
makes at once; more are refused with 503 and ``retry-after`` rather than queued."""


def review_slots() -> threading.BoundedSemaphore:
    """The reviews one application makes at once (``app.state.reviews``)."""
    return threading.BoundedSemaphore(REVIEWS_AT_ONCE)


def _cards(tokens: list[str], field: str, size: tuple[int, ...] | None = None) -> tuple[Card, ...]:
    """The cards of ``tokens``, or an :class:`~cribbage.app.AppError` of the engine's :class:`CardError`
    naming the first bad or repeated one (``card_invalid``, ``card_duplicate``) or the wrong
    number of them (``card_count``)."""
    try:
        return parse_cards(tokens, size)
    except CardError as exc:
        named = dict(exc.values)  # the problem, and the card or the count and the numbers allowed
        problem = named.pop("problem")
        raise AppError(f"card_{problem}", f"{field}: {exc}", field=field, **named) from None


@router.post("/api/review", tags=["games"], responses={200: OBJECT, **REVIEW_RESPONSES})
def review(
    request: Request,
    record: Annotated[dict[str, Any], Body(description="a game record, as GET .../record answers it")],
    seat: Annotated[int | None, Query(ge=0, le=3, description="the seat to review")] = None,
) -> JSONResponse:
    """Every decision of a recorded game judged against the computer's best, graded, with the
    totals of each hand and each side's chance of winning (docs/api.md)."""
    from ...study.review import review_record  # the advice is loaded with the first review

    reviews: threading.BoundedSemaphore = request.app.state.reviews
    if not reviews.acquire(blocking=False):
        busy = "the server is busy reviewing other games: try again"
        return error_response(503, busy, {"code": "busy"}, headers={"retry-after": "2"})
    try:
        # json's encoder: a review repeats the record it was given, whose numbers may be any size
        return JSONResponse(review_record(record, None if seat is None else [seat]).to_json())
    except CribbageError as exc:
        raise AppError("bad_record", str(exc), field="record") from None
    finally:
        reviews.release()


_VARIANT_FACTS: Final = {name: rules.facts() for name, rules in VARIANTS.items()}


@router.get("/api/variants", tags=["rules"], responses={200: VARIANTS_SCHEMA})
def variants() -> Json:
    """Every variant by name with its rules and what follows from them (``Rules.facts``)."""
    return Json(_VARIANT_FACTS)


_META: Final = {
    "levels": list(LEVELS),
    "default_level": DEFAULT_LEVEL,
    "pools": [{"name": p.name, "players": p.players, "variant": p.variant} for p in POOLS.values()],
    "rating_pools": list(RATING_POOLS),
}


@router.get("/api/meta", tags=["rules"], responses=answer(MetaAnswer))
def meta() -> JSONResponse:
    """The lists the page offers that the server defines once: the computer levels, the pools
    of "Play now" and the rating pools."""
    return JSONResponse(_META)


@router.post(
    "/api/score",
    tags=["scoring"],
    responses={**answer(ShowAnswer), **SCORING_RESPONSES},
    dependencies=[per_address("score")],
)
def score(body: ScoreBody) -> Json:
    """Count a hand or a crib with its starter, combination by combination."""
    hand = _cards(body.hand, "hand", size=(3, 4, 5))
    if not body.starter.strip():
        raise AppError("starter_missing", "starter: a card is required", field="starter")
    (starter,) = _cards([body.starter], "starter")
    try:
        show = score_show(hand, starter, crib=body.crib)
    except CardError as exc:  # the hand's cards are checked: the starter is one of them
        raise AppError("card_duplicate", f"starter: {exc}", field="starter", card=exc.card) from None
    return Json(show.to_json())


@router.post(
    "/api/peg",
    tags=["scoring"],
    responses={**answer(PegAnswer), **SCORING_RESPONSES},
    dependencies=[per_address("score")],
)
def peg(body: PegBody) -> Json:
    """The points for the last of the cards played since the count was reset."""
    cards = _cards(body.cards, "cards")
    if not cards:
        raise AppError("no_cards", "cards: no card played", field="cards")
    try:
        play = score_play(cards)
    except CountError as exc:
        raise AppError("count_over_31", str(exc), field="cards", count=exc.count) from None
    return Json(play.to_json())
