"""A rematch's people are given time to arrive (issue 42 item 1; docs/api.md, "Leave", "Matches"),
over HTTP: the next game of a match of Play now says until when in every ``STATE`` (``arrival``,
a spectator's too, as /openapi.json states it), and until then the creator's request to give an
offline seat to a computer is 409 ``seat_arriving`` with the seat and ``until``.  How long it
lasts, after a restart too, and that a game that is no rematch has no such wait:
tests/app/test_arrival.py, against the core."""

from __future__ import annotations

from cribbage.web.answers.games import StateAnswer, WatchAnswer
from test_web_matches import start_match
from test_web_play import running
from web_fixtures import auth, get, play_out, watch_link


def test_the_next_games_state_says_until_when_its_people_may_arrive_and_a_computer_waits() -> None:
    with running() as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        game, tokens, _names = start_match(client, ("Aiko", "Boris"))
        assert get(client, game, tokens[0])["arrival"] is None  # the first game: its people joined it
        code = watch_link(client, game, tokens[0])
        play_out(client, game, tokens)
        following = get(client, game, tokens[0])["rematch"]
        assert following
        seen = get(client, following, tokens[0])
        StateAnswer.model_validate(seen)
        arrival = seen["arrival"]
        assert isinstance(arrival, float) and arrival > service.now()  # later than now
        assert get(client, following, tokens[1])["arrival"] == arrival  # every seat's, and a spectator's
        watched = client.get(f"/api/watch/{code}")
        assert watched.status_code == 200, watched.text
        spectator = client.get(f"/api/watch/{watched.json()['rematch_watch']}").json()
        WatchAnswer.model_validate(spectator)
        assert spectator["arrival"] == arrival

        body = {"seat": 1, "level": "weak"}
        refused = client.post(f"/api/games/{following}/computer", json=body, headers=auth(tokens[0]))
        assert refused.status_code == 409, refused.text  # Boris (offline) may be on his way
        assert refused.json()["code"] == "seat_arriving"
        assert refused.json()["seat"] == 1 and refused.json()["until"] == arrival
        assert get(client, following, tokens[1])["seats"][1]["kind"] == "human"  # his token acts
