"""Telling a person of a correspondence game that it is their turn (Web Push, docs/api.md).

A seat opts in with its browser's push subscription (:meth:`Notices.subscribe`); after every
stored change of a game whose clock is :data:`~cribbage.app.games.options.CORRESPONDENCE` or
more, the seat to act, if it opted in and was not told of this turn yet, is told once
(:meth:`Notices.turn`): the storage marks it told in one conditional statement, so of several
processes one sends.  How a
notice travels (the push service, its encryption, its keys) is the transport's
(:mod:`cribbage.web.webpush`); this module knows nothing of HTTP.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec

from ...storage import Subscription
from ..errors import AppError
from ..games.options import CORRESPONDENCE
from ..games.repository import Repository, seat_of
from .endpoints import MAX_ENDPOINT, PushRules, endpoint_of

__all__ = ["MAX_ENDPOINT", "Notices", "notice", "subscription"]


def notice(game_id: str, seat: int, version: int) -> dict[str, Any]:
    """What a notice says, as codes and numbers (the page's service worker words it)."""
    return {"type": "your_turn", "game": game_id, "seat": seat, "version": version}


def _key(text: str, size: int, field: str) -> str:
    """A base64url key of ``size`` bytes, as the browser gave it (padding or not)."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) == size == 65:
        try:  # a point on P-256, uncompressed
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raw = b""
    if len(raw) != size or (size == 65 and raw[0] != 4):
        raise AppError("push.bad_subscription", f"{field} is not a browser's push key", field=field)
    return text.rstrip("=")


def subscription(
    game_id: str, seat: int, endpoint: str, p256dh: str, auth: str, rules: PushRules
) -> Subscription:
    """A seat's opt-in, checked: an endpoint the server may send to
    (:func:`~.endpoints.endpoint_of`), a point of P-256 (65 bytes, uncompressed) and a 16-byte
    auth secret.

    Raises:
        AppError: ``push.bad_endpoint`` with its ``reason``; ``push.bad_subscription`` with the
            key (``field``) that is wrong.
    """
    endpoint_of(endpoint, rules)
    return Subscription(game_id, seat, endpoint, _key(p256dh, 65, "p256dh"), _key(auth, 16, "auth"))


class Notices:
    """The seats' opt-ins, and who is to be told of their turn after a stored change."""

    def __init__(self, repository: Repository, rules: PushRules) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.rules = rules

    def subscribe(self, game_id: str, token: str | None, endpoint: str, p256dh: str, auth: str) -> int:
        """The token's seat opts in (replacing its earlier browser); returns the seat.

        Raises:
            AppError: ``not_found``, ``unauthorized``; ``push.not_correspondence`` at a table
                whose clock is shorter than an hour (nobody waits long there);
                ``push.bad_endpoint``, ``push.bad_subscription``.
        """
        with self.repository.held(game_id) as live:
            seat = seat_of(live, token or "")
            clock = live.options.clock
        if clock is None or clock < CORRESPONDENCE:
            raise AppError(
                "push.not_correspondence",
                f"notices are for correspondence games (a clock of {CORRESPONDENCE} seconds or more)",
            )
        self.storage.push.subscribe(subscription(game_id, seat, endpoint, p256dh, auth, self.rules))
        return seat

    def unsubscribe(self, game_id: str, token: str | None) -> bool:
        """The token's seat opts out; True if it had opted in."""
        with self.repository.held(game_id) as live:
            seat = seat_of(live, token or "")
        return self.storage.push.unsubscribe(game_id, seat)

    @staticmethod
    def concerns(repository: Repository, game_id: str) -> bool:
        """Whether a change of the game may call for a notice: a correspondence game, as this
        process holds it (a guess without the lock, never a read of its state)."""
        live = repository.peek(game_id)
        clock = None if live is None else live.options.clock
        return clock is not None and clock >= CORRESPONDENCE

    def turn(self, game_id: str) -> tuple[Subscription, dict[str, Any]] | None:
        """After a stored change: the opt-in of the seat to act now and its notice, if it is to
        be told (it opted in and was not told of this turn yet); the other seats may be told
        at their next turn."""
        try:
            with self.repository.held(game_id) as live:
                over = live.over or bool(live.waiting)
                seat = None if over else live.table.waiting_for
                version = live.version
        except AppError:
            return None  # gone meanwhile
        told = self.storage.push.turn_of(game_id, seat)
        return None if told is None or seat is None else (told, notice(game_id, seat, version))
