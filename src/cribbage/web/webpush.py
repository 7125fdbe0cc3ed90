"""Web Push to the seats of correspondence games (docs/api.md, "Web Push"), by ``pywebpush``.

The server's VAPID key pair is made on its first start and kept in the database
(``server_keys``: the first process to store one wins, every other process reads that one), so
the subscriptions browsers made with its public key stay valid across restarts and processes.
After every stored change (the service's sink) of a correspondence game, a worker thread asks
:meth:`~cribbage.app.notify.Notices.turn` whom to tell and sends the notice, encrypted for the
browser (RFC 8291, ``aes128gcm``); nothing waits for it.  A push service answering 404 or 410
(the browser dropped the subscription) removes the opt-in.
"""

from __future__ import annotations

import base64
import json
import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from ..app import GameService
from ..app.notify import Notices
from ..storage import Subscription
from .settings import PUSH_CONTACT

__all__ = ["PUSH_TTL", "WebPush"]

log = logging.getLogger(__name__)

PUSH_TTL: Final = 24 * 3600
"""How long a push service keeps a notice for a browser that is offline (seconds)."""

PUSH_TIMEOUT: Final = 10.0
"""How long a push service may take to answer (seconds)."""


def _new_key() -> str:
    vapid = Vapid02()
    vapid.generate_keys()
    pem: bytes = vapid.private_pem()
    return pem.decode()


def _workers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="webpush")


class WebPush:
    """The Web Push of one server process: its VAPID keys, the seats' opt-ins, the sending.

    Args:
        service: the application's (its repository and storage).
        contact: the VAPID ``sub`` claim (``mailto:`` or ``https:``).
        insecure: ``http`` endpoints are accepted too (tests, a push service on localhost).
    """

    def __init__(self, service: GameService, contact: str = PUSH_CONTACT, *, insecure: bool = False) -> None:
        self.repository = service.repository
        self.storage = service.storage
        self.notices = Notices(service.repository, insecure=insecure)
        self.contact = contact
        self.vapid = Vapid02.from_pem(self.storage.server_key("vapid", _new_key).encode())
        point = self.vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.public_key = base64.urlsafe_b64encode(point).decode().rstrip("=")
        """The application server key browsers subscribe with (base64url, 65 bytes)."""
        self._pool = _workers()

    def stored(self, game_id: str) -> Future[None] | None:
        """A change of the game is stored: the seat to act is told in a worker thread, if it is
        a correspondence game (the only ones with opt-ins); the future of that, else None."""
        if not Notices.concerns(self.repository, game_id):
            return None
        return self._pool.submit(self._tell, game_id)

    def _tell(self, game_id: str) -> None:
        try:
            due = self.notices.turn(game_id)
            if due is not None:
                self.send(*due)
        except Exception:  # a worker's failure is logged, never a request's
            log.exception("web push for game %s failed", game_id)

    def send(self, sub: Subscription, message: dict[str, Any]) -> bool:
        """Send ``message`` (JSON) to the browser of ``sub``; True if the push service took it.
        A 404 or 410 removes the opt-in (the browser dropped it); other failures are logged."""
        try:
            webpush(
                sub.info(),
                json.dumps(message, separators=(",", ":")),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.contact},
                ttl=PUSH_TTL,
                timeout=PUSH_TIMEOUT,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                self.storage.unsubscribe(sub.game_id, sub.seat, sub.endpoint)
            else:
                log.warning("the push service refused a notice of game %s: %s", sub.game_id, exc)
            return False
        except Exception as exc:  # the push service unreachable
            log.warning("no push service for game %s: %s", sub.game_id, exc)
            return False
        return True

    def close(self) -> None:
        """Wait for the notices on their way (a later change is told by fresh workers: the
        application may be started again, as tests do)."""
        pool, self._pool = self._pool, _workers()
        pool.shutdown(wait=True)
