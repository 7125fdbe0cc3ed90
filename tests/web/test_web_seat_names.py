"""One name per seat (issue 29, item 8) and what an invitation opens before joining (item 11).

A computer's seat is named by one rule everywhere (``service.computer_name``, worded by the page's
``seatLabel``): ``Computer N``, N the seat counted from 1 as in "Seat N", plain ``Computer`` at
seat 1 of two players, at a game against the computer, at a table with people and after a
takeover.  ``GET /api/join/{code}`` shows the seat a code takes, the variant, the counting and who
sits at the table, and is limited like joining.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from cribbage.app.games.options import computer_name
from test_web_tables import computer, create, join
from web_fixtures import HUMAN, auth, get, make_app, make_client


def names(state: dict[str, Any]) -> list[str]:
    return [seat.get("name", "") for seat in state["seats"]]


@pytest.mark.parametrize(
    ("players", "expected"),
    [(2, ["Computer"]), (3, ["Computer 2", "Computer 3"]), (4, ["Computer 2", "Computer 3", "Computer 4"])],
)
def test_a_computer_is_named_by_its_seat_counted_from_one(players: int, expected: list[str]) -> None:
    assert [computer_name(seat, players) for seat in range(1, players)] == expected
    assert computer_name(0, 2) == "Computer 1"


@pytest.mark.parametrize("variant", ["standard", "three-player", "four-player"])
def test_every_kind_of_table_names_its_computers_alike(variant: str) -> None:
    """Against computers, at a table with people, and after a person's seat is taken over."""
    client = make_client()
    players = {"standard": 2, "three-player": 3, "four-player": 4}[variant]
    alone = client.post("/api/games", json={"level": "weak", "variant": variant}).json()["state"]
    assert alone["names"][1:] == [computer_name(s, players) for s in range(1, players)]
    assert names(alone)[1:] == alone["names"][1:]
    # A table: a person at seat 1 (who leaves, a computer taking over), computers elsewhere.
    seats = [HUMAN, HUMAN, *(computer() for _ in range(2, players))]
    table = create(client, seats, variant=variant, takeover="weak")
    taken = join(client, table["invites"][0]["code"], "Boris").json()
    assert names(get(client, table["id"], table["token"]))[2:] == alone["names"][2:]
    left = client.post(f"/api/games/{table['id']}/leave", headers=auth(taken["token"]))
    assert left.status_code == 200, left.text
    after = get(client, table["id"], table["token"])
    assert after["seats"][1]["kind"] == "computer"
    assert names(after)[1:] == alone["names"][1:]  # the same names as a game against computers
    assert after["names"][1:] == alone["names"][1:]  # and the record's names (a review says them)


def test_an_invitation_shows_its_table_before_joining() -> None:
    client = make_client()
    table = create(
        client, [HUMAN, computer("strong"), HUMAN, HUMAN], variant="four-player", names=["Aiko"], manual=True
    )
    first, second = table["invites"]
    join(client, second["code"], "Boris")
    answer = client.get(f"/api/join/{first['code'].lower()}")
    assert answer.status_code == 200, answer.text
    preview = answer.json()
    assert preview == {
        "seat": 2,
        "variant": "four-player",
        "players": 4,
        "target": 121,
        "options": {
            "manual": True, "muggins": False, "muggins_play": False, "dealer": "cut", "skunk": "marked",
            "clock": None, "takeover": None, "rated": False,
        },
        "seats": [
            {"seat": 0, "kind": "human", "name": "Aiko", "taken": True},
            {"seat": 1, "kind": "computer", "level": "strong", "name": "Computer 2", "taken": True},
            {"seat": 2, "kind": "human", "taken": False},
            {"seat": 3, "kind": "human", "name": "Boris", "taken": True},
        ],
    }  # fmt: skip
    assert second["code"] not in answer.text and table["token"] not in answer.text
    # A taken seat's code: 409; an unknown or malformed code: 404, as when joining.
    assert client.get(f"/api/join/{second['code']}").status_code == 409
    for code in ("ZZZZZZ", "x"):
        refused = client.get(f"/api/join/{code}")
        assert refused.status_code == 404 and refused.json()["error"] == "no table has this invitation code"
    nul = client.get("/api/join/AAAAAA%00")  # refused at the edge, before any route
    assert nul.status_code == 422 and nul.json()["code"] == "bad_text"
    # Nothing changed: the seat is still open, and joins as before.
    assert join(client, first["code"], "Carla").status_code == 201


def test_looking_at_invitations_counts_as_joining() -> None:
    client = TestClient(make_app(limits={"join": "2/minute"}))
    for _ in range(2):
        assert client.get("/api/join/ZZZZZZ").status_code == 404
    refused = client.get("/api/join/ZZZZZZ")
    assert refused.status_code == 429 and refused.json()["limit"] == "join"
