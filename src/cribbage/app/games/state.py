"""What a seat and a spectator are shown of a game: its ``STATE`` (``docs/api.md``), in two parts.

A ``STATE`` is two parts (:func:`merged`): the public part
(:meth:`~.live_game.LiveGame.public_json`), the same for every seat and every spectator at one
version, and the seat's own (:meth:`~.live_game.LiveGame.private_json`; a spectator's,
:meth:`~.live_game.LiveGame.spectator_json`): its seat, its own cards in the view, the seed, its
actions, its events, its invitations.  A live push encodes the public part once for all the
sockets of a game (:mod:`cribbage.web.fanout`).  The seats and a table's facts are shown alike
to the seats, the lobby and an invitation (:func:`seats_json`, :func:`table_facts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ...engine.rules import Rules
from ...storage import StoredSeat
from ...table.shown import PRIVATE, PRIVATE_VIEW, STATE_KEYS, merge_parts, own_view, public_view, unseen
from .options import Options
from .results import SeatShown, State, TableFacts

__all__ = [
    "PRIVATE",
    "PRIVATE_VIEW",
    "STATE_KEYS",
    "merged",
    "own_view",
    "public_view",
    "seats_json",
    "table_facts",
    "unseen",
]


def merged(public: dict[str, Any], private: dict[str, Any]) -> State:
    """A ``STATE``: its public part and a seat's (or a spectator's) private part
    (:func:`~cribbage.table.shown.merge_parts`)."""
    return cast(State, merge_parts(public, private))  # every key of a STATE, by the parts' own


def seats_json(seated: Sequence[StoredSeat], *, codes: bool = False) -> list[SeatShown]:
    """The seats as every seat and the lobby see them: ``{"seat", "kind", "level"?, "name"?,
    "taken"}`` (a computer's level; the name of a taken seat; with ``codes``, an open seat's code)."""
    shown: list[SeatShown] = []
    for seat in seated:
        data: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind}
        if seat.kind == "computer":
            data["level"] = seat.level
        if seat.taken:
            data["name"] = seat.name
        data["taken"] = seat.taken
        if codes and not seat.taken and seat.code is not None:
            data["code"] = seat.code
        shown.append(cast(SeatShown, data))  # built in the order its keys are shown
    return shown


def table_facts(options: Options, rules: Rules, shown: list[SeatShown]) -> TableFacts:
    """A table as the lobby and an invitation show it: its variant, target, counting and seats."""
    return {
        "variant": rules.name,
        "players": rules.players,
        "target": rules.target,
        "options": {
            "manual": rules.manual_count,
            "muggins": rules.muggins,
            "muggins_play": rules.muggins_play,
            "dealer": options.dealer,
            "skunk": rules.skunk,
            "clock": options.clock,
            "takeover": options.takeover,
            "rated": options.rated,
        },
        "seats": shown,
    }
