"""``cribbage admin``: the operator's tasks on the server's database.

    cribbage admin prune [--db URL] [--keep-days N] [--keep-finished-days N] [--dry-run] [--json]
    cribbage admin migrate [--db URL]
    cribbage admin reports [--db URL] [--limit N] [--json]
    cribbage admin tournaments [ID] [--repair] [--db URL] [--json]

``prune`` removes what the server's own periodic pruning would (:mod:`cribbage.web.retention`):
games in progress untouched for ``--keep-days`` (default 30) and finished games older than
``--keep-finished-days`` (default 365), 0 keeping them forever; with ``--dry-run`` it only counts
them.  It reports how many of each it removed (or would) and the bytes of their stored JSON.
Safe while servers run on the same database.

``migrate`` brings the database's schema to this version's (:mod:`cribbage.storage.migrations`), as
``cribbage serve`` does when it starts, and says from which revision to which.  A database that a
newer version migrated is refused, unchanged.

``reports`` lists the chat messages people reported at their tables (:mod:`cribbage.app.chat`),
newest first: when, which game, the reporting seat, and the message (its seat and text, or its
quick phrase's code); with ``--json``, one JSON object: ``{"database", "reports": [...]}``.

``tournaments`` lists the tournaments, shows one, or repairs one (:mod:`.admin_tournaments`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..storage.migrations import Migrated
from ..web.retention import KEEP_DAYS, KEEP_FINISHED_DAYS, parse_days
from . import admin_tournaments

if TYPE_CHECKING:
    from ..storage import Storage

HELP = (
    "operator tasks on the server's database: prune old games, migrate the schema, read chat reports, "
    "list and repair tournaments"
)

DB_HELP = (
    "the server's database: an SQLAlchemy URL or an SQLite file (default: $XDG_DATA_HOME/cribbage/games.db)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    tasks = parser.add_subparsers(dest="task", required=True, metavar="TASK")
    prune = tasks.add_parser(
        "prune",
        help="remove old games (as the server does by itself), or count them with --dry-run",
        description="Remove the games in progress untouched for --keep-days and the finished games "
        "older than --keep-finished-days, with their seats.",
    )
    prune.add_argument("--db", metavar="URL", help=DB_HELP)
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
    migrate = tasks.add_parser(
        "migrate",
        help="bring the database's schema to this version's (the server does it when it starts)",
        description="Run the schema migrations the database has not had yet and say from which "
        "revision to which.",
    )
    migrate.add_argument("--db", metavar="URL", help=DB_HELP)
    reports = tasks.add_parser(
        "reports",
        help="list the chat messages people reported, newest first",
        description="List the chat messages people reported at their tables, newest first, "
        "with the game, the reporting seat and the message.",
    )
    reports.add_argument("--db", metavar="URL", help=DB_HELP)
    reports.add_argument(
        "--limit", metavar="N", type=int, default=1000, help="at most N reports (default 1000)"
    )
    reports.add_argument("--json", action="store_true", help="print the reports as one JSON object")
    tournaments = tasks.add_parser(
        "tournaments",
        help=admin_tournaments.HELP,
        description="List the newest tournaments; with an ID, show one (entrants, rounds, the tables "
        "to play, the standings); with --repair, make the tables and games due now.",
    )
    admin_tournaments.add_arguments(tournaments, DB_HELP)


def run(args: argparse.Namespace) -> int:
    from ..storage import Storage, database_url, default_url, safe_url

    url = database_url(args.db) if args.db else default_url()
    if args.task == "migrate":
        storage = Storage(url)
        storage.close()
        print(f"{describe(storage.migrated)}: {safe_url(url)}")
        return 0
    if args.task == "reports":
        return _reports(Storage(url), args.limit, as_json=args.json)
    if args.task == "tournaments":
        return admin_tournaments.run(args, url)

    keep = parse_days(args.keep_days, "--keep-days")
    keep_finished = parse_days(args.keep_finished_days, "--keep-finished-days")
    storage = Storage(url)
    try:
        pruned = storage.pruning.prune(keep_days=keep, keep_finished_days=keep_finished, dry_run=args.dry_run)
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


def _reports(storage: Storage, limit: int, *, as_json: bool) -> int:
    """Print the chat reports of ``storage`` (closed after), newest first."""
    from ..storage import safe_url

    try:
        found = storage.chat.reports(max(1, limit))
    finally:
        storage.close()
    if as_json:
        reports = [report.to_json() for report in found]
        print(json.dumps({"database": safe_url(storage.url), "reports": reports}, ensure_ascii=False))
        return 0
    for report in found:
        message = report.message
        said = repr(message.text) if message.text is not None else f"[phrase {message.phrase}]"
        print(
            f"{report.at:%Y-%m-%d %H:%M:%S} report {report.id}: game {message.game_id}, seat {report.seat} "
            f"reported message {message.id} of seat {message.seat} ({message.at:%Y-%m-%d %H:%M:%S}): {said}"
        )
    if not found:
        print("No chat reports.")
    return 0


def describe(migrated: Migrated) -> str:
    """What a migration did, in a line.

    >>> describe(Migrated("0001", "0002"))
    'Migrated the database from schema revision 0001 to 0002'
    >>> describe(Migrated(None, "0002"))
    'Migrated the database from the schema before migrations to revision 0002'
    >>> describe(Migrated(None, "0002", created=True))
    'Created the database at schema revision 0002'
    >>> describe(Migrated("0002", "0002"))
    'The database is at schema revision 0002 already, the newest'
    """
    if migrated.created:
        return f"Created the database at schema revision {migrated.after}"
    if not migrated.changed:
        return f"The database is at schema revision {migrated.after} already, the newest"
    if migrated.before is None:
        return f"Migrated the database from the schema before migrations to revision {migrated.after}"
    return f"Migrated the database from schema revision {migrated.before} to {migrated.after}"


def _games(count: int) -> str:
    return "game" if count == 1 else "games"
