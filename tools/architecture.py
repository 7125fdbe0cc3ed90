"""Print the numbers of issue 43 ("One way in for every command"), the bar of its review:

    python tools/architecture.py

- the modules of ``src/cribbage`` that call the service's action (``service.act``), check an
  action's body (``ActionBody``), count an abuse limit or hand a call to a thread: one each,
  ``web/commands.py``, which HTTP's routes and the live socket both call;
- the names defined in two modules of ``src/`` for different things (``tools/names.py``);
- the Python modules of ``web/`` and ``app/`` over 400 lines, and the functions of ``src/`` over 60;
- the page's modules outside its folders, and whether a loose ``tsc`` configuration is left;
- the test modules outside the folders by layer.

Exits 1 if any number is off its bar, else 0.  The run time of ``./test.sh`` is measured by
running it (the README states it).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import names

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "cribbage"
MOST_LINES = 400
MOST_FUNCTION_LINES = 60
ONE_PLACE = {
    "the service's action (.act() of a service)": "service.act",
    "the action's check (ActionBody.model_validate)": "ActionBody.model_validate",
    "a limit counted (limits.hit / check / failed)": "limits.hit|limits.check|limits.failed",
}


def _sources() -> Iterator[tuple[Path, str]]:
    for path in sorted(SOURCE.rglob("*.py")):
        yield path, path.read_text(encoding="utf-8")


def _uses(source: str, dotted: str) -> bool:
    """Whether ``source`` calls or passes on an attribute named like the end of ``dotted`` of a
    name or an attribute named like its start (``service.act``: ``self.service.act(...)``,
    ``service.act``)."""
    owner, _, method = dotted.rpartition(".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == method:
            target = node.value
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name == owner:
                return True
    return False


def one_place() -> dict[str, list[str]]:
    """Each concern of :data:`ONE_PLACE`: the modules that do it."""
    found: dict[str, list[str]] = {}
    for concern, calls in ONE_PLACE.items():
        found[concern] = [
            str(path.relative_to(SOURCE))
            for path, source in _sources()
            if any(_uses(source, call) for call in calls.split("|"))
        ]
    return found


def long_modules() -> list[str]:
    """The modules of ``web/`` and ``app/`` over :data:`MOST_LINES` lines."""
    return [
        f"{path.relative_to(SOURCE)} ({len(source.splitlines())} lines)"
        for path, source in _sources()
        if path.relative_to(SOURCE).parts[0] in ("web", "app") and len(source.splitlines()) > MOST_LINES
    ]


def long_functions() -> list[str]:
    """The functions of ``src/`` over :data:`MOST_FUNCTION_LINES` lines."""
    found = []
    for path, source in _sources():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MOST_FUNCTION_LINES:
                    found.append(f"{path.relative_to(SOURCE)}: {node.name} ({length} lines)")
    return found


def loose_page() -> list[str]:
    """The page's modules outside its folders (but its service worker, which must sit at the
    root of its scope), and a loose ``tsc`` configuration if one is left."""
    static = SOURCE / "web" / "static"
    loose = [path.name for path in sorted(static.glob("*.js")) if path.name != "sw.js"]
    return loose + [name for name in ("tsconfig.loose.json",) if (ROOT / name).exists()]


def loose_tests() -> list[str]:
    """The test modules at the top of ``tests/``, not in a folder of their layer."""
    return [path.name for path in sorted((ROOT / "tests").glob("test_*.py"))]


def main() -> int:
    off = False
    for concern, modules in one_place().items():
        print(f"{concern}: {', '.join(modules) or 'nowhere'}")
        off |= len(modules) != 1
    report = {
        "names defined in two modules": [
            f"{name}: {', '.join(where)}" for name, where in names.clashes().items()
        ],
        f"modules of web/ and app/ over {MOST_LINES} lines": long_modules(),
        f"functions of src/ over {MOST_FUNCTION_LINES} lines": long_functions(),
        "page modules outside the page's folders": loose_page(),
        "test modules outside the folders by layer": loose_tests(),
    }
    for title, found in report.items():
        print(f"{title}: {len(found)}")
        for line in found:
            print(f"  {line}")
        off |= bool(found)
    return 1 if off else 0


if __name__ == "__main__":
    sys.exit(main())
