"""What a seat and a spectator are shown of a table's game: the parts of its ``STATE``
(``docs/api.md``) that come from the game alone, the same on the server
(:mod:`cribbage.app.games.state`) and in a browser that plays the game itself
(:mod:`cribbage.local`): the fields of a ``STATE`` in their order, a seat's view split into its
public and own fields, and the two parts merged.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.view import SeatView

__all__ = ["PRIVATE", "PRIVATE_VIEW", "STATE_KEYS", "merge_parts", "own_view", "public_view", "unseen"]

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


def merge_parts(public: dict[str, Any], private: dict[str, Any]) -> dict[str, Any]:
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
    return state
