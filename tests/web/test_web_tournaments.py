"""The tournaments' HTTP API (docs/api.md, "Tournaments"; issue 44 item 5): a director creates
one, accounts register and check in, the director starts it; an online table's game is opened by
its two accounts and played out through the game's routes, and its end decides the table; a club
table's result is entered by both players (a disagreement shown to the director, whose entry
decides).  Refusals answer their status and code.  Every answer validates against its model of
``/openapi.json``.  Short games, one qualifying game each, no playoffs: little CPU.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.web.answers.tournaments import GuestAnswer, TournamentAnswer, TournamentListAnswer
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import auth, play_out, sign_up

pytestmark = pytest.mark.app(limits=NO_LIMITS)  # a dozen accounts from one address

ONLINE = {"name": "Tuesday night", "variant": "short", "games": 1, "best_of": 0}


def shown(response: Any, status: int = 200) -> dict[str, Any]:
    """A tournament answered with ``status``, checked against its answer model."""
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    TournamentAnswer.model_validate(data)
    return data


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


def at(tournament: dict[str, Any], number: int) -> dict[str, Any]:
    """The first round's table ``number``."""
    return next(t for t in tournament["tables"] if t["round"] == 1 and t["number"] == number)


def entered(client: TestClient, tid: str, names: list[str]) -> dict[int, str]:
    """Accounts named ``names`` registered: each one's session token by its entrant number."""
    sessions = {}
    for name in names:
        token = sign_up(client, name)
        you = shown(client.post(f"/api/tournaments/{tid}/register", headers=auth(token)))["you"]
        assert you == {"director": False, "entrant": you["entrant"], "accept": False}
        assert you["entrant"] is not None
        sessions[you["entrant"]] = token
    return sessions


def test_an_online_tournament_is_run_and_its_tables_played_over_http(client: TestClient) -> None:
    director = sign_up(client, "Dana")
    created = shown(client.post("/api/tournaments", json=ONLINE, headers=auth(director)), 201)
    tid = created["id"]
    assert created["stage"] == "registration"
    assert created["you"] == {"director": True, "entrant": None, "accept": False}
    assert created["settings"]["games"] == 1 and created["settings"]["venue"] == "online"
    sessions = entered(client, tid, ["Ann", "Bob", "Cy", "Eve"])
    refused(
        client.post(f"/api/tournaments/{tid}/register", headers=auth(sessions[1])),
        409,
        "tournament.registered",
    )
    # Ann checks herself in; the director checks in the others by number.
    shown(client.post(f"/api/tournaments/{tid}/checkin", headers=auth(sessions[1])))
    refused(
        client.post(f"/api/tournaments/{tid}/checkin", json={"number": 2}, headers=auth(sessions[1])),
        403,
        "tournament.not_director",
    )
    for number in (2, 3, 4):
        shown(client.post(f"/api/tournaments/{tid}/checkin", json={"number": number}, headers=auth(director)))
    refused(
        client.post(f"/api/tournaments/{tid}/start", headers=auth(sessions[1])),
        403,
        "tournament.not_director",
    )
    refused(client.post(f"/api/tournaments/{tid}/start"), 401, "account.bad_session")
    started = shown(client.post(f"/api/tournaments/{tid}/start", headers=auth(director)))
    assert started["stage"] == "running" and started["rounds"]["qualifying"] == 1
    assert all(e["checked_in"] and not e["guest"] for e in started["entrants"])
    tables = [t for t in started["tables"] if t["second"] is not None]
    assert len(tables) == 2 and all(t["game_id"] and t["outcome"] is None for t in tables)
    # Each game in progress has its public watch code, the same at every reading: a spectator's.
    again = shown(client.get(f"/api/tournaments/{tid}"))["tables"]
    for table in tables:
        code = table["watch"]
        assert code and code == next(t for t in again if t["game_id"] == table["game_id"])["watch"]
        watched = client.get(f"/api/watch/{code}")
        assert watched.status_code == 200 and watched.json()["id"] == table["game_id"]
    refused(
        client.post(f"/api/tournaments/{tid}/register", headers=auth(director)), 409, "tournament.started"
    )
    # The first table's game: each side's account opens its seat, and the game is played out.
    first = tables[0]
    keys = [
        client.post(f"/api/accounts/games/{first['game_id']}/open", headers=auth(sessions[side])).json()
        for side in (first["first"], first["second"])
    ]
    tokens = [key["token"] for key in sorted(keys, key=lambda key: key["seat"])]
    mine = client.get("/api/accounts/me", headers=auth(sessions[first["first"]])).json()["games"]
    assert first["game_id"] in {game["id"] for game in mine}, "the game is among the account's"
    final, _ = play_out(client, first["game_id"], tokens)
    assert final["over"] and final["options"]["tournament"] == tid
    # Its end decided the table, seen by anyone (no session: ``you`` is nobody).
    seen = shown(client.get(f"/api/tournaments/{tid}"))
    assert seen["you"] == {"director": False, "entrant": None, "accept": False}
    decided = at(seen, first["number"])
    outcome = decided["outcome"]
    assert (
        outcome is not None and not outcome["forfeit"] and outcome["winner_points"] > outcome["loser_points"]
    )
    assert {outcome["winner"], outcome["loser"]} == {first["first"], first["second"]}
    assert max(decided["game_points"]) > 0 and sum(decided["spread"]) == 0
    assert decided["watch"] is None, "a decided table is reviewed, not watched"
    # Its record is anyone's, for the scorecard's review; a game in progress has none yet.
    record = client.get(f"/api/tournaments/{tid}/games/{first['game_id']}/record")
    assert record.status_code == 200 and record.json()["format"] == "cribbage-record"
    in_progress = f"/api/tournaments/{tid}/games/{tables[1]['game_id']}/record"
    refused(client.get(in_progress), 409, "tournament.game_not_over")
    refused(client.get(f"/api/tournaments/{tid}/games/nope/record"), 404, "tournament.no_table")
    assert seen["stage"] == "running", "the other table is still playing"
    # A club's result is not entered at an online table: its game decides it.
    other = tables[1]
    key = {k: other[k] for k in ("stage", "round", "number", "game")}
    refused(
        client.post(
            f"/api/tournaments/{tid}/results",
            json={**key, "winner": other["first"], "loser_points": 10},
            headers=auth(director),
        ),
        409,
        "tournament.online_table",
    )
    # The director withdraws a player of the other table: its game is forfeited, the event ends.
    done = shown(
        client.post(
            f"/api/tournaments/{tid}/withdraw", json={"number": other["second"]}, headers=auth(director)
        )
    )
    forfeited = at(done, other["number"])["outcome"]
    assert forfeited["forfeit"] and forfeited["loser"] == other["second"]
    assert done["stage"] == "finished" and done["champion"] == done["standings"][0]["entrant"]
    ann = shown(client.get(f"/api/tournaments/{tid}", headers=auth(sessions[1])))
    assert ann["you"] == {"director": False, "entrant": 1, "accept": False}
    listed = client.get("/api/tournaments")
    assert listed.status_code == 200
    TournamentListAnswer.model_validate(listed.json())
    (summary,) = listed.json()["tournaments"]
    assert summary["id"] == tid and summary["entrants"] == 4 and summary["stage"] == "finished"


def test_a_team_event_enters_partnerships_and_seats_four_at_a_table(client: TestClient) -> None:
    director = sign_up(client, "Dana")
    teams = {**ONLINE, "variant": "four-player"}
    tid = shown(client.post("/api/tournaments", json=teams, headers=auth(director)), 201)["id"]
    ann, bob, cy, di = (sign_up(client, name) for name in ("Ann", "Bob", "Cy", "Di"))
    register = f"/api/tournaments/{tid}/register"
    body = refused(client.post(register, headers=auth(ann)), 422, "invalid")
    assert body["field"] == "partner"
    assert (
        refused(client.post(register, json={"partner": "Zed"}, headers=auth(ann)), 422, "invalid")["name"]
        == "Zed"
    )
    first = shown(client.post(register, json={"partner": "Bob"}, headers=auth(ann)))
    assert first["teams"] and first["entrants"][0]["partner_pending"]
    asked = shown(client.get(f"/api/tournaments/{tid}", headers=auth(bob)))["you"]
    assert asked == {"director": False, "entrant": 1, "accept": True}
    refused(
        client.post(f"/api/tournaments/{tid}/checkin", headers=auth(ann)), 409, "tournament.partner_pending"
    )
    refused(client.post(f"/api/tournaments/{tid}/partner", headers=auth(cy)), 404, "tournament.no_invitation")
    shown(client.post(f"/api/tournaments/{tid}/partner", headers=auth(bob)))
    shown(client.post(register, json={"partner": "Di"}, headers=auth(cy)))
    shown(client.post(f"/api/tournaments/{tid}/partner", headers=auth(di)))
    for token in (bob, cy):
        shown(client.post(f"/api/tournaments/{tid}/checkin", headers=auth(token)))
    started = shown(client.post(f"/api/tournaments/{tid}/start", headers=auth(director)))
    assert [e["name"] for e in started["entrants"]] == ["Ann & Bob", "Cy & Di"]
    (table,) = started["tables"]
    # The four open their seats: Ann and Bob at 0 and 2, Cy and Di at 1 and 3; the game is played.
    keys = {
        name: client.post(f"/api/accounts/games/{table['game_id']}/open", headers=auth(token)).json()["seat"]
        for name, token in (("Ann", ann), ("Bob", bob), ("Cy", cy), ("Di", di))
    }
    assert keys == {"Ann": 0, "Cy": 1, "Bob": 2, "Di": 3}
    tokens = [
        client.post(f"/api/accounts/games/{table['game_id']}/open", headers=auth(token)).json()["token"]
        for token in (ann, cy, bob, di)
    ]
    final, _ = play_out(client, table["game_id"], tokens)
    assert final["over"] and final["options"]["names"] == ["Ann", "Cy", "Bob", "Di"]
    done = shown(client.get(f"/api/tournaments/{tid}"))
    assert done["stage"] == "finished" and done["champion"] in (1, 2)
    assert sorted(done["tables"][0]["game_points"]) in ([0, 2], [0, 3])


def test_a_club_table_is_decided_by_both_players_entries_or_the_director(client: TestClient) -> None:
    director = sign_up(client, "Dana")
    settings = {**ONLINE, "name": "Club night", "venue": "club"}
    tid = shown(client.post("/api/tournaments", json=settings, headers=auth(director)), 201)["id"]
    sessions = entered(client, tid, ["Ann", "Bob", "Cy", "Eve"])
    for token in sessions.values():
        shown(client.post(f"/api/tournaments/{tid}/checkin", headers=auth(token)))
    refused(
        client.post(f"/api/tournaments/{tid}/guests", json={"name": "Zed"}, headers=auth(sessions[1])),
        403,
        "tournament.not_director",
    )
    guest = client.post(
        f"/api/tournaments/{tid}/guests", json={"name": "Walk-in Wes"}, headers=auth(director)
    )
    assert guest.status_code == 200, guest.text
    GuestAnswer.model_validate(guest.json())
    wes = guest.json()["number"]
    assert next(e for e in guest.json()["entrants"] if e["number"] == wes)["guest"]
    # Five entrants: two tables and a bye; at least one table has two accounts.
    tournament = shown(client.post(f"/api/tournaments/{tid}/start", headers=auth(director)))
    tables = [t for t in tournament["tables"] if t["second"] is not None]
    assert len(tables) == 2 and all(t["game_id"] is None for t in tables)
    people = next(t for t in tables if wes not in (t["first"], t["second"]))
    key = {k: people[k] for k in ("stage", "round", "number", "game")}
    a, b = sessions[people["first"]], sessions[people["second"]]
    win = {**key, "winner": people["first"], "loser_points": 40}

    def report(token: str, body: dict[str, Any]) -> Any:
        return client.post(f"/api/tournaments/{tid}/results", json=body, headers=auth(token))

    assert refused(report(a, {**win, "loser_points": 61}), 422, "invalid")["field"] == "loser_points"
    assert refused(report(a, {**win, "winner": 99}), 422, "invalid")["field"] == "winner"
    assert refused(report(a, {**win, "forfeit": True}), 422, "invalid")["field"] == "forfeit"
    refused(report(a, {**win, "number": 9}), 404, "tournament.no_table")
    first = shown(report(a, win))
    assert at(first, people["number"])["entered"] == [people["first"]]
    refused(report(a, win), 409, "tournament.entered")
    # The other player disagrees: the table is disputed, the entries shown to the director only.
    disputed = at(shown(report(b, {**win, "loser_points": 35})), people["number"])
    assert disputed["disputed"] and disputed["outcome"] is None and "entries" not in disputed
    directors = at(shown(client.get(f"/api/tournaments/{tid}", headers=auth(director))), people["number"])
    assert directors["entries"] == {
        str(people["first"]): {"winner": people["first"], "loser_points": 40},
        str(people["second"]): {"winner": people["first"], "loser_points": 35},
    }
    # The director's entry decides it: 61 to 20, a spread of 41.
    decided = at(shown(report(director, {**win, "loser_points": 20})), people["number"])
    assert decided["outcome"]["winner_points"] == 61 and decided["outcome"]["loser_points"] == 20
    assert decided["spread"] == [41, -41] and not decided["disputed"]
    refused(report(b, win), 409, "tournament.decided")
    # The guest's table: its account's entry waits for the director's, which decides it.
    other = next(t for t in tables if t is not people)
    side = other["first"] if other["second"] == wes else other["second"]
    result = {
        **{k: other[k] for k in ("stage", "round", "number", "game")},
        "winner": side,
        "loser_points": 12,
    }
    assert at(shown(report(sessions[side], result)), other["number"])["outcome"] is None
    refused(report(sessions[people["first"]], result), 403, "tournament.not_your_table")
    finished = shown(report(director, result))
    assert at(finished, other["number"])["outcome"]["winner"] == side
    assert finished["stage"] == "finished" and finished["champion"] is not None
    assert all(t["watch"] is None for t in finished["tables"]), "a club's tables have no game to watch"


def test_the_standings_export_as_csv_a_row_a_standing(client: TestClient) -> None:
    director = sign_up(client, "Dana")
    settings = {**ONLINE, "name": "Club night", "venue": "club"}
    tid = shown(client.post("/api/tournaments", json=settings, headers=auth(director)), 201)["id"]
    header = "rank,number,name,game_points,won,skunks,spread,played,byes,forfeits"
    empty = client.get(f"/api/tournaments/{tid}/standings.csv")
    assert empty.status_code == 200 and empty.text == header + "\r\n", "before the start: the header only"
    for name in ("Ann", "Bob", "-Cy-"):
        guest = client.post(f"/api/tournaments/{tid}/guests", json={"name": name}, headers=auth(director))
        GuestAnswer.model_validate(guest.json())
    tournament = shown(client.post(f"/api/tournaments/{tid}/start", headers=auth(director)))
    table = next(t for t in tournament["tables"] if t["second"] is not None)
    key = {k: table[k] for k in ("stage", "round", "number", "game")}
    body = {**key, "winner": table["second"], "loser_points": 20}  # 61-20: a skunk (31 or more)
    done = shown(client.post(f"/api/tournaments/{tid}/results", json=body, headers=auth(director)))
    answer = client.get(f"/api/tournaments/{tid}/standings.csv")
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.headers["content-disposition"] == f'attachment; filename="standings-{tid}.csv"'
    lines = answer.text.split("\r\n")
    assert lines[0] == header and lines[-1] == "" and len(lines) == 2 + len(done["standings"]) == 5
    names = {e["number"]: e["name"] for e in done["entrants"]}
    best = done["standings"][0]
    assert best["entrant"] == table["second"] and best["skunks"] == 1
    name = names[best["entrant"]]
    cell = f"'{name}" if name.startswith("-") else name
    first = f"1,{best['entrant']},{cell},{best['game_points']},1,1,41,1,0,0"
    assert lines[1] == first
    assert ",'-Cy-," in answer.text, "a name a spreadsheet would take for a formula is quoted with '"
    refused(client.get("/api/tournaments/nope/standings.csv"), 404, "tournament.not_found")


def test_refusals_answer_their_status_and_code(client: TestClient) -> None:
    director = sign_up(client, "Dana")
    refused(client.post("/api/tournaments", json=ONLINE), 401, "account.bad_session")
    refused(
        client.post("/api/tournaments", json=ONLINE, headers=auth("no-such-session")),
        401,
        "account.bad_session",
    )
    # A bad setting names its field; a name is checked by the rule of names (as an account's).
    for settings, code, field in (
        ({**ONLINE, "games": 0}, "invalid", "games"),
        ({**ONLINE, "variant": "three-player"}, "invalid", "variant"),
        ({**ONLINE, "venue": "club", "rated": True}, "invalid", "rated"),
        ({**ONLINE, "colour": "red"}, "invalid", "colour"),
        ({"variant": "short"}, "account.bad_name", "name"),
    ):
        body = refused(client.post("/api/tournaments", json=settings, headers=auth(director)), 422, code)
        assert body["field"] == field, body
    refused(client.post("/api/tournaments", json=[1], headers=auth(director)), 422, "bad_request")
    refused(client.get("/api/tournaments/nope"), 404, "tournament.not_found")
    refused(
        client.post("/api/tournaments/nope/register", headers=auth(director)), 404, "tournament.not_found"
    )
    tid = shown(client.post("/api/tournaments", json=ONLINE, headers=auth(director)), 201)["id"]
    refused(
        client.post(f"/api/tournaments/{tid}/checkin", headers=auth(director)), 404, "tournament.not_entered"
    )
    refused(client.post(f"/api/tournaments/{tid}/start", headers=auth(director)), 409, "tournament.too_few")
    refused(
        client.post(f"/api/tournaments/{tid}/guests", json={"name": "Wes"}, headers=auth(director)),
        409,
        "tournament.guest_online",
    )
    refused(
        client.post(f"/api/tournaments/{tid}/checkin", json={"number": "2"}, headers=auth(director)),
        422,
        "bad_request",
    )
    refused(client.post(f"/api/tournaments/{tid}/register"), 401, "account.bad_session")


def test_openapi_documents_every_tournament_route(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    paths = {path: ops for path, ops in document["paths"].items() if path.startswith("/api/tournaments")}
    base = "/api/tournaments/{tournament_id}"
    steps = ("register", "partner", "checkin", "withdraw", "guests", "start", "results", "push")
    record, csv = f"{base}/games/{{game_id}}/record", f"{base}/standings.csv"
    assert set(paths) == {"/api/tournaments", base, record, csv} | {f"{base}/{step}" for step in steps}
    assert paths[csv]["get"]["responses"]["200"]["content"] == {"text/csv": {"schema": {"type": "string"}}}
    assert (
        paths[record]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "object"
    )
    for path, operations in paths.items():
        for method, operation in operations.items():
            ok = operation["responses"]["201" if (path, method) == ("/api/tournaments", "post") else "200"]
            if path not in (record, csv):
                assert "$ref" in ok["content"]["application/json"]["schema"], (path, method)
            assert "429" in operation["responses"], (path, method)
            if method == "post":  # a session is required: declared, and refused without it
                assert operation["security"] == [{"SessionToken": []}], path
                assert "401" in operation["responses"], path
    schemas = document["components"]["schemas"]
    assert set(schemas["TournamentAnswer"]["required"]) == {
        "id", "name", "stage", "settings", "created", "teams", "entrants", "tables", "you", "standings",
        "consolation", "bracket", "rounds", "champion", "consolation_champion",
    }  # fmt: skip
    assert schemas["TournamentTable"]["additionalProperties"] is False


def test_the_tournament_page_is_served_at_the_list_and_at_each_tournament(client: TestClient) -> None:
    for path in ("/tournaments", "/tournaments/3f9c0a1b2c3d4e5f"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), path
        assert '<script type="module" src="/static/tournament/page.js">' in page.text
        assert page.headers["cache-control"] == "no-cache"
    for module in ("page.js", "model.js", "views.js", "tapi.js", "tournament.css"):
        assert client.get(f"/static/tournament/{module}").status_code == 200, module
