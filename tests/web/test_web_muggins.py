"""Muggins between people at one table (docs/api.md): every person who is an opponent of the
counter may call, the first valid call takes the points, a later call is refused naming why, and
every seat sees the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_tables import check_state, seat_everyone
from web_fixtures import HUMAN, act, actions_of, get, make_client


def test_of_two_people_calling_muggins_on_a_count_the_first_call_wins(tmp_path: Path) -> None:
    # Two servers on one database: the people's seats are served by either, each catching up.
    url = f"sqlite:///{tmp_path / 'games.db'}"
    clients = [make_client(database_url=url) for _ in range(2)]
    game_id, people, shadow = seat_everyone(
        clients, [HUMAN, HUMAN, HUMAN], variant="three-player", target=121, manual=True, muggins=True
    )
    tokens = [p.token for p in people]
    state = shadow.state
    # Everyone plays the first legal action (a count of 0) until a count missed some points.
    for _ in range(200):
        shadow.catch_up()
        if state.pending is not None and state.pending.missed > 0:
            break
        actor = people[state.to_act]
        legal = actions_of(get(actor.client, game_id, actor.token))
        response = act(actor.client, game_id, actor.token, legal[0])
        assert response.status_code == 200, response.text
        actor.since = response.json()["version"] - 1
    else:
        raise AssertionError("no count missed any points")
    pending = state.pending
    assert pending is not None
    first, later = pending.callers  # both people, opponents of the counter
    counter, missed = pending.counter, pending.missed
    states = {p.seat: get(p.client, game_id, p.token) for p in people}
    for seat, seen in states.items():
        check_state(seen, shadow, seat, people[seat].since, tokens)
        types = {a["type"] for a in seen["actions"]}
        assert types == (set() if seat == counter else {"pass", "muggins"}), seat
    version = states[later]["version"]
    # The later opponent calls first, before its turn: it takes the points.
    scores = list(state.scores)
    won = act(
        people[later].client,
        game_id,
        people[later].token,
        {"type": "muggins", "points": 29, "version": version},
    )
    assert won.status_code == 200, won.text
    shadow.catch_up()
    assert state.scores[state.rules.side_of(later)] == scores[state.rules.side_of(later)] + missed
    # The other opponent's call comes too late: 409 with its version, 400 without, naming why.
    call: dict[str, Any] = {"type": "muggins", "points": missed, "version": version}
    stale = act(people[first].client, game_id, people[first].token, call)
    assert stale.status_code == 409
    assert f"seat {later}'s call has already taken it" in stale.json()["error"]
    late = act(people[first].client, game_id, people[first].token, {"type": "muggins", "points": missed})
    assert late.status_code == 400
    assert (
        late.json()["error"]
        == f"there is no count to call muggins on: seat {later}'s call has already taken it"
    )
    assert state.scores[state.rules.side_of(first)] == scores[state.rules.side_of(first)]
    # Every seat sees the call.
    for person in people:
        seen = get(person.client, game_id, person.token)
        calls = [e for e in seen["events"] if e["kind"] == "muggins"]
        assert [(e["seat"], e["points"]) for e in calls] == [(later, missed)], person.seat


def test_in_partnerships_both_opponents_are_offered_the_call_and_the_partner_is_refused() -> None:
    client = make_client()
    game_id, people, shadow = seat_everyone(
        [client], [HUMAN] * 4, variant="four-player", target=121, manual=True, muggins=True
    )
    state = shadow.state
    for _ in range(200):
        shadow.catch_up()
        if state.pending is not None:
            break
        actor = people[state.to_act]
        legal = actions_of(get(actor.client, game_id, actor.token))
        assert act(actor.client, game_id, actor.token, legal[0]).status_code == 200
    else:
        raise AssertionError("no count was stated")
    pending = state.pending
    assert pending is not None
    counter = pending.counter
    partner = (counter + 2) % 4
    assert set(pending.callers) == {(counter + 1) % 4, (counter + 3) % 4}
    for person in people:
        seen = get(person.client, game_id, person.token)
        assert seen["view"]["claim"]["callers"] == list(pending.callers)
        assert bool(seen["actions"]) == (person.seat in pending.callers), person.seat
    version = shadow.state.steps
    refused = act(people[partner].client, game_id, people[partner].token, {"type": "muggins", "points": 2})
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        f"seat {partner} may not call muggins or pass: it is the count of its partner, seat {counter}"
    )
    own = act(people[counter].client, game_id, people[counter].token, {"type": "pass"})
    assert own.status_code == 400
    assert own.json()["error"] == f"seat {counter} may not call muggins or pass: it is its own count"
    shadow.catch_up()
    assert shadow.state.steps == version and shadow.state.pending == pending  # nothing changed
    # Both opponents pass, the later one first: the count stands and the show goes on.
    for seat in reversed(pending.callers):
        person = people[seat]
        assert act(person.client, game_id, person.token, {"type": "pass"}).status_code == 200
    shadow.catch_up()
    assert shadow.state.pending is None
