"""The files of the engine that runs in the browser (issue 45; docs/pyodide.md): Pyodide's core
files (CPython compiled to WebAssembly) and the package's own pure-Python layers, which the page's
engine worker (``static/engine/worker.js``) loads to play a game against the computer without the
server.

* Pyodide's files (:data:`PYODIDE_FILES`, served at :data:`PYODIDE_URL`) come with the installed
  package (``cribbage/web/pyodide/``, put into the wheel by ``hatch_build.py`` from the npm package
  ``pyodide`` pinned in package.json), or in a source checkout from ``node_modules/pyodide``
  (``npm ci``).  Without either the browser's engine is unavailable and the page plays against
  the computer at the server, as ever.
* The package's layers (:data:`ENGINE_PACKAGES`: the engine, table, players, AI, review and
  :mod:`cribbage.local`) are zipped once per process from the installed package itself
  (:func:`engine_archive`, served at :data:`ENGINE_URL`): the Python the browser runs is the
  server's, never a copy.

Both are listed in the offline shell (:mod:`cribbage.web.offline`), so that after one visit the
game against the computer works with the network off.
"""

from __future__ import annotations

import hashlib
import tempfile
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Final

__all__ = [
    "ENGINE_PACKAGES",
    "ENGINE_URL",
    "PYODIDE_FILES",
    "PYODIDE_URL",
    "engine_archive",
    "engine_sources",
    "pyodide_dir",
]

PACKAGE: Final = Path(__file__).resolve().parents[1]
"""The installed ``cribbage`` package."""

PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""Pyodide's core files: its loader, the interpreter (WebAssembly and its glue), the standard
library and the list of its packages (none of which the engine needs)."""

PYODIDE_URL: Final = "/engine/pyodide/"
ENGINE_URL: Final = "/engine/cribbage.zip"

ENGINE_PACKAGES: Final = ("engine", "table", "players", "ai", "study", "local")
"""The package's layers the browser runs (tests/core/test_local_boundary.py: they import nothing
of the server's)."""

_SUFFIXES: Final = (".py", ".json")


def pyodide_dir() -> Path | None:
    """Where Pyodide's core files are: the installed package's copy, else a source checkout's
    ``node_modules/pyodide``; None when neither has them all."""
    for place in (PACKAGE / "web" / "pyodide", PACKAGE.parents[1] / "node_modules" / "pyodide"):
        if all((place / name).is_file() for name in PYODIDE_FILES):
            return place
    return None


def _engine_files() -> list[tuple[str, Path]]:
    """The engine's files as ``(name in the archive, file)``: ``cribbage/__init__.py`` and every
    Python and data file of :data:`ENGINE_PACKAGES`, sorted."""
    found = [("cribbage/__init__.py", PACKAGE / "__init__.py")]
    for package in ENGINE_PACKAGES:
        for path in sorted((PACKAGE / package).rglob("*")):
            if path.is_file() and path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                found.append((f"cribbage/{path.relative_to(PACKAGE).as_posix()}", path))
    return found


@lru_cache(maxsize=1)
def engine_archive() -> Path:
    """The zip of the engine's files, made once per process into the temporary folder under a
    name of its content's digest (the same bytes for the same files: fixed times, sorted)."""
    files = _engine_files()
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name.encode() + b"\0" + path.read_bytes())
    target = Path(tempfile.gettempdir()) / f"cribbage-engine-{digest.hexdigest()[:16]}.zip"
    if not target.is_file():
        handle, name = tempfile.mkstemp(dir=target.parent, prefix="cribbage-engine-", suffix=".part")
        part = Path(name)
        with open(handle, "wb") as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for inside, path in files:
                info = zipfile.ZipInfo(inside, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
        part.replace(target)  # whole or not at all, if two processes make it at once
    return target


def engine_sources(_static_dir: Path) -> Iterator[tuple[str, Path]]:
    """The offline shell's source of the engine's files (:data:`cribbage.web.offline.SOURCES`):
    Pyodide's and the package's, when Pyodide is installed."""
    found = pyodide_dir()
    if found is None:
        return
    for name in PYODIDE_FILES:
        yield PYODIDE_URL + name, found / name
    yield ENGINE_URL, engine_archive()
