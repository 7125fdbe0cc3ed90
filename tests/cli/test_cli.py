"""The ``cribbage`` command as a whole: ``--version``, the README's list of every option, output
that cannot show suit symbols, and every bad input refused with exit status 2 and one line."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribbage.cli import build_parser, main
from cribbage.cli.demo import demo_game
from cribbage.engine.actions import Discard
from cribbage.engine.cards import format_cards
from cribbage.engine.events import Event, Kind
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import score_show
from cribbage.text import event_text
from cribbage.tui.look import Look
from cribbage.tui.narrate import Narrator, SeatNames

ROOT = Path(__file__).resolve().parents[2]


def cribbage(
    *argv: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the command in a process of its own, with this checkout's sources first."""
    path = str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "cribbage", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env={**os.environ, "PYTHONPATH": path, **(env or {})},
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short finished game between computers (to 31: its review, run in a subprocess for
    every seat, is that of any game in fewer decisions), saved as a record."""
    path = tmp_path_factory.mktemp("records") / "game.json"
    demo_game(get_rules("short", target=31), ["weak", "weak"], 3).save(path)
    return path


# --------------------------------------------------------------------------- 13: --version, README


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    done = cribbage("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"cribbage {version('cribbage-table')}\n", "")


def _commands(parser: argparse.ArgumentParser, path: str = "cribbage") -> dict[str, list[str]]:
    """Every command path (``cribbage hint play``) with its documented option strings."""
    found: dict[str, list[str]] = {path: []}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update(_commands(sub, f"{path} {name}"))
        elif action.option_strings and action.help is not argparse.SUPPRESS:
            found[path] += [o for o in action.option_strings if o not in ("-h", "--help")]
    return found


def _readme_entries(commands: dict[str, list[str]]) -> dict[str, str]:
    """The README's Command line section: each command's line with its continuation lines, by the
    longest command path it starts with (``cribbage hint play``); ``cribbage``: the whole section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Command line\n", 1)[1].split("\n## ", 1)[0]
    entries: dict[str, str] = {"cribbage": section}
    key = ""
    for line in section.splitlines():
        if line.startswith("    cribbage "):
            key = max((p for p in commands if (line.strip() + " ").startswith(p + " ")), key=len)
            entries[key] = entries.get(key, "") + line
        elif line.startswith("     ") and key:
            entries[key] += "\n" + line
        else:
            key = ""
    return entries


def test_readme_documents_every_command_and_every_option() -> None:
    commands = _commands(build_parser())
    entries = _readme_entries(commands)
    missing = []
    for path, options in commands.items():
        group = any(other.startswith(path + " ") for other in commands)  # such as "cribbage hint"
        if not group and path not in entries:
            missing.append(path)
            continue
        text = entries.get(path, "")
        missing += [o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text)]
        missing = [m if m.startswith("cribbage") else f"{path} {m}" for m in missing]
    assert missing == []


# --------------------------------------------------------------------------- 14: ASCII output


@pytest.mark.parametrize(
    "argv",
    [
        ("score", "5H", "5C", "5S", "JD", "--starter", "5D"),
        ("peg", "4H", "6D", "5S"),
        ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone"),
        ("hint", "play", "--hand", "7C", "8D", "2S", "--sequence", "TD", "5H"),
        ("replay", "RECORD"),
        ("review", "RECORD"),
        ("demo", "--variant", "short", "--a", "weak", "--b", "weak"),
        ("score", "5♥ 5♥ 5S JD", "--starter", "5D"),  # an error that names the cards typed
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_every_command_writes_ascii_where_the_output_cannot_show_suits(
    argv: tuple[str, ...], record: Path
) -> None:
    argv = tuple(str(record) if a == "RECORD" else a for a in argv)
    done = cribbage(*argv, env={"PYTHONIOENCODING": "ascii"})
    assert "Traceback" not in done.stderr
    assert done.stdout.isascii() and done.stderr.isascii()
    if argv[1] == "5♥ 5♥ 5S JD":
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "5H" in done.stderr
    else:
        assert done.returncode == 0 and re.search(r"\b(10|[2-9AJQK])[CDHS]\b", done.stdout)


def test_the_c_locale_writes_ascii_too(record: Path) -> None:
    env = {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    done = cribbage("replay", str(record), env=env)
    assert (done.returncode, done.stderr) == (0, "") and done.stdout.isascii()
    assert "Hand 1 - scores 0, 0" in done.stdout


# --------------------------------------------------------------------------- 15: bad input


BIG = str(2**100)


@pytest.fixture(scope="module")
def nosuch(tmp_path_factory: pytest.TempPathFactory, record: Path) -> Path:
    """A record whose rules name a variant that does not exist."""
    data = json.loads(record.read_text(encoding="utf-8"))
    data["rules"]["name"] = "nosuch"
    path = tmp_path_factory.mktemp("records") / "nosuch.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


BAD = [
    ("--nosuch",),
    ("score", "", "5C", "5S", "JD", "--starter", "5D"),
    ("score", "5H 5C 5S JD", ",", "--starter", "5D"),
    ("peg", "4H", ""),
    ("hint", "discard", "", "5H", "5C", "6D", "JS", "QH", "2C", "--pone"),
    ("match", "--a", "random", "--b", "random", "--games", "99999999999999999999999"),
    ("match", "--a", "random", "--b", "random", "--jobs", "100000"),
    ("match", "--a", "random", "--b", "random", "--timeout", "nan"),
    ("play", "--seed", "-1"),
    ("play", "--seed", BIG),
    ("demo", "--seed", "-1"),
    ("demo", "--seed", BIG),
    ("match", "--a", "random", "--b", "random", "--seed", "-1"),
    ("match", "--a", "random", "--b", "random", "--seed", BIG),
    ("train", "discard", "--seed", "-1"),
    ("train", "play", "--seed", BIG),
    ("hint", "play", "--hand", "7C", "8D", "--seed", "-1"),
    ("hint", "play", "--hand", "7C", "8D"),
    ("hint", "play", "--hand", "7C", "--sequence", "TD", "5H"),
    ("play", "--target", "0"),
    ("play", "--target", "1001"),
    ("play", "--level", "expert"),
    ("replay", "NOSUCH"),
    ("review", "NOSUCH"),
    ("play", "--resume", "NOSUCH"),
    ("hint", "discard", "5H", "5C", "6D", "JS", "QH", "2C", "--pone", "--scores", "-5,10"),
    ("train", "discard", "--scores", "-5,10"),
    ("train", "discard", "--scores", "5,-10"),
]


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_every_bad_input_is_exit_2_and_one_line_on_stderr(
    argv: tuple[str, ...], nosuch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = tuple(str(nosuch) if a == "NOSUCH" else a for a in argv)
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith("cribbage: error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_bad_input_messages_name_the_problem(nosuch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def error(*argv: str) -> str:
        assert main(list(argv)) == 2
        return capsys.readouterr().err

    assert "'' names no card" in error("score", "", "5C", "5S", "JD", "--starter", "5D")
    assert "a seed is from 0 to 9007199254740991, not -1" in error("demo", "--seed", "-1")
    assert "must be 1 to 10,000,000" in error("match", "--a", "random", "--b", "random", "--games", BIG)
    assert "give the 2 cards you played" in error("hint", "play", "--hand", "7C", "8D")
    assert "unknown variant 'nosuch'" in error("replay", str(nosuch))
    assert "a score is 0 or more" in error("train", "discard", "--scores", "-5,10")
    assert "invalid choice: 'expert'" in error("play", "--level", "expert")


# --------------------------------------------------------------------------- 17: wording


def test_replay_shows_each_seats_discard(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    game = Game.load(record)
    discards = [a for a in game.actions if isinstance(a, Discard)]
    lines = re.findall(r"^weak \((\d)\) discards (\S+ \S+) to the crib$", out, re.M)
    assert lines == [(str(d.seat), format_cards(d.cards, pretty=True)) for d in discards]


def test_the_show_names_pairs_royal_and_double_runs_in_the_replay_and_the_terminal_game() -> None:
    show = score_show("3H 3C 3S 4D", "5D")  # a triple run: three runs and three pairs
    event = Event(Kind.SHOW, seat=0, side=0, points=show.total, cards=show.hand, combos=show.combos)
    text = event_text(event, ["Ann", "Bob"]) or ""
    assert "triple run of 3 for 15" in text and "pair for 2" not in text and text.count("\n") == 4
    lines = [
        line.plain
        for line in Narrator(Look(fancy=False), SeatNames.for_players(2, False)).combos(show.combos)
    ]
    words = ["Fifteen for 2"] * 3 + ["Triple run of 3 for 15"]
    assert [line.strip().startswith(w + " ") for line, w in zip(lines, words, strict=True)] == [True] * 4
    assert lines[-1].endswith("21")
