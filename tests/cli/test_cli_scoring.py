"""The ``score``, ``peg`` and ``stats`` commands: text, JSON, and one-line errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cribbage.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    status, out, err = run(capsys, *argv, "--json")
    assert (status, err) == (0, "")
    return json.loads(out)


# --------------------------------------------------------------------------- score


def test_score_json_has_each_category_and_every_combo(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "score", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert {k: data[k] for k in ("total", "fifteens", "pairs", "runs", "flush", "nobs")} == {
        "total": 29,
        "fifteens": 16,
        "pairs": 12,
        "runs": 0,
        "flush": 0,
        "nobs": 1,
    }
    assert len(data["combos"]) == 8 + 6 + 1
    assert data["combos"][-1] == {"kind": "nobs", "cards": ["JD", "5D"], "points": 1}
    assert all(set(c) == {"kind", "cards", "points"} for c in data["combos"])


def test_score_text_explains_each_combo_with_a_running_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "4H", "5C", "5S", "6D", "--starter", "JS")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "hand 4♥ 5♣ 5♠ 6♦, starter J♠"
    assert lines[1].startswith("fifteen for 2 (5♣ J♠)")
    assert lines[-1].split() == ["total", "16"]


@pytest.mark.parametrize(
    ("hand", "starter", "words", "named"),
    [
        ("7H 7C 7S 2D", "KC", ["pair royal for 6"], "pair royal for 6 (7♣ 7♥ 7♠)"),
        ("7H 7C 7S 7D", "KC", ["double pair royal for 12"], "double pair royal for 12 (7♣ 7♦ 7♥ 7♠)"),
        ("3H 3C 4S 5D", "KD", ["fifteen for 2"] * 2 + ["double run of 3 for 8"], "8 (3♣ 3♥ 4♠ 5♦)"),
        ("9H 9C TS JD", "JC", ["double double run of 3 for 16"], "16 (9♣ 9♥ 10♠ J♣ J♦)"),
        ("9H 9C 9S TD", "JC", ["triple run of 3 for 15"], "15 (9♣ 9♥ 9♠ 10♦ J♣)"),
    ],
)
def test_score_names_pairs_royal_and_double_runs_as_players_do(
    capsys: pytest.CaptureFixture[str], hand: str, starter: str, words: list[str], named: str
) -> None:
    status, out, _ = run(capsys, "score", hand, "--starter", starter)
    lines = out.splitlines()[1:]
    assert status == 0 and [line.split(" (")[0] for line in lines[:-1]] == words
    assert named in out
    assert int(lines[-1].split()[-1]) == run_json(capsys, "score", hand, "--starter", starter)["total"]


def test_score_accepts_one_quoted_argument_commas_and_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "score", "7♥, 7♠, 8♦", "-s", "2♣")
    assert (data["total"], data["fifteens"], data["pairs"]) == (6, 4, 2)
    assert data["hand"] == ["7H", "7S", "8D"]


def test_score_crib_flag_needs_five_cards_for_a_flush(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "score", "2H 4H 6H 8H", "--starter", "KS")["flush"] == 4
    crib = run_json(capsys, "score", "2H 4H 6H 8H", "--starter", "KS", "--crib")
    assert (crib["flush"], crib["total"], crib["crib"]) == (0, 0, True)
    assert run_json(capsys, "score", "2H 4H 6H 8H", "--starter", "KH", "--crib")["flush"] == 5


def test_score_five_card_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "score", "2H 4H 6H 8H QH", "--starter", "KH")["flush"] == 6


def test_score_with_no_points_says_nineteen(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "2C 4D 6H 8S", "--starter", "KC")
    assert status == 0
    assert "no points" in out


# --------------------------------------------------------------------------- peg


def test_peg_json_scores_the_last_card(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "peg", "4H", "6D", "5S")
    assert (data["points"], data["count"]) == (5, 15)
    assert [(c["kind"], c["points"]) for c in data["combos"]] == [("fifteen", 2), ("run", 3)]


def test_peg_no_run_through_a_king(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "peg", "4H 6D KS 5S")
    assert (data["points"], data["count"], data["combos"]) == (0, 25, [])


def test_peg_thirty_one_and_run(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "peg", "KH,6D,7C,8S")
    assert (data["points"], data["count"]) == (5, 31)


def test_peg_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "peg", "3H", "3D", "3C")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "3♥ 3♦ 3♣: count 9"
    assert lines[1].startswith("pair royal for 6")
    assert lines[-1] == "6 points for the 3♣"


# --------------------------------------------------------------------------- stats


def test_stats_hands_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "stats", "hands")
    assert data["hands"] == 12_994_800
    assert data["distribution"]["29"] == 4
    assert data["distribution"]["19"] == 0
    assert round(data["mean"], 4) == 4.7692
    assert 0 < data["seconds"] < 10
    golden = json.loads((Path(__file__).parents[1] / "golden" / "hand_distribution.json").read_text())
    assert data["distribution"] == golden["distribution"]


def test_stats_hands_crib_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "stats", "hands", "--crib")
    assert data["crib"] is True
    assert round(data["mean"], 4) == 4.7348


def test_stats_hands_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "stats", "hands")
    assert (status, err) == (0, "")
    assert "12,994,800 deals" in out
    rows = {int(line.split()[0]): line.split()[1] for line in out.splitlines() if line[:6].strip().isdigit()}
    assert sorted(rows) == list(range(30))
    assert rows[29] == "4"
    assert rows[19] == "0"
    assert rows[0] == "1,009,008"
    assert "mean 4.7692" in out


def test_stats_three_card_hands(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "stats", "hands", "--hand-size", "3")
    assert data["hands"] == 22100 * 49


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "1X", "5C", "5S", "JD", "--starter", "5D"], "invalid card '1X'"),
        (["score", "11H", "5C", "5S", "JD", "--starter", "5D"], "invalid card '11H'"),
        (["score", "5H", "5H", "5S", "JD", "--starter", "5D"], "duplicate card '5H'"),
        (["score", "5H", "5C", "5S", "JD", "--starter", "5H"], "duplicate card '5H'"),
        (["score", "5H", "5C", "--starter", "5D"], "expected 3 or 4 or 5 cards, got 2"),
        (["score", "AH 2H 3H 4H 6H 7H", "--starter", "5D"], "expected 3 or 4 or 5 cards, got 6"),
        (["score", "5H", "5C", "5S", "JD"], "the following arguments are required: -s/--starter"),
        (["score", "5H", "5C", "5S", "JD", "--starter", "5X"], "invalid card '5X'"),
        (["peg", "KH", "QH", "JH", "5S"], "the count passes 31"),
        (["peg", "5H", "5h"], "duplicate card '5h'"),
        (["peg", "1X"], "invalid card '1X'"),
        (["peg"], "the following arguments are required: cards"),
        (["stats", "cribs"], "invalid choice: 'cribs'"),
        (["stats", "hands", "--hand-size", "6"], "invalid choice: 6"),
        (["score", "5H", "5C", "5S", "--starter", "JD", "--crib"], "a crib has 4 cards, not 3: 5H 5C 5S"),
        (["score", "5H 5C 5S 4H 3H", "--starter", "JD", "--crib"], "a crib has 4 cards, not 5"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_problem(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("cribbage: error: ")
    assert message in err


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--bad"], "unrecognized arguments: --bad"),
        (["play", "--bad"], "unrecognized arguments: --bad"),
        (["score", "5H", "5C", "5S", "JD"], "score: the following arguments are required: -s/--starter"),
        (["stats", "cribs"], "stats: argument topic: invalid choice: 'cribs'"),
        (["hint", "discard", "5H"], "hint discard: one of the arguments --dealer --pone is required"),
        (["nothing"], "argument command: invalid choice: 'nothing'"),
    ],
)
def test_usage_errors_say_cribbage_once(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"cribbage: error: {expected}")
    assert err.count("cribbage") == 1 and err.count("\n") == 1


def test_the_crib_flag_takes_a_four_card_crib(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "score", "5H 5C 5S 4H", "--starter", "JD", "--crib")["crib"] is True


def test_installed_command_runs_in_a_subprocess() -> None:
    command = Path(sys.executable).with_name("cribbage")
    argv = [str(command)] if command.exists() else [sys.executable, "-m", "cribbage"]
    done = subprocess.run(
        [*argv, "score", "5H", "5C", "5S", "JD", "--starter", "5D", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 29
    bad = subprocess.run(
        [*argv, "peg", "KH", "QH", "JH", "5S"], capture_output=True, text=True, timeout=60, check=False
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "cribbage: error: the count passes 31: KH QH JH 5S makes 35\n"
