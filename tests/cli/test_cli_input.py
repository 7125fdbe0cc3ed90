"""The command line's input and errors (issue 42, items 13-15): ASCII output under the C locale,
what card and number text is accepted, and bad input refused with a message that names it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from cribbage.ai.situation import PlaySituation
from cribbage.cli import main
from cribbage.cli.demo import demo_game
from cribbage.engine.cards import parse_cards
from cribbage.engine.errors import CardError
from cribbage.engine.rules import get_rules
from cribbage.tui.parse import InputError, parse_number, pick_cards
from test_tui import _read_until

ROOT = Path(__file__).resolve().parents[2]


def c_locale_env() -> dict[str, str]:
    """The environment of ``env -u LANG LC_ALL=C``: nothing else says which encoding to write."""
    skip = ("LANG", "LANGUAGE", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "NO_COLOR")
    env = {k: v for k, v in os.environ.items() if k not in skip and not k.startswith("LC_")}
    env["LC_ALL"] = "C"
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return env


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short finished game between computers, saved as a record."""
    path = tmp_path_factory.mktemp("records") / "game.json"
    demo_game(get_rules("short"), ["weak", "weak"], 3).save(path)
    return path


# --------------------------------------------------------------------------- 13: the C locale


SYMBOLS = re.compile("[♣♦♥♠─—●○·]")


@pytest.mark.parametrize(
    "argv",
    [("score", "5H", "5C", "5S", "JD", "-s", "5D"), ("replay", "RECORD"), ("score", "5♥", "5♥", "-s", "5D")],
    ids=["score", "replay", "score-error"],
)
def test_the_c_locale_writes_cards_as_letters_though_python_would_write_utf8(
    argv: tuple[str, ...], record: Path
) -> None:
    argv = tuple(str(record) if a == "RECORD" else a for a in argv)
    done = subprocess.run(
        [sys.executable, "-m", "cribbage", *argv],
        capture_output=True,
        env=c_locale_env(),
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert done.stdout.isascii() and done.stderr.isascii(), out + err
    if argv[0] == "replay":
        assert done.returncode == 0 and "Hand 1 - scores 0, 0" in out
    elif argv[1] == "5♥":
        assert done.returncode == 2 and "duplicate card '5H'" in err
    else:
        assert done.returncode == 0 and "double pair royal for 12 (5C 5D 5H 5S)" in out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_terminal_game_in_the_c_locale_draws_in_ascii() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game on a terminal whose locale is C
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        env = {**c_locale_env(), "TERM": "xterm-256color"}
        argv = [sys.executable, "-m", "cribbage", "play", "--level", "random", "--seed", "3"]
        os.execvpe(sys.executable, argv, env)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        screen = _read_until(fd, "to your crib: ", seconds=30)
        assert "to your crib: " in screen and "Traceback" not in screen
        assert not SYMBOLS.search(screen), screen
        assert re.search(r"\b(10|[2-9AJQK])[CDHS]\b", screen)
        os.write(fd, b"quit\r")
        rest = _read_until(fd, "\x00never\x00", seconds=20)
        assert "Traceback" not in rest
    finally:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if not done:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


# --------------------------------------------------------------------------- 15: the messages


def error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused command writes (exit status 2, nothing on standard output)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert (status, out) == (2, ""), (status, out, err)
    assert err.startswith("cribbage: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err.removeprefix("cribbage: error: ").rstrip("\n")


@pytest.mark.parametrize("holds", ["-1", "5", "99"])
def test_a_bad_opponent_holds_is_named(holds: str, capsys: pytest.CaptureFixture[str]) -> None:
    message = error(capsys, "hint", "play", "--hand", "7C", "8D", "2S", "4H", "--opponent-holds", holds)
    assert message == f"--opponent-holds {holds}: the opponent holds 0 to 4 cards in standard, not {holds}"


def test_the_opponent_holds_is_checked_against_the_variants_hand(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["hint", "play", "--hand", "7C", "8D", "2S", "4H", "5H", "--variant", "seven-card"]
    message = error(capsys, *argv, "--opponent-holds", "6")
    assert message == "--opponent-holds 6: the opponent holds 0 to 5 cards in seven-card, not 6"
    assert main([*argv, "--opponent-holds", "5"]) == 0


@pytest.mark.parametrize("command", ["replay", "review"])
def test_an_empty_file_name_is_refused_as_such(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert error(capsys, command, "") == f"{command}: argument file: '' names no file"


def test_an_empty_resume_is_refused_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    assert error(capsys, "play", "--resume", "") == "play: argument --resume: '' names no file"


def test_an_unknown_option_before_the_command_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert error(capsys, "-x") == "unrecognized arguments: -x"
    assert error(capsys, "-x", "score", "5H", "5C", "5S", "JD", "-s", "5D") == "unrecognized arguments: -x"
    assert error(capsys).startswith("a command is required: score, peg, stats, replay")


@pytest.mark.parametrize("value", ["-inf", "-Infinity", "-nan", "-.5", "inf"])
def test_a_timeout_that_is_no_number_of_seconds_is_named(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    message = error(capsys, "match", "--a", "random", "--b", "random", "--timeout", value)
    assert message == f"match: argument --timeout: must be more than 0 and at most 3600 seconds, not {value}"


def test_records_must_name_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "a file"
    a_file.write_text("kept", encoding="utf-8")
    match = ["match", "--a", "random", "--b", "random", "--games", "2", "--records"]
    assert error(capsys, *match, str(a_file)) == f"--records {a_file}: a file, not a directory"
    assert error(capsys, *match, os.devnull) == f"--records {os.devnull}: a file, not a directory"
    assert a_file.read_text(encoding="utf-8") == "kept"
    below = a_file / "games"
    assert error(capsys, *match, str(below)) == f"--records {below}: {a_file} is a file, not a directory"


def test_records_refuses_an_empty_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # were it taken for the current directory, the games would land here
    match = ["match", "--a", "random", "--b", "random", "--games", "2", "--records", ""]
    assert error(capsys, *match) == "match: argument --records: '' names no directory"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "unknown"),
    [
        (("--versio",), "--versio"),
        (("score", "5H", "5C", "5S", "JD", "-s", "5D", "--js"), "--js"),
        (("match", "--a", "random", "--b", "random", "--game", "2"), "--game 2"),
    ],
    ids=lambda a: a if isinstance(a, str) else " ".join(a),
)
def test_options_are_never_abbreviated(
    argv: tuple[str, ...], unknown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert error(capsys, *argv) == f"unrecognized arguments: {unknown}"


def test_a_typed_situation_names_what_the_opponent_holds() -> None:
    with pytest.raises(CardError, match=r"^the opponent holds 0 to 4 cards, not 5$"):
        PlaySituation.typed(parse_cards("7C 8D 2S 4H"), opponent_holds=5)


# --------------------------------------------------------------------------- 14: what is accepted


README = (ROOT / "README.md").read_text(encoding="utf-8")
CARDS_PARAGRAPH = README[README.index("Cards are written rank then suit") :].split("\n\n")[0]


@pytest.mark.parametrize(
    ("cards", "documented"),
    [
        (["5♡", "5♣", "5♤", "J♢"], "`♧ ♢ ♡ ♤`"),
        (["5H,", "5C,", "5S,", "JD"], "`5H, 5C`"),
        (["5H,5C,5S,JD"], "`'5H,5C'`"),
        (["5H 5C 5S JD"], "`'5H 5C'`"),
        (["5H;5C;5S;JD"], "semicolons"),
        (["5H\t", "5C\n", "5S", "JD"], "a tab or a line break is a\nspace"),
    ],
    ids=["look-alikes", "commas after", "commas", "one argument", "semicolons", "tab and newline"],
)
def test_the_card_text_accepted_is_the_card_text_documented(
    cards: list[str], documented: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", *cards, "-s", "5♢"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "29"]
    assert documented in CARDS_PARAGRAPH


def test_full_width_digits_are_numbers_as_documented(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--dealer", "--scores"]
    assert main([*hand, "100,110"]) == 0
    ascii_digits = capsys.readouterr().out
    assert main([*hand, "１００,１１０"]) == 0
    assert capsys.readouterr().out == ascii_digits
    assert "full-width digits" in CARDS_PARAGRAPH and "--vers` is not `--version`" in CARDS_PARAGRAPH


@pytest.mark.parametrize("scores", ["²,1", "1,¹", "-²,1"])
def test_digits_that_are_no_decimal_digits_are_refused(
    scores: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = ["hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--dealer", "--scores", scores]
    message = error(capsys, *hand)
    assert message == f"--scores takes your score and the opponent's, such as 100,110, not {scores!r}"


def test_a_port_in_superscript_digits_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert error(capsys, "serve", "--port", "²") == "serve: argument --port: a port is 0 to 65535, not '²'"


def test_an_empty_starter_is_refused_by_hint_play_as_by_score(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["--hand", "7C", "8D", "2S", "4H"]
    assert (
        error(capsys, "hint", "play", *hand, "--starter", "")
        == "hint play: argument --starter: '' names no card"
    )
    assert (
        error(capsys, "hint", "play", *hand, "--starter", " ")
        == "hint play: argument --starter: ' ' names no card"
    )
    assert "invalid card ''" in error(capsys, "score", "5H", "5C", "5S", "JD", "-s", "")


def test_superscript_digits_are_no_position_nor_count_in_the_terminal_game() -> None:
    hand = parse_cards("AC 2C 3C 5C TH JC")
    with pytest.raises(InputError, match=r"^'²' is not a card: "):
        pick_cards("² 1", hand, 2)
    assert pick_cards("１ ２", hand, 2) == hand[:2]  # full-width digits are positions
    with pytest.raises(InputError, match=r"^Type the number of points, like 8\.$"):
        parse_number("²")


def test_superscript_digits_are_no_days(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    message = error(capsys, "admin", "prune", "--db", db, "--keep-days", "²", "--dry-run")
    assert message == "--keep-days is a whole number of days, 0 (forever) or more: '²'"
