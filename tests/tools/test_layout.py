"""The layout shows the layers: no import cycles, the engine imports nothing above it, the
application and its storage no interface."""

from __future__ import annotations

import ast
from pathlib import Path

import cribbage

ROOT = Path(cribbage.__file__).parent
LAYERS = ("engine", "players", "ai", "table", "storage", "app", "cli", "tui", "web")


def module_name(path: Path) -> str:
    parts = ("cribbage", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The cribbage modules a module imports when it is loaded (imports inside functions are
    made on use, and type-checking imports never)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If):  # if TYPE_CHECKING: ...
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("cribbage"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("cribbage"):
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {t for t in imports(path) if t in modules and t != name}
        # Importing a module first imports the packages it is in (those of the importer are
        # being imported already: a package may import its own modules).
        parents = {
            p for t in targets for p in _parents(t) if p in modules and not (name + ".").startswith(p + ".")
        }
        edges[name] = targets | parents
    return edges


def _parents(name: str) -> list[str]:
    """The subpackages a module is in (``cribbage`` itself only re-exports the engine's values)."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts))]


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_modules_import_one_another_without_a_cycle() -> None:
    assert find_cycle(graph()) is None


def test_a_cycle_is_found_when_there_is_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_engine_imports_nothing_above_it() -> None:
    for name, targets in graph().items():
        if name.startswith("cribbage.engine"):
            above = {t for t in targets if not t.startswith("cribbage.engine") and t != "cribbage"}
            assert not above, f"{name} imports {sorted(above)}"


def test_players_and_the_table_import_no_interface() -> None:
    interfaces = ("cribbage.cli", "cribbage.tui", "cribbage.web")
    for name, targets in graph().items():
        if name.startswith(("cribbage.players", "cribbage.ai", "cribbage.table")):
            assert not {t for t in targets if t.startswith(interfaces)}, name


def every_import(path: Path, name: str | None = None) -> set[str]:
    """The cribbage modules a module (``name``, by default its path's) names in any import, at
    its top or inside a function."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            found.add(".".join([*anchor, node.module] if node.module else anchor))
    return {module for module in found if module.startswith("cribbage")}


def test_the_application_and_its_storage_import_no_interface() -> None:
    interfaces = ("cribbage.cli", "cribbage.tui", "cribbage.web")
    for package in ("app", "storage"):
        for path in (ROOT / package).rglob("*.py"):
            named = {t for t in every_import(path) if t.startswith(interfaces)}
            assert not named, f"{module_name(path)} imports {sorted(named)}"


def test_an_import_inside_a_function_counts(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from ..web import server\n    import cribbage.tui\n")
    assert every_import(probe, "cribbage.app.probe") == {"cribbage.web", "cribbage.tui"}
