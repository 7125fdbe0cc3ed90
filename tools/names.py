"""List the names that mean two things: every class, module-level function or type alias defined
in two or more modules of ``src/cribbage`` (issue 43, "names that mean one thing").

    python tools/names.py

Walks the syntax tree of each module; a type alias is a module-level assignment to a CamelCase
name (``Presence = Callable[...]``); private names (``_x``) and dunders are left out. Prints
each clash as ``name: module, module, ...`` and exits 1 if there is one, 0 if there is none.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "cribbage"

# Names that are deliberately the same in several modules because a framework looks them up by
# that name: (name, the package whose modules may all define it) → why.
ALLOWED: dict[tuple[str, str], str] = {
    ("add_arguments", "cribbage.cli"): "each subcommand's options, called by cli/__init__.py",
    ("run", "cribbage.cli"): "each subcommand's entry point, called by cli/__init__.py",
    ("upgrade", "cribbage.storage.migrations.versions"): "a migration step, called by Alembic",
    ("downgrade", "cribbage.storage.migrations.versions"): "a migration step, called by Alembic",
}


def module_name(path: Path, root: Path) -> str:
    """``root/app/games/live_game.py`` → ``cribbage.app.games.live_game`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root.name, *parts])


def _alias(node: ast.stmt) -> str | None:
    """The name a module-level assignment gives a type alias, if it is one (CamelCase)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    if len(targets) == 1 and isinstance(targets[0], ast.Name):
        name = targets[0].id
        if name[:1].isupper() and not name.isupper():
            return name
    return None


def defined_names(source: str) -> set[str]:
    """The public classes, functions and type aliases ``source`` defines at module level."""
    kinds = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    names = {node.name if isinstance(node, kinds) else _alias(node) for node in ast.parse(source).body}
    return {name for name in names if name and not name.startswith("_")}


def _allowed(name: str, modules: list[str]) -> bool:
    return any(
        (name, package) in ALLOWED and all(module.startswith(package + ".") for module in modules)
        for package in {module.rpartition(".")[0] for module in modules}
    )


def clashes(root: Path = SOURCE) -> dict[str, list[str]]:
    """Each name defined in two or more modules under ``root``, with those modules, sorted."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for name in defined_names(path.read_text(encoding="utf-8")):
            where[name].append(module_name(path, root))
    return {
        name: modules
        for name, modules in sorted(where.items())
        if len(modules) > 1 and not _allowed(name, modules)
    }


def main() -> int:
    found = clashes()
    for name, modules in found.items():
        print(f"{name}: {', '.join(modules)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
