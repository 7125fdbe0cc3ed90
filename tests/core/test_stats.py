"""The exact show-score distribution against the brute-force golden files (a "perft" for the show).

The golden files in ``tests/golden`` were written by ``tools/brute_force_distribution.py``, which
scores every hand with every starter one deal at a time; :func:`hand_distribution` must agree
with them exactly, count for count.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from cribbage.engine.errors import RulesError
from cribbage.engine.stats import HandDistribution, hand_distribution

GOLDEN = Path(__file__).parents[1] / "golden"

GOLDEN_FILES = [
    ("hand_distribution.json", 4, False),
    ("hand_distribution_crib.json", 4, True),
    ("hand_distribution_3cards.json", 3, False),
    ("hand_distribution_5cards.json", 5, False),
    ("hand_distribution_5cards_crib.json", 5, True),
]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def hands() -> HandDistribution:
    return hand_distribution()


@pytest.fixture(scope="module")
def cribs() -> HandDistribution:
    return hand_distribution(crib=True)


@pytest.mark.parametrize(("name", "hand_size", "crib"), GOLDEN_FILES)
def test_distribution_equals_the_brute_force_golden_file(name: str, hand_size: int, crib: bool) -> None:
    golden = load(name)
    assert (golden["hand_size"], golden["crib"]) == (hand_size, crib)
    dist = hand_distribution(crib=crib, hand_size=hand_size)
    assert dist.to_json()["distribution"] == golden["distribution"]
    assert dist.hands == golden["hands"] == comb(52, hand_size) * (52 - hand_size)
    assert dist.mean_fraction == Fraction(golden["total_points"], golden["hands"])


def test_every_four_card_hand_with_every_starter_is_12994800_deals(hands: HandDistribution) -> None:
    assert hands.hands == 12_994_800 == comb(52, 4) * 48
    assert hands.hand_size == 4 and not hands.crib


def test_mean_hand_is_4_7692_and_mean_crib_4_7348(hands: HandDistribution, cribs: HandDistribution) -> None:
    assert round(hands.mean, 4) == 4.7692
    assert round(cribs.mean, 4) == 4.7348


def test_29_occurs_four_times(hands: HandDistribution, cribs: HandDistribution) -> None:
    assert hands.count(29) == cribs.count(29) == 4
    assert hands.max_score == cribs.max_score == 29
    assert hands.count(30) == 0


def test_19_25_26_27_never_occur(hands: HandDistribution, cribs: HandDistribution) -> None:
    for points in (19, 25, 26, 27):
        assert hands.count(points) == cribs.count(points) == 0
    assert [p for p, n in hands.items() if n == 0] == [19, 25, 26, 27]


def test_only_flushes_differ_between_hand_and_crib(hands: HandDistribution, cribs: HandDistribution) -> None:
    # Scores 17 and above 20 need no four-card flush, so hand and crib agree there... mostly:
    # a four-card flush is worth 4, so the two tables differ but keep the same total.
    assert hands.hands == cribs.hands
    assert hands.mean > cribs.mean
    assert hands.count(0) < cribs.count(0)


def test_distribution_json_form(hands: HandDistribution) -> None:
    data = hands.to_json()
    assert set(data) == {"hands", "crib", "hand_size", "distribution", "mean"}
    assert data["distribution"]["0"] == 1_009_008
    assert data["distribution"]["19"] == 0
    assert list(data["distribution"]) == [str(p) for p in range(30)]


def test_bad_hand_size_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="hand size must be 3, 4 or 5, not 6"):
        hand_distribution(hand_size=6)


def test_distribution_is_fast() -> None:
    # The target is 1 s on a 2-core machine; the bound here is loose so a busy CI cannot fail it,
    # but a return to enumerating 13 million deals (15 s or more) would.
    start = time.perf_counter()
    hand_distribution()
    hand_distribution(crib=True)
    assert time.perf_counter() - start < 4.0
