"""The application: the games of the browser, people and computers at one table, server-side.

:class:`~cribbage.app.service.GameService` is its one entry; who makes a request is an
:class:`~cribbage.app.actor.Actor` (a seat's token, a signed-in account).  Its parts are in
folders by what they serve: the games at a table (:mod:`.games`: a repository of games, stored,
cached, always read at the stored version; seating, the lobby, watching, the round of play,
rematches, turn clocks and the live fan-out), the people (:mod:`.people`: accounts, passkeys, ratings,
standings), "Play now" (:mod:`.playnow`), the chat (:mod:`.chat`) and the turn notices
(:mod:`.notify`).  It knows nothing of HTTP: a refused request is an
:class:`~cribbage.app.errors.AppError` with a stable code; the web layer (:mod:`cribbage.web`)
maps codes to statuses and socket messages.
"""

from .actor import GUEST, Actor
from .errors import AppError
from .games.options import CLOCKS, CORRESPONDENCE, DEALERS, HUMAN, LEVELS, SEAT_KINDS, Options, SeatSpec
from .games.replay import Players, one_player
from .games.repository import CACHE_BYTES
from .service import GameService

__all__ = [
    "CACHE_BYTES",
    "CLOCKS",
    "CORRESPONDENCE",
    "DEALERS",
    "GUEST",
    "HUMAN",
    "LEVELS",
    "SEAT_KINDS",
    "Actor",
    "AppError",
    "GameService",
    "Options",
    "Players",
    "SeatSpec",
    "one_player",
]
