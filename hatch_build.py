"""The build hook: Pyodide's core files go into the wheel (``cribbage/web/pyodide/``), from
the npm package ``pyodide`` pinned in package.json (``npm ci`` first), so that a person who
installs the wheel with pip, without Node.js, has the browser's engine too (issue 45;
docs/pyodide.md).  Without ``node_modules/pyodide`` the wheel is built without them (a warning
says so) and the page plays against the computer at the server only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's core files (cribbage.web.engine_files.PYODIDE_FILES)."""


class PyodideFiles(BuildHookInterface):  # type: ignore[type-arg]  # hatchling is generic over its config
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":  # an editable install serves them from the tree's node_modules
            return
        source = Path(self.root) / "node_modules" / "pyodide"
        if not all((source / name).is_file() for name in FILES):
            self.app.display_warning(
                f"{source} is missing (npm ci): no browser engine in the {self.target_name}"
            )
            return
        # The sdist keeps them where they were, so that a wheel built from it has them too.
        place = "cribbage/web/pyodide" if self.target_name == "wheel" else "node_modules/pyodide"
        for name in FILES:
            build_data["force_include"][str(source / name)] = f"{place}/{name}"
