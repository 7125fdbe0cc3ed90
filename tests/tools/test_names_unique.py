"""A name means one thing (issue 43 item 3): no class, function or type alias of src/cribbage is
defined in two modules (``tools/names.py`` lists them)."""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
import names  # noqa: E402


def test_no_name_is_defined_in_two_modules() -> None:
    assert names.clashes() == {}


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
