"""``bench/bench_cost.py``: the action a legal action or a template becomes, and the trees measured."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import bench_cost  # noqa: E402


def test_a_legal_action_is_sent_as_it_is_and_a_template_as_its_first_choice() -> None:
    today = {"type": "play", "seat": 0, "card": "5H", "claim": 2}
    assert bench_cost.concrete(today) == today
    template = {"type": "play", "seat": 1, "cards": ["5H", "JD"], "claim": {"min": 0, "max": 60}}
    assert bench_cost.concrete(template) == {"type": "play", "seat": 1, "card": "5H", "claim": 0}
    discard = {"type": "discard", "seat": 0, "cards": ["AH", "2H", "3H", "4H", "5H", "6H"], "count": 2}
    assert bench_cost.concrete(discard) == {"type": "discard", "seat": 0, "cards": ["AH", "2H"]}


def test_the_trees_measured_are_checkouts_src_folders(tmp_path: Path) -> None:
    here = BENCH.parent / "src"
    assert bench_cost.sources([]) == [("this", here)]
    assert bench_cost.sources([f"today={here}", str(here)]) == [("today", here), (str(here), here)]
    with pytest.raises(SystemExit, match="no cribbage package"):
        bench_cost.sources([f"new={tmp_path}"])


def test_every_template_of_the_engine_becomes_an_action_it_allows() -> None:
    from cribbage.engine.templates import allows

    # The page's cases: the engine's templates at each kind of decision (tests/core/test_templates.py
    # checks that they are the engine's).
    cases = json.loads((Path(__file__).parents[1] / "js" / "fixtures" / "templates.json").read_text())
    for case in cases:
        for template in case["actions"]:
            action = bench_cost.concrete(template)
            assert allows(case["actions"], action), (template, action)
            assert action in case["allowed"]
