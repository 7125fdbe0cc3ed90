"""Ratings that cannot be lost or dodged (issue 41, items 6 and 7; docs/ratings.md, "Rated exactly
once" and "Deleting an account"): a game stored as over is rated even when the process that
stored it dies (SIGKILL) or its database call fails before the rating, by another process or by
the same one later, exactly once; deleting an account mid-game records the game as its loss.
On SQLite and PostgreSQL.
"""

from __future__ import annotations

import http.client
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy
from fastapi.testclient import TestClient

from cribbage.app.people.ratings import Rating
from cribbage.app.playnow.orchestrator import PlayNow
from cribbage.storage import Storage, StoredAccount, StoredGame, StoredSeat
from cribbage.web.ratelimits import NO_LIMITS
from e2e_helpers import free_port
from soft_authenticator import SoftAuthenticator
from test_web_restart import request, serving
from web_fixtures import PASSWORD, actions_of, auth, make_client, play_out, sign_up

NEVER = 3600.0
WAIT = 30.0

DIE_BEFORE_RATING = """
import os, signal, sys
from cribbage.storage.ratings import RatingRows

def die(*_args, **_kwargs):  # the final action is stored; the rating is not
    os.kill(os.getpid(), signal.SIGKILL)

RatingRows.record = die
from cribbage.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""``cribbage serve`` that kills itself (SIGKILL) where it would record a rating: between the
final action's save and the rating (the hook is this test's code, not the server's)."""


# --------------------------------------------------------------------------- over HTTP, in-process


def play_now(client: TestClient, sessions: list[str], pool: str = "short") -> tuple[str, list[str]]:
    """A Play now game of these accounts (rated): its id and the seats' tokens, by seat."""
    for session in sessions:
        joined = client.post("/api/play", json={"pool": pool}, headers=auth(session))
        assert joined.status_code == 202, joined.text
    play: PlayNow = client.app.state.play  # type: ignore[attr-defined]
    assert client.portal is not None
    [_match] = client.portal.call(play.pair_once)
    matched = [client.get("/api/play", headers=auth(s)).json()["match"] for s in sessions]
    tokens = [""] * len(matched)
    for seat in matched:
        tokens[seat["seat"]] = seat["token"]
    return matched[0]["game"], tokens


def ratings_of(client: TestClient, name: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["ratings"]
    return found


def history_rows(url: str, game_id: str) -> int:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            query = sqlalchemy.text("SELECT count(*) FROM rating_history WHERE game_id = :g")
            return int(conn.execute(query, {"g": game_id}).scalar_one())
    finally:
        engine.dispose()


def running(url: str, **settings: Any) -> TestClient:
    return make_client(url, **{"limits": NO_LIMITS, "pair_every": NEVER, **settings})


def act_some(client: TestClient, game_id: str, tokens: list[str], count: int) -> dict[str, Any]:
    """Each seat to act takes its first legal action, ``count`` times: the state then."""
    for _ in range(count):
        seen = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
        token = tokens[seen["view"]["to_act"]]
        mine = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        answer = client.post(f"/api/games/{game_id}/actions", json=actions_of(mine)[0], headers=auth(token))
        assert answer.status_code == 200, answer.text
    state: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).json()
    return state


# --------------------------------------------------------------------------- item 6: lost


@contextmanager
def failing_ratings(url: str) -> Iterator[None]:
    """Every insert of a rating's history fails in the database (a trigger) until the block ends."""
    engine = sqlalchemy.create_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    make = (
        [
            "CREATE TRIGGER fail_rating BEFORE INSERT ON rating_history "
            "BEGIN SELECT RAISE(ABORT, 'the ratings are away'); END"
        ]
        if sqlite
        else [
            "CREATE FUNCTION fail_rating() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'the ratings are away'; END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER fail_rating BEFORE INSERT ON rating_history "
            "FOR EACH ROW EXECUTE FUNCTION fail_rating()",
        ]
    )
    drop = (
        ["DROP TRIGGER fail_rating"]
        if sqlite
        else ["DROP TRIGGER fail_rating ON rating_history", "DROP FUNCTION fail_rating()"]
    )
    try:
        with engine.begin() as conn:
            for statement in make:
                conn.exec_driver_sql(statement)
        yield
    finally:
        with engine.begin() as conn:
            for statement in drop:
                conn.exec_driver_sql(statement)
        engine.dispose()


def test_a_rating_the_database_refused_is_recorded_later_by_the_same_process(shared_url: str) -> None:
    with running(shared_url, rating_every=0.2) as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, tokens = play_now(client, [aiko, boris])
        with failing_ratings(shared_url):
            state, _count = play_out(client, game_id, tokens)
            assert state["over"]
            assert ratings_of(client, "Aiko") == [] and history_rows(shared_url, game_id) == 0
        deadline = time.monotonic() + WAIT
        while ratings_of(client, "Aiko") == []:  # the periodic round finds it due
            assert time.monotonic() < deadline, "the game was never rated"
            time.sleep(0.1)
        [a], [b] = ratings_of(client, "Aiko"), ratings_of(client, "Boris")
        assert (a["games"], b["games"], a["wins"] + b["wins"]) == (1, 1, 1)
        time.sleep(0.6)  # more rounds: nothing more
        assert history_rows(shared_url, game_id) == 2
        assert client.app.state.service.storage.ratings.due() == []  # type: ignore[attr-defined]


def test_processes_racing_to_rate_a_due_game_rate_it_once(shared_url: str) -> None:
    with running(shared_url) as first, running(shared_url) as second:
        aiko, boris = sign_up(first, "Aiko"), sign_up(first, "Boris")
        game_id, tokens = play_now(first, [aiko, boris])
        with failing_ratings(shared_url):
            play_out(first, game_id, tokens)
        services = [first.app.state.service, second.app.state.service]  # type: ignore[attr-defined]
        assert services[0].storage.ratings.due() == [game_id]
        handled: list[list[str]] = []
        start = threading.Barrier(4)

        def sweep(service: Any) -> None:
            start.wait()
            handled.append(service.rated.sweep())

        threads = [threading.Thread(target=sweep, args=(s,)) for s in services * 2]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(handled) == 4 and any(handled)
        assert history_rows(shared_url, game_id) == 2
        assert [r["games"] for r in ratings_of(second, "Aiko") + ratings_of(second, "Boris")] == [1, 1]
        assert services[1].storage.ratings.due() == []


def seat_token(game: str, seat: int) -> str:
    return f"{game}{seat}".ljust(64, "0")


def test_the_outbox_holds_a_finished_game_until_its_rating_is_settled_once(shared_url: str) -> None:
    storage = Storage(shared_url)
    try:
        ratings = storage.ratings
        for name in ("ann", "bob"):
            storage.accounts.add(StoredAccount(name, name, name, None, storage.now()))
        for game in ("g1", "g2", "g3"):
            seated = [
                StoredSeat(n, "human", None, f"P{n}", f"{game}{n}".ljust(64, "0"), None, True) for n in (0, 1)
            ]
            storage.games.insert(StoredGame(game, "0" * 64, {}, {"actions": []}, 0, False), seated)
        storage.accounts.link_seats("ann", {seat_token("g1", 0), seat_token("g2", 0)})
        assert ratings.due() == []  # in progress: not due
        assert ratings.unsettled_of("ann") == ["g1", "g2"]
        for game in ("g1", "g2"):
            assert storage.games.update(game, {"actions": [1]}, version=1, over=True, expected=0)
        assert ratings.due() == ["g1", "g2"]  # over, nobody rated them yet

        def win(_before: Any) -> dict[str, Any]:
            return {a: Rating(26.0 - i, 8.0, 1, 1 - i) for i, a in enumerate(["ann", "bob"])}

        assert ratings.record("g1", "short", ["ann", "bob"], win)
        assert not ratings.record("g1", "short", ["ann", "bob"], win)
        assert ratings.settle_unrated("g2") and not ratings.settle_unrated("g2")
        assert not ratings.record("g2", "short", ["ann", "bob"], win)  # settled unrated
        assert ratings.due() == [] and ratings.unsettled_of("ann") == []
        assert [r.games for r in ratings.profile("ann")] == [1]
    finally:
        storage.close()


# --------------------------------------------------------------------------- real processes


@contextmanager
def dying_server(url: str, port: int) -> Iterator[subprocess.Popen[str]]:
    """``cribbage serve`` on ``url`` that kills itself where it would record a rating
    (:data:`DIE_BEFORE_RATING`), answering; SIGKILLed at the end if it still runs."""
    command = [sys.executable, "-c", DIE_BEFORE_RATING, "serve", "--port", str(port), "--db", url]
    with serving(command, port) as process:
        yield process


def paired_over_http(port: int, names: list[str]) -> tuple[str, list[str]]:
    """Accounts signed up and paired by Play now in the short pool: the game and its tokens."""
    sessions = []
    for name in names:
        status, made = request(port, "POST", "/api/accounts", {"name": name, "password": PASSWORD})
        assert status == 201, made
        sessions.append(made["token"])
        status, joined = request(port, "POST", "/api/play", {"pool": "short"}, made["token"])
        assert status == 202, joined
    deadline = time.monotonic() + WAIT
    matched: list[dict[str, Any]] = []
    for session in sessions:
        while True:
            status, answer = request(port, "GET", "/api/play", token=session)
            if status == 200 and "match" in answer:
                matched.append(answer["match"])
                break
            assert time.monotonic() < deadline, answer
            time.sleep(0.1)
    tokens = [""] * len(matched)
    for seat in matched:
        tokens[seat["seat"]] = seat["token"]
    return matched[0]["game"], tokens


def test_a_process_killed_between_the_final_save_and_the_rating_leaves_it_to_the_next(
    shared_url: str,
) -> None:
    port = free_port()
    with dying_server(shared_url, port) as first:
        game_id, tokens = paired_over_http(port, ["Aiko", "Boris"])
        status, state = request(port, "GET", f"/api/games/{game_id}", token=tokens[0])
        died = False
        for _ in range(3000):
            assert status == 200 and not state["over"], state
            seat = state["view"]["to_act"]
            token = tokens[seat]
            if state["seat"] != seat:  # the answer was the other seat's state
                _status, state = request(port, "GET", f"/api/games/{game_id}", token=token)
            try:
                status, state = request(
                    port, "POST", f"/api/games/{game_id}/actions", actions_of(state)[0], token
                )
            except (OSError, http.client.HTTPException):  # the final action: stored, then SIGKILL
                died = True
                break
        assert died and first.wait(timeout=10) == -signal.SIGKILL
    assert history_rows(shared_url, game_id) == 0
    # At its start, the next server rates what is due: an application of this process (its
    # lifespan's round of the ratings due is the one ``cribbage serve`` runs; a second process
    # would add only its start, about 2 CPU-s).
    with running(shared_url) as client:
        answer = client.get(f"/api/games/{game_id}", headers=auth(tokens[0]))
        state = answer.json()
        assert answer.status_code == 200 and state["over"]  # the final action was stored before the kill
        deadline = time.monotonic() + WAIT
        while history_rows(shared_url, game_id) == 0:
            assert time.monotonic() < deadline, "the game was never rated"
            time.sleep(0.1)
        [a], [b] = ratings_of(client, "Aiko"), ratings_of(client, "Boris")
        winner = state["result"]["winner"]
        assert (a["games"], b["games"], a["wins"], b["wins"]) == (1, 1, int(winner == 0), int(winner == 1))
    assert history_rows(shared_url, game_id) == 2


# --------------------------------------------------------------------------- item 7: dodged


def test_deleting_the_account_mid_game_is_its_loss(shared_url: str) -> None:
    with running(shared_url) as client:
        aiko, boris = sign_up(client, "Aiko"), sign_up(client, "Boris")
        game_id, tokens = play_now(client, [aiko, boris])
        act_some(client, game_id, tokens, 6)
        gone = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(boris))
        assert gone.status_code == 200, gone.text
        [a] = ratings_of(client, "Aiko")
        assert (a["pool"], a["games"], a["wins"]) == ("short", 1, 1) and a["shown"] > 1500
        assert [point["game"] for point in a["history"]] == [game_id]
        assert history_rows(shared_url, game_id) == 1  # the deleted account's row went with it
        assert client.get("/api/players/Boris").json()["code"] == "player.not_found"
        # The game plays on (the deleted player's seat keeps its token); its end rates nothing more.
        state, _count = play_out(client, game_id, tokens)
        assert state["over"]
        [a] = ratings_of(client, "Aiko")
        assert (a["games"], a["wins"]) == (1, 1) and history_rows(shared_url, game_id) == 1


def test_a_deleter_of_a_three_player_game_ranks_last_and_the_others_by_score() -> None:
    with running("sqlite://") as client:
        sessions = [sign_up(client, name) for name in ("Aiko", "Boris", "Chen")]
        game_id, tokens = play_now(client, sessions, pool="three")
        state = act_some(client, game_id, tokens, 40)
        scores, names = state["view"]["scores"], state["names"]
        gone = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(sessions[0]))
        assert gone.status_code == 200, gone.text
        deleter = names.index("Aiko")
        better, worse = sorted((seat for seat in range(3) if seat != deleter), key=lambda seat: -scores[seat])
        [first], [second] = ratings_of(client, names[better]), ratings_of(client, names[worse])
        assert (first["pool"], first["games"], second["games"]) == ("three", 1, 1)
        if scores[better] > scores[worse]:  # the better score ranks first, the deleter last
            assert (first["wins"], second["wins"]) == (1, 0) and first["shown"] > second["shown"]
        else:  # a tie: both first, both won nothing alone, both moved alike
            assert (first["wins"], second["wins"]) == (0, 0) and first["shown"] == second["shown"]
        assert first["shown"] > 1500


def test_deleting_an_account_with_its_passkey_mid_game_is_its_loss_too() -> None:
    with running("sqlite://") as client:
        device = SoftAuthenticator()
        ceremony, options = passkey_options(client, "signup", name="Boris")
        made = client.post(
            "/api/accounts/passkey/signup", json={"ceremony": ceremony, "credential": device.create(options)}
        )
        assert made.status_code == 201, made.text
        aiko, boris = sign_up(client, "Aiko"), made.json()["token"]
        game_id, tokens = play_now(client, [aiko, boris])
        act_some(client, game_id, tokens, 4)
        ceremony, options = passkey_options(client, "signin")
        body = {"ceremony": ceremony, "credential": device.get(options)}
        gone = client.post("/api/accounts/passkey/delete", json=body, headers=auth(boris))
        assert gone.status_code == 200, gone.text
        [a] = ratings_of(client, "Aiko")
        assert (a["games"], a["wins"]) == (1, 1) and [p["game"] for p in a["history"]] == [game_id]


def passkey_options(client: TestClient, step: str, **body: Any) -> tuple[str, dict[str, Any]]:
    answer = client.post(f"/api/accounts/passkey/{step}/options", json=body or None)
    assert answer.status_code == 200, answer.text
    return answer.json()["ceremony"], answer.json()["options"]
