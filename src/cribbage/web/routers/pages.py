"""The HTML pages: the game (also at an invitation's and a watch link's address), the how-to,
the review page, the trainers' page and the tournaments' page, each a file of the static folder
(``app.state.static_dir``)."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import FileResponse, Response

from ...app import AppError
from ..models import Code
from ..offline import SHELL_VERSION_HEADER, shell_listing

router = APIRouter(include_in_schema=False)


def page(request: Request, name: str) -> Response:
    """The page ``name`` of the static folder, never cached without asking again."""
    static_dir: FilePath = request.app.state.static_dir
    path = static_dir / name
    if not path.is_file():
        raise AppError("not_found", f"{name} is missing from this installation")
    # The offline shell's version the page belongs to: the service worker, which keeps an older
    # one, then takes the page's files from the network (static/sw.js, networkFirst).
    version = shell_listing(static_dir).version
    return FileResponse(path, headers={"cache-control": "no-cache", SHELL_VERSION_HEADER: version})


@router.get("/")
def index(request: Request) -> Response:
    return page(request, "index.html")


@router.get("/howto")
def howto(request: Request) -> Response:
    return page(request, "howto.html")


@router.get("/review")
def review_page(request: Request) -> Response:
    """The review page: a game's review (``POST /api/review``) in the browser."""
    return page(request, "review.html")


@router.get("/practice")
def practice(request: Request) -> Response:
    """The trainers' page: the drills of ``/api/train/...`` in the browser."""
    return page(request, "practice.html")


@router.get("/tournaments")
def tournaments_page(request: Request) -> Response:
    """The tournaments' page: the list, and a form to create one (``/api/tournaments``)."""
    return page(request, "tournament.html")


@router.get("/tournaments/{tournament_id}")
def tournament_page(request: Request, tournament_id: Annotated[str, Path(max_length=64)]) -> Response:
    """One tournament's page, which reads its id from its address (``/api/tournaments/{id}``)."""
    return page(request, "tournament.html")


@router.get("/join/{code}")
def invitation(request: Request, code: Code) -> Response:
    """An invitation's link: the page, which reads the code from its address."""
    return page(request, "index.html")


@router.get("/watch/{code}")
def watch_page(request: Request, code: Code) -> Response:
    """A watch link: the page, which reads the code from its address and only watches."""
    return page(request, "index.html")
