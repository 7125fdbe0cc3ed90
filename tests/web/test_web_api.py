"""The web API of docs/api.md: whole games through HTTP for every variant and option.

The helpers here are shared with the other ``test_web_*`` files.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.engine.events import SOURCES
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS, Rules
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import actions_of, auth, first_action, make_client, new_game

RULE_OPTIONS = {f.name for f in dataclasses.fields(Rules)}
STATE_KEYS = {
    "id", "version", "seat", "names", "options", "view", "actions", "events",
    "score_history", "breakdown", "over", "result", "seats", "people", "waiting_for", "invites", "connected",
    "turn_clock", "away", "arrival", "match", "rating", "rating_change", "rematch",
}  # fmt: skip
VIEW_KEYS = {
    "seat", "players", "variant", "target", "phase", "to_act", "dealer", "scores", "previous_scores",
    "hand", "kept", "discards", "starter", "count", "sequence", "played", "held", "shown", "crib", "claim",
    "hand_number", "rules", "show_order",
}  # fmt: skip


def check_state(state: dict[str, Any]) -> None:
    """The invariants of every STATE the server answers."""
    assert set(state) == STATE_KEYS
    view = state["view"]
    assert set(view) == VIEW_KEYS
    assert state["seat"] == view["seat"] == 0
    # One person against computers: every seat is taken, nobody is waited for.
    assert state["waiting_for"] == [] and all(seat["taken"] for seat in state["seats"])
    assert [seat["kind"] for seat in state["seats"]] == ["human"] + ["computer"] * (view["players"] - 1)
    assert [seat["name"] for seat in state["seats"]] == state["names"] == state["options"]["names"]
    # The rules' facts come with the view, and the show goes in the order it gives.
    rules = view["rules"]
    assert rules == Rules.from_json({k: v for k, v in rules.items() if k in RULE_OPTIONS}).facts()
    assert (rules["name"], rules["players"]) == (view["variant"], view["players"])
    assert rules["target"] == view["target"]
    assert len(view["show_order"]) == (0 if view["dealer"] is None else view["players"] + 1)
    shown = [{"seat": s["seat"], "what": s["what"]} for s in view["shown"]]
    assert shown == view["show_order"][: len(shown)]
    over = state["over"]
    assert over == (view["phase"] == "over") == (state["result"] is not None)
    # The server plays the computers until the human must act or the game is over.
    assert bool(state["actions"]) != over
    assert (view["to_act"] == 0) != over
    # The templates name no seat; their cards are the seat's own.
    assert all(set(t.get("cards", ())) <= set(view["hand"]) for t in state["actions"])
    scores = view["scores"]
    if state["events"]:
        assert state["events"][-1]["scores"] == scores
    assert [sum(side[s] for s in SOURCES) for side in state["breakdown"]] == scores
    history = state["score_history"]
    assert history[0] == {"hand": 1, "scores": [0] * len(scores)}
    assert [h["hand"] for h in history] == list(range(1, len(history) + 1))
    if over:
        assert history[-1]["scores"] == scores == state["result"]["scores"]


Chooser = Callable[[list[dict[str, Any]]], dict[str, Any]]


def play_out(
    client: TestClient, game_id: str, token: str, state: dict[str, Any], choose: Chooser, limit: int = 2000
) -> Iterator[dict[str, Any]]:
    """Play the human's seat with ``choose`` until the game is over; yields every state."""
    check_state(state)
    yield state
    for _ in range(limit):
        if state["over"]:
            return
        action = {**choose(actions_of(state)), "version": state["version"]}
        response = client.post(f"/api/games/{game_id}/actions", json=action, headers=auth(token))
        assert response.status_code == 200, response.text
        new = response.json()
        assert new["version"] > state["version"]
        state = new
        check_state(state)
        yield state
    raise AssertionError("the game did not end")


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda legal: rng.choice(legal)


@pytest.fixture(scope="module")
def shared() -> Iterator[TestClient]:
    """One running application for the module's tests that need no application of their own
    (each makes its own games; none reads anything of the whole database), with no abuse limit:
    a fresh application's first answers build its routes (about 0.2 CPU-s a test), and a
    running one serves every request on one event loop instead of starting one for each."""
    with make_client(limits=NO_LIMITS) as client:
        yield client


# --------------------------------------------------------------------------- whole games

GAMES = [
    *(pytest.param({"variant": name}, id=name) for name in VARIANTS),
    pytest.param({"manual": True}, id="manual"),
    pytest.param({"manual": True, "muggins": True}, id="manual-muggins"),
    pytest.param({"manual": True, "muggins": True, "muggins_play": True}, id="muggins-play"),
    pytest.param({"variant": "four-player", "manual": True, "muggins": True}, id="four-player-muggins"),
    pytest.param({"variant": "three-player", "manual": True, "muggins": True}, id="three-player-muggins"),
    pytest.param({"dealer": "you", "target": 61}, id="dealer-you-61"),
    pytest.param({"dealer": "computer", "target": 61, "skunk": "acc"}, id="dealer-computer-61"),
]


@pytest.mark.parametrize("options", GAMES)
def test_whole_game_through_the_api(options: dict[str, Any], shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=11, **options)
    assert state["options"]["variant"] == options.get("variant", "standard")
    if "dealer" in options:
        assert state["view"]["dealer"] == {"you": 0, "computer": 1}[options["dealer"]]
    states = list(play_out(client, game_id, token, state, random_chooser(5)))
    final = states[-1]
    assert final["over"] and final["result"]["winner"] in range(len(final["view"]["scores"]))
    target = options.get("target") or VARIANTS[options.get("variant", "standard")].target
    assert final["options"]["target"] == target
    assert max(final["view"]["scores"]) >= target
    # The record replays to the same end.
    record = client.get(f"/api/games/{game_id}/record", headers=auth(token))
    assert record.status_code == 200
    assert Game.from_json(record.json()).result.to_json() == final["result"]  # type: ignore[union-attr]


def test_first_legal_action_every_time_ends_the_game(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=3, manual=True, muggins=True)
    final = list(play_out(client, game_id, token, state, lambda legal: legal[0]))[-1]
    assert final["over"]


def test_events_are_those_since_the_last_action_with_the_scores_after_each(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=4, dealer="computer")
    kinds = [e["kind"] for e in state["events"]]
    assert kinds[0] == "deal" and "cut" not in kinds  # the computer deals: no cut for deal
    discard = first_action(state)
    after = client.post(f"/api/games/{game_id}/actions", json=discard, headers=auth(token)).json()
    first = after["events"][0]
    assert {k: v for k, v in first.items() if k not in ("index", "after")} == {
        "kind": "discard",
        "seat": 0,
        "scores": [0, 0],
    }
    assert first["index"] == state["events"][-1]["index"] + 1  # the step after the last one seen
    assert "starter" in [e["kind"] for e in after["events"]]
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == after


def test_options_are_echoed_with_the_target_and_names_resolved(shared: TestClient) -> None:
    client = shared
    _, _, state = new_game(client, variant="four-player", names=["Ann"])
    assert state["names"] == ["Ann", "Computer 2", "Computer 3", "Computer 4"]
    assert state["options"] == {
        "level": "weak", "variant": "four-player", "target": 121, "manual": False, "muggins": False,
        "muggins_play": False, "dealer": "cut", "skunk": "marked", "seed": None,
        "names": ["Ann", "Computer 2", "Computer 3", "Computer 4"], "public": False, "clock": None,
        "takeover": None, "rated": False, "tournament": None,
    }  # fmt: skip
    assert len(state["breakdown"]) == len(state["view"]["scores"]) == 2


def test_no_body_creates_a_default_game(shared: TestClient) -> None:
    response = shared.post("/api/games")
    assert response.status_code == 201
    assert response.json()["state"]["options"]["level"] == "normal"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"level": "grandmaster"}, "unknown level"),
        ({"variant": "backgammon"}, "unknown variant"),
        ({"muggins": True}, "muggins needs manual counting"),
        ({"target": 0}, "target"),
        ({"names": ["Ann", "Bob", "Cid"]}, "3 names for 2 players"),
        ({"dealer": "nobody"}, "dealer"),
        ({"skunk": "huge"}, "skunk"),
        ({"manual": "yes"}, "manual"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_with_the_problem_named(
    options: dict[str, Any], message: str, shared: TestClient
) -> None:
    response = shared.post("/api/games", json=options)
    assert response.status_code == 422
    assert message in response.json()["error"]


def test_stale_version_is_409_and_changes_nothing(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=8)
    stale = {**first_action(state), "version": state["version"] - 1}
    response = client.post(f"/api/games/{game_id}/actions", json=stale, headers=auth(token))
    assert response.status_code == 409 and "version" in response.json()["error"]
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json() == state


def test_record_is_409_until_the_game_is_over(shared: TestClient) -> None:
    client = shared
    game_id, token, _ = new_game(client)
    response = client.get(f"/api/games/{game_id}/record", headers=auth(token))
    assert response.status_code == 409 and "over" in response.json()["error"]


# --------------------------------------------------------------------------- storage


def test_games_survive_a_new_application_on_the_same_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    client = make_client(database_url=url)
    game_id, token, state = new_game(client, seed=21, manual=True, muggins=True)
    states = play_out(client, game_id, token, state, random_chooser(2))
    for _ in range(15):
        state = next(states)
    with make_client(database_url=url) as again:
        assert again.get(f"/api/games/{game_id}", headers=auth(token)).json() == state
        final = list(play_out(again, game_id, token, state, random_chooser(3)))[-1]
    assert final["over"]


def test_games_dropped_from_the_cache_are_reloaded() -> None:
    client = make_client(cache_size=1)
    first = new_game(client, seed=1)
    second = new_game(client, seed=2)
    for game_id, token, state in (first, second, first):
        assert client.get(f"/api/games/{game_id}", headers=auth(token)).json()["version"] == state["version"]
    game_id, token, state = first
    response = client.post(f"/api/games/{game_id}/actions", json=first_action(state), headers=auth(token))
    assert response.status_code == 200


def test_two_servers_on_one_database_cannot_both_apply(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    a, b = make_client(database_url=url), make_client(database_url=url)
    game_id, token, state = new_game(a, seed=5)
    assert b.get(f"/api/games/{game_id}", headers=auth(token)).json() == state  # b caches it too
    first, second = first_action(state), actions_of(state)[-1]
    assert a.post(f"/api/games/{game_id}/actions", json=first, headers=auth(token)).status_code == 200
    # b's action was chosen on the state a has moved on from: its version is stale.
    late = b.post(
        f"/api/games/{game_id}/actions", json={**second, "version": state["version"]}, headers=auth(token)
    )
    assert late.status_code == 409
    assert (
        b.get(f"/api/games/{game_id}", headers=auth(token)).json()
        == a.get(f"/api/games/{game_id}", headers=auth(token)).json()
    )


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_two_servers_on_one_database_never_serve_an_older_state(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Each request sees the stored version, whichever server process answers it; a process
    catches up by applying only the actions the other added (its table is kept, not rebuilt)."""
    if database == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    with make_client(database_url=url) as a, make_client(database_url=url) as b:
        game_id, token, state = new_game(a, seed=11, level="strong")
        assert b.get(f"/api/games/{game_id}", headers=auth(token)).json() == state  # both cache it
        servers = [a, b]
        tables = [server.app.state.service.repository._cache[game_id].table for server in servers]  # type: ignore[attr-defined]
        for turn in range(30):
            writer, reader = servers[turn % 2], servers[(turn + 1) % 2]
            stored = writer.get(f"/api/games/{game_id}", headers=auth(token)).json()
            if stored["over"]:
                break
            answer = writer.post(
                f"/api/games/{game_id}/actions", json=first_action(stored), headers=auth(token)
            )
            assert answer.status_code == 200, answer.text
            moved = answer.json()
            seen = reader.get(f"/api/games/{game_id}", headers=auth(token)).json()
            assert seen["version"] == moved["version"] > stored["version"]
            assert seen == moved
            assert reader.app.state.service.repository._cache[game_id].table is tables[(turn + 1) % 2]  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- scoring


def test_score_explains_a_hand(shared: TestClient) -> None:
    response = shared.post("/api/score", json={"hand": ["5H", "5C", "5S", "JD"], "starter": "5D"})
    assert response.status_code == 200
    show = response.json()
    assert show["total"] == 29 and show["fifteens"] == 16 and show["nobs"] == 1
    crib = shared.post("/api/score", json={"hand": ["2H", "4H", "6H", "8H"], "starter": "KS", "crib": True})
    assert crib.json()["flush"] == 0


def test_peg_scores_the_last_card(shared: TestClient) -> None:
    response = shared.post("/api/peg", json={"cards": ["4H", "6D", "5S"]})
    assert response.status_code == 200
    assert response.json()["points"] == 5 and response.json()["count"] == 15


@pytest.mark.parametrize(
    ("path", "body", "message", "values"),
    [
        (
            "/api/score",
            {"hand": ["5H", "5C"], "starter": "5D"},
            "expected 3 or 4 or 5 cards",
            {"code": "card_count", "field": "hand", "count": 2, "allowed": [3, 4, 5]},
        ),
        (
            "/api/score",
            {"hand": ["5H", "5C", "5S", "1X"], "starter": "5D"},
            "invalid card '1X'",
            {"code": "card_invalid", "field": "hand", "card": "1X"},
        ),
        (
            "/api/score",
            {"hand": ["5H", "5H", "6D", "7C"], "starter": "JS"},
            "duplicate card",
            {"code": "card_duplicate", "field": "hand", "card": "5H"},
        ),
        (
            "/api/score",
            {"hand": ["5H", "5C", "5S", "JD"], "starter": "5H"},
            "duplicate card",
            {"code": "card_duplicate", "field": "starter", "card": "5H"},
        ),
        (
            "/api/score",
            {"hand": ["5H", "5C", "5S", "JD"], "starter": "XX"},
            "invalid card 'XX'",
            {"code": "card_invalid", "field": "starter", "card": "XX"},
        ),
        ("/api/score", {"hand": ["5H", "5C", "5S", "JD"]}, "starter", {"code": "starter_missing"}),
        ("/api/score", {"hand": ["5H", "5C", "5S"], "starter": " "}, "starter", {"code": "starter_missing"}),
        (
            "/api/score",
            {"hand": ["5H", "5C", "5S", "JD"], "starter": 5},
            "starter",
            {"code": "bad_request", "field": "starter"},
        ),
        ("/api/peg", {"cards": ["KH", "KD", "KS", "QC"]}, "passes 31", {"code": "count_over_31"}),
        ("/api/peg", {"cards": []}, "no card", {"code": "no_cards"}),
        ("/api/peg", {"cards": "4H 6D"}, "cards", {"code": "bad_request", "field": "cards"}),
        ("/api/peg", [1, 2], "JSON object", {"code": "bad_request", "field": ""}),
    ],
)
def test_scoring_errors_name_the_problem_as_a_code(
    path: str, body: Any, message: str, values: dict[str, Any], shared: TestClient
) -> None:
    """What a visitor types is refused with a code and its values (docs/api.md), which the
    how-to page words in its reader's language; ``error`` is the English line for scripts."""
    response = shared.post(path, json=body)
    assert response.status_code == 422
    error = response.json()
    assert message in error["error"]
    assert {key: error.get(key) for key in values} == values


# --------------------------------------------------------------------------- variants


def test_the_variants_and_their_facts(shared: TestClient) -> None:
    response = shared.get("/api/variants")
    assert response.status_code == 200
    data = response.json()
    assert list(data) == list(VARIANTS)
    assert all(facts == VARIANTS[name].facts() for name, facts in data.items())
    assert data["seven-card"]["target"] == 151 and data["short"]["double_skunk_line"] is None
    assert data["three-player"]["crib_size"] == 4 and data["three-player"]["crib_from_deck"] == 1
    assert data["four-player"]["partnerships"] is True


def test_the_page_s_lists_come_from_the_players_own(shared: TestClient) -> None:
    from cribbage.app.people.rating_pools import POOLS as RATING_POOLS
    from cribbage.app.playnow.matchmaking import POOLS
    from cribbage.players import LEVELS
    from cribbage.web.answers.rules import MetaAnswer

    response = shared.get("/api/meta")
    assert response.status_code == 200
    data = response.json()
    MetaAnswer.model_validate(data)
    assert data == {
        "levels": list(LEVELS),
        "default_level": "normal",
        "pools": [{"name": p.name, "players": p.players, "variant": p.variant} for p in POOLS.values()],
        "rating_pools": list(RATING_POOLS),
    }
    assert [p["name"] for p in data["pools"]] == ["standard", "short", "three", "partners"]
    assert {p["variant"] for p in data["pools"]} <= set(shared.get("/api/variants").json())
    assert data["rating_pools"][:2] == ["standard", "short"]  # the leaderboard opens on the first
    assert data["levels"] == ["weak", "normal", "strong"]  # weakest first, as the page lists them
    schema = shared.get("/openapi.json").json()["components"]["schemas"]["MetaAnswer"]
    assert schema["properties"]["levels"]["items"]["enum"] == list(LEVELS)


# --------------------------------------------------------------------------- hints


def test_hint_for_a_discard_then_a_play(shared: TestClient) -> None:
    client = shared
    game_id, token, state = new_game(client, seed=9, dealer="you")
    response = client.get(f"/api/games/{game_id}/hint", headers=auth(token))
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["kind"] == "discard" and hint["ranked_by"] == "total"
    assert set(hint["options"][0]) == {"keep", "discard", "hand_points", "crib_points", "pegging", "total"}
    assert [o["total"] for o in hint["options"]] == sorted(
        (o["total"] for o in hint["options"]), reverse=True
    )
    state = client.post(f"/api/games/{game_id}/actions", json=first_action(state), headers=auth(token)).json()
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth(token)).json()
    assert hint["kind"] == "play"
    assert {o["card"] for o in hint["options"]} == {a["card"] for a in actions_of(state)}
    assert set(hint["options"][0]) == {"card", "value", "reasons"}
    codes = {"combo", "leaves", "avoids", "safe_lead", "no_points"}
    assert all(o["reasons"] and {r["code"] for r in o["reasons"]} <= codes for o in hint["options"])


def test_a_three_player_discard_hint_weighs_an_opponents_crib_half(shared: TestClient) -> None:
    """With three players a point of an opponent's crib costs half a point of one's own: each
    option says so (``crib_weight``) and its total adds up with it."""
    client = shared
    game_id, token, _ = new_game(client, seed=9, variant="three-player", dealer="computer")
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth(token)).json()
    assert hint["kind"] == "discard" and hint["options"]
    for o in hint["options"]:
        assert o["crib_weight"] == 0.5
        assert abs(o["hand_points"] - 0.5 * o["crib_points"] + o["pegging"] - o["total"]) <= 0.02


def test_a_discard_hint_ranked_by_the_chance_of_winning_gives_it(shared: TestClient) -> None:
    """Near the end (from the start of a game to 61) the keeps are ranked by the chance of
    winning, not by the points: each option says it (``win``), so the order can be seen."""
    client = shared
    game_id, token, _ = new_game(client, seed=1, target=61, dealer="you")
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth(token)).json()
    assert hint["ranked_by"] == "win"
    wins = [o["win"] for o in hint["options"]]
    assert all(0 <= w <= 1 for w in wins) and wins == sorted(wins, reverse=True)
    totals = [o["total"] for o in hint["options"]]
    assert totals != sorted(totals, reverse=True)  # the points alone would order them otherwise


def test_no_hint_for_a_count(shared: TestClient) -> None:
    client = shared
    game_id, token, first = new_game(client, seed=9, manual=True)
    for state in play_out(client, game_id, token, first, random_chooser(1)):
        if state["actions"] and first_action(state)["type"] == "count":
            break
    response = client.get(f"/api/games/{game_id}/hint", headers=auth(token))
    assert response.status_code == 409
    assert response.json() == {"error": "hints are given for discards and plays", "code": "no_hint"}


def test_a_missing_level_is_503_not_a_silent_substitute(
    monkeypatch: pytest.MonkeyPatch, shared: TestClient
) -> None:
    monkeypatch.setattr("cribbage.app.games.live_game.PLAYERS", {})
    client = shared
    response = client.post("/api/games", json={"level": "strong"})
    assert response.status_code == 503
    assert "'strong' computer player is not available" in response.json()["error"]


# --------------------------------------------------------------------------- the page


def test_the_page_is_served_from_the_static_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<title>Cribbage</title>", encoding="utf-8")
    (tmp_path / "howto.html").write_text("<title>How to play</title>", encoding="utf-8")
    (tmp_path / "app.js").write_text("export {};", encoding="utf-8")
    client = make_client(static_dir=tmp_path)
    assert client.get("/").text == "<title>Cribbage</title>"
    assert client.get("/howto").text == "<title>How to play</title>"
    script = client.get("/static/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/static/missing.js").status_code == 404
    assert client.get("/static/../service.py").status_code == 404
    assert client.get("/static/%2e%2e/service.py").status_code == 404


def test_a_missing_page_is_a_json_404(tmp_path: Path) -> None:
    client = make_client(static_dir=tmp_path / "absent")
    for path in ("/", "/howto", "/static/app.js", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404 and "error" in response.json()


def test_wrong_method_is_a_json_405(shared: TestClient) -> None:
    response = shared.delete("/api/score")
    assert response.status_code == 405 and "error" in response.json()


def test_openapi_lists_every_endpoint(shared: TestClient) -> None:
    paths = shared.get("/openapi.json").json()["paths"]
    assert set(paths) == {
        "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions",
        "/api/games/{game_id}/hint", "/api/games/{game_id}/record", "/api/score", "/api/peg",
        "/api/variants", "/api/meta", "/api/join", "/api/join/{code}", "/api/lobby", "/api/health",
        "/api/review",
        "/api/train/discard", "/api/train/discard/answer", "/api/train/play", "/api/train/play/answer",
        "/api/games/{game_id}/watch", "/api/watch/{code}", "/api/games/{game_id}/leave",
        "/api/games/{game_id}/computer", "/api/games/{game_id}/rematch", "/api/games/{game_id}/seen",
        "/api/accounts", "/api/accounts/signin", "/api/accounts/signout", "/api/accounts/signout/all",
        "/api/accounts/me", "/api/accounts/claim", "/api/accounts/delete", "/api/play",
        "/api/accounts/games/{game_id}/open",
        "/api/accounts/passkey/signup/options", "/api/accounts/passkey/signup",
        "/api/accounts/passkey/add/options", "/api/accounts/passkey/add",
        "/api/accounts/passkey/signin/options", "/api/accounts/passkey/signin",
        "/api/accounts/passkey/delete",
        "/api/push/key", "/api/games/{game_id}/push",
        "/api/players/{name}", "/api/leaderboard/{pool}",
        "/api/tournaments", "/api/tournaments/{tournament_id}", "/api/tournaments/{tournament_id}/register",
        "/api/tournaments/{tournament_id}/checkin", "/api/tournaments/{tournament_id}/withdraw",
        "/api/tournaments/{tournament_id}/guests", "/api/tournaments/{tournament_id}/start",
        "/api/tournaments/{tournament_id}/results", "/api/tournaments/{tournament_id}/push",
        "/api/tournaments/{tournament_id}/partner", "/api/tournaments/{tournament_id}/standings.csv",
        "/api/tournaments/{tournament_id}/games/{game_id}/record", "/api/games/upload",
    }  # fmt: skip


def test_api_answers_are_never_cached(shared: TestClient) -> None:
    response = shared.post("/api/games", json={"level": "weak"})
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_game_stored_before_records_kept_their_seats_is_seated_from_its_options(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    client = make_client(database_url=url)
    game_id, token, state = new_game(client, seed=21, level="normal")
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    stored = storage.games.load(game_id)
    old = {k: v for k, v in stored.record.items() if k != "seats"}
    assert storage.games.update(game_id, old, version=stored.version, over=False, expected=stored.version)
    with make_client(database_url=url) as again:
        assert again.get(f"/api/games/{game_id}", headers=auth(token)).json()["version"] == state["version"]
        final = list(play_out(again, game_id, token, state, random_chooser(4)))[-1]
    assert final["over"]
    assert storage.games.load(game_id).record["seats"][1]["player"] == "normal"
