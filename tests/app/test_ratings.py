"""Ratings of games between people (cribbage.app.people.ratings and rating_pools): pools, the
update, leavers, errors."""

from __future__ import annotations

import math

import pytest

from cribbage.app.people.rating_pools import POOLS, RatingError, UnratedRules, pool_of
from cribbage.app.people.ratings import PROVISIONAL_GAMES, Outcome, OutcomeError, Rating, Side, rate
from cribbage.engine.errors import CribbageError
from cribbage.engine.rules import VARIANTS, get_rules

STANDARD = get_rules("standard")


def test_every_variant_of_the_engine_has_a_pool_of_its_own_shape() -> None:
    pools = {name: pool_of(rules) for name, rules in VARIANTS.items()}
    assert pools == {
        "standard": "standard",
        "short": "short",
        "five-card": "five-card",
        "seven-card": "seven-card",
        "three-player": "three",
        "four-player": "partners",
        "crib-deal": "crib-deal",
        "lowball": "lowball",
    }
    for name, rules in VARIANTS.items():
        pool = POOLS[pools[name]]
        assert pool.sides * pool.side_size == rules.players and pool.sides == rules.sides, name


def test_the_pool_follows_the_game_not_its_name_nor_its_counting() -> None:
    assert pool_of(get_rules("standard", target=61)) == "short"
    assert pool_of(get_rules("short", target=121)) == "standard"
    assert pool_of(get_rules("standard", manual_count=True, muggins=True, skunk="marked")) == "standard"
    assert pool_of(get_rules("seven-card", target=181, crib_from_deck=1)) == "seven-card"
    assert pool_of(get_rules("four-player", partnerships=False)) == "four"


@pytest.mark.parametrize(
    "rules",
    [
        get_rules("standard", target=91),
        get_rules("three-player", target=61),
        get_rules("five-card", target=121),
    ],
)
def test_rules_of_no_pool_are_not_rated(rules: object) -> None:
    with pytest.raises(UnratedRules, match="no rating pool holds") as raised:
        pool_of(rules)  # type: ignore[arg-type]
    assert isinstance(raised.value, CribbageError) and raised.value.code == "illegal.rating.unrated"


def test_two_players_the_winner_gains_what_the_loser_loses_and_both_grow_surer() -> None:
    before = {"1": Rating(), "2": Rating()}
    after = rate(before, Outcome.of_game(STANDARD, ["1", "2"], [121, 100], winner=0))
    assert after["1"].mu > 25 > after["2"].mu
    assert math.isclose(after["1"].mu - 25, 25 - after["2"].mu)
    assert after["1"].sigma < before["1"].sigma and after["2"].sigma < before["2"].sigma
    assert (after["1"].games, after["1"].wins, after["2"].games, after["2"].wins) == (1, 1, 1, 0)


def test_an_upset_moves_the_ratings_more_than_the_expected_result() -> None:
    strong, weak = Rating(30.0, 3.0, 40, 30), Rating(20.0, 3.0, 40, 10)
    expected = rate({"1": strong, "2": weak}, Outcome("standard", (Side(("1",), 121), Side(("2",), 90)), 0))
    upset = rate({"1": strong, "2": weak}, Outcome("standard", (Side(("1",), 90), Side(("2",), 121)), 1))
    assert 0 < expected["1"].mu - strong.mu < strong.mu - upset["1"].mu


def test_three_players_are_ordered_by_the_winner_then_the_scores() -> None:
    outcome = Outcome.of_game(get_rules("three-player"), ["5", "6", "7"], [104, 121, 117], winner=1)
    assert outcome.ranks() == (2, 0, 1)
    after = rate({}, outcome)
    assert after["6"].shown > after["7"].shown > after["5"].shown
    assert [after[a].wins for a in ("5", "6", "7")] == [0, 1, 0]


def test_partners_share_the_update_of_their_side() -> None:
    outcome = Outcome.of_game(get_rules("four-player"), ["1", "2", "3", "4"], [121, 99], winner=0)
    assert [side.accounts for side in outcome.sides] == [("1", "3"), ("2", "4")]
    before = {"1": Rating(30.0, 4.0, 30, 20), "3": Rating(20.0, 4.0, 30, 10)}
    after = rate(before, outcome)
    assert after["1"].mu > 30 and after["3"].mu > 20 and after["2"].mu < 25 and after["4"].mu < 25
    assert after["1"].mu - 30 == pytest.approx(after["3"].mu - 20)  # equal sigmas: equal shares
    assert [after[a].wins for a in ("1", "2", "3", "4")] == [21, 0, 11, 0]


def test_whoever_leaves_loses_even_when_ahead() -> None:
    outcome = Outcome.of_game(STANDARD, ["1", "2"], [118, 40], winner=None, left=[0])
    assert outcome.ranks() == (1, 0)
    after = rate({}, outcome)
    assert after["2"].mu > 25 > after["1"].mu and after["2"].wins == 1
    # Timed out and the computer that took the seat won: still a loss for the one who left.
    taken_over = rate({}, Outcome.of_game(STANDARD, ["1", "2"], [121, 80], winner=0, left=[0]))
    assert taken_over["1"].mu < 25 and taken_over["1"].wins == 0


def test_in_three_players_the_leaver_is_last_and_the_others_ranked_by_score() -> None:
    outcome = Outcome.of_game(
        get_rules("three-player"), ["1", "2", "3"], [90, 100, 80], winner=None, left=[1]
    )
    assert outcome.ranks() == (0, 2, 1)
    after = rate({}, outcome)
    assert after["1"].shown > after["3"].shown > after["2"].shown


def test_a_partner_leaving_loses_the_game_for_the_side() -> None:
    outcome = Outcome.of_game(
        get_rules("four-player"), ["1", "2", "3", "4"], [100, 60], winner=None, left=[2]
    )
    assert outcome.sides[0].left and outcome.ranks() == (1, 0)


def test_when_nobody_won_the_higher_score_ranks_first_but_in_lowball_the_lower() -> None:
    sides = (Side(("1",), 100), Side(("2",), 110), Side(("3",), 50, left=True), Side(("4",), 90))
    assert Outcome("four", sides).ranks() == (1, 0, 3, 2)
    assert Outcome("lowball", (Side(("1",), 100), Side(("2",), 121, left=True))).ranks() == (0, 1)


def test_a_rating_is_provisional_until_twenty_games() -> None:
    rating = Rating()
    outcome = Outcome.of_game(STANDARD, ["1", "2"], [121, 100], winner=0)
    for _ in range(PROVISIONAL_GAMES - 1):
        rating = rate({"1": rating}, outcome)["1"]
        assert rating.provisional
    rating = rate({"1": rating}, outcome)["1"]
    assert rating.games == PROVISIONAL_GAMES and not rating.provisional


def test_the_shown_number_its_uncertainty_and_the_conservative_order() -> None:
    new = Rating()
    assert (new.shown, new.uncertainty, new.ordinal) == pytest.approx((1500.0, 500.0, 1000.0))
    settled, lucky = Rating(27.0, 2.0, 100, 60), Rating(29.0, 6.0, 5, 5)
    assert lucky.shown > settled.shown and settled.ordinal > lucky.ordinal
    assert eval(repr(settled)) == settled


def test_values_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Rating().mu = 30.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"mu": math.nan}, "mu must be a finite number"),
        ({"sigma": 0.0}, "sigma must be a finite number above 0"),
        ({"sigma": math.inf}, "sigma must be a finite number above 0"),
        ({"games": 2, "wins": 3}, "wins at most games"),
        ({"games": -1}, "must be counts"),
        ({"games": True}, "must be counts"),
    ],
)
def test_bad_ratings_are_refused(values: dict[str, object], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        Rating(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Outcome("bridge", (Side(("1",), 0), Side(("2",), 0)), 0), "unknown pool 'bridge'"),
        (lambda: Outcome("standard", (Side(("1",), 121),), 0), r"has 2 sides of 1, not sides of \[1\]"),
        (lambda: Outcome("partners", (Side(("1",), 121), Side(("2",), 3)), 0), "has 2 sides of 2"),
        (
            lambda: Outcome("standard", (Side(("1",), 121), Side(("1",), 3)), 0),
            "account 1 sits in the game twice",
        ),
        (lambda: Outcome("standard", (Side((1,), 121), Side(("2",), 3)), 0), "an account is its id"),  # type: ignore[arg-type]
        (lambda: Outcome("standard", (Side(("1",), -1), Side(("2",), 3)), 1), "scores must be counts"),
        (
            lambda: Outcome("standard", (Side(("1",), 121), Side(("2",), 3)), 2),
            "the winner must be a side 0 to 1",
        ),
        (
            lambda: Outcome("standard", (Side(("1",), 121), Side(("2",), 3))),
            "a game nobody left has a winner",
        ),
        (
            lambda: Outcome("standard", (Side(("1",), 12, True), Side(("2",), 3, True))),
            "everyone left: there is nothing to rate",
        ),
        (
            lambda: Outcome.of_game(STANDARD, ["1", "2", "3"], [121, 0], 0),
            "has 2 seats and 2 scores, not 3 and 2",
        ),
        (lambda: Outcome.of_game(STANDARD, ["1", "2"], [121, 0], 0, left=[2]), r"must be 0 to 1, not \[2\]"),
    ],
)
def test_bad_outcomes_are_refused_with_what_is_wrong(build: object, message: str) -> None:
    with pytest.raises(OutcomeError, match=message):
        build()  # type: ignore[operator]


def test_a_rating_that_is_not_a_rating_is_refused() -> None:
    outcome = Outcome.of_game(STANDARD, ["1", "2"], [121, 100], winner=0)
    with pytest.raises(RatingError, match="rating of account 1 is not a Rating"):
        rate({"1": (25.0, 8.0)}, outcome)  # type: ignore[dict-item]


def test_rating_is_pure_the_same_input_gives_the_same_output() -> None:
    outcome = Outcome.of_game(get_rules("three-player"), ["1", "2", "3"], [121, 100, 117], winner=0)
    before = {"1": Rating(26.0, 5.0, 3, 1)}
    assert rate(before, outcome) == rate(before, outcome)
    assert before == {"1": Rating(26.0, 5.0, 3, 1)}
