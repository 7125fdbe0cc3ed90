"""``cribbage serve``: the browser game on this machine.

    cribbage serve [--host 127.0.0.1] [--port 8000] [--db URL] [--broker URL] [--workers N]
                   [--allowed-hosts a,b] [--header-timeout S] [--body-timeout S] [--keep-alive-timeout S]
                   [--forwarded-allow-ips a,b]
                   [--limit NAME=SPEC ...]
                   [--keep-days N] [--keep-finished-days N] [--name-hold-days N]
                   [--prune-interval S] [--cache-mb MB]
                   [--push-hosts a,*.b] [--push-ports 443] [--push-private-addresses]
                   [--push-timeout S] [--push-ca-file PEM]

Games are kept in an SQLite file in the user's data folder unless ``--db`` names another
SQLAlchemy URL (``postgresql://...``, with its driver installed) or a file.  Live updates reach
the pages through the broker: ``memory`` (one process) or Redis (``redis://HOST:6379``), which
carries them between several processes (``--workers``) and several hosts on one database.
The abuse limits (:mod:`cribbage.web.ratelimits`) count in the same broker; ``--limit`` changes
one of them (``--limit create=10/minute``, ``--limit score=off``).  They count client addresses
as connections give them: a proxy's ``X-Forwarded-For`` is read only from the addresses of
``--forwarded-allow-ips`` (none by default).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import TYPE_CHECKING, Any

from ..engine.errors import CribbageError

if TYPE_CHECKING:
    from ..app.notify.endpoints import PushRules
    from ..web.retention import Retention
    from ..web.settings import Settings

HELP = "play in the browser: start the web server (the page and its JSON API)"


def _port(text: str) -> int:
    if not text.isdecimal() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _add_server_arguments(parser)
    _add_hardening_arguments(parser)
    _add_retention_arguments(parser)
    _add_push_arguments(parser)
    # Tests only: every computer seat is played by this player (e.g. "random") whatever the
    # level asked for, so tests can run before the computer levels are registered.
    parser.add_argument("--testing-computer", metavar="PLAYER", help=argparse.SUPPRESS)


def _add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the server listens, keeps its games and carries live updates, in how many processes."""
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=_port, default=8000, help="the port to listen on (default 8000; 0: any free port)"
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="where games are kept: an SQLAlchemy URL or an SQLite file "
        "(default: $XDG_DATA_HOME/cribbage/games.db)",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        default="memory",
        help="what carries live updates between server processes: memory (one process, the default) "
        "or a redis:// URL",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes sharing the port (default 1; more need --broker redis://...)",
    )


def _add_hardening_arguments(parser: argparse.ArgumentParser) -> None:
    """Web hardening (issue 17): allowed hosts, timeouts, trusted proxies, and the abuse limits."""
    parser.add_argument(
        "--allowed-hosts",
        metavar="HOSTS",
        help="the Host names the server answers, comma-separated (*.example.org: its subdomains; "
        "*: any); default: localhost, 127.0.0.1, [::1] and the --host address",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="how long a request body may take to arrive before the answer is 408 (default 15)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long a request's line and headers may take to arrive before the connection is "
        "closed with 408 (default 10)",
    )
    parser.add_argument(
        "--keep-alive-timeout",
        type=int,
        default=5,
        metavar="SECONDS",
        help="how long an idle connection is kept open between requests (default 5)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default="",
        help="the proxies whose X-Forwarded-For header gives the client's address, comma-separated "
        "(e.g. 127.0.0.1 for a proxy on this machine); default: none, every address is the connection's",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="change an abuse limit (repeatable): SPEC like 30/minute;300/hour, or off; the limits are "
        "create, join, wrong_token, score and token (docs/deploy.md gives their defaults)",
    )


def _add_retention_arguments(parser: argparse.ArgumentParser) -> None:
    """Retention and memory (issue 17): how long games and names are kept, the games' cache."""
    parser.add_argument(
        "--keep-days",
        metavar="N",
        default="30",
        help="remove a game in progress nobody has touched for N days (default 30; 0: keep forever)",
    )
    parser.add_argument(
        "--keep-finished-days",
        metavar="N",
        default="365",
        help="remove a finished game (and its downloadable record) N days after its end "
        "(default 365; 0: keep forever)",
    )
    parser.add_argument(
        "--name-hold-days",
        metavar="N",
        default="30",
        help="hold a deleted account's name for N days: no new account takes it, nor a look-alike "
        "(default 30; 0: free at once)",
    )
    parser.add_argument(
        "--prune-interval",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="how often each server process removes the old games (default 3600; the first time "
        "a minute after it starts)",
    )
    parser.add_argument(
        "--cache-mb",
        type=int,
        default=256,
        metavar="MB",
        help="the memory the games held in memory may take, estimated (default 256): beyond it the "
        "least recently used leave, finished games first, and are replayed from the database when asked",
    )


def _add_push_arguments(parser: argparse.ArgumentParser) -> None:
    """Web Push (issue 41): where notices may be sent (docs/api.md, "Web Push")."""
    parser.add_argument(
        "--push-hosts",
        metavar="HOSTS",
        help="the push services notices may be sent to, comma-separated (*.example.org: its "
        "subdomains); default: the browsers' (fcm.googleapis.com, updates.push.services.mozilla.com, "
        "*.notify.windows.com, web.push.apple.com, *.push.apple.com)",
    )
    parser.add_argument(
        "--push-ports",
        metavar="PORTS",
        help="the ports push endpoints may have, comma-separated (default 443)",
    )
    parser.add_argument(
        "--push-private-addresses",
        action="store_true",
        default=None,
        help="send notices to push services at private, loopback or link-local addresses too "
        "(a push service on your own network; default: public addresses only)",
    )
    parser.add_argument(
        "--push-timeout",
        metavar="SECONDS",
        help="how long a push service may take to connect, and to answer (default 5)",
    )
    parser.add_argument(
        "--push-ca-file",
        metavar="PEM",
        help="the certificates push services' certificates are checked against (default: the system's)",
    )


def run(args: argparse.Namespace) -> int:
    from ..storage import database_url, default_url, safe_url
    from ..web import workers
    from ..web.hardening import uvicorn_options

    url = database_url(args.db) if args.db else default_url()
    _check_options(args)
    _prepare(args, url)
    balanced = args.workers > 1 and workers.balanced()
    sock = _listen(args.host, args.port, shared=balanced)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host

    def announce() -> None:
        print(f"Open http://{host}:{port} in your browser", flush=True)
        print(f"Games are kept in {safe_url(url)}", flush=True)

    served = uvicorn_options(args.forwarded_allow_ips)  # small WebSocket messages, proxies trusted
    if balanced:  # each worker listens on its own socket; this one only keeps the port
        options = {"log_level": "warning", "timeout_keep_alive": args.keep_alive_timeout, **served}
        try:
            return workers.run_workers(args.host, port, args.workers, options, announce)
        finally:
            sock.close()
    announce()
    _serve(args, sock, served)
    return 0


def _check_options(args: argparse.Namespace) -> None:
    """Fail now, naming it, on an unknown test player or broker, or workers without a broker."""
    from ..players import make_player
    from ..web.messaging.broker import make_broker

    computer = args.testing_computer
    if computer:
        make_player(computer)  # an unknown name fails now, with the known names
        print(
            f"TESTING: every computer seat plays {computer!r}, whatever level is asked for", file=sys.stderr
        )
    if args.workers < 1:
        raise CribbageError(f"--workers must be at least 1, not {args.workers}")
    make_broker(args.broker)  # an unknown broker fails now, naming it
    if args.workers > 1 and args.broker == "memory":
        raise CribbageError(
            "several --workers share live updates through a broker: add --broker redis://HOST:6379"
        )


def _prepare(args: argparse.Namespace, url: str) -> None:
    """Set the environment each process builds its application from, and bring the database's
    schema to the newest (here, once, not raced by the workers)."""
    from ..storage import Storage, safe_url
    from ..web.hardening import HEADER_TIMEOUT_ENV
    from .admin import describe

    settings = settings_of(args, url)
    # Each process (this one, or each worker of --workers) builds its application from these.
    os.environ.update(settings.environment())
    os.environ[HEADER_TIMEOUT_ENV] = str(args.header_timeout)  # read by uvicorn's protocol
    storage = Storage(url)  # its schema brought to the newest here, once, not raced by the workers
    storage.close()
    if storage.migrated.changed and not storage.migrated.created:
        print(f"{describe(storage.migrated)}: {safe_url(url)}", file=sys.stderr)


def _serve(args: argparse.Namespace, sock: socket.socket, served: dict[str, Any]) -> None:
    """Serve on ``sock`` until stopped: in this process, or in ``--workers`` processes that
    share it."""
    import uvicorn

    from ..web.hardening import HeaderDeadlineProtocol
    from ..web.server import app_from_environment

    if args.workers > 1:
        # Each worker process builds its application from the environment set above.
        try:
            uvicorn.run(
                "cribbage.web.server:app_from_environment",
                factory=True,
                fd=sock.fileno(),
                workers=args.workers,
                log_level="warning",
                timeout_keep_alive=args.keep_alive_timeout,
                http=HeaderDeadlineProtocol,
                **served,
            )
        finally:
            sock.close()
        return
    app = app_from_environment()  # which also tunes the garbage collector (each worker too)
    try:
        uvicorn.Server(
            uvicorn.Config(
                app,
                log_level="warning",
                timeout_keep_alive=args.keep_alive_timeout,
                http=HeaderDeadlineProtocol,
                **served,
            )
        ).run(sockets=[sock])
    finally:
        app.state.service.close()
        sock.close()


def settings_of(args: argparse.Namespace, url: str) -> Settings:
    """The server's settings from the options of ``cribbage serve`` (the database at ``url``),
    each checked now, naming its option.

    Raises:
        CribbageError: an option out of its range, or a ``--limit`` that is not one.
    """
    from ..web.hardening import Hardening, parse_hosts
    from ..web.retention import parse_days
    from ..web.settings import MEGABYTE, Settings

    return Settings(
        database_url=url,
        testing_computer=args.testing_computer or None,
        broker=args.broker,
        limits=_limits(args.limit),
        hardening=Hardening(allowed_hosts=parse_hosts(_hosts(args)), body_timeout=args.body_timeout),
        retention=_retention(args),
        cache_bytes=args.cache_mb * MEGABYTE,
        push=_push_rules(args),
        name_hold_days=parse_days(args.name_hold_days, "--name-hold-days"),
    )


def _push_rules(args: argparse.Namespace) -> PushRules:
    """The Web Push rules of the options, over any ``CRIBBAGE_SERVE_PUSH_*`` already set.

    Raises:
        CribbageError: a port or a timeout that is not one, or no host.
    """
    from ..web.settings import ENVIRONMENT, push_rules

    def given(name: str) -> str | None:
        value = getattr(args, name)
        return os.environ.get(ENVIRONMENT[name]) if value is None else str(value)

    private = args.push_private_addresses or os.environ.get(ENVIRONMENT["push_private"]) == "1"
    try:
        return push_rules(
            given("push_hosts"), given("push_ports"), private, given("push_timeout"), given("push_ca_file")
        )
    except ValueError as exc:
        raise CribbageError(f"--push-hosts, --push-ports, --push-timeout: {exc}") from None


def _limits(flags: list[str]) -> dict[str, str]:
    """The limits of ``--limit NAME=SPEC`` (a later flag wins) over any
    ``CRIBBAGE_SERVE_LIMIT_*`` already set, all checked.

    Raises:
        CribbageError: a flag without ``=``, an unknown name or a spec that is not a limit.
    """
    from ..web.ratelimits import LIMITS, check_limits
    from ..web.settings import ENVIRONMENT

    limits = {name: value for name in LIMITS if (value := os.environ.get(ENVIRONMENT[f"limit_{name}"], ""))}
    for flag in flags:
        name, sep, spec = flag.partition("=")
        if not sep:
            raise CribbageError(f"--limit {flag!r}: write NAME=SPEC, like create=30/minute or score=off")
        limits[name.strip()] = spec.strip()
    try:
        check_limits(limits)
    except ValueError as exc:
        raise CribbageError(f"--limit: {exc}") from None
    return limits


def _hosts(args: argparse.Namespace) -> str:
    """The allowed hosts (web hardening), comma-separated; the timeouts checked."""
    from ..web.hardening import default_hosts

    for flag, value in (("--body-timeout", args.body_timeout), ("--header-timeout", args.header_timeout)):
        if not value > 0:
            raise CribbageError(f"{flag} must be positive, not {value}")
    hosts: str = args.allowed_hosts if args.allowed_hosts else ",".join(default_hosts(args.host))
    if not args.allowed_hosts and args.host in ("0.0.0.0", "::"):
        print(
            f"Only {hosts} are answered (400 for other Host names): name this machine's public "
            "names with --allowed-hosts",
            file=sys.stderr,
        )
    return hosts


def _retention(args: argparse.Namespace) -> Retention:
    """The retention of the options; the cache's budget checked too."""
    from ..web.retention import Retention, parse_days

    keep = parse_days(args.keep_days, "--keep-days")
    keep_finished = parse_days(args.keep_finished_days, "--keep-finished-days")
    if args.cache_mb < 1:
        raise CribbageError(f"--cache-mb must be at least 1, not {args.cache_mb}")
    if not args.prune_interval > 0:
        raise CribbageError(f"--prune-interval must be positive, not {args.prune_interval}")
    return Retention(keep, keep_finished, interval=args.prune_interval)


def _listen(host: str, port: int, shared: bool = False) -> socket.socket:
    """A socket bound to the address, or a :class:`CribbageError` saying why it cannot be.

    ``shared``: bound with ``SO_REUSEPORT`` for the worker processes to bind their own sockets
    to the same port (:mod:`cribbage.web.workers`).
    """
    from ..web.workers import port_socket

    try:
        return port_socket(host, port, reuse_port=shared)
    except OSError as exc:
        raise CribbageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
