"""The terminal game (``cribbage play``), driven by scripted input.

Most tests run the session in-process with an :class:`Answerer` as standard input: it answers
each prompt from the engine's state (the first legal move, by position), so whole games are
played whatever the cards.  The subprocess tests pipe the recorded answers into the real
command; the pseudo-terminal tests check the colour path and Ctrl-C / Ctrl-D.

The computer plays with the ``random`` player so that games stay fast and fixed by the seed.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import platform
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cribbage.ai.pegging import Reason, ReasonCode
from cribbage.cli import main
from cribbage.engine.actions import Action, Count, Deal, Muggins, Play
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import score_show
from cribbage.engine.view import SeatView
from cribbage.players import PLAYERS
from cribbage.tui import hints
from cribbage.tui.look import Look, supports_fancy
from cribbage.tui.parse import InputError, parse_command, pick_cards
from cribbage.tui.session import Terminal, TerminalOptions, level_of, play, prepare
from terminal_script import SEED, Answerer, options, run_session

SRC = Path(__file__).resolve().parents[2] / "src"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cribbage", "play", *args]


def child_env(**changes: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(changes)
    return env


# --------------------------------------------------------------------------- whole games


def test_a_whole_61_point_game_is_played_to_the_end_by_positions() -> None:
    status, out = run_session(options(), Answerer())
    assert status == 0
    assert "Throw 2 cards to" in out and "Your card: " in out and "Starter: " in out
    assert "--- The show ---" in out and "--- Game over ---" in out
    assert ("You win!" in out) != ("Computer wins!" in out)
    assert "Fifteen for 2" in out  # scores are announced with their reason
    assert out.isascii() and "\x1b" not in out


def test_the_show_is_explained_combination_by_combination_with_a_running_total() -> None:
    _, out = run_session(options(), Answerer())
    lines = out.splitlines()
    shows = [
        i
        for i, line in enumerate(lines)
        if line.startswith(("Your hand ", "Computer's crib ")) and "points" in line
    ]
    assert len(shows) >= 4
    assert all(" + starter " in lines[head] for head in shows)  # the starter of the hand shown
    for head in shows:
        total = int(lines[head].split(": ")[1].split()[0])
        combos = []
        for line in lines[head + 1 :]:
            if not line.startswith("    "):
                break
            combos.append(line)
        if total == 0:
            assert combos == ["    nineteen: no points"]
        else:
            running = [int(line.split()[-1]) for line in combos]
            assert running == sorted(running) and running[-1] == total


def test_a_piped_script_plays_the_same_game_as_in_process_and_falls_back_to_ascii() -> None:
    answerer = Answerer()
    status, expected = run_session(options(ascii=False), answerer)
    script = "\n".join(answerer.script) + "\n"
    result = subprocess.run(
        command("--level", "random", "--seed", str(SEED), "--target", "61"),
        input=script,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=child_env(TERM="xterm-256color"),
        timeout=60,
    )
    assert result.returncode == status == 0, result.stderr
    assert result.stdout == expected
    assert result.stdout.isascii() and "\x1b" not in result.stdout  # not a terminal: plain ASCII


@pytest.mark.parametrize("variant", ["three-player", "four-player", "five-card"])
def test_the_other_variants_play_to_the_end(variant: str) -> None:
    status, out = run_session(options(variant=variant), Answerer())
    assert status == 0 and "--- Game over ---" in out
    if variant == "four-player":
        assert "Partner" in out and "Us " in out and "Them " in out
    if variant == "three-player":
        assert "Left" in out and "Right" in out and "Throw 1 card to" in out


def test_at_a_keyboard_another_game_is_offered_and_the_match_is_kept() -> None:
    answerer = Answerer(again=["n", "maybe", "y", "n", "n"], tty=True)  # review? another?
    status, out = run_session(options(), answerer)
    assert status == 0
    assert out.count("Another game? (y/n) ") == 3 and "Answer y or n." in out
    assert out.count("--- Game over ---") == 2 and "Game points so far: You " in out
    assert answerer.session is not None and len(answerer.session.match.games) == 2
    # The running tally: after each game, and as the next one starts (seed 5: Computer, then you).
    tally = re.findall(r"^(--- Game over|--- Game 2|Games won: .*)", out, re.M)
    assert tally == [
        "--- Game over",
        "Games won: You 0 - Computer 1",
        "--- Game 2",
        "Games won: You 0 - Computer 1",
        "--- Game over",
        "Games won: You 1 - Computer 1",
    ]


def test_hint_at_a_yes_or_no_question_says_so() -> None:
    answerer = Answerer(again=["hint", "n", "n"], tty=True)  # at "Review this game?"
    status, out = run_session(options(), answerer)
    assert status == 0 and "No hint for this question: answer y or n." in out
    assert "muggins" not in out.lower()


def test_a_skunk_is_marked_at_the_end() -> None:
    status, out = run_session(options(seed=345), Answerer())  # seed 345: the computer skunks us
    assert status == 0
    assert out.rstrip().endswith(
        "Computer wins!\nYou are skunked: 3 game points.\nGames won: You 0 - Computer 1"
    )


def test_five_card_names_the_cards_left_unplayed_by_the_single_count() -> None:
    from cribbage.engine.events import Kind
    from cribbage.engine.state import GameState

    answerer = Answerer()
    status, out = run_session(options(variant="five-card"), answerer)
    assert status == 0 and answerer.session is not None
    game = answerer.session.game
    expected = []  # from the engine: what the hands hold when the play ends
    state = GameState(game.rules, dealer=game.first_dealer)
    for action in game.actions:
        for event in state.apply(action):
            if event.kind is Kind.RESET and event.detail:
                left = [(seat, sorted(hand)) for seat, hand in enumerate(state.hands) if hand]
                expected.append(
                    " and ".join(
                        ("your " if seat == 0 else "Computer's ") + Look(fancy=False).cards(cards).plain
                        for seat, cards in left
                    )
                    if left
                    else None
                )
    told = re.findall(
        r"^The play ends after its one count: (.*) (?:is|are) not played \(they count in the show\)\.$",
        out,
        re.M,
    )
    assert told and told == [e for e in expected if e is not None]


def test_three_players_are_told_of_the_crib_card_from_the_pack() -> None:
    answerer = Answerer()
    status, out = run_session(options(variant="three-player"), answerer)
    assert status == 0 and answerer.session is not None
    deals = [a for a in answerer.session.game.actions if isinstance(a, Deal)]
    assert out.count("The crib also gets one card from the pack, face down.") == len(deals)
    named = re.findall(r"^    (\S+) was dealt from the pack\.$", out, re.M)
    assert named and named == [Look(fancy=False).label(deal.crib[0]) for deal in deals][: len(named)]
    assert len(named) >= len(deals) - 1  # every crib shown (the last hand may end the game first)


# --------------------------------------------------------------------------- input


def test_wrong_input_gets_an_explanation_and_the_same_question_again() -> None:
    queue = ["", "xx 1", "1", "1 9", "1 1", "2 9h", "3", "1 2", "go", "zz", "quit"]
    status, out = run_session(options(), Answerer(queue))
    assert status == 0
    assert "Choose 2 cards, by position like '1 2' or by name like '5h'." in out
    assert "'xx' is not a card" in out
    assert "There is no card 9: choose 1 to 6." in out
    assert "twice" in out
    assert "You do not hold the nine of hearts." in out
    assert "A card of yours fits the count" in out and "'zz' is not a card" in out
    assert out.count("Throw 2 cards to") == 8  # asked again after each of the seven mistakes
    assert "Goodbye." in out


def test_a_card_that_passes_31_is_refused_by_the_engine_and_asked_again() -> None:
    refused: list[str] = []

    class Reckless(Answerer):
        def decide(self) -> str:
            assert self.session is not None
            view = self.session.game.state.view(0)
            hand = sorted(view.hand)
            playable = {a.card for a in view.legal if isinstance(a, Play)}
            too_big = [c for c in hand if c not in playable]
            if playable and too_big and not refused:
                refused.append(str(too_big[0]))
                return str(hand.index(too_big[0]) + 1)
            return super().decide()

    for seed in range(1, 30):
        refused.clear()
        status, out = run_session(options(seed=seed), Reckless())
        if refused:
            assert status == 0 and "--- Game over ---" in out
            assert re.search(r"^[A-Z0-9].* would take the count from \d+ past 31\.$", out, re.M)
            return
    pytest.fail("never held a card that would pass 31")


def test_cards_are_taken_by_name_in_any_spelling() -> None:
    hand = parse_cards("2C 5H 5S TD QS KH")
    assert pick_cards("5h 10d", hand, 2) == parse_cards("5H TD")
    assert pick_cards("TD,1", hand, 2) == parse_cards("TD 2C")
    assert pick_cards("5♥", hand, 1) == (Card.parse("5H"),)
    with pytest.raises(InputError, match="do not hold"):
        pick_cards("AS", hand, 1)
    assert parse_command("SAVE  a b.json") is not None
    assert parse_command("5h") is None


def test_help_lists_the_commands() -> None:
    status, out = run_session(options(), Answerer(["help", "quit"]))
    assert status == 0
    for name in ("hint", "score", "board", "save FILE", "help", "quit"):
        assert f"  {name}" in out


def test_help_gives_the_positions_of_the_cards_held() -> None:
    status, out = run_session(options(), Answerer(["help", "1 2", "help", "1", "help", "quit"]))
    assert status == 0
    positions = re.findall(r"by position in your hand: (.*)\.", out)
    assert positions == ["1 to 6", "1 to 4", "1 to 3"]
    _, out = run_session(options(variant="three-player"), Answerer(["help", "quit"]))
    assert "by position in your hand: 1 to 5." in out and "A discard is one card: '5h' or '2'." in out


def test_muggins_and_its_over_count_penalty_are_explained() -> None:
    _, out = run_session(options(muggins=True), Answerer(["help", "quit"]))
    penalty = "A count stated too high is corrected, and the excess goes to the opponent."
    assert out.count(penalty) == 2  # in the introduction and in the help
    assert out.count("Muggins: the opponent may take the points a count missed") == 2
    _, out = run_session(options(manual=True), Answerer(["quit"]))
    assert "A count stated too high is corrected." in out and "Muggins" not in out


def test_play_help_says_the_over_count_penalty_is_on_with_muggins(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "--muggins points missed in a count may be taken by the opponent, and a count stated too high" in text
    )
    assert "gives the excess to the opponent (implies --manual)" in text


def test_score_board_and_hint_show_without_answering() -> None:
    status, out = run_session(options(), Answerer(["score", "board", "hint", "1 2", "hint", "quit"]))
    assert status == 0
    assert out.count("You 0   Computer 0   to 61") >= 3  # the table, then score, then board
    assert out.count("Throw 2 cards to") == 4 and out.count("Your card: ") == 2


def fake_advisers(win: float | None = None, reasons: int = 1) -> dict[str, Any]:
    """Advisers with fixed values: every throw and card worth the same, with ``win`` and reasons."""

    def discard_options(
        hand: Any, dealer: bool, rules: Any, scores: Any = None, place: Any = None
    ) -> list[Any]:
        cards = sorted(hand)
        return [
            SimpleNamespace(
                keep=cards[2:],
                discard=cards[:2],
                hand=12.3,
                crib=3.5,
                own_crib=dealer,
                pegging=0.7,
                total=-9.5 if rules.lowball else 9.5,  # the advice maximises: in lowball, minus the points
                win=win,
                crib_weight=1.0,
            )
        ]

    def play_options(view: Any) -> list[Any]:
        fifteen = (Reason(ReasonCode.COMBO, kind="fifteen", points=2),) * reasons
        value = -1.25 if view.rules.lowball else 1.25
        return [SimpleNamespace(card=a.card, value=value, reasons=fifteen, win=win) for a in view.legal]

    return {"discard_options": discard_options, "play_options": play_options}


def test_hints_show_the_advisers_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "_ai", fake_advisers().get)
    _, out = run_session(options(), Answerer(["hint", "1 2", "hint", "quit"]))
    assert re.search(r"throw +keep +hand +crib +play +total\n", out)
    assert re.search(r" 1\. \S+ \S+ \(1 2\)  (\S+ ){4}  +12\.3 +-3\.5 +\+0\.7 +9\.5\n", out)
    assert re.search(r"\S+ \(1\) +\+1\.2  fifteen for 2\n", out)
    assert "chance of winning" not in out and "Lowball" not in out


def test_hints_show_the_chance_of_winning_when_it_ranks_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "_ai", fake_advisers(win=0.4567).get)
    _, out = run_session(options(), Answerer(["hint", "1 2", "hint", "quit"]))
    # At 0-0 in a game to 61, where the advice ranks by the chance of winning from the start.
    assert "In a game to 61 the throws are ranked by their chance of winning." in out
    assert re.search(r"throw +keep +hand +crib +play +total +wins\n", out)
    assert re.search(r" 1\. .* 9\.5  45\.7%\n", out)
    assert "In a game to 61 the cards are ranked by their chance of winning." in out
    assert "Near the end" not in out
    assert re.search(r"\S+ \(1\) +\+1\.2  wins 45\.7% +fifteen for 2\n", out)


def test_lowball_hints_show_the_points_a_choice_brings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "_ai", fake_advisers().get)
    _, out = run_session(options(variant="lowball"), Answerer(["hint", "1 2", "hint", "quit"]))
    assert out.count("Lowball: points count against you, so the best choice brings the fewest.") == 2
    assert re.search(r" 1\. .* +12\.3 +-3\.5 +\+0\.7 +9\.5\n", out)  # hand - crib + play, as ever
    assert re.search(r"\S+ \(1\) +\+1\.2  fifteen for 2\n", out)  # the points it brings, not -1.2


@pytest.mark.parametrize("variant", ["standard", "seven-card", "three-player", "lowball"])
def test_hint_lines_fit_80_columns(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    out = FakeTerminal()
    answers = Answerer(
        ["hint", "1", "hint", "quit"] if variant == "three-player" else ["hint", "1 2", "hint", "quit"]
    )
    status = play(options(variant=variant, ascii=False), answers, out, env={"TERM": "xterm-256color"})
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert status == 0 and ("♠" in plain or "♥" in plain)
    hint_lines = [line for line in plain.splitlines() if re.match(r" ?\d\. |\S+ \(\d\) ", line)]
    assert len(hint_lines) >= 5
    assert max(len(line) for line in plain.splitlines()) <= 80
    monkeypatch.setattr(hints, "_ai", fake_advisers(win=1.0, reasons=5).get)  # long reasons are wrapped
    out = FakeTerminal()
    play(
        options(variant=variant, ascii=False),
        Answerer(["1 2" if variant != "three-player" else "1", "hint", "quit"]),
        out,
        env={"TERM": "xterm-256color"},
    )
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert "wins 100.0%" in plain and max(len(line) for line in plain.splitlines()) <= 80


def test_hints_list_the_legal_choices_without_the_adviser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "_ai", lambda name: None)
    _, out = run_session(options(), Answerer(["hint", "quit"]))
    assert "You may throw any of: 1 2, 1 3" in out


# --------------------------------------------------------------------------- manual counting


class Stingy:
    """A computer that states 0 for every count and calls muggins for 1 on every count."""

    def choose(self, view: SeatView) -> Action:
        for action in view.legal:
            if isinstance(action, Count) and action.points == 0:
                return action
            if isinstance(action, Muggins) and action.points == 1:
                return action
        return view.legal[0]


def test_manual_counting_with_muggins_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "stingy", lambda seed: Stingy())
    answerer = Answerer(
        count=lambda true: true - 2 if true >= 4 else true,  # the player misses some points
        mug=lambda claim, true: str(true - claim) if claim < true else "",
    )
    status, out = run_session(options(manual=True, muggins=True, level="stingy"), answerer)
    assert status == 0 and "--- Game over ---" in out
    assert "Count your hand: " in out and "Computer counts 0." in out
    assert "Muggins? Points Computer missed (Enter to pass): " in out
    assert "Muggins! You take" in out  # the player takes what the computer missed
    assert "Muggins! Computer takes" in out  # and the computer calls on the player
    assert "(you counted" in out and "missed)" in out
    assert "Nothing was missed: 1 to you for the wrong call" in out
    # Every count told has the side's new score, the computer's (told after the muggins call) too.
    shows = [
        line for line in out.splitlines() if re.match(r"(Your|Computer's) (hand|crib) .*: \d+ points?", line)
    ]
    assert any(line.startswith("Computer's") for line in shows)
    assert all(re.search(r" \[(You|Computer) \d+\]$", line) for line in shows), shows
    computer = [int(line.split()[-1][:-1]) for line in shows if line.startswith("Computer's")]
    assert computer == sorted(computer)


class OverCounter:
    """A computer that states 3 more than each of its counts is worth."""

    def choose(self, view: SeatView) -> Action:
        first = view.legal[0]
        if isinstance(first, Count):
            assert view.starter is not None  # the crib is in the view once it is being counted
            true = score_show(view.crib or view.kept, view.starter, crib=bool(view.crib)).total
            return Count(view.seat, true + 3)
        return first


def test_a_count_awaiting_your_muggins_call_is_told_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: until you decide, you see the cards and what the computer stated, never what
    they are worth (nor the over-count's penalty, nor a score that pegged it)."""
    monkeypatch.setitem(PLAYERS, "over", lambda seed: OverCounter())
    status, out = run_session(options(manual=True, muggins=True, level="over"), Answerer())
    assert status == 0
    lines = out.splitlines()
    asked = [i for i, line in enumerate(lines) if line.startswith("Muggins? Points Computer missed")]
    assert len(asked) >= 4
    for i in asked:  # the prompt follows the cards and the claim; the count comes after the call
        assert re.fullmatch(r"Computer's (hand|crib) .*: Computer counts \d+\.", lines[i - 1]), lines[i - 1]
        assert "(Computer counted" in lines[i + 1] and "too many" in lines[i + 1], lines[i + 1]
    penalties = [i for i, line in enumerate(lines) if line.startswith("Counted 3 too many: 3 to you")]
    assert len(penalties) >= len(asked)
    for i in penalties:  # each told after the count it corrects, and so after the call
        head = next((line for line in reversed(lines[:i]) if line.startswith("Computer's")), "")
        assert "points (Computer counted" in head, (head, lines[i])


def test_manual_counting_without_muggins_never_asks_for_muggins() -> None:
    status, out = run_session(options(manual=True), Answerer())
    assert status == 0 and "Count your hand: " in out and "Muggins?" not in out
    assert ": right)" in out


def test_a_bad_count_is_asked_again() -> None:
    wrong = ["lots", "99"]

    class BadCount(Answerer):
        def decide(self) -> str:
            assert self.session is not None
            state = self.session.game.state
            if state.phase.value == "show" and wrong and state.to_act == 0:
                return wrong.pop(0)
            return super().decide()

    status, out = run_session(options(manual=True), BadCount())
    assert status == 0
    assert re.search(r"Count your (hand|crib): lots\nType the points of your (hand|crib), like 8\.\n", out)
    # Worded like the other messages (not the engine's "a count must be 0 to 60 points").
    assert re.search(r": 99\nThere is no count of 99: type the points of your (hand|crib), 0 to 60\.\n", out)


# --------------------------------------------------------------------------- save and resume


def test_save_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = Answerer(stop_after=12)
    first_status, first_out = run_session(options(), first)
    assert first_status == 1 and "End of input. The game is not finished." in first_out

    saver = Answerer([*first.script[:11], f"save {path}", "quit"])
    status, out = run_session(options(), saver)
    assert status == 0 and f"Saved to {path}" in out
    record = json.loads(path.read_text())
    assert record["names"] == ["You", "Computer (random)"]
    saved = Game.load(path)
    assert level_of(saved.names) == "random"

    resumed = Answerer()
    status, out = run_session(TerminalOptions(resume=str(path), ascii=True), resumed)
    assert status == 0 and "Resuming the game at hand" in out and "--- Game over ---" in out
    finished = resumed.session.game if resumed.session else None
    assert finished is not None
    assert finished.actions[: len(saved.actions)] == saved.actions


def test_resuming_shows_the_scores_and_the_board_once(tmp_path: Path) -> None:
    """Issue 42, item 18: resumed at a discard (where the question shows the board too), and in
    the play."""
    for name, before in (("discard.json", []), ("play.json", ["1 2"])):
        path = tmp_path / name
        assert run_session(options(), Answerer([*before, f"save {path}", "quit"]))[0] == 0
        status, out = run_session(TerminalOptions(resume=str(path), ascii=True), Answerer(["quit"]))
        assert status == 0 and "Resuming the game at hand 1." in out
        assert len(re.findall(r"^You \d+.*Computer \d+.* to 61\b", out, re.M)) == 1, out
        assert len(re.findall(r"^You +[.@]", out, re.M)) == 1, out  # one board


def test_save_refuses_an_empty_name_and_asks_before_replacing_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "other.json").write_text("mine")
    (tmp_path / "adir").mkdir()
    queue = ['save ""', "save ''", "save other.json", "n", "save adir", "save 'my game.json'", "quit"]
    status, out = run_session(options(), Answerer(queue))
    assert status == 0 and out.count("Name the file: save FILE") == 2
    assert "other.json exists: replace it? (y/n) n" in out and "Not saved." in out
    assert (tmp_path / "other.json").read_text() == "mine"
    assert "Could not save to adir: Is a directory." in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir", "my game.json", "other.json"]
    status, out = run_session(options(), Answerer(["1 2", "save other.json", "y", "save other.json", "quit"]))
    assert (
        out.count("replace it?") == 1 and out.count("Saved to other.json.") == 2
    )  # its own file: no question
    assert Game.load(tmp_path / "other.json").actions


def test_resume_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    status, _ = run_session(options(), Answerer(["1 2", f"save {path}", "quit"]))
    assert status == 0
    result = subprocess.run(
        command("--resume", str(path)),
        input="score\nquit\n",
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Resuming the game at hand 1" in result.stdout and "(random)" in result.stdout


@pytest.mark.parametrize(
    "flags",
    [["--variant", "lowball"], ["--target", "61"], ["--manual"], ["--muggins"], ["--seed", "3"]],
)
def test_resume_refuses_the_options_of_a_new_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    path = tmp_path / "my game.json"
    Game(get_rules(), seed=1).save(path)
    assert main(["play", "--resume", str(path), *flags]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"cribbage: error: --resume '{path}' continues the saved game with its own")
    assert f"leave out {' '.join(flags)}, or start a new game without --resume" in err


def test_a_bad_record_is_one_line_on_standard_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{}")
    result = subprocess.run(
        command("--resume", str(path)), capture_output=True, text=True, env=child_env(), timeout=60
    )
    assert result.returncode == 2 and result.stderr.startswith("cribbage: error: ")
    assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- end of input


@pytest.mark.parametrize("script", ["", "1 2\n1\n"])
def test_end_of_input_ends_cleanly(script: str) -> None:
    result = subprocess.run(
        command("--level", "random", "--seed", "3"),
        input=script,
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=60,
    )
    assert result.returncode == 1
    assert "End of input. The game is not finished." not in result.stdout  # a goodbye is no output
    assert result.stderr.startswith("End of input. The game is not finished.")


def test_quit_in_a_script_ends_with_status_0() -> None:
    status, out = run_session(options(), Answerer(["quit"]))
    assert status == 0 and out.rstrip().endswith("Goodbye.")


# --------------------------------------------------------------------------- the look


class FakeTerminal(io.StringIO):
    def __init__(self, encoding: str = "utf-8", tty: bool = True) -> None:
        super().__init__()
        self._encoding, self._tty = encoding, tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return self._tty


def test_colour_and_symbols_only_where_they_can_be_shown() -> None:
    term = {"TERM": "xterm-256color"}
    assert supports_fancy(FakeTerminal(), term)
    assert not supports_fancy(FakeTerminal(tty=False), term)
    assert not supports_fancy(FakeTerminal(), {"TERM": "dumb"})
    assert not supports_fancy(FakeTerminal(), {**term, "NO_COLOR": "1"})
    assert supports_fancy(FakeTerminal(), {**term, "NO_COLOR": ""})
    assert not supports_fancy(FakeTerminal(encoding="ascii"), term)
    assert not supports_fancy(FakeTerminal(encoding="latin-1"), term)
    assert not Terminal(io.StringIO(), FakeTerminal(), ascii=True, env=term).look.fancy
    assert Terminal(io.StringIO(), FakeTerminal(), env=term).look.fancy


def test_the_fancy_look_draws_symbols_in_colour() -> None:
    out = FakeTerminal()
    status = play(options(ascii=False), Answerer(["quit"]), out, env={"TERM": "xterm-256color"})
    text = out.getvalue()
    assert status == 0 and "\x1b[" in text and ("♥" in text or "♦" in text) and "·" in text


def test_the_board_shows_front_and_back_pegs() -> None:
    lines = Look(fancy=False).board(["You", "Computer"], [12, 70], [5, 61], 121)
    assert [line.plain[:9] for line in lines] == ["You      ", "Computer ", "You      ", "Computer "]
    you, computer = lines[0].plain[9:], lines[3].plain[9:]
    assert you.replace(" ", "")[4] == "o" and you.replace(" ", "")[11] == "@"
    assert computer.replace(" ", "")[0] == "o" and computer.replace(" ", "")[9] == "@"
    assert lines[2].plain.endswith(" .") and all(line.cell_len <= 80 for line in lines)


# --------------------------------------------------------------------------- a real terminal


def _read_until(fd: int, wanted: str, seconds: float = 20.0) -> str:
    """Read the pseudo-terminal until ``wanted`` appears (or it closes, or time runs out)."""
    data = b""
    deadline = time.monotonic() + seconds
    while wanted.encode() not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", "replace")


def _read_prompt(fd: int, prompts: tuple[str, ...], seconds: float = 20.0) -> str:
    """Read the pseudo-terminal until what it shows ends with one of ``prompts``."""
    data = b""
    ends = tuple(p.encode() for p in prompts)
    deadline = time.monotonic() + seconds
    while not data.endswith(ends) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", "replace")


def _spawn(*args: str, size: tuple[int, int] = (80, 24), argv: list[str] | None = None) -> tuple[int, int]:
    """``cribbage play ARGS`` (or ``argv``) on a pseudo-terminal of ``size`` columns and rows."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session of its own with the pseudo-terminal as its terminal
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # not ignored, even if the tests run in the background
        env = child_env(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
        os.execvpe(sys.executable, argv or command(*args), env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    return pid, fd


_READ = {"x86_64": "0", "aarch64": "63"}.get(platform.machine())
"""The number of the ``read`` system call, where /proc/PID/syscall names it."""


def _wait_reading(pid: int, seconds: float = 20.0) -> None:
    """Until the child waits in a read of its standard input (Linux's /proc/PID/syscall), however
    busy the machine; where no such file tells, a moment's pause."""
    syscall = Path(f"/proc/{pid}/syscall")
    if _READ is None or not syscall.exists():
        time.sleep(0.3)
        return
    deadline = time.monotonic() + seconds
    while syscall.read_text().split()[:2] != [_READ, "0x0"]:  # read(0, ...)
        assert time.monotonic() < deadline, "the game did not wait for a key"
        time.sleep(0.01)


def _finish(pid: int, fd: int) -> tuple[str, int]:
    """The rest of the output and the exit status; a child still waiting after 10 s is killed."""
    rest = _read_until(fd, "\x00never\x00", seconds=10)
    done, status = os.waitpid(pid, os.WNOHANG)
    if not done:  # still waiting for input: the test fails rather than hangs
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    return rest, os.waitstatus_to_exitcode(status)


NOT_SAVED = "It is not saved: to keep a game, type save FILE before you leave."


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(
    ("key", "message", "status"), [(b"\x03", "Interrupted.", 130), (b"\x04", "End of input.", 1)]
)
def test_in_a_terminal_ctrl_c_and_ctrl_d_leave_at_once_alike(key: bytes, message: str, status: int) -> None:
    pid, fd = _spawn("--level", "random", "--seed", "3", *(["--ascii"] if key == b"\x04" else []))
    screen = _read_until(fd, "to your crib: ")
    if key == b"\x03":
        assert "\x1b[" in screen and "♠" in screen
    else:
        assert "\x1b[" not in screen and "♠" not in screen  # --ascii
    os.write(fd, b"1 2\r")
    screen = _read_until(fd, "Your card: ")
    assert "You throw" in screen
    # Once the game reads, as a person would: a signal that lands between the prompt being
    # written and the read starting is only seen at the next key.
    _wait_reading(pid)
    os.write(fd, key)
    rest, exit_status = _finish(pid, fd)  # it leaves without waiting for anything else
    assert exit_status == status and "Traceback" not in screen + rest
    assert f"{message} The game is not finished.\r\n{NOT_SAVED}" in rest
    assert "Save the game" not in rest and "?" not in rest


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_in_a_terminal_a_saved_game_says_how_to_continue_on_leaving(tmp_path: Path) -> None:
    path = tmp_path / "my game.json"
    pid, fd = _spawn("--level", "random", "--seed", "3", "--ascii")
    _read_until(fd, "to your crib: ")
    os.write(fd, f"save {path}\r".encode())
    _read_until(fd, "to your crib: ")
    _wait_reading(pid)
    os.write(fd, b"\x03")
    rest, status = _finish(pid, fd)
    assert status == 130 and Game.load(path).actions
    assert f"It is saved: continue with cribbage play --resume '{path}'" in rest


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_in_a_terminal_of_24_rows_a_long_output_waits_for_enter() -> None:
    pid, fd = _spawn("--variant", "seven-card", "--level", "random", "--seed", "5", "--ascii")
    prompts = ("crib: ", "Your card: ", "(more: press Enter)")
    screen = ""
    for _ in range(20):  # the first hand, by the first card or cards, until a page is full
        screen = _read_prompt(fd, prompts)
        if screen.endswith("(more: press Enter)"):
            break
        os.write(fd, b"1 2\r" if screen.endswith("crib: ") else b"1\r")
    assert screen.endswith("(more: press Enter)")
    assert "--- The show ---" in screen
    os.write(fd, b"\r")
    screen = _read_until(fd, "crib: ")
    assert screen.endswith(" crib: ") and "You      ..." in screen  # the next hand's board
    os.write(fd, b"\x04")
    _, status = _finish(pid, fd)
    assert status == 1


def test_ctrl_c_at_the_question_between_two_screens_leaves_at_once() -> None:
    class Interrupt(Answerer):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            if self.session is not None and self.session.term.pausing:
                raise KeyboardInterrupt
            return super().readline(size)

    answerer = Interrupt(tty=True)
    status, out = run_session(options(variant="seven-card", target=121), answerer, size=(80, 24))
    assert status == 130 and out.count("(more: press Enter)") == 1
    assert out.endswith(f"Interrupted. The game is not finished.\n{NOT_SAVED}\n")


def test_leaving_words_go_to_standard_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    session = prepare(options(), Terminal(Answerer(["1 2", "quit"]), out, ascii=True, stderr=err))
    assert session.run() == 0
    assert err.getvalue() == f"{NOT_SAVED}\nGoodbye.\n"
    assert "Goodbye" not in out.getvalue() and "You throw" in out.getvalue()


def test_leaving_says_whether_the_game_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    class Interrupt(Answerer):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            if self.queue and self.queue[0] == "^C":
                raise KeyboardInterrupt
            return super().readline(size)

    status, out = run_session(options(), Interrupt(["save my game.json", "^C"], tty=True))
    assert status == 130 and (tmp_path / "my game.json").exists()
    assert "Saved to my game.json.  Continue with: cribbage play --resume 'my game.json'\n" in out
    assert out.endswith("It is saved: continue with cribbage play --resume 'my game.json'\n")
    status, out = run_session(options(), Interrupt(["save my game.json", "y", "1 2", "^C"], tty=True))
    assert out.endswith("The moves since it was saved to my game.json are not saved.\n")
    status, out = run_session(options(), Interrupt(["1 2", "quit"], tty=True))
    assert status == 0 and out.endswith(f"{NOT_SAVED}\nGoodbye.\n")
    assert "Save the game" not in out


# --------------------------------------------------------------------------- the screen


@pytest.mark.parametrize(
    ("variant", "size"), [("seven-card", (80, 24)), ("seven-card", (100, 35)), ("standard", (80, 24))]
)
def test_what_is_shown_between_two_answers_fits_the_screen(variant: str, size: tuple[int, int]) -> None:
    answerer = Answerer(["hint", "1 2", "hint"], tty=True, again=["n", "n"])
    status, out = run_session(options(variant=variant, target=121), answerer, size=size)
    assert status == 0 and "--- Game over ---" in out
    assert max(len(line) for line in out.splitlines()) <= size[0]
    assert max(screen.count("\n") for screen in answerer.screens) <= size[1] - 1
    if size == (80, 24) and variant == "seven-card":
        assert answerer.pauses > 0 and "(more: press Enter)" in out  # a long show is paged
        # The same game on a tall screen, or in a pipe, is not paged.
        tall = Answerer(["hint", "1 2", "hint"], tty=True, again=["n", "n"])
        assert run_session(options(variant=variant, target=121), tall, size=(80, 500))[1].count("(more") == 0
        assert "(more" not in run_session(options(variant=variant, target=121), Answerer())[1]


# --------------------------------------------------------------------------- demo


def demo(*args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cribbage",
        "demo",
        "--variant",
        "short",
        "--a",
        "weak",
        "--b",
        "weak",
        *args,
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_terminal_the_demo_waits_for_enter_before_each_hand() -> None:
    pid, fd = _spawn(argv=demo())
    screen = _read_prompt(fd, ("q: stop) ",))
    assert "Hand 1 — scores 0, 0" in screen and "Hand 2" not in screen
    assert screen.endswith("Press Enter for hand 2 (a: all the rest, q: stop) ")
    os.write(fd, b"\r")
    screen = _read_prompt(fd, ("q: stop) ",))
    assert (
        "Hand 2 — scores" in screen
        and "Hand 3" not in screen
        and screen.endswith("for hand 3 (a: all the rest, q: stop) ")
    )
    os.write(fd, b"a\r")  # all the rest
    rest, status = _finish(pid, fd)
    assert status == 0 and "Final scores" in rest and "Press Enter" not in rest
    pid, fd = _spawn(argv=demo())
    _read_prompt(fd, ("q: stop) ",))
    os.write(fd, b"q\r")  # stop
    rest, status = _finish(pid, fd)
    assert status == 0 and "Hand 2" not in rest and "Final scores" not in rest


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_terminal_ctrl_d_stops_the_demo() -> None:
    pid, fd = _spawn(argv=demo())
    _read_prompt(fd, ("q: stop) ",))
    os.write(fd, b"\x04")
    rest, status = _finish(pid, fd)
    assert status == 0 and "Hand 2" not in rest and "Final scores" not in rest


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("flags", [["--at-once"], ["--pace", "0.1"]])
def test_on_a_terminal_the_demo_may_be_printed_at_once_or_at_a_pace(flags: list[str]) -> None:
    start = time.monotonic()
    pid, fd = _spawn(argv=demo(*flags))
    rest, status = _finish(pid, fd)
    assert status == 0 and "Hand 2 — scores" in rest and "Final scores" in rest and "Press Enter" not in rest
    if "--pace" in flags:
        assert time.monotonic() - start >= 0.1 * (rest.count("\nHand ") - 1)


def test_off_a_terminal_the_demo_is_printed_at_once() -> None:
    result = subprocess.run(
        demo(), capture_output=True, text=True, encoding="utf-8", env=child_env(), timeout=60
    )
    assert result.returncode == 0 and "Final scores" in result.stdout and "Press Enter" not in result.stdout


# --------------------------------------------------------------------------- replay


def test_the_replay_of_a_terminal_game_tells_you_in_the_second_person(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answerer = Answerer(count=lambda true: true + 1)  # over-counts: the penalty is given to Computer
    status, _ = run_session(options(muggins=True), answerer)
    assert status == 0 and answerer.session is not None
    answerer.session.game.save(path)
    result = subprocess.run(
        [sys.executable, "-m", "cribbage", "replay", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=child_env(),
        timeout=60,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert (
        re.search(r"^You discard \S+ \S+ to the crib$", out, re.M)
        and "You play " in out
        and "Your hand: " in out
    )
    assert "You win with a skunk" in out and "Computer (random) plays " in out  # seed 5: you win
    assert "An over-count: Computer (random) is given the 1 counted too many" in out
    for wrong in ("You discards", "You plays", "You's", "You wins", "You scores", "You deals", "You is"):
        assert wrong not in out


def test_the_words_of_the_second_person() -> None:
    from cribbage.engine.events import Event, Kind
    from cribbage.text import event_text

    names = ["You", "Computer (normal)"]
    assert event_text(Event(Kind.WIN, side=0), names) == "You win"
    assert event_text(Event(Kind.WIN, side=1), names) == "Computer (normal) wins"
    assert event_text(Event(Kind.MUGGINS, seat=0, side=0, points=2), names) == "Muggins! You take 2"
    over = Event(Kind.PENALTY, seat=0, side=0, points=3, detail="over-count")
    assert event_text(over, names) == "An over-count: you are given the 3 counted too many"
    assert event_text(Event(Kind.DEAL, seat=0), names) == "You deal"
    assert event_text(Event(Kind.DEAL, seat=1), names) == "Computer (normal) deals"


def test_the_four_player_discard_hint_says_the_play_is_not_estimated() -> None:
    status, out = run_session(options(variant="four-player", target=121), Answerer(["hint", "quit"]))
    assert status == 0 and "With 4 players the play is not estimated" in out
    head = next(line for line in out.splitlines() if "throw" in line and "total" in line)
    assert "play" not in head.split() and "+0.0" not in out
    status, out = run_session(options(), Answerer(["hint", "quit"]))
    assert "not estimated" not in out and "play" in next(line for line in out.splitlines() if "total" in line)


# --------------------------------------------------------------------------- issue 42, item 18


@pytest.mark.parametrize("columns", [80, 100])
def test_lines_are_wrapped_at_word_ends_to_the_screen(columns: int) -> None:
    """The muggins introduction (84 characters) and a bad card's message (over 100) wrap
    between words at the screen's width, never inside one ("computer's\\n)." "positio\\nn")."""
    answerer = Answerer(["1X 2", "quit"])
    _, out = run_session(options(manual=True, muggins=True), answerer, size=(columns, 500))
    assert max(len(line) for line in out.splitlines()) <= columns
    flowing = re.sub(r"\s*\n\s*", " ", out)
    assert "Muggins: the opponent may take the points a count missed (and you the computer's)." in flowing
    bad = "'1X' is not a card: use a rank (A 2-10 J Q K) and a suit (C D H S), like '5h' or '10d', or a"
    assert bad + " position 1 to 6." in flowing


def test_into_a_pipe_lines_are_never_cut() -> None:
    """Without a screen (a file, a pipe) a line stays whole, however long."""
    _, out = run_session(options(manual=True, muggins=True), Answerer(["1X 2", "quit"]))
    assert "Muggins: the opponent may take the points a count missed (and you the computer's).\n" in out
    assert re.search(r"^'1X' is not a card: .* or a position 1 to 6\.$", out, re.M)


def test_the_discard_prompt_names_a_word_that_is_no_card() -> None:
    """As the play's prompt does; a count of cards that is wrong is still said so."""
    _, out = run_session(options(), Answerer(["foo", "1", "quit"]))
    assert "'foo' is not a card: use a rank (A 2-10 J Q K)" in out
    assert "Choose 2 cards, by position like '1 2' or by name like '5h'." in out


class _CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_the_readme_says_the_exit_statuses_of_leaving() -> None:
    readme = re.sub(r"\s+", " ", (SRC.parent / "README.md").read_text(encoding="utf-8"))
    assert (
        "`cribbage play` is left at any question with `quit` (exit status 0), Ctrl-C (130) or Ctrl-D,"
        " the end of the input (1 while the game is unfinished, as when a script's answers run out,"
        " else 0)" in readme
    )
    assert "`cribbage train` stops with `quit` or Ctrl-D (0) or Ctrl-C (130)" in readme
    assert run_session(options(), Answerer(["quit"]))[0] == 0
    assert run_session(options(), Answerer(stop_after=3))[0] == 1
    assert run_session(options(), Answerer())[0] == 0  # a whole game, then the input ends
    ctrl_c = Terminal(_CtrlC(), io.StringIO(), ascii=True, stderr=io.StringIO())
    assert prepare(options(), ctrl_c).run() == 130
