"""The public lobby, and what an invitation opens before it is taken."""

from __future__ import annotations

from ...engine.errors import CribbageError
from ...storage import Storage
from ..errors import AppError
from .options import CODE_ALPHABET, CODE_LENGTH, Options
from .results import Invitation, ListedTable, LobbyTables
from .state import seats_json, table_facts

__all__ = ["Lobby"]


class Lobby:
    """The tables open to anyone, and invitations."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def lobby(self, limit: int = 100) -> LobbyTables:
        """The public tables with an open seat, newest first (``GET /api/lobby``): never a token,
        a hand or a record."""
        tables: list[ListedTable] = []
        for listed in self.storage.games.lobby(limit):
            try:
                options = Options.from_json(listed.options)
                rules = options.rules()
            except (AppError, CribbageError, TypeError):  # not a game this version can show
                continue
            shown = seats_json(listed.seats, codes=True)
            free = [seat["code"] for seat in shown if "code" in seat]
            if not free:
                continue
            tables.append(
                {"code": free[0], **table_facts(options, rules, shown), "created": listed.listed.isoformat()}
            )
        return {"tables": tables}

    def invitation(self, code: str) -> Invitation:
        """What an invitation ``code`` opens, to be shown before joining (``GET /api/join/{code}``):
        ``{"seat", "variant", "players", "target", "options", "seats"}`` as in the lobby, the
        seat being the one the code takes; never a token, nor another seat's code.

        Raises:
            AppError: ``no_invitation`` for an unknown code (or a game over), ``seat_taken`` for
                a seat taken already.
        """
        code = code.strip().upper() if isinstance(code, str) else ""
        found = None
        if len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET):
            found = self.storage.seats.invitation(code)
        if found is None:
            raise AppError("no_invitation", "no table has this invitation code")
        (seat,) = [s for s in found.seats if s.code == code]
        if seat.taken:
            raise AppError("seat_taken", f"seat {seat.seat} of this table is taken already", seat=seat.seat)
        options = Options.from_json(found.options)
        rules = options.rules()
        return {"seat": seat.seat, **table_facts(options, rules, seats_json(found.seats))}
