"""Web Push to the seats of correspondence games (docs/api.md, "Web Push"), encrypted by ``pywebpush``.

The server's VAPID key pair is made on its first start and kept in the database
(``server_keys``: the first process to store one wins, every other process reads that one), so
the subscriptions browsers made with its public key stay valid across restarts and processes.
After every stored change (the service's sink) of a correspondence game, a worker thread asks
:meth:`~cribbage.app.notify.notices.Notices.turn` whom to tell, and the notice, encrypted for the
browser (RFC 8291, ``aes128gcm``), goes to its push service's line; nothing waits for it.

Sending (:class:`PinnedSender`) never makes a request for a stranger: the endpoint is checked
again (:func:`~cribbage.app.notify.endpoints.endpoint_of`), its name resolved once, every address it
resolved to checked (:func:`~cribbage.app.notify.endpoints.address_refusal`), and the connection made
to the checked address only (urllib3's pool at that address, the name given for SNI and for the
certificate's check): a name that resolves elsewhere a moment later (DNS rebinding) is never
asked again.  Redirects are not followed.  Each push service (an entry of the allow-list) has
its own line of :attr:`~cribbage.app.notify.endpoints.PushRules.per_host` threads, so a slow one
delays only its own notices.  A push service answering 404 or 410 (the browser dropped the
subscription) removes the opt-in at once; any other failure counts, and
:attr:`~cribbage.app.notify.endpoints.PushRules.failures` in a row remove it.
"""

from __future__ import annotations

import base64
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final

import urllib3
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

from ..app import AppError, GameService
from ..app.notify.endpoints import Endpoint, PushRules, address_refusal, endpoint_of
from ..app.notify.notices import Notices
from ..storage import Subscription, TournamentSubscription
from ..storage.push import OptInRows
from .settings import PUSH_CONTACT

__all__ = ["PUSH_TTL", "PinnedSender", "PushFailed", "Resolver", "WebPush", "resolve"]

log = logging.getLogger(__name__)

OptIn = Subscription | TournamentSubscription
"""Whose browser a notice goes to: a seat's (its turn) or a tournament entrant's (its next game)."""

PUSH_TTL: Final = 24 * 3600
"""How long a push service keeps a notice for a browser that is offline (seconds)."""

Resolver = Callable[[str, int], list[str]]
"""A host name and port to the addresses it resolves to."""


class PushFailed(Exception):
    """A notice did not reach its push service (no request was made, or it was not taken)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def resolve(host: str, port: int) -> list[str]:
    """The addresses of ``host`` (the system's resolver), in its order."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


class PinnedSender:
    """Posts to a push service at the address its name was checked at, and nowhere else.

    Args:
        rules: the operator's (allowed hosts and ports, private addresses, timeout, CA file).
        resolver: resolves a name once a notice (the system's by default).
    """

    def __init__(self, rules: PushRules, resolver: Resolver = resolve) -> None:
        self.rules = rules
        self.resolver = resolver

    def address(self, endpoint: Endpoint) -> str:
        """The address to connect to for ``endpoint``: the first it resolves to, if every one is
        allowed (a name with one address not allowed is refused whole).

        Raises:
            PushFailed: it resolves to nothing, or to an address not allowed.
        """
        try:
            addresses = self.resolver(endpoint.host, endpoint.port)
        except OSError as exc:
            raise PushFailed(f"{endpoint.host} does not resolve: {exc}") from None
        if not addresses:
            raise PushFailed(f"{endpoint.host} does not resolve")
        for address in addresses:
            refusal = address_refusal(address, self.rules)
            if refusal is not None:
                raise PushFailed(f"{endpoint.host} resolves to {address}: {refusal}")
        return addresses[0]

    def post(self, endpoint: Endpoint, body: bytes, headers: Mapping[str, str]) -> int:
        """POST ``body`` to ``endpoint`` at its checked address; the status (2xx).

        Raises:
            PushFailed: no address allowed, no connection, no answer in time, a certificate not
                for the name, or an answer other than 2xx (a redirect is not followed).
        """
        address = self.address(endpoint)
        timeout = urllib3.Timeout(connect=self.rules.timeout, read=self.rules.timeout)
        host = endpoint.origin.removeprefix("https://")
        pool = urllib3.HTTPSConnectionPool(
            address,
            endpoint.port,
            timeout=timeout,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            ca_certs=self.rules.ca_file,
            server_hostname=endpoint.host,  # SNI
            assert_hostname=endpoint.host,  # the certificate is the name's, not the address's
        )
        try:
            with pool:
                response = pool.urlopen(
                    "POST",
                    endpoint.target,
                    body=body,
                    headers={**headers, "Host": host},
                    redirect=False,
                    retries=False,
                    assert_same_host=False,
                    preload_content=False,
                )
                status = response.status
                response.close()
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            raise PushFailed(f"no answer from {endpoint.host} at {address}: {exc}") from None
        if not 200 <= status < 300:
            raise PushFailed(f"{endpoint.host} answered {status}", status)
        return status


def _new_key() -> str:
    vapid = Vapid02()
    vapid.generate_keys()
    pem: bytes = vapid.private_pem()
    return pem.decode()


def _workers(name: str, count: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=count, thread_name_prefix=name)


class WebPush:
    """The Web Push of one server process: its VAPID keys, the seats' opt-ins, the sending.

    Args:
        service: the application's (its repository and storage).
        contact: the VAPID ``sub`` claim (``mailto:`` or ``https:``).
        rules: where notices may be sent, and how (:class:`~cribbage.app.notify.endpoints.PushRules`).
        resolver: how a push service's name is resolved (the system's resolver by default).
    """

    def __init__(
        self,
        service: GameService,
        contact: str = PUSH_CONTACT,
        rules: PushRules | None = None,
        resolver: Resolver = resolve,
    ) -> None:
        self.repository = service.repository
        self.storage = service.storage
        self.rules = rules or PushRules()
        self.notices = Notices(service.repository, self.rules)
        self.sender = PinnedSender(self.rules, resolver)
        self.contact = contact
        self.vapid = Vapid02.from_pem(self.storage.push.server_key("vapid", _new_key).encode())
        point = self.vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.public_key = base64.urlsafe_b64encode(point).decode().rstrip("=")
        """The application server key browsers subscribe with (base64url, 65 bytes)."""
        self._pool = _workers("webpush", 2)
        self._lines: dict[str, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()
        service.tournament_ready.attach(self.rules, self.queue)  # entrants told of their games

    def stored(self, game_id: str) -> Future[None] | None:
        """A change of the game is stored: the seat to act is told, if it is a correspondence
        game (the only ones with opt-ins); the future of finding whom to tell (the notice then
        waits in its push service's line), else None."""
        if not Notices.concerns(self.repository, game_id):
            return None
        return self._pool.submit(self._tell, game_id)

    def _tell(self, game_id: str) -> None:
        try:
            due = self.notices.turn(game_id)
            if due is not None:
                self.queue(*due)
        except Exception:  # a worker's failure is logged, never a request's
            log.exception("web push for game %s failed", game_id)

    def queue(self, sub: OptIn, message: dict[str, Any]) -> Future[bool]:
        """Send ``message`` to ``sub``'s browser (a seat's turn, a tournament entrant's next game)
        in the line of its push service (at most :attr:`~PushRules.per_host` at once there); the
        future of :meth:`send`."""
        return self._line(sub.endpoint).submit(self._deliver, sub, message)

    def _line(self, url: str) -> ThreadPoolExecutor:
        """The line of the push service of the endpoint ``url``."""
        try:
            service = endpoint_of(url, self.rules).service
        except AppError:
            service = ""  # not allowed (any more): refused at once by send, in a line of its own
        with self._lock:
            line = self._lines.get(service)
            if line is None:
                line = self._lines[service] = _workers(f"webpush-{service}", self.rules.per_host)
            return line

    def _deliver(self, sub: OptIn, message: dict[str, Any]) -> bool:
        try:
            return self.send(sub, message)
        except Exception:  # the storage failed: logged, never a request's
            log.exception("web push of %s failed", sub.label)
            return False

    def send(self, sub: OptIn, message: dict[str, Any]) -> bool:
        """Send ``message`` (JSON) to the browser of ``sub`` now; True if its push service took it.
        A 404 or 410 removes the opt-in (the browser dropped it); another failure counts, and
        :attr:`~PushRules.failures` in a row remove it too."""
        tournament = isinstance(sub, TournamentSubscription)
        rows: OptInRows[Any] = self.storage.tournament_push if tournament else self.storage.push
        try:
            endpoint = endpoint_of(sub.endpoint, self.rules)
            self.sender.post(endpoint, *self.request(endpoint, sub, message))
        except Exception as exc:  # counted whatever it is (an unexpected one logged in full)
            if not isinstance(exc, (AppError, PushFailed)):
                log.exception("web push of %s", sub.label)
            status = exc.status if isinstance(exc, PushFailed) else None
            if status in (404, 410):
                rows.gone(sub)
            elif rows.failed(sub, self.rules.failures):
                log.warning("web push of %s dropped: %s", sub.label, exc)
            else:
                log.warning("web push of %s failed: %s", sub.label, exc)
            return False
        rows.delivered(sub)
        return True

    def request(
        self, endpoint: Endpoint, sub: OptIn, message: dict[str, Any]
    ) -> tuple[bytes, dict[str, str]]:
        """The body (``message`` encrypted for the browser by ``pywebpush``) and the headers
        (VAPID signed with the server's key) of a notice."""
        # Imported at the first notice: pywebpush brings aiohttp (a third of a second of every
        # server's start, for a notice most servers never send).
        from pywebpush import WebPusher

        data = json.dumps(message, separators=(",", ":")).encode()
        body: bytes = WebPusher(sub.info()).encode(data, "aes128gcm")["body"]
        claims = {"sub": self.contact, "aud": endpoint.origin, "exp": int(time.time()) + 12 * 3600}
        headers: dict[str, str] = dict(self.vapid.sign(claims))
        headers.update(
            {
                "Content-Encoding": "aes128gcm",
                "Content-Type": "application/octet-stream",
                "TTL": str(PUSH_TTL),
            }
        )
        return body, headers

    def decided(self) -> None:
        """Wait until whom to tell of the changes stored so far is decided (their notices are
        then in their lines); later changes are decided by fresh workers."""
        pool, self._pool = self._pool, _workers("webpush", 2)
        pool.shutdown(wait=True)

    def close(self) -> None:
        """Wait for the notices on their way (a later change is told by fresh workers: the
        application may be started again, as tests do)."""
        self.decided()
        with self._lock:
            lines, self._lines = list(self._lines.values()), {}
        for line in lines:
            line.shutdown(wait=True)
