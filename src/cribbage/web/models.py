"""What the JSON API accepts: the request bodies (``docs/api.md``), and the refusal's body.

The bodies are checked by FastAPI against these models, which also make ``/openapi.json``; the
service checks what a schema cannot state (``muggins`` needs ``manual``...).  What the endpoints
answer is in :mod:`.answers`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from annotated_types import Interval
from fastapi import Path as PathParam
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
)
from pydantic import Strict as StrictMode

from ..app import CLOCKS, DEALERS, LEVELS, SEAT_KINDS
from ..app.games.round import ACTION_TYPES
from ..engine.rules import GAME_POINTS, VARIANTS
from .bodies import Integer, integral

SEED_MAX: Final = 2**63 - 1
"""The largest seed (a game's seed is a signed 64-bit integer in the record)."""


Target = Annotated[int, StrictMode(), Interval(ge=1, le=1000), BeforeValidator(integral)]
Seed = Annotated[int, StrictMode(), Interval(ge=0, le=SEED_MAX), BeforeValidator(integral)]
ClockSeconds = Annotated[int, StrictMode(), Interval(ge=CLOCKS[0], le=CLOCKS[1]), BeforeValidator(integral)]

CardText = Annotated[str, StringConstraints(min_length=1, max_length=8)]
Name = Annotated[str, StringConstraints(max_length=30)]
GameId = Annotated[str, PathParam(min_length=1, max_length=64, description="the game's id")]
Code = Annotated[str, PathParam(max_length=32)]
"""An invitation's or a watch link's code, in a path."""


def _choice(default: str, choices: Any, description: str) -> Any:
    """A text field whose allowed values are listed in the schema (the service checks them)."""
    return Field(default, description=description, json_schema_extra={"enum": list(choices)})


class SeatBody(BaseModel):
    """One seat of a new table: a person, or a computer of a level."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="who sits there", json_schema_extra={"enum": list(SEAT_KINDS)})
    level: str | None = Field(
        default=None,
        description="a computer's level (by default the game's)",
        json_schema_extra={"enum": [*LEVELS, None]},
    )


class NewGame(BaseModel):
    """The options of a new game (all optional)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"level": "weak", "seed": 278},
                {
                    "variant": "four-player",
                    "level": "weak",
                    "seats": [
                        {"kind": "human"},
                        {"kind": "computer"},
                        {"kind": "human"},
                        {"kind": "computer"},
                    ],
                    "public": True,
                    "names": ["Aiko"],
                },
            ]
        },
    )

    level: str = _choice("normal", LEVELS, "the computer players' level")
    variant: str = _choice("standard", VARIANTS, "a variant of cribbage.engine.rules.VARIANTS")
    target: Target | None = Field(default=None, description="overrides the variant's target")
    manual: StrictBool = Field(default=False, description="you state your own counts")
    muggins: StrictBool = Field(default=False, description="under-counts can be claimed (needs manual)")
    muggins_play: StrictBool = Field(default=False, description="muggins in the play too (needs manual)")
    dealer: str = _choice("cut", DEALERS, "who deals first")
    skunk: str = _choice("marked", GAME_POINTS, "the game-points scheme")
    seed: Seed | None = Field(default=None, description="a seeded game deals the same cards")
    names: list[Name] = Field(default_factory=lambda: ["You"], max_length=4, description="seat names")
    seats: list[SeatBody] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="who sits where, from seat 0 (the creator, a person); by default computers",
    )
    public: StrictBool = Field(default=False, description="list the table in the lobby while a seat is open")
    clock: ClockSeconds | None = Field(
        default=None, description="seconds per turn: a computer moves for a person who lets them run out"
    )
    takeover: str | None = Field(
        default=None,
        description="a computer of this level takes the seat of a person who leaves (null: the seat waits)",
        json_schema_extra={"enum": [*LEVELS, None]},
    )
    rated: StrictBool = Field(
        default=False,
        description="ask for a rated game (signed in, people only): rated if every joiner accepts it",
    )


class ComputerBody(BaseModel):
    """An open person's seat, and the level of the computer the creator gives it to."""

    model_config = ConfigDict(extra="forbid")

    seat: Annotated[int, StrictMode(), Interval(ge=0, le=3), BeforeValidator(integral)] = Field(
        description="the open seat"
    )
    level: str = _choice("normal", LEVELS, "the computer's level")


class ActionBody(BaseModel):
    """One action of the human's seat; ``version``, when given, must be the state's."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"type": "discard", "cards": ["5H", "JD"], "version": 3},
                {"type": "play", "card": "7C"},
                {"type": "count", "points": 8},
                {"type": "pass"},
            ]
        },
    )

    type: Annotated[str, StringConstraints(max_length=16)] = Field(
        description="the kind of action", json_schema_extra={"enum": list(ACTION_TYPES)}
    )
    cards: list[CardText] | None = Field(default=None, max_length=8, description="discard: the cards thrown")
    card: CardText | None = Field(default=None, description="play: the card")
    claim: Integer | None = Field(
        default=None, description="play with muggins in the play: the points stated"
    )
    points: Integer | None = Field(default=None, description="count or muggins: the points stated")
    seat: Integer | None = Field(default=None, description="your seat (0), if given")
    version: Integer | None = Field(default=None, description="the state's version this action answers")


class UploadBody(BaseModel):
    """A game against the computer played in the browser, over: its options and its record."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"options": {"variant": "short", "level": "normal"}, "record": {"format": "cribbage-record"}}
            ]
        },
    )

    options: NewGame = Field(
        description="the options the game was played with (a game against the computer's)"
    )
    record: dict[str, Any] = Field(description="the game's record, as the engine wrote it (GET .../record's)")


class SeenBody(BaseModel):
    """The version of the state whose decision the page shows now."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 12}]})

    version: Integer = Field(description="the version of the state shown")


AnyCardText = Annotated[str, StringConstraints(max_length=8)]
"""A card as typed on the how-to page: checked by :func:`_cards`, which names what is wrong."""


class JoinBody(BaseModel):
    """An invitation code and the display name of the person taking its seat."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"code": "K7QX2M", "name": "Aiko"}]}
    )

    code: Annotated[str, StringConstraints(min_length=1, max_length=32)] = Field(
        description="the invitation's code, as in K7QX2M"
    )
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="your display name: 1 to 30 characters, no control characters"
    )
    rated: StrictBool = Field(
        default=False,
        description="you (signed in) accept the table's rated game; without it a rated table plays unrated",
    )


class ScoreBody(BaseModel):
    """A hand (3 to 5 cards) or a crib with its starter.

    The schema states the real numbers of cards and that a starter is required; the endpoint
    checks them itself, so that each refusal has its own code (``card_count``,
    ``starter_missing``) for the how-to page to word.
    """

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": ["hand", "starter"],
            "examples": [{"hand": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}],
        },
    )

    hand: list[AnyCardText] = Field(max_length=52, json_schema_extra={"minItems": 3, "maxItems": 5})
    starter: AnyCardText = Field(default="", json_schema_extra={"minLength": 1})
    crib: StrictBool = False


class PegBody(BaseModel):
    """The cards played since the count was last reset, in order: at least one (the endpoint
    refuses none with its own code, ``no_cards``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"cards": ["4H", "6D", "5S"]}]})

    cards: list[AnyCardText] = Field(max_length=52, json_schema_extra={"minItems": 1})


class ErrorBody(BaseModel):
    """Every refusal: ``error`` names the problem (in English), ``code`` names it for a client to
    word in its reader's language, with the values the code names (``docs/api.md``, "Errors")."""

    model_config = ConfigDict(extra="forbid")

    error: Annotated[str, StringConstraints(min_length=1)] = Field(description="what is wrong")
    code: str = Field(description="what is wrong, as a code (cribbage.web.errors)")
    field: str | None = Field(default=None, description='with a code: where ("" for the whole body)')
    problem: str | None = Field(default=None, description="with illegal.card: invalid, duplicate or count")
    version: int | None = Field(default=None, description="with stale: the game's version")
    seat: int | None = Field(default=None, description="with seat_taken, seat_online, forbidden: the seat")
    seats: list[int] | None = Field(default=None, description="with table_waiting: the open seats")
    level: str | None = Field(default=None, description="with computer_unavailable: the level")
    card: str | None = Field(default=None, description="with a code: the card as sent")
    count: int | None = Field(default=None, description="with a code: how many cards, or the count")
    allowed: list[int] | None = Field(default=None, description="with card_count: the numbers allowed")
    limit: str | None = Field(default=None, description="with too_many: the limit that was reached")
    reason: str | None = Field(
        default=None,
        description="with account.bad_name, account.bad_password: length, characters, spaces or name",
    )
    retry_after: int | None = Field(
        default=None, description="with too_many or database_unavailable: seconds to wait (as Retry-After)"
    )
    low: int | None = Field(default=None, description="with invalid: the lowest value allowed")
    high: int | None = Field(default=None, description="with invalid: the highest value allowed")
    most: int | None = Field(
        default=None, description="with tournament.full, tournament.too_many_games: the most allowed"
    )
    games: int | None = Field(default=None, description="with tournament.too_many_games: the games asked for")
    entrants: int | None = Field(default=None, description="with tournament.too_few: the entrants checked in")
    number: int | None = Field(default=None, description="with a tournament's code: the entrant's number")
    table: list[str | int] | None = Field(
        default=None, description="with tournament.no_table: the table asked for (stage, round, number, game)"
    )


BODY_MODELS: Final[tuple[type[BaseModel], ...]] = (
    NewGame,
    SeatBody,
    ActionBody,
    JoinBody,
    ScoreBody,
    PegBody,
    ErrorBody,
)
"""The models whose bounds ``/openapi.json`` states exactly (:func:`.openapi.exact_openapi`)."""
