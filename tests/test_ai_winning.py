"""The chance of winning: the solved tables against simulation, and its use near the end."""

from __future__ import annotations

import random

import pytest

from cribbage.ai.discard import ENDGAME_NEED, discard_options
from cribbage.ai.winning import HandModel, WinTable, solve, win_table
from cribbage.engine.rules import get_rules


def test_a_dealer_who_always_pegs_one_wins_from_level_or_ahead() -> None:
    """Each hand the dealer pegs the last card and nothing else scores: the deal alternates, so
    the player to deal wins exactly when it is not behind."""
    model = HandModel(pegging={(1, 0): 1.0}, pone_hand={0: 1.0}, dealer_hand={0: 1.0}, crib={0: 1.0})
    win = solve(model, 7)
    assert all(win[d][p] == (1.0 if d >= p else 0.0) for d in range(7) for p in range(7))


def simulate(model: HandModel, target: int, dealer: int, pone: int, games: int, seed: int) -> float:
    """The dealer's share of wins when hands are drawn from the model, counted in order."""
    rng = random.Random(seed)
    pegs, peg_weights = zip(*model.pegging.items(), strict=True)

    def draw(dist: dict[int, float]) -> int:
        return rng.choices(list(dist), weights=list(dist.values()))[0]

    wins = 0
    for _ in range(games):
        scores = [dealer, pone]  # [the first dealer, the other]
        deals = 0
        while True:
            d, p = deals % 2, 1 - deals % 2
            a, b = rng.choices(pegs, weights=peg_weights)[0]
            scores[d] += a
            scores[p] += b
            if scores[d] >= target or scores[p] >= target:
                first = d if scores[p] < target else p if scores[d] < target else rng.choice((d, p))
                wins += first == 0
                break
            scores[p] += draw(model.pone_hand)
            if scores[p] >= target:
                wins += p == 0
                break
            scores[d] += draw(model.dealer_hand) + draw(model.crib)
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
