"""The browser's engine (issue 45; :mod:`cribbage.web.engine_files`): Pyodide's core files and the
zip of the package's own layers, which the page's engine worker loads to play a game against the
computer without the server.  Not part of the API (files, like the page's own)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response

from ...app import AppError
from ..engine_files import ENGINE_URL, PYODIDE_FILES, PYODIDE_URL, engine_archive, pyodide_dir

router = APIRouter(include_in_schema=False)

_NO_CACHE = {"cache-control": "no-cache"}
"""Revalidated (their ETag): the service worker keeps them for offline; the browser asks again."""

_TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}


@router.get(PYODIDE_URL + "{name}")
def pyodide_file(name: str = PathParam(max_length=64)) -> Response:
    """One of Pyodide's core files (``404 not_found`` for another name, or where this
    installation has no Pyodide: the page then plays at the server)."""
    found = pyodide_dir()
    if name not in PYODIDE_FILES or found is None:
        raise AppError("not_found", f"no engine file {name!r} here")
    media = _TYPES[name[name.rindex(".") :]]
    return FileResponse(found / name, media_type=media, headers=_NO_CACHE)


@router.get(ENGINE_URL)
def engine_zip() -> Response:
    """The zip of the package's layers the browser runs (its engine, table, players, AI and
    review), made from this installation."""
    if pyodide_dir() is None:
        raise AppError("not_found", "this installation has no engine for the browser")
    return FileResponse(engine_archive(), media_type="application/zip", headers=_NO_CACHE)
