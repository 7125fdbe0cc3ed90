"""The ratings in the database (storage.ratings), on SQLite and PostgreSQL: a game is
recorded once and wholly, the leaderboard and an account's place, the profile and its history."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy
from sqlalchemy.engine import Engine

from cribbage.app.people.ratings import Outcome, Rating, rerater
from cribbage.engine.rules import get_rules
from cribbage.storage import RatingRecordError, Storage, StoredRating, accounts, rating_record
from cribbage.storage.ratings import RatingRows

STANDARD, THREE = get_rules("standard"), get_rules("three-player")
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def ratings(shared_url: str) -> Iterator[RatingRows]:
    """The ratings of a new database of either kind at the newest schema."""
    storage = Storage(shared_url)
    sign_up(storage.engine)
    yield storage.ratings
    storage.close()


def sign_up(engine: Engine) -> None:
    """Accounts "1" to "20" (a rating is an account's: its key must name one)."""
    with engine.begin() as conn:
        for number in range(1, 21):
            row = {"id": str(number), "name": f"p{number}", "name_key": f"p{number}", "password_hash": "-"}
            conn.execute(accounts.insert().values(**row, created=START))


def win(ratings: RatingRows, game_id: str, *players: int, rules: Any = STANDARD, minute: int = 0) -> bool:
    """Record a game the accounts ``players`` (by number) finished in this order (the first won)."""
    scores = [rules.target - 10 * place for place in range(rules.sides)]
    outcome = Outcome.of_game(rules, [str(player) for player in players], scores, winner=0)
    at = START + timedelta(minutes=minute)
    return ratings.record(game_id, outcome.pool, outcome.accounts, rerater(outcome), at=at)


def rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as conn:
        return {
            name: sorted(tuple(row) for row in conn.execute(sqlalchemy.text(f"SELECT * FROM {name}")))
            for name in ("ratings", "rating_history")
        }


def test_a_game_is_recorded_once_a_second_time_changes_nothing(ratings: RatingRows) -> None:
    assert win(ratings, "g1", 1, 2)
    before = rows(ratings.engine)
    assert len(before["ratings"]) == 2 and len(before["rating_history"]) == 2
    assert not win(ratings, "g1", 1, 2, minute=5)
    assert not win(ratings, "g1", 2, 1, minute=5)  # whatever it says the second time
    assert rows(ratings.engine) == before


def test_the_stored_rating_is_the_models(ratings: RatingRows) -> None:
    win(ratings, "g1", 1, 2)
    win(ratings, "g2", 1, 2, minute=1)
    outcome = Outcome.of_game(STANDARD, ["1", "2"], [121, 111], winner=0)
    expected = rerater(outcome)(rerater(outcome)({}))
    mine = {r.account_id: r for r in ratings.profile("1") + ratings.profile("2")}
    for account in ("1", "2"):
        rating = mine[account]
        assert (rating.mu, rating.sigma, rating.games, rating.wins) == pytest.approx(
            (expected[account].mu, expected[account].sigma, expected[account].games, expected[account].wins)
        )
        assert rating.ordinal == pytest.approx(expected[account].ordinal)
        assert rating.updated == START + timedelta(minutes=1)


def test_the_leaderboard_orders_by_the_conservative_number_and_place_agrees(ratings: RatingRows) -> None:
    for number in range(12):  # 1 beats 2 beats 3 beats 4; 10 beats 11 once
        win(ratings, f"a{number}", 1, 2, minute=number)
        win(ratings, f"b{number}", 2, 3, minute=number)
        win(ratings, f"c{number}", 3, 4, minute=number)
    win(ratings, "lucky", 10, 11)
    board = ratings.top("standard")
    ordinals = [r.ordinal for r in board]
    assert ordinals == sorted(ordinals, reverse=True)
    order = [int(r.account_id) for r in board]
    assert order == [1, 2, 10, 3, 11, 4]
    # 11 lost once and shows more than 3, who lost half of 24, but is less sure: it ranks lower.
    assert board[4].mu > board[3].mu and board[4].ordinal < board[3].ordinal
    assert [int(r.account_id) for r in ratings.top("standard", limit=2)] == [1, 2]
    for number, rating in enumerate(board, start=1):
        assert ratings.place(rating.account_id, "standard") == number
    assert ratings.place("12", "standard") is None  # never played
    assert ratings.place("1", "three") is None  # not in that pool
    assert ratings.top("three") == []


def test_ties_on_the_board_go_to_the_later_account_as_place_counts(ratings: RatingRows) -> None:
    win(ratings, "g1", 5, 6)
    win(ratings, "g2", 7, 8)  # 5 and 7 alike, 6 and 8 alike
    assert [int(r.account_id) for r in ratings.top("standard")] == [7, 5, 8, 6]
    assert [ratings.place(a, "standard") for a in ("7", "5", "8", "6")] == [1, 2, 3, 4]


def test_the_profile_holds_every_pool_and_the_history_each_game_in_order(ratings: RatingRows) -> None:
    win(ratings, "s1", 1, 2, minute=0)
    win(ratings, "t1", 3, 1, 2, rules=THREE, minute=1)
    win(ratings, "s2", 2, 1, minute=2)
    win(ratings, "s3", 1, 2, minute=3)
    profile = ratings.profile("1")
    assert [(r.pool, r.games, r.wins) for r in profile] == [("standard", 3, 2), ("three", 1, 0)]
    assert sum(r.games for r in profile) == 4 and sum(r.wins for r in profile) == 2
    points = ratings.history("1", "standard")
    assert [p.game_id for p in points] == ["s1", "s2", "s3"]
    assert [p.at for p in points] == [START + timedelta(minutes=m) for m in (0, 2, 3)]
    assert points[0].shown > 1500 > points[1].shown  # won, then lost
    assert points[-1].mu == pytest.approx(profile[0].mu) and points[-1].sigma == pytest.approx(
        profile[0].sigma
    )
    assert [p.game_id for p in ratings.history("1", "standard", limit=2)] == ["s2", "s3"]
    assert [p.game_id for p in ratings.history("1", "three")] == ["t1"]
    assert ratings.profile("99") == [] and ratings.history("99", "standard") == []


def test_an_error_in_the_middle_of_a_record_writes_nothing(
    ratings: RatingRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    win(ratings, "g1", 1, 2)
    before = rows(ratings.engine)

    def broken(*args: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(rating_record, "_write_history", broken)
    with pytest.raises(RuntimeError, match="the disk is full"):  # after 1 and 2 were updated, 3 added
        win(ratings, "g2", 1, 2, 3, rules=THREE)
    assert rows(ratings.engine) == before
    monkeypatch.undo()
    assert win(ratings, "g2", 1, 2, 3, rules=THREE)  # and it is recorded whole once it can be


def test_a_failing_or_wrong_rerate_writes_nothing(ratings: RatingRows) -> None:
    win(ratings, "g1", 1, 2)
    before = rows(ratings.engine)

    def failing(_kept: Mapping[int, StoredRating]) -> dict[int, Rating]:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        ratings.record("g2", "standard", ["1", "2"], failing)
    with pytest.raises(RatingRecordError, match=r"are for accounts \['1'\], not \['1', '2'\]"):
        ratings.record("g2", "standard", ["1", "2"], lambda kept: {"1": Rating()})
    with pytest.raises(RatingRecordError, match="twice"):
        ratings.record("g2", "standard", ["1", "1"], lambda kept: {"1": Rating()})
    assert rows(ratings.engine) == before


def test_rerate_is_given_the_stored_ratings_of_the_games_accounts_in_its_pool(ratings: RatingRows) -> None:
    win(ratings, "g1", 1, 2)
    win(ratings, "t1", 1, 2, 3, rules=THREE)
    seen: list[dict[int, tuple[str, int]]] = []

    def spy(kept: Mapping[int, StoredRating]) -> dict[int, Rating]:
        seen.append({a: (r.pool, r.games) for a, r in kept.items()})
        return {a: Rating(games=kept[a].games + 1 if a in kept else 1) for a in ("1", "3")}

    assert ratings.record("g2", "standard", ["3", "1"], spy)
    assert seen == [{"1": ("standard", 1)}]


def test_two_processes_recording_one_game_at_once_record_it_once(shared_url: str) -> None:
    storages = [Storage(shared_url), Storage(shared_url)]
    sign_up(storages[0].engine)
    try:
        win(storages[0].ratings, "g0", 1, 2, 4, rules=THREE)  # 1 and 2 have rows to lock; 3 is new
        barrier = threading.Barrier(2)
        answers: list[bool] = []
        outcome = Outcome.of_game(THREE, ["1", "2", "3"], [121, 100, 90], winner=0)

        def record(ratings: RatingRows) -> None:
            barrier.wait()
            answers.append(ratings.record("g1", "three", outcome.accounts, rerater(outcome)))

        threads = [threading.Thread(target=record, args=(s.ratings,)) for s in storages]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(answers) == [False, True]
        board = storages[0].ratings.top("three")
        assert sorted((int(r.account_id), r.games) for r in board) == [(1, 2), (2, 2), (3, 1), (4, 1)]
        assert [len(storages[0].ratings.history(a, "three")) for a in ("1", "2", "3")] == [2, 2, 1]
    finally:
        for storage in storages:
            storage.close()


def test_two_games_of_one_account_recorded_at_once_both_count(shared_url: str) -> None:
    storages = [Storage(shared_url), Storage(shared_url)]
    sign_up(storages[0].engine)
    try:
        win(storages[0].ratings, "g0", 1, 2)
        barrier = threading.Barrier(2)

        def record(number: int) -> None:
            barrier.wait()
            for game in range(5):
                win(storages[number].ratings, f"g{number}-{game}", 1, 10 + number)

        threads = [threading.Thread(target=record, args=(number,)) for number in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        mine = {r.pool: r for r in storages[0].ratings.profile("1")}
        assert (mine["standard"].games, mine["standard"].wins) == (11, 11)  # no update lost
        assert len(storages[0].ratings.history("1", "standard")) == 11
    finally:
        for storage in storages:
            storage.close()
