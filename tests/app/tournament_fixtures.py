"""The helpers of the tournaments' tests against the core (test_tournaments,
test_tournament_teams): accounts, their entries, and games played to their end."""

from __future__ import annotations

from typing import Any

from app_fixtures import first_action
from cribbage.app import Actor, GameService
from cribbage.storage import StoredAccount

PASSWORD = "a long enough password"


def account(service: GameService, name: str) -> tuple[StoredAccount, str]:
    """A new account and its session token."""
    token = service.accounts.sign_up(name, PASSWORD)["token"]
    return service.accounts.account_of(token), token


def people(service: GameService, names: str) -> dict[str, tuple[StoredAccount, str]]:
    return {name: account(service, name) for name in names.split()}


def seat_tokens(service: GameService, game_id: str, sessions: list[str]) -> list[str]:
    """Each seat's key, opened by its account (as a player's page does)."""
    keys = [service.accounts.open_game(token, game_id) for token in sessions]
    return [key["token"] for key in sorted(keys, key=lambda key: key["seat"])]


def play_to_end(service: GameService, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Both seats take their first legal action until the game is over: its last state."""
    for _ in range(3000):
        state = service.state(game_id, Actor(tokens[0]))
        if state["over"]:
            return state
        token = tokens[state["view"]["to_act"]]
        service.act(game_id, Actor(token), first_action(service.state(game_id, Actor(token))))
    raise AssertionError("the game did not end")


def sessions_at(tournament: dict[str, Any], table: dict[str, Any], logins: dict[int, str]) -> list[str]:
    return [logins[table["first"]], logins[table["second"]]]


def undecided(tournament: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in tournament["tables"] if t["outcome"] is None and t["second"] is not None]


def create(service: GameService, director: StoredAccount, **settings: Any) -> dict[str, Any]:
    return service.tournaments.create(director, {"name": "Tuesday night", "variant": "short", **settings})


def enter_all(
    service: GameService, tournament_id: str, players: dict[str, tuple[StoredAccount, str]]
) -> dict[int, str]:
    """Register and check in every player: each entrant's session token by its number."""
    logins = {}
    for found, token in players.values():
        shown = service.tournaments.register(tournament_id, found)
        service.tournaments.check_in(tournament_id, found)
        logins[shown["you"]["entrant"]] = token
    return logins


def play_round(service: GameService, tournament: dict[str, Any], logins: dict[int, str]) -> dict[str, Any]:
    """Play every undecided online table of the tournament to its end: the tournament after."""
    for table in undecided(tournament):
        assert table["game_id"] is not None, "an online table's game is made with it"
        tokens = seat_tokens(service, table["game_id"], sessions_at(tournament, table, logins))
        play_to_end(service, table["game_id"], tokens)
    return service.tournaments.get(tournament["id"])
