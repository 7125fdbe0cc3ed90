"""The bodies of the tournaments' requests (``docs/api.md``, "Tournaments"): what
:mod:`.tournaments`'s routes read, checked by pydantic before the service checks the rest."""

from __future__ import annotations

from typing import Annotated, Any

from annotated_types import Interval
from fastapi import Body
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, StringConstraints

from ..bodies import Integer, integral

__all__ = ["EntrantBody", "GuestBody", "RegisterBody", "ResultBody", "SettingsBody"]

_Number = Annotated[int, Strict(), Interval(ge=1), BeforeValidator(integral)]

SettingsBody = Annotated[
    dict[str, Any],
    Body(
        description='the settings (docs/api.md, "Tournaments"): `name` (required), `variant`, '
        "`games`, `pairing`, `best_of`, `longer_from`, `consolation`, `clock`, `starts`, `limit`, "
        "`rated`, `venue`; each checked by the service (`invalid` with the `field` at fault)",
        openapi_examples={
            "online": {
                "summary": "an online evening",
                "value": {"name": "Tuesday night", "variant": "short", "games": 3, "best_of": 3},
            },
            "club": {
                "summary": "a club night at real boards",
                "value": {"name": "Club night", "venue": "club", "games": 9, "best_of": 0},
            },
        },
    ),
]


class EntrantBody(BaseModel):
    """The director acting on an entrant (without it: the account's own entry)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"number": 3}]})

    number: _Number | None = Field(None, description="the entrant's number (the director's request)")


_Name = Annotated[str, StringConstraints(max_length=1024)]


class GuestBody(BaseModel):
    """A guest's name (a club's tournament), and in a team event the partner's."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Walk-in Wes"}, {"name": "Ann", "partner": "Bob"}]},
    )

    name: _Name = Field(description='the rule of names (docs/api.md, "Names"); refused: invalid, field name')
    partner: _Name | None = Field(None, description="the partner's name: a team event's (only)")


class RegisterBody(BaseModel):
    """A team event's registration: the partner's account name (who then accepts)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"partner": "Bob"}]})

    partner: _Name | None = Field(None, description="the partner's account name: a team event's (only)")


class ResultBody(BaseModel):
    """A club table's result: the table (stage, round, number, game), its winner and the loser's
    score, or the director's forfeit."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "stage": "qualifying",
                    "round": 1,
                    "number": 1,
                    "game": 1,
                    "winner": 2,
                    "loser_points": 95,
                }
            ]
        },
    )

    stage: Annotated[str, StringConstraints(max_length=32)] = Field(
        description="qualifying, playoffs or consolation"
    )
    round: Integer
    number: Integer = Field(description="the table's number in its round")
    game: Integer = Field(1, description="the game of a playoff match (1 in the qualifying)")
    winner: Integer = Field(description="the winner's entrant number: one of the table's two")
    loser_points: Integer | None = Field(
        None, description="the loser's score, 0 to the target less one (required unless a forfeit)"
    )
    forfeit: bool = Field(False, description="the director's only: the loser forfeits (no points)")
