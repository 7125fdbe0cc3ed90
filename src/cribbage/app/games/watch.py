"""Spectators: a table's watch link, and what a spectator is shown."""

from __future__ import annotations

from ...storage import Conflict
from ...table.seating import HUMAN
from ..errors import AppError
from .live_game import LiveGame
from .options import CODE_ALPHABET, WATCH_LENGTH, new_code
from .repository import Repository
from .results import State, WatchLink
from .round import ConnectedSeats

__all__ = ["Watching"]


class Watching:
    """Watch links and the spectators' states."""

    def __init__(self, repository: Repository, presence: ConnectedSeats) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.presence = presence

    def watch_link(self, game_id: str, token: str | None) -> WatchLink:
        """The game's watch link, for its creator (seat 0) only: ``{"code", "url"}``, the same
        every time it is asked for.

        Raises:
            AppError: ``unauthorized`` without a right token, ``forbidden`` for another seat's token.
        """
        with self.repository.seated(game_id, token) as (_live, seat):
            pass  # the token still holds its seat (nobody left, here or through another process)
        if seat != HUMAN:
            raise AppError(
                "forbidden",
                f"only the table's creator (seat 0) may give a watch link, not seat {seat}",
                seat=seat,
            )
        code = self.watch_code(game_id)
        return {"code": code, "url": f"/watch/{code}"}

    def watch_code(self, game_id: str) -> str:
        """The game's watch code: the one it has, else a new one stored now (in any process,
        the first stored is everyone's)."""
        for _ in range(4):
            try:
                return self.storage.games.watch_code(game_id, new_code(WATCH_LENGTH))
            except Conflict:  # a code drawn twice: draw again
                continue
        return self.storage.games.watch_code(game_id, new_code(WATCH_LENGTH))  # a Conflict again: raised

    def watch(self, code: str) -> State:
        """A spectator's ``STATE`` of the game of a watch ``code`` (:meth:`LiveGame.watch_json`).

        Raises:
            AppError: ``no_watch_code`` for an unknown code.
        """
        code = code.strip().upper() if isinstance(code, str) else ""
        game_id = None
        if len(code) == WATCH_LENGTH and set(code) <= set(CODE_ALPHABET):
            game_id = self.storage.games.watched(code)
        if game_id is None:
            raise AppError("no_watch_code", "no table has this watch code")
        connected = self.presence(game_id)
        with self.repository.held(game_id) as live:
            self.follow(live)
            return live.watch_json(connected)

    def follow(self, live: LiveGame) -> None:
        """Once the people played again, the spectators follow them to the new game's watch code
        (the same code its creator's watch link gives, made now if it has none): the held
        game's ``rematch_watch``."""
        if live.rematch is not None and live.rematch_watch is None:
            live.rematch_watch = self.watch_code(live.rematch)
