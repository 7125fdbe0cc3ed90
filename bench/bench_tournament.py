"""An online tournament played to its champion through the application (issue 44's numbers).

    python bench/bench_tournament.py [--entrants 256] [--games 12] [--best-of 3] [--db URL]

Accounts are signed up, registered and checked in; the director starts the tournament; then
every table's game is played to its end by its two accounts (each opening its seat as a page
does, taking the first legal action each turn: stand-ins for people), the tables alternately
through two services on one database (two server processes).  A round's advance is timed from
the moment its last game's last action is sent to the moment every player of the next round
can open their game: the other process reads every new table with its game, whose seats are its
players' (each table's game is given with its seats linked, in one transaction; each is then
opened by both players to be played).  The last game of the event, after which nothing comes,
is not an advance.  Printed: the field, the games played, each stage's rounds, the advance's
median, p95 and worst, opponents met twice in qualifying (none expected while the field
allows), whether both processes read the same standings, and the whole event's time.  The
default database is a fresh SQLite file; ``--db`` takes PostgreSQL.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cribbage.app import Actor, GameService, one_player
from cribbage.engine.templates import choices
from cribbage.storage import Storage

PASSWORD = "a bench's password"


def first_action(state: dict[str, Any]) -> dict[str, Any]:
    return {**next(choices(state["actions"][0])), "version": state["version"]}


def play(service: GameService, game_id: str, sessions: list[str]) -> float:
    """Play a game to its end: when (``time.perf_counter``) its last action was sent."""
    keys = sorted((service.accounts.open_game(s, game_id) for s in sessions), key=lambda k: k["seat"])
    tokens = [k["token"] for k in keys]
    state: dict[str, Any] = dict(service.state(game_id, Actor(tokens[0])))
    holder = tokens[0]
    while True:
        token = tokens[state["view"]["to_act"]]
        if token != holder:
            holder, state = token, dict(service.state(game_id, Actor(token)))
        sent = time.perf_counter()
        state = dict(service.act(game_id, Actor(token), first_action(state)))
        if state["over"]:
            return sent


def playable(service: GameService, tournament_id: str) -> bool:
    """Every undecided table of the tournament has its game (its seats its players'), as
    ``service`` reads it; or the tournament is over."""
    stored = service.storage.tournaments.load(tournament_id)
    assert stored is not None
    if stored.stage != "running":
        return True
    return all(t.game_id is not None for t in stored.tables if t.outcome is None and t.second is not None)


def ready(service: GameService, tournament_id: str, sent: float) -> float:
    """The seconds from ``sent`` until ``service`` reads every undecided table with its game."""
    while not playable(service, tournament_id):
        if time.perf_counter() - sent > 120:
            raise SystemExit("a round's games were not made within 2 minutes")
        time.sleep(0.001)
    return time.perf_counter() - sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--best-of", type=int, default=3, choices=(0, 3, 5))
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--db", help="an SQLAlchemy URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory(prefix="bench-tournament-")
    url = args.db or f"sqlite:///{Path(folder.name) / 'games.db'}"
    one = GameService(Storage(url), players=one_player("weak"))
    two = GameService(Storage(url), players=one_player("weak"))
    began = time.perf_counter()
    director = one.accounts.account_of(one.accounts.sign_up("Director", PASSWORD)["token"])
    settings = {"name": "Bench open", "variant": args.variant, "games": args.games, "best_of": args.best_of}
    settings["limit"] = max(2, args.entrants)
    tid = one.tournaments.create(director, settings)["id"]
    sessions: dict[int, str] = {}
    for i in range(args.entrants):
        token = one.accounts.sign_up(f"Player {i + 1}", PASSWORD)["token"]
        account = one.accounts.account_of(token)
        number = one.tournaments.register(tid, account)["you"]["entrant"]
        one.tournaments.check_in(tid, account)
        sessions[number] = token
    entered = time.perf_counter() - began
    shown = one.tournaments.start(tid, director)
    advances: list[float] = []
    played = 0
    while shown["stage"] == "running":
        tables = [t for t in shown["tables"] if t["outcome"] is None and t["second"] is not None]
        if not tables:
            raise SystemExit(f"nothing to play in a running tournament: {shown['rounds']}")
        for i, table in enumerate(tables):
            service, other = ((one, two), (two, one))[i % 2]
            sent = play(service, table["game_id"], [sessions[table["first"]], sessions[table["second"]]])
            played += 1
        advanced = ready(other, tid, sent)
        shown = one.tournaments.get(tid)
        if shown["stage"] == "running":
            advances.append(advanced)
    total = time.perf_counter() - began
    qualifying = [t for t in shown["tables"] if t["stage"] == "qualifying" and t["second"] is not None]
    meetings = Counter(frozenset((t["first"], t["second"])) for t in qualifying)
    same = one.tournaments.get(tid)["standings"] == two.tournaments.get(tid)["standings"]
    ordered = sorted(advances)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"entrants {args.entrants}, {args.games} qualifying games, playoffs best of {args.best_of or '-'}")
    print(f"games played {played}, rounds {shown['rounds']}, champion {shown['champion']}")
    median, worst = statistics.median(advances), ordered[-1]
    print(
        "round advance (the last game's last action sent, to every next game open to its players): "
        f"median {median:.3f} s, p95 {p95:.3f} s, worst {worst:.3f} s over {len(advances)}"
    )
    print(f"opponents met twice in qualifying: {sum(1 for n in meetings.values() if n > 1)}")
    print(f"standings the same from both processes: {same}")
    print(f"signing up and entering: {entered:.1f} s; the whole event: {total:.1f} s")
    one.close()
    two.close()
    folder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
