"""Web Push for correspondence tournaments (docs/api.md, "Tournaments"; issue 44 item 2): an entrant
opts in on ``POST /api/tournaments/{id}/push``, and once a table of theirs gets its game their
browser is told once, ``{"type": "game_ready", "tournament", "game"}``; nobody else's is.

As in tests/web/test_web_webpush.py (whose helpers these are): a real push service over TLS on
a loopback address, the browsers' real keys, each notice decrypted as the browser would; no
traffic leaves loopback.  The tournaments call
:meth:`~cribbage.app.tournaments.ready.TournamentReady.ready` once they made a round's games
(the last test); the others call it as they will.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.web.answers.tournaments import TournamentPushAnswer
from cribbage.web.webpush import WebPush
from test_web_webpush import (
    DAY,
    Browser,
    Certificates,
    PushService,
    Resolver,
    b64,
    certificates,  # noqa: F401  (fixture)
    database,  # noqa: F401  (fixture)
    push_service,  # noqa: F401  (fixture)
    push_services,  # noqa: F401  (fixture)
    serve,
)
from web_fixtures import PASSWORD, auth, sign_up

SLOW = {"name": "Slow post", "variant": "short", "games": 1, "best_of": 0, "clock": DAY}
"""A correspondence tournament: a day a move."""


@pytest.fixture
def client(database: str, certificates: Certificates, push_service: PushService) -> Iterator[TestClient]:  # noqa: F811
    with serve(database, certificates, Resolver({"push.test": "127.0.0.1"}), (push_service.port,)) as running:
        yield running


def opt_in(client: TestClient, tid: str, token: str | None, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tournaments/{tid}/push", json=body, headers=auth(token) if token else {})


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


def tournament(
    client: TestClient, director: str, names: list[str], **settings: Any
) -> tuple[str, dict[int, str]]:
    """A tournament the director created, ``names`` registered and checked in: its id and each
    entrant's session by number."""
    created = client.post("/api/tournaments", json={**SLOW, **settings}, headers=auth(director))
    assert created.status_code == 201, created.text
    tid = str(created.json()["id"])
    sessions = {}
    for name in names:
        token = sign_up(client, name)
        you = client.post(f"/api/tournaments/{tid}/register", headers=auth(token)).json()["you"]
        assert client.post(f"/api/tournaments/{tid}/checkin", headers=auth(token)).status_code == 200
        sessions[you["entrant"]] = token
    return tid, sessions


def start(client: TestClient, tid: str, director: str) -> dict[int, str]:
    """The director starts it: each entrant at a table with a game, to that game's id."""
    started = client.post(f"/api/tournaments/{tid}/start", headers=auth(director))
    assert started.status_code == 200, started.text
    playing: dict[int, str] = {}
    for table in started.json()["tables"]:
        if table["second"] is not None:
            assert table["game_id"]
            playing[table["first"]] = playing[table["second"]] = table["game_id"]
    return playing


def made(client: TestClient, tid: str) -> None:
    """What the tournaments do once they made a round's games (``TableGames.make_for``), again:
    the entrants not told yet are told."""
    service = client.app.state.service  # type: ignore[attr-defined]
    stored = service.storage.tournaments.load(tid)
    service.tournament_ready.ready(tid, [t for t in stored.tables if t.game_id])


def received(service: PushService, browsers: dict[int, Browser], count: int) -> dict[int, list[Any]]:
    """The next ``count`` notices, decrypted, by the entrant whose browser they reached; then
    nothing more."""
    by_path = {b.endpoint.rsplit(":", 1)[1].split("/", 1)[1]: n for n, b in browsers.items()}
    got: dict[int, list[Any]] = {}
    for _ in range(count):
        path, headers, body = service.next()
        assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid ")
        number = by_path[path.lstrip("/")]
        got.setdefault(number, []).append(browsers[number].read(body))
    assert service.nothing(0.5)
    return got


def test_each_entrant_at_a_table_is_told_once_when_its_game_is_ready(
    client: TestClient,
    push_service: PushService,  # noqa: F811
) -> None:
    director = sign_up(client, "Dana")
    tid, sessions = tournament(client, director, ["Ann", "Bob", "Cy", "Dee", "Eve"])
    browsers = {n: Browser(push_service.url("push.test", f"/send/{n}")) for n in sessions}
    for number, token in sessions.items():
        taken = opt_in(client, tid, token, browsers[number].json())
        assert taken.status_code == 200 and taken.json() == {"subscribed": True}, taken.text
        TournamentPushAnswer.model_validate(taken.json())
    # Eve opts in again from another browser (the last one counts), then out: told nothing.
    assert (
        opt_in(client, tid, sessions[5], Browser(push_service.url("push.test", "/send/9")).json()).status_code
        == 200
    )
    off = client.delete(f"/api/tournaments/{tid}/push", headers=auth(sessions[5]))
    assert off.status_code == 200 and off.json() == {"subscribed": False}
    TournamentPushAnswer.model_validate(off.json())
    # The director is no entrant: refused, and its browser never told.
    refused(
        opt_in(client, tid, director, Browser(push_service.url("push.test", "/send/0")).json()),
        404,
        "tournament.not_entered",
    )
    playing = start(client, tid, director)
    made(client, tid)
    made(client, tid)  # a second call (another process's): nobody is told twice
    client.app.state.web_push.close()  # type: ignore[attr-defined]  # the notices on their way arrived
    expected = {n for n in playing if n != 5}
    got = received(push_service, browsers, len(expected))
    assert set(got) == expected  # the entrant with the bye (no game) and Eve: nothing
    for number, notices in got.items():
        assert notices == [{"type": "game_ready", "tournament": tid, "game": playing[number]}]


def test_both_partners_of_a_team_are_told_their_game_is_ready(
    client: TestClient,
    push_service: PushService,  # noqa: F811
) -> None:
    """A team event: each of the four players at the table opted in, each is told once."""
    director = sign_up(client, "Dana")
    created = client.post("/api/tournaments", json={**SLOW, "variant": "four-player"}, headers=auth(director))
    tid = str(created.json()["id"])
    names = ["Ann", "Bob", "Cy", "Di"]
    tokens = {name: sign_up(client, name) for name in names}
    for first, second in (("Ann", "Bob"), ("Cy", "Di")):
        body = {"partner": second}
        assert client.post(
            f"/api/tournaments/{tid}/register", json=body, headers=auth(tokens[first])
        ).is_success
        assert client.post(f"/api/tournaments/{tid}/partner", headers=auth(tokens[second])).is_success
        assert client.post(f"/api/tournaments/{tid}/checkin", headers=auth(tokens[first])).is_success
    browsers = {n: Browser(push_service.url("push.test", f"/send/{n}")) for n in range(4)}
    for n, name in enumerate(names):
        assert opt_in(client, tid, tokens[name], browsers[n].json()).status_code == 200
    playing = start(client, tid, director)
    made(client, tid)
    client.app.state.web_push.close()  # type: ignore[attr-defined]  # the notices on their way arrived
    got = received(push_service, browsers, 4)
    assert set(got) == {0, 1, 2, 3}
    for notices in got.values():
        assert notices == [{"type": "game_ready", "tournament": tid, "game": playing[1]}]


def test_refusals_answer_their_status_and_code(
    client: TestClient,
    push_service: PushService,  # noqa: F811
) -> None:
    director = sign_up(client, "Dana")
    good = Browser(push_service.url("push.test", "/send/1")).json()
    tid, sessions = tournament(client, director, ["Ann", "Bob"])
    ann = sessions[1]
    refused(opt_in(client, tid, None, good), 401, "account.bad_session")
    refused(client.delete(f"/api/tournaments/{tid}/push"), 401, "account.bad_session")
    refused(opt_in(client, "0" * 16, ann, good), 404, "tournament.not_found")
    refused(
        client.delete(f"/api/tournaments/{'0' * 16}/push", headers=auth(ann)), 404, "tournament.not_found"
    )
    outsider = sign_up(client, "Olga")
    refused(opt_in(client, tid, outsider, good), 404, "tournament.not_entered")
    private = refused(
        opt_in(client, tid, ann, {**good, "endpoint": "https://127.0.0.1/send/1"}), 422, "push.bad_endpoint"
    )
    assert private["reason"] == "address"
    elsewhere = refused(
        opt_in(client, tid, ann, {**good, "endpoint": "https://example.com/send/1"}), 422, "push.bad_endpoint"
    )
    assert elsewhere["reason"] == "host_not_allowed"
    bad_point = {**good, "keys": {**good["keys"], "p256dh": b64(b"\x04" + bytes(10))}}
    assert refused(opt_in(client, tid, ann, bad_point), 422, "push.bad_subscription")["field"] == "p256dh"
    bad_auth = {**good, "keys": {**good["keys"], "auth": b64(bytes(8))}}
    assert refused(opt_in(client, tid, ann, bad_auth), 422, "push.bad_subscription")["field"] == "auth"
    quick: dict[str, dict[str, Any]] = {
        "Quinn": {"clock": None},
        "Quentin": {"clock": 120},
        "Quora": {"clock": None, "venue": "club"},
    }
    for name, settings in quick.items():
        other, others = tournament(client, director, [name], **settings)
        refused(opt_in(client, other, others[1], good), 409, "push.not_correspondence")
    assert client.app.state.service.storage.tournament_push.subscriptions(tid) == []  # type: ignore[attr-defined]
    assert client.get(f"/api/tournaments/{tid}/push").status_code == 405
    assert opt_in(client, tid, ann, good).status_code == 200


def test_the_tournaments_tell_the_entrants_once_they_made_the_games(
    client: TestClient,
    push_service: PushService,  # noqa: F811
) -> None:
    director = sign_up(client, "Dana")
    tid, sessions = tournament(client, director, ["Ann", "Bob"])
    browsers = {n: Browser(push_service.url("push.test", f"/send/{n}")) for n in sessions}
    for number, token in sessions.items():
        assert opt_in(client, tid, token, browsers[number].json()).status_code == 200
    playing = start(client, tid, director)
    web_push: WebPush = client.app.state.web_push  # type: ignore[attr-defined]
    web_push.close()
    got = received(push_service, browsers, 2)
    assert got == {n: [{"type": "game_ready", "tournament": tid, "game": playing[n]}] for n in (1, 2)}


def test_a_deleted_accounts_opt_ins_go_with_it(client: TestClient, push_service: PushService) -> None:  # noqa: F811
    """Its browser's endpoint and keys are not kept (on SQLite too, which keeps no foreign keys)."""
    director = sign_up(client, "Dana")
    tid, sessions = tournament(client, director, ["Ann", "Bob"])
    for number, token in sessions.items():
        assert (
            opt_in(
                client, tid, token, Browser(push_service.url("push.test", f"/send/{number}")).json()
            ).status_code
            == 200
        )
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    before = {sub.account_id for sub in storage.tournament_push.subscriptions(tid)}
    assert len(before) == 2
    gone = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=auth(sessions[1]))
    assert gone.status_code == 200, gone.text
    kept = [account for account in before if storage.accounts.load(account) is not None]
    assert len(kept) == 1
    assert [sub.account_id for sub in storage.tournament_push.subscriptions(tid)] == kept
