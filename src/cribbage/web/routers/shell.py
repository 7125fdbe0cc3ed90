"""The installable app (issue 45, item 1): the web app manifest, the service worker and the list
of the files it keeps for the pages to open offline (:mod:`cribbage.web.offline`)."""

from __future__ import annotations

from pathlib import Path as FilePath

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ...app import AppError
from ..offline import MANIFEST_FILE, MANIFEST_URL, WORKER_FILE, shell_listing

router = APIRouter(include_in_schema=False)

_NO_CACHE = {"cache-control": "no-cache"}


def _static_dir(request: Request) -> FilePath:
    static_dir: FilePath = request.app.state.static_dir
    return static_dir


@router.get(MANIFEST_URL)
def manifest(request: Request) -> Response:
    """The web app manifest (name, icons, colours, ``display: standalone``): what makes the
    page installable."""
    path = _static_dir(request) / MANIFEST_FILE
    if not path.is_file():
        raise AppError("not_found", f"{MANIFEST_FILE} is missing from this installation")
    return FileResponse(path, media_type="application/manifest+json", headers=_NO_CACHE)


@router.get("/offline.json")
def offline_files(request: Request) -> Response:
    """``{"version", "files"}``: what the service worker keeps for the pages to open offline,
    and the digest of it all (a new version when any file changes)."""
    return JSONResponse(shell_listing(_static_dir(request)).as_json(), headers=_NO_CACHE)


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    """The page's service worker, from the site's root: its scope is the whole site (the notices
    of Web Push, a click on one focusing or opening the game's page; the offline shell).  The
    shell's version closes it, so that the browser, which compares the worker's bytes, installs
    it anew (and so downloads the new files) whenever any listed file changed."""
    path = _static_dir(request) / WORKER_FILE
    if not path.is_file():
        raise AppError("not_found", f"{WORKER_FILE} is missing from this installation")
    version = shell_listing(_static_dir(request)).version
    script = path.read_text(encoding="utf-8") + f"// The offline shell's version (/offline.json): {version}\n"
    return Response(script, media_type="text/javascript", headers=_NO_CACHE)
