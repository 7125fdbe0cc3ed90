"""Benchmark of bot matches: speed, and strength against the computer players of PyPI peers.

    python bench/bench_match.py                        # speed, then our players vs both peers
    python bench/bench_match.py --ours strong --peer-games 2000 --jobs 2
    python bench/bench_match.py --skip-peers --speed-games 10000 [--engine]

Speed: games per second of ``--speed-player`` (``normal`` once it exists, else ``random``)
against itself on 1 and 2 jobs, and games per CPU second (the match's processes), which other
load on the machine changes much less than the wall-clock figures.  The target: ``normal``
against ``normal`` at 2,500 games per second or more on 2 jobs, 0.75 ms per game per core.
Those games are played by the compact playout (:mod:`cribbage.table.playout`, the same games as the
engine's); ``--engine`` plays them with the engine instead, as every other pairing is played.

Strength: each of our players against

* ``cribbagesim``: PyPI's ``CribbageSim`` (its ``Hoyleish`` dealer and pone strategies);
* ``magmacrunch``: PyPI's ``magmacrunch-cribbage`` (its ``ai`` module);

driven through the adapters in ``bench/peers/``, which run inside a virtual environment of their
own (``bench/.venv-match-peers``, made here on first use with Python 3.12 or newer, which
CribbageSim requires) and speak our external-bot protocol (docs/protocol.md), so the match runner
drives them with ``exec:``.  The peers are never dependencies of the project.  The issue's
targets: ``strong`` wins at least 62% against CribbageSim and 90% against magmacrunch.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cribbage.engine.rules import get_rules
from cribbage.players import PLAYERS
from cribbage.table.match import SOURCES, check_player, run_match

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-match-peers"
PEERS = {
    "cribbagesim": (HERE / "peers" / "cribbagesim_bot.py", 0.62),
    "magmacrunch": (HERE / "peers" / "magmacrunch_bot.py", 0.90),
}
REQUIREMENTS = (["CribbageSim==1.0.2"], ["--no-deps", "magmacrunch-cribbage==0.1.1"])
"""magmacrunch's AI needs only its own ``cribbage.engine.cards``: its arcade dependencies are skipped."""


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def find_python() -> str:
    """A Python 3.12 or newer for the peers' environment."""
    for name in ("python3.13", "python3.12", sys.executable, "python3"):
        path = shutil.which(name) or (name if os.path.isabs(name) else None)
        if path is None:
            continue
        check = "import sys; sys.exit(sys.version_info < (3, 12))"
        if subprocess.run([path, "-c", check], capture_output=True).returncode == 0:
            return path
    for root in sorted(Path.home().glob(".pyenv/versions/3.1[2-9]*"), reverse=True):
        if (root / "bin" / "python3").exists():
            return str(root / "bin" / "python3")
    raise SystemExit("bench: the peers need Python 3.12 or newer (CribbageSim requires it); none found")


def ensure_venv() -> Path:
    """The peers' virtual environment, made and filled on first use."""
    python = VENV / "bin" / "python"
    stamp = VENV / "installed.json"
    if stamp.exists() and json.loads(stamp.read_text()) == [list(r) for r in REQUIREMENTS]:
        return python
    if not python.exists():
        say(f"bench: creating {VENV}")
        subprocess.run([find_python(), "-m", "venv", str(VENV)], check=True)
    for requirement in REQUIREMENTS:
        say(f"bench: installing {' '.join(requirement)} into {VENV.name}")
        subprocess.run([str(python), "-m", "pip", "install", "-q", *requirement], check=True)
    stamp.write_text(json.dumps([list(r) for r in REQUIREMENTS]))
    return python


def default_speed_player() -> str:
    try:
        check_player("normal")
        return "normal"
    except ValueError:
        return "random"


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the match's worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def speed(player: str, games: int, seed: int, playout: bool = True) -> list[dict[str, Any]]:
    """Games per second on 1 and 2 jobs, and per CPU second (which other load does not change)."""
    rows = []
    for jobs in (1, 2):
        cpu = cpu_seconds()
        result = run_match(player, player, games, seed, jobs, get_rules(), playout=playout)
        cpu = cpu_seconds() - cpu
        rows.append(
            {
                "player": player,
                "playout": playout,
                "jobs": jobs,
                "games": result.games,
                "seconds": round(result.seconds, 3),
                "games_per_second": round(result.games / result.seconds, 1),
                "cpu_seconds": round(cpu, 3),
                "games_per_cpu_second": round(result.games / cpu, 1),
            }
        )
        say(
            f"speed: {player} vs {player}, {result.games} games on {jobs} job(s): "
            f"{rows[-1]['games_per_second']} games/s, {rows[-1]['games_per_cpu_second']} games per CPU second"
        )
    return rows


def strength(
    ours: str, peer: str, python: Path, games: int, seed: int, jobs: int, timeout: float
) -> dict[str, Any]:
    script, target = PEERS[peer]
    command = f"exec:{python} {script}"
    result = run_match(ours, command, games, seed, jobs, get_rules(), timeout=timeout)
    data = result.to_json()
    data["b"] = peer
    data["target"] = target
    say(
        f"strength: {ours} vs {peer}: {data['a_win_rate']:.1%} "
        f"(95% CI {data['ci95'][0]:.1%}-{data['ci95'][1]:.1%}) over {data['games']} games, "
        f"target {target:.0%}, {len(data['errors'])} errors, {data['seconds']:.0f} s"
    )
    if data["errors"]:
        # A game the peer lost by failing is not a game it was outplayed in.
        first = data["errors"][0]["message"]
        say(f"strength: NOT a strength figure, the peer failed; the first error: {first}")
    return data


def format_strength(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"{'ours':8} {'peer':12} {'games':>6} {'win rate':>9} {'95% CI':>15} {'target':>7}"
        f" {'pts us':>7} {'pts them':>8}  {'us: ' + ' / '.join(SOURCES)}",
    ]
    for d in rows:
        lo, hi = d["ci95"]
        a = d["a_points"]
        lines.append(
            f"{d['a']:8} {d['b']:12} {d['games']:>6} {d['a_win_rate']:>9.1%} {f'{lo:.1%}-{hi:.1%}':>15}"
            f" {d['target']:>7.0%} {d['a_points_per_game']:>7.1f} {d['b_points_per_game']:>8.1f}  "
            + " / ".join(f"{a[s]:.1f}" for s in SOURCES)
            + (f"   ({len(d['errors'])} games lost by the peer's errors)" if d["errors"] else "")
        )
        them = d["b_points"]
        lines.append(
            f"{'':8} {'':12} {'':>6} {'':>9} {'':>15} {'':>7} {'':>7} {'':>8}  them: "
            + " / ".join(f"{them[s]:.1f}" for s in SOURCES)
        )
        for role, who in (("a", "us"), ("b", "them")):
            parts = d["by_seat"][role]
            first, other = parts["first_dealer"], parts["not_first_dealer"]
            lines.append(
                f"{'':8} {who + ' dealing first':>28}: win {first['win_rate']:.1%}, "
                f"{first['points_per_game']:.1f} pts; not dealing first: win {other['win_rate']:.1%}, "
                f"{other['points_per_game']:.1f} pts"
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--speed-player", default=None, help="player for the speed test (default normal, else random)"
    )
    parser.add_argument(
        "--speed-games", type=int, default=2000, help="games for each speed run (default 2000)"
    )
    parser.add_argument(
        "--ours",
        nargs="+",
        default=["strong", "normal", "weak", "random"],
        help="our players to test against the peers (unknown names are skipped)",
    )
    parser.add_argument("--peers", nargs="+", default=list(PEERS), choices=list(PEERS))
    parser.add_argument("--peer-games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the strength matches (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per peer answer (default 10)")
    parser.add_argument(
        "--engine", action="store_true", help="play the speed games with the engine, not the playout"
    )
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-peers", action="store_true")
    parser.add_argument("--json", action="store_true", help="print every figure as JSON")
    args = parser.parse_args()

    report: dict[str, Any] = {"speed": [], "strength": []}
    if not args.skip_speed:
        player = args.speed_player or default_speed_player()
        report["speed"] = speed(player, args.speed_games, args.seed, playout=not args.engine)
    if not args.skip_peers:
        python = ensure_venv()
        ours = []
        for name in args.ours:
            try:
                check_player(name)
                ours.append(name)
            except ValueError:
                say(f"bench: skipping {name!r}: not a player yet (known: {', '.join(sorted(PLAYERS))})")
        for name in ours:
            for peer in args.peers:
                report["strength"].append(
                    strength(name, peer, python, args.peer_games, args.seed, args.jobs, args.timeout)
                )
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for row in report["speed"]:
        print(
            f"speed: {row['player']} vs {row['player']}, {row['games']} games, {row['jobs']} job(s): "
            f"{row['games_per_second']} games/s ({row['games_per_cpu_second']} per CPU second)"
        )
    if report["strength"]:
        print()
        print(format_strength(report["strength"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
