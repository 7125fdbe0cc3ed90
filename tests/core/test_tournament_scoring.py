"""The qualifying round's score (cribbage.tournament.scoring): ACC game points, spread, the
ranking and its tie-breaks, byes (docs/tournaments.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.engine.rules import get_rules
from cribbage.tournament import (
    ByeCredit,
    EntrantError,
    GameScore,
    GameScoreError,
    QualifyingScoring,
    QualifyingStanding,
    TournamentError,
    standings,
)


def table(lines: Iterable[QualifyingStanding]) -> list[tuple[object, ...]]:
    """Each line's entrant, game points, games won and spread."""
    return [(s.entrant, s.game_points, s.won, s.spread) for s in lines]


def test_a_win_is_two_game_points_a_skunk_three_and_the_line_is_below_91() -> None:
    scoring = QualifyingScoring()
    assert scoring.game_points(GameScore("a", "b", 121, 91)) == 2
    assert scoring.game_points(GameScore("a", "b", 121, 90)) == 3
    assert scoring.game_points(GameScore("a", "b", 121, 0)) == 3  # no more for a double skunk


def test_the_skunk_line_of_a_game_to_61_is_31_from_the_variant() -> None:
    short = QualifyingScoring.for_rules(get_rules("short"))
    assert (short.skunk_line, QualifyingScoring.for_rules(get_rules("standard")).skunk_line) == (31, 91)
    assert short.game_points(GameScore("a", "b", 61, 31)) == 2
    assert short.game_points(GameScore("a", "b", 61, 30)) == 3


def test_the_spread_is_the_margin_plus_for_the_winner_minus_for_the_loser() -> None:
    lines = standings(["a", "b"], [GameScore("a", "b", 121, 100), GameScore("b", "a", 121, 111)])
    assert table(lines) == [("a", 2, 1, 11), ("b", 2, 1, -11)]


def test_games_won_come_before_spread_and_after_game_points() -> None:
    # a: two skunks (6 game points, 2 wins, +80); b: three plain wins (6, 3, +3).
    games = [
        GameScore("a", "x", 121, 81),
        GameScore("a", "y", 121, 81),
        *(GameScore("b", loser, 121, 120) for loser in ("x", "y", "z")),
    ]
    assert [s.entrant for s in standings(["a", "b", "x", "y", "z"], games)][:2] == ["b", "a"]


def test_spread_breaks_a_tie_of_game_points_and_wins() -> None:
    games = [GameScore("a", "x", 121, 110), GameScore("b", "y", 121, 100)]
    assert [s.entrant for s in standings(["a", "b", "x", "y"], games)] == ["b", "a", "x", "y"]


def test_then_the_game_points_between_the_tied_then_entry_order() -> None:
    # a and b both have 4 game points, 2 wins and +20; b beat a, so b is first though entered second.
    games = [
        GameScore("a", "c", 121, 106),
        GameScore("a", "d", 121, 106),
        GameScore("b", "a", 121, 111),
        GameScore("b", "e", 121, 110),
        GameScore("f", "b", 121, 120),
    ]
    lines = standings(["a", "b", "c", "d", "e", "f"], games)
    assert table(lines)[:2] == [("b", 4, 2, 20), ("a", 4, 2, 20)]
    split = [GameScore("b", "a", 121, 111), GameScore("a", "b", 121, 111)]
    assert [s.entrant for s in standings(["a", "b"], split)] == ["a", "b"]  # they split: entry order
    assert [s.entrant for s in standings(["b", "a"], split)] == ["b", "a"]
    apart = [GameScore("a", "x", 121, 100), GameScore("b", "y", 121, 100)]
    assert [s.entrant for s in standings(["y", "b", "x", "a"], apart)] == ["b", "a", "y", "x"]


def test_a_club_nights_three_way_tie_is_ranked_by_spread() -> None:
    # The Graeagle Peggers' night of nine games (docs/tournaments.md): Jan, Steve and Dave had
    # 13 game points and six wins each, and their spreads of +97, +46 and +37 placed them so.
    games: list[GameScore] = []
    for entrant, spread in (("dave", 37), ("steve", 46), ("jan", 97)):
        opponents = [f"{entrant}-{k}" for k in range(9)]
        games.append(GameScore(entrant, opponents[0], 121, 121 - (spread - 2)))  # the skunk
        games += [GameScore(entrant, other, 121, 120) for other in opponents[1:6]]
        games += [GameScore(other, entrant, 121, 120) for other in opponents[6:]]
    field = ["dave", "steve", "jan", *(g.loser for g in games if g.winner in ("dave", "steve", "jan"))]
    field += [g.winner for g in games if g.loser in ("dave", "steve", "jan")]
    top = standings(field, games)[:3]
    assert table(top) == [("jan", 13, 6, 97), ("steve", 13, 6, 46), ("dave", 13, 6, 37)]


def test_a_bye_is_by_default_a_win_of_two_game_points_and_no_spread() -> None:
    lines = standings(["a", "b", "c"], [GameScore("a", "b", 121, 100)], byes=["c"])
    c = next(s for s in lines if s.entrant == "c")
    assert (c.game_points, c.won, c.spread, c.byes, c.played) == (2, 1, 0, 1, 0)
    assert [s.entrant for s in lines] == ["a", "c", "b"]


def test_what_a_bye_is_worth_is_a_parameter() -> None:
    scoring = QualifyingScoring(bye=ByeCredit(game_points=0, spread=-5, won=False))
    (c,) = [s for s in standings(["a", "c"], [], byes=["c"], scoring=scoring) if s.entrant == "c"]
    assert (c.game_points, c.won, c.spread) == (0, 0, -5)


def test_partnerships_are_entrants_like_players_and_ids_may_be_ints() -> None:
    lines = standings([1, "ann & bob"], [GameScore("ann & bob", 1, 121, 60)])
    assert [(s.rank, s.entrant, s.skunks) for s in lines] == [(1, "ann & bob", 1), (2, 1, 0)]


def test_a_game_score_pastes_back_from_its_repr() -> None:
    game = GameScore("a", 2, 121, 99)
    assert eval(repr(game)) == game


@pytest.mark.parametrize(
    ("args", "error", "code"),
    [
        (("a", "a", 121, 90), EntrantError, "illegal.tournament.entrant"),
        (("a", True, 121, 90), EntrantError, "illegal.tournament.entrant"),
        (("a", "b", 121, 121), GameScoreError, "illegal.tournament.score"),
        (("a", "b", 100, 121), GameScoreError, "illegal.tournament.score"),
        (("a", "b", 121, -1), GameScoreError, "illegal.tournament.score"),
    ],
)
def test_a_game_that_is_not_a_win_is_refused(args: tuple[object, ...], error: type, code: str) -> None:
    with pytest.raises(error) as caught:
        GameScore(*args)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and caught.value.code == code


def test_an_entrant_outside_the_field_or_entered_twice_is_named() -> None:
    with pytest.raises(EntrantError, match="'z' is not in the field") as caught:
        standings(["a", "b"], [GameScore("a", "z", 121, 100)])
    assert caught.value.values == {"problem": "unknown", "entrant": "z"}
    with pytest.raises(EntrantError, match="'c' is not in the field"):
        standings(["a", "b"], [], byes=["c"])
    with pytest.raises(EntrantError, match="entered twice"):
        standings(["a", "b", "a"], [])
    with pytest.raises(EntrantError, match="True is not in the field"):
        standings([1, 2], [], byes=[True])


def test_a_skunk_line_below_one_is_refused() -> None:
    with pytest.raises(TournamentError, match="skunk line 0"):
        QualifyingScoring(skunk_line=0)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 40), st.integers(0, 120), st.randoms(use_true_random=False))
def test_standings_add_up_and_are_ordered_by_their_keys(size: int, count: int, rng: random.Random) -> None:
    field = list(range(size))
    games = []
    for _ in range(count):
        winner, loser = rng.sample(field, 2)
        games.append(GameScore(winner, loser, 121, rng.randrange(0, 121)))
    scoring = QualifyingScoring()
    lines = standings(field, games)
    assert [s.rank for s in lines] == list(range(1, size + 1))
    assert sorted(s.entrant for s in lines) == field
    assert sum(s.spread for s in lines) == 0
    assert sum(s.game_points for s in lines) == sum(scoring.game_points(g) for g in games)
    assert sum(s.played for s in lines) == 2 * count and sum(s.won for s in lines) == count
    keys = [(s.game_points, s.won, s.spread) for s in lines]
    assert keys == sorted(keys, reverse=True)
