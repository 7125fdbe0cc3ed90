"""The code stays readable (issues 30 and 43): no module of the web layer, the application or
the storage over :data:`MOST_LINES` lines, and no function of ``src/cribbage`` over
:data:`MOST_FUNCTION_LINES` lines.  The page's modules are
held to the same by ESLint (``eslint.config.js``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cribbage

ROOT = Path(cribbage.__file__).parent
PACKAGES = ("web", "app", "storage")
MOST_LINES = 400
MOST_FUNCTION_LINES = 60


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def long_functions(source: str, most: int) -> list[tuple[str, int]]:
    """The functions of ``source`` longer than ``most`` lines (decorators not counted), with
    their lengths."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > most:
                found.append((node.name, length))
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_a_module_is_short(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MOST_LINES


def test_no_function_is_long() -> None:
    found = {
        str(path.relative_to(ROOT)): long
        for path in sorted(ROOT.rglob("*.py"))
        if (long := long_functions(path.read_text(encoding="utf-8"), MOST_FUNCTION_LINES))
    }
    assert found == {}


def test_a_long_function_is_found() -> None:
    lines = "".join(f"        x = {i}\n" for i in range(5))
    source = f"def short():\n    pass\nclass C:\n    async def longer(self):\n{lines}"
    assert long_functions(source, 4) == [("longer", 6)]
