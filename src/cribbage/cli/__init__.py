"""The ``cribbage`` command: one module per subcommand, imported only when it runs.

Each subcommand module in this package defines ``HELP`` (one line), ``add_arguments(parser)``
and ``run(args) -> int``.  Bad input of any kind ends with exit status 2 and one line on
standard error that names the problem.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import locale
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, NoReturn

from ..engine.errors import CribbageError

# name -> module in this package; listed here so `cribbage --help` can show them all.
COMMANDS: dict[str, str] = {
    "score": "score",
    "peg": "score",
    "stats": "stats",
    "replay": "replay",
    "review": "review",
    "demo": "demo",
    "hint": "hint",
    "match": "match",
    "play": "play",
    "serve": "serve",
    "train": "train",
    "admin": "admin",
}


class UsageError(CribbageError):
    """Bad command-line arguments."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2, like every other error.

    A value that starts with a minus and no letter (``--scores -5,10``, ``--seed -1``, ``-²``), or
    that is minus infinity or not a number (``--timeout -inf``), is read as the option's value,
    to be refused by its own check with a message that names it, never taken for an unknown
    option (every option is a minus and an ASCII letter, or two minuses).  Options are never abbreviated:
    ``--versio`` is an unknown option, not ``--version``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})
        self._negative_number_matcher = re.compile(r"^-([^A-Za-z-]|(inf|infinity|nan)$)", re.IGNORECASE)

    def error(self, message: str) -> NoReturn:
        # "cribbage: error: " is printed by main(): name only the subcommand, if any.
        command = self.prog.removeprefix("cribbage").strip()
        raise UsageError(f"{command}: {message}" if command else message)


class _CommandParser(_Parser):
    """The parser of ``cribbage`` itself: an unknown option before the command is named as such
    (``cribbage -x``), before the command is found missing."""

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        parsed, extras = super().parse_known_args(*args, **kwargs)
        if getattr(parsed, "command", None) is None and not extras:
            self.error(f"a command is required: {', '.join(COMMANDS)} (see cribbage --help)")
        return parsed, extras


def _available() -> dict[str, object]:
    found: dict[str, object] = {}
    for name, module in COMMANDS.items():
        try:
            found[name] = importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:  # a command whose module is not written yet
            if exc.name != f"{__name__}.{module}":
                raise
    return found


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command, or only for ``command`` (faster start-up)."""
    parser = _CommandParser(prog="cribbage", description="Cribbage: rules engine, computer players, games.")
    parser.add_argument("--version", action="version", version=f"cribbage {version()}")
    # Not required here: _CommandParser names an unknown option first, then a missing command.
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    modules = _available() if command not in COMMANDS else {command: _load(command)}
    for name, module in modules.items():
        adder = getattr(module, f"add_{name}_arguments", None) or module.add_arguments  # type: ignore[attr-defined]
        helptext = getattr(module, f"HELP_{name.upper()}", None) or module.HELP  # type: ignore[attr-defined]
        sub_parser = sub.add_parser(name, help=helptext, description=helptext)
        adder(sub_parser)
    return parser


def version() -> str:
    """The installed distribution's version (its metadata), or the sources' own when not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("cribbage-table")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


# --------------------------------------------------------------------------- shared checks


def seed(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 to ``SEED_LIMIT - 1`` (the one rule of every
    command's ``--seed``, the browser's trainer's too)."""
    from ..study.drills import SEED_LIMIT

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to {SEED_LIMIT - 1}, not {text}")
    return value


def whole_number(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low:,} to {high:,}, not {text}")
        return value

    return check


def card_text(text: str) -> str:
    """An argparse type: one or more cards as text; an empty argument is refused, never skipped."""
    if not text.strip(" ,"):
        raise argparse.ArgumentTypeError(f"{text!r} names no card")
    return text


def file_name(text: str) -> str:
    """An argparse type: a file's name; an empty one (which would name the current directory) is
    refused."""
    if not text:
        raise argparse.ArgumentTypeError("'' names no file")
    return text


def directory(text: str) -> Path:
    """An argparse type: a directory's name (it may not exist yet); an empty one is refused,
    never taken for the current directory."""
    if not text:
        raise argparse.ArgumentTypeError("'' names no directory")
    return Path(text)


# --------------------------------------------------------------------------- output


ASCII_FALLBACK: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "—": "-", "–": "-", "−": "-", "·": "."}
"""What a character becomes on an output that cannot encode it (suits become their letters);
any other character becomes ``?``."""


def _fallback(error: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = bytearray()
    for char in error.object[error.start : error.end]:
        if "\udc80" <= char <= "\udcff":  # a byte the input could not decode (surrogateescape)
            out.append(ord(char) - 0xDC00)
        else:
            out += ASCII_FALLBACK.get(char, "?").encode("ascii")
    return bytes(out), error.end


codecs.register_error("cribbage-ascii", _fallback)


def output_encoding(stream: object) -> str:
    """The encoding ``stream`` can show: its own, but the locale's where Python writes UTF-8
    whatever the locale says (its UTF-8 mode, which it turns on by itself under ``LC_ALL=C``: the
    terminal that asked for the C locale shows ASCII), unless ``PYTHONIOENCODING`` chose it."""
    if sys.flags.utf8_mode and not os.environ.get("PYTHONIOENCODING"):
        return locale.getencoding()
    return getattr(stream, "encoding", None) or "ascii"


def plain_output() -> None:
    """Make standard output and error write what their encoding cannot show in ASCII (``5♥`` as
    ``5H``), for every command at once (``PYTHONIOENCODING=ascii``, ``LC_ALL=C``); the terminal
    game, seeing an encoding without suit symbols, draws in ASCII too."""
    for stream in (sys.stdout, sys.stderr):
        encoding = output_encoding(stream)
        try:
            "".join(ASCII_FALLBACK).encode(encoding)
            continue  # it shows them
        except (UnicodeError, LookupError):
            pass
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(encoding=encoding, errors="cribbage-ascii")
            except LookupError:  # an encoding Python does not know: ASCII, then
                reconfigure(encoding="ascii", errors="cribbage-ascii")


def _load(command: str) -> object:
    return importlib.import_module(f"{__name__}.{COMMANDS[command]}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cribbage`` command; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    plain_output()
    command = args_list[0] if args_list else None
    try:
        parser = build_parser(command)
        args = parser.parse_args(args_list)
        module = _load(args.command)
        runner = getattr(module, f"run_{args.command}", None) or module.run  # type: ignore[attr-defined]
        return int(runner(args))
    except CribbageError as exc:
        print(f"cribbage: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
