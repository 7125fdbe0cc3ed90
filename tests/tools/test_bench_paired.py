"""``bench/bench_paired.py``: a change to `strong` measured on the same deals as the shipped player."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cribbage.ai import pegging
from cribbage.ai.situation import PlaySituation
from cribbage.ai.worlds import World, splits
from cribbage.engine.actions import Play
from cribbage.engine.cards import card_order, parse_cards
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.players.levels import NormalPlayer
from cribbage.table.table import Table

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_paired.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_paired", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_paired"] = module
    spec.loader.exec_module(module)
    return module


def test_a_trial_that_changes_nothing_plays_the_same_deals(bench: ModuleType) -> None:
    """The pairing: the same deals and players give the same hands, event for event."""
    shipped, same = bench.run(
        "four-player", deals=1, seed=5, jobs=1, trials=["cribbage.ai.pegging:MAX_JOINT=64"]
    )
    assert len(shipped) == 2  # one deal, with strong's pair in either pair of seats
    assert same == shipped
    assert shipped == bench.run("four-player", deals=1, seed=5, jobs=1, trials=[])[0]


def test_a_trial_changes_the_play_for_its_deals_only(bench: ModuleType) -> None:
    """A one-card horizon plays differently; the attribute is back as shipped afterwards."""
    horizon = pegging.HORIZON
    shipped, short = bench.run(
        "four-player",
        deals=1,
        seed=5,
        jobs=1,
        trials=["cribbage.ai.pegging:HORIZON=dict({2: 1, 3: 1, 4: 1})"],
    )
    assert pegging.HORIZON is horizon
    assert any(a[1] != b[1] for a, b in zip(shipped, short, strict=True))
    lines = bench.report(["shipped", "short"], [shipped, short])
    assert lines[0].startswith("shipped: net ") and "n=2)" in lines[0]
    assert lines[2].startswith("short - shipped: ") and "of 2 played differently" in lines[2]


def test_deals_from_late_scores_give_the_chance_of_winning_after_the_hand(bench: ModuleType) -> None:
    """``--scores``: both sides start at the drawn scores; at 119-120 every hand ends the game
    (the play alone pegs a point), so the chance after it is 1 or 0, and the two seatings of a
    deal start from the same scores."""
    (late,) = bench.run("standard", deals=3, seed=7, jobs=1, trials=[], scores=(119, 120))
    assert len(late) == 6 and all(w in (0.0, 1.0) for _, _, w in late)
    assert all(119 <= s <= 120 for s in bench.start_scores(7, (119, 120)))
    (middle,) = bench.run("standard", deals=2, seed=7, jobs=1, trials=[], scores=(60, 70))
    assert all(w is not None and 0.0 < w < 1.0 for _, _, w in middle)
    (zero,) = bench.run("standard", deals=1, seed=7, jobs=1, trials=[])
    assert all(w is None for _, _, w in zero)
    line = bench.report(["shipped", "again"], [middle, middle])
    assert "after the hand" in line[0] and "chance of winning +0.00% ± 0.00%" in line[2]


def test_scores_out_of_the_game_are_refused(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    three = ["--variant", "three-player", "--scores", "5-9"]  # three scores: no table
    for args in (["--scores", "121-121"], ["--scores", "5-3"], ["--scores", "a-b"], three):
        with pytest.raises(SystemExit):
            bench.main(["--deals", "2", *args])
        assert "--scores" in capsys.readouterr().err


def _first_play(seed: int) -> Game:
    """A four-player game at the first card of its play (every seat threw its first card)."""
    game = Game(get_rules("four-player"), seed=seed)
    table = Table(game, [None] * 4)
    table.run()
    while not any(isinstance(a, Play) for a in game.state.view(game.state.to_act).legal):
        table.act(game.state.view(game.state.to_act).legal[0])
    return game


@pytest.mark.parametrize("see", ["opponents", "partner"])
def test_a_seat_is_told_the_hands_of_some_seats_and_guesses_the_others(bench: ModuleType, see: str) -> None:
    game = _first_play(4)
    state = game.state
    seat = state.to_act
    view = state.view(seat)
    sit = PlaySituation.from_view(view)
    truth = World(
        tuple(tuple(h) for h in state.hands), tuple(c for c in state.crib if c not in view.discards)
    )
    bench.bench_ceiling._TRUTH["world"] = truth
    sampler = (bench.Partial if see == "opponents" else bench.PartnerOnly)(sit, random.Random(1))
    partner = (seat + 2) % 4
    told = [s for s in range(4) if s != seat and (s == partner) == (see == "partner")]
    guessed = [s for s in range(4) if s != seat and s not in told]
    worlds = [sampler.draw() for _ in range(20)]
    for world in worlds:
        assert world.hands[seat] == truth.hands[seat]
        assert all(world.hands[s] == truth.hands[s] for s in told)
        told_cards = {c for s in told for c in truth.hands[s]}
        guesses = [c for s in guessed for c in world.hands[s]] + list(world.crib)
        assert len(set(guesses)) == len(guesses)
        assert set(guesses) <= set(sit.unseen()) - told_cards
        assert len(world.crib) == len(truth.crib)
        assert [len(world.hands[s]) for s in guessed] == [len(truth.hands[s]) for s in guessed]
    assert len({world.hands[guessed[0]] for world in worlds}) > 1  # guessed, not told


def test_normals_model_gives_its_keep_and_its_card(bench: ModuleType) -> None:
    rules = get_rules("four-player")
    cards = parse_cards("5H 5D TC 2S KD")
    thrown = set(NormalPlayer(0).throw(sorted(cards, key=card_order), rules))
    weights = bench._normal_keep(cards, 4)
    best = max(weights, key=lambda w: w[2])
    assert {cards[i] for i in best[1]} == thrown
    assert [w[:2] for w in weights] == list(splits(5, 1))
    assert sum(w for *_, w in weights) == pytest.approx(1.0)
    reading = bench._NormalReading()
    # On a 10 the points-taker pairs it, then makes 15 with a 5; it never leaves 21 by choice.
    assert reading.probability([10, 5, 2], (10,), 10, 10) == 1.0
    assert reading.probability([10, 5, 2], (10,), 10, 5) < 0.01
    assert reading.probability([5, 2], (10,), 10, 5) == 1.0


@pytest.mark.parametrize(
    ("variant", "text", "problem"),
    [
        ("standard", "see=partner", "see= takes"),
        ("lowball", "model=normal", "model=normal"),
        ("standard", "cribbage.ai.pegging:NOPE=1", "no attribute 'NOPE'"),
        ("standard", "budget", "neither"),
    ],
)
def test_a_wrong_trial_is_refused_by_name(bench: ModuleType, variant: str, text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        bench.Trial(text, get_rules(variant))
