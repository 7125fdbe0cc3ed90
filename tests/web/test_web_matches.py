"""Matches of "Play now" (issue 31 item 3; docs/api.md, "Play now"; docs/matchmaking.md,
"Matches"): ``first_to`` pairs only people asking for the same match; a best-of-3 match between
two accounts is played through the API to its end, each next game made by itself with the
loser dealing first, the series score in every game's state, each game rated on its own; the
series survives a restart and is the same in another process; bad ``first_to`` is refused.
On SQLite (one process, then a restarted one) and on PostgreSQL with Redis (two processes)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from cribbage.app.errors import AppError
from cribbage.app.playnow.orchestrator import PlayNow
from cribbage.web.answers.games import StateAnswer
from cribbage.web.routers.play import PlayMatched, PlayStatus
from service_urls import REDIS_URL
from test_web_play import pair, running
from web_fixtures import act_first, auth, play_out, sign_up


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The settings of an application: an SQLite file with the queue in memory, or a PostgreSQL
    schema with the queue in Redis (under a prefix of its own, removed afterwards)."""
    if request.param == "sqlite":
        yield {"database_url": f"sqlite:///{tmp_path / 'games.db'}"}
        return
    prefix = f"cribbage:test:{uuid.uuid4().hex}:queue:"
    try:
        yield {
            "database_url": request.getfixturevalue("postgres_url"),
            "broker": REDIS_URL,
            "queue_prefix": prefix,
        }
    finally:
        with redis.Redis.from_url(REDIS_URL) as raw:
            keys = list(raw.scan_iter(match=prefix + "*", count=1000))
            if keys:
                raw.delete(*keys)


@contextmanager
def app(settings: dict[str, Any]) -> Iterator[TestClient]:
    values = dict(settings)
    with running(values.pop("database_url"), **values) as client:
        yield client


def state(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    StateAnswer.model_validate(found)  # exactly what /openapi.json states
    return found


def ratings(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    [short] = answer.json()["ratings"]
    found: dict[str, Any] = short
    return found


def test_only_people_asking_for_the_same_pool_and_first_to_are_paired(backend: dict[str, Any]) -> None:
    with app(backend) as client:
        ann, bob, cyd, dee = (sign_up(client, name) for name in ("ann", "bob", "cyd", "dee"))
        asked = client.post("/api/play", json={"pool": "short", "first_to": 2}, headers=auth(ann))
        assert asked.status_code == 202, asked.text
        assert asked.json() == {"pool": "short", "first_to": 2, "waited": 0.0, "waiting": 1, "window": 100.0}
        PlayStatus.model_validate(asked.json())
        for session, first_to in ((bob, 1), (dee, 3)):
            body = {"pool": "short", "first_to": first_to}
            assert client.post("/api/play", json=body, headers=auth(session)).json()["waiting"] == 1
        assert pair(client) == []  # three people, three queues
        twice = client.post("/api/play", json={"pool": "standard"}, headers=auth(ann))
        assert twice.status_code == 409 and twice.json()["code"] == "queue.already_waiting"
        assert (twice.json()["pool"], twice.json()["first_to"]) == ("short", 2)
        assert client.get("/api/play", headers=auth(bob)).json()["first_to"] == 1
        body = {"pool": "short", "first_to": 2}
        assert client.post("/api/play", json=body, headers=auth(cyd)).json()["waiting"] == 2
        [match] = pair(client)
        assert match.pool == "short/2"
        told = [client.get("/api/play", headers=auth(s)).json() for s in (ann, cyd)]
        for answer in told:
            PlayMatched.model_validate(answer)
            assert answer["match"]["pool"] == "short" and answer["match"]["first_to"] == 2
        seat = told[0]["match"]
        seen = state(client, seat["game"], seat["token"])
        assert seen["match"] == {"first_to": 2, "number": 1, "wins": [0, 0], "over": False, "winner": None}
        # the others wait on; a plain game is not a match
        assert client.get("/api/play", headers=auth(dee)).json()["first_to"] == 3
        single = client.post("/api/play", json={"pool": "short"}, headers=auth(ann))
        assert single.status_code == 202 and single.json()["first_to"] == 1
        [plain] = pair(client)
        assert plain.pool == "short"
        seat = client.get("/api/play", headers=auth(bob)).json()["match"]
        assert state(client, seat["game"], seat["token"])["match"] is None


def start_match(client: TestClient, names: tuple[str, str]) -> tuple[str, list[str], list[str]]:
    """Two accounts paired for a best-of-3 match in the short pool: the first game's id, each
    seat's token (seat order) and each seat's account name."""
    sessions = {name: sign_up(client, name) for name in names}
    for session in sessions.values():
        body = {"pool": "short", "first_to": 2}
        assert client.post("/api/play", json=body, headers=auth(session)).status_code == 202
    assert len(pair(client)) == 1
    seats = {name: client.get("/api/play", headers=auth(s)).json()["match"] for name, s in sessions.items()}
    by_seat = sorted(seats.items(), key=lambda item: item[1]["seat"])
    game = by_seat[0][1]["game"]
    return game, [seat["token"] for _, seat in by_seat], [name for name, _ in by_seat]


def play_game(
    client: TestClient, game: str, tokens: list[str], wins: list[int], number: int
) -> dict[str, Any]:
    """Play one game of the match to its end; check its series before and after: the last
    state, ``wins`` updated."""
    first = state(client, game, tokens[0])
    assert first["match"] == {"first_to": 2, "number": number, "wins": wins, "over": False, "winner": None}
    last, _count = play_out(client, game, tokens)
    winner = last["result"]["winner"]
    wins[winner] += 1
    over = max(wins) == 2
    assert last["match"] == {
        "first_to": 2,
        "number": number,
        "wins": wins,
        "over": over,
        "winner": winner if over else None,
    }
    return last


def test_a_best_of_3_match_is_played_to_its_end_across_processes_and_a_restart(
    backend: dict[str, Any],
) -> None:
    wins = [0, 0]
    with app(backend) as first:
        game, tokens, names = start_match(first, ("Aiko", "Boris"))
        last = play_game(first, game, tokens, wins, 1)
        # the next game is made by itself: both seats' tokens act there, its loser deals first
        after = state(first, game, tokens[1])
        following = after["rematch"]
        assert following is not None and following != game
        loser = last["result"]["loser"]
        second_game = state(first, following, tokens[0])
        assert second_game["view"]["dealer"] == loser and second_game["view"]["hand_number"] == 1
        assert second_game["names"] == last["names"]
        for name in names:  # the first game is rated, on its own
            assert ratings(first, name)["games"] == 1
        if "broker" in backend:  # another process sees the same series, and plays the next game
            with app(backend) as second:
                assert state(second, following, tokens[1])["match"]["wins"] == wins
                last = play_game(second, following, tokens, wins, 2)
                game = following  # its next game, if any, was made by the second process
    # a restart: a new application on the same database goes on with the match
    with app(backend) as restarted:
        number = last["match"]["number"]
        while not last["match"]["over"]:
            game, number = state(restarted, game, tokens[1])["rematch"], number + 1
            seen = state(restarted, game, tokens[0])
            assert seen["match"]["number"] == number and seen["match"]["wins"] == wins
            last = play_game(restarted, game, tokens, wins, number)
        # over after two wins: no next game; every game rated on its own
        assert max(wins) == 2 and sum(wins) in (2, 3)
        assert state(restarted, game, tokens[0])["rematch"] is None
        assert last["match"]["winner"] == wins.index(2)
        for seat, name in enumerate(names):
            rated = ratings(restarted, name)
            assert (rated["games"], rated["wins"]) == (sum(wins), wins[seat])
        # asked for, a rematch after the match is a game on its own
        again = restarted.post(f"/api/games/{game}/rematch", headers=auth(tokens[0]))
        assert again.status_code == 200, again.text
        assert again.json()["state"]["match"] is None


@pytest.mark.parametrize("first_to", [0, 6, 99, "2", 2.5, True, None, 6.0])
def test_a_bad_first_to_is_refused_with_a_code(first_to: object) -> None:
    with running() as client:
        ann = sign_up(client, "ann")
        answer = client.post("/api/play", json={"pool": "short", "first_to": first_to}, headers=auth(ann))
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "bad_request" and answer.json()["field"] == "first_to"
        assert client.get("/api/play", headers=auth(ann)).json()["code"] == "play.not_waiting"


def test_the_service_of_play_now_refuses_a_bad_first_to_and_a_queue_for_a_pool() -> None:
    with running() as client:
        ann = sign_up(client, "ann")
        play: PlayNow = client.app.state.play  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None
        with pytest.raises(AppError) as refused:  # refused before anything is read
            portal.call(play.join, "an account", "short", 0)
        assert refused.value.code == "play.bad_first_to"
        queue = client.post("/api/play", json={"pool": "short/2"}, headers=auth(ann))
        assert queue.status_code == 404 and queue.json()["code"] == "queue.unknown_pool"


def test_a_match_someone_left_ends_with_its_game() -> None:
    """A seat left (a computer takes it at once, as at every table of Play now): the game is
    finished and rated as the leaver's loss, and no next game of the match follows."""
    with running() as client:
        game, tokens, names = start_match(client, ("Aiko", "Boris"))
        options = state(client, game, tokens[0])["options"]
        assert (options["clock"], options["takeover"]) == (60, "normal"), options
        for token in tokens:  # each discards: the game is counted (a leave before would abort it)
            act_first(client, game, token)
        assert state(client, game, tokens[0])["rating"] == "counted"
        left = client.post(f"/api/games/{game}/leave", headers=auth(tokens[1]))
        assert left.status_code == 200 and left.json()["computer"] == "normal", left.json()
        last, _count = play_out(client, game, [tokens[0], None])
        assert last["over"] and state(client, game, tokens[0])["rematch"] is None
        assert (ratings(client, names[0])["wins"], ratings(client, names[1])["wins"]) == (1, 0)
        asked = client.post(f"/api/games/{game}/rematch", headers=auth(tokens[0]))
        assert asked.status_code == 200 and asked.json()["state"]["match"] is None  # a game on its own
