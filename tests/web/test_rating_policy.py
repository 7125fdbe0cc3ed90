"""Which games are rated (issue 41, items 8 and 9; docs/ratings.md, "Which games are rated"):
the farming recipe (two accounts of one person, a takeover table, a join and a leave at once)
moves no rating; a private table is rated only when its creator asked and its joiner accepted;
an absence before every person acted in the first deal aborts the game unrated; a pair of
accounts counts only so often a day; a game lost by absence is the absent side's loss in its
match as in the rating.  On SQLite and PostgreSQL where the storage decides."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app.games.series import Series, deciding_side
from cribbage.engine.rules import get_rules
from cribbage.storage import Storage, StoredAccount, StoredGame, StoredSeat
from test_rated_games import SHORT, everyone_acts, people_table, profile
from test_web_matches import start_match
from test_web_matches import state as match_state
from test_web_play import running
from web_fixtures import HUMAN, PASSWORD, act_first, auth, get, make_client, play_out, sign_up


def ratings_of(client: TestClient, *names: str) -> list[list[dict[str, Any]]]:
    return [profile(client, name)["ratings"] for name in names]


@pytest.mark.parametrize("asked", [False, True])
def test_the_farming_recipe_moves_no_rating(asked: bool, shared_url: str) -> None:
    """Account A makes a takeover table, A's second account joins with its session and leaves
    at once, A plays on against the computer: no rating moves (unasked, the table is unrated;
    asked and accepted, the leave before the joiner acted aborts it)."""
    with make_client(shared_url) as client:
        main, second = sign_up(client, "Aiko"), sign_up(client, "Aiko2")
        game_id, seats = people_table(client, main, second, takeover="weak", rated=asked, accept=asked)
        left = client.post(f"/api/games/{game_id}/leave", headers=auth(seats[1]))
        assert left.status_code == 200 and left.json()["computer"] == "weak"
        last, _count = play_out(client, game_id, [seats[0], None])
        assert last["over"]
        assert ratings_of(client, "Aiko", "Aiko2") == [[], []]
        assert last["rating"] == ("aborted" if asked else None)


@pytest.mark.parametrize(("asked", "accepted"), [(False, False), (False, True), (True, False), (True, True)])
def test_a_private_table_is_rated_only_when_its_creator_asked_and_its_joiner_accepted(
    asked: bool, accepted: bool
) -> None:
    with make_client() as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris, rated=asked, accept=accepted)
        seen = get(client, game_id, seats[1])
        last, _count = play_out(client, game_id, seats)
        rated = asked and accepted
        assert [len(found) for found in ratings_of(client, "Aiko", "Boris")] == [int(rated)] * 2
        assert last["rating"] == (None if not asked else "counted" if accepted else "declined")
        assert seen["options"]["rated"] is asked  # the joiner knows what the table asked
        assert seen["rating"] == (None if not asked else "pending" if accepted else "declined")


def test_a_table_asking_to_be_rated_shows_it_before_the_join_and_needs_an_account_and_people() -> None:
    with make_client() as client:
        aiko = sign_up(client, "Aiko")
        body = {"seats": [HUMAN, HUMAN], **SHORT, "rated": True, "public": True}
        guest = client.post("/api/games", json=body)
        assert guest.status_code == 422 and guest.json()["field"] == "rated"
        computer = client.post(
            "/api/games", json={**body, "seats": [HUMAN, {"kind": "computer"}]}, headers=auth(aiko)
        )
        assert computer.status_code == 422 and computer.json()["field"] == "rated"
        odd = client.post("/api/games", json={**body, "target": 91}, headers=auth(aiko))
        assert odd.status_code == 422 and odd.json()["field"] == "rated"
        made = client.post("/api/games", json=body, headers=auth(aiko))
        assert made.status_code == 201, made.text
        code = made.json()["invites"][0]["code"]
        assert client.get(f"/api/join/{code}").json()["options"]["rated"] is True
        [listed] = client.get("/api/lobby").json()["tables"]
        assert listed["options"]["rated"] is True
        # a guest may still join: the game is then unrated, and says so
        joined = client.post("/api/join", json={"code": code, "name": "Guest", "rated": True})
        assert joined.status_code == 201 and joined.json()["state"]["rating"] == "declined"


@pytest.mark.parametrize("absence", ["creator_leaves", "clock", "given_to_a_computer", "seat_left_open"])
def test_an_absence_before_every_person_acted_aborts_the_game(absence: str, shared_url: str) -> None:
    options: dict[str, Any] = {"clock": 30} if absence == "clock" else {}
    if absence == "creator_leaves":
        options["takeover"] = "weak"
    with make_client(shared_url) as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris, **options)
        service = client.app.state.service  # type: ignore[attr-defined]
        act_first(client, game_id, seats[0])  # Aiko discards; Boris never acts
        if absence == "creator_leaves":
            assert client.post(f"/api/games/{game_id}/leave", headers=auth(seats[0])).status_code == 200
            tokens = [None, seats[1]]
        elif absence == "clock":
            service.now = lambda: 4e9  # Boris's turn clock ran out: a computer discards for him
            assert service.expire(game_id)
            assert get(client, game_id, seats[0])["away"] == [1]
            tokens = seats
        else:  # Boris leaves a table without takeover; the creator seats a computer or waits
            assert client.post(f"/api/games/{game_id}/leave", headers=auth(seats[1])).status_code == 200
            if absence == "given_to_a_computer":
                body = {"seat": 1, "level": "weak"}
                given = client.post(f"/api/games/{game_id}/computer", json=body, headers=auth(seats[0]))
                assert given.status_code == 200, given.text
                assert given.json()["rating"] == "aborted"
                tokens = [seats[0], None]
            else:
                tokens = []
        if tokens:
            last, _count = play_out(client, game_id, tokens)
            assert last["over"] and last["rating"] == "aborted"
        else:
            assert get(client, game_id, seats[0])["rating"] == "aborted"
        assert service.storage.rated_tables.settled(game_id) == "aborted"
        assert ratings_of(client, "Aiko", "Boris") == [[], []]


def test_a_leave_after_every_person_acted_is_the_leaver_s_loss() -> None:
    with make_client() as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris, takeover="weak")
        everyone_acts(client, game_id, seats)
        assert client.post(f"/api/games/{game_id}/leave", headers=auth(seats[1])).status_code == 200
        last, _count = play_out(client, game_id, [seats[0], None])
        assert last["rating"] == "counted"
        [[a], [b]] = ratings_of(client, "Aiko", "Boris")
        assert (a["wins"], b["wins"]) == (1, 0)


def test_a_pair_of_accounts_counts_only_so_often_a_day(shared_url: str) -> None:
    with make_client(shared_url, rated_pair_limit=2) as client:
        aiko, boris, cyd = sign_up(client, "Aiko"), sign_up(client, "Boris"), sign_up(client, "Cyd")
        seen = []
        for _ in range(3):
            game_id, seats = people_table(client, aiko, boris)
            seen.append(everyone_acts_or_not(client, game_id, seats))
            play_out(client, game_id, seats)
        assert seen == ["counted", "counted", "pair_limit"]  # said before the game is played on
        assert [r[0]["games"] for r in ratings_of(client, "Aiko", "Boris")] == [2, 2]
        # another pair is counted; the limit is each pair's
        game_id, seats = people_table(client, aiko, cyd)
        assert everyone_acts_or_not(client, game_id, seats) == "counted"
        last, _count = play_out(client, game_id, seats)
        assert last["rating"] == "counted"
        assert [r[0]["games"] for r in ratings_of(client, "Aiko", "Cyd")] == [3, 1]


def everyone_acts_or_not(client: TestClient, game_id: str, seats: list[str]) -> str:
    """Each seat's first action: the game's rating then (counted, or over the pair's limit)."""
    state: dict[str, Any] = {}
    for token in seats:
        state = act_first(client, game_id, token)
    rating: str = state["rating"]
    return rating


def key(seat: int, game: str) -> str:
    """A seat's token hash in the storage test below."""
    return f"{seat}{game}".ljust(64, "0")


def test_a_pair_s_games_settled_at_once_are_counted_within_the_limit(postgres_url: str) -> None:
    """Eight games of one pair reach their counting together (eight threads): with a limit of
    three, exactly three are counted; the accounts' rows are locked while each counts."""
    storage = Storage(postgres_url)
    try:
        first, second = "a1", "b2"
        for account, name in ((first, "Aiko"), (second, "Boris")):
            storage.accounts.add(StoredAccount(account, name, name.lower(), None, datetime.now(UTC)))
        games = [f"g{n}" for n in range(8)]
        for game in games:
            storage.games.insert(
                StoredGame(game, "0" * 64, {}, {"actions": []}, 0, False),
                [
                    StoredSeat(s, "human", None, f"P{s}", f"{s}{game}".ljust(64, "0"), None, True)
                    for s in (0, 1)
                ],
            )
            storage.accounts.link_seats(first, {key(0, game)})
            storage.accounts.link_seats(second, {key(1, game)})

        def count(game: str) -> str:
            return storage.rated_tables.count(game, [first, second], limit=3)

        with ThreadPoolExecutor(8) as pool:
            settled = list(pool.map(count, games))
        assert sorted(settled) == ["counted"] * 3 + ["pair_limit"] * 5
        since = datetime(2000, 1, 1, tzinfo=UTC)
        assert storage.rated_tables.pair_games(first, second, since) == 3
    finally:
        storage.close()


# --------------------------------------------------------------------------- item 9: matches


def test_a_game_lost_by_absence_is_the_absent_side_s_loss_in_the_series() -> None:
    short = get_rules("short")
    away_won = type("Result", (), {"winner": 1, "scores": (29, 64)})()
    series = Series.first(2, 2)
    assert series.wins_after(short, away_won) == (0, 1)  # nobody absent: the points decide
    assert series.wins_after(short, away_won, {1}) == (1, 0)  # seat 1 away at the end: its loss
    assert series.view(short, away_won, {1})["wins"] == [1, 0]
    assert deciding_side(short, away_won, {0, 1}) is None  # both gone: nobody wins the game
    partners = get_rules("four-player")
    pair_won = type("Result", (), {"winner": 1, "scores": (80, 121)})()
    assert Series.first(2, 4).wins_after(partners, pair_won, {3}) == (1, 0, 1, 0)


def test_an_away_seat_s_game_is_its_loss_in_the_match_and_in_the_rating() -> None:
    """A Play now match: both discard, then seat 1's person is gone for good (its clock runs out
    at each of its turns, a computer plays it).  Every game is seat 0's win in the series,
    whatever the points (the rating records seat 1's loss), until seat 0 wins the match."""
    with running() as client:
        game, tokens, names = start_match(client, ("Aiko", "Boris"))
        service = client.app.state.service  # type: ignore[attr-defined]
        for token in tokens:
            act_first(client, game, token)
        points_winners = []
        for number in (1, 2):
            last = away_game(client, service, game, tokens[0])
            points_winners.append(last["result"]["winner"])
            assert last["away"] == [1]
            assert last["match"]["wins"] == [number, 0], (number, last["result"])
            if number == 1:
                assert last["rating"] == "counted"
                [[a], [b]] = ratings_of(client, *names)
                assert (a["wins"], b["wins"]) == (1, 0)
                game = match_state(client, game, tokens[0])["rematch"]
                assert game is not None  # the match goes on
        assert last["match"]["over"] and last["match"]["winner"] == 0
        assert match_state(client, game, tokens[0])["rematch"] is None


def away_game(client: TestClient, service: Any, game: str, token: str) -> dict[str, Any]:
    """Seat 0 plays its first legal action at each of its turns, seat 1's clock runs out at
    each of its own: the last state of the game."""
    for _ in range(3000):
        mine = get(client, game, token)
        if mine["over"]:
            return mine
        if mine["actions"]:
            act_first(client, game, token)
        else:  # seat 1's turn clock runs out
            later: float = mine["turn_clock"]["deadline"] + 1
            service.now = lambda later=later: later
            assert service.expire(game), mine["turn_clock"]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("asked", [False, True])
def test_deleting_an_account_at_a_game_not_rated_moves_no_rating(asked: bool) -> None:
    """A deletion is a rated game's loss (docs/ratings.md, "Deleting an account"), never a way
    around these rules: at a table that did not ask to be rated, or before every seat acted
    (the game is then aborted), the other account is credited nothing."""
    with make_client() as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, seats = people_table(client, aiko, boris, rated=asked, accept=asked)
        gone = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(boris))
        assert gone.status_code == 200, gone.text
        assert profile(client, "Aiko")["ratings"] == []
        assert get(client, game_id, seats[0])["rating"] == ("aborted" if asked else None)
