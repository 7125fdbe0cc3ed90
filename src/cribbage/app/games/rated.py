"""Rated games: a finished game between accounts, recorded in their ratings (``docs/ratings.md``).

:meth:`Rated.after_save` is called by the service with each game whose stored state changed, in
the thread that stored it, after the save.  A game is rated when it asked to be and was counted
(:mod:`.rating_policy`: Play now, or a private table every account accepted as rated; nobody
absent before everyone acted in the first deal; the pair's daily limit not reached), is over,
and every seat is an account's: a person's seat linked to an account, or a seat a computer took over when its
account's person left (the seat keeps the account, :meth:`~cribbage.storage.games.GameRows.reseat`).
A game with a guest's seat or a computer's from the start is not rated, nor one whose rules no
pool holds (:func:`~cribbage.app.people.rating_pools.pool_of`).

Whoever left (a computer took the seat over, or the seat was left open: its leaver's account is
kept, :meth:`~cribbage.storage.seating.SeatRows.leavers`) or was away at the end (their turn's clock ran out
and they had not acted since) loses: :class:`~cribbage.app.people.ratings.Outcome` ranks them last.

Recording is idempotent per game (:meth:`cribbage.storage.ratings.RatingRows.record`): every process
that stores a change of a finished game may try.  A failure is logged, never raised: the action
that finished the game was stored and stands, and the game stays due.

Rated exactly once, even if a process dies: a game stored as over is the ratings' outbox until
its rating is settled (recorded, or found not rated; ``games.rating_settled``, set in the
rating's own transaction).  :meth:`Rated.sweep` settles the games left due, by whichever process
finds them (every server at its start and periodically).

What a recorded game did to each seat's rating is the game's state's ``rating_change``
(:func:`rating_change`): set here once recorded, read from the storage by any process that
holds the finished game later.

Deleting an account forfeits its games (:meth:`Rated.forfeit`): each rated game in progress is
recorded at once as the account's loss (:func:`forfeit_outcome`), before the account goes.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ...engine.errors import CribbageError
from ...engine.events import SOURCES
from ...storage import GamePlay, Storage
from ..errors import AppError
from ..people.ratings import Outcome, rerater
from .live_game import LiveGame
from .rating_policy import RatingPolicy
from .repository import Repository

__all__ = ["SWEEP_BATCH", "Rated", "forfeit_outcome", "outcome_of", "play_of", "rating_change"]

log = logging.getLogger(__name__)

REMEMBERED: Final = 4096
"""The finished games this process remembers having handled (recorded, or not rated), so that a
later change of one (a rematch's link) costs no database read."""

SWEEP_BATCH: Final = 100
"""The most due games one round of :meth:`Rated.sweep` settles."""


def outcome_of(
    live: LiveGame,
    seated: Sequence[tuple[int, str, str | None]],
    leavers: Mapping[int, str] | None = None,
) -> Outcome | None:
    """The rated outcome of a finished game, from its seats' kinds and accounts (the storage's
    :meth:`~cribbage.storage.seating.SeatRows.accounts`) and the accounts that left a seat open
    (``leavers``, :meth:`~cribbage.storage.seating.SeatRows.leavers`: the seat is theirs, a loss,
    whoever finished the game in it), or None if it is not rated.

    Raises:
        RatingError: an outcome the ratings refuse (rules no pool holds, an account twice).
    """
    result = live.game.state.result
    rules = live.table.rules
    if not live.over or result is None or len(seated) != rules.players:
        return None
    accounts: list[str] = []
    left: set[int] = set()
    leavers = leavers or {}
    for seat, kind, seated_account in seated:
        account = leavers.get(seat, seated_account)
        if account is None:  # a guest, or a computer from the start
            return None
        accounts.append(account)
        if kind != "human" or seat in live.away or seat in leavers:
            left.add(seat)
    return Outcome.of_game(rules, accounts, list(result.scores), result.winner, left=left)


def play_of(live: LiveGame, accounts: Sequence[str | None]) -> dict[str, GamePlay]:
    """What each seat's account did in a finished game (``accounts`` by seat): the deals played,
    the seat's points by source, and the skunk, ``+n`` for the winning side's seats, ``-n`` for
    the losing side's (the engine's result: a seat that left is not skunked by it)."""
    result = live.game.state.result
    if result is None:
        return {}
    tally = live.table.tally
    rules = live.table.rules
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


def rating_change(storage: Storage, live: LiveGame) -> dict[str, Any] | None:
    """What a recorded game did to its seats' ratings, as its state shows it: ``{"pool",
    "seats": [{"seat", "shown", "change"}...]}``, each seat whose account was rated (the
    account that left a seat open for it, as :func:`outcome_of` rates), its rating after the
    game and the change (None: the pool's first game); None while the game is not recorded."""
    rows = storage.ratings.of_game(live.id)
    if not rows:
        return None
    leavers = storage.seats.leavers(live.id)
    seats = []
    for seat, _kind, seated in storage.seats.accounts(live.id):
        kept = rows.get(leavers.get(seat, seated) or "")
        if kept is not None:
            seats.append({"seat": seat, "shown": round(kept.shown), "change": kept.change})
    return {"pool": next(iter(rows.values())).pool, "seats": seats}


def forfeit_outcome(
    live: LiveGame,
    seated: Sequence[tuple[int, str, str | None]],
    leavers: Mapping[int, str],
    quitter: str,
) -> Outcome | None:
    """The rated outcome of a game in progress that the account ``quitter`` forfeits (it is
    deleted): as :func:`outcome_of` would rate the game if it ended now with the quitter's seat
    left, so the quitter's side ranks last and the others by their scores so far (nobody has
    won: as a game ended by a leave); or None if the game would not be rated (a seat without an
    account), is over, or the quitter has no seat in it.

    Raises:
        RatingError: an outcome the ratings refuse (rules no pool holds, an account twice,
            every side left).
    """
    rules = live.table.rules
    if live.over or len(seated) != rules.players:
        return None
    accounts: list[str] = []
    left: set[int] = set()
    for seat, kind, seated_account in seated:
        account = leavers.get(seat, seated_account)
        if account is None:  # a guest, or a computer from the start
            return None
        accounts.append(account)
        if account == quitter or kind != "human" or seat in live.away or seat in leavers:
            left.add(seat)
    if quitter not in accounts:
        return None
    return Outcome.of_game(rules, accounts, list(live.game.state.scores), None, left=left)


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
        live = self.repository.peek(game_id)
        if live is None or not live.over:
            return False
        with self._lock:
            if game_id in self._done:
                return False
        try:
            recorded = self.settle(live)
        except Exception:
            log.exception("the ratings of game %s were not recorded (it stays due)", game_id)
            return False
        with self._lock:
            self._done[game_id] = None
            while len(self._done) > REMEMBERED:
                self._done.popitem(last=False)
        return recorded

    def settle(self, live: LiveGame) -> bool:
        """Settle a finished game's rating: record it if it is rated and not recorded yet, or
        mark it not rated (:meth:`~cribbage.storage.ratings.RatingRows.settle_unrated`); True if this
        call recorded it.  The database's errors are raised: the game then stays due."""
        recorded = self._record(live)
        if not recorded:  # not rated (or recorded already, and so marked: this changes nothing)
            self.storage.ratings.settle_unrated(live.id)
        return recorded

    def _record(self, live: LiveGame) -> bool:
        if not self.policy.rated(live):  # not asked, declined, aborted, or over the pair's limit
            return False
        seated = self.storage.seats.accounts(live.id)
        try:
            outcome = outcome_of(live, seated, self.storage.seats.leavers(live.id))
        except CribbageError as exc:  # rules no pool holds, an account in two seats
            log.info("game %s is not rated: %s", live.id, exc)
            return False
        if outcome is None:
            return False
        recorded = self.storage.ratings.record(
            live.id,
            outcome.pool,
            outcome.accounts,
            rerater(outcome),
            play=play_of(live, [account for _seat, _kind, account in seated]),
        )
        if recorded:
            live.rating_change = rating_change(self.storage, live)
        return recorded

    def change(self, live: LiveGame) -> dict[str, Any] | None:
        """:func:`rating_change` of a game (the repository's, for a finished game held)."""
        return rating_change(self.storage, live)

    def sweep(self, limit: int = SWEEP_BATCH) -> list[str]:
        """Settle the games left due (:meth:`~cribbage.storage.ratings.RatingRows.due`: a process died, or
        the database failed, between a game's last save and its rating), the longest waiting
        first, at most ``limit``: the ids handled (recorded, or found not rated).  A game that
        cannot be replayed is logged and marked not rated; any other error (the database away)
        ends the round, raised, and its games stay due for the next."""
        handled = []
        for game_id in self.storage.ratings.due(limit):
            try:
                with self.repository.held(game_id) as live:
                    recorded = self.settle(live)
            except (AppError, CribbageError) as exc:  # pruned meanwhile, or a record not replayed
                if not (isinstance(exc, AppError) and exc.code == "not_found"):
                    log.error("game %s cannot be rated: %s", game_id, exc)
                    self.storage.ratings.settle_unrated(game_id)
                continue
            if recorded:
                log.info("game %s was rated late (its rating was due)", game_id)
            handled.append(game_id)
        return handled

    def forfeit(self, account_id: str) -> list[str]:
        """Before an account is deleted: settle the rating of each of its games not settled yet,
        a finished one as it ended (:meth:`settle`), one in progress as the account's loss
        (:func:`forfeit_outcome`; the game itself plays on).  The ids of the games recorded.
        The database's errors are raised (the deletion is not to go on without them)."""
        recorded = []
        for game_id in self.storage.ratings.unsettled_of(account_id):
            try:
                with self.repository.held(game_id) as live:
                    done = self.settle(live) if live.over else self._forfeit(live, account_id)
            except (AppError, CribbageError) as exc:  # pruned meanwhile, a record not replayed
                log.info("game %s is not forfeited: %s", game_id, exc)
                continue
            if done:
                recorded.append(game_id)
        return recorded

    def _forfeit(self, live: LiveGame, account_id: str) -> bool:
        self.policy.absent(live)  # gone before every seat acted: the game is aborted
        if not self.policy.rated(live):  # not asked, declined, aborted, or the pair's limit
            return False
        seated = self.storage.seats.accounts(live.id)
        try:
            outcome = forfeit_outcome(live, seated, self.storage.seats.leavers(live.id), account_id)
        except CribbageError as exc:
            log.info("game %s is not rated: %s", live.id, exc)
            return False
        if outcome is None:
            return False
        return self.storage.ratings.record(live.id, outcome.pool, outcome.accounts, rerater(outcome))
