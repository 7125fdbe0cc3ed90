"""``cribbage match``: two players play many games; win rate, confidence interval, points by source.

    $ cribbage match --a random --b random --games 1000 --seed 1 --jobs 2 --json
    {"a": "random", "b": "random", "variant": "standard", "games": 1000, "a_wins": 507, ...}

Games come in seat-swapped sets that share their cards (see :mod:`cribbage.table.match`).  Players are
named as in ``cribbage.players.PLAYERS`` (``random``, and the computer levels) or
``exec:"COMMAND"`` for a program speaking the JSON-lines protocol of ``docs/protocol.md``.
Progress is shown on standard error from the start (never with ``--json``): a bar on a terminal,
else a line every few seconds, each with the time left at the rate so far.  Games lost by a
failing bot are reported on standard error as they happen and listed under ``"errors"``.
Ctrl-C stops the match: it says how many games were played and reports the whole sets played so
far (exit status 130).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from ..engine.errors import CribbageError
from ..engine.rules import VARIANTS, get_rules
from ..players.external import DEFAULT_TIMEOUT
from ..table.match import SOURCES, MatchError, MatchInterrupted, MatchResult, check_player
from ..table.match import (
    run_match as play_match,  # not imported as run_match: the CLI would take it for run()
)
from . import directory, seed, whole_number

HELP = "play two players against each other for many games and report win rate and points"

MAX_GAMES: Final = 10_000_000
"""The most games one match plays (about a day on one core between the strong players)."""

MAX_JOBS: Final = 256
"""The most processes a match plays on."""

PROGRESS_EVERY: Final = 5.0
"""Seconds between the lines of progress written when standard error cannot show a bar."""


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 3600 seconds, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--a NAME --b NAME [--games N] [--seed S] [--jobs N] [--variant V] [--timeout S] [--json]``."""
    player_help = 'a player: random, weak, normal, strong, or exec:"COMMAND" for an external bot'
    parser.add_argument("--a", required=True, metavar="PLAYER", help=player_help + " (seat 0)")
    parser.add_argument("--b", required=True, metavar="PLAYER", help=player_help)
    parser.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=1000,
        help=f"games to play, 1 to {MAX_GAMES:,}, rounded up to whole seat-swapped sets (default 1000)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="the match's seed (default 1)")
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=1,
        help=f"processes to play on, 1 to {MAX_JOBS}; the result does not depend on it (default 1)",
    )
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="NAME",
        help=f"the variant: {', '.join(VARIANTS)} (default standard)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds an external bot may take per answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--records",
        type=directory,
        metavar="DIR",
        help="save each game's record in DIR (game-00001.json, ...), to replay or review",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a summary")


def _make_directory(path: Path) -> None:
    """Make ``--records``'s directory (and its parents) unless it is there; a file in the way is
    named as such."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        in_the_way = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        what = "a file" if in_the_way == path else f"{in_the_way} is a file"
        raise CribbageError(f"--records {path}: {what}, not a directory") from None
    except OSError as exc:
        raise CribbageError(f"--records {path}: {exc.strerror or exc}") from None


def format_result(result: MatchResult) -> str:
    """A short report: wins with the interval, points by source, by seat, skunks and errors."""
    data: dict[str, Any] = result.to_json()
    lo, hi = data["ci95"]
    lines = [
        f"{data['a']} (a) vs {data['b']} (b), {data['variant']}, {data['games']} games, seed {data['seed']}",
        f"a wins {data['a_wins']}, b wins {data['b_wins']}: a win rate {data['a_win_rate']:.1%} "
        f"(95% CI {lo:.1%} to {hi:.1%})",
        "",
        f"{'points per game':18}{'total':>8}" + "".join(f"{s:>9}" for s in SOURCES),
    ]
    for role in ("a", "b"):
        points = data[f"{role}_points"]
        lines.append(
            f"{role:18}{data[f'{role}_points_per_game']:8.2f}" + "".join(f"{points[s]:9.2f}" for s in SOURCES)
        )
    lines.append("")
    for role in ("a", "b"):
        for name, label in (("first_dealer", "dealing first"), ("not_first_dealer", "not dealing first")):
            part = data["by_seat"][role][name]
            lines.append(
                f"{role} {label:18} {part['games']:>7} games, win rate {part['win_rate']:6.1%}, "
                f"{part['points_per_game']:.2f} points per game"
            )
    skunks, doubles = data["skunks"], data["double_skunks"]
    lines.append("")
    lines.append(
        f"skunks: a {skunks['a']}, b {skunks['b']}; double skunks: a {doubles['a']}, b {doubles['b']}"
    )
    lines.append(
        f"{data['hands_per_game']:.2f} hands per game; {data['seconds']:.2f} s, "
        f"{_rate(data['games_per_second'])} games per second on {data['jobs']} job(s)"
    )
    if result.errors:
        lines.append(
            f"{len(result.errors)} game(s) lost by a failing bot: "
            f"a {data['forfeits']['a']}, b {data['forfeits']['b']}"
        )
    return "\n".join(lines)


def _rate(rate: float) -> str:
    """``2,534``, ``12.5`` or ``0.29`` games per second.

    >>> _rate(2534.1), _rate(12.5), _rate(0.29), _rate(3.0)
    ('2,534', '12.5', '0.29', '3')
    """
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:g}"


def duration(seconds: float) -> str:
    """A time left, as precise as it is worth: ``40 s``, ``12 min``, ``1 h``, ``2 h 5 min``.

    >>> duration(39.6), duration(719), duration(7500), duration(0.2)
    ('40 s', '12 min', '2 h 5 min', '0 s')
    """
    whole = round(seconds)
    if whole < 100:
        return f"{whole} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.variant)
    for name in (args.a, args.b):
        check_player(name)
    console = Console(stderr=True)
    console.soft_wrap = not console.is_terminal  # lines wrap at the terminal's width, never in a file
    show_bar = console.is_terminal and not args.json
    if args.records is not None:
        _make_directory(args.records)

    def report(error: MatchError) -> None:
        console.print(Text(f"game {error.game}: {error.player} lost: {error.message}"), highlight=False)

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    # Without a bar (standard error is a file, a pipe or a dumb terminal), a line now and then.
    lines = not args.json and not (show_bar and not console.is_dumb_terminal)
    start = last_line = time.monotonic()
    with Progress(*columns, console=console, disable=not show_bar, transient=True) as progress:
        task = progress.add_task("games", total=None)

        def advance(done: int, total: int) -> None:
            nonlocal last_line
            progress.update(task, completed=done, total=total)
            now = time.monotonic()
            if lines and 0 < done < total and now - last_line >= PROGRESS_EVERY:
                last_line = now
                spent = now - start
                left = duration(spent / done * (total - done))
                console.print(
                    f"games: {done} of {total} played ({spent:.0f} s, about {left} left)", highlight=False
                )

        try:
            result = play_match(
                args.a,
                args.b,
                args.games,
                args.seed,
                args.jobs,
                rules,
                advance,
                timeout=args.timeout,
                on_error=report,
                records=args.records,
            )
        except MatchInterrupted as stop:
            progress.stop()
            return _interrupted(stop, args.json, console)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_result(result))
    return 0


def _interrupted(stop: MatchInterrupted, as_json: bool, console: Console) -> int:
    """After Ctrl-C: what was played (whole sets), and exit status 130."""
    result = stop.result
    console.print(f"Interrupted after {result.games} of {stop.planned} games.", highlight=False)
    if as_json:
        print(json.dumps({**result.to_json(), "interrupted": True}))
    elif result.games:
        print(format_result(result))
    sys.stdout.flush()
    return 130
