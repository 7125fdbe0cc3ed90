"""The server's JSON through orjson is the text ``json.dumps`` wrote before (compact, UTF-8)."""

from __future__ import annotations

import json
from typing import Any

from cribbage.web.jsontext import Json, dumps

SAMPLE: dict[str, Any] = {
    "names": ["Zoë", "Jürgen", "王", "🂡"],
    "deadline": 1764782285.123456,
    "version": 12,
    "breakdown": {0: [1, 2], 1: {"his nobs": 1}},
    "over": False,
    "result": None,
    "quote": 'say "fifteen-two"\n',
}


def _before(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_the_text_is_json_dumps_compact_and_unescaped() -> None:
    assert dumps(SAMPLE) == _before(SAMPLE)
    assert "Zoë" in dumps(SAMPLE)  # never \u-escaped


def test_an_answer_body_is_starlettes() -> None:
    assert Json(SAMPLE).body == _before(SAMPLE).encode()
