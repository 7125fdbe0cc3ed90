"""The ``cribbage`` command: one module per subcommand, imported only when it runs.

Each subcommand module in this package defines ``HELP`` (one line), ``add_arguments(parser)``
and ``run(args) -> int``.  Bad input of any kind ends with exit status 2 and one line on
standard error that names the problem.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

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
    """An argument parser whose errors are one line and exit status 2, like every other error."""

    def error(self, message: str) -> NoReturn:
        # "cribbage: error: " is printed by main(): name only the subcommand, if any.
        command = self.prog.removeprefix("cribbage").strip()
        raise UsageError(f"{command}: {message}" if command else message)


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
    parser = _Parser(prog="cribbage", description="Cribbage: rules engine, computer players, games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    modules = _available() if command not in COMMANDS else {command: _load(command)}
    for name, module in modules.items():
        adder = getattr(module, f"add_{name}_arguments", None) or module.add_arguments  # type: ignore[attr-defined]
        helptext = getattr(module, f"HELP_{name.upper()}", None) or module.HELP  # type: ignore[attr-defined]
        sub_parser = sub.add_parser(name, help=helptext, description=helptext)
        adder(sub_parser)
    return parser


def _load(command: str) -> object:
    return importlib.import_module(f"{__name__}.{COMMANDS[command]}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cribbage`` command; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
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
