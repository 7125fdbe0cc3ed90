"""Every example of the README is run (issue 42, item 16).

Each ``cribbage ...`` command of the README's code blocks is run in-process through the CLI's
``main()``, in two forms: the *short* one (every ``[...]`` left out: the brackets say the rest is
optional) and the *full* one (every ``[...]`` given, the first of ``a|b`` and of ``X | Y``).  Both
must end with exit status 0.  Placeholders (``N``, ``NAME``, ``FILE``...) are given the values of
:data:`PLACEHOLDERS`; commands that would run long get a bounded variant (:func:`bounded`), and
the few that are not run at all are listed in :data:`NOT_RUN` with the reason.  The Python
example (the "As a library" block) is run too.  The README shows no command's output, so only
the exit status is checked; every other line of a code block must be listed in
:data:`OTHER_LINES`, so that an example added to the README is run here or said not to be.
"""

from __future__ import annotations

import io
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from cribbage.app.tournaments.settings import TournamentSettings
from cribbage.cli import main
from cribbage.cli.demo import demo_game
from cribbage.engine.rules import get_rules
from cribbage.storage import Storage
from cribbage.storage.tournaments import StoredTournament

README = Path(__file__).resolve().parents[2] / "README.md"

NOT_RUN: dict[str, str] = {
    "serve": "the server runs until it is stopped; tests/web/ and tests/browser/ start it on 127.0.0.1",
}
"""Commands not run, by their first word, and why."""

OTHER_LINES: dict[str, str] = {
    "./run.sh": "installs into .venv and starts the server until it is stopped",
    "./test.sh": "the whole suite: this test is part of it",
    "python bench/": "the benchmarks take minutes each and print figures, not checks",
}
"""Code-block lines that are not ``cribbage`` examples (by their start), and why they are not run
here.  A line ``... && cribbage serve`` names a command: it is taken as one."""

PLACEHOLDERS: dict[str, str] = {
    "N": "1",
    "NAME": "standard",  # the variant every example fits (six cards dealt, --scores 100,110)
    "SECONDS": "5",
}
"""The value of each placeholder (``FILE``, ``DIR``, ``URL`` and ``ID`` are made by the test)."""

TOURNAMENT = "readme"
"""The id of the tournament the test stores in the ``URL`` database (``admin tournaments ID``)."""

STDIN: dict[str, str] = {"play": "quit\n", "train": "quit\n"}
"""What a command that asks questions reads: leaving at once (exit status 0, as the README says)."""


@dataclass(frozen=True)
class Example:
    """One ``cribbage`` command of the README with its continuation lines (without ``cribbage``
    and the comments)."""

    synopsis: str

    @property
    def name(self) -> str:
        words = self.synopsis.split()
        return " ".join(words[:2] if words[0] in ("hint", "train", "admin", "stats") else words[:1])


def code_lines() -> list[str]:
    """The lines of the README's code blocks indented by four spaces (the fenced one is Python)."""
    lines: list[str] = []
    fenced = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            assert line in ("```python", "```"), f"a fenced block this test does not run: {line}"
        elif not fenced and line.startswith("    "):
            lines.append(line)
    return lines


def python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def examples() -> list[Example]:
    """Every ``cribbage`` command of the README's code blocks, with its continuation lines."""
    found: list[list[str]] = []
    for line in code_lines():
        text = re.sub(r"\s+#\s.*$", "", line).strip()
        command = re.search(r"(?:^|&&\s*)cribbage\s+(.*)$", text)
        if command:
            found.append([command.group(1)])
        elif found and text.startswith(("[", "--")):
            found[-1].append(text)
        elif not line.strip().startswith("#") and not text.startswith(tuple(OTHER_LINES)):
            raise AssertionError(f"a README example this test neither runs nor lists: {line!r}")
    return [Example(" ".join(parts)) for parts in found]


def _first(alternatives: str) -> str:
    """``--dealer|--pone`` -> ``--dealer``; ``weak|normal`` -> ``weak``."""
    return alternatives.split("|")[0]


def forms(synopsis: str) -> dict[str, list[str]]:
    """The short form (no ``[...]``) and the full one (every ``[...]``), as argument lists."""
    short = re.sub(r"\[[^\]]*\]", " ", synopsis)
    full = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1).split(" | ")[0], synopsis)
    return {
        name: [_first(word) for word in shlex.split(text) if word != "..."]
        for name, text in (("short", short), ("full", full))
    }


def bounded(argv: list[str]) -> list[str]:
    """A match of 2 games to 61 (the short variant), not 1,000 to 121 (about 12 minutes between
    strong and normal)."""
    if argv[0] != "match":
        return argv
    for option, value in (("--games", "2"), ("--variant", "short")):
        if option in argv:
            at = argv.index(option) + 1
            argv = [*argv[:at], value, *argv[at + 1 :]]
        else:
            argv = [*argv, option, value]
    return argv


CASES = [
    pytest.param(example, form, id=f"{example.synopsis[:40]} ({form})")
    for example in examples()
    for form in ("short", "full")
    if example.synopsis.split()[0] not in NOT_RUN
]


def test_the_readme_examples_are_found() -> None:
    """Every command of the README is an example here (each but serve), the hint's among them."""
    names = {example.name for example in examples()}
    assert {"serve", "play", "hint play", "hint discard", "match", "demo", "admin prune"} <= names
    assert len(CASES) >= 2 * 17


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished game's record (a game to 31: its review and replay are those of any game, in
    fewer decisions), a saved game to resume, a folder and a database's home."""
    folder = tmp_path_factory.mktemp("readme")
    record = folder / "game.json"
    demo_game(get_rules("short", target=31), ["weak", "weak"], 3).save(record)
    saved, records, data = folder / "saved.json", folder / "records", folder / "data"
    data.mkdir()
    storage = Storage(f"sqlite:///{data / 'games.db'}")  # the tournament of `admin tournaments ID`
    settings = TournamentSettings(name="Readme night").to_json()
    storage.tournaments.create(StoredTournament(TOURNAMENT, "Readme night", None, settings, "registration"))
    storage.close()
    return {"record": record, "saved": saved, "dir": records, "data": data}


def _filled(argv: list[str], files: dict[str, Path]) -> list[str]:
    out = []
    for word in argv:
        if word == "FILE":
            word = str(files["saved"] if argv[0] == "play" else files["record"])
        elif word == "DIR":
            word = str(files["dir"])
        elif word == "ID":
            word = TOURNAMENT
        elif word == "URL":
            word = str(files["data"] / "games.db")
        out.append(PLACEHOLDERS.get(word, word))
    return out


@pytest.mark.parametrize(("example", "form"), CASES)
def test_every_readme_example_runs(
    example: Example,
    form: str,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(files["data"]))  # admin's default database: the test's
    if not files["saved"].exists():  # a game to resume: one hand's discard played, then saved
        monkeypatch.setattr(sys, "stdin", io.StringIO(f"1 2\nsave {files['saved']}\nquit\n"))
        assert main(["play", "--level", "random", "--seed", "1", "--ascii"]) == 0
        capsys.readouterr()
    argv = bounded(_filled(forms(example.synopsis)[form], files))
    monkeypatch.setattr(sys, "stdin", io.StringIO(STDIN.get(argv[0], "")))
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 0, f"cribbage {shlex.join(argv)}: exit status {status}\n{err}"
    assert "Traceback" not in err


def test_the_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = python_blocks()
    exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("fifteen for 2") and lines[15].split() == ["total", "29"]
    assert lines[-1].startswith("GameResult(")  # the second game too, played to its end
