"""The players' ratings: a player's profile and a pool's leaderboard (``docs/api.md``, "Players
and ratings").  Public; an account's own session (``Authorization: Bearer TOKEN``, optional)
adds its games in progress to its profile and its place to a leaderboard."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import Field

from ..answers.base import Answer
from ..deps import Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..openapi import answer, refusals
from .accounts import AccountGame, SessionToken

__all__ = ["router"]

router = APIRouter(route_class=JsonRoute, tags=["players"])

PlayerName = Annotated[str, PathParam(min_length=1, max_length=64)]
PoolName = Annotated[str, PathParam(min_length=1, max_length=32)]


class RatingFields(Answer):
    """A rating as shown: the number, how far it may be off (about 95% sure), whether it rests
    on too few games yet, and the games it rests on and how many were won."""

    shown: int
    uncertainty: int
    provisional: bool = Field(description="fewer than 20 games in this pool")
    games: int
    wins: int


class HistoryPoint(Answer):
    """The rating after one game: a point of the profile's graph."""

    game: str
    shown: int
    at: str


class Averages(Answer):
    """Points per deal, by source: the player's own seat's."""

    pegging: float
    hand: float
    crib: float


class Skunks(Answer):
    """The skunks (a double skunk counts once) the player's side gave and took."""

    given: int
    taken: int


class PoolRating(RatingFields):
    """The player's rating in one pool, its place there, its last games (oldest first), and
    what the player did in the pool's games: deals, points per deal by source, skunks."""

    pool: str
    place: int | None
    deals: int = Field(description="the deals played in the pool's rated games")
    averages: Averages | None = Field(description="per deal; null before any deal was recorded")
    skunks: Skunks
    history: list[HistoryPoint] = Field(description="the last 200 games of the pool, oldest first")


class GamePlayer(Answer):
    """A seat of a game and who played it: its account's name now, or the seat's own."""

    seat: int
    name: str
    deleted: bool = Field(description="the seat's account was deleted (its name: 'deleted player')")


class RecentGame(Answer):
    """A rated game of the player: its id, pool, the rating after it and its change."""

    id: str
    pool: str
    shown: int
    change: int | None = Field(description="the rating's change in the game (None: the pool's first game)")
    won: bool | None = Field(
        description="the player's side won the game (None: a game rated before this was kept)"
    )
    at: str
    record: str = Field(description="the game's record (read with a seat's token), for its review")
    players: list[GamePlayer] = Field(
        description="every seat's player, in seat order (empty: the game's seats were pruned)"
    )


class ProfileAnswer(Answer):
    """A player's profile."""

    name: str
    created: str
    ratings: list[PoolRating]
    games: int = Field(description="rated games, in all pools")
    wins: int
    recent: list[RecentGame] = Field(description="the last rated games, newest first")
    playing: list[AccountGame] | None = Field(
        default=None, description="the games in progress: only with the player's own session"
    )


class Place(RatingFields):
    """A place of the leaderboard."""

    place: int
    name: str


class LeaderboardAnswer(Answer):
    """A pool's best 100 by the conservative rating (the shown number minus its uncertainty)."""

    pool: str
    places: list[Place]
    me: Place | None = Field(
        default=None, description="with a session: its place and rating (null: no rated game in the pool)"
    )


_DATABASE: Final = {
    503: "the database is not answering (code database_unavailable)",
    429: "too many profile and leaderboard requests from your address (limit players)",
}
PROFILE_RESPONSES: Final = refusals(
    {**_DATABASE, 404: "no player has this name (player.not_found)", 422: "a name over 64 characters"}
)
LEADERBOARD_RESPONSES: Final = refusals(
    {**_DATABASE, 404: "no such pool (ratings.unknown_pool)", 422: "a pool name over 32 characters"}
)


@router.get(
    "/api/players/{name}",
    responses={**answer(ProfileAnswer), **PROFILE_RESPONSES},
    dependencies=[per_address("players")],
)
def profile(name: PlayerName, service: Service, session: SessionToken) -> Json:
    """A player's profile: ratings per pool with their graph, totals, recent rated games; with
    the player's own session, their games in progress."""
    return Json(service.standings.profile(name, session))


@router.get(
    "/api/leaderboard/{pool}",
    responses={**answer(LeaderboardAnswer), **LEADERBOARD_RESPONSES},
    dependencies=[per_address("players")],
)
def leaderboard(pool: PoolName, service: Service, session: SessionToken) -> Json:
    """A pool's best 100; with a session, ``me``: the account's own place and rating."""
    return Json(service.standings.leaderboard(pool, session))
