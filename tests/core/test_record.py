"""Game records: save, load, replay exactly, and clear errors for corrupt records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cribbage.cli import main
from cribbage.engine.dealing import next_dealer
from cribbage.engine.errors import RecordError
from cribbage.engine.record import Game, Match
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState


def finished_game(seed: int = 3, **options: Any) -> Game:
    game = Game(get_rules(**options), seed=seed, names=("Ann", "Bob"))
    rng = random.Random(seed)
    while not game.state.is_terminal:
        if game.state.is_chance:
            game.deal_chance()
        else:
            game.apply(rng.choice(game.state.legal_actions()))
    return game


def test_record_round_trips_through_a_file(tmp_path: Path) -> None:
    game = finished_game()
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state == game.state and loaded.to_json() == game.to_json()


def test_a_half_played_game_resumes_with_the_same_chance_steps(tmp_path: Path) -> None:
    full = finished_game(seed=9)
    data = full.to_json()
    del data["result"]
    half = Game.from_json({**data, "actions": data["actions"][:40]})
    rng_actions = full.actions[40:]
    for action in rng_actions:
        if half.state.is_chance:
            assert half.state.sample_chance(half.rng) == action  # same generator state
            half.apply(action)
        else:
            half.apply(action)
    assert half.state == full.state


def test_a_record_without_seed_replays_its_chance_steps() -> None:
    data = finished_game().to_json()
    data["seed"] = None
    assert Game.from_json(data).state.scores == finished_game().state.scores


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (
            lambda d: d["actions"].__setitem__(12, {"type": "play", "seat": 0, "card": "1X"}),
            "action 13 .*'1X'",
        ),
        (lambda d: d["actions"].__setitem__(3, {"type": "jump"}), "action 4 .*unknown action type"),
        (lambda d: d["actions"].__setitem__(1, {"type": "deal", "hands": [], "crib": []}), "action 2"),
        (lambda d: d["actions"].insert(5, d["actions"][5]), "action 7|action 6"),
        (lambda d: d.__setitem__("seed", 4), "does not match the record's seed"),
        (lambda d: d.__setitem__("rules", {"players": 9}), "bad rules"),
        (lambda d: d.__setitem__("format", "chess"), "not a cribbage-record"),
        (lambda d: d.__setitem__("actions", "none"), "no list of actions"),
        (lambda d: d["result"].__setitem__("scores", [121, 0]), "recorded result"),
    ],
)
def test_a_corrupt_record_names_the_first_bad_entry(corrupt: Any, message: str) -> None:
    data = finished_game().to_json()
    corrupt(data)
    with pytest.raises(RecordError, match=message):
        Game.from_json(data)


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(finished_game().to_json())[:200])
    with pytest.raises(RecordError, match="not JSON"):
        Game.load(path)


def test_replay_prints_the_game_hand_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game()
    path = tmp_path / "game.json"
    game.save(path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Hand 1" in out and "Ann" in out and "Starter:" in out and "Final scores" in out
    assert out.count("crib:") >= 1


def test_replay_of_a_corrupt_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    data = finished_game().to_json()
    data["actions"][20] = {"type": "play", "seat": 7, "card": "5H"}
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "action 21" in captured.err


@pytest.mark.parametrize("variant", ["short", "three-player", "four-player", "lowball"])
def test_the_next_games_dealer_follows_the_rule(variant: str) -> None:
    for seed in range(4):
        game = finished_game(seed, name=variant)
        state, result = game.state, game.result
        assert result is not None and state.first_dealer is not None
        assert next_dealer(state) == result.loser  # ACC: the loser's first seat (its side's number)
        for rule, expected in [("alternate", (state.first_dealer + 1) % state.players), ("cut", None)]:
            rules = game.rules.replace(next_dealer=rule)
            replayed = Game(rules, seed=seed, names=game.names)
            replayed.replay([a.to_json() for a in game.actions])
            assert next_dealer(replayed.state) == expected, rule
    assert next_dealer(GameState(get_rules(variant), dealer=1)) is None  # no result: cut for deal


@pytest.mark.parametrize("rule", ["loser", "alternate", "cut"])
def test_a_match_deals_each_next_game_by_the_rule(rule: str) -> None:
    match = Match(get_rules("short", next_dealer=rule), seed=5, dealer=1)
    rng = random.Random(0)
    for _ in range(3):
        game = match.new_game()
        while not game.state.is_terminal:
            if game.state.is_chance:
                game.deal_chance()
            else:
                game.apply(rng.choice(game.state.legal_actions()))
    assert match.games[0].first_dealer == 1
    for previous, game in zip(match.games, match.games[1:], strict=False):
        assert game.first_dealer == next_dealer(previous.state)
    if rule == "alternate":
        assert [g.state.first_dealer for g in match.games] == [1, 0, 1]
    match.new_game()
    with pytest.raises(RecordError, match="not over"):
        match.new_game()


def test_match_loser_deals_the_next_game_and_game_points_add_up() -> None:
    match = Match(get_rules("short"), seed=5)
    rng = random.Random(0)
    for _ in range(3):
        game = match.new_game()
        while not game.state.is_terminal:
            if game.state.is_chance:
                game.deal_chance()
            else:
                game.apply(rng.choice(game.state.legal_actions()))
    results = [g.result for g in match.games]
    assert all(r is not None for r in results)
    for previous, game in zip(match.games, match.games[1:], strict=False):
        assert previous.result is not None and game.first_dealer == previous.result.loser
    assert sum(match.game_points) == sum(r.game_points for r in results if r)
