"""Who makes a request of the application: :class:`Actor`, a seat's token and a signed-in account.

An interface builds the actor once from its request (the web: the seat token of a game's routes
and sockets, the account of a session token when a game is created or joined) and hands it to
:class:`~cribbage.app.GameService`, which reads the seat from the token and links a seat it
gives to the account.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..storage import StoredAccount

__all__ = ["GUEST", "Actor"]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: the seat they act from and the account they are signed in with."""

    token: str | None = None
    """The secret token of the seat the request is made from: the seat a game's request reads,
    plays or leaves.  None: nobody's seat (a refusal, ``unauthorized``, for a seat's request)."""
    account: StoredAccount | None = None
    """The signed-in account: the seat a new game or a join gives is linked to it (and only an
    account may ask for a rated game).  None: a guest."""


GUEST: Final = Actor()
"""A guest without a seat yet: nobody's token, no account (a new game's or a join's default)."""
