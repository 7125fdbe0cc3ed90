"""Players: anything that picks an action from a seat's view.

Players live outside the rules (:mod:`cribbage.engine`) and see only a
:class:`~cribbage.engine.view.SeatView`.  :data:`PLAYERS` lists them by name: ``random`` and the
computer levels (:data:`LEVELS`); :func:`make_player` builds one by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..engine.errors import CribbageError
from .base import Player, RandomPlayer, SeededPlayer, new_seed
from .levels import LEVELS

__all__ = [
    "LEVELS",
    "PLAYERS",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "SeededPlayer",
    "make_player",
    "new_seed",
]

PlayerFactory = Callable[[int | None], Player]

PLAYERS: Final[dict[str, PlayerFactory]] = {"random": RandomPlayer, **LEVELS}
"""Player factories by name; each takes a seed (or None for one from the system)."""


def make_player(name: str, seed: int | None = None) -> Player:
    """The player called ``name`` (one of :data:`PLAYERS`)."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        known = ", ".join(sorted(PLAYERS))
        raise CribbageError(f"unknown player {name!r} (known: {known})") from None
    return factory(seed)
