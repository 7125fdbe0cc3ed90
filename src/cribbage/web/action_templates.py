"""The action templates of a ``STATE`` (its ``actions``) as response models, for the schema.

The templates are made by :func:`cribbage.engine.templates.templates` (docs/api.md, "Action
templates"); these models only describe them, so that ``/openapi.json`` states each shape and
the fuzz test checks every answer against it: ``StateAnswer.actions: list[ActionTemplate]``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ActionTemplate", "DiscardTemplate", "PassTemplate", "PlayTemplate", "PointsTemplate", "Range"]


class Range(BaseModel):
    """Every whole number from ``min`` to ``max``."""

    model_config = ConfigDict(extra="forbid")

    min: int
    max: int


class DiscardTemplate(BaseModel):
    """Throw any ``count`` different ``cards`` to the crib."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["discard"]
    cards: list[str]
    count: int


class PlayTemplate(BaseModel):
    """Play one of ``cards``; with muggins in the play, stating a ``claim`` in its range."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["play"]
    cards: list[str]
    claim: Range | None = Field(default=None, description="absent without muggins in the play")


class PointsTemplate(BaseModel):
    """State the points of a hand or crib (``count``), or call muggins with the points missed."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["count", "muggins"]
    points: Range


class PassTemplate(BaseModel):
    """Let the count awaiting the muggins decision stand."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["pass"]


ActionTemplate = Annotated[
    DiscardTemplate | PlayTemplate | PointsTemplate | PassTemplate, Field(discriminator="type")
]
"""One template of ``actions``, told apart by its ``type``."""
