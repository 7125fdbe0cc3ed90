"""The web server: the page and the JSON API of ``docs/api.md``, as one FastAPI application.

:func:`create_app` builds the application from its :class:`~cribbage.web.settings.Settings`
around a :class:`~cribbage.app.GameService`; ``cribbage serve`` runs it with uvicorn
(each worker process through :func:`app_from_environment`).  The routes are in
:mod:`cribbage.web.routers` by resource, their dependencies in :mod:`.deps`, the bodies and
answers in :mod:`.models` and :mod:`.answers`, the refusals in :mod:`.handlers` (their codes'
statuses in :mod:`.errors`); a game's commands, from a route or the live socket (:mod:`.live`),
go through :mod:`.commands`.  The page is served from the static folder (``/`` is
``index.html``, the rest is under ``/static/``).

The endpoints that may wait on a network (PostgreSQL, Redis) or on a computer player thinking
run in a thread, so that they do not hold up the event loop; the hot ones (a game's state, an
action answered at once) run on the event loop when all they read is in this process, where
the hand-off to a thread and back would cost more than they do
(:meth:`.commands.Commands.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..app import GameService, Players, one_player
from ..app.games.rated import SWEEP_BATCH
from ..app.playnow.orchestrator import QUEUES, PlayNow
from ..players import make_player
from ..storage import Storage
from .background import Stop, stop_tasks
from .commands import Commands
from .errors import DATABASE_ERRORS
from .handlers import add_handlers
from .hardening import add_health, harden
from .live import Live
from .messaging.broker import MemoryBroker, make_broker
from .messaging.presence import Presence
from .messaging.queue import MatchQueue, pair_forever, queue_of
from .middleware import JsonRoute
from .openapi import exact_openapi
from .ratelimits import RateLimits
from .retention import prune_periodically
from .routers import (
    accounts,
    engine,
    games,
    pages,
    passkeys,
    play,
    push,
    shell,
    tables,
    tools,
    tournament_push,
    tournaments,
    train,
    watch,
)
from .routers import players as player_routes
from .settings import STATIC_DIR, Settings
from .webpush import WebPush

__all__ = ["STATIC_DIR", "Players", "Settings", "app_from_environment", "create_app"]

log = logging.getLogger(__name__)


class _Transports:
    """The service's sink (:class:`~cribbage.app.service.Sink`): every stored change, once, to
    this process's sockets (read where it was stored) and published for the others, and the seat
    to act told by Web Push; every chat message to the sockets of its table, in every process."""

    live: Live
    web_push: WebPush

    def changed(self, game_id: str, connected: Collection[int] | None = None) -> None:
        self.live.changed(game_id, connected)
        self.web_push.stored(game_id)  # a correspondence game's seat to act: told in a worker thread

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        self.live.said(game_id, message)


def create_app(settings: Settings | None = None, *, players: Players | None = None) -> FastAPI:
    """The web application of ``settings`` (by default a private SQLite database, every limit
    at its default); ``players`` makes the computer players (by default each seat's level, or
    the settings' ``testing_computer``).

    The service is ``app.state.service``; close it (``app.state.service.close()``) when done.
    """
    settings = settings or Settings()
    if players is None:
        players = one_player(settings.testing_computer) if settings.testing_computer else make_player
    messages = make_broker(settings.broker) if isinstance(settings.broker, str) else settings.broker
    presence = Presence(messages)  # which seats have a socket open: read by the service
    service = GameService(
        Storage(settings.database_url),
        players=players,
        cache_size=settings.cache_size,
        cache_bytes=settings.cache_bytes,
        name_hold_days=settings.name_hold_days,
        presence=presence.connected,
        pair_limit=settings.rated_pair_limit,
        sink=(transports := _Transports()),
    )
    rate = RateLimits(messages.limits_storage(), settings.limits, settings.limits_prefix)
    # All a request reads is in this process (an SQLite file, the in-process broker): the
    # routes and the sockets call the service on the event loop unless a computer may think.
    local = service.storage.local and isinstance(messages, MemoryBroker)
    commands = Commands(service, rate, local=local)  # every command, from a route or a socket
    live = Live(commands, messages, presence)
    web_push = WebPush(service, settings.push_contact, settings.push)
    transports.live, transports.web_push = live, web_push  # before anything is stored

    # "Play now": the queue is Redis when the broker is, and every process pairs (docs/matchmaking.md)
    playing = PlayNow(service, queue_of(messages, settings.queue_prefix, QUEUES))

    app = FastAPI(
        title="cribbage",
        version=__version__,
        description="Cribbage against the computer: the API of the browser game (docs/api.md).",
        docs_url=None,
        redoc_url=None,
        lifespan=_lifespan(settings, service, live, playing, web_push),
    )
    app.state.settings = settings
    app.state.service = service
    app.state.messages = messages
    app.state.live = live
    app.state.play = playing
    app.state.web_push = web_push
    app.state.limits = rate
    app.state.commands = commands
    _serve(app, settings)
    return app


def _serve(app: FastAPI, settings: Settings) -> None:
    """What ``app`` serves: its hardening, its refusals, its routes and the page's files."""
    app.state.reviews = tools.review_slots()
    app.state.static_dir = settings.static_dir
    app.router.route_class = JsonRoute  # the routes of the app itself read bodies as the routers' do
    exact_openapi(app)
    harden(app, settings.hardening)  # the body, headers, HEAD, gzip, hosts, body deadline (issue 17)
    add_health(app, app.state.service.storage)
    add_handlers(app)
    routers = (
        games,
        push,
        tables,
        watch,
        accounts,
        passkeys,
        player_routes,
        play,
        tournaments,
        tournament_push,
        tools,
        train,
        shell,
        engine,
        pages,
    )
    for module in routers:
        app.include_router(module.router)
    if settings.static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=settings.static_dir), name="static")


def _lifespan(
    settings: Settings,
    service: GameService,
    live: Live,
    playing: PlayNow[MatchQueue],
    web_push: WebPush,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life: live updates, pruning, turn clocks, the ratings due and Play
    now's pairing (its queue's, each match made delivered by ``playing``) run while it serves,
    and stop with it."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await live.start()
        stop = Stop()
        pruning = asyncio.create_task(prune_periodically(service, settings.retention, stop))
        ticker = asyncio.create_task(_run_clocks(service, settings.clock_tick, stop))
        pairing = asyncio.create_task(
            pair_forever(playing.queue, playing.deliver, every=settings.pair_every, stop=stop)
        )
        rating = asyncio.create_task(_settle_due(service, settings.rating_every, stop))
        try:
            yield
        finally:
            await stop_tasks(stop, pruning, ticker, pairing, rating)
            await playing.close()
            await live.stop()
            await run_in_threadpool(web_push.close)

    return lifespan


async def _run_clocks(service: GameService, tick: float, stop: Stop) -> None:
    """Every ``tick`` seconds until ``stop``: a computer moves for each person whose turn clock
    ran out (the service publishes each game it moved)."""
    while not await stop.pause(tick):
        with contextlib.suppress(Exception):  # the database away: the next tick tries again
            await run_in_threadpool(service.expire_due)


async def _settle_due(service: GameService, every: float, stop: Stop) -> None:
    """At the start, then every ``every`` seconds until ``stop``: the finished games whose rating
    is still due (a process died, or the database failed, between a game's last save and its
    rating) are rated, a batch after another while there are more (:meth:`GameService.sweep_ratings`:
    the pages of a game rated late are shown its rating changes); and the tournaments whose
    start time has passed are started, and the steps a stopped process left are taken
    (:meth:`Tournaments.sweep`: tables due, their games, games over not yet recorded)."""
    while not stop:
        try:
            while len(await run_in_threadpool(service.sweep_ratings)) == SWEEP_BATCH and not stop:
                pass
            await run_in_threadpool(service.tournaments.sweep)
        except DATABASE_ERRORS as exc:  # the database away: the next round tries again
            log.warning("the database did not answer the rating of the games due (%s)", type(exc).__name__)
        except Exception:
            log.exception("rating the games due failed; trying again in %g s", every)
        if await stop.pause(every):
            return


def app_from_environment() -> FastAPI:
    """The application of ``cribbage serve``, from the settings it left in the environment
    (:meth:`Settings.from_environment`).

    It also tunes this process's garbage collector, in the single process and in each worker
    of ``--workers`` alike: a full pass over a server holding a thousand games takes a tenth of
    a second or more, and the computer players' searches allocate enough to start one every few
    dozen actions.  What is loaded now (modules, players) is kept out of those passes for good,
    and collections come less often: games hold no reference cycles, so nothing waits on them.
    """
    app = create_app(Settings.from_environment())
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    return app
