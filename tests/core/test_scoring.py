"""Scoring of the show and the play, one test per rule, with the worked examples of the rules.

The worked examples come from the rules in ``shared/seeds`` (Japanese and Russian).  The
regression tests are named after bugs that other cribbage programs shipped.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.engine.cards import DECK, JACK, Card, parse_cards
from cribbage.engine.errors import CardError, IllegalActionError
from cribbage.engine.scoring import (
    FIFTEEN,
    FLUSH,
    NOBS,
    PAIR,
    RUN,
    Combo,
    ShowScore,
    hand_points,
    play_combos,
    rank_points,
    score_play,
    score_show,
)
from cribbage.engine.scoring import play_points as fast_play_points


def show(hand: str, starter: str, crib: bool = False) -> ShowScore:
    """Score with the explaining scorer and check that the fast scorer agrees."""
    result = score_show(parse_cards(hand), Card.parse(starter), crib=crib)
    assert hand_points(parse_cards(hand), Card.parse(starter), crib) == result.total
    return result


def categories(score: ShowScore) -> tuple[int, int, int, int, int]:
    return score.fifteens, score.pairs, score.runs, score.flush, score.nobs


def play_points(cards: str) -> int:
    """Score with the explaining scorer and check that the fast scorer agrees."""
    score = score_play(cards)
    assert fast_play_points(score.cards, score.count) == score.points
    return score.points


def play_kinds(cards: str) -> dict[str, int]:
    score = score_play(cards)
    assert fast_play_points(score.cards, score.count) == score.points
    return {combo.kind: combo.points for combo in score.combos}


# --------------------------------------------------------------------------- worked examples


def test_29_is_three_fives_and_a_jack_with_the_fourth_five_of_the_jacks_suit() -> None:
    best = show("5H 5C 5S JD", "5D")
    assert best.total == 29
    assert categories(best) == (16, 12, 0, 0, 1)


def test_28_when_the_fourth_five_is_not_of_the_jacks_suit() -> None:
    assert show("5H 5C 5D JS", "5S").total == 29
    assert show("5H 5C 5D JH", "5S").total == 28


def test_seed_4_5_5_6_with_a_jack_starter_is_16() -> None:
    score = show("4H 5C 5S 6D", "JS")
    assert score.total == 16
    assert categories(score) == (8, 2, 6, 0, 0)


def test_russian_seed_ace_4_5_jack_with_a_6_starter_has_three_fifteens_and_a_run() -> None:
    # 5+J, A+4+J and 4+5+6 make fifteen; 4-5-6 is a run of three.
    score = show("AC 4D 5H JS", "6C")
    assert score.fifteens == 6
    fifteens = sorted(sorted(c.rank for c in combo.cards) for combo in score.combos if combo.kind == FIFTEEN)
    assert fifteens == [[1, 4, JACK], [4, 5, 6], [5, JACK]]
    assert score.runs == 3
    assert score.total == 9


def test_3_4_4_5_is_two_runs_and_a_pair() -> None:
    score = show("3C 4D 4H 5S", "KC")
    assert score.runs == 6
    assert score.pairs == 2
    assert score.fifteens == 2  # 5 + K
    assert score.total == 10


def test_japanese_seed_001_three_card_hand_7_7_8_with_a_2_starter_is_6() -> None:
    score = show("7H 7S 8D", "2C")
    assert score.fifteens == 4
    assert score.pairs == 2
    assert score.total == 6


def test_seed_5_5_10_4_with_a_6_starter_has_four_fifteens() -> None:
    score = show("5H 5C 10S 4D", "6C")
    assert score.fifteens == 8
    assert len([c for c in score.combos if c.kind == FIFTEEN]) == 4
    assert score.total == 8 + 2 + 6  # fifteens, the pair of fives, two runs 4-5-6


def test_3_4_5_5_6_is_two_runs_of_four() -> None:
    score = show("3C 4D 5H 5S", "6C")
    assert score.runs == 8
    assert [len(c.cards) for c in score.combos if c.kind == RUN] == [4, 4]


def test_double_double_run_counts_four_runs() -> None:
    assert show("3C 3D 4H 4S", "5C").runs == 12


def test_triple_run_counts_three_runs() -> None:
    score = show("3C 3D 3H 4S", "5C")
    assert (score.runs, score.pairs) == (9, 6)


def test_run_of_five_counts_once_as_five() -> None:
    score = show("AC 2D 3H 4S", "5C")
    assert score.runs == 5
    assert score.total == 7  # and 1+2+3+4+5 = 15


def test_a_king_does_not_join_an_ace_in_a_run() -> None:
    assert show("QC KD AH 2S", "3C").runs == 3
    assert show("QC KD AH 5S", "9C").runs == 0
    assert play_kinds("QC KD AH").get(RUN) is None


def test_pairs_royal_and_double_pair_royal_in_the_show() -> None:
    assert show("7C 7D 7H 2S", "KC").pairs == 6
    assert show("7C 7D 7H 7S", "KC").pairs == 12


def test_nineteen_hand_scores_zero_and_says_so() -> None:
    score = show("2C 4D 6H 8S", "KC")
    assert score.total == 0
    assert score.combos == ()
    assert "no points" in score.explain()


# --------------------------------------------------------------------------- flush and nobs


def test_nobs_is_a_jack_in_the_hand_of_the_starters_suit() -> None:
    assert show("JD 2C 4H 8S", "KD").nobs == 1
    assert show("JC 2C 4H 8S", "KD").nobs == 0


def test_no_nobs_for_a_jack_starter() -> None:
    # Regression: a jack starter is the dealer's "his heels" in the cut, never nobs in the show.
    score = show("KD 2C 4H 8S", "JD")
    assert score.nobs == 0
    assert score.total == 0
    assert show("JC 2C 4H 8S", "JD").nobs == 0  # a jack of another suit in the hand


def test_four_card_hand_flush_scores_4_and_5_with_the_starter() -> None:
    assert show("2H 4H 6H 8H", "KS").flush == 4
    assert show("2H 4H 6H 8H", "KH").flush == 5


def test_no_four_card_flush_in_the_crib() -> None:
    # Regression: programs that score the crib with the hand scorer give 4 here.
    assert show("2H 4H 6H 8H", "KS", crib=True).flush == 0
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0


def test_five_card_crib_flush_scores_5() -> None:
    assert show("2H 4H 6H 8H", "KH", crib=True).flush == 5


def test_three_card_hand_flush_scores_3_and_4_with_the_starter() -> None:
    assert show("2H 6H 8H", "KS").flush == 3
    assert show("2H 6H 8H", "KH").flush == 4
    assert show("2H 6H 8H", "KS", crib=True).flush == 0


def test_five_card_hand_flush_scores_5_and_6_with_the_starter() -> None:
    assert show("2H 4H 6H 8H QH", "KS").flush == 5
    assert show("2H 4H 6H 8H QH", "KH").flush == 6


def test_starter_alone_does_not_make_a_flush() -> None:
    assert show("2H 4H 6H 8S", "KH").flush == 0


def test_flush_and_nobs_together() -> None:
    score = show("2H 4H 6H JH", "KH")
    assert (score.flush, score.nobs) == (5, 1)


# --------------------------------------------------------------------------- the play


def test_pegging_4_6_5_scores_the_run_for_the_player_of_the_5() -> None:
    assert play_kinds("4H 6D") == {}
    assert play_kinds("4H 6D 5S") == {FIFTEEN: 2, RUN: 3}


def test_pegging_4_6_king_5_scores_no_run() -> None:
    assert RUN not in play_kinds("4H 6D KS 5S")


def test_pegging_fifteen_and_thirty_one_score_2() -> None:
    assert play_kinds("KH 5S") == {FIFTEEN: 2}
    assert play_kinds("KH QD 6S 5C") == {"thirty-one": 2}


def test_thirty_one_and_a_run_are_scored_by_the_same_card() -> None:
    # Regression: some programs stop after the 31 and forget the run of 6-7-8.
    score = score_play("KH 6D 7C 8S")
    assert score.count == 31
    assert {c.kind: c.points for c in score.combos} == {"thirty-one": 2, RUN: 3}
    assert score.points == 5


def test_pegging_runs_of_six_and_seven_cards() -> None:
    assert play_kinds("6C 5D 4H 3S 2C AD") == {RUN: 6}
    assert play_kinds("3C 5D 2H 6S 4C AD") == {RUN: 6}
    assert play_kinds("2C 4D 6H AS 3C 5D 7H") == {RUN: 7}  # count 28


def test_pegging_run_is_broken_by_an_earlier_repeated_rank() -> None:
    # 5-6-7-5: the last three cards make a run of three; the first five repeats a rank.
    assert play_kinds("5C 6D 7H 5S") == {RUN: 3}


def test_pegging_run_found_behind_a_longer_tail_that_is_not_a_run() -> None:
    assert play_kinds("9C 2D 3H 4S") == {RUN: 3}
    assert play_kinds("2D 3H 4S 5C 9C") == {}


def test_pegging_pair_pair_royal_and_double_pair_royal() -> None:
    assert play_kinds("3H 3D") == {PAIR: 2}
    assert play_kinds("3H 3D 3C") == {"pair royal": 6}
    assert play_kinds("3H 3D 3C 3S") == {"double pair royal": 12}
    assert play_points("3H 3D 3C 3S") == 12


def test_pegging_pairs_must_be_consecutive() -> None:
    assert play_kinds("3H 4D 3C") == {}


def test_pegging_pair_royal_of_fives_makes_fifteen_too() -> None:
    assert play_kinds("5H 5D 5C") == {FIFTEEN: 2, "pair royal": 6}


def test_count_passing_31_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="the count passes 31: KH QH JH 5S makes 35"):
        score_play("KH QH JH 5S")


def test_pegging_needs_a_card_and_no_duplicates() -> None:
    with pytest.raises(CardError, match="no card played"):
        score_play("")
    with pytest.raises(CardError, match="duplicate card '5H'"):
        score_play("5H 5H")


def test_play_json() -> None:
    assert score_play("4H 6D 5S").to_json() == {
        "cards": ["4H", "6D", "5S"],
        "points": 5,
        "count": 15,
        "combos": [
            {"kind": FIFTEEN, "cards": ["4H", "6D", "5S"], "points": 2},
            {"kind": RUN, "cards": ["4H", "6D", "5S"], "points": 3},
        ],
    }


# --------------------------------------------------------------------------- input checks and output


def test_show_accepts_three_four_or_five_cards_only() -> None:
    with pytest.raises(CardError, match="a hand has 3 to 5 cards, got 2"):
        score_show("5H 6D", "7C")
    with pytest.raises(CardError, match="a hand has 3 to 5 cards, got 6"):
        score_show("AH 2H 3H 4H 5H 6H", "7C")


def test_show_rejects_the_starter_in_the_hand() -> None:
    with pytest.raises(CardError, match="duplicate card '5D'"):
        score_show("5H 5C 5D JD", "5D")


def test_show_json_has_every_category_and_combo() -> None:
    data = score_show("5H 5C 5S JD", "5D").to_json()
    assert {"total", "fifteens", "pairs", "runs", "flush", "nobs", "combos"} <= data.keys()
    assert (data["total"], data["fifteens"], data["pairs"], data["runs"], data["flush"], data["nobs"]) == (
        29,
        16,
        12,
        0,
        0,
        1,
    )
    assert data["combos"][0] == {"kind": FIFTEEN, "cards": ["5H", "JD"], "points": 2}
    assert sum(c["points"] for c in data["combos"]) == 29


def test_explain_has_a_running_total() -> None:
    lines = score_show("4H 5C 5S 6D", "JS").explain().splitlines()
    assert lines[-1].split() == ["total", "16"]
    assert [int(line.split()[-1]) for line in lines[:-1]] == [2, 4, 6, 8, 10, 13, 16]


def test_rank_points_ignores_suits() -> None:
    assert rank_points([5, 5, 5, 11, 5]) == 28
    assert rank_points([4, 5, 5, 6, 11]) == 16
    assert rank_points([2, 4, 6, 8, 13]) == 0


# --------------------------------------------------------------------------- properties


def _combo_is_valid(combo: Combo, score: ShowScore) -> bool:
    cards = combo.cards
    everything = (*score.hand, score.starter)
    if not set(cards) <= set(everything):
        return False
    if combo.kind == FIFTEEN:
        return sum(c.value for c in cards) == 15 and combo.points == 2
    if combo.kind == PAIR:
        return len(cards) == 2 and cards[0].rank == cards[1].rank and combo.points == 2
    if combo.kind == RUN:
        ranks = sorted(c.rank for c in cards)
        is_run = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
        present = {c.rank for c in everything}
        maximal = ranks[0] - 1 not in present and ranks[-1] + 1 not in present
        return is_run and maximal and len(cards) >= 3 and combo.points == len(cards)
    if combo.kind == FLUSH:
        return len({c.suit for c in cards}) == 1 and combo.points == len(cards) and score.hand[0] in cards
    if combo.kind == NOBS:
        jack, starter = cards
        return jack in score.hand and jack.rank == JACK and jack.suit == starter.suit == score.starter.suit
    return False


def _expected_counts(score: ShowScore) -> Counter[str]:
    everything = (*score.hand, score.starter)
    fifteens = sum(
        1
        for n in range(2, len(everything) + 1)
        for s in combinations(everything, n)
        if sum(c.value for c in s) == 15
    )
    pairs = sum(1 for a, b in combinations(everything, 2) if a.rank == b.rank)
    return Counter({FIFTEEN: fifteens, PAIR: pairs})


deals = st.integers(3, 5).flatmap(
    lambda size: st.lists(st.sampled_from(DECK), min_size=size + 1, max_size=size + 1, unique=True)
)


@settings(max_examples=400)
@given(deals, st.booleans())
def test_fast_hand_points_equals_the_explained_total(cards: list[Card], crib: bool) -> None:
    *hand, starter = cards
    assert hand_points(hand, starter, crib) == score_show(hand, starter, crib=crib).total


@st.composite
def counts(draw: st.DrawFn) -> list[Card]:
    """Cards of one count (at most 31), mostly low ones so that runs and pairs are common."""
    top = draw(st.sampled_from((5, 7, 9, 13)))
    cards = draw(st.lists(st.sampled_from([c for c in DECK if c.rank <= top]), min_size=1, unique=True))
    count, sequence = 0, []
    for card in cards:
        if count + card.value > 31:
            break
        count += card.value
        sequence.append(card)
    return sequence or cards[:1]


@settings(max_examples=1000)
@given(counts())
def test_fast_play_points_equals_the_explained_total(sequence: list[Card]) -> None:
    count = sum(c.value for c in sequence)
    assert fast_play_points(sequence, count) == sum(c.points for c in play_combos(sequence, count))


@settings(max_examples=300)
@given(deals, st.booleans())
def test_every_combo_really_makes_its_combination(cards: list[Card], crib: bool) -> None:
    *hand, starter = cards
    score = score_show(hand, starter, crib=crib)
    for combo in score.combos:
        assert _combo_is_valid(combo, score), combo
    kinds = Counter(c.kind for c in score.combos)
    expected = _expected_counts(score)
    assert kinds[FIFTEEN] == expected[FIFTEEN]
    assert kinds[PAIR] == expected[PAIR]
    assert len(set(score.combos)) == len(score.combos)  # no combination listed twice


@st.composite
def plays(draw: st.DrawFn) -> list[Card]:
    """A legal sequence of cards since the count reset (count at most 31)."""
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=12, unique=True))
    played: list[Card] = []
    for card in cards:
        if sum(c.value for c in played) + card.value > 31:
            break
        played.append(card)
    return played or cards[:1]


@settings(max_examples=400)
@given(plays())
def test_play_combos_are_made_by_the_trailing_cards(played: list[Card]) -> None:
    score = score_play(played)
    assert score.count == sum(c.value for c in played)
    for combo in score.combos:
        assert combo.cards[-1] is played[-1]
        if combo.kind == RUN:
            tail = combo.cards
            assert tuple(played[-len(tail) :]) == tail
            ranks = sorted(c.rank for c in tail)
            assert ranks == list(range(ranks[0], ranks[0] + len(tail)))
            assert combo.points == len(tail)
            # No longer tail is a run.
            for longer in range(len(tail) + 1, len(played) + 1):
                longer_ranks = sorted(c.rank for c in played[-longer:])
                assert longer_ranks != list(range(longer_ranks[0], longer_ranks[0] + longer))
        elif combo.kind in (PAIR, "pair royal", "double pair royal"):
            assert len({c.rank for c in combo.cards}) == 1
            assert combo.points == len(combo.cards) * (len(combo.cards) - 1)
            if len(combo.cards) < len(played):
                assert played[-len(combo.cards) - 1].rank != played[-1].rank
        elif combo.kind == FIFTEEN:
            assert score.count == 15
        else:
            assert combo.kind == "thirty-one" and score.count == 31
    # And nothing is missed: the longest trailing run and the trailing set of one rank.
    runs = [
        n
        for n in range(3, len(played) + 1)
        if sorted(c.rank for c in played[-n:]) == list(range(min(c.rank for c in played[-n:]), 100))[:n]
    ]
    same = 1
    while same < len(played) and played[-same - 1].rank == played[-1].rank:
        same += 1
    expected = max(runs, default=0) + same * (same - 1) + 2 * (score.count in (15, 31))
    assert score.points == expected
