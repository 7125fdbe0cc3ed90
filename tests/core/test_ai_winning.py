"""The chance of winning: the solved tables against simulation, and its use near the end."""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import TypeVar

import pytest

from cribbage.ai import discard
from cribbage.ai.discard import ENDGAME_NEED, KeepOption, discard_options
from cribbage.ai.winning import HandModel, WinTable, solve, win_table
from cribbage.engine.cards import DECK, parse_cards
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import hand_points


def test_a_dealer_who_always_pegs_one_wins_from_level_or_ahead() -> None:
    """Each hand the dealer pegs the last card and nothing else scores: the deal alternates, so
    the player to deal wins exactly when it is not behind."""
    model = HandModel(pegging={(1, 0): 1.0}, pone_hand={0: 1.0}, dealer_hand={0: 1.0}, crib={0: 1.0})
    win = solve(model, 7)
    assert all(win[d][p] == (1.0 if d >= p else 0.0) for d in range(7) for p in range(7))


K = TypeVar("K")


def drawer(rng: random.Random, dist: Mapping[K, float]) -> Callable[[], K]:
    """Draws from ``dist`` as ``rng.choices(list(dist), weights=list(dist.values()))[0]`` does,
    with the same numbers of ``rng`` (its own code, less the lists it would build each draw)."""
    values = list(dist)
    cumulative = list(accumulate(dist.values()))
    total, last = cumulative[-1] + 0.0, len(values) - 1
    uniform = rng.random
    return lambda: values[bisect(cumulative, uniform() * total, 0, last)]


def test_the_drawer_draws_what_choices_draws() -> None:
    dist = {0: 0.2, 2: 0.3, 4: 0.3, 8: 0.2}
    mine, theirs = random.Random(3), random.Random(3)
    draw = drawer(mine, dist)
    assert [draw() for _ in range(2000)] == [
        theirs.choices(list(dist), weights=list(dist.values()))[0] for _ in range(2000)
    ]


def simulate(model: HandModel, target: int, dealer: int, pone: int, games: int, seed: int) -> float:
    """The dealer's share of wins when hands are drawn from the model, counted in order."""
    rng = random.Random(seed)
    peg, pone_hand = drawer(rng, model.pegging), drawer(rng, model.pone_hand)
    dealer_hand, crib = drawer(rng, model.dealer_hand), drawer(rng, model.crib)
    wins = 0
    for _ in range(games):
        scores = [dealer, pone]  # [the first dealer, the other]
        deals = 0
        while True:
            d, p = deals % 2, 1 - deals % 2
            a, b = peg()
            scores[d] += a
            scores[p] += b
            if scores[d] >= target or scores[p] >= target:
                first = d if scores[p] < target else p if scores[d] < target else rng.choice((d, p))
                wins += first == 0
                break
            scores[p] += pone_hand()
            if scores[p] >= target:
                wins += p == 0
                break
            scores[d] += dealer_hand() + crib()
            if scores[d] >= target:
                wins += d == 0
                break
            deals += 1
    return wins / games


def test_the_solved_table_matches_simulated_games() -> None:
    model = HandModel(
        pegging={(1, 0): 0.2, (2, 1): 0.3, (0, 3): 0.2, (4, 2): 0.2, (1, 5): 0.1},
        pone_hand={0: 0.2, 2: 0.3, 4: 0.3, 8: 0.2},
        dealer_hand={0: 0.3, 4: 0.4, 6: 0.3},
        crib={0: 0.5, 2: 0.3, 5: 0.2},
    )
    target = 31
    win = solve(model, target)
    for dealer, pone in ((0, 0), (20, 25), (28, 10), (5, 29)):
        simulated = simulate(model, target, dealer, pone, 6000, seed=dealer * 100 + pone)
        assert win[dealer][pone] == pytest.approx(simulated, abs=0.025)


def test_the_shipped_tables() -> None:
    table = win_table(get_rules())
    assert table is not None and table.target == 121
    # Dealing first is worth something, and the chances of the two players add up to one.
    assert 0.5 < table.chance(0, 0, dealing=True) < 0.6
    for mine, theirs in ((0, 0), (60, 90), (115, 118), (120, 120)):
        assert table.chance(mine, theirs, True) + table.chance(theirs, mine, False) == pytest.approx(1.0)
    # More points never hurt (up to the rounding of the shipped table).
    rows = table.dealer_wins
    assert all(rows[d + 1][p] >= rows[d][p] - 1e-3 for d in range(120) for p in range(0, 121, 10))
    assert all(rows[d][p + 1] <= rows[d][p] + 1e-3 for d in range(0, 121, 10) for p in range(120))
    assert table.chance(121, 100, dealing=False) == 1.0
    for variant in ("short", "five-card", "seven-card", "crib-deal"):
        rules = get_rules(variant)
        shipped = win_table(rules)
        assert isinstance(shipped, WinTable) and shipped.target == rules.target
    lowball = win_table(get_rules("lowball"))  # its own table: reaching the target loses
    assert lowball is not None and lowball.lowball and lowball.chance(121, 100, dealing=False) == 0.0
    assert win_table(get_rules("three-player")) is None
    assert win_table(get_rules(target=31)) is None


def test_keeps_are_ranked_by_the_chance_of_winning_only_near_the_end() -> None:
    hand = "5H 5C 7D 8S 9C TD"
    need = 121 - ENDGAME_NEED
    early = (need - 1, need - 1)
    assert all(o.win is None for o in discard_options(hand, dealer=True, scores=early))
    late = discard_options(hand, dealer=True, scores=(need, 100))
    chances = [o.win for o in late]
    assert all(c is not None and 0 <= c <= 1 for c in chances)
    assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]


@pytest.mark.parametrize("dealer", [False, True])
def test_the_chance_of_a_keep_grows_with_the_score(dealer: bool) -> None:
    hand = "TC TD 8H JC 8S 9D"
    behind = discard_options(hand, dealer, scores=(100, 110))
    ahead = {o.discard: o.win for o in discard_options(hand, dealer, scores=(106, 110))}
    threatened = {o.discard: o.win for o in discard_options(hand, dealer, scores=(100, 116))}
    for option in behind:
        assert option.win is not None
        assert ahead[option.discard] >= option.win  # type: ignore[operator]
        assert threatened[option.discard] <= option.win  # type: ignore[operator]


@pytest.mark.parametrize("variant", ["standard", "lowball"])
def test_the_counting_kept_between_decisions_changes_no_chance(variant: str) -> None:
    """The counting positions kept from earlier hands (for each table and place) give what a
    fresh counting gives."""
    rules = get_rules(variant)
    rng = random.Random(5)
    cases = [
        (rng.sample(DECK, 6), rng.random() < 0.5, (rng.randint(60, 115), rng.randint(60, 115)))
        for _ in range(6)
    ]

    def chances() -> list[list[float | None]]:
        return [[o.win for o in discard_options(h, d, rules, scores=s)] for h, d, s in cases]

    discard._SEEN.clear()
    kept = chances()  # each decision after the others, with what they counted
    assert any(discard._SEEN.values())
    fresh = []
    for case in cases:
        discard._SEEN.clear()
        fresh.append([o.win for o in discard_options(case[0], case[1], rules, scores=case[2])])
    assert fresh == kept
    assert chances() == kept


def test_sure_wins_and_losses() -> None:
    # The pone needs one point and counts first: nothing the dealer (at 90) can do stops it.
    assert all(
        o.win == pytest.approx(1.0) for o in discard_options("5H 5C 7D 8S 9C TD", False, scores=(120, 90))
    )
    # The dealer needs 21 and the pone 2: the pone pegs or counts them first nearly always.
    assert all(
        o.win is not None and o.win < 0.05
        for o in discard_options("5H 5C 7D 8S 9C TD", True, scores=(100, 119))
    )


def test_near_the_end_the_chance_can_overrule_the_points() -> None:
    """Needing 17 while the dealer needs 7, the pone gives up points (the crib it feeds) for the
    keep that more often counts out first."""
    options = discard_options("TC TD 8H JC 8S 9D", dealer=False, scores=(104, 114))
    by_points = max(options, key=lambda o: o.total)
    assert options[0].keep != by_points.keep
    assert options[0].win is not None and by_points.win is not None
    assert options[0].win > by_points.win + 0.05


# --------------------------------------------------------------------------- partnerships, lowball

FOUR = get_rules("four-player")


def test_partners_count_their_hands_in_the_order_of_the_show() -> None:
    """Needing 14 with a hand that always scores them (5 5 5 J), against a side needing 6: the
    pone counts first and wins whenever the play leaves both short; the pone's partner counts
    third, after the dealer's partner, who often makes the 6 first."""
    hand = "5H 5C 5D JS 2C"
    first = discard_options(hand, False, FOUR, scores=(107, 115), place=0)
    third = discard_options(hand, False, FOUR, scores=(107, 115), place=2)
    assert first[0].discard == third[0].discard == parse_cards("2C")
    assert first[0].win is not None and third[0].win is not None
    assert first[0].win > third[0].win + 0.2
    for place in range(4):
        options = discard_options(hand, place % 2 == 1, FOUR, scores=(107, 115), place=place)
        chances = [o.win for o in options]
        assert all(c is not None and 0 <= c <= 1 for c in chances)
        assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]


def test_a_partner_near_the_end_keeps_points_for_its_hand_over_the_opponents_crib() -> None:
    """Needing 16 against a side needing 6, the pone keeps the pair of aces (6 points in hand)
    and gives the opponents' crib the 5: its hand is counted first, their crib last, when they
    have most often won already.  By points it would keep the 5 (the crib costs more)."""
    options = discard_options("5H AD AH 4S TC", False, FOUR, scores=(105, 115), place=0)
    by_points = max(options, key=lambda o: o.total)
    best = options[0]
    assert best.discard == parse_cards("5H") and by_points.discard == parse_cards("AD")
    assert best.hand > by_points.hand and best.crib > by_points.crib
    assert best.win is not None and by_points.win is not None and best.win > by_points.win + 0.03


@pytest.mark.parametrize("place", [0, 1, 2, 3])
def test_the_partnership_chance_of_an_average_keep_is_the_tables(place: int) -> None:
    """The keep by points of random deals (what the hand model's players keep) wins as often as
    the table says at the start of the hand: the discard's counting agrees with the table's."""
    table = win_table(FOUR)
    assert table is not None
    dealer = place % 2 == 1
    rng = random.Random(place)
    chances = []
    for _ in range(80):
        options = discard_options(rng.sample(DECK, 5), dealer, FOUR, scores=(95, 100), place=place)
        win = max(options, key=lambda o: o.total).win
        assert win is not None
        chances.append(win)
    assert sum(chances) / len(chances) == pytest.approx(table.chance(95, 100, dealing=dealer), abs=0.035)


def test_a_place_off_the_side_is_refused() -> None:
    with pytest.raises(ValueError, match="place 1"):
        discard_options("5H 5C 5D JS 2C", False, FOUR, scores=(107, 115), place=1)


LOWBALL = get_rules("lowball")


def test_lowball_near_the_end_keeps_the_fewest_points() -> None:
    hand = "5H 5C 5D 5S 9C TD"
    options = discard_options(hand, False, LOWBALL, scores=(100, 100))
    most = max(options, key=lambda o: o.hand)  # four fives: 20 points and more
    assert options[0].hand < most.hand - 10
    assert options[0].win is not None and most.win is not None and options[0].win > most.win + 0.2
    assert all(o.win is not None and 0 <= o.win <= 1 for o in options)


def test_lowball_reaching_the_target_loses() -> None:
    """The pone at 120 counts first: a hand that always scores reaches the target and loses;
    in the standard game the same position always wins."""
    hand = "5H 5C 5D 5S 9C TD"  # every keep holds two fives, or a five and a ten
    assert all(
        o.win == pytest.approx(0.0, abs=1e-3) for o in discard_options(hand, False, LOWBALL, scores=(120, 0))
    )
    assert all(o.win == pytest.approx(1.0) for o in discard_options(hand, False, scores=(120, 0)))
    # The dealer at 0 cannot reach it; the pone one point short of it loses unless it somehow
    # scores nothing: whatever the dealer keeps, it has all but won.
    assert all(
        o.win is not None and o.win > 0.99 for o in discard_options(hand, True, LOWBALL, scores=(0, 120))
    )


def simulate_keep(option: KeepOption, hand: str, place: int, scores: tuple[int, int], hands: int) -> float:
    """The share of wins of a partnership keep in hands simulated count by count (the play and
    the other hands drawn from the hand model, the starter from the unseen cards, the crib from
    the model moved to the keep's crib table), the game after the hand from the table."""
    table = win_table(FOUR)
    assert table is not None
    model, target = table.model, FOUR.target
    dealer = model.hands[place][0]
    unseen = [c for c in DECK if c not in parse_cards(hand)]
    shows = [hand_points(option.keep, starter) for starter in unseen]  # the keep's, by starter
    crib_shift = option.crib - sum(h * p for h, p in model.crib.items())
    rng = random.Random(place)
    peg, crib_drawn = drawer(rng, model.pegging), drawer(rng, model.crib)
    order = [(dealers, drawer(rng, dist)) for dealers, dist in model.hands]

    def crib() -> int:  # the fraction of the shift as a chance of one point more
        shift = math.floor(crib_shift) + (rng.random() < crib_shift - math.floor(crib_shift))
        return max(0, crib_drawn() + shift)

    total = 0.0
    for _ in range(hands):
        a, b = peg()
        x, y = scores[0] + (a if dealer else b), scores[1] + (b if dealer else a)
        if x >= target or y >= target:
            total += 0.5 if x >= target and y >= target else x >= target
            continue
        for k, (dealers, draw) in enumerate(order):
            points = rng.choice(shows) if k == place else draw()
            points += crib() if k == len(order) - 1 else 0
            if dealers == dealer:
                x += points
            else:
                y += points
            if x >= target or y >= target:
                total += x >= target
                break
        else:
            total += table.chance(x, y, dealing=not dealer)
    return total / hands


@pytest.mark.parametrize("place", [0, 1, 2, 3])
def test_the_partnership_chance_of_a_keep_matches_simulated_hands(place: int) -> None:
    hand, scores = "5H 5C 6D JS 2C", (100, 104)
    options = discard_options(hand, place % 2 == 1, FOUR, scores=scores, place=place)
    for option in (options[0], options[-1]):
        assert option.win == pytest.approx(simulate_keep(option, hand, place, scores, 20000), abs=0.015)
