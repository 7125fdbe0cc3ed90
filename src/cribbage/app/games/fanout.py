"""What a change of a game shows the live sockets of its seats and spectators, all at once.

A change is read once (:meth:`Fanout.parts`): the public part of the ``STATE``, the same for
every seat and spectator at that version, and each seat's (and the spectators') own part
(:meth:`~cribbage.app.games.live_game.LiveGame.public_json`,
:meth:`~cribbage.app.games.live_game.LiveGame.private_json`).  The transport encodes the public part
once for all of the game's sockets (:mod:`cribbage.web.fanout`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..errors import AppError
from .live_game import LiveGame
from .repository import Repository, seat_of
from .round import ConnectedSeats
from .watch import Watching

__all__ = ["Fanout", "StateParts"]


@dataclass(frozen=True, slots=True)
class StateParts:
    """A game's ``STATE`` parts at one stored version (``version``)."""

    version: int
    public: dict[str, Any]
    """The public part (:meth:`LiveGame.public_json`)."""
    private: dict[str, dict[str, Any] | AppError]
    """Each token's seat's own part (:meth:`LiveGame.private_json`), or why the token has none
    (``unauthorized``: its person left)."""
    spectator: dict[str, Any] | None
    """The spectators' own part (:meth:`LiveGame.spectator_json`), if asked for."""


class Fanout:
    """Reads the parts of a game's states for its live sockets."""

    def __init__(self, repository: Repository, watching: Watching, presence: ConnectedSeats) -> None:
        self.repository = repository
        self.watching = watching
        self.presence = presence

    def parts(
        self,
        game_id: str,
        tokens: Collection[str],
        spectators: bool = False,
        *,
        saved: bool = False,
        connected: Collection[int] | None = None,
    ) -> StateParts:
        """The parts of the states of the seats of ``tokens`` and (with ``spectators``) of the
        spectators, all at one stored version.  With ``saved``, the game as this process last
        stored it, without reading the stored version again (:meth:`_saved`: right after this
        process stored a change); otherwise the stored game (:meth:`Repository.held`).
        ``connected``: the seats with a live socket open, when the caller read them already.

        Raises:
            AppError: ``not_found`` for a game not stored.
        """
        if connected is None:
            connected = self.presence(game_id)
        with self._saved(game_id) if saved else self.repository.held(game_id) as live:
            private: dict[str, dict[str, Any] | AppError] = {}
            seats: dict[str, int] = {}
            for token in tokens:
                try:
                    seats[token] = seat_of(live, token)
                except AppError as exc:
                    private[token] = exc
            if spectators:
                self.watching.follow(live)
            public, own, spectator = live.fanout_json(set(seats.values()), connected, spectators)
            private.update((token, own[seat]) for token, seat in seats.items())
            return StateParts(live.version, public, private, spectator)

    @contextmanager
    def _saved(self, game_id: str) -> Iterator[LiveGame]:
        """The game as this process last stored it, under its lock, without reading the stored
        version: the cached copy, which a change here leaves at the version it stored (or a
        later one: a change after it, stored too; one that was not is retired).  The stored
        game (:meth:`Repository.held`) if it left the cache meanwhile."""
        live = self.repository.load(game_id)
        with live.lock:
            if not live.retired:
                yield live
                return
        with self.repository.held(game_id) as held:
            yield held
