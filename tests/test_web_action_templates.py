"""The response models of the action templates describe every template the engine makes."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from cribbage.web.action_templates import ActionTemplate
from test_templates import page_cases

ACTIONS: TypeAdapter[list[ActionTemplate]] = TypeAdapter(list[ActionTemplate])


def test_every_template_of_the_engine_is_valid_and_dumps_as_it_came() -> None:
    for case in page_cases():
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
