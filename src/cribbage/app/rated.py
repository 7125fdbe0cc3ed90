"""Rated games: a finished game between accounts, recorded in their ratings (``docs/ratings.md``).

:meth:`Rated.after_save` is called by the service with each game whose stored state changed, in
the thread that stored it, after the save.  A game is rated when it asked to be and was counted
(:mod:`.rating_policy`: Play now, or a private table every account accepted as rated; nobody
absent before everyone acted in the first deal; the pair's daily limit not reached), is over,
and every seat is an account's: a person's seat linked to an account, or a seat a computer took over when its
account's person left (the seat keeps the account, :meth:`~cribbage.storage.Storage.reseat`).
A game with a guest's seat or a computer's from the start is not rated, nor one whose rules no
pool holds (:func:`~cribbage.app.ratings.pool_of`).

Whoever left (a computer took the seat over, or the seat was left open: its leaver's account is
kept, :meth:`~cribbage.storage.Storage.seat_leavers`) or was away at the end (their turn's clock ran out
and they had not acted since) loses: :class:`~cribbage.app.ratings.Outcome` ranks them last.

Recording is idempotent per game (:func:`cribbage.storage.ratings.record_game`): every process
that stores a change of a finished game may try.  A failure is logged, never raised: the action
that finished the game was stored and stands.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Final

from ..engine.errors import CribbageError
from ..engine.game import SOURCES
from ..storage import ratings as stored_ratings
from ..storage.ratings import GamePlay
from .rating_policy import RatingPolicy
from .ratings import Outcome, rerater
from .repository import Repository
from .session import Session

__all__ = ["Rated", "outcome_of", "play_of"]

log = logging.getLogger(__name__)

REMEMBERED: Final = 4096
"""The finished games this process remembers having handled (recorded, or not rated), so that a
later change of one (a rematch's link) costs no database read."""


def outcome_of(
    session: Session,
    seated: Sequence[tuple[int, str, str | None]],
    leavers: Mapping[int, str] | None = None,
) -> Outcome | None:
    """The rated outcome of a finished game, from its seats' kinds and accounts (the storage's
    :meth:`~cribbage.storage.Storage.seat_accounts`) and the accounts that left a seat open
    (``leavers``, :meth:`~cribbage.storage.Storage.seat_leavers`: the seat is theirs, a loss,
    whoever finished the game in it), or None if it is not rated.

    Raises:
        RatingError: an outcome the ratings refuse (rules no pool holds, an account twice).
    """
    result = session.game.state.result
    rules = session.table.rules
    if not session.over or result is None or len(seated) != rules.players:
        return None
    accounts: list[str] = []
    left: set[int] = set()
    leavers = leavers or {}
    for seat, kind, seated_account in seated:
        account = leavers.get(seat, seated_account)
        if account is None:  # a guest, or a computer from the start
            return None
        accounts.append(account)
        if kind != "human" or seat in session.away or seat in leavers:
            left.add(seat)
    return Outcome.of_game(rules, accounts, list(result.scores), result.winner, left=left)


def play_of(session: Session, accounts: Sequence[str | None]) -> dict[str, GamePlay]:
    """What each seat's account did in a finished game (``accounts`` by seat): the deals played,
    the seat's points by source, and the skunk, ``+n`` for the winning side's seats, ``-n`` for
    the losing side's (the engine's result: a seat that left is not skunked by it)."""
    result = session.game.state.result
    if result is None:
        return {}
    tally = session.table.tally
    rules = session.table.rules
    skunk = result.skunk
    play = {}
    for seat, account in enumerate(accounts):
        if account is None:
            continue
        side = rules.side_of(seat)
        points = dict(zip(SOURCES, tally.points[seat], strict=True))
        signed = skunk if side == result.winner else -skunk if side == result.loser else 0
        play[account] = GamePlay(tally.hands, points["pegging"], points["hand"], points["crib"], signed)
    return play


class Rated:
    """Records the finished rated games of a repository's storage."""

    def __init__(self, repository: Repository, policy: RatingPolicy | None = None) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.policy = policy or RatingPolicy(repository.storage)
        """Whether a game between people is rated at all (:mod:`.rating_policy`)."""
        self._done: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def after_save(self, game_id: str) -> bool:
        """Record the game's ratings if it is a finished rated game not recorded yet; True if
        this call recorded it.  Never raises: a failure is logged."""
        session = self.repository.peek(game_id)
        if session is None or not session.over:
            return False
        with self._lock:
            if game_id in self._done:
                return False
        try:
            recorded = self._record(session)
        except Exception:
            log.exception("the ratings of game %s were not recorded", game_id)
            return False
        with self._lock:
            self._done[game_id] = None
            while len(self._done) > REMEMBERED:
                self._done.popitem(last=False)
        return recorded

    def _record(self, session: Session) -> bool:
        if not self.policy.rated(session):  # not asked, declined, aborted, or over the pair's limit
            return False
        seated = self.storage.seat_accounts(session.id)
        try:
            outcome = outcome_of(session, seated, self.storage.seat_leavers(session.id))
        except CribbageError as exc:  # rules no pool holds, an account in two seats
            log.info("game %s is not rated: %s", session.id, exc)
            return False
        if outcome is None:
            return False
        return stored_ratings.record_game(
            self.storage.engine,
            session.id,
            outcome.pool,
            outcome.accounts,
            rerater(outcome),
            play=play_of(session, [account for _seat, _kind, account in seated]),
        )
