"""Benchmark of the queue of "Play now": many people paired by several processes at once, in Redis.

    python bench/bench_matchmaking.py [--people 1000] [--processes 2] [--pool standard]
                                      [--speed 10] [--arrive 0] [--every 0.02] [--seed 1]
                                      [--max-seconds 60] [--redis URL] [--json]

``--people`` people with random ratings (normal, mean 1500, deviation 300) join one pool of a
fresh Redis queue (keys of their own, deleted at the end): all at once, or spread evenly over
``--arrive`` seconds of the clock.  ``--processes`` OS processes (multiprocessing), each with
its own Redis connection, run
:meth:`~cribbage.web.messaging.redis_queue.RedisMatchQueue.pair_once` in a loop
(every ``--every`` real seconds) until the pool is drained, or nothing more can be paired
(everyone left waits with the widest window and no compatible partner), or ``--max-seconds``.

The clock of the queue is the real one sped up ``--speed`` times (every process computes it
from the same wall-clock start), so the rating windows widen ``--speed`` times faster than in
play (``--speed 1``: the real clock), and the waits below are in the queue's seconds.

It checks and prints: the matches made (and by which process), the groups a process chose but
another took first (the race, refused by the take), that nobody was paired twice, that each
person is paired or still waiting (never both, never lost), that each match is there for each
of its people to take, and that nobody is left waiting while a compatible partner waits; the
time to drain (real and queue seconds) and the waits (p50, p95, max, queue seconds).  Exit
status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from typing import Any

import redis

from cribbage.app.playnow.matchmaking import (
    POOLS,
    WINDOW_CAP,
    Entry,
    Pairing,
    choose_groups,
    compatible,
    window,
)
from cribbage.web.messaging.redis_queue import RedisMatchQueue

REDIS_URL = os.environ.get("CRIBBAGE_TEST_REDIS", "redis://127.0.0.1:6379/0")
START = 1_800_000_000.0
"""The queue's clock at the start of the run."""


@dataclass(frozen=True)
class SpedUp:
    """The wall clock since ``real``, ``speed`` times faster, starting at :data:`START` (the
    same in every process of one machine)."""

    real: float
    speed: float

    def __call__(self) -> float:
        return START + (time.time() - self.real) * self.speed


def pairer(
    url: str, prefix: str, pool: str, speed: float, every: float, go: Any, stop: Event, out: Any
) -> None:
    """One server process: once every process is ready (``go`` is the clock's start), pair the
    pool until told to stop; send back what it made."""

    async def loop() -> tuple[list[dict[str, Any]], int, int]:
        out.put("ready")
        real = go.get()
        queue = RedisMatchQueue(url, SpedUp(real, speed), prefix=prefix)
        made: list[Pairing] = []
        rounds = 0
        while not stop.is_set():
            made += await queue.pair_once(pool)
            rounds += 1
            await asyncio.sleep(every)
        await queue.close()
        return [m.to_json() for m in made], queue.lost, rounds

    out.put((os.getpid(), *asyncio.run(loop())))


async def join_all(
    url: str, prefix: str, pool: str, clock: SpedUp | None, ratings: dict[str, float], arrive: float
) -> dict[str, float]:
    """Join everyone: at :data:`START` before the clock starts (``clock`` None), else each at
    their arrival on the queue's clock, spread over ``arrive`` seconds; when each joined."""
    at = START
    queue = RedisMatchQueue(url, lambda: at, prefix=prefix)
    joined: dict[str, float] = {}
    step = arrive / len(ratings)
    for i, (player, rating) in enumerate(ratings.items()):
        arrival = START + i * step
        while clock is not None and clock() < arrival:
            await asyncio.sleep(min(0.01, (arrival - clock()) / clock.speed))
        at = START if clock is None else max(arrival, clock())
        await queue.join(player, pool, rating)
        joined[player] = at
    await queue.close()
    return joined


def settled(waiting: list[Entry], size: int, now: float) -> bool:
    """Whether nothing more can be paired, ever: everyone has the widest window and no
    compatible group is left (:func:`choose_groups` takes every one there is)."""
    return all(window(now - e.joined) >= WINDOW_CAP for e in waiting) and not choose_groups(
        waiting, size, now
    )


def no_compatible_group(waiting: list[Entry], size: int, now: float) -> bool:
    """Whether no group of ``size`` among ``waiting`` is compatible: by brute force when few are
    left (a check independent of :func:`choose_groups`), else by :func:`choose_groups`."""
    if len(waiting) <= 40:
        return not any(compatible(group, now) for group in itertools.combinations(waiting, size))
    return not choose_groups(waiting, size, now)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else 0.0


def run(args: argparse.Namespace) -> dict[str, Any]:
    size = POOLS[args.pool].players
    rng = random.Random(args.seed)
    ratings = {f"p{i}": float(round(rng.gauss(1500, 300))) for i in range(args.people)}
    prefix = f"cribbage:bench:{uuid.uuid4().hex}:"
    context = multiprocessing.get_context("spawn")
    stop, out, go = context.Event(), context.Queue(), context.Queue()
    workers = [
        context.Process(
            target=pairer, args=(args.redis, prefix, args.pool, args.speed, args.every, go, stop, out)
        )
        for _ in range(args.processes)
    ]
    for worker in workers:
        worker.start()
    try:
        for _ in workers:  # started and imported
            assert out.get(timeout=120) == "ready"
        if not args.arrive:  # everyone waiting when the clock starts
            joined = asyncio.run(join_all(args.redis, prefix, args.pool, None, ratings, 0.0))
        clock = SpedUp(time.time(), args.speed)  # starts now, in every process
        for _ in workers:
            go.put(clock.real)
        if args.arrive:
            joined = asyncio.run(join_all(args.redis, prefix, args.pool, clock, ratings, args.arrive))
        real_start = time.monotonic()

        async def watch() -> list[Entry]:
            watcher = RedisMatchQueue(args.redis, clock, prefix=prefix)
            while True:
                waiting = await watcher.waiting(args.pool)
                if not waiting or settled(waiting, size, clock()):
                    break
                if time.monotonic() - real_start > args.max_seconds:
                    break
                await asyncio.sleep(0.05)
            await watcher.close()
            return waiting

        waiting = asyncio.run(watch())
        stop.set()
        results = [out.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join(10)
        return report(args, size, ratings, joined, waiting, results, clock(), prefix)
    finally:
        stop.set()
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        with redis.Redis.from_url(args.redis) as client:
            keys = list(client.scan_iter(match=prefix + "*", count=1000))
            if keys:
                client.delete(*keys)


def report(
    args: argparse.Namespace,
    size: int,
    ratings: dict[str, float],
    joined: dict[str, float],
    waiting: list[Entry],
    results: list[tuple[int, list[dict[str, Any]], int, int]],
    now: float,
    prefix: str,
) -> dict[str, Any]:
    matches = [Pairing.from_json(made) for _, mades, _, _ in results for made in mades]
    paired = [player for match in matches for player in match.players]
    left = {entry.player for entry in waiting}
    # each match there to take for each of its people, read from Redis directly
    with redis.Redis.from_url(args.redis, decode_responses=True) as client:
        stored = client.mget([f"{prefix}match:{p}" for p in paired]) if paired else []
    told = [Pairing.from_json(json.loads(text)) if text else None for text in stored]
    per_player = [match for match in matches for _ in match.players]
    waits = [match.made - joined[p] for match in matches for p in match.players]
    last = max((match.made for match in matches), default=START)
    checks = {
        "nobody paired twice": len(paired) == len(set(paired)),
        "each paired or waiting, never both, never lost": not left & set(paired)
        and left | set(paired) == set(ratings),
        "each match there for each of its people": told == per_player,
        "every group compatible when made": all(
            max(ratings[p] for p in m.players) - min(ratings[p] for p in m.players)
            <= min(window(m.made - joined[p]) for p in m.players)
            for m in matches
        ),
        "nobody waiting while a compatible partner waits": no_compatible_group(waiting, size, now),
    }
    return {
        "people": len(ratings),
        "processes": args.processes,
        "pool": args.pool,
        "matches": len(matches),
        "by process": [len(mades) for _, mades, _, _ in results],
        "rounds by process": [rounds for _, _, _, rounds in results],
        "groups lost to another process": sum(lost for _, _, lost, _ in results),
        "left waiting": len(left),
        "left waiting (ratings, first 10)": sorted(ratings[p] for p in left)[:10],
        "drain seconds (queue clock)": round(last - START, 2),
        "drain seconds (real)": round((last - START) / args.speed, 2),
        "wait p50": round(percentile(waits, 0.5), 2),
        "wait p95": round(percentile(waits, 0.95), 2),
        "wait max": round(max(waits, default=0.0), 2),
        "wait mean": round(statistics.fmean(waits), 2) if waits else 0.0,
        "checks": checks,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--pool", default="standard", choices=sorted(POOLS))
    parser.add_argument("--speed", type=float, default=10.0, help="queue seconds per real second")
    parser.add_argument("--arrive", type=float, default=0.0, help="queue seconds over which people join")
    parser.add_argument("--every", type=float, default=0.02, help="real seconds between rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=60.0, help="real seconds at most")
    parser.add_argument("--redis", default=REDIS_URL)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            if key != "checks":
                print(f"{key:>34}: {value}")
        for name, ok in result["checks"].items():
            print(f"{'OK' if ok else 'FAILED':>34}: {name}")
    return 0 if all(result["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
