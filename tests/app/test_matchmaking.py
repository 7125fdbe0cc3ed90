"""The queue of "Play now" (issue 31): the window, the choice of groups, and the queue itself,
in memory and in a real Redis (the same tests against both), with a clock moved by hand.

Two Redis queue objects on one prefix stand for two server processes (each its own
connections); in memory, every "process" is the one queue of the single-process server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import subprocess
import sys
import uuid
from collections.abc import Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis

from cribbage.app import AppError
from cribbage.app.playnow.matchmaking import (
    POOLS,
    WINDOW_BASE,
    WINDOW_CAP,
    Entry,
    Pairing,
    Pool,
    choose_groups,
    compatible,
    seat_order,
    window,
)
from cribbage.web.messaging.queue import (
    MATCH_SECONDS,
    MatchQueue,
    MemoryMatchQueue,
    make_queue,
    pair_forever,
)
from cribbage.web.messaging.redis_queue import RedisMatchQueue
from fake_time import FakeTime
from service_urls import REDIS_URL

OpenQueue = Callable[[], MatchQueue]


def run(scenario: Coroutine[Any, Any, None]) -> None:
    asyncio.run(scenario)


def names(groups: Sequence[Sequence[Entry]]) -> list[list[str]]:
    return [[entry.player for entry in group] for group in groups]


def left_compatible(waiting: Sequence[Entry], size: int, now: float) -> list[tuple[Entry, ...]]:
    """Every compatible group among ``waiting`` (by brute force): none may be left."""
    return [group for group in itertools.combinations(waiting, size) if compatible(group, now)]


def forget(prefix: str) -> None:
    """Delete a test's Redis keys."""
    with redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture(params=["memory", "redis"])
def open_queue(request: pytest.FixtureRequest, clock: FakeTime) -> Iterator[OpenQueue]:
    """Opens the queue as one more server process would: in memory, the one queue of the
    process; in Redis, a new connection to the same keys (a prefix of the test's own)."""
    prefix = f"cribbage:test:{uuid.uuid4().hex}:"
    memory = MemoryMatchQueue(clock)

    def open_() -> MatchQueue:
        return memory if request.param == "memory" else RedisMatchQueue(REDIS_URL, clock, prefix=prefix)

    yield open_
    if request.param == "redis":
        forget(prefix)


# The window and the choice (pure)


def test_the_window_widens_with_the_wait_up_to_the_cap() -> None:
    assert window(0) == WINDOW_BASE == 100
    assert [window(s) for s in (5, 10, 30)] == [150, 200, 400]
    assert window(-3) == 100  # a clock a little behind another process's never narrows it
    assert window(70) == window(10_000) == WINDOW_CAP
    waits = [0.5 * i for i in range(400)]
    assert all(window(a) <= window(b) for a, b in itertools.pairwise(waits))


def test_a_group_is_compatible_when_every_member_accepts_its_spread() -> None:
    old, new = Entry("old", 1500, joined=0), Entry("new", 1700, joined=30)
    assert not compatible([old, new], now=30)  # old accepts 400 points, new only 100
    assert not compatible([old, new], now=39)
    assert compatible([old, new], now=40)  # new has waited 10 s: 200


def test_close_ratings_are_chosen_before_far_ones() -> None:
    people = [Entry(p, r, 0) for p, r in [("a", 1500), ("b", 1560), ("c", 1580), ("d", 1650)]]
    assert names(choose_groups(people, 2, now=0)) == [["b", "c"]]  # not a-b (60) nor c-d (70)
    assert names(choose_groups(people, 2, now=1)) == [["b", "c"]]  # a-d: 150 > 110
    assert names(choose_groups(people, 2, now=5)) == [["b", "c"], ["a", "d"]]


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("seed", range(30))
def test_the_choice_leaves_no_compatible_group_and_takes_the_closest_first(size: int, seed: int) -> None:
    rng = random.Random(seed)
    people = [Entry(f"p{i}", rng.randint(1200, 1800), rng.uniform(0, 60)) for i in range(rng.randint(4, 12))]
    now = 60.0
    groups = choose_groups(people, size, now)
    chosen = [entry.player for group in groups for entry in group]
    assert len(chosen) == len(set(chosen))  # nobody twice
    assert all(len(group) == size and compatible(group, now) for group in groups)
    left = [entry for entry in people if entry.player not in chosen]
    assert left_compatible(left, size, now) == []
    every = left_compatible(people, size, now)
    if every:  # the first group is one of the closest of all
        spreads = [max(e.rating for e in g) - min(e.rating for e in g) for g in every]
        first = groups[0]
        assert max(e.rating for e in first) - min(e.rating for e in first) == min(spreads)
    assert names(choose_groups(reversed(people), size, now)) == names(groups)  # the same in every process


def test_three_and_four_take_the_group_closest_in_rating() -> None:
    people = [Entry(p, r, 0) for p, r in [("a", 1000), ("b", 1050), ("c", 1090), ("d", 1095), ("e", 1180)]]
    assert names(choose_groups(people, 3, now=0)) == [["b", "c", "d"]]
    assert names(choose_groups(people, 4, now=0)) == [["a", "b", "c", "d"]]
    # a newcomer between two long waiters does not stop them: the others accept 150
    waiting = [Entry("x", 1000, 0), Entry("new", 1050, 10), Entry("y", 1150, 0), Entry("z", 1160, 0)]
    assert names(choose_groups(waiting, 3, now=10)) == [["x", "y", "z"]]


def test_partners_sit_the_highest_and_lowest_against_the_two_between() -> None:
    four = [Entry(p, r, 0) for p, r in [("d", 1300), ("b", 1100), ("a", 1000), ("c", 1200)]]
    assert [e.player for e in seat_order(four)] == ["a", "b", "d", "c"]  # seats 0, 2 against 1, 3
    two = [Entry("late", 1000, 5), Entry("early", 1100, 1)]
    assert [e.player for e in seat_order(two)] == ["early", "late"]


# The queue, in memory and in Redis


def test_close_ratings_are_paired_first_and_far_ones_once_the_window_widens(
    open_queue: OpenQueue, clock: FakeTime
) -> None:
    async def scenario() -> None:
        queue = open_queue()
        for player, rating in [("a", 1500), ("b", 1560), ("c", 1580), ("far", 1800)]:
            await queue.join(player, "standard", rating)
        [match] = await queue.pair_once("standard", clock())
        assert (match.pool, set(match.players)) == ("standard", {"b", "c"})
        assert dict(zip(match.players, match.ratings, strict=True)) == {"b": 1560, "c": 1580}
        assert await queue.pair_once("standard", clock() + 19.9) == []  # 300 apart: 20 s
        [match] = await queue.pair_once("standard", clock() + 20)
        assert match.players == ("a", "far")
        assert await queue.waiting("standard") == []
        await queue.close()

    run(scenario())


def test_joining_twice_is_refused_and_changes_nothing(open_queue: OpenQueue, clock: FakeTime) -> None:
    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        await one.join("ann", "standard", 1500)
        clock.advance(3)
        for queue, pool in [(one, "standard"), (two, "standard"), (two, "short"), (one, "partners")]:
            with pytest.raises(AppError) as refused:
                await queue.join("ann", pool, 1900)
            assert refused.value.code == "queue.already_waiting"
            assert refused.value.values == {"pool": "standard"}
        assert await one.waiting("short") == [] and await one.waiting("partners") == []
        assert await two.waiting("standard") == [Entry("ann", 1500, clock() - 3)]
        # from two processes at once: one is in, the other refused
        answers = await asyncio.gather(
            one.join("bob", "short", 1400), two.join("bob", "three", 1400), return_exceptions=True
        )
        refusals = [a for a in answers if isinstance(a, AppError)]
        assert len(refusals) == 1 and refusals[0].code == "queue.already_waiting"
        status = await one.status("bob")
        assert status is not None and refusals[0].values == {"pool": status.pool}  # the one joined
        assert len(await one.waiting("short")) + len(await one.waiting("three")) == 1
        await one.close()
        await two.close()

    run(scenario())


def test_bad_arguments_are_refused_by_code(open_queue: OpenQueue) -> None:
    async def scenario() -> None:
        queue = open_queue()
        for args, code in [
            (("ann", "blitz", 1500), "queue.unknown_pool"),
            (("ann", "standard", float("nan")), "queue.bad_rating"),
            (("ann", "standard", "1500"), "queue.bad_rating"),
            (("", "standard", 1500), "queue.bad_player"),
        ]:
            with pytest.raises(AppError) as refused:
                await queue.join(*args)  # type: ignore[arg-type]
            assert refused.value.code == code
        with pytest.raises(AppError, match="blitz"):
            await queue.pair_once("blitz")
        assert await queue.status("ann") is None
        await queue.close()

    run(scenario())


def test_leaving(open_queue: OpenQueue, clock: FakeTime) -> None:
    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        await one.join("ann", "standard", 1500)
        await one.join("bob", "standard", 1510)
        assert await two.leave("ann") is True
        assert await one.leave("ann") is False
        assert await one.status("ann") is None
        assert await one.pair_once("standard", clock()) == []  # bob waits alone
        await two.join("ann", "short", 1500)  # free to join again, anywhere
        assert await one.pair_once("short", clock()) == []
        assert [e.player for e in await one.waiting("standard")] == ["bob"]
        await one.close()
        await two.close()

    run(scenario())


def test_status_says_how_long_and_how_many(open_queue: OpenQueue, clock: FakeTime) -> None:
    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        joined = await one.join("ann", "three", 1500)
        assert (joined.pool, joined.waited, joined.waiting, joined.window) == ("three", 0, 1, 100)
        clock.advance(12.5)
        await two.join("bob", "three", 2000)
        await two.join("cat", "standard", 1000)
        status = await two.status("ann")
        assert status is not None
        assert status.to_json() == {"pool": "three", "waited": 12.5, "waiting": 2, "window": 225.0}
        assert await one.status("nobody") is None
        await one.close()
        await two.close()

    run(scenario())


def test_a_match_is_left_for_each_player_on_every_process_once(
    open_queue: OpenQueue, clock: FakeTime
) -> None:
    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        await one.join("ann", "standard", 1500)
        await two.join("bob", "standard", 1450)
        assert await one.take_match("ann") is None
        [match] = await two.pair_once("standard", clock())
        assert match.made == clock() and match.players == ("ann", "bob")  # the longest waiting first
        assert await one.status("ann") is None and await one.status("bob") is None
        assert await one.match_for("ann") == match == await two.match_for("bob")
        with pytest.raises(AppError) as refused:  # "Play now" again while the game starts
            await two.join("ann", "short", 1500)
        assert refused.value.code == "queue.match_waiting"
        assert refused.value.values == {"pool": "standard"}  # the match itself is the queue's own
        assert await one.status("ann") is None and await one.waiting("short") == []
        assert await one.take_match("ann") == match
        assert await two.take_match("bob") == match
        assert await two.take_match("ann") is None and await one.take_match("bob") is None
        await one.join("ann", "standard", 1500)  # free to play again once it is taken
        assert Pairing.from_json(match.to_json()) == match
        await one.close()
        await two.close()

    run(scenario())


@pytest.mark.parametrize("pool", ["three", "partners"])
def test_tables_of_three_and_four(open_queue: OpenQueue, clock: FakeTime, pool: str) -> None:
    size = POOLS[pool].players
    rng = random.Random(size)

    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        joined = {f"p{i}": float(rng.randint(1300, 1700)) for i in range(22)}
        for player, rating in joined.items():
            await one.join(player, pool, rating)
            clock.advance(0.25)
        made: list[Pairing] = []
        for _ in range(3):
            made += await two.pair_once(pool, clock())
            waiting = await one.waiting(pool)
            assert left_compatible(waiting, size, clock()) == []
            clock.advance(4)
        assert made and all(len(m.players) == size and m.pool == pool for m in made)
        paired = [p for m in made for p in m.players]
        assert len(paired) == len(set(paired))
        assert set(paired) | {e.player for e in await one.waiting(pool)} == set(joined)
        for match in made:
            group = [Entry(p, joined[p], 0) for p in match.players]
            assert spread_of(group) <= WINDOW_CAP
            if size == 4:
                assert [e.player for e in seat_order(group)] == list(match.players)
            assert await one.take_match(match.players[-1]) == match
        await one.close()
        await two.close()

    run(scenario())


def spread_of(group: Sequence[Entry]) -> float:
    return max(e.rating for e in group) - min(e.rating for e in group)


@pytest.mark.parametrize("pool", ["standard", "three"])
def test_nobody_is_paired_twice_by_two_processes_at_once(
    open_queue: OpenQueue, clock: FakeTime, pool: str
) -> None:
    """Both "processes" pair the same pool at the same moments, round after round, while people
    keep joining; nobody is in two matches, nobody is lost, and after each round nobody waits
    while a compatible group waits with them."""
    size = POOLS[pool].players
    rng = random.Random(31)

    async def scenario() -> None:
        processes = [open_queue(), open_queue()]
        joined: dict[str, float] = {}
        made: list[Pairing] = []
        for round_ in range(40):
            for i in range(rng.randint(0, 6)):
                player = f"r{round_}p{i}"
                joined[player] = float(rng.randint(1000, 2000))
                await processes[i % 2].join(player, pool, joined[player])
            clock.advance(1)
            now = clock()
            for found in await asyncio.gather(*(q.pair_once(pool, now) for q in processes * 2)):
                made += found
            waiting = await processes[round_ % 2].waiting(pool)
            assert left_compatible(waiting, size, now) == []
        paired = [p for m in made for p in m.players]
        assert len(made) > 10 and len(paired) == len(set(paired))
        left = {e.player for e in await processes[0].waiting(pool)}
        assert not left & set(paired) and left | set(paired) == set(joined)
        assert len({m.id for m in made}) == len(made)
        if isinstance(processes[0], RedisMatchQueue):  # the race was run, and lost by one
            assert sum(q.lost for q in processes if isinstance(q, RedisMatchQueue)) > 0
        for match in made:
            for player in match.players:  # each told once, wherever they ask
                assert await processes[rng.randrange(2)].take_match(player) == match
        for queue in processes:
            await queue.close()

    run(scenario())


@pytest.mark.parametrize("meanwhile", ["pairs", "leaves and joins again"])
def test_a_group_read_before_another_process_changed_it_is_not_taken(
    clock: FakeTime, monkeypatch: pytest.MonkeyPatch, meanwhile: str
) -> None:
    """Between one process's read and its take, another pairs the same people, or one of them
    leaves and joins again: the take refuses the stale group, and the round is chosen again."""
    prefix = f"cribbage:test:{uuid.uuid4().hex}:"

    async def scenario() -> None:
        one, two = (RedisMatchQueue(REDIS_URL, clock, prefix=prefix) for _ in range(2))
        await one.join("ann", "standard", 1500)
        await one.join("bob", "standard", 1520)
        read = one._read
        reads = 0

        async def read_then_the_other_acts(pool: str) -> tuple[list[Entry], dict[str, str]]:
            nonlocal reads
            found = await read(pool)
            reads += 1
            if reads == 1 and meanwhile == "pairs":
                assert len(await two.pair_once(pool, clock())) == 1
            elif reads == 1:
                assert await two.leave("bob")
                await two.join("bob", "standard", 1520)
            return found

        monkeypatch.setattr(one, "_read", read_then_the_other_acts)
        made = await one.pair_once("standard", clock())
        assert one.lost == 1 and reads == 2
        if meanwhile == "pairs":
            assert made == [] and await one.waiting("standard") == []
            assert (await two.take_match("ann")) == (await two.take_match("bob")) is not None
        else:  # read again: bob's new stay pairs
            [match] = made
            assert set(match.players) == {"ann", "bob"} and await two.take_match("bob") == match
        await one.close()
        await two.close()

    try:
        run(scenario())
    finally:
        forget(prefix)


def test_the_pairing_loop_delivers_each_match_made_here(open_queue: OpenQueue, clock: FakeTime) -> None:
    async def scenario() -> None:
        queue = open_queue()
        await queue.join("ann", "short", 1500)
        await queue.join("bob", "short", 1500)
        delivered: asyncio.Queue[Pairing] = asyncio.Queue()
        loop = asyncio.create_task(pair_forever(queue, delivered.put, every=0))
        match = await asyncio.wait_for(delivered.get(), 10)
        loop.cancel()
        assert set(match.players) == {"ann", "bob"} and match.pool == "short"
        assert await queue.take_match("bob") == match
        await queue.close()

    run(scenario())


def test_a_match_undone_is_forgotten_and_puts_back_those_asked_as_they_waited(
    open_queue: OpenQueue, clock: FakeTime
) -> None:
    async def scenario() -> None:
        one, two = open_queue(), open_queue()
        await one.join("ann", "three", 1500)
        clock.advance(4)
        await two.join("bob", "three", 1540)
        clock.advance(4)
        await one.join("cyd", "three", 1560)
        waited = {entry.player: entry.joined for entry in await one.waiting("three")}
        [match] = await two.pair_once("three")
        assert await one.take_match("cyd") == match  # cyd has it already: left as they are
        assert sorted(await one.undo_match(match, ["bob", "cyd"])) == ["bob"]
        assert [(e.player, e.rating, e.joined) for e in await two.waiting("three")] == [
            ("bob", 1540, waited["bob"])
        ]
        assert await two.match_for("ann") is None and await two.match_for("bob") is None
        status = await one.status("bob")
        assert status is not None and status.waited == 4 and status.waiting == 1
        assert await one.undo_match(match, ["ann", "bob"]) == []  # undone once
        await one.join("ann", "three", 1500)  # ann is free to play again
        await one.close()
        await two.close()

    run(scenario())


def test_a_match_not_taken_is_dropped_after_a_while(open_queue: OpenQueue, clock: FakeTime) -> None:
    async def scenario() -> None:
        queue = open_queue()
        await queue.join("ann", "standard", 1500)
        await queue.join("bob", "standard", 1500)
        [match] = await queue.pair_once("standard")
        if isinstance(queue, RedisMatchQueue):  # Redis expires it on its own clock
            with redis.Redis.from_url(REDIS_URL) as client:
                assert 0 < client.ttl(f"{queue.prefix}match:ann") <= MATCH_SECONDS
        else:
            clock.advance(MATCH_SECONDS - 1)
            assert await queue.match_for("ann") == match
            clock.advance(1)
            assert await queue.take_match("ann") is None and await queue.match_for("bob") is None
        await queue.close()

    run(scenario())


def test_the_pairing_loop_goes_on_when_a_delivery_fails(clock: FakeTime) -> None:
    async def scenario() -> None:
        queue = MemoryMatchQueue(clock)
        delivered: asyncio.Queue[Pairing] = asyncio.Queue()

        async def deliver(match: Pairing) -> None:
            await delivered.put(match)
            raise RuntimeError("the game could not be created")

        loop = asyncio.create_task(pair_forever(queue, deliver, ["three"], every=0))
        for n in range(2):
            for i in range(3):
                await queue.join(f"{n}-{i}", "three", 1500)
            match = await asyncio.wait_for(delivered.get(), 10)
            assert match.players[0].startswith(f"{n}-")
        loop.cancel()

    run(scenario())


def test_custom_pools_and_the_queue_of_a_url(clock: FakeTime) -> None:
    pools = {"duel": Pool("duel", 2, "standard")}
    assert isinstance(make_queue("memory", clock, pools), MemoryMatchQueue)
    assert make_queue("memory", clock, pools).pools == pools
    with pytest.raises(Exception, match="unknown queue"):
        make_queue("kafka://x")


def test_a_redis_that_cannot_be_reached_is_a_refusal_with_its_code(clock: FakeTime) -> None:
    async def scenario() -> None:
        queue = make_queue("redis://127.0.0.1:1/0", clock)
        with pytest.raises(AppError) as refused:
            await queue.join("ann", "standard", 1500)
        assert refused.value.code == "queue.unavailable"
        await queue.close()

    run(scenario())


@pytest.mark.slow
def test_the_benchmark_runs_two_processes_and_its_checks_pass() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "bench_matchmaking.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--people", "80", "--speed", "40", "--redis", REDIS_URL, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["matches"] == 40 - result["left waiting"] // 2 and all(result["checks"].values())
