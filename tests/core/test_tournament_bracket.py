"""The playoffs (cribbage.tournament.bracket and forfeits): ACC Rule 13's qualifiers, byes and
bracket order, best-of-N matches, the bracket advancing, and no-show forfeits
(docs/tournaments.md)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.tournament import (
    Bracket,
    BracketError,
    EntrantError,
    EntrantId,
    PlayoffFormat,
    PlayoffMatchError,
    TournamentError,
    bracket_size,
    bye_count,
    forfeited_games,
    match_winner,
    qualifier_count,
    seed_order,
)


@pytest.mark.parametrize(
    ("entrants", "qualifiers"), [(60, 15), (108, 27), (121, 31), (122, 31), (123, 31), (124, 31), (132, 33)]
)
def test_one_in_four_qualifies_a_fraction_rounding_up(entrants: int, qualifiers: int) -> None:
    assert qualifier_count(entrants) == qualifiers


@pytest.mark.parametrize(
    ("qualifiers", "size", "byes"), [(27, 32, 5), (31, 32, 1), (33, 64, 31), (15, 16, 1)]
)
def test_the_highest_qualifiers_get_byes_up_to_the_next_full_bracket(
    qualifiers: int, size: int, byes: int
) -> None:
    assert (bracket_size(qualifiers), bye_count(qualifiers)) == (size, byes)
    bracket = Bracket.seeded(list(range(1, qualifiers + 1)))
    assert bracket.byes == tuple(range(1, byes + 1))
    assert len([m for m in bracket.pending() if m.round == 1]) == (qualifiers - byes) // 2


def test_too_few_entrants_or_qualifiers_are_refused() -> None:
    with pytest.raises(BracketError, match="0 entrants"):
        qualifier_count(0)
    with pytest.raises(BracketError, match="0 qualifiers"):
        bracket_size(0)
    with pytest.raises(EntrantError, match="at least 1"):
        Bracket.seeded([])


def test_the_bracket_order_is_the_acc_charts() -> None:
    assert seed_order(2) == (1, 2)
    assert seed_order(4) == (1, 4, 3, 2)
    assert seed_order(8) == (1, 8, 5, 4, 3, 6, 7, 2)
    assert seed_order(16) == (1, 16, 9, 8, 5, 12, 13, 4, 3, 14, 11, 6, 7, 10, 15, 2)
    # Rule 13.2c reads the 64-line chart's columns one under another: 5-60 below 8-57,
    # 3-62 below 4-61, 7-58 below 6-59 (each column 8 matches).
    pairs = [frozenset(pair) for pair in zip(seed_order(64)[::2], seed_order(64)[1::2], strict=True)]
    assert pairs[7:9] == [frozenset({8, 57}), frozenset({5, 60})]
    assert pairs[15:17] == [frozenset({4, 61}), frozenset({3, 62})]
    assert pairs[23:25] == [frozenset({6, 59}), frozenset({7, 58})]
    with pytest.raises(BracketError, match="not a power of two"):
        seed_order(24)


def test_the_higher_seed_always_winning_gives_the_seeded_rounds() -> None:
    bracket = Bracket.seeded(list(range(1, 9)))
    rounds = []
    while bracket.champion is None:
        rounds.append([(m.top, m.bottom) for m in bracket.pending()])
        for match in bracket.pending():
            bracket = bracket.advance(min(match.top or 99, match.bottom or 99))
    assert rounds == [[(1, 8), (5, 4), (3, 6), (7, 2)], [(1, 4), (3, 2)], [(1, 2)]]
    assert bracket.champion == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 300), st.randoms(use_true_random=False))
def test_bracket_properties(entrants: int, rng: random.Random) -> None:
    qualifiers = qualifier_count(entrants)
    seeds: list[EntrantId] = [f"q{k}" for k in range(1, qualifiers + 1)]
    bracket = Bracket.seeded(seeds)
    size = bracket_size(qualifiers)
    assert size >= qualifiers > size // 2 or qualifiers == 1
    if bracket.rounds:
        first = bracket.matches(1)
        sides = [side for m in first for side in (m.top, m.bottom) if side is not None]
        assert sorted(sides) == sorted(seeds)  # every qualifier once
        byes = [m.top or m.bottom for m in first if m.top is None or m.bottom is None]
        assert set(byes) == set(seeds[: bye_count(qualifiers)])  # the byes are the top seeds
        assert len([m for m in bracket.pending() if m.round == 1]) == (qualifiers - len(byes)) // 2
    order = seed_order(size)
    assert size == 1 or order.index(1) < size // 2 <= order.index(2)  # 1 and 2 meet only in the final
    while bracket.champion is None:
        match = rng.choice(bracket.pending())
        assert {match.top, match.bottom} != {"q1", "q2"} or match.round == bracket.rounds
        bracket = bracket.advance(rng.choice([match.top, match.bottom]))  # type: ignore[arg-type]
    assert bracket.champion in seeds


def test_the_second_round_is_full() -> None:
    bracket = Bracket.seeded(list(range(1, 28)))
    for match in bracket.pending():
        bracket = bracket.advance(match.bottom)  # type: ignore[arg-type]
    assert all(m.ready for m in bracket.matches(2)) and len(bracket.matches(2)) == 8


def test_a_match_is_won_by_the_first_to_a_majority_of_its_games() -> None:
    assert match_winner("a", "b", []) is None
    assert match_winner("a", "b", ["a", "a"]) == "a"
    assert match_winner("a", "b", ["a", "b"]) is None
    assert match_winner("a", "b", ["a", "b", "b"]) == "b"
    assert match_winner("a", "b", ["a", "b", "a", "b"], best_of=5) is None
    assert match_winner(1, 2, [2, 1, 1, 2, 1], best_of=5) == 1
    assert match_winner("a", "b", ["b"], best_of=1) == "b"


@pytest.mark.parametrize(
    ("games", "best_of", "message"),
    [
        (["a", "a", "b"], 3, "game 3 played after 'a' won"),
        (["a", "c"], 3, "game 2 won by 'c'"),
        ([], 4, "odd number of games, not 4"),
        ([], 0, "not 0"),
    ],
)
def test_impossible_match_games_are_refused(games: list[EntrantId], best_of: int, message: str) -> None:
    with pytest.raises(PlayoffMatchError, match=message):
        match_winner("a", "b", games, best_of)
    with pytest.raises(EntrantError, match="cannot play itself"):
        match_winner("a", "a", [])


def test_a_director_may_play_best_of_five_from_a_chosen_round() -> None:
    playoff = PlayoffFormat(best_of=3, longer_from=2)
    bracket = Bracket.seeded(["a", "b", "c", "d"], playoff)
    assert [m.best_of for m in bracket.matches(1)] == [3, 3]
    assert bracket.matches(2)[0].best_of == 5
    bracket = bracket.record(["a", "a"]).record(["b", "c", "b"])
    assert [(m.top, m.bottom) for m in bracket.pending()] == [("a", "b")]
    assert bracket.record(["a", "a", "b"]).champion is None  # three games, still best of five
    assert bracket.record(["a", "a", "b", "a"]).champion == "a"
    with pytest.raises(PlayoffMatchError):
        PlayoffFormat(best_of=2)
    with pytest.raises(BracketError, match="round 0"):
        PlayoffFormat(longer_from=0)


def test_a_bracket_is_a_value_each_result_gives_a_new_one() -> None:
    before = Bracket.seeded(["a", "b", "c"])
    after = before.advance("b")
    assert before.pending()[0].winner is None and after.matches(1)[1].winner == "b"
    assert eval(repr(after)) == after
    assert before.record([]) is before and before.record(["c"]) == before


def test_an_entrant_with_no_match_to_play_cannot_advance() -> None:
    bracket = Bracket.seeded(["a", "b", "c"])
    with pytest.raises(BracketError, match="'a' has no match to play now"):  # waiting on its bye
        bracket.advance("a")
    with pytest.raises(BracketError, match="'c' has no match"):
        bracket.advance("b").advance("c")  # out
    with pytest.raises(BracketError, match="'z' has no match"):
        bracket.record(["z"])
    assert bracket.match_of("a") is None and bracket.match_of("b") == bracket.pending()[0]


def test_a_bracket_of_one_qualifier_has_its_champion() -> None:
    bracket = Bracket.seeded(["solo"])
    assert (bracket.rounds, bracket.champion, bracket.pending()) == (0, "solo", ())
    with pytest.raises(BracketError, match="round 1 of 0"):
        bracket.matches(1)


def test_a_bracket_with_impossible_winners_is_refused() -> None:
    with pytest.raises(BracketError, match="rounds of"):
        Bracket(("a", "b"), winners=())
    with pytest.raises(BracketError, match="'c' cannot have won match 0 of round 1"):
        Bracket(("a", "b", "c"), winners=(("c", None), (None,)))
    with pytest.raises(BracketError, match="'a' cannot have won match 0 of round 2"):
        Bracket(("a", "b", "c"), winners=(("a", None), ("a",)))


@pytest.mark.parametrize(
    ("minutes", "games"), [(0, 0), (4.99, 0), (5, 1), (19.99, 1), (20, 2), (34, 2), (35, 3), (125, 9)]
)
def test_a_no_show_forfeits_a_game_at_five_minutes_and_another_every_fifteen(
    minutes: float, games: int
) -> None:
    assert forfeited_games(minutes) == games


def test_forfeits_stop_when_the_match_is_lost() -> None:
    assert forfeited_games(200, best_of=3) == 2
    assert forfeited_games(200, best_of=5) == 3
    assert forfeited_games(21, best_of=5) == 2
    for bad in (-1, math.nan, math.inf):
        with pytest.raises(TournamentError, match="is not a time"):
            forfeited_games(bad)
    with pytest.raises(PlayoffMatchError):
        forfeited_games(10, best_of=2)
