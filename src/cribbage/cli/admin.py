"""``cribbage admin``: the operator's tasks on the server's database.

    cribbage admin prune [--db URL] [--keep-days N] [--keep-finished-days N] [--dry-run] [--json]

``prune`` removes what the server's own periodic pruning would (:mod:`cribbage.web.retention`):
games in progress untouched for ``--keep-days`` (default 30) and finished games older than
``--keep-finished-days`` (default 365), 0 keeping them forever; with ``--dry-run`` it only counts
them.  It reports how many of each it removed (or would) and the bytes of their stored JSON.
Safe while servers run on the same database.
"""

from __future__ import annotations

import argparse
import json

from ..web.retention import KEEP_DAYS, KEEP_FINISHED_DAYS, parse_days

HELP = "operator tasks on the server's database: prune old games"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    tasks = parser.add_subparsers(dest="task", required=True, metavar="TASK")
    prune = tasks.add_parser(
        "prune",
        help="remove old games (as the server does by itself), or count them with --dry-run",
        description="Remove the games in progress untouched for --keep-days and the finished games "
        "older than --keep-finished-days, with their seats and lobby rows.",
    )
    prune.add_argument(
        "--db",
        metavar="URL",
        help="the server's database: an SQLAlchemy URL or an SQLite file "
        "(default: $XDG_DATA_HOME/cribbage/games.db)",
    )
    prune.add_argument(
        "--keep-days",
        metavar="N",
        default=str(KEEP_DAYS),
        help=f"games in progress untouched for N days go (default {KEEP_DAYS}; 0: kept forever)",
    )
    prune.add_argument(
        "--keep-finished-days",
        metavar="N",
        default=str(KEEP_FINISHED_DAYS),
        help=f"finished games go N days after their end (default {KEEP_FINISHED_DAYS}; 0: kept forever)",
    )
    prune.add_argument("--dry-run", action="store_true", help="count what would go; remove nothing")
    prune.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..web.storage import Storage, database_url, default_url, safe_url

    keep = parse_days(args.keep_days, "--keep-days")
    keep_finished = parse_days(args.keep_finished_days, "--keep-finished-days")
    url = database_url(args.db) if args.db else default_url()
    storage = Storage(url)
    try:
        pruned = storage.prune(keep_days=keep, keep_finished_days=keep_finished, dry_run=args.dry_run)
    finally:
        storage.close()
    if args.json:
        figures = {
            "database": safe_url(url),
            "dry_run": args.dry_run,
            "keep_days": keep,
            "keep_finished_days": keep_finished,
            **pruned.to_json(),
        }
        print(json.dumps(figures))
        return 0
    verb = "Would remove" if args.dry_run else "Removed"
    print(
        f"{verb} {pruned.unfinished} {_games(pruned.unfinished)} in progress and {pruned.finished} "
        f"finished {_games(pruned.finished)} ({pruned.bytes / 1024:.1f} KiB of records) "
        f"from {safe_url(url)}"
    )
    return 0


def _games(count: int) -> str:
    return "game" if count == 1 else "games"
