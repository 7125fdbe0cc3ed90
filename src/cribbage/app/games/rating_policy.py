"""Which games between people are rated (``docs/ratings.md``, "Which games are rated").

A game asks to be rated by its ``rated`` option: every game of Play now and of its matches
(:func:`cribbage.app.playnow.play.seat_match`), and a private table whose creator, signed in, asked for
it (``POST /api/games`` with ``"rated": true``).  What happens to that request is settled once
and kept (:mod:`cribbage.storage.rated_tables`):

* ``declined``: a person took a seat without accepting a rated game (a join without ``"rated":
  true``, or a guest's): the game is played unrated.
* ``aborted``: a person's seat was left, given to a computer, or its turn clock ran out before
  every seat had acted in the first deal (:func:`started`): unrated, as lichess aborts a game
  before both sides have moved.  The game goes on, unrated.
* ``counted`` once every seat has acted (each person discarded in the first deal, none absent
  before): the game is rated when it ends, a leave from then on is a loss.
* ``pair_limit`` instead, when two of its accounts have :attr:`RatingPolicy.pair_limit` counted
  games together in the last 24 hours already: played unrated.

Until it is settled a game asking to be rated is ``pending``.  The pure part:

>>> from types import SimpleNamespace as Seen
>>> from cribbage.engine.rules import get_rules
>>> game = Seen(actions=[Seen(seat=0)])
>>> started(Seen(game=game, table=Seen(rules=get_rules("short"))))
False
>>> game.actions.append(Seen(seat=1))
>>> started(Seen(game=game, table=Seen(rules=get_rules("short"))))
True
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ...engine.errors import CribbageError
from ...storage import Storage
from ...storage import rated_tables as stored
from ..errors import AppError
from ..people.rating_pools import pool_of
from .options import Options, SeatSpec

if TYPE_CHECKING:
    from .live_game import LiveGame

__all__ = [
    "ABORTED",
    "COUNTED",
    "DECLINED",
    "PAIR_LIMIT",
    "PAIR_LIMIT_GAMES",
    "PENDING",
    "RatingPolicy",
    "check_rated_table",
    "started",
]

log = logging.getLogger(__name__)

PENDING: Final = "pending"
COUNTED: Final = stored.COUNTED
ABORTED: Final = "aborted"
DECLINED: Final = "declined"
PAIR_LIMIT: Final = stored.PAIR_LIMIT

PAIR_LIMIT_GAMES: Final = 5
"""The rated games two accounts may play together in 24 hours by default (``Settings``'
``rated_pair_limit``); their further games that day are played unrated."""

REMEMBERED: Final = 4096
"""The settled games this process remembers (their status never changes)."""


def started(live: LiveGame) -> bool:
    """Whether every seat of the game has an action in its record: each person has acted in
    the first deal (a discard is never forced; a clock's move for a seat before that aborted the
    game first, :meth:`RatingPolicy.absent`)."""
    acted = {getattr(action, "seat", None) for action in live.game.actions}
    return acted >= set(range(live.table.rules.players))


def check_rated_table(options: Options, layout: Sequence[SeatSpec | dict[str, object]] | None) -> None:
    """A table created with ``rated``: only people at it, and rules a rating pool holds.

    Raises:
        AppError: ``invalid`` naming the field ``rated``.
    """
    if layout is None or any(
        (seat.kind if isinstance(seat, SeatSpec) else seat.get("kind")) != "human" for seat in layout
    ):
        raise AppError(
            "invalid", "a rated table seats only people: every seat's kind is human", field="rated"
        )
    try:
        pool_of(options.rules())
    except CribbageError as exc:
        raise AppError("invalid", f"a rated table plays a rating pool's game: {exc}", field="rated") from None


class RatingPolicy:
    """Settles whether the games of a storage that ask to be rated are rated (module doc)."""

    def __init__(self, storage: Storage, pair_limit: int = PAIR_LIMIT_GAMES) -> None:
        if pair_limit < 0:
            raise ValueError(f"the pair limit cannot be negative, not {pair_limit}")
        self.storage = storage
        self.pair_limit = pair_limit
        self._known: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def status(self, live: LiveGame) -> str | None:
        """The game's rating as its state shows it: None (not asked), :data:`PENDING`, or what
        was settled."""
        if not live.options.rated:
            return None
        return self._settled(live.id) or PENDING

    def decline(self, live: LiveGame) -> None:
        """A person took a seat of the game without accepting a rated game."""
        if live.options.rated:
            live.rating = self._settle(live.id, DECLINED)

    def absent(self, live: LiveGame) -> None:
        """A person's seat is about to be left, given to a computer or played by its clock
        (called under the game's lock, just before that change is stored): the game is
        aborted if not every seat has acted yet (:func:`started`)."""
        if live.options.rated and not started(live) and self._settled(live.id) is None:
            live.rating = self._settle(live.id, ABORTED)

    def after_save(self, live: LiveGame) -> str | None:
        """A stored change of the game: once every seat has acted, count it (or find its pair
        limit reached).  Returns :meth:`status`.  A failure is logged; the status stays pending
        and the next change, or the game's end (:meth:`rated`), tries again."""
        status = self.status(live)
        if status != PENDING or not started(live):
            return status
        try:
            live.rating = self._count(live)
            return live.rating
        except Exception:
            log.exception("the rating of game %s was not settled", live.id)
            return status

    def rated(self, live: LiveGame) -> bool:
        """Whether a finished game is to be rated: it asked, and it was counted (counted now if
        its last change's :meth:`after_save` did not)."""
        return self.after_save(live) == COUNTED

    def _count(self, live: LiveGame) -> str:
        accounts = [account for _seat, _kind, account in self.storage.seats.accounts(live.id)]
        players = [account for account in accounts if account is not None]
        if len(players) != len(accounts) or len(set(players)) != len(players):
            return self._settle(live.id, DECLINED)  # a guest's seat, or an account twice
        status = self.storage.rated_tables.count(live.id, players, limit=self.pair_limit)
        return self._remember(live.id, status)

    def _settle(self, game_id: str, status: str) -> str:
        return self._remember(game_id, self.storage.rated_tables.settle(game_id, status))

    def _settled(self, game_id: str) -> str | None:
        with self._lock:
            found = self._known.get(game_id)
        if found is not None:
            return found
        status = self.storage.rated_tables.settled(game_id)
        return None if status is None else self._remember(game_id, status)

    def _remember(self, game_id: str, status: str) -> str:
        with self._lock:
            self._known[game_id] = status
            self._known.move_to_end(game_id)
            while len(self._known) > REMEMBERED:
                self._known.popitem(last=False)
        return status
