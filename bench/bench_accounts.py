"""What a sign-in costs: the argon2id check of a password, with its session stored.

    python bench/bench_accounts.py [--count 40] [--database sqlite:///...|postgresql+psycopg://...] [--json]

Signs in ``--count`` times one after another, then ``--count`` times from each of 4 threads at
once (as 4 requests in the server's thread pool), through :class:`cribbage.app.people.accounts.AccountBook`
on a fresh database (a private SQLite file by default), and prints the p50 and p95 of a sign-in in
milliseconds with the hasher's parameters (docs/api.md, "Accounts").  A 4-at-once figure near the
single one means the cores are free; on a busy machine it grows with the queue for them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from cribbage.app.people.accounts import HASHER
from cribbage.app.service import GameService
from cribbage.storage import Storage

PASSWORD = "correct horse battery"


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered) * 1000, 1), "p95": round(p95 * 1000, 1)}


def _timed(service: GameService, name: str) -> float:
    start = time.perf_counter()
    service.accounts.sign_in(name, PASSWORD)
    return time.perf_counter() - start


def measure(database: str, count: int, threads: int = 4) -> dict[str, object]:
    """The sign-in times, alone and ``threads`` at once, with the hasher's parameters."""
    service = GameService(Storage(database))
    try:
        names = [f"bench_{n}" for n in range(threads)]
        for name in names:
            service.accounts.sign_up(name, PASSWORD)
        _timed(service, names[0])  # the first one loads what it needs
        single = [_timed(service, names[0]) for _ in range(count)]
        with ThreadPoolExecutor(threads) as pool:
            together = list(pool.map(lambda n: _timed(service, names[n % threads]), range(count * threads)))
    finally:
        service.close()
    return {
        "argon2id": {
            "memory_kib": HASHER.memory_cost,
            "time_cost": HASHER.time_cost,
            "parallelism": HASHER.parallelism,
        },
        "single_ms": _percentiles(single),
        f"concurrent_{threads}_ms": _percentiles(together),
        "count": count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="sign-ins per measurement and thread")
    parser.add_argument(
        "--database", default="sqlite://", help="an SQLAlchemy URL (default: a private SQLite file)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    result = measure(args.database, args.count)
    if args.json:
        print(json.dumps(result))
        return
    params = result["argon2id"]
    assert isinstance(params, dict)
    print(
        f"argon2id: memory {params['memory_kib']} KiB, time cost {params['time_cost']}, "
        f"parallelism {params['parallelism']}"
    )
    for key in ("single_ms", "concurrent_4_ms"):
        figures = result[key]
        assert isinstance(figures, dict)
        label = "alone" if key == "single_ms" else "4 at once"
        print(f"sign-in {label:>10}: p50 {figures['p50']:7.1f} ms   p95 {figures['p95']:7.1f} ms")


if __name__ == "__main__":
    main()
