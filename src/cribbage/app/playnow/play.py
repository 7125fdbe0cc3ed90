""" "Play now"'s games: a player's rating in a pool, and the game of a match.

The queue pairs accounts by rating (:mod:`.orchestrator`); once it has made a match,
:func:`seat_match` creates its game: a table of people playing the pool's variant, each seat
taken under its account's name and linked to its account (as when a signed-in person creates a
table or joins one), and answers each player's seat and seat token.  Nothing here knows of
HTTP or of the queue's storage (docs/matchmaking.md, "How it is wired").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ...table.seating import DEFAULT_LEVEL
from ..actor import Actor
from ..errors import AppError
from ..games.options import Options, SeatSpec
from ..games.series import Series
from ..people.ratings import BASE, Rating
from ..service import GameService
from .matchmaking import Pool

TURN_SECONDS: Final = 60
"""A game of Play now has a turn clock of this many seconds, and a computer (the default level)
takes the seat of a person who leaves: a player who walks away or stops playing loses the game
(docs/ratings.md), and the other is never left waiting at a seat nobody will take."""

__all__ = ["Seated", "absent", "rating_in", "seat_match"]


@dataclass(frozen=True, slots=True)
class Seated:
    """One player's place at a match's game: the game, their seat and its own token."""

    game: str
    seat: int
    token: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "token": self.token}


def rating_in(service: GameService, account_id: str, pool: str) -> float:
    """The shown rating of an account in a pool (:attr:`Rating.shown`), 1500 when it has none."""
    for stored in service.storage.ratings.profile(account_id):
        if stored.pool == pool:
            return Rating(stored.mu, stored.sigma, stored.games, stored.wins).shown
    return BASE


def absent(service: GameService, accounts: Sequence[str]) -> list[str]:
    """Those of ``accounts`` no longer there to play: deleted, or signed out of every session
    (they left the queue as they did so, but may have been paired meanwhile, or by a process
    that could not reach the queue then).  A match with one of them is not seated."""
    present = service.storage.accounts.signed_in_among(accounts)
    return [account_id for account_id in accounts if account_id not in present]


def seat_match(service: GameService, pool: Pool, accounts: Sequence[str], first_to: int = 1) -> list[Seated]:
    """Create the game of a match of ``pool``: one seat per account of ``accounts``, in that
    order, each a person's taken under the account's name and linked to the account; the
    accounts' places, in the same order.  With ``first_to`` over 1 it is the first game of a
    series (:class:`Series`): the service makes each next game once one is over.

    Raises:
        AppError: ``invalid`` when the match does not fit the pool's table, ``not_found`` for an
            account deleted meanwhile (the table is then left with that seat open).
    """
    found = []
    for account_id in accounts:
        account = service.storage.accounts.load(account_id)
        if account is None:
            raise AppError("not_found", f"no account {account_id!r}: deleted meanwhile?")
        found.append(account)
    series = None if first_to == 1 else Series.first(first_to, len(accounts))
    options = Options(
        variant=pool.variant,
        names=(found[0].name,),
        match=series,
        clock=TURN_SECONDS,
        takeover=DEFAULT_LEVEL,
        rated=True,
    )
    if options.rules().players != len(accounts):
        raise AppError("invalid", f"{pool.name} seats {options.rules().players}, not {len(accounts)}")
    layout = [SeatSpec("human") for _ in accounts]
    created = service.create(options, layout, actor=Actor(account=found[0]), accounts_names=True)
    game_id = created["id"]
    seated = [Seated(game_id, 0, created["token"])]
    codes = {invite["seat"]: invite["code"] for invite in created["invites"]}
    for seat, account in enumerate(found[1:], start=1):
        joined = service.join(
            codes[seat], account.name, actor=Actor(account=account), account_name=True, accept_rating=True
        )
        seated.append(Seated(game_id, joined["seat"], joined["token"]))
    return seated
