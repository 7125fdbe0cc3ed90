"""Integers in request bodies as JSON Schema has them (shared by the server and the trainers).

JSON has one number type, and JSON Schema's ``integer`` is any number without a fraction:
``278.0`` is the integer 278, as the schema says; ``278.5``, text and booleans are refused.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic import Strict as StrictMode

__all__ = ["Integer", "integral"]


def integral(value: Any) -> Any:
    """``278.0`` as ``278``; anything else as it is (for the strict validation to judge)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, StrictMode(), BeforeValidator(integral)]
"""An integer as JSON Schema has it: ``278`` or ``278.0``, never ``"278"`` or ``true``.  Bounds go
before the validator (``Annotated[int, StrictMode(), Interval(...), BeforeValidator(integral)]``),
so that they check the integer and the schema states them exactly as ``minimum`` and ``maximum``."""
