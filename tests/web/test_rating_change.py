"""A rated game's rating changes (issue 42, item 12; docs/api.md, "Read the state" and "Players
and ratings"): once a finished rated game is recorded, its state carries each seat's rating after
it and its change (``rating_change``), the transports are told again so that the pages show it,
another process holding the game finds it in the database, and a profile's recent games say
whether the player won.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from test_rated_games import people_table, profile
from web_fixtures import auth, get, make_client, play_out, sign_up


def changes(state: dict[str, Any]) -> list[tuple[int, int, int | None]]:
    found = state["rating_change"]
    assert found is not None and found["pool"] == "short"
    return [(seat["seat"], seat["shown"], seat["change"]) for seat in found["seats"]]


def test_a_finished_rated_game_shows_each_seat_s_rating_change_and_the_profile_who_won() -> None:
    with make_client() as client:
        tokens = [sign_up(client, "Aiko"), sign_up(client, "Boris")]
        names = ["Aiko", "Boris"]
        before: list[int | None] = [None, None]
        for _game in range(2):
            game_id, seats = people_table(client, tokens[0], tokens[1])
            assert get(client, game_id, seats[0])["rating_change"] is None  # in progress
            state, _count = play_out(client, game_id, seats)
            shown = [profile(client, name)["ratings"][0]["shown"] for name in names]
            expected = [
                (seat, shown[seat], None if before[seat] is None else shown[seat] - before[seat])
                for seat in (0, 1)
            ]
            # The last state answered, every seat's and a spectator's state after it.
            assert changes(state) == expected
            assert changes(get(client, game_id, seats[1])) == expected
            code = client.post(f"/api/games/{game_id}/watch", headers=auth(seats[0])).json()["code"]
            assert changes(client.get(f"/api/watch/{code}").json()) == expected
            winner = state["result"]["winner"]
            for seat, name in enumerate(names):
                recent = profile(client, name)["recent"][0]
                assert (recent["id"], recent["won"]) == (game_id, seat == winner)
                assert recent["change"] == expected[seat][2]
            assert shown[winner] > (before[winner] or 1500)
            before = list(shown)


def test_the_pages_are_told_again_once_the_game_is_recorded() -> None:
    """The final state goes out before the rating is recorded (docs/ratings.md, "Rated exactly
    once"): the transports are told again, the state then carrying the changes."""
    with make_client() as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        tokens = [sign_up(client, "Aiko"), sign_up(client, "Boris")]
        game_id, seats = people_table(client, tokens[0], tokens[1])
        told: list[tuple[bool, Any]] = []
        publish = service._sink.changed

        def changed(game_id_changed: str, connected: Collection[int] | None = None) -> None:
            live = service.repository.peek(game_id_changed)
            if game_id_changed == game_id and live is not None:
                told.append((live.over, live.to_json(0)["rating_change"]))
            publish(game_id_changed, connected)

        service._sink.changed = changed
        play_out(client, game_id, seats)
        finished = [change for over, change in told if over]
        assert finished[0] is None  # the final state, before the rating
        assert finished[-1] is not None and [s["seat"] for s in finished[-1]["seats"]] == [0, 1]


def test_another_process_finds_the_changes_in_the_database(shared_url: str) -> None:
    with make_client(shared_url) as first, make_client(shared_url) as second:
        tokens = [sign_up(first, "Aiko"), sign_up(first, "Boris")]
        game_id, seats = people_table(first, tokens[0], tokens[1])
        assert get(second, game_id, seats[1])["rating_change"] is None  # cached there in progress
        state, _count = play_out(first, game_id, seats)
        assert state["rating_change"] is not None
        assert get(second, game_id, seats[1])["rating_change"] == state["rating_change"]
