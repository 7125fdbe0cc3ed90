"""Abuse limits of the web server: a small table of named limits, counted per client address or
per seat token, in the broker's ``limits`` storage
(:meth:`~cribbage.web.messaging.broker.Broker.limits_storage`).

Each limit is a ``limits`` string such as ``"30/minute;300/hour"`` (a moving window per item) or
``"off"``.  What is counted, and by what:

===============  ==============  =========================================================
name             counted per     requests
===============  ==============  =========================================================
``create``       client address  ``POST /api/games``
``join``         client address  ``POST /api/join`` (unknown codes too)
``wrong_token``  client address  failures: a missing or wrong token for ``/api/games/{id}...``
                                 or the live socket; once over, every game request and socket
                                 from the address is refused before its token is looked at
``score``        client address  ``POST /api/score`` and ``POST /api/peg``
``token``        seat token      every request for ``/api/games/{id}...``, every live socket
                                 opened and every action sent on one: against runaway clients
``spectator``    client address  messages sent on spectators' live sockets (a spectator has
                                 nothing to send: a page sends none)
``chat``         seat token      chat messages sent on a seat's live socket
``report``       seat token      reports of chat messages sent on a seat's live socket
``signin``       client address  ``POST /api/accounts/signin`` and ``DELETE /api/accounts/me``
                                 (a password checked: against guessing, and argon2's CPU);
                                 the passkey sign-in's and adding's options, a passkey deletion,
                                 ``POST /api/accounts/games/{id}/open`` (a seat's key minted)
``signup``       client address  ``POST /api/accounts`` (a password hashed), the passkey
                                 sign-up's options
``play``         client address  ``/api/play`` (Play now: joining, polling, leaving)
``tournaments``  client address  ``/api/tournaments...`` (reading, creating, entering,
                                 starting, results: each reads or writes the database)
===============  ==============  =========================================================

Two more are caps on what is open at once in each server process, not rates: their spec is a
whole number or ``"off"``.  Over one, a new live socket is refused like a rate (``too_many``):

===============  ==============  =========================================================
``sockets``      client address  live sockets open at once (from the upgrade on, before
                                 their first message too)
``spectators``   game            spectators' live sockets open at once
===============  ==============  =========================================================

Over a limit the answer is :class:`TooMany` (HTTP 429 with ``Retry-After``, ``code: too_many``).
With Redis as the storage, every server process counts in the same place.  When Redis cannot be
reached the counters cannot be read, and each limit does what its ``closed`` field says: the
join and sign-in limits refuse (:class:`LimitsUnavailable`, 503), since each alone stands
between an attacker and a six-letter invitation code or a password; the others let the request
through, since what they guard (load, 256-bit tokens) is not given away by one uncounted
request, and the game must go on.  After a failure the storage is not asked again for
:data:`RETRY_SECONDS`, so a Redis that does not answer costs one timeout, not one per request.

The windows are read on the storage's clock: ``limits``' own storages read the system's time;
:class:`~cribbage.web.messaging.windows.MemoryWindows` (the memory broker's) reads the one it is
given, so that a test moves a window on instead of waiting for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..app.errors import AppError
from .messaging.windows import Clock, MemoryWindows

__all__ = [
    "DEFAULT_LIMITS",
    "LIMITS",
    "NO_LIMITS",
    "Limit",
    "LimitError",
    "LimitsUnavailable",
    "RateLimits",
    "TooMany",
    "cap_value",
    "check_limits",
    "token_key",
]

OFF: Final = "off"
"""The spec that turns a limit off."""

RETRY_SECONDS: Final = 1.0
"""After the storage failed, how long it is not asked again (limits count as unavailable)."""

CAP_RETRY_SECONDS: Final = 10
"""What a socket refused by a cap is told to wait (``retry_after``): until another one closes."""


@dataclass(frozen=True)
class Limit:
    """One named limit: its default, what it counts (for messages), and whether it refuses
    requests when the counters cannot be read (``closed``)."""

    name: str
    default: str
    what: str
    closed: bool = False
    cap: bool = False
    """A cap on what is open at once in one process (a whole number), not a rate."""


LIMITS: Final[Mapping[str, Limit]] = MappingProxyType(
    {
        limit.name: limit
        for limit in (
            # A person makes a new game every few minutes; an office or a school behind one
            # address makes more, so the hourly allowance is wide.
            Limit("create", "30/minute;300/hour", "too many new games from your address"),
            # Enough for people, far too few to guess an open table's code (31**6 codes).
            Limit("join", "10/minute;60/hour", "too many join attempts from your address", closed=True),
            # A page with a stale token fails once; guessing is what fails many times.
            Limit(
                "wrong_token", "30/minute;200/hour", "too many requests with a wrong token from your address"
            ),
            # The how-to page scores what a visitor types (one request per Score press).
            Limit("score", "120/minute;2000/hour", "too many scoring requests from your address"),
            # A person acts a few times a minute; ten requests a second for a minute is a runaway
            # client (a loop, a script), never play.
            Limit("token", "600/minute;6000/hour", "too many requests for this seat"),
            # A spectator's page sends nothing after its watch code: anything more is a script.
            Limit("spectator", "30/minute;300/hour", "too many messages from spectators at your address"),
            # A person types a line every few seconds; a burst of quick phrases is allowed, a flood not.
            Limit("chat", "5/10 seconds;30/minute;300/hour", "too many chat messages from this seat"),
            # Reports count apart: a person reporting a flood is never refused for the flood's sake.
            Limit("report", "10/minute;60/hour", "too many reports from this seat"),
            # A person types a password a few times; each check costs argon2's 19 MiB and tens of
            # milliseconds, and many are guessing.  Closed: it alone stands before the passwords.
            Limit("signin", "10/minute;50/hour", "too many sign-in attempts from your address", closed=True),
            # A family makes an account each, not dozens.
            Limit("signup", "5/minute;20/hour", "too many new accounts from your address"),
            # A person opens a few profiles and leaderboards a minute; each reads the database.
            Limit(
                "players",
                "120/minute;1200/hour",
                "too many profile and leaderboard requests from your address",
            ),
            # A page polls Play now every second or two while it waits; a loop polls far faster.
            Limit("play", "120/minute;3000/hour", "too many Play now requests from your address"),
            # A director's and a player's pages read a tournament every few seconds between games.
            Limit("tournaments", "120/minute;1200/hour", "too many tournament requests from your address"),
            # Caps (see above): a family or a classroom behind one address opens a socket per page.
            Limit("sockets", "50", "too many live sockets from your address", cap=True),
            Limit("spectators", "200", "too many spectators at this table", cap=True),
        )
    }
)
"""Every limit by name, with its default."""

DEFAULT_LIMITS: Final[Mapping[str, str]] = MappingProxyType({n: limit.default for n, limit in LIMITS.items()})
"""The default spec of each limit."""

NO_LIMITS: Final[Mapping[str, str]] = MappingProxyType(dict.fromkeys(LIMITS, OFF))
"""Every limit off (tests and benchmarks that make thousands of requests from one address)."""


def check_limits(specs: Mapping[str, str]) -> dict[str, tuple[RateLimitItem, ...]]:
    """The parsed items of each named spec (``()`` for ``"off"``).

    >>> check_limits({"create": "30/minute;300/hour", "score": "off"})
    {'create': (30 per 1 minute, 300 per 1 hour), 'score': ()}
    >>> check_limits({"games": "1/minute"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: unknown limit 'games': the limits are create, join, wrong_token, score, token, ...

    A cap is checked (:func:`cap_value`) and has no items.

    Raises:
        ValueError: naming an unknown limit (with the known ones) or a spec that is not one.
    """
    parsed: dict[str, tuple[RateLimitItem, ...]] = {}
    for name, spec in specs.items():
        if name not in LIMITS:
            raise ValueError(f"unknown limit {name!r}: the limits are {', '.join(LIMITS)}")
        if LIMITS[name].cap:
            cap_value(name, spec)
            parsed[name] = ()
            continue
        if spec.strip().lower() == OFF:
            parsed[name] = ()
            continue
        try:
            parsed[name] = tuple(parse_many(spec))
        except ValueError:
            raise ValueError(
                f"limit {name}: {spec!r} is not a rate limit (like '30/minute;300/hour') or 'off'"
            ) from None
    return parsed


def cap_value(name: str, spec: str) -> int | None:
    """The number of a cap's spec (None: ``"off"``).

    >>> cap_value("sockets", "20"), cap_value("sockets", "off")
    (20, None)

    Raises:
        ValueError: a spec that is neither a whole number of at least 1 nor ``off``.
    """
    text = spec.strip().lower()
    if text == OFF:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"limit {name}: {spec!r} is not a whole number of at least 1 or 'off'")
    return int(text)


class LimitError(AppError):
    """A refusal by a limit, with its ``code`` and values for the body and its headers."""

    def __init__(self, message: str, code: str, limit: Limit, retry_after: int) -> None:
        super().__init__(code, message, limit=limit.name, retry_after=retry_after)
        self.headers = {"retry-after": str(retry_after)}


class TooMany(LimitError):
    """429: over the limit; ``retry_after`` whole seconds (at least 1) until a request is
    counted again."""

    def __init__(self, limit: Limit, retry_after: int) -> None:
        super().__init__(f"{limit.what}: try again in {retry_after} seconds", "too_many", limit, retry_after)


class LimitsUnavailable(LimitError):
    """503: a limit that refuses when it cannot count (``join``) could not reach its storage."""

    def __init__(self, limit: Limit) -> None:
        message = f"the {limit.name} limit cannot be counted now: try again in a few seconds"
        super().__init__(message, "limits_unavailable", limit, math.ceil(RETRY_SECONDS) + 1)


class RateLimits:
    """The limits of one server process, counted in ``storage`` (shared by every process when
    it is Redis).  ``specs`` overrides the defaults by name; ``prefix`` names this deployment's
    counters in the storage (tests give each its own).  Every method blocks on the storage:
    call them from a worker thread, unless the storage is :attr:`local`.

    Raises:
        ValueError: an unknown name or a bad spec in ``specs`` (see :func:`check_limits`).
    """

    def __init__(
        self, storage: Any, specs: Mapping[str, str] | None = None, prefix: str = "cribbage"
    ) -> None:
        chosen = {**DEFAULT_LIMITS, **(specs or {})}
        self.items = check_limits(chosen)
        self.caps = {name: cap_value(name, chosen[name]) for name, limit in LIMITS.items() if limit.cap}
        self.limiter = MovingWindowRateLimiter(storage)
        self.local = isinstance(storage, MemoryStorage)
        """The counters are in this process's memory: no method waits on a network, so they
        may be called on the event loop (with Redis, from a worker thread only)."""
        self.now: Clock = storage.clock if isinstance(storage, MemoryWindows) else time.time
        """The clock of the storage's windows (what a refusal's wait is counted on)."""
        self.prefix = prefix
        self._lock = threading.Lock()
        self._down_until = 0.0

    def waits(self, *names: str) -> bool:
        """Whether counting the limits ``names`` may wait on the storage's network (Redis, and
        one of them on): else they may be counted on the event loop."""
        return not self.local and any(self.items[name] for name in names)

    def hit(self, name: str, key: str) -> None:
        """Count one request of ``key`` (an address, or :func:`token_key`) against ``name``.

        Raises:
            TooMany: over the limit (this request is refused, and counted).
            LimitsUnavailable: the storage cannot be reached and the limit refuses then.
        """
        self._count(name, key, hit=True)

    def check(self, name: str, key: str) -> None:
        """Refuse ``key`` if it is over ``name`` already, without counting a request.

        Raises:
            TooMany: over the limit.
            LimitsUnavailable: the storage cannot be reached and the limit refuses then.
        """
        self._count(name, key, hit=False)

    def failed(self, name: str, key: str) -> None:
        """Count one failure (a wrong token) of ``key`` against ``name``: never raises; the next
        :meth:`check` refuses once there were too many."""
        with contextlib.suppress(AppError):
            self._count(name, key, hit=True)

    def within_cap(self, name: str, count: int) -> None:
        """Refuse one more of the cap ``name`` when ``count`` are open already.

        Raises:
            TooMany: at the cap (``retry_after`` :data:`CAP_RETRY_SECONDS`).
        """
        cap = self.caps[name]
        if cap is not None and count >= cap:
            raise TooMany(LIMITS[name], CAP_RETRY_SECONDS)

    def _count(self, name: str, key: str, *, hit: bool) -> None:
        limit = LIMITS[name]
        ids = (self.prefix, name, key)
        with self._lock:
            down = time.monotonic() < self._down_until
        if down:
            if limit.closed:
                raise LimitsUnavailable(limit)
            return
        for item in self.items[name]:
            try:
                allowed = self.limiter.hit(item, *ids) if hit else self.limiter.test(item, *ids)
                if allowed:
                    continue
                reset = self.limiter.get_window_stats(item, *ids).reset_time
            except StorageError:
                with self._lock:
                    self._down_until = time.monotonic() + RETRY_SECONDS
                if limit.closed:
                    raise LimitsUnavailable(limit) from None
                return
            raise TooMany(limit, max(1, math.ceil(reset - self.now())))


def token_key(token: str) -> str:
    """What a token's requests are counted by: a digest, so no token is written to the storage."""
    return "t:" + hashlib.sha256(token.encode()).hexdigest()[:32]
