"""Every variant's hint reads that variant's own tables (issue 18, item 2).

The crib: the hint's expected crib for a throw (the ``crib`` of its keep options) must equal a
direct simulation of *that* variant's crib, within the sampling error of both.  The simulation
here is written apart from the tool that builds the tables (``tools/make_crib_tables.py``) and
follows the tables' model of the other players: every other seat is dealt a hand from the pack
(less the cards thrown) and throws the cards whose keep has the best exact average show, plus
the crib's value against random cards when the crib is its side's and minus it otherwise (in
lowball, where points count against their side, the fewest instead); the cards the rules deal
to the crib come from the pack, and the crib is scored exactly over every starter.

Each comparison is made discriminating: the throws are those where the variant's table and the
table it would otherwise have read differ most (the standard game's, or the crib against random
cards that a missing table falls back to), and that other table must be many standard errors
away from the simulation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from itertools import combinations
from math import sqrt
from typing import Any

import pytest

from cribbage.ai.advice import keep_advice
from cribbage.ai.discard import discard_options
from cribbage.ai.tables import (
    Starters,
    crib_expectation,
    crib_value,
    pegging_value,
    table_shape,
    throw_class,
)
from cribbage.ai.winning import HandModel, convolve, deal_shape, solve, win_table
from cribbage.engine.cards import DECK, Card
from cribbage.engine.rules import VARIANTS, Rules, get_rules
from cribbage.engine.scoring import hand_points
from cribbage.engine.state import GameState
from cribbage.engine.view import CHANCE

REJECT = 6.0
"""How far the table a variant must not read is from its simulated crib, at least: the root of
the sum of the squares of its distances in standard errors over the throws compared (the same
measure of the variant's own table is about 2.4 by chance, and above 6 about once in a
million)."""
AGREE = 4.0
"""How many standard errors the variant's own table may be from the simulation, at most, for
every throw."""
AGREE_ALL = 5.0
"""The same measure as :data:`REJECT` for the variant's own table, at most."""
THROWS = 6
"""Throws compared for each variant and crib owner."""

# The other table each variant would read without its own, and the samples (for its own crib,
# for an opponent's) that make the comparison discriminating: the closer the two tables, the
# more samples.  Each count puts the other table about 8 standard errors away or more (9.5 to
# 25 where the tables differ more, with fewer samples: the distance grows as the root of the
# samples while the simulation's error is the larger, so a quarter of the samples keeps half of
# it).
OTHER_TABLE = {
    "standard": ("uniform", (150, 500)),
    "short": ("uniform", (100, 300)),
    "lowball": ("p2-deal6-throw2-crib4", (100, 150)),
    "five-card": ("p2-deal6-throw2-crib4", (1800, 1100)),
    "seven-card": ("p2-deal6-throw2-crib4", (600, 1200)),
    "crib-deal": ("uniform", (1600, 3000)),
    "three-player": ("uniform", (600, 2500)),
    "four-player": ("uniform", (800, 2000)),
}


def test_every_variant_is_compared() -> None:
    assert set(OTHER_TABLE) == set(VARIANTS)


@cache
def _data_file(name: str) -> dict[str, Any]:
    """A shipped data file of ``cribbage.ai`` (``crib.json``, ``winning.json``), read once."""
    text = resources.files("cribbage.ai").joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def table(shape: str, own: bool) -> dict[str, float]:
    entry = _data_file("crib.json")["tables"][shape]
    return {k: float(v) for k, v in entry["own" if own else "other"].items()}


def other_table(variant: str, own: bool) -> dict[str, float]:
    name = OTHER_TABLE[variant][0]
    if name == "uniform":
        uniform = _data_file("crib.json")["tables"][table_shape(get_rules(variant))]["uniform"]
        return {k: float(v) for k, v in uniform.items()}
    return table(name, own)


def throw_of(name: str) -> tuple[Card, ...]:
    """Cards of a throw class (``5Ts``, ``46``, ``J``): suited in clubs, else clubs then hearts."""
    suited = name.endswith("s")
    ranks = [" A23456789TJQK".index(ch) for ch in name.rstrip("s")]
    return tuple(Card(rank, 0 if suited or i == 0 else 2) for i, rank in enumerate(ranks))


def hint_crib(thrown: tuple[Card, ...], rules: Rules, own: bool, rng: random.Random) -> float:
    """The hint's expected crib for ``thrown``, from its keep options for a hand holding it."""
    rest = [c for c in DECK if c not in thrown]
    hand = (*thrown, *rng.sample(rest, rules.deal - len(thrown)))
    options = discard_options(hand, dealer=own, rules=rules)
    (option,) = (o for o in options if set(o.discard) == set(thrown))
    assert option.own_crib is own
    return option.crib


# --------------------------------------------------------------------------- the simulation


@cache
def random_crib(thrown: tuple[Card, ...], crib_size: int) -> float:
    """The crib of a throw against random cards, exactly."""
    return crib_expectation(thrown, [c for c in DECK if c not in thrown], crib_size)


_RANDOM_CRIBS: dict[tuple[int, int], float] = {}


def bits_of(cards: Sequence[Card]) -> int:
    """The cards as a set of bits (:attr:`Card.bit`)."""
    bits = 0
    for card in cards:
        bits |= card.bit
    return bits


def random_crib_of(thrown: Sequence[Card], crib_size: int, bits: int | None = None) -> float:
    # Every throw of one class has the same value (the suits are symmetric): one computation
    # each, then one look-up by the cards (``bits``, as a set of bits) for every later throw.
    key = (bits_of(thrown) if bits is None else bits, crib_size)
    value = _RANDOM_CRIBS.get(key)
    if value is None:
        value = _RANDOM_CRIBS[key] = random_crib(throw_of(throw_class(thrown)), crib_size)
    return value


def others_throw(hand: Sequence[Card], rules: Rules, feeds: bool) -> tuple[Card, ...]:
    """What another seat throws: the best average hand ± the crib against random cards."""
    starters = Starters.excluding(hand)
    sign = 1 if feeds else -1
    polarity = -1 if rules.lowball else 1
    crib_size = rules.crib_size
    best: tuple[float, tuple[Card, ...]] | None = None
    for thrown in combinations(hand, rules.discard):
        bits = bits_of(thrown)
        keep = [c for c in hand if not bits & c.bit]
        value = starters.average(keep) + sign * random_crib_of(thrown, crib_size, bits)
        value *= polarity
        if best is None or value > best[0]:
            best = (value, thrown)
    assert best is not None
    return best[1]


def simulate(
    thrown: tuple[Card, ...], rules: Rules, own: bool, samples: int, rng: random.Random
) -> tuple[float, float]:
    """The crib's mean and the standard deviation of one deal, seat 0 throwing ``thrown``.

    Seat 0 deals when the crib is its side's (``own``), else seat 1 deals.  Every other seat
    throws to help a crib of the dealer's side (a partner's crib is its own side's) and to spoil
    it otherwise; the rules' cards from the pack complete the crib; every starter is counted.
    """
    dealer = 0 if own else 1
    others = range(1, rules.players)
    pool = [c for c in DECK if c not in thrown]
    values: list[float] = []
    for _ in range(samples):
        dealt = rng.sample(pool, rules.deal * len(others) + rules.crib_from_deck)
        crib = list(thrown)
        for i, seat in enumerate(others):
            hand = dealt[i * rules.deal : (i + 1) * rules.deal]
            crib += others_throw(hand, rules, feeds=rules.side_of(seat) == rules.side_of(dealer))
        crib += dealt[len(others) * rules.deal :]
        assert len(crib) == rules.crib_size
        taken = bits_of(dealt)
        starters = [c for c in pool if not taken & c.bit]
        value = Starters(starters).average(crib, crib=True)
        if not values:  # the fast average is the engine's count over every starter
            exact = sum(hand_points(crib, s, crib=True) for s in starters) / len(starters)
            assert value == pytest.approx(exact)
        values.append(value)
    mean = sum(values) / samples
    spread = sqrt(sum((v - mean) ** 2 for v in values) / (samples - 1))
    return mean, spread


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("own", [True, False], ids=["own-crib", "opponents-crib"])
@pytest.mark.parametrize("variant", list(OTHER_TABLE))
def test_the_hints_crib_is_the_variants_simulated_crib(variant: str, own: bool) -> None:
    rules = get_rules(variant)
    mine, other = table(table_shape(rules), own), other_table(variant, own)
    samples = OTHER_TABLE[variant][1][0 if own else 1]
    table_samples = _data_file("crib.json")["samples"]
    # The throws where reading the wrong table would show most.
    names = sorted(mine, key=lambda k: (-abs(mine[k] - other[k]), k))[:THROWS]
    rng = random.Random(f"{variant}:{own}")
    right, wrong = [], []
    for name in names:
        thrown = throw_of(name)
        hint = hint_crib(thrown, rules, own, rng)
        assert hint == pytest.approx(mine[name], abs=1e-9)
        assert hint == crib_value(thrown, rules, own)
        mean, spread = simulate(thrown, rules, own, samples, rng)
        # The simulation's error and the table's own (built from as many deals per throw).
        error = sqrt(spread**2 / samples + spread**2 / table_samples)
        right.append((hint - mean) / error)
        wrong.append((other[name] - mean) / error)
    assert all(abs(z) <= AGREE for z in right), (names, right)
    assert sqrt(sum(z * z for z in right)) <= AGREE_ALL, (names, right)
    assert sqrt(sum(z * z for z in wrong)) >= REJECT, (names, wrong)


# --------------------------------------------------------------------------- whose crib


def discarding(variant: str, seed: int) -> GameState:
    """A game of the variant dealt and waiting for the throws."""
    rng = random.Random(seed)
    state = GameState(get_rules(variant), dealer=0)
    while state.to_act == CHANCE:
        state.apply(state.sample_chance(rng))
    return state


@pytest.mark.parametrize("variant", list(OTHER_TABLE))
def test_each_seats_hint_reads_its_own_or_an_opponents_crib(variant: str) -> None:
    """Every seat's keep advice reads the variant's table for a crib of its side (the dealer,
    and in partnerships the dealer's partner) or of an opponent's."""
    state = discarding(variant, seed=7)
    rules = state.rules
    for seat in range(rules.players):
        own = rules.side_of(seat) == rules.side_of(0)
        for option in keep_advice(state.view(seat)):
            assert option.own_crib is own
            assert option.crib == table(table_shape(rules), own)[throw_class(option.discard)]


# --------------------------------------------------------------------------- the chance of winning

WIN_TABLES = {
    "standard": "deal6-throw2-crib0-121",
    "short": "deal6-throw2-crib0-61",
    "five-card": "deal5-throw2-crib0-one-61",
    "seven-card": "deal7-throw2-crib0-151",
    "crib-deal": "deal5-throw1-crib2-121",
    "lowball": "deal6-throw2-crib0-lowball-121",
    "four-player": "p4-deal5-throw1-crib0-121",
    "three-player": None,
}
"""Each variant's own table of chances in ``data/winning.json`` (three players have none)."""


def test_every_variant_has_its_win_table_named() -> None:
    assert set(WIN_TABLES) == set(VARIANTS)
    named = [name for name in WIN_TABLES.values() if name is not None]
    assert len(set(named)) == len(named)


@pytest.mark.parametrize(
    ("variant", "target"), [(v, None) for v in WIN_TABLES] + [("seven-card", 181), ("standard", 91)]
)
def test_each_variant_reads_its_own_win_table(variant: str, target: int | None) -> None:
    rules = get_rules(variant) if target is None else get_rules(variant, target=target)
    name = WIN_TABLES[variant] if target is None else f"{deal_shape(rules)}-{target}"
    table = win_table(rules)
    if name is None or name not in _data_file("winning.json")["tables"]:
        # No table of its own (three players, a target not shipped): none, not another's.
        assert (variant, target) in (("three-player", None), ("standard", 91))
        assert table is None
        return
    assert table is not None and table.target == rules.target and table.lowball == rules.lowball
    shape = name.rsplit("-", 1)[0]
    assert shape == deal_shape(rules)
    assert table.model == HandModel.from_json(_data_file("winning.json")["models"][shape])
    assert [[round(v * 10000) for v in row] for row in table.dealer_wins] == _data_file("winning.json")[
        "tables"
    ][name]


@pytest.mark.parametrize(
    ("variant", "target"), [(v, None) for v in WIN_TABLES if v != "three-player"] + [("seven-card", 181)]
)
def test_each_win_table_is_sane(variant: str, target: int | None) -> None:
    """At 0-0 the first dealer is a little ahead (in lowball a little behind: the dealer's
    side scores more in a hand, and reaching the target loses); the side that reaches the
    target has won (lost in lowball); the two sides' chances add up to one; and points help
    (hurt in lowball)."""
    rules = get_rules(variant) if target is None else get_rules(variant, target=target)
    table = win_table(rules)
    assert table is not None
    t = rules.target
    first = table.chance(0, 0, dealing=True)
    if rules.lowball:
        assert 0.40 < first < 0.49
    else:
        assert 0.52 < first < 0.60
    reached = 0.0 if rules.lowball else 1.0
    assert table.chance(t, t - 1, dealing=True) == table.chance(t, 0, dealing=False) == reached
    assert table.chance(0, t, dealing=True) == 1.0 - reached
    # The pone one point from the target counts first: it wins (lowball: it loses).
    assert table.chance(t - 1, t // 2, dealing=False) == pytest.approx(reached, abs=0.002)
    for mine, theirs in ((0, 0), (t // 2, t - 20), (t - 5, t - 3), (t - 1, t - 1)):
        assert table.chance(mine, theirs, True) + table.chance(theirs, mine, False) == pytest.approx(1.0)
    rows = table.dealer_wins
    sign = -1 if rules.lowball else 1
    step = max(1, t // 12)
    assert all(sign * (rows[d + 1][p] - rows[d][p]) >= -1e-3 for d in range(t - 1) for p in range(0, t, step))
    assert all(sign * (rows[d][p + 1] - rows[d][p]) <= 1e-3 for d in range(0, t, step) for p in range(t - 1))


def test_the_partnership_solve_counts_the_four_hands_in_order() -> None:
    """With partners the show alternates sides (the pone, the dealer's partner, the pone's
    partner, the dealer and the crib): the solved table matches games drawn from the model and
    counted in that order, and differs from counting each side's hands together."""
    model = HandModel(
        pegging={(1, 0): 0.3, (2, 1): 0.3, (0, 3): 0.2, (4, 2): 0.2},
        pone_hand={0: 0.3, 4: 0.4, 8: 0.3},
        dealer_hand={0: 0.4, 6: 0.6},
        crib={0: 0.5, 4: 0.5},
        dealer_partner_hand={2: 0.5, 9: 0.5},
        pone_partner_hand={0: 0.6, 7: 0.4},
    )
    target = 31
    win = solve(model, target)
    rng = random.Random(5)
    order = [(1, model.pone_hand), (0, model.dealer_partner_hand), (1, model.pone_partner_hand)]
    order += [(0, model.dealer_hand), (0, model.crib)]

    def draw(dist: dict[int, float] | None) -> int:
        assert dist is not None
        return rng.choices(list(dist), weights=list(dist.values()))[0]

    def play(dealer: int, pone: int) -> bool:
        """Whether the first dealer's side wins one game from these scores."""
        scores = [dealer, pone]  # the first dealer's side, the other
        for deal in range(1000):
            d = deal % 2
            a, b = rng.choices(list(model.pegging), weights=list(model.pegging.values()))[0]
            scores[d] += a
            scores[1 - d] += b
            if max(scores) >= target:
                both = min(scores) >= target
                return rng.random() < 0.5 if both else scores[0] >= target
            for side, dist in order:
                seat = d if side == 0 else 1 - d
                scores[seat] += draw(dist)
                if scores[seat] >= target:
                    return seat == 0
        raise AssertionError("a game without end")

    for dealer, pone in ((0, 0), (20, 24), (25, 12)):
        games = 5000
        simulated = sum(play(dealer, pone) for _ in range(games)) / games
        assert win[dealer][pone] == pytest.approx(simulated, abs=0.025)
    together = replace(
        model,
        dealer_partner_hand=None,
        pone_partner_hand=None,
        pone_hand=convolve(model.pone_hand, model.pone_partner_hand or {}),
    )
    assert together.dealer_partner_hand is None
    assert (
        max(
            abs(a - b)
            for r1, r2 in zip(win, solve(together, target), strict=True)
            for a, b in zip(r1, r2, strict=True)
        )
        > 0.05
    )


# --------------------------------------------------------------------------- pegging


@cache
def _pegging_file() -> dict[str, Any]:
    text = resources.files("cribbage.ai").joinpath("data", "pegging.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    ("variant", "name"),
    [("standard", "4"), ("five-card", "3"), ("seven-card", "5"), ("short", "4"), ("three-player", "p3-4")],
)
def test_each_variant_reads_its_own_pegging_table(variant: str, name: str) -> None:
    """The keep's pegging in the hint is its variant's table entry: two players by the size of
    the kept hand, three players their own table (the player's side dealing, or not)."""
    rules = get_rules(variant)
    table = _pegging_file()["tables"][name]
    rng = random.Random(variant)
    for dealer in (True, False):
        hand = rng.sample(DECK, rules.deal)
        for option in discard_options(hand, dealer=dealer, rules=rules):
            ranks = "".join(c.rank_char for c in sorted(option.keep, key=lambda c: c.rank))
            assert option.pegging == table["dealer" if dealer else "pone"][ranks]


def test_three_player_pegging_is_sane() -> None:
    """Low cards peg better than high ones, and dealing (playing last) is worth something."""
    rules = get_rules("three-player")
    low, high = tuple(throw_of("A234")), tuple(throw_of("TJQK"))
    for dealer in (True, False):
        assert pegging_value(low, rules, dealer) > pegging_value(high, rules, dealer) + 1
    table = _pegging_file()["tables"]["p3-4"]
    dealer, pone = table["dealer"], table["pone"]
    assert sum(dealer.values()) / len(dealer) > sum(pone.values()) / len(pone) + 0.5


def test_four_players_have_no_pegging_table_yet() -> None:
    """Not built (see docs/ai.md): the keep's pegging is 0, not another variant's."""
    assert "p4-4" not in _pegging_file()["tables"]
    assert all(o.pegging == 0 for o in discard_options("5S 6C 8D TD TH", True, get_rules("four-player")))
