""" "Play now" under faults (issue 41, item 10), over a real Redis: a join refused because Redis
stalled changes nothing and names no host or port; an account that signs out or is deleted
while it waits leaves the queue, and a pairing that meets one anyway (it was paired meanwhile,
or its process could not reach the queue) undoes the match without a traceback, its partner
waiting again.

The stalls are real: the application's queue talks to Redis through a TCP proxy on 127.0.0.1
(``tcp_proxy.Proxy``) that holds the bytes of one direction from the join's request on: the
replies (Redis did the join, its answer is lost) or the requests (Redis gets the join only
after the application gave up on it).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from fastapi.testclient import TestClient
from redis.commands.core import AsyncScript

import web_fixtures
from cribbage.app.playnow.orchestrator import QUEUES, PlayNow
from cribbage.web.messaging.queue import queue_of
from cribbage.web.messaging.redis_queue import JOIN, RedisMatchQueue
from service_urls import REDIS_URL
from tcp_proxy import Proxy
from test_web_play import running
from web_fixtures import PASSWORD, auth, sign_up


def account_id(client: TestClient, name: str) -> str:
    found = client.app.state.service.storage.accounts.by_name(name)  # type: ignore[attr-defined]
    assert found is not None
    return str(found.id)


def play_now(client: TestClient) -> PlayNow:
    play: PlayNow = client.app.state.play  # type: ignore[attr-defined]
    return play


def pair(client: TestClient) -> list[Any]:
    """One round of the pairing of ``client``'s application, its matches delivered: those
    whose games were made."""
    assert client.portal is not None
    return client.portal.call(play_now(client).pair_once)


def prefix() -> str:
    """The running test's keys of Play now's queue in Redis (web_fixtures.make_app)."""
    return web_fixtures.KEYS[0] + "queue:"


@pytest.fixture
def raw() -> Iterator[redis.Redis]:
    """A connection of the test's own to the tests' Redis, around any proxy."""
    with redis.Redis.from_url(REDIS_URL, decode_responses=True) as connection:
        yield connection


# ------------------------------------------------------------------ a stalled Redis


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    target = urlsplit(REDIS_URL)
    with Proxy(target.hostname or "127.0.0.1", target.port or 6379) as running_proxy:
        yield running_proxy


def through(client: TestClient, proxy: Proxy, raw: redis.Redis) -> RedisMatchQueue:
    """The application's queue made again as the server makes it from a Redis broker, on the
    URL of ``proxy``; its scripts loaded in Redis beforehand (so that a join is one request)."""
    play = play_now(client)
    assert client.portal is not None
    client.portal.call(play.queue.close)
    queue = queue_of(proxy.url, prefix(), QUEUES)
    assert isinstance(queue, RedisMatchQueue)
    for script in vars(queue).values():
        if isinstance(script, AsyncScript):
            raw.script_load(script.script)
    play.queue = queue
    return queue


def sha(script: str) -> bytes:
    return hashlib.sha1(script.encode()).hexdigest().encode()


def names_no_address(text: str, proxy: Proxy) -> None:
    target = urlsplit(REDIS_URL)
    for address in ("127.0.0.1", "localhost", str(target.port or 6379), str(proxy.port), "redis", "Timeout"):
        assert address not in text, text


def waits(raw: redis.Redis, player: str) -> bool:
    """Whether ``player`` is anywhere in the queue's keys: waiting, in a pool, or matched."""
    pools = [key for key in raw.scan_iter(match=prefix() + "*") if ":pool:" in key or ":joined:" in key]
    in_pools = any(raw.zscore(key, player) is not None for key in pools if ":pool:" in key)
    in_joined = any(raw.hexists(key, player) for key in pools if ":joined:" in key)
    matched = raw.exists(prefix() + f"match:{player}")
    return bool(raw.hexists(prefix() + "waiting", player) or in_pools or in_joined or matched)


def test_a_join_whose_answer_is_lost_is_taken_back_before_it_is_refused(
    proxy: Proxy, raw: redis.Redis
) -> None:
    with running() as client, ThreadPoolExecutor(1) as worker:
        through(client, proxy, raw)
        session = sign_up(client, "ann")
        ann = account_id(client, "ann")
        proxy.hold(requests=False, replies=True, at=sha(JOIN))  # Redis does it; the answer is held
        asked = worker.submit(client.post, "/api/play", json={"pool": "standard"}, headers=auth(session))
        deadline = time.monotonic() + 20
        while not raw.hexists(prefix() + "waiting", ann):  # done in Redis: only its answer is lost
            assert time.monotonic() < deadline, "the join never reached Redis"
            time.sleep(0.01)
        connections = proxy.accepted
        while not asked.done() and proxy.accepted == connections:  # until the join is given up
            assert time.monotonic() < deadline, "no answer"
            time.sleep(0.01)
        proxy.release()  # Redis answers again
        answer = asked.result(30)
        assert answer.status_code == 503 and answer.json()["code"] == "queue.unavailable", answer.text
        names_no_address(answer.text, proxy)
        assert not waits(raw, ann)  # the refused join changed nothing
        polled = client.get("/api/play", headers=auth(session))
        assert polled.status_code == 404 and polled.json()["code"] == "play.not_waiting"
        bob = sign_up(client, "bob")  # and nobody is paired with ann
        assert client.post("/api/play", json={"pool": "standard"}, headers=auth(bob)).status_code == 202
        assert pair(client) == []


def test_a_join_that_reaches_a_stalled_redis_too_late_is_not_done(proxy: Proxy, raw: redis.Redis) -> None:
    with running() as client:
        through(client, proxy, raw)
        session = sign_up(client, "ann")
        ann = account_id(client, "ann")
        proxy.hold(requests=True, replies=False, at=sha(JOIN))  # Redis gets nothing from the join on
        answer = client.post("/api/play", json={"pool": "standard"}, headers=auth(session))
        assert answer.status_code == 503 and answer.json()["code"] == "queue.unavailable", answer.text
        names_no_address(answer.text, proxy)
        proxy.release()  # Redis gets the join (and anything after it) now, after the refusal
        assert client.portal is not None
        client.portal.call(play_now(client).queue.close)  # so every connection ends, once done
        proxy.wait_closed()
        assert not waits(raw, ann)


# ------------------------------------------------------------------ accounts that go away


@pytest.fixture(params=["sqlite+memory", "postgresql+redis"])
def app_settings(request: pytest.FixtureRequest) -> dict[str, Any]:
    """One process: on SQLite with the queue in memory, or on PostgreSQL with it in Redis."""
    if request.param == "sqlite+memory":
        return {"database_url": "sqlite://"}
    return {"database_url": request.getfixturevalue("postgres_url"), "broker": REDIS_URL}


Tracebacks = Callable[[], list[logging.LogRecord]]


@pytest.fixture
def tracebacks(caplog: pytest.LogCaptureFixture) -> Tracebacks:
    """The records logged so far by the test with a traceback, or as errors."""
    caplog.set_level(logging.INFO)

    def found() -> list[logging.LogRecord]:
        return [record for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]

    return found


def join(client: TestClient, session: str, pool: str = "standard") -> None:
    answer = client.post("/api/play", json={"pool": pool}, headers=auth(session))
    assert answer.status_code == 202, answer.text


def test_signing_out_leaves_the_queue(app_settings: dict[str, Any], tracebacks: Tracebacks) -> None:
    with running(**app_settings) as client:
        ann, bob, cyd = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "cyd")
        join(client, ann)
        signed_in = client.post("/api/accounts/signin", json={"name": "ann", "password": PASSWORD})
        again = signed_in.json()["token"]
        assert client.post("/api/accounts/signout", headers=auth(ann)).json() == {"ended": 1}
        # signed in elsewhere still, but the person who waited has gone: no longer waiting
        assert client.get("/api/play", headers=auth(again)).json()["code"] == "play.not_waiting"
        join(client, bob)
        assert pair(client) == []  # bob is not paired with ann
        assert client.get("/api/play", headers=auth(bob)).json()["waiting"] == 1
        join(client, again)  # ann, waiting again, signs out everywhere
        assert client.post("/api/accounts/signout/all", headers=auth(again)).json() == {"ended": 1}
        assert pair(client) == []
        join(client, cyd)
        [match] = pair(client)
        assert sorted(match.players) == sorted(account_id(client, name) for name in ("bob", "cyd"))
    assert tracebacks() == []


def test_deleting_the_account_leaves_the_queue(app_settings: dict[str, Any], tracebacks: Tracebacks) -> None:
    with running(**app_settings) as client:
        ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
        join(client, ann)
        join(client, bob)
        play = play_now(client)
        assert client.portal is not None
        ids = [account_id(client, "ann"), account_id(client, "bob")]
        deleted = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(ann))
        assert deleted.status_code == 200, deleted.text
        assert [e.player for e in client.portal.call(play.queue.waiting, "standard")] == [ids[1]]
        assert pair(client) == []  # bob is not paired with the deleted account
        assert client.get("/api/play", headers=auth(bob)).json()["waiting"] == 1
    assert tracebacks() == []


@pytest.mark.parametrize("how", ["deleted", "signed out"])
def test_a_match_with_an_account_gone_meanwhile_is_undone_and_its_partner_waits_again(
    app_settings: dict[str, Any], tracebacks: Tracebacks, how: str
) -> None:
    """The account went while the queue could not be told (another process, Redis down): the
    pairing meets it, makes no game, and puts the partner back as they waited."""
    with running(**app_settings) as client:
        ann, bob, cyd = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "cyd")
        join(client, ann)
        join(client, bob)
        ids = {name: account_id(client, name) for name in ("ann", "bob", "cyd")}
        storage = client.app.state.service.storage  # type: ignore[attr-defined]
        if how == "deleted":  # behind the queue's back: as a process that could not reach it
            storage.accounts.delete(ids["ann"])
        else:
            storage.accounts.end_sessions(ids["ann"])
        play = play_now(client)
        assert client.portal is not None
        waited = {e.player: e.joined for e in client.portal.call(play.queue.waiting, "standard")}
        assert pair(client) == []  # the match was made, and undone: no game
        assert client.get("/api/accounts/me", headers=auth(bob)).json()["games"] == []
        again = client.get("/api/play", headers=auth(bob))
        assert again.status_code == 200 and again.json()["waiting"] == 1, again.text
        [bob_waits] = client.portal.call(play.queue.waiting, "standard")
        assert bob_waits.player == ids["bob"] and bob_waits.joined == waited[ids["bob"]]  # as he waited
        join(client, cyd)
        [match] = pair(client)
        assert sorted(match.players) == sorted([ids["bob"], ids["cyd"]])
        assert client.get("/api/play", headers=auth(bob)).json()["match"]["seat"] in (0, 1)
    assert tracebacks() == []
