"""Benchmark of the ratings' reads on PostgreSQL: the leaderboard and a profile.

    python bench/bench_profiles.py [--accounts 10000] [--games 100000] [--samples 1000] [--seed 1]

It makes a fresh PostgreSQL schema (dropped at the end, as the tests' ``postgres_url``), creates
the tables through :class:`cribbage.storage.Storage` (the migrations), and fills them with
``--accounts`` accounts' ratings and the history rows of ``--games`` rated games: each game's
pool drawn by how often people play it (standard most), its players drawn with a long tail (a
few accounts play hundreds of games, most a handful), its result by a hidden strength per
account, and the ratings computed by :func:`cribbage.app.people.ratings.rate` in the order of the games
(rows written in bulk, not through :meth:`~cribbage.storage.ratings.RatingRows.record`, whose own cost
is timed apart on a few games).  Then, for ``--samples`` accounts drawn at random among those
with a rating, it times on one connection pool (the storage's engine):

* **leaderboard**: the top 100 of the account's most played pool and its place there
  (``storage.ratings.top`` + ``storage.ratings.place``);
* **profile**: its ratings in every pool (games played and won), its play's sums by pool and
  its whole history in its most played pool (``storage.ratings.profile`` +
  ``storage.ratings.play_totals`` + ``storage.ratings.history``).

It prints p50 and p95 of each (the target: p95 <= 50 ms), wall-clock and the CPU of this process
(other load on the machine changes it much less), first on the storage's engine (each read its
own transaction: BEGIN ... ROLLBACK around it) and then on an autocommit engine (the way
:class:`~cribbage.storage.Storage` runs its single statements), with the round trip of
``SELECT 1`` for scale; then the time of ``storage.ratings.record``, and
PostgreSQL's plans of the place, history and leaderboard queries (index scans, none sequential).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy
from bench_online import postgres_schema  # a fresh schema on the tests' PostgreSQL, dropped after

from cribbage.app.people.rating_pools import POOLS
from cribbage.app.people.ratings import Outcome, Rating, Side, rate, rerater
from cribbage.storage import Storage
from cribbage.storage.database import Database
from cribbage.storage.ratings import RatingRows
from cribbage.storage.tables import accounts as account_table
from cribbage.storage.tables import rating_history, ratings

POOL_SHARES = {
    "standard": 0.45,
    "short": 0.12,
    "three": 0.12,
    "partners": 0.10,
    "five-card": 0.06,
    "seven-card": 0.05,
    "crib-deal": 0.03,
    "lowball": 0.03,
    "four": 0.04,
}
"""How often each pool is played (an assumption: the standard game most)."""
START = datetime(2026, 1, 1, tzinfo=UTC)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


Rows = tuple[list[dict[str, Any]], list[dict[str, Any]]]


def simulate(accounts: int, games: int, seed: int, cache: Path | None) -> Rows:
    """The rows of ``ratings`` and ``rating_history`` after ``games`` games between ``accounts``
    (kept in ``cache``, if given, for the next run with the same arguments)."""
    if cache is not None and cache.exists():
        kept: dict[str, Any] = pickle.loads(cache.read_bytes())
        if kept["key"] == [accounts, games, seed]:
            return kept["ratings"], kept["history"]
    rows = _simulate(accounts, games, seed)
    if cache is not None:
        cache.write_bytes(
            pickle.dumps({"key": [accounts, games, seed], "ratings": rows[0], "history": rows[1]})
        )
    return rows


def account_ids(accounts: int) -> list[str]:
    """The ids of the simulated accounts (text, as the accounts' own)."""
    return [f"bench{number:06d}" for number in range(1, accounts + 1)]


def _simulate(accounts: int, games: int, seed: int) -> Rows:
    rng = random.Random(seed)
    ids = account_ids(accounts)
    strength = {a: rng.gauss(0.0, 1.0) for a in ids}
    activity = [1.0 / (rank**0.8) for rank in range(1, accounts + 1)]  # a long tail of activity
    rng.shuffle(ids)
    names, shares = list(POOL_SHARES), list(POOL_SHARES.values())
    current: dict[tuple[str, str], Rating] = {}
    history_rows: list[dict[str, Any]] = []
    for number in range(games):
        pool = POOLS[rng.choices(names, shares)[0]]
        players: set[str] = set()
        while len(players) < pool.sides * pool.side_size:
            players.update(rng.choices(ids, activity, k=pool.sides * pool.side_size - len(players)))
        seated = list(players)
        sides = [tuple(seated[i * pool.side_size : (i + 1) * pool.side_size]) for i in range(pool.sides)]
        form = [sum(strength[a] for a in side) + rng.gauss(0.0, 2.0) for side in sides]
        winner = max(range(pool.sides), key=form.__getitem__)
        scores = [121 if s == winner else int(100 + 5 * form[s]) % 121 for s in range(pool.sides)]
        outcome = Outcome(
            pool.name,
            tuple(Side(side, max(0, score)) for side, score in zip(sides, scores, strict=True)),
            winner,
        )
        after = rate(
            {a: current[a, pool.name] for a in outcome.accounts if (a, pool.name) in current}, outcome
        )
        at = START + timedelta(minutes=5 * number)
        for account, new in after.items():
            current[account, pool.name] = new
            history_rows.append(
                {
                    "account_id": account,
                    "pool": pool.name,
                    "game_id": f"game-{number:07d}",
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "shown": new.shown,
                    "at": at,
                }
            )
    end = START + timedelta(minutes=5 * games)
    rating_rows = [
        {
            "account_id": account,
            "pool": pool,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "games": r.games,
            "wins": r.wins,
            "updated": end,
        }
        for (account, pool), r in current.items()
    ]
    return rating_rows, history_rows


def fill(
    engine: sqlalchemy.Engine, rating_rows: list[dict[str, Any]], history_rows: list[dict[str, Any]]
) -> None:
    ids = sorted({row["account_id"] for row in rating_rows})
    when = datetime(2026, 1, 1, tzinfo=UTC)
    people = [{"id": a, "name": a, "name_key": a, "password_hash": "-", "created": when} for a in ids]
    with engine.begin() as conn:
        conn.execute(account_table.insert(), people)  # a rating is an account's
        conn.execute(ratings.insert(), rating_rows)
        for start in range(0, len(history_rows), 20_000):
            conn.execute(rating_history.insert(), history_rows[start : start + 20_000])
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(sqlalchemy.text("VACUUM ANALYZE accounts"))
        conn.execute(sqlalchemy.text("VACUUM ANALYZE ratings"))
        conn.execute(sqlalchemy.text("VACUUM ANALYZE rating_history"))


def percentiles(values: Sequence[float]) -> str:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    top = ordered[-1] * 1000
    return f"p50 {at(0.50):6.2f} ms   p95 {at(0.95):6.2f} ms   max {top:6.2f} ms   (n={len(ordered)})"


def measure(stored: RatingRows, samples: int, seed: int) -> dict[str, list[float]]:
    """Wall-clock and CPU (this process) seconds of each read, for ``samples`` accounts."""
    rng = random.Random(seed)
    with stored.engine.connect() as conn:
        played = conn.execute(sqlalchemy.select(ratings.c.account_id, ratings.c.pool, ratings.c.games)).all()
    most: dict[str, tuple[int, str]] = {}
    for account, pool, count in played:
        if account not in most or count > most[account][0]:
            most[account] = (count, pool)
    chosen = rng.sample(sorted(most), min(samples, len(most)))
    times: dict[str, list[float]] = {name: [] for name in (*READS, *(f"{n} cpu" for n in READS), "points")}
    for account in chosen:
        pool = most[account][1]
        started, cpu = time.perf_counter(), time.process_time()
        top = stored.top(pool)
        mine = stored.place(account, pool)
        times["leaderboard + place"].append(time.perf_counter() - started)
        times["leaderboard + place cpu"].append(time.process_time() - cpu)
        assert top and mine is not None
        started, cpu = time.perf_counter(), time.process_time()
        stored.profile(account)
        stored.play_totals(account)
        points = stored.history(account, pool)
        times["profile + history"].append(time.perf_counter() - started)
        times["profile + history cpu"].append(time.process_time() - cpu)
        times["points"].append(len(points))
    return times


READS = ("leaderboard + place", "profile + history")


def report(label: str, stored: RatingRows, samples: int, seed: int) -> None:
    """Time the reads of ``stored`` (on its engine) and print them."""
    times = measure(stored, samples, seed)
    print(f"  {label}:")
    for name in READS:
        p95 = sorted(times[name])[int(0.95 * len(times[name]))]
        verdict = "ok" if p95 <= 0.050 else "OVER 50 ms"
        print(f"    {name:22} {percentiles(times[name])}   target p95 <= 50 ms: {verdict}")
        print(f"    {'(CPU of this process)':22} {percentiles(times[f'{name} cpu'])}")
    points = sorted(times["points"])
    print(f"    history points per profile: median {points[len(points) // 2]:.0f}, max {points[-1]:.0f}")


def round_trip(engine: sqlalchemy.Engine, count: int = 200) -> str:
    """The time of ``SELECT 1``: what the machine's load adds to every query."""
    times = []
    with engine.connect() as conn:
        for _ in range(count):
            started = time.perf_counter()
            conn.execute(sqlalchemy.text("SELECT 1")).scalar_one()
            times.append(time.perf_counter() - started)
    return percentiles(times)


def explain(engine: sqlalchemy.Engine, account: int, pool: str) -> None:
    """PostgreSQL's plans of the place and history queries, as run."""
    statements = {
        "place": (
            "SELECT (SELECT count(*) FROM ratings WHERE ratings.pool = me.pool AND "
            "(ratings.ordinal, ratings.account_id) > (me.ordinal, me.account_id)) "
            "FROM ratings AS me WHERE me.account_id = :a AND me.pool = :p"
        ),
        "history": (
            "SELECT game_id, mu, sigma, shown, at FROM rating_history "
            "WHERE account_id = :a AND pool = :p ORDER BY id DESC"
        ),
        "leaderboard": (
            "SELECT * FROM ratings WHERE pool = :p ORDER BY ordinal DESC, account_id DESC LIMIT 100"
        ),
    }
    with engine.connect() as conn:
        for name, sql in statements.items():
            plan = conn.execute(
                sqlalchemy.text(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}"), {"a": account, "p": pool}
            )
            print(f"  plan of {name}:")
            for (line,) in plan:
                print(f"    {line}")


def time_records(stored: RatingRows, games: int, seed: int) -> list[float]:
    """The time of :meth:`RatingRows.record` for ``games`` standard games between rated accounts."""
    rng = random.Random(seed)
    with stored.engine.connect() as conn:
        rated = list(
            conn.execute(
                sqlalchemy.select(ratings.c.account_id).where(ratings.c.pool == "standard")
            ).scalars()
        )
    times = []
    for number in range(games):
        a, b = rng.sample(rated, 2)
        outcome = Outcome("standard", (Side((a,), 121), Side((b,), 100)), 0)
        started = time.perf_counter()
        assert stored.record(f"timed-{number}", "standard", outcome.accounts, rerater(outcome))
        times.append(time.perf_counter() - started)
    return times


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, help="keep the simulated rows in this file for the next run")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rating_rows, history_rows = simulate(args.accounts, args.games, args.seed, args.cache)
    say(f"bench: simulated {args.games} games in {time.perf_counter() - started:.1f} s")
    with postgres_schema() as url:
        storage = Storage(url)
        try:
            started = time.perf_counter()
            fill(storage.engine, rating_rows, history_rows)
            say(f"bench: filled in {time.perf_counter() - started:.1f} s")
            per_account = Counter(row["account_id"] for row in history_rows)
            print(
                f"ratings reads on PostgreSQL: {len(per_account)} accounts, {len(rating_rows)} ratings, "
                f"{args.games} games, {len(history_rows)} history rows"
            )
            busiest = per_account.most_common(1)[0]
            median = sorted(per_account.values())[len(per_account) // 2]
            print(f"  games per account: median {median}, most {busiest[1]}")
            print(f"  SELECT 1 round trip    {round_trip(storage.engine)}")
            report("storage.engine (each read its own transaction)", storage.ratings, args.samples, args.seed)
            single = Database(url)
            single.engine = single.single  # the ratings' reads on the autocommit engine
            label = "autocommit engine (as Storage's single statements)"
            report(label, RatingRows(single), args.samples, args.seed + 1)
            single.close()
            recorded = time_records(storage.ratings, 200, args.seed)
            print(f"  ratings.record (one game)  {percentiles(recorded)}")
            heaviest = busiest[0]
            with storage.engine.connect() as conn:
                pool = conn.execute(
                    sqlalchemy.text(
                        "SELECT pool FROM ratings WHERE account_id = :a ORDER BY games DESC LIMIT 1"
                    ),
                    {"a": heaviest},
                ).scalar_one()
            explain(storage.engine, heaviest, pool)
        finally:
            storage.close()


if __name__ == "__main__":
    main()
