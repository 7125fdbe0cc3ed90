"""Bot matches: seat-swapped sets, determinism across processes, the JSON report, the CLI."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cribbage.cli import main
from cribbage.cli import match as match_command
from cribbage.engine.actions import Action
from cribbage.engine.cards import Card
from cribbage.engine.rules import get_rules
from cribbage.engine.view import SeatView
from cribbage.players import PLAYERS, RandomPlayer
from cribbage.table.match import (
    SOURCES,
    MatchInterrupted,
    MatchResult,
    play_game,
    run_match,
    seat_roles,
    set_size,
    wilson_interval,
)

TIMING = ("seconds", "games_per_second", "jobs")


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING}


class Recorder(RandomPlayer):
    """A random player that remembers every hand it was dealt, and who it played for."""

    log: ClassVar[list[Recorder]] = []

    def __init__(self, role: str, seed: int | None) -> None:
        super().__init__(seed)
        self.role = role
        self.seat: int | None = None
        self.deals: dict[int, tuple[Card, ...]] = {}
        self.starters: dict[int, Card] = {}
        Recorder.log.append(self)

    def choose(self, view: SeatView) -> Action:
        self.seat = view.seat
        if view.phase.value == "discard":
            self.deals[view.hand_number] = view.hand
        if view.starter is not None:
            self.starters[view.hand_number] = view.starter
        return super().choose(view)


def test_seat_swapped_pairs_share_their_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "rec-a", lambda seed: Recorder("a", seed))
    monkeypatch.setitem(PLAYERS, "rec-b", lambda seed: Recorder("b", seed))
    Recorder.log = []
    run_match("rec-a", "rec-b", games=4, seed=5, jobs=1, rules=get_rules())
    games = [Recorder.log[i : i + 2] for i in range(0, len(Recorder.log), 2)]
    assert len(games) == 4
    for first, second in (games[0:2], games[2:4]):
        assert [p.role for p in first] == ["a", "b"] and [p.role for p in second] == ["b", "a"]
        for seat in (0, 1):
            common = first[seat].deals.keys() & second[seat].deals.keys()
            assert common and all(first[seat].deals[h] == second[seat].deals[h] for h in common)
            both = first[seat].starters.keys() & second[seat].starters.keys()
            assert all(first[seat].starters[h] == second[seat].starters[h] for h in both)
    assert games[0][0].deals[1] != games[2][0].deals[1]  # a new set, new cards


def test_seat_rotation_in_three_and_four_player_games() -> None:
    three, four = get_rules("three-player"), get_rules("four-player")
    assert set_size(three) == 3 and set_size(four) == 2 and set_size(get_rules()) == 2
    assert [seat_roles(three, r).index("a") for r in range(3)] == [0, 1, 2]
    assert seat_roles(four, 1) == ("b", "a", "b", "a")
    result = run_match("random", "random", games=4, seed=2, jobs=1, rules=three)
    assert result.games == 6 and result.a_wins + result.b_wins == 6  # rounded up to whole sets
    data = result.to_json()
    assert data["variant"] == "three-player"
    result = run_match("random", "random", games=2, seed=2, jobs=1, rules=four)
    assert result.games == 2 and result.a_wins + result.b_wins == 2


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    rules = get_rules()
    one = run_match("random", "random", games=24, seed=11, jobs=1, rules=rules)
    two = run_match("random", "random", games=24, seed=11, jobs=2, rules=rules)
    assert without_timing(one.to_json()) == without_timing(two.to_json())
    other = run_match("random", "random", games=24, seed=12, jobs=1, rules=rules)
    assert without_timing(other.to_json()) != without_timing(one.to_json())


def test_points_by_source_add_up_to_the_final_scores() -> None:
    for name in ("standard", "five-card", "four-player"):
        rules = get_rules(name)
        for seed in range(3):
            players = [RandomPlayer(seed * 10 + s) for s in range(rules.players)]
            game, stats = play_game(rules, players, seed)
            state = game.state
            assert state.result is not None and stats.forfeit is None
            for side in range(rules.sides):
                seats = [s for s in range(rules.players) if rules.side_of(s) == side]
                assert sum(sum(stats.points[s]) for s in seats) == stats.scores[side] == state.scores[side]
            assert stats.winner == state.result.winner and stats.hands == state.hand_number


def test_play_game_is_deterministic() -> None:
    rules = get_rules()
    _, first = play_game(rules, [RandomPlayer(1), RandomPlayer(2)], seed=9)
    _, again = play_game(rules, [RandomPlayer(1), RandomPlayer(2)], seed=9)
    assert first == again
    _, fixed = play_game(rules, [RandomPlayer(1), RandomPlayer(2)], seed=9, first_dealer=1)
    assert fixed.first_dealer == 1


def test_progress_is_reported_from_the_start_and_after_every_game() -> None:
    calls: list[tuple[int, int]] = []
    run_match(
        "random",
        "random",
        games=5,
        seed=1,
        jobs=1,
        rules=get_rules(),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(n, 6) for n in range(7)]


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    lo, hi = wilson_interval(620, 1000)
    assert lo < 0.62 < hi and hi - lo == pytest.approx(0.06, abs=0.002)


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["match", "--a", "random", "--b", "random", "--games", "10", "--seed", "3", "--json"])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == ""
    data = json.loads(captured.out)
    for key in (
        "games",
        "a_wins",
        "b_wins",
        "a_win_rate",
        "ci95",
        "a_points_per_game",
        "b_points_per_game",
        "skunks",
        "a_points",
        "b_points",
        "by_seat",
        "errors",
    ):
        assert key in data
    assert data["games"] == 10 and data["a_wins"] + data["b_wins"] == 10
    assert data["a_win_rate"] == data["a_wins"] / 10
    lo, hi = data["ci95"]
    assert 0 <= lo <= data["a_win_rate"] <= hi <= 1
    assert set(data["a_points"]) == set(SOURCES)
    assert sum(data["a_points"].values()) == pytest.approx(data["a_points_per_game"], abs=0.01)
    assert set(data["by_seat"]["a"]) == {"first_dealer", "not_first_dealer"}
    assert (
        data["by_seat"]["a"]["first_dealer"]["games"] + data["by_seat"]["a"]["not_first_dealer"]["games"]
        == 10
    )
    assert data["errors"] == []


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "random", "--b", "random", "--games", "4", "--variant", "short"]) == 0
    out = capsys.readouterr().out
    assert "a win rate" in out and "95% CI" in out and "pegging" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--a", "random", "--b", "nobody"], "unknown player 'nobody'"),
        (["--a", "random", "--b", "random", "--variant", "nope"], "unknown variant 'nope'"),
        (["--a", "random", "--b", "random", "--games", "0"], "--games"),
        (["--a", "random", "--b", "random", "--jobs", "x"], "--jobs"),
        (["--a", "exec:no-such-program-here", "--b", "random"], "cannot run"),
        (["--a", "exec:", "--b", "random"], "needs a command"),
        (["--b", "random"], "--a"),
    ],
)
def test_bad_input_exits_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_match_result_counts_a_forfeit_as_a_loss() -> None:
    rules = get_rules()
    result = MatchResult("x", "y", rules, seed=0)
    _, stats = play_game(rules, [RandomPlayer(1), RandomPlayer(2)], seed=1)
    from dataclasses import replace

    lost = replace(stats, forfeit=0, error="boom", winner=1)
    assert result.add(lost, rotation=1) is not None  # seat 0 is b in the second game of a set
    assert result.b_wins == 0 and result.a_wins == 1 and result.tally["b"].forfeits == 1
    assert result.to_json()["errors"] == [{"game": 0, "player": "b", "seat": 0, "message": "boom"}]


# --------------------------------------------------------------------------- progress and Ctrl-C


def test_without_a_terminal_progress_is_a_line_now_and_then(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(match_command, "PROGRESS_EVERY", 0.0)  # a line after every game
    assert main(["match", "--a", "random", "--b", "random", "--games", "4"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("games: 1 of 4 played (") and "games: 3 of 4 played" in err
    assert "games: 4 of 4" not in err  # the summary follows at once
    # Issue 42, item 19: each line says the time left at the rate so far.
    assert re.fullmatch(r"(games: \d of 4 played \(\d+ s, about \d+ s left\)\n){3}", err), err


def test_the_time_left_is_as_precise_as_it_is_worth() -> None:
    assert [match_command.duration(s) for s in (0.4, 59.5, 99, 100, 719, 3569, 3599, 7500)] == [
        "0 s",
        "60 s",
        "99 s",
        "2 min",
        "12 min",
        "59 min",
        "1 h",
        "2 h 5 min",
    ]


def test_a_failing_bots_reports_are_one_line_each_into_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42, item 18: standard error is a pipe: no line is cut at 80 columns."""
    said = "this bot says something that is not JSON at all, and says it at some length"
    bot = f'exec:{sys.executable} -c "print({said!r})"'
    assert main(["match", "--a", bot, "--b", "random", "--games", "2"]) == 0
    reports = [line for line in capsys.readouterr().err.splitlines() if line.startswith("game ")]
    assert len(reports) == 2, reports
    assert all(len(line) > 120 and line.endswith(repr(said)) for line in reports), reports


def test_the_summary_gives_the_games_per_second_of_a_slow_match() -> None:
    result = MatchResult("strong", "normal", get_rules(), seed=1)
    _, stats = play_game(get_rules(), [RandomPlayer(1), RandomPlayer(2)], seed=1)
    for rotation in range(20):
        result.add(stats, rotation % 2)
    result.seconds = 70.0
    assert result.to_json()["games_per_second"] == 0.29
    assert "70.00 s, 0.29 games per second on 1 job(s)" in match_command.format_result(result)


class Interrupting(RandomPlayer):
    """A player whose fifth game is stopped by Ctrl-C."""

    made = 0

    def __init__(self, seed: int | None) -> None:
        super().__init__(seed)
        Interrupting.made += 1
        self.number = Interrupting.made

    def choose(self, view: SeatView) -> Action:
        if self.number == 5:
            raise KeyboardInterrupt
        return super().choose(view)


def test_ctrl_c_reports_the_whole_sets_played_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PLAYERS, "interrupting", Interrupting)
    Interrupting.made = 0
    with pytest.raises(MatchInterrupted) as stop:
        run_match("interrupting", "random", games=10, seed=1, jobs=1, rules=get_rules())
    assert (stop.value.result.games, stop.value.planned) == (4, 10)
    Interrupting.made = 0
    assert main(["match", "--a", "interrupting", "--b", "random", "--games", "10"]) == 130
    out, err = capsys.readouterr()
    assert err == "Interrupted after 4 of 10 games.\n"
    assert "random (b), standard, 4 games" in out and "a win rate" in out
    Interrupting.made = 0
    assert main(["match", "--a", "interrupting", "--b", "random", "--games", "10", "--json"]) == 130
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and data["interrupted"] is True


def _descendants(pid: int) -> list[int]:
    """The processes under ``pid``, from /proc."""
    found = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in map(int, children.read_text().split()):
                found += [child, *_descendants(child)]
    return found


def _playing(pid: int) -> bool:
    """Whether the process ``pid`` is a match's worker at play: it ignores SIGINT (as a worker
    does once started) and has had CPU time (not a resource tracker, which ignores it too)."""
    try:
        ignored = int(Path(f"/proc/{pid}/status").read_text().split("SigIgn:")[1].split()[0], 16)
        utime, stime = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11:13]
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    started = bool(ignored & 1 << (signal.SIGINT - 1)) and b"resource_tracker" not in command
    return started and int(utime) + int(stime) > 0


def test_ctrl_c_on_two_jobs_exits_cleanly_without_the_workers_tracebacks() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    argv = ["match", "--a", "random", "--b", "random", "--games", "10000000", "--jobs", "2"]
    child = subprocess.Popen(
        [sys.executable, "-m", "cribbage", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # a process group of its own, as a terminal's Ctrl-C reaches it
        # As from a terminal: SIGINT not ignored.  A command started in the background of a
        # non-interactive shell (CI's, nohup's) inherits it ignored, and Python then installs no
        # KeyboardInterrupt handler: the match played on for 30 s after its Ctrl-C.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while (playing := sum(map(_playing, _descendants(child.pid)))) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    if playing != 2:  # the workers are started and playing
        os.killpg(child.pid, signal.SIGKILL)
        raise AssertionError(f"{playing} workers playing, not 2")
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert err.startswith("Interrupted after ") and err.endswith(" of 10000000 games.\n")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and err.count("\n") == 1
    played = int(err.split()[2])
    assert played % 2 == 0 and (played == 0 or f"{played} games, seed 1" in out)


def test_match_records_name_each_seats_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cribbage.engine.record import Game

    argv = ["match", "--a", "random", "--b", "weak", "--games", "2", "--variant", "short"]
    assert main([*argv, "--records", str(tmp_path), "--json"]) == 0
    first, second = (Game.load(tmp_path / f"game-0000{n}.json") for n in (1, 2))
    assert first.names == ("random (a)", "weak (b)") and second.names == ("weak (b)", "random (a)")
    capsys.readouterr()
    assert main(["review", str(tmp_path / "game-00001.json")]) == 0
    out = capsys.readouterr().out
    assert "Review of random (a) (seat 0), weak (b) (seat 1)" in out and "seat 0 0" not in out
