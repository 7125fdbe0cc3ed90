"""A rematch's people are given time to arrive (issue 42 item 1; docs/api.md, "Leave", "Matches"):
a match's next game is made by the server as the game before ends, and its people's pages follow
to it by themselves; until ``ARRIVAL_SECONDS`` after it was made, the seat of a person who is not
there yet (offline) does not go to a computer (409 ``seat_arriving``), and every ``STATE`` says
until when (``arrival``), the same after a restart.  A game that is no rematch has no such wait."""

from __future__ import annotations

from pathlib import Path

from cribbage.app.games.options import ARRIVAL_SECONDS
from cribbage.web.answers.games import StateAnswer, WatchAnswer
from test_web_matches import start_match
from test_web_play import running
from web_fixtures import auth, get, play_out, watch_link


def test_a_seat_of_the_next_game_goes_to_a_computer_only_once_its_person_had_time_to_arrive(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    with running(database) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        game, tokens, _names = start_match(client, ("Aiko", "Boris"))
        assert get(client, game, tokens[0])["arrival"] is None  # the first game: its people joined it
        code = watch_link(client, game, tokens[0])
        play_out(client, game, tokens)
        following = get(client, game, tokens[0])["rematch"]
        assert following
        now = service.now()
        seen = get(client, following, tokens[0])
        StateAnswer.model_validate(seen)
        arrival = seen["arrival"]
        assert now - 1 <= arrival - ARRIVAL_SECONDS <= now  # made a moment ago
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

    with running(database) as restarted:  # another process's copy has the same arrival
        service = restarted.app.state.service  # type: ignore[attr-defined]
        assert abs(get(restarted, following, tokens[0])["arrival"] - arrival) < 0.01
        again = restarted.post(f"/api/games/{following}/computer", json=body, headers=auth(tokens[0]))
        assert again.status_code == 409 and again.json()["code"] == "seat_arriving"
        service.now = lambda: arrival + 1  # the time to arrive is over: the offline seat may go
        given = restarted.post(f"/api/games/{following}/computer", json=body, headers=auth(tokens[0]))
        assert given.status_code == 200, given.text
        assert given.json()["seats"][1]["kind"] == "computer"
