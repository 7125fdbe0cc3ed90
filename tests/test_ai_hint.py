"""Hints: the analysis functions, their JSON, and ``cribbage hint``."""

from __future__ import annotations

import json

import pytest

from conftest import deal_game, play
from cribbage.ai import KeepOption, PlaySituation, discard_options, play_options
from cribbage.cli import main
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.rules import get_rules


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_discard_options_rank_every_keep() -> None:
    options = discard_options("5H 5C 6D JS QH 2C", dealer=False)
    assert len(options) == 15
    assert [o.total for o in options] == sorted((o.total for o in options), reverse=True)
    best = options[0]
    assert isinstance(best, KeepOption)
    assert best.total == pytest.approx(best.hand - best.crib + best.pegging)
    assert set(best.to_json()) == {"keep", "discard", "hand", "crib", "own_crib", "pegging", "total"}


def test_discard_options_in_other_variants() -> None:
    assert len(discard_options("5H 5C 6D JS QH", dealer=True, rules=get_rules("five-card"))) == 10
    assert len(discard_options("5H 5C 6D JS QH 2C 9S", dealer=True, rules=get_rules("seven-card"))) == 21
    three = discard_options("5H 5C 6D JS QH", dealer=False, rules=get_rules("three-player"), exact=True)
    assert len(three) == 5 and all(len(o.keep) == 4 for o in three)


def test_play_options_value_every_legal_card_with_a_reason() -> None:
    situation = PlaySituation.typed(parse_cards("7C 8D 2S 6H"), parse_cards("TD 5H"))
    options = play_options(situation)
    assert {str(o.card) for o in options} == {"7C", "8D", "2S", "6H"}
    reasons = {str(o.card): o.reason for o in options}
    assert reasons["6H"] == "leaves 21: a ten-card makes 31"
    assert reasons["7C"] == "avoids leaving 21"
    assert options[-1].card == Card.parse("6H")
    assert set(options[0].to_json()) == {"card", "points", "value", "reason"}


def test_play_options_from_a_view() -> None:
    state = deal_game(("7C 8D JS QH AC 2C", "7S 5H 3D KD 4C 4S"), "6S", ("AC 2C", "4C 4S"))
    play(state, "3D", "7C")
    options = play_options(state.view(1))  # on 3 and 7: the 7 pairs, the 5 makes fifteen
    reasons = {str(o.card): o.reason for o in options}
    assert reasons["7S"] == "pairs the 7 for 2" and reasons["5H"] == "fifteen for 2"
    assert options[0].points == 2
    fifteen = play_options(PlaySituation.typed(parse_cards("5S 9C"), parse_cards("KH")))
    assert fifteen[0].card == Card.parse("5S") and fifteen[0].reason == "fifteen for 2"
    lead = play_options(PlaySituation.typed(parse_cards("5S 9C 3D KH")))
    reasons = {str(o.card): o.reason for o in lead}
    assert reasons["3D"].startswith("safe lead") and reasons["5S"].startswith("leaves 5")
    assert lead[-1].card == Card.parse("5S")


def test_hint_discard_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone")
    assert status == 0
    lines = out.splitlines()
    assert "opponent's crib" in lines[0] and "total" in lines[1]
    assert lines[2].startswith("5♥ 5♣ J♠ Q♥") and len(lines) == 17


def test_hint_discard_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "hint", "discard", "5H 5C 6D JS QH 2C", "--dealer", "--scores", "100,110", "--exact", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["dealer"] is True and data["exact"] is True and data["scores"] == [100, 110]
    assert len(data["options"]) == 15 and data["options"][0]["own_crib"] is True


def test_hint_discard_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "hint",
        "discard",
        "5H",
        "5C",
        "6D",
        "JS",
        "QH",
        "--dealer",
        "--variant",
        "five-card",
        "--json",
    )
    assert status == 0 and all(len(o["keep"]) == 3 for o in json.loads(out)["options"])


def test_hint_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "hint",
        "play",
        "--hand",
        "7C",
        "8D",
        "2S",
        "--sequence",
        "TD",
        "5H",
        "--count",
        "15",
        "--json",
    )
    data = json.loads(out)
    assert status == 0 and data["count"] == 15
    assert {o["card"] for o in data["options"]} == {"7C", "8D", "2S"}
    status, out, _ = run(capsys, "hint", "play", "--hand", "7C", "5D", "--played", "KH", "9S")
    assert status == 0 and "reason" in out.splitlines()[1]


@pytest.mark.parametrize(
    "args",
    [
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "--pone"),  # five cards
        ("hint", "discard", "5H", "5H", "6D", "JS", "QH", "2C", "--pone"),  # a duplicate
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "XX", "--pone"),  # a bad card
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C"),  # neither --dealer nor --pone
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--scores", "100"),
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--scores", "100,121"),
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--variant", "nope"),
        ("hint", "play", "--hand", "7C", "--sequence", "TD", "5H", "--count", "14"),
        ("hint", "play", "--hand", "KC", "--sequence", "TD", "5H", "9C"),  # cannot play: go
        ("hint", "play", "--hand", "7C", "--variant", "three-player"),
        ("hint", "play", "--hand", "7C", "8C", "9C", "TC", "JC"),  # too many cards
    ],
)
def test_bad_hint_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith("cribbage: error:") and err.count("\n") == 1
