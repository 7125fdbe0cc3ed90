"""A name means one thing (issue 43 item 3): no class, function or type alias of src/cribbage is
defined in two modules (``tools/names.py`` lists them)."""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))
import names  # noqa: E402

LEFT: frozenset[str] = frozenset(
    {
        # web/answers.py's models of the wire beside the engine's and the computer's own classes:
        # a model's name is its schema's name in /openapi.json, which stays as documented.
        "Combo",
        "Event",
        "GameOptions",
        "KeepOption",
        "PlayOption",
        "Reason",
        "ShowCount",
        # both in the engine and the computer players (ai/), the engine's part of issue 43.
        "Distribution",
        "play_points",
    }
)
"""The clashes still to be resolved, each with why it is not yet: the list only shrinks."""


def test_no_name_is_defined_in_two_modules() -> None:
    assert sorted(set(names.clashes()) - LEFT) == []


def test_the_names_left_are_still_clashes() -> None:
    """A name resolved leaves :data:`LEFT` too."""
    assert sorted(LEFT - set(names.clashes())) == []


def test_a_clash_is_found_and_a_framework_name_allowed(tmp_path: Path) -> None:
    root = tmp_path / "cribbage"
    (root / "cli").mkdir(parents=True)
    (root / "a.py").write_text("class Seating: ...\nClock = int\nCLOCKS = 1\ndef _private(): ...\n")
    (root / "b.py").write_text("def Seating(): ...\nClock = str\nCLOCKS = 2\ndef _private(): ...\n")
    (root / "cli" / "one.py").write_text("def run(): ...\n")
    (root / "cli" / "two.py").write_text("def run(): ...\n")
    assert names.clashes(root) == {
        "Clock": ["cribbage.a", "cribbage.b"],
        "Seating": ["cribbage.a", "cribbage.b"],
    }
