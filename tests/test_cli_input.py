"""The command line's input and errors (issue 42, items 13-15): ASCII output under the C locale,
what card and number text is accepted, and bad input refused with a message that names it."""

from __future__ import annotations

import fcntl
import os
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

import pytest

from cribbage.cli.demo import demo_game
from cribbage.engine.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]


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


def _read_until(fd: int, wanted: str, seconds: float = 30.0) -> str:
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
        screen = _read_until(fd, "to your crib: ")
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
