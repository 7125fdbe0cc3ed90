"""Presence: which seats of each game have a live socket open, in any server process.

Each process (:class:`~cribbage.web.live.Live`) reports to the broker that it has sockets of a
game, and which of its seats (when its first socket of the game or of a seat opens or its last
one closes), and publishes the game when the seats changed, so every socket of the game is sent
its state again with the new ``connected`` seats.  The memory broker keeps the reports in this
process; Redis keeps them for every process, and they expire unless renewed, so the seats of a
process that died stop counting (:mod:`.redis_broker`).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Collection

from .broker import Broker

__all__ = ["Presence"]


class Presence:
    """Which seats of each game have a live socket open, here and (through the broker) in every
    server process.  Made before the service, which reads it (:meth:`connected`); :class:`Live`
    tells it of this process's sockets."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.node = secrets.token_hex(8)
        """This process's name in the presence reports."""
        self.here: dict[str, frozenset[int]] = {}
        """The seats with a socket open in this process, by game (each game with a socket
        here: none for a game with spectators only)."""
        self._report_lock = threading.Lock()

    def connected(self, game_id: str) -> Collection[int]:
        """The seats of a game with a live socket open now, here or in another process."""
        here = self.here.get(game_id, frozenset())
        return here | (self.broker.connected(game_id) or frozenset())

    def report(self, game_id: str) -> None:
        """Tell the broker whether this process has sockets of a game, and the seats of those
        (blocking: from a thread)."""
        with self._report_lock:  # reports of one game land in the order they were made
            self.broker.report(game_id, self.node, self.here.get(game_id))

    def renew(self) -> None:
        """Write every report of this process again, as they are now (blocking: from a thread).
        Read under the lock of :meth:`report`: a report withdrawn while a renewal was on its way
        is never written back (it stood until it expired: another process saw a closed socket's
        seat connected for 20 s)."""
        with self._report_lock:
            self.broker.refresh(self.node, dict(self.here))
