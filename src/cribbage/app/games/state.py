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
from typing import Any, Final, cast

from ...engine.rules import Rules
from ...engine.view import SeatView
from ...storage import StoredSeat
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

STATE_KEYS: Final = (
    "id",
    "version",
    "seat",
    "spectator",
    "names",
    "options",
    "view",
    "actions",
    "events",
    "score_history",
    "breakdown",
    "over",
    "result",
    "seats",
    "people",
    "waiting_for",
    "invites",
    "connected",
    "turn_clock",
    "away",
    "arrival",
    "match",
    "rating",
    "rating_change",
    "rematch",
    "rematch_watch",
)
"""The fields of a ``STATE`` (a seat's, a spectator's), in their order: every key of its public
and private parts (:meth:`~.live_game.LiveGame.public_json`,
:meth:`~.live_game.LiveGame.private_json`) is one of them."""

PRIVATE_VIEW: Final = ("seat", "hand", "kept", "discards")
"""The fields of a seat's view that are its own (its seat and cards); in the public part they
are a spectator's (null, and no cards)."""

PRIVATE: Final = {"view": PRIVATE_VIEW, "options": ("seed",)}
"""The objects of a ``STATE`` that are public but for a few fields, by key: those fields come
from the private part (the public part holds a spectator's values in their place: no seat, no
cards, no seed, which deals the cards)."""


def unseen() -> dict[str, Any]:
    """The view's own fields (:data:`PRIVATE_VIEW`) as a spectator has them: no seat, no cards."""
    return {"seat": None, "hand": [], "kept": [], "discards": []}


def public_view(view: SeatView) -> dict[str, Any]:
    """A view's JSON with its seat's own fields (:data:`PRIVATE_VIEW`) as a spectator's."""
    shown = view.to_json()
    shown.update(unseen())
    return shown


def own_view(view: SeatView) -> dict[str, Any]:
    """A view's fields that are its seat's own (:data:`PRIVATE_VIEW`), as its JSON has them."""
    return {
        "seat": view.seat,
        "hand": [str(c) for c in view.hand],
        "kept": [str(c) for c in view.kept],
        "discards": [str(c) for c in view.discards],
    }


def merged(public: dict[str, Any], private: dict[str, Any]) -> State:
    """A ``STATE``: its public part and a seat's (or a spectator's) private part, in the order of
    :data:`STATE_KEYS`; the fields of :data:`PRIVATE` merged key by key (the public part's
    order kept, the private values over its placeholders)."""
    state: dict[str, Any] = {}
    for key in STATE_KEYS:
        if key in private:
            value = private[key]
            state[key] = {**public[key], **value} if key in PRIVATE else value
        elif key in public:
            state[key] = public[key]
    return cast(State, state)  # every key of a STATE, by the parts' own (their tests check them)


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
