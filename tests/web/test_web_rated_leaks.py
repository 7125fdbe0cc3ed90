"""Nothing secret leaks through a whole rated game (issue 31, "Bad input"): two accounts play a
game to its end with their live sockets and a spectator's open, then read their profiles and the
leaderboard, and then ask to Play now, twice each (issue 41, item 5: the second is refused while
their match waits, ``409 queue.already_waiting`` or ``queue.match_waiting``), until each is told
their seat.  Every answer and every live message each of them got is kept, and none holds a
password, a password's hash, a session token (but the answer that made it, to its owner),
another seat's token, an account's internal id, or the unrounded rating the queue pairs by
(answers name accounts by their public names, and ratings as the profiles show them); and while
the first hand's discards are made, no state holds a card of a hand its reader may not see
(tests/web/test_web_security.py follows hidden cards through whole games in detail, the events
included).
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from cribbage.app.playnow.orchestrator import PlayNow
from cribbage.app.playnow.play import rating_in
from web_fixtures import HUMAN, PASSWORD, auth, connect, first_action, make_client, receive_text, watch_link

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


class Reader:
    """One person's (or the spectator's) side: everything the server said to them, as text."""

    def __init__(self, client: TestClient, token: str = "") -> None:
        self.client, self.token, self.texts = client, token, list[str]()

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None, status: int | None = None
    ) -> Any:
        """The answer to a request (a success, or ``status``), kept."""
        used = self.token if token is None else token
        answer = self.client.request(method, path, json=body, headers=auth(used) if used else {})
        self.texts.append(answer.text)
        assert answer.status_code < 300 if status is None else answer.status_code == status, answer.text
        return answer.json()


def cards(text: str) -> set[str]:
    return set(CARD.findall(text))


def play_now(aiko: Reader, boris: Reader, sessions: list[str]) -> None:
    """Both ask to Play now in the short pool, and again while waiting, and again while their
    match waits; then poll until each is told their seat."""
    aiko.call("POST", "/api/play", {"pool": "short"}, sessions[0], status=202)
    again = aiko.call("POST", "/api/play", {"pool": "short"}, sessions[0], status=409)
    assert again["code"] == "queue.already_waiting"
    boris.call("POST", "/api/play", {"pool": "short"}, sessions[1], status=202)
    play: PlayNow = aiko.client.app.state.play  # type: ignore[attr-defined]
    assert aiko.client.portal is not None
    later = play.queue.clock() + 100  # their windows grown to take in a whole game's rating change
    [match] = aiko.client.portal.call(play.queue.pair_once, "short", later)  # made, its game not yet
    for reader, session in ((aiko, sessions[0]), (boris, sessions[1])):
        refused = reader.call("POST", "/api/play", {"pool": "short"}, session, status=409)
        assert refused["code"] == "queue.match_waiting" and refused["pool"] == "short"
        assert reader.call("GET", "/api/play", token=session)["starting"]
    aiko.client.portal.call(play.deliver, match)
    for reader, session in ((aiko, sessions[0]), (boris, sessions[1])):
        assert reader.call("GET", "/api/play", token=session)["match"]["pool"] == "short"


def test_a_whole_rated_game_leaks_no_secret_to_a_seat_or_a_spectator() -> None:
    with make_client(pair_every=3600.0) as client, ExitStack() as stack:
        aiko, boris, spectator = Reader(client), Reader(client), Reader(client)
        sessions = [
            aiko.call("POST", "/api/accounts", {"name": "Aiko", "password": PASSWORD})["token"],
            boris.call("POST", "/api/accounts", {"name": "Boris", "password": PASSWORD})["token"],
        ]
        made_by = [len(aiko.texts) - 1, len(boris.texts) - 1]  # the answers that made the sessions
        table = {"seats": [HUMAN, HUMAN], "target": 61, "rated": True}
        made = aiko.call("POST", "/api/games", table, sessions[0])
        invite = {"code": made["invites"][0]["code"], "name": "Boris", "rated": True}
        joined = boris.call("POST", "/api/join", invite, sessions[1])
        game_id, seats = made["id"], [made["token"], joined["token"]]
        aiko.token, boris.token = seats
        watch = watch_link(client, game_id, seats[0])
        sockets = [connect(stack, client, game_id, seats[0]), connect(stack, client, game_id, seats[1])]
        sockets.append(connect(stack, client, game_id, {"watch": watch}))
        readers = [aiko, boris, spectator]
        hands: dict[int, list[set[str]]] = {}  # version: each seat's hand, in the first deal
        for _ in range(3000):
            states = [aiko.call("GET", f"/api/games/{game_id}"), boris.call("GET", f"/api/games/{game_id}")]
            view = states[0]["view"]
            if view["hand_number"] == 1 and view["phase"] == "discard":
                hands[states[0]["version"]] = [set(s["view"]["hand"]) for s in states]
            if states[0]["over"]:
                break
            seat = view["to_act"]
            readers[seat].call("POST", f"/api/games/{game_id}/actions", first_action(states[seat]))
        else:
            raise AssertionError("the game did not end")
        for ws, reader in zip(sockets, readers, strict=True):  # every live message until the end
            for _ in range(10_000):
                text = receive_text(ws)
                reader.texts.append(text)
                message = json.loads(text)
                if message.get("type") == "state" and message["state"]["over"]:
                    break
        for name, session, reader in (("Aiko", sessions[0], aiko), ("Boris", sessions[1], boris)):
            reader.call("GET", f"/api/players/{name}", token=session)
            reader.call("GET", "/api/leaderboard/short", token=session)
            reader.call("GET", "/api/accounts/me", token=session)
            spectator.call("GET", f"/api/players/{name}")
        spectator.call("GET", "/api/leaderboard/short")
        assert [r["games"] for r in spectator.call("GET", "/api/players/Aiko")["ratings"]] == [1]
        service = client.app.state.service  # type: ignore[attr-defined]
        storage = service.storage
        accounts = [storage.accounts.by_name(key) for key in ("aiko", "boris")]
        internal = [account.id for account in accounts]  # and the ratings the queue pairs by:
        internal += [repr(rating_in(service, account.id, "short")) for account in accounts]
        play_now(aiko, boris, sessions)

        hashes = [account.password_hash for account in accounts]
        for number, reader in enumerate(readers):
            for index, text in enumerate(reader.texts):
                assert PASSWORD not in text and "$argon2" not in text and not any(h in text for h in hashes)
                assert not any(secret in text for secret in internal), text
                for owner, session in enumerate(sessions):
                    assert session not in text or (owner == number and index == made_by[owner]), text
                for seat, token in enumerate(seats):
                    assert seat == number or token not in text, f"seat {seat}'s token reached {number}"
                data = json.loads(text)
                state = data.get("state", data) if isinstance(data, dict) else {}
                if state.get("version") in hands and state.get("view", {}).get("phase") == "discard":
                    dealt = hands[state["version"]]
                    hidden = set().union(*(hand for seat, hand in enumerate(dealt) if seat != number))
                    # (the events name the cards cut for the deal, back in the deck since)
                    seen = cards(json.dumps({k: v for k, v in state.items() if k != "events"}))
                    assert not seen & hidden, f"{number} saw {seen & hidden}"
        assert hands, "the first deal's discards were seen"
