"""The browser's engine (issue 45; :mod:`cribbage.web.engine_files`): Pyodide's core files and the
zip of the package's own layers, which the page's engine worker loads to play a game against the
computer without the server.  Not part of the API (files, like the page's own).

Each answer names its bytes by their digest (``ETag``, strong, the same in every process) and a
request naming them (``If-None-Match``) is answered ``304`` with no body: after a release that
left the engine as it was, a browser that kept it downloads nothing.  Each file is compressed once
a process (gzip, level 6), not at every request: 9.6 MB of WebAssembly cost 1.25 s of CPU to
compress at the middleware's level 9 (bench/bench_browser_game.py).
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response

from ...app import AppError
from ..engine_files import ENGINE_URL, PYODIDE_FILES, PYODIDE_URL, engine_archive, pyodide_dir

router = APIRouter(include_in_schema=False)

_TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}


@lru_cache(maxsize=12)
def _packed(name: str, modified: int, size: int) -> tuple[str, bytes]:
    """A file's ``ETag`` (its bytes' digest) and its gzip, made once per version of the file
    (``modified`` and ``size`` tell a new one)."""
    data = Path(name).read_bytes()
    return f'"{hashlib.sha256(data).hexdigest()[:32]}"', gzip.compress(data, compresslevel=6, mtime=0)


def _file(request: Request, path: Path) -> Response:
    """``path`` as its answer: ``304`` when the request names its bytes, else gzipped when the
    client takes gzip, else as it is."""
    facts = path.stat()
    etag, packed = _packed(str(path), facts.st_mtime_ns, facts.st_size)
    headers = {"cache-control": "no-cache", "etag": etag, "vary": "accept-encoding"}
    asked = [tag.strip().removeprefix("W/") for tag in request.headers.get("if-none-match", "").split(",")]
    if etag in asked:
        return Response(status_code=304, headers=headers)
    media = _TYPES[path.suffix]
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(packed, media_type=media, headers={**headers, "content-encoding": "gzip"})
    return FileResponse(path, media_type=media, headers=headers)


@router.get(PYODIDE_URL + "{name}")
def pyodide_file(request: Request, name: str = PathParam(max_length=64)) -> Response:
    """One of Pyodide's core files (``404 not_found`` for another name, or where this
    installation has no Pyodide: the page then plays at the server)."""
    found = pyodide_dir()
    if name not in PYODIDE_FILES or found is None:
        raise AppError("not_found", f"no engine file {name!r} here")
    return _file(request, found / name)


@router.get(ENGINE_URL)
def engine_zip(request: Request) -> Response:
    """The zip of the package's layers the browser runs (its engine, table, players, AI and
    review), made from this installation."""
    if pyodide_dir() is None:
        raise AppError("not_found", "this installation has no engine for the browser")
    return _file(request, engine_archive())
