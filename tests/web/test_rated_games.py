"""Rated games over HTTP (issue 31, parts 2 and 4; docs/ratings.md, "How games are recorded";
docs/api.md, "Players and ratings"): a game between two signed-in accounts, played to its end,
moves both ratings once (two applications on one database included); a guest's or a
computer's seat leaves a game unrated; leaving is a loss; the profile, the leaderboard and
``me``; a deleted account leaves the leaderboard.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app.games.rated import outcome_of
from cribbage.engine.rules import get_rules
from cribbage.storage.ratings import RatingRows
from web_fixtures import HUMAN, PASSWORD, act_first, auth, make_client, play_out, sign_up

SHORT: dict[str, Any] = {"target": 61}


def people_table(
    client: TestClient, creator: str | None, joiner: str | None, *, accept: bool = True, **options: Any
) -> tuple[str, list[Any]]:
    """A table of two people asking to be rated (unless ``rated=False``), made with
    ``creator``'s session and joined with ``joiner``'s (None: a guest), who accepts the rated
    game with ``accept``: its id and the seats' tokens."""
    rated = options.pop("rated", creator is not None)
    made = client.post(
        "/api/games",
        json={"seats": [HUMAN, HUMAN], **SHORT, **({"rated": True} if rated else {}), **options},
        headers=auth(creator) if creator else {},
    )
    assert made.status_code == 201, made.text
    data = made.json()
    joined = client.post(
        "/api/join",
        json={"code": data["invites"][0]["code"], "name": "Joiner", **({"rated": True} if accept else {})},
        headers=auth(joiner) if joiner else {},
    )
    assert joined.status_code == 201, joined.text
    return data["id"], [data["token"], joined.json()["token"]]


def profile(client: TestClient, name: str, session: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}", headers=auth(session) if session else {})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def board(client: TestClient, pool: str = "short", session: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/leaderboard/{pool}", headers=auth(session) if session else {})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def everyone_acts(client: TestClient, game_id: str, seats: list[str]) -> dict[str, Any]:
    """Each seat discards in the first deal (its first action): the game is counted, rated when
    it ends; the last state."""
    state: dict[str, Any] = {}
    for token in seats:
        state = act_first(client, game_id, token)
    assert state["rating"] == "counted", state["rating"]
    return state


def winner_and_loser(state: dict[str, Any]) -> tuple[int, int]:
    winner: int = state["result"]["winner"]
    return winner, 1 - winner


def test_a_game_between_accounts_is_rated_once_and_shown() -> None:
    with make_client() as client:
        tokens = {"Aiko": sign_up(client, "Aiko"), "Boris": sign_up(client, "Boris")}
        game_id, seats = people_table(client, tokens["Aiko"], tokens["Boris"])
        assert profile(client, "Aiko", tokens["Aiko"])["playing"][0]["id"] == game_id
        assert "playing" not in profile(client, "Aiko", tokens["Boris"])  # only one's own
        state, _count = play_out(client, game_id, seats)
        names = ["Aiko", "Boris"]
        won, lost = (names[side] for side in winner_and_loser(state))
        winner, loser = profile(client, won), profile(client, lost)
        [w], [lo] = winner["ratings"], loser["ratings"]
        assert (w["pool"], w["games"], w["wins"], lo["games"], lo["wins"]) == ("short", 1, 1, 1, 0)
        assert w["shown"] > 1500 > lo["shown"] and w["provisional"] and w["uncertainty"] > 0
        assert (winner["games"], winner["wins"], loser["games"], loser["wins"]) == (1, 1, 1, 0)
        assert [point["game"] for point in w["history"]] == [game_id]
        assert winner["recent"][0]["id"] == game_id and winner["recent"][0]["change"] is None
        assert winner["recent"][0]["record"] == f"/api/games/{game_id}/record"
        assert "playing" not in winner and winner["name"] == won and winner["created"]
        top = board(client)
        assert [(p["place"], p["name"], p["games"]) for p in top["places"]] == [(1, won, 1), (2, lost, 1)]
        assert "me" not in top
        mine = board(client, session=tokens[lost])["me"]
        assert (mine["place"], mine["name"], mine["shown"]) == (2, lost, lo["shown"])
        assert board(client, "standard", tokens[lost])["me"] is None
        # Any later change of the finished game (play again) records nothing more.
        assert client.post(f"/api/games/{game_id}/rematch", headers=auth(seats[0])).status_code == 200
        assert profile(client, won)["ratings"][0]["games"] == 1


def test_a_profile_keeps_each_player_s_points_per_deal_and_skunks() -> None:
    with make_client() as client:
        tokens = {"Aiko": sign_up(client, "Aiko"), "Boris": sign_up(client, "Boris")}
        game_id, seats = people_table(client, tokens["Aiko"], tokens["Boris"])
        state, _count = play_out(client, game_id, seats)
        deals = len(state["score_history"]) - 1  # one line at each deal, and the final scores
        skunk = state["result"]["skunk"]
        for seat, name in enumerate(["Aiko", "Boris"]):
            [pool] = profile(client, name)["ratings"]
            assert pool["deals"] == deals > 0
            mine = state["breakdown"][seat]
            for source in ("pegging", "hand", "crib"):
                assert abs(pool["averages"][source] * deals - mine[source]) <= deals * 0.005 + 1e-9, source
            won = state["result"]["winner"] == seat
            given, taken = (1, 0) if won else (0, 1)
            assert pool["skunks"] == ({"given": given, "taken": taken} if skunk else {"given": 0, "taken": 0})
        # Who played: the accounts' names (not the name given at the join), until one is deleted.
        seated = [{"seat": n, "name": name, "deleted": False} for n, name in enumerate(["Aiko", "Boris"])]
        assert profile(client, "Aiko")["recent"][0]["players"] == seated
        gone = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(tokens["Boris"]))
        assert gone.status_code == 200
        seated[1] = {"seat": 1, "name": "deleted player", "deleted": True}
        assert profile(client, "Aiko")["recent"][0]["players"] == seated


def test_unknown_names_and_pools_are_not_found() -> None:
    with make_client() as client:
        missing = client.get("/api/players/Nobody")
        assert missing.status_code == 404 and missing.json()["code"] == "player.not_found"
        unknown = client.get("/api/leaderboard/nine-card")
        assert unknown.status_code == 404 and unknown.json()["code"] == "ratings.unknown_pool"
        sign_up(client, "Aiko")
        assert profile(client, "aiko") == {
            "name": "Aiko",
            "created": profile(client, "AIKO")["created"],
            "ratings": [],
            "games": 0,
            "wins": 0,
            "recent": [],
        }


@pytest.mark.parametrize("layout", ["guest", "computer"])
def test_a_game_with_a_guest_or_a_computer_is_not_rated(layout: str) -> None:
    with make_client() as client:
        aiko = sign_up(client, "Aiko")
        if layout == "guest":
            game_id, seats = people_table(client, aiko, None)
        else:
            made = client.post("/api/games", json={"level": "weak", **SHORT}, headers=auth(aiko)).json()
            game_id, seats = made["id"], [made["token"], None]
        play_out(client, game_id, seats)
        assert profile(client, "Aiko")["ratings"] == []
        assert board(client)["places"] == []


def test_leaving_is_a_loss_and_a_deleted_account_leaves_the_leaderboard() -> None:
    with make_client() as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris, takeover="weak")
        everyone_acts(client, game_id, seats)  # a leave before that would abort the game
        left = client.post(f"/api/games/{game_id}/leave", headers=auth(seats[1]))
        assert left.status_code == 200 and left.json()["computer"] == "weak"
        state, _count = play_out(client, game_id, [seats[0], None])
        [a], [b] = profile(client, "Aiko")["ratings"], profile(client, "Boris")["ratings"]
        assert (a["wins"], b["wins"], a["games"], b["games"]) == (1, 0, 1, 1)  # whatever the score
        assert a["shown"] > b["shown"]
        assert state["over"]
        deleted = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(boris))
        assert deleted.status_code == 200
        assert [p["name"] for p in board(client)["places"]] == ["Aiko"]
        assert client.get("/api/players/Boris").json()["code"] == "player.not_found"
        assert profile(client, "Aiko")["ratings"][0]["games"] == 1


@pytest.mark.parametrize("finisher", ["account", "computer"])
def test_a_seat_left_open_is_its_leavers_loss_whoever_finishes_it(finisher: str, shared_url: str) -> None:
    """docs/ratings.md, "Leaving": at a table without takeover the seat opens again, and the
    game is still the leaver's loss when it ends, whoever takes the seat (a third account, who
    plays unrated, or a computer the creator seats).  On SQLite and PostgreSQL."""
    with make_client(shared_url) as client:
        aiko, boris, cyd = (sign_up(client, name) for name in ("Aiko", "Boris", "Cyd"))
        game_id, seats = people_table(client, aiko, boris)
        everyone_acts(client, game_id, seats)
        left = client.post(f"/api/games/{game_id}/leave", headers=auth(seats[1]))
        assert left.status_code == 200 and left.json()["computer"] is None
        if finisher == "account":
            code = client.get(f"/api/games/{game_id}", headers=auth(seats[0])).json()["invites"][0]["code"]
            taken = client.post("/api/join", json={"code": code, "name": "Cyd"}, headers=auth(cyd))
            assert taken.status_code == 201, taken.text
            tokens = [seats[0], taken.json()["token"]]
        else:
            body = {"seat": 1, "level": "weak"}
            seated = client.post(f"/api/games/{game_id}/computer", json=body, headers=auth(seats[0]))
            assert seated.status_code == 200, seated.text
            tokens = [seats[0], None]
        state, _count = play_out(client, game_id, tokens)
        assert state["over"]
        [a], [b] = profile(client, "Aiko")["ratings"], profile(client, "Boris")["ratings"]
        assert (a["games"], a["wins"], b["games"], b["wins"]) == (1, 1, 1, 0)  # whatever the score
        assert a["shown"] > 1500 > b["shown"]
        assert profile(client, "Cyd")["ratings"] == []  # the finisher plays unrated


def test_two_applications_on_one_database_record_a_game_once(shared_url: str) -> None:
    with make_client(shared_url) as first, make_client(shared_url) as second:
        aiko, boris = sign_up(first, "Aiko"), sign_up(first, "Boris")
        game_id, seats = people_table(first, aiko, boris)
        play_out(first, game_id, seats)
        # The other process stores a change of the finished game too (its own copy): it tries
        # to record the game, which is recorded already.
        again = second.post(f"/api/games/{game_id}/rematch", headers=auth(seats[1]))
        assert again.status_code == 200, again.text
        second.app.state.service.rated.after_save(game_id)  # type: ignore[attr-defined]
        assert [p["games"] for p in board(second)["places"]] == [1, 1]
        assert len(profile(second, "Aiko")["ratings"][0]["history"]) == 1


def finished(away: frozenset[int] = frozenset()) -> Any:
    """A finished two-player short game as :func:`outcome_of` reads it: seat 0 won 61 to 40."""
    result = SimpleNamespace(scores=(61, 40), winner=0)
    return SimpleNamespace(
        over=True,
        away=away,
        game=SimpleNamespace(state=SimpleNamespace(result=result)),
        table=SimpleNamespace(rules=get_rules("short")),
    )


def test_the_outcome_of_a_finished_game_by_its_seats() -> None:
    people = [(0, "human", "a"), (1, "human", "b")]
    outcome = outcome_of(finished(), people)
    assert outcome is not None and outcome.ranks() == (0, 1) and outcome.pool == "short"
    # Away at the end (the clock ran out, the person never came back): a loss, even as winner.
    timed_out = outcome_of(finished(frozenset({0})), people)
    assert timed_out is not None and timed_out.ranks() == (1, 0)
    # A computer that took the seat over plays for the account that left: its loss.
    took_over = outcome_of(finished(), [(0, "computer", "a"), (1, "human", "b")])
    assert took_over is not None and took_over.ranks() == (1, 0)
    assert outcome_of(finished(), [(0, "human", "a"), (1, "human", None)]) is None  # a guest
    assert outcome_of(finished(), [(0, "human", "a"), (1, "computer", None)]) is None


def test_a_failure_to_record_is_logged_and_the_action_stands(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> bool:
        raise RuntimeError("the ratings table is gone")

    monkeypatch.setattr(RatingRows, "record", broken)
    with make_client() as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris)
        with caplog.at_level(logging.ERROR, logger="cribbage.app.games.rated"):
            state, _count = play_out(client, game_id, seats)
        assert state["over"] and "were not recorded" in caplog.text
        assert profile(client, "Aiko")["ratings"] == []
