"""``cribbage admin tournaments``: list the server's tournaments, show one, repair one.

    cribbage admin tournaments [--db URL] [--json]                # the newest tournaments
    cribbage admin tournaments ID [--db URL] [--json]             # one: entrants, rounds, tables to play
    cribbage admin tournaments ID --repair [--db URL] [--json]    # finish what a stopped server left

``--repair`` takes the steps a server's periodic sweep takes (:meth:`cribbage.app.tournaments.book.
Tournaments.sweep`), at once and for that tournament only: the tables due are made, the online
games of the tables that have none, and the games over not yet recorded are recorded.  Safe while
servers run on the same database (each step is made with the tournament's row locked).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

HELP = "list the tournaments, show one, or --repair one (finish what a stopped server left)"


def add_arguments(parser: argparse.ArgumentParser, db_help: str) -> None:
    parser.add_argument("id", nargs="?", metavar="ID", help="a tournament's id: show it (or repair it)")
    parser.add_argument("--db", metavar="URL", help=db_help)
    parser.add_argument("--repair", action="store_true", help="make the tables and games due now")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, url: str) -> int:
    from ..app import AppError, GameService
    from ..storage import Storage

    if args.repair and not args.id:
        print("cribbage admin tournaments: --repair needs a tournament's ID")
        return 2
    service = GameService(Storage(url))
    try:
        if not args.id:
            return _print({"tournaments": service.tournaments.listed()}, _listing, as_json=args.json)
        made = service.tournaments.sweep(only=args.id, grace=0) if args.repair else None
        shown = service.tournaments.get(args.id)
    except AppError as refused:
        print(f"cribbage admin tournaments: {refused.message}")
        return 1
    finally:
        service.close()
    if made is not None:
        shown = {**shown, "repaired": made}
    return _print(shown, _tournament, as_json=args.json)


def _print(data: dict[str, Any], lines: Any, *, as_json: bool) -> int:
    print(json.dumps(data, ensure_ascii=False) if as_json else "\n".join(lines(data)))
    return 0


def _listing(data: dict[str, Any]) -> list[str]:
    found = data["tournaments"]
    if not found:
        return ["No tournaments."]
    return [f"{t['id']}  {t['stage']:<12} {t['entrants']:>4} entrants  {t['name']}" for t in found]


def _tournament(t: dict[str, Any]) -> list[str]:
    names = {e["number"]: e["name"] for e in t["entrants"]}
    settings = t["settings"]
    lines = [
        f"{t['name']} ({t['id']}): {t['stage']}, {settings['venue']}, {settings['variant']}, "
        f"{settings['games']} games by {settings['pairing']}",
        f"Entrants: {len(t['entrants'])}, checked in {sum(e['checked_in'] for e in t['entrants'])}, "
        f"withdrawn {sum(e['withdrawn'] for e in t['entrants'])}",
    ]
    if t["rounds"]:
        lines.append("Rounds: " + ", ".join(f"{stage} {n}" for stage, n in t["rounds"].items() if n))
    for table in t["tables"]:
        if table["outcome"] is None and table["second"] is not None:
            state = "disputed" if table["disputed"] else "game " + (table["game_id"] or "not made")
            lines.append(
                f"  to play: {table['stage']} round {table['round']} table {table['number']} "
                f"game {table['game']}: {names[table['first']]} v {names[table['second']]} ({state})"
            )
    for line in t["standings"][:10]:
        lines.append(
            f"  {line['rank']:>3}. {names[line['entrant']]}: {line['game_points']} game points, "
            f"{line['won']} won, spread {line['spread']:+d}"
        )
    if t["champion"] is not None:
        lines.append(f"Champion: {names[t['champion']]}")
    if "repaired" in t:
        lines.append(f"Repaired: {t['repaired']} tables and games made")
    return lines
