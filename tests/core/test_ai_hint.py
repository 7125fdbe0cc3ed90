"""Hints: the analysis functions, their JSON, and ``cribbage hint``."""

from __future__ import annotations

import json
import re

import pytest

from cribbage.ai import (
    KeepOption,
    PlayOption,
    PlaySituation,
    Reason,
    ReasonCode,
    discard_options,
    play_options,
)
from cribbage.ai.pegging import reasons
from cribbage.cli import main
from cribbage.cli.hint import format_discards, format_plays
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.rules import get_rules
from cribbage.text import reason_text, reasons_text
from engine_fixtures import deal_game, play


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


def codes(options: list[PlayOption]) -> dict[str, list[dict[str, object]]]:
    """Each card's reasons as JSON."""
    return {str(o.card): [r.to_json() for r in o.reasons] for o in options}


def test_play_options_value_every_legal_card_with_its_reasons() -> None:
    situation = PlaySituation.typed(parse_cards("7C 8D 2S 6H"), parse_cards("TD 5H"))
    options = play_options(situation)
    assert {str(o.card) for o in options} == {"7C", "8D", "2S", "6H"}
    found = codes(options)
    assert found["6H"] == [{"code": "leaves", "count": 21, "makes": 31}]
    assert found["7C"] == [{"code": "avoids", "count": 21}]
    assert options[-1].card == Card.parse("6H")
    assert options[-1].reasons == (Reason(ReasonCode.LEAVES, count=21, makes=31),)
    assert set(options[0].to_json()) == {"card", "points", "value", "reasons"}
    assert isinstance(options[0].to_json()["reasons"], list)


def test_play_options_from_a_view() -> None:
    state = deal_game(("7C 8D JS QH AC 2C", "7S 5H 3D KD 4C 4S"), "6S", ("AC 2C", "4C 4S"))
    play(state, "3D", "7C")
    options = play_options(state.view(1))  # on 3 and 7: the 7 pairs, the 5 makes fifteen
    found = codes(options)
    assert found["7S"] == [{"code": "combo", "kind": "pair", "points": 2, "rank": "7"}]
    assert found["5H"] == [{"code": "combo", "kind": "fifteen", "points": 2}]
    assert options[0].points == 2
    fifteen = play_options(PlaySituation.typed(parse_cards("5S 9C"), parse_cards("KH")))
    assert fifteen[0].card == Card.parse("5S")
    assert fifteen[0].reasons == (Reason(ReasonCode.COMBO, kind="fifteen", points=2),)
    lead = play_options(PlaySituation.typed(parse_cards("5S 9C 3D KH")))
    found = codes(lead)
    assert found["3D"] == [{"code": "safe_lead"}]
    assert found["5S"] == [{"code": "leaves", "count": 5, "makes": 15}]
    assert lead[-1].card == Card.parse("5S")


def why(hand: str, sequence: str, card: str) -> list[dict[str, object]]:
    """The reasons for one card of ``hand`` played on ``sequence``, as JSON."""
    sit = PlaySituation.typed(parse_cards(hand), parse_cards(sequence))
    return [r.to_json() for r in reasons(sit, Card.parse(card), sit.legal())]


def test_reason_codes_for_known_situations() -> None:
    assert why("TS 2C", "TD", "TS") == [{"code": "combo", "kind": "pair", "points": 2, "rank": "T"}]
    assert why("4S 9C", "4H 4D", "4S") == [{"code": "combo", "kind": "pair royal", "points": 6, "rank": "4"}]
    assert why("6S KC", "4H 5D", "6S") == [
        {"code": "combo", "kind": "fifteen", "points": 2},
        {"code": "combo", "kind": "run", "points": 3, "length": 3},
    ]
    assert why("AS 9C", "KH QD TC", "AS") == [{"code": "combo", "kind": "thirty-one", "points": 2}]
    assert why("8S 3C", "TH 8D", "3C") == [{"code": "leaves", "count": 21, "makes": 31}]
    assert why("8S 3C", "TH 8D", "8S") == [{"code": "combo", "kind": "pair", "points": 2, "rank": "8"}]
    assert why("9S 4C", "TH 7D", "9S") == [{"code": "avoids", "count": 21}]
    assert why("AS 9C", "", "AS") == [{"code": "safe_lead"}]
    assert why("9S KC", "", "9S") == [{"code": "no_points"}]


def test_reasons_in_english() -> None:
    pair = Reason(ReasonCode.COMBO, kind="pair", points=2, rank=7)
    run = Reason(ReasonCode.COMBO, kind="run", points=3, length=3)
    assert reason_text(pair) == "pairs the 7 for 2"
    assert reason_text(Reason(ReasonCode.COMBO, kind="pair", points=2, rank=10)) == "pairs the 10 for 2"
    assert reason_text(Reason(ReasonCode.COMBO, kind="pair royal", points=6, rank=4)) == "pair royal for 6"
    assert reason_text(Reason(ReasonCode.COMBO, kind="thirty-one", points=2)) == "31 for 2"
    assert reasons_text([Reason(ReasonCode.COMBO, kind="fifteen", points=2), run]) == (
        "fifteen for 2, run of 3 for 3"
    )
    assert reason_text(Reason(ReasonCode.LEAVES, count=21, makes=31)) == "leaves 21: a ten-card makes 31"
    assert reason_text(Reason(ReasonCode.AVOIDS, count=21)) == "avoids leaving 21"
    assert reason_text(Reason(ReasonCode.SAFE_LEAD)) == "safe lead: no card makes 15 on it"
    assert reason_text(Reason(ReasonCode.NO_POINTS)) == "no points"
    assert reasons_text([]) == ""


def test_the_ai_makes_no_english_reasons() -> None:
    # Every reason the hints give is a code with numbers; no field holds a phrase.
    lead = play_options(PlaySituation.typed(parse_cards("5S 9C 3D KH")))
    for option in lead:
        for reason in option.reasons:
            assert isinstance(reason.code, ReasonCode)
            assert all(" " not in str(v) or k == "kind" for k, v in reason.to_json().items())


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
    assert all("reason" not in o and o["reasons"] for o in data["options"])
    assert all(isinstance(r["code"], str) for o in data["options"] for r in o["reasons"])
    status, out, _ = run(capsys, "hint", "play", "--hand", "7C", "5D", "--played", "KH", "9S")
    assert status == 0 and "reason" in out.splitlines()[1]


def test_hint_play_words_the_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("hint", "play", "--hand", "7C", "6D", "2S", "--sequence", "TD", "5H")
    status, out, _ = run(capsys, *args, "--json")
    found = {o["card"]: o["reasons"] for o in json.loads(out)["options"]}
    assert status == 0 and found["6D"] == [{"code": "leaves", "count": 21, "makes": 31}]
    status, out, _ = run(capsys, *args)
    lines = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert lines["6♦"].endswith("  leaves 21: a ten-card makes 31")
    assert lines["7♣"].endswith("  avoids leaving 21") and lines["2♠"].endswith("  avoids leaving 21")


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


@pytest.mark.parametrize(
    ("what", "words"), [("discard", "rank every way to discard"), ("play", "value every card")]
)
def test_hint_discard_and_play_have_a_description_in_their_help(
    capsys: pytest.CaptureFixture[str], what: str, words: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["hint", what, "--help"])
    assert exit_.value.code == 0
    usage, description = capsys.readouterr().out.split("\n\n")[:2]
    assert usage.startswith(f"usage: cribbage hint {what}") and description.startswith(words)


def test_hint_discard_in_lowball_shows_the_points_each_keep_brings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--variant", "lowball"
    )
    lines = out.splitlines()
    assert (
        status == 0
        and lines[1] == "lowball: points count against you, so the best keep brings the fewest points"
    )
    rows = [line.split() for line in lines[3:]]
    totals = [float(row[-1]) for row in rows]
    assert totals == sorted(totals) and totals[0] == -7.76  # the fewest first (lowball crib table)
    for row in rows:  # the total is hand - crib + peg, as in every other game
        hand, crib, peg = float(row[-5]), float(row[-3]), float(row[-2])
        assert round(hand - crib + peg, 2) == pytest.approx(float(row[-1]), abs=0.011)


def test_hint_play_in_lowball_shows_the_points_each_card_brings(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("hint", "play", "--hand", "7C", "8D", "2S", "--sequence", "TD", "5H")
    data = json.loads(run(capsys, *args, "--variant", "lowball", "--json")[1])
    status, out, _ = run(capsys, *args, "--variant", "lowball")
    lines = out.splitlines()
    assert (
        status == 0
        and lines[1] == "lowball: points count against you, so the best card brings the fewest points"
    )
    shown = [float(line.split()[2]) for line in lines[3:]]
    assert shown == [pytest.approx(-o["value"], abs=0.006) for o in data["options"]] and shown == sorted(
        shown
    )
    assert "-0.00" not in out


def test_the_chance_of_winning_is_a_column_when_it_ranks_the_hints() -> None:
    hand = parse_cards("5H 5C 6D JS QH 2C")
    options = discard_options(hand, False, get_rules(), scores=(100, 110))
    assert options[0].win is not None
    lines = format_discards(hand, False, get_rules(), options).splitlines()
    assert lines[1] == "near the end of the game the keeps are ranked by their chance of winning: wins"
    lines = format_discards(hand, False, get_rules(), options, (100, 110)).splitlines()
    assert lines[1] == "with 11 points to go the keeps are ranked by their chance of winning: wins"
    assert lines[2].split()[-2:] == ["total", "wins"] and lines[3].endswith("14.1%")
    situation = PlaySituation.typed(parse_cards("7C 8D"), parse_cards("TD 5H"))
    plays = [
        PlayOption(Card.parse("8D"), 0, -1.5, (), win=0.62),
        PlayOption(Card.parse("7C"), 0, 0.5, (), win=0.55),
    ]
    lines = format_plays(situation, plays).splitlines()
    assert lines[1] == "near the end of the game the cards are ranked by their chance of winning: wins"
    assert lines[2].split() == ["card", "now", "value", "wins", "reason"]
    assert lines[3].split() == ["8♦", "0", "-1.50", "62.0%"] and lines[4].split()[-1] == "55.0%"


def test_hint_discard_counts_a_partners_hand_at_its_place(capsys: pytest.CaptureFixture[str]) -> None:
    """Four players near the end: the dealer's partner counts second, the dealer last, so the
    same cards and scores win with other chances (``--partner``); two players have no partner."""
    hand = ("5H", "5C", "6D", "JS", "QH")
    args = ("hint", "discard", *hand, "--variant", "four-player", "--scores", "110,112")
    dealer = json.loads(run(capsys, *args, "--dealer", "--json")[1])
    partner = json.loads(run(capsys, *args, "--dealer", "--partner", "--json")[1])
    pone_partner = json.loads(run(capsys, *args, "--pone", "--partner", "--json")[1])
    assert (dealer["place"], partner["place"], pone_partner["place"]) == (3, 1, 2)
    wins = [[o["win"] for o in data["options"]] for data in (dealer, partner, pone_partner)]
    assert wins[0] != wins[1] and wins[1] != wins[2]
    status, _, err = run(capsys, "hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--partner")
    assert status == 2 and "--partner is for four players" in err


def test_hint_discard_for_four_players_has_no_peg_column(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "hint", "discard", "5H", "5C", "6D", "JS", "QH", "--dealer", "--variant", "four-player"
    )
    lines = out.splitlines()
    assert status == 0 and "with 4 players the play is not estimated" in lines[1]
    assert lines[2].split() == ["keep", "throw", "hand", "crib", "total"]
    assert all(len(re.findall(r"\d+\.\d\d", line)) == 3 for line in lines[3:])  # hand, crib, total
