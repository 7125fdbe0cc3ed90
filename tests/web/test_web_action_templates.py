"""The response models of the action templates describe every template the engine makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from cribbage.web.action_templates import ActionTemplate

ACTIONS: TypeAdapter[list[ActionTemplate]] = TypeAdapter(list[ActionTemplate])

PAGE_CASES = Path(__file__).parents[1] / "js" / "fixtures" / "templates.json"
"""The engine's templates at a decision of each kind (tests/core/test_templates.py checks that they
are what the engine makes)."""


def test_every_template_of_the_engine_is_valid_and_dumps_as_it_came() -> None:
    for case in json.loads(PAGE_CASES.read_text()):
        models = ACTIONS.validate_python(case["actions"])
        assert ACTIONS.dump_python(models, exclude_none=True) == case["actions"]


@pytest.mark.parametrize(
    "template",
    [
        {"type": "go"},
        {"type": "play", "cards": ["5H"], "card": "5H"},
        {"type": "discard", "cards": ["5H", "JD"]},
        {"type": "count", "points": {"min": 0}},
        {"type": "pass", "seat": 0},
    ],
)
def test_a_template_of_another_shape_is_refused(template: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ACTIONS.validate_python([template])


def test_the_schema_tells_the_templates_apart_by_type() -> None:
    schema = ACTIONS.json_schema()
    assert set(schema["items"]["discriminator"]["mapping"]) == {"discard", "play", "count", "muggins", "pass"}
