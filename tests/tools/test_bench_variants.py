"""``bench/bench_ai.py --variant``: strong against normal in one variant, seat-swapped, timed."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cribbage.engine.rules import get_rules
from cribbage.table.match import run_match, wilson_interval

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_ai.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ai", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = module  # the worker processes find the game function by this name
    spec.loader.exec_module(module)
    return module


def test_even_share_is_one_side_in_as_many(bench: ModuleType) -> None:
    assert bench.even_share(get_rules("three-player")) == pytest.approx(1 / 3)
    assert bench.even_share(get_rules("four-player")) == 0.5
    assert bench.even_share(get_rules("five-card")) == 0.5


def test_variant_bench_plays_the_games_of_cribbage_match(
    bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seed gives the same games as ``cribbage match --a strong --b normal``: every seat
    rotation of three players, the same wins and points; the share printed with its Wilson
    interval and the even share; strong's discard and play timed apart.  The games are to 31
    (the bench's rules with that target), a quarter as long as the variant's to 121."""
    rules = get_rules("three-player", target=31)
    monkeypatch.setattr(bench, "get_rules", lambda variant: get_rules(variant, target=31))
    result, times = bench.variant_strength("three-player", games=3, jobs=1, seed=6)
    assert result.rules == rules
    match = run_match("strong", "normal", 3, 6, 1, rules)
    assert result.games == 3
    assert (result.a_wins, result.tally["a"].points) == (match.a_wins, match.tally["a"].points)
    assert result.tally["b"].points == match.tally["b"].points
    # one discard per hand in each game, and plays: strong sits in one seat of three
    assert len(times["discard"]) == result.hands
    assert len(times["play"]) >= result.hands
    bench.print_variant(result, times)
    out = capsys.readouterr().out
    lo, hi = wilson_interval(result.a_wins, 3)
    lo, hi = round(lo, 4), round(hi, 4)  # as the match's JSON gives them
    assert f"in {result.a_wins / 3:.1%} of 3 games (95% CI {lo:.1%}-{hi:.1%}; even share 33.3%)" in out
    assert re.search(r"strong discard +p50 +[\d.]+ ms +p95 +[\d.]+ ms", out)
    assert re.search(r"strong play +p50 +[\d.]+ ms +p95 +[\d.]+ ms", out)


def test_variant_bench_rejects_an_unknown_variant(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--variant", "nine-card"])
    assert "invalid choice: 'nine-card'" in capsys.readouterr().err
