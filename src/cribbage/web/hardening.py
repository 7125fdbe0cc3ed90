"""Web hardening for a public deployment (issue 17, item 4): what every answer of
``cribbage serve`` carries and what every request must respect, apart from the game itself.

:func:`harden` wraps the application of :func:`cribbage.web.server.create_app` in these layers,
from the outside in:

* **allowed hosts** (:class:`HostsMiddleware`): a request whose ``Host`` header is not one of
  :attr:`Hardening.allowed_hosts` is answered ``400`` (DNS rebinding, forged links).  ``None``
  allows any host (the default of :func:`create_app`, for tests); ``cribbage serve`` allows the
  localhost names and its listening address unless ``--allowed-hosts`` says otherwise.
  ``GET /api/health`` answers whatever the host, so a load balancer may probe a process by its
  address.
* **HEAD wherever GET is served**, **headers** and **the body deadline**
  (:class:`~cribbage.web.middleware.EdgeMiddleware`, which also reads the body whole and
  bounded): a ``HEAD`` is answered as the ``GET`` would be, without the
  body; every answer carries the Content-Security-Policy :data:`CSP` and the
  :data:`PERMISSIONS_POLICY`; files under ``/static/`` are ``Cache-Control: no-cache`` (the
  browser keeps them and revalidates them with their ``ETag``: see docs/deploy.md); a request
  body must arrive whole within :attr:`Hardening.body_timeout` seconds of the request's headers,
  else ``408`` and the connection is closed (slow or half-sent bodies cannot hold a server).
* **compression** (:class:`GzipGetMiddleware`): answers to ``GET`` (and so ``HEAD``) of 500 bytes
  or more are gzipped when the client accepts it.  Answers to ``POST`` are not: they carry fresh
  secret tokens next to text a client chose (a name), which is what length-based attacks on
  compressed TLS (BREACH) need.

Below the application, :class:`HeaderDeadlineProtocol` (``cribbage serve`` runs uvicorn with
it) closes connections whose request line and headers do not arrive in time.

Game ids are checked here before anything looks them up (:func:`good_game_id`): an id that
could never have been made (a quote, an accent) is "no such game", never a database error (a NUL
byte never gets this far: :class:`~cribbage.web.middleware.EdgeMiddleware` refuses it, ``bad_text``).

Client addresses: ``cribbage serve`` trusts no proxy's ``X-Forwarded-For`` unless told which
proxies to trust (``--forwarded-allow-ips``, :func:`uvicorn_options`): by default the address
the limits count is the connection's, whoever connects.

The health endpoint ``GET /api/health`` (:func:`add_health`) answers ``{"ok": true}`` once the
database answers a query, else ``503 {"ok": false, "error": ...}``.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from typing import Any, Final

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..storage import Storage
from .middleware import EdgeMiddleware

__all__ = [
    "CSP",
    "ENGINE_CSP",
    "ENGINE_WORKER",
    "LOCAL_HOSTS",
    "PERMISSIONS_POLICY",
    "Hardening",
    "HeaderDeadlineProtocol",
    "add_health",
    "default_hosts",
    "good_game_id",
    "harden",
    "uvicorn_options",
]

CSP: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # The page sets styles through the CSSOM (el.style.setProperty), which a policy allows,
        # never as a style attribute or a <style> element: no 'unsafe-inline' anywhere.
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The Content-Security-Policy of every answer: scripts, styles and requests from this server
only, no inline script or style (no ``'unsafe-inline'``), no plug-ins, no framing."""

ENGINE_WORKER: Final = "/static/engine/worker.js"
"""The browser's engine worker (issue 45): the one script whose policy lets it compile
WebAssembly (Pyodide's interpreter), ``'wasm-unsafe-eval'``; a worker's policy is its script's,
so the pages keep theirs (and JavaScript's ``eval`` stays refused everywhere)."""

ENGINE_CSP: Final = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")

PERMISSIONS_POLICY: Final = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
)
"""The browser features the page never uses, denied to it and to anything it could embed."""

LOCAL_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
"""The names of this machine that are always allowed by :func:`default_hosts`."""

HEALTH_PATH: Final = "/api/health"
GZIP_MINIMUM: Final = 500
"""Answers smaller than this (bytes) are not worth compressing."""


GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id may be: ids are ``secrets.token_urlsafe`` text (32 characters)."""


def good_game_id(game_id: str) -> bool:
    """Whether ``game_id`` could be a game's id (else it is no game's: answer "not found").

    >>> good_game_id("kq3M-x_9"), good_game_id("ab\\x00cd"), good_game_id("")
    (True, False, False)
    """
    return GAME_ID.fullmatch(game_id) is not None


WS_MAX_SIZE: Final = 4096
"""The largest WebSocket message uvicorn accepts from a client under ``cribbage serve`` (bytes,
once decompressed): :data:`cribbage.web.live.MAX_MESSAGE`, refused before it is read whole."""


def uvicorn_options(forwarded_allow_ips: str = "") -> dict[str, Any]:
    """uvicorn's settings for ``cribbage serve`` (its one process or each worker): small
    WebSocket messages, and ``X-Forwarded-For`` read only from the proxies listed in
    ``forwarded_allow_ips`` (comma-separated addresses or networks; ``""``: none, the default,
    so the address limits count is the connection's whatever a client writes in its headers)."""
    trusted = ",".join(part.strip() for part in forwarded_allow_ips.split(",") if part.strip())
    if not trusted:
        return {"ws_max_size": WS_MAX_SIZE, "proxy_headers": False}
    return {"ws_max_size": WS_MAX_SIZE, "proxy_headers": True, "forwarded_allow_ips": trusted}


@dataclass(frozen=True)
class Hardening:
    """The settings of :func:`harden`.

    Attributes:
        allowed_hosts: the ``Host`` names accepted (``*.example.org`` allows subdomains, ``*``
            any host); ``None``: any host.
        body_timeout: seconds a request body may take to arrive, from its headers.
    """

    allowed_hosts: tuple[str, ...] | None = None
    body_timeout: float = 15.0


def default_hosts(listen: str) -> tuple[str, ...]:
    """The hosts ``cribbage serve --host LISTEN`` allows by default: the localhost names and the
    listening address (a wildcard address allows no more: name the public host with
    ``--allowed-hosts``)."""
    hosts = list(LOCAL_HOSTS)
    if listen not in ("0.0.0.0", "::", ""):
        (address,) = parse_hosts(listen)
        if address not in hosts:
            hosts.append(address)
    return tuple(hosts)


def parse_hosts(value: str) -> tuple[str, ...]:
    """``a,b`` as ``("a", "b")``: blanks dropped, names lower-cased, IPv6 addresses in brackets
    (as a ``Host`` header writes them: ``[::1]``)."""
    hosts = []
    for part in value.split(","):
        host = part.strip().lower()
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        if host:
            hosts.append(host)
    return tuple(hosts)


class HostsMiddleware:
    """Starlette's :class:`TrustedHostMiddleware`, except for the health endpoint."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        self.app = app
        self.checked = TrustedHostMiddleware(app, allowed_hosts=list(allowed_hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope["path"] != HEALTH_PATH:
            await self.checked(scope, receive, send)
        else:
            await self.app(scope, receive, send)


_CSP_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
]
_ENGINE_HEADERS: Final = [
    (b"content-security-policy", ENGINE_CSP.encode()),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
]


class GzipGetMiddleware:
    """Gzip for answers to GET (and HEAD, which reaches the application as GET); never POST."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=GZIP_MINIMUM)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def harden(app: FastAPI, settings: Hardening) -> None:
    """Add the layers of this module to ``app`` (after its own middleware: these are outside),
    with the request's edge (:class:`~cribbage.web.middleware.EdgeMiddleware`: the body, HEAD,
    the headers) between the allowed hosts and the compression."""
    app.add_middleware(GzipGetMiddleware)
    app.add_middleware(
        EdgeMiddleware,
        body_timeout=settings.body_timeout,
        extra_headers=_CSP_HEADERS,
        by_path={ENGINE_WORKER: _ENGINE_HEADERS},
    )
    if settings.allowed_hosts is not None:
        app.add_middleware(HostsMiddleware, allowed_hosts=settings.allowed_hosts)


def add_health(app: FastAPI, storage: Storage) -> None:
    """``GET /api/health``: ``200 {"ok": true}`` when the database answers, else ``503``."""

    @app.get(HEALTH_PATH, tags=["health"], responses={503: {"description": "the database is unavailable"}})
    def health() -> JSONResponse:
        """For load balancers: whether this process and its database answer."""
        try:
            with storage.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception:
            return JSONResponse({"ok": False, "error": "the database is unavailable"}, status_code=503)
        return JSONResponse({"ok": True})


# --------------------------------------------------------------------------- slow headers

HEADER_TIMEOUT_ENV: Final = "CRIBBAGE_SERVE_HEADER_TIMEOUT"
"""Where ``cribbage serve --header-timeout`` leaves its seconds for :class:`HeaderDeadlineProtocol`
(read in each worker process)."""

HEADER_TIMEOUT: Final = 10.0


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's fast HTTP/1.1 protocol (httptools, the C parser of Node.js) with a deadline on a
    request's headers.

    uvicorn times out idle connections between requests only (``timeout_keep_alive``): a client
    that opens a connection and sends nothing, or half a request line and its headers, holds it
    for ever.  Here, from the moment the connection is open or a new request's first bytes
    arrive, the whole head of the request must arrive within :data:`HEADER_TIMEOUT` seconds
    (``$CRIBBAGE_SERVE_HEADER_TIMEOUT``), else the answer is ``408`` and the connection is
    closed.  The body has its own deadline (:class:`~cribbage.web.middleware.EdgeMiddleware`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = float(os.environ.get(HEADER_TIMEOUT_ENV, HEADER_TIMEOUT))
        self._head_timer: asyncio.TimerHandle | None = None
        self._waiting_after: object = None

    def _waiting_for_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._head_timer is None:
            self._waiting_after = self.cycle
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._waiting_for_head():
            self._arm()
        super().data_received(data)
        if self.cycle is not self._waiting_after:
            self._disarm()  # a new request's head is in

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the head is in; the connection now belongs to the WebSocket protocol
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.cycle is not self._waiting_after:
            return
        if self._waiting_for_head():
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            )
            self.transport.close()
