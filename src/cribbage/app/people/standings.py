"""What the ratings show (``docs/api.md``, "Players and ratings"): a player's profile and a
pool's leaderboard, read from the storage (:mod:`cribbage.storage.ratings`).

A deleted account's ratings went with it: its name is never shown, its profile is not found.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Final

from ...storage import PlayTotals, StoredAccount, StoredRating
from ..errors import AppError
from .accounts import AccountBook, name_key
from .rating_pools import POOLS
from .ratings import Rating

__all__ = ["HISTORY_POINTS", "LEADERBOARD_SIZE", "RECENT_GAMES", "Standings"]

LEADERBOARD_SIZE: Final = 100
"""The places a leaderboard shows."""

HISTORY_POINTS: Final = 200
"""The last games of each pool a profile's graph shows."""

RECENT_GAMES: Final = 20
"""The last rated games a profile lists."""


def rating_json(kept: StoredRating) -> dict[str, Any]:
    """A stored rating as shown: ``{"shown", "uncertainty", "provisional", "games", "wins"}``
    (whole points)."""
    rating = Rating(kept.mu, kept.sigma, kept.games, kept.wins)
    return {
        "shown": round(rating.shown),
        "uncertainty": round(rating.uncertainty),
        "provisional": rating.provisional,
        "games": rating.games,
        "wins": rating.wins,
    }


def play_json(totals: PlayTotals | None) -> dict[str, Any]:
    """What an account did in a pool's rated games: ``{"deals", "averages", "skunks"}``, the
    averages per deal of its points by source (None before a deal is known: games recorded
    before their play was kept) and the skunks given and taken."""
    deals = totals.deals if totals else 0
    return {
        "deals": deals,
        "averages": None
        if totals is None or not deals
        else {
            "pegging": round(totals.pegging / deals, 2),
            "hand": round(totals.hand / deals, 2),
            "crib": round(totals.crib / deals, 2),
        },
        "skunks": {
            "given": totals.skunks_given if totals else 0,
            "taken": totals.skunks_taken if totals else 0,
        },
    }


class Standings:
    """The profiles and leaderboards of an account book's storage."""

    def __init__(self, accounts: AccountBook) -> None:
        self.accounts = accounts
        self.storage = accounts.storage

    def _named(self, name: object) -> StoredAccount:
        found = None
        if isinstance(name, str) and 0 < len(name) <= 64:
            found = self.storage.accounts.by_name(name_key(unicodedata.normalize("NFC", name).strip()))
        if found is None:
            raise AppError("player.not_found", "no player has this name")
        return found

    def profile(self, name: object, session: str | None = None) -> dict[str, Any]:
        """A player's profile: name, creation, ratings and history per pool, totals, recent
        rated games; with the player's own session, their games in progress too.

        Raises:
            AppError: ``player.not_found`` for a name no account has (or had: deleted).
        """
        account = self._named(name)
        ratings = self.storage.ratings
        kept = ratings.profile(account.id)
        played = ratings.play_totals(account.id)
        pools = []
        recent = []
        for rating in kept:
            points = ratings.history(account.id, rating.pool, HISTORY_POINTS)
            pools.append(
                {
                    "pool": rating.pool,
                    **rating_json(rating),
                    "place": ratings.place(account.id, rating.pool),
                    **play_json(played.get(rating.pool)),
                    "history": [
                        {"game": p.game_id, "shown": round(p.shown), "at": p.at.isoformat()} for p in points
                    ],
                }
            )
            for before, point in zip([None, *points], points, strict=False):
                change = None if before is None else round(point.shown) - round(before.shown)
                recent.append((point.at, rating.pool, point, change))
        recent.sort(key=lambda entry: (entry[0], entry[2].game_id), reverse=True)
        answer: dict[str, Any] = {
            "name": account.name,
            "created": account.created.isoformat(),
            "ratings": pools,
            "games": sum(r.games for r in kept),
            "wins": sum(r.wins for r in kept),
            "recent": [
                {
                    "id": point.game_id,
                    "pool": pool,
                    "shown": round(point.shown),
                    "change": change,
                    "won": point.won,
                    "at": at.isoformat(),
                    "record": f"/api/games/{point.game_id}/record",
                }
                for at, pool, point, change in recent[:RECENT_GAMES]
            ],
        }
        players = self.storage.seats.players([entry["id"] for entry in answer["recent"]])
        for entry in answer["recent"]:
            seated = players.get(entry["id"], [])
            entry["players"] = [{"seat": seat, "name": name, "deleted": gone} for seat, name, gone in seated]
        me = self.accounts.signed_in(session)
        if me is not None and me.id == account.id:
            answer["playing"] = self.accounts.me_json(account)["games"]
        return answer

    def leaderboard(self, pool: object, session: str | None = None) -> dict[str, Any]:
        """A pool's best :data:`LEADERBOARD_SIZE`, by the conservative rating; with a session,
        ``me``: the account's place and rating there (None when it has none).

        Raises:
            AppError: ``ratings.unknown_pool`` for a pool that does not exist.
        """
        if not isinstance(pool, str) or pool not in POOLS:
            raise AppError(
                "ratings.unknown_pool", f"no rating pool has this name (known: {', '.join(POOLS)})"
            )
        ratings = self.storage.ratings
        top = ratings.top(pool, LEADERBOARD_SIZE)
        names = self.storage.accounts.by_ids([r.account_id for r in top])
        places = [
            {"place": index + 1, "name": names[r.account_id].name, **rating_json(r)}
            for index, r in enumerate(top)
            if r.account_id in names  # (deleted meanwhile)
        ]
        answer: dict[str, Any] = {"pool": pool, "places": places}
        me = self.accounts.signed_in(session)
        if me is not None:
            mine = next((r for r in ratings.profile(me.id) if r.pool == pool), None)
            answer["me"] = (
                None
                if mine is None
                else {"place": ratings.place(me.id, pool), "name": me.name, **rating_json(mine)}
            )
        return answer
