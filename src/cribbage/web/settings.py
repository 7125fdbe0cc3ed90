"""The server's settings: one :class:`Settings` value, read once.

:func:`~cribbage.web.server.create_app` takes a :class:`Settings`; ``cribbage serve`` builds one
from its options and leaves it in the environment (:meth:`Settings.environment`), where each
worker process of ``--workers`` reads it again (:meth:`Settings.from_environment`).  The names of
the variables (:data:`ENVIRONMENT`) are documented in docs/deploy.md.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ..app import CACHE_BYTES
from ..app.games.rating_policy import PAIR_LIMIT_GAMES
from ..app.notify.endpoints import PushRules
from ..app.people.accounts import NAME_HOLD_DAYS
from .hardening import Hardening, parse_hosts
from .messaging.broker import Broker
from .messaging.queue import PREFIX as QUEUE_PREFIX
from .ratelimits import LIMITS
from .retention import INTERVAL, KEEP_DAYS, KEEP_FINISHED_DAYS, Retention, parse_days

__all__ = [
    "CLOCK_TICK",
    "ENVIRONMENT",
    "PAIR_EVERY",
    "PUSH_CONTACT",
    "RATING_EVERY",
    "STATIC_DIR",
    "Settings",
    "push_rules",
]

STATIC_DIR: Final = Path(__file__).with_name("static")
"""The page: ``index.html``, ``howto.html`` and what they load."""

CLOCK_TICK: Final = 1.0
"""How often (seconds) each process looks for turn clocks that ran out."""

PAIR_EVERY: Final = 1.0
"""How often (seconds) each process pairs the people waiting to "Play now"."""

RATING_EVERY: Final = 60.0
"""How often (seconds) each process rates the finished games whose rating is still due (and
once at its start): docs/ratings.md, "Rated exactly once"."""

PUSH_CONTACT: Final = "mailto:cribbage@localhost"
"""Who runs the server, as the Web Push services are told (the VAPID ``sub`` claim) by default."""

MEGABYTE: Final = 1024 * 1024

ENVIRONMENT: Final = {
    "db": "CRIBBAGE_SERVE_DB",
    "broker": "CRIBBAGE_SERVE_BROKER",
    "computer": "CRIBBAGE_SERVE_TESTING_COMPUTER",
    # abuse limits (cribbage.web.ratelimits): one "limits" spec or "off" each
    **{f"limit_{name}": f"CRIBBAGE_SERVE_LIMIT_{name.upper()}" for name in LIMITS},
    # web hardening (cribbage.web.hardening): comma-separated hosts, and seconds
    "allowed_hosts": "CRIBBAGE_SERVE_ALLOWED_HOSTS",
    "body_timeout": "CRIBBAGE_SERVE_BODY_TIMEOUT",
    # retention and the cache's memory (whole days, 0: forever; megabytes)
    "keep_days": "CRIBBAGE_SERVE_KEEP_DAYS",
    "keep_finished_days": "CRIBBAGE_SERVE_KEEP_FINISHED_DAYS",
    "prune_interval": "CRIBBAGE_SERVE_PRUNE_INTERVAL",
    "name_hold_days": "CRIBBAGE_SERVE_NAME_HOLD_DAYS",
    "cache_mb": "CRIBBAGE_SERVE_CACHE_MB",
    # Web Push (cribbage.web.webpush): the VAPID contact; the endpoints' rules (comma-separated
    # hosts and ports, "1" for private addresses, seconds, a PEM file)
    "push_contact": "CRIBBAGE_SERVE_PUSH_CONTACT",
    "push_hosts": "CRIBBAGE_SERVE_PUSH_HOSTS",
    "push_ports": "CRIBBAGE_SERVE_PUSH_PORTS",
    "push_private": "CRIBBAGE_SERVE_PUSH_PRIVATE_ADDRESSES",
    "push_timeout": "CRIBBAGE_SERVE_PUSH_TIMEOUT",
    "push_ca_file": "CRIBBAGE_SERVE_PUSH_CA_FILE",
    # the rated games two accounts may play together in 24 hours (docs/ratings.md)
    "rated_pair_limit": "CRIBBAGE_SERVE_RATED_PAIR_LIMIT",
}
"""Where ``cribbage serve`` leaves its settings for :meth:`Settings.from_environment`."""


@dataclass(frozen=True)
class Settings:
    """Everything the web application is built from.

    Attributes:
        database_url: an SQLAlchemy URL; the default (``sqlite://``) is a private SQLite
            database, removed when the service is closed.
        testing_computer: a player name that plays every computer seat, whatever the level
            (``cribbage serve --testing-computer``, for tests of the running server); None: each
            game's level plays.
        static_dir: the folder of the page.
        cache_size: at most this many games in memory (None: bounded by ``cache_bytes`` only).
        cache_bytes: the memory the cached games may take (estimated); the least recently used
            beyond it leave, the finished ones first.
        retention: how long games are kept, and how often this process prunes the older ones
            (:mod:`.retention`); by default 30 days in progress, 365 finished, hourly.
        limits: the abuse limits by name, overriding their defaults
            (:data:`~cribbage.web.ratelimits.LIMITS`): a ``limits`` spec such as
            ``"10/minute;60/hour"``, or ``"off"``; :data:`~cribbage.web.ratelimits.NO_LIMITS`
            turns them all off.
        limits_prefix: names this server's counters in the broker's storage (Redis keys).
        broker: what carries live updates between server processes (:mod:`.live`):
            ``"memory"`` (this process only), a ``redis://`` URL, or a broker.
        hardening: allowed hosts and the body deadline (:mod:`.hardening`); by default any
            host is allowed.
        clock_tick: how often (seconds) to look for turn clocks that ran out (in every process:
            whichever notices one first moves, once).
        queue_prefix: names the keys of "Play now"'s queue in Redis (:mod:`.queue`).
        pair_every: how often (seconds) this process pairs the people waiting to "Play now"
            (in every process: each person is paired once, :mod:`cribbage.app.playnow.orchestrator`).
        push_contact: who runs the server, as Web Push services are told (``mailto:...``).
        push: where Web Push notices may be sent, and how (:class:`~cribbage.app.notify.endpoints.PushRules`):
            by default only to the browsers' push services, at public addresses, port 443.
        name_hold_days: how long a deleted account's name is held (no new account takes it, nor a
            look-alike): 30 days by default.
        rating_every: how often (seconds) this process rates the finished games whose rating
            is still due, after a first round at its start (:meth:`~cribbage.app.games.rated.Rated.sweep`).
        rated_pair_limit: the rated games two accounts may play together in 24 hours; their
            further games are played unrated (docs/ratings.md, "Which games are rated").
    """

    database_url: str = "sqlite://"
    testing_computer: str | None = None
    static_dir: Path = STATIC_DIR
    cache_size: int | None = None
    cache_bytes: int = CACHE_BYTES
    retention: Retention = field(default_factory=Retention)
    limits: Mapping[str, str] = field(default_factory=dict)
    limits_prefix: str = "cribbage"
    broker: str | Broker = "memory"
    hardening: Hardening = field(default_factory=Hardening)
    clock_tick: float = CLOCK_TICK
    queue_prefix: str = QUEUE_PREFIX
    pair_every: float = PAIR_EVERY
    push_contact: str = PUSH_CONTACT
    push: PushRules = field(default_factory=PushRules)
    name_hold_days: int = NAME_HOLD_DAYS
    rating_every: float = RATING_EVERY
    rated_pair_limit: int = PAIR_LIMIT_GAMES

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """The settings ``cribbage serve`` left in ``environ`` (defaults for what it did not).

        Raises:
            CribbageError: a number of days that is not one, naming its variable.
            ValueError: another number that is not one (the limits are checked by
                :class:`~cribbage.web.ratelimits.RateLimits`).
        """

        def text(key: str) -> str | None:
            return environ.get(ENVIRONMENT[key])

        def days(key: str, default: int) -> int:
            value = text(key)
            return default if value is None else parse_days(value, ENVIRONMENT[key])

        limits = {name: spec for name in LIMITS if (spec := (text(f"limit_{name}") or "").strip())}
        interval, megabytes = text("prune_interval"), text("cache_mb")
        hosts, timeout = text("allowed_hosts"), text("body_timeout")
        pair_limit = text("rated_pair_limit")
        return cls(
            database_url=environ[ENVIRONMENT["db"]],
            testing_computer=text("computer") or None,
            broker=text("broker") or "memory",
            limits=limits,
            retention=Retention(
                days("keep_days", KEEP_DAYS),
                days("keep_finished_days", KEEP_FINISHED_DAYS),
                interval=INTERVAL if interval is None else float(interval),
            ),
            cache_bytes=CACHE_BYTES if megabytes is None else int(megabytes) * MEGABYTE,
            push_contact=text("push_contact") or PUSH_CONTACT,
            push=push_rules(
                text("push_hosts"),
                text("push_ports"),
                text("push_private") == "1",
                text("push_timeout"),
                text("push_ca_file"),
            ),
            name_hold_days=days("name_hold_days", NAME_HOLD_DAYS),
            rated_pair_limit=PAIR_LIMIT_GAMES if pair_limit is None else int(pair_limit),
            hardening=Hardening(
                allowed_hosts=None if hosts is None else parse_hosts(hosts),
                body_timeout=Hardening.body_timeout if timeout is None else float(timeout),
            ),
        )

    def environment(self) -> dict[str, str]:
        """The variables :meth:`from_environment` reads these settings back from (what
        ``cribbage serve`` sets for itself and its worker processes).  Only the settings that
        ``cribbage serve`` has are written: a broker object, the static folder, the cache's
        count, the limits' and the queue's prefixes, the clock's tick, the pairing's and the
        ratings' round stay their defaults.

        Raises:
            ValueError: the broker is an object (only its URL can be written).
        """
        if not isinstance(self.broker, str):
            raise ValueError("a broker object cannot be written to the environment: give its URL")
        hosts = self.hardening.allowed_hosts
        written = {
            ENVIRONMENT["db"]: self.database_url,
            ENVIRONMENT["broker"]: self.broker,
            ENVIRONMENT["body_timeout"]: str(self.hardening.body_timeout),
            ENVIRONMENT["keep_days"]: str(self.retention.keep_days),
            ENVIRONMENT["keep_finished_days"]: str(self.retention.keep_finished_days),
            ENVIRONMENT["prune_interval"]: str(self.retention.interval),
            ENVIRONMENT["cache_mb"]: str(self.cache_bytes // MEGABYTE),
            ENVIRONMENT["name_hold_days"]: str(self.name_hold_days),
            **{ENVIRONMENT[f"limit_{name}"]: spec for name, spec in self.limits.items()},
        }
        if hosts is not None:
            written[ENVIRONMENT["allowed_hosts"]] = ",".join(hosts)
        if self.testing_computer:
            written[ENVIRONMENT["computer"]] = self.testing_computer
        if self.push_contact != PUSH_CONTACT:
            written[ENVIRONMENT["push_contact"]] = self.push_contact
        push = self.push
        written[ENVIRONMENT["push_hosts"]] = ",".join(push.hosts)
        written[ENVIRONMENT["push_ports"]] = ",".join(map(str, push.ports))
        written[ENVIRONMENT["push_timeout"]] = str(push.timeout)
        if push.private:
            written[ENVIRONMENT["push_private"]] = "1"
        if push.ca_file:
            written[ENVIRONMENT["push_ca_file"]] = push.ca_file
        if self.rated_pair_limit != PAIR_LIMIT_GAMES:
            written[ENVIRONMENT["rated_pair_limit"]] = str(self.rated_pair_limit)
        return written


def push_rules(
    hosts: str | None, ports: str | None, private: bool, timeout: str | None, ca_file: str | None
) -> PushRules:
    """The Web Push rules of ``cribbage serve``'s options or variables (None: the default).

    Raises:
        ValueError: a port or a timeout that is not one, or no host.
    """
    rules = PushRules()
    names = rules.hosts if hosts is None else parse_hosts(hosts)
    numbers = rules.ports if ports is None else tuple(int(p) for p in ports.split(",") if p.strip())
    seconds = rules.timeout if timeout is None else float(timeout)
    if not names or not numbers or any(not 0 < port < 65536 for port in numbers) or not seconds > 0:
        raise ValueError(f"not Web Push rules: hosts {hosts!r}, ports {ports!r}, timeout {timeout!r}")
    return PushRules(names, numbers, private, seconds, ca_file or None)
