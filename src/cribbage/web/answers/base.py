"""What every answer model shares: the base that allows exactly the keys documented, and the
types of a level, a dealer option and a seat's kind."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ...app import DEALERS, LEVELS, SEAT_KINDS

__all__ = ["Answer", "Dealer", "Level", "SeatKind"]


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


class Answer(BaseModel):
    """Every answer's part: exactly the keys documented, no other.

    A model named apart from the engine's class of the same thing (``ComboAnswer`` beside
    :class:`cribbage.engine.scoring.Combo`) keeps its schema's documented name with a title:
    ``class ComboAnswer(Answer, title="Combo")`` is ``Combo`` in ``/openapi.json``.
    """

    model_config = ConfigDict(extra="forbid")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if title := cls.model_config.get("title"):
            cls.__qualname__ = title  # pydantic names a schema after its class's qualified name
