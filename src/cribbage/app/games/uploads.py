"""A game against the computer played in the browser, kept at the server once over (issue 45,
item 2; ``POST /api/games/upload``, docs/api.md): :func:`uploaded_game`.

The browser sends the game's options and its record (the engine's JSON, as
:mod:`cribbage.local` made it).  The record is replayed here, action by action, by the engine
(which refuses any illegal one), so that what is kept is a game the rules allow; it is stored as
a finished game whose seat 0 is the person's, under a new token (and the account's, when
signed in), as any game against the computer: the account's games list it and its review reads
it.  Never rated: nobody but the person saw it played.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, replace
from typing import Any

from ...engine.errors import CribbageError
from ...storage import Storage, StoredGame
from ...table.seating import HUMAN
from ..errors import AppError
from .options import Options, given_names, hash_token
from .replay import Players, first_seats, replayed

__all__ = ["uploaded_game"]

_SERVER_ONLY = ("public", "clock", "takeover", "rated", "match", "tournament")
"""The options of a game at the server only: an uploaded game has none of them."""


def uploaded_game(storage: Storage, options: Options, record: object, players: Players) -> dict[str, Any]:
    """Store the finished game of ``record``, played with ``options`` against the computer:
    ``{"id", "token", "seat"}`` (the person's seat, 0, and its new token).

    Raises:
        AppError: ``invalid`` (field ``options``: an option of a server's game, or options that
            are not the record's), ``bad_record`` (a record the engine refuses, naming why),
            ``not_over``; nothing is stored.
    """
    server_only = [name for name in _SERVER_ONLY if getattr(options, name) not in (None, False)]
    if server_only:
        raise AppError("invalid", f"a game played in the browser has no {server_only[0]!r}", field="options")
    options = replace(options, names=given_names(options.names))
    rules = options.rules()
    if not isinstance(record, dict):
        raise AppError("bad_record", "a record is a JSON object", reason="not an object")
    try:
        table = replayed(record, options, players)
    except CribbageError as exc:
        raise AppError("bad_record", f"the record cannot be read: {exc}", reason=str(exc)) from None
    if table.rules != rules:
        raise AppError("invalid", "the options are not the record's game's", field="options")
    computers = {seat.player for seat in table.game.seats[1:] if seat is not None}
    if not table.game.seats or table.game.seats[HUMAN] is not None or computers - {options.level}:
        raise AppError(
            "invalid", "the record is not a person's game against the options' level", field="options"
        )
    if not table.over:
        raise AppError("not_over", "a game is kept once it is over")
    token = secrets.token_urlsafe(32)
    seats = first_seats(hash_token(token), table, options.level)
    names = options.seat_names(table.rules.players)
    seats = [replace(seat, name=names[seat.seat]) for seat in seats]
    table.game.names = names
    stored = StoredGame(
        id=secrets.token_urlsafe(24),
        token_hash=hash_token(token),
        options={**asdict(options), "names": list(options.names)},
        record=table.game.to_json(),
        version=len(table.game.actions),
        over=True,
    )
    storage.games.insert(stored, seats)
    return {"id": stored.id, "token": token, "seat": HUMAN}
