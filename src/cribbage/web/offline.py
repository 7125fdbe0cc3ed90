"""The offline app shell (issue 45, item 1): every file the pages need, which the service worker
(``/sw.js``) downloads when it installs, so that after one visit the pages open with the
network off.

:func:`shell_listing` makes the list from :data:`SOURCES`, a registry of functions that each
name some files as ``(URL, file on disk)`` pairs: the pages (:func:`page_files`: ``/``,
``/howto``, ``/review``, ``/practice``, ``/tournaments`` and the manifest) and every file of the
static folder (:func:`static_files`: the modules, the stylesheets, the translations, the icons).
More files are added by appending a source to :data:`SOURCES` (or by passing ``sources``): the
engine's files for a game against the computer with the network off (issue 45, items 2 and 3)
are one (:func:`cribbage.web.engine_files.engine_sources`).

The listing's ``version`` is a digest of every listed URL and its file's bytes: it changes when
any file changes (or one is added or removed), and the worker keeps one cache a version.
Nothing under ``/api/`` (and not the live socket, ``/api/.../live``) is ever listed: a source
naming such an URL is a programming error (``ValueError``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from .engine_files import engine_sources

__all__ = [
    "KEPT_ON_USE",
    "MANIFEST_FILE",
    "MANIFEST_URL",
    "SHELL_PAGES",
    "SHELL_VERSION_HEADER",
    "SOURCES",
    "WORKER_FILE",
    "ShellListing",
    "ShellSource",
    "page_files",
    "shell_listing",
    "static_files",
]

ShellSource = Callable[[Path], Iterable[tuple[str, Path]]]
"""A source of the shell's files: given the static folder, ``(URL, file on disk)`` pairs."""

SHELL_PAGES: Final = {
    "/": "index.html",
    "/howto": "howto.html",
    "/review": "review.html",
    "/practice": "practice.html",
    "/tournaments": "tournament.html",
}
"""The pages kept offline, by their address, and their files in the static folder."""

MANIFEST_URL: Final = "/manifest.webmanifest"
MANIFEST_FILE: Final = "manifest.webmanifest"
SHELL_VERSION_HEADER: Final = "x-shell-version"
"""The header of every page's answer naming the shell's version it belongs to."""
WORKER_FILE: Final = "sw.js"
"""The service worker, served at ``/sw.js`` (never listed: the browser keeps it itself)."""

_NOT_STATIC: Final = frozenset({MANIFEST_FILE, WORKER_FILE})
"""Files of the static folder served at an address of their own (listed there, or not at all)."""

_NEVER: Final = ("/api/",)
"""Where no listed URL may be: the API's answers (a hand, a token) and the live socket."""


@dataclass(frozen=True)
class ShellListing:
    """What ``GET /offline.json`` answers: the shell's version, its files' URLs, sorted, and those
    kept on their first use (``engine``)."""

    version: str
    files: tuple[str, ...]
    engine: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"version": self.version, "files": list(self.files), "engine": list(self.engine)}


def page_files(static_dir: Path) -> Iterator[tuple[str, Path]]:
    """The pages of :data:`SHELL_PAGES` and the web app manifest."""
    for url, name in SHELL_PAGES.items():
        yield url, static_dir / name
    yield MANIFEST_URL, static_dir / MANIFEST_FILE


def static_files(static_dir: Path) -> Iterator[tuple[str, Path]]:
    """Every file served under ``/static/`` that a page loads: not the HTML (the pages are
    listed at their own addresses), not the worker or the manifest, nothing hidden."""
    for path in sorted(static_dir.rglob("*")):
        relative = path.relative_to(static_dir)
        hidden = any(part.startswith(".") or part == "__pycache__" for part in relative.parts)
        if path.is_file() and not hidden and path.suffix != ".html" and str(relative) not in _NOT_STATIC:
            yield "/static/" + relative.as_posix(), path


SOURCES: list[ShellSource] = [page_files, static_files]
"""The registry of the shell's sources, in order: the pages and the static files."""

KEPT_ON_USE: list[ShellSource] = [engine_sources]
"""The sources of files kept when first used, not when the worker installs: the engine the
browser runs (:func:`cribbage.web.engine_files.engine_sources`: 14 MB, which a visit that never
plays against the computer in the browser need not download).  Listed as ``engine``, and counted
in the version (a new engine is a new version)."""


def shell_listing(
    static_dir: Path,
    sources: Iterable[ShellSource] | None = None,
    on_use: Iterable[ShellSource] | None = None,
) -> ShellListing:
    """The shell's files from ``sources`` (:data:`SOURCES` by default), those kept on use from
    ``on_use`` (:data:`KEPT_ON_USE`), and the version of them all.

    A file missing from the installation is left out (the page then works online only); an URL
    named twice is listed once, from its first source."""
    first = _found(static_dir, SOURCES if sources is None else sources)
    later = {url: path for url, path in _found(static_dir, KEPT_ON_USE if on_use is None else on_use).items()}
    later = {url: path for url, path in later.items() if url not in first}
    kept = tuple(sorted((url, path) for url, path in {**first, **later}.items()))
    stamps = tuple((url, str(path), *_stamp(path)) for url, path in kept)
    return ShellListing(_version(stamps), tuple(sorted(first)), tuple(sorted(later)))


def _found(static_dir: Path, sources: Iterable[ShellSource]) -> dict[str, Path]:
    """The files of ``sources`` that exist, by URL (each URL from its first source)."""
    found: dict[str, Path] = {}
    for source in sources:
        for url, path in source(static_dir):
            if not url.startswith("/") or url.startswith(_NEVER):
                raise ValueError(f"{url!r} cannot be kept offline: only the site's own files, never /api/")
            found.setdefault(url, path)
    return {url: path for url, path in found.items() if path.is_file()}


@lru_cache(maxsize=8)
def _version(stamps: tuple[tuple[str, str, int, int, int], ...]) -> str:
    """The digest of the listed URLs and their files' bytes, read again only when a file's time
    or size changed (``stamps``: each URL, its file and :func:`_stamp`'s facts of it)."""
    digest = hashlib.sha256()
    for url, name, *_ in stamps:
        content = Path(name).read_bytes()
        digest.update(f"{url}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:20]


def _stamp(path: Path) -> tuple[int, int, int]:
    """What tells a file's bytes changed without reading them: its inode (a file replaced),
    modification time and size."""
    facts = path.stat()
    return facts.st_ino, facts.st_mtime_ns, facts.st_size
