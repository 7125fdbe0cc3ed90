"""A game against the computer played in the browser (cribbage.local, issue 45 item 3) is the
server's game, STATE for STATE: the same seeded options played both ways, the same actions
chosen (a seeded choice among each STATE's templates), give the same STATE after every action
but for the game's id; the same refusals answer the same codes and values; a kept record
resumes the game; a corrupt one is refused by name.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.app import Actor, AppError, GameService, Options
from cribbage.engine.errors import CribbageError
from cribbage.engine.templates import choices
from cribbage.local.game import LocalGame, LocalOptions
from cribbage.storage import Storage
from cribbage.table.person import Refusal


@pytest.fixture
def server(database: str) -> Iterator[GameService]:
    """The server's application with the levels' own computer players (as the browser's)."""
    service = GameService(Storage(database))
    yield service
    service.close()


def without_id(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "id"}


def some_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action chosen by ``rng`` among the state's templates' choices."""
    options = [c for template in state["actions"] for c in choices(template)]
    return {**rng.choice(options), "version": state["version"]}


CASES = [
    {"variant": "short", "level": "weak", "seed": 11},
    {"variant": "standard", "level": "normal", "seed": 5, "dealer": "you"},
    {"variant": "standard", "level": "normal", "seed": 8, "manual": True, "muggins": True},
    {
        "variant": "five-card",
        "level": "weak",
        "seed": 3,
        "manual": True,
        "muggins": True,
        "muggins_play": True,
    },
    {"variant": "three-player", "level": "weak", "seed": 4, "dealer": "computer"},
    {"variant": "four-player", "level": "normal", "seed": 9},
    {"variant": "lowball", "level": "weak", "seed": 2, "names": ["Aiko"]},
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['variant']}-{case['seed']}")
def test_a_browser_game_shows_the_servers_state_after_every_action(
    server: GameService, case: dict[str, Any]
) -> None:
    created = server.create(Options.from_json(dict(case)))
    local = LocalGame.new("local-1", LocalOptions.from_json(dict(case)))
    actor = Actor(created["token"])
    online, here = server.state(created["id"], actor), local.state()
    rng = random.Random(case["seed"])
    for _ in range(2000):
        assert without_id(here) == without_id(online)  # type: ignore[arg-type]
        if here["over"]:
            break
        action = some_action(here, rng)
        online, here = server.act(created["id"], actor, dict(action)), local.act(action)  # type: ignore[assignment]
    assert here["over"] and here["result"] is not None
    assert local.record() == server.record(created["id"], actor)


def test_refusals_answer_the_servers_codes_and_values(server: GameService) -> None:
    case = {"variant": "short", "level": "weak", "seed": 6}
    created = server.create(Options.from_json(dict(case)))
    local = LocalGame.new("local-2", LocalOptions.from_json(dict(case)))
    actor = Actor(created["token"])
    state = local.state()
    bad = [
        {"type": "dance"},
        {"type": "discard", "seat": "0", "cards": ["5h"]},
        {"type": "discard", "seat": 1, "cards": ["5h", "6h"]},
        {"type": "discard", "cards": ["1X", "5h"]},
        {"type": "play", "card": state["view"]["hand"][0]},
        {"type": "discard", "cards": state["view"]["hand"][:2], "version": state["version"] + 3},
    ]
    for action in bad:
        with pytest.raises(AppError) as online:
            server.act(created["id"], actor, dict(action))
        with pytest.raises(CribbageError) as here:  # a Refusal, or the engine's own
            local.act(dict(action))
        assert (here.value.code, here.value.values) == (online.value.code, online.value.values), action
    assert local.state() == {**server.state(created["id"], actor), "id": "local-2"}, "nothing changed"
    with pytest.raises(Refusal) as not_over:
        local.record()
    assert not_over.value.code == "not_over"
    # A bad option: the server's refusal (its code and field) where the server checks it here...
    for options in ({"level": "genius"}, {"dealer": "me"}, {"muggins": True}, {"variant": "poker"}):
        with pytest.raises(AppError) as online_refused:
            server.create(Options.from_json(dict(options)))
        with pytest.raises(Refusal) as refused:
            LocalGame.new("local-3", LocalOptions.from_json(dict(options)))
        expected = (online_refused.value.code, online_refused.value.values["field"])
        assert (refused.value.code, refused.value.values["field"]) == expected, options
    # ... and where the server's request body is checked by its schema: a clock is a server's.
    for options, field in (
        ({"manual": "yes"}, "manual"),
        ({"clock": 30}, "options"),
        ({"seed": 1.5}, "seed"),
    ):
        with pytest.raises(Refusal) as refused:
            LocalGame.new("local-3", LocalOptions.from_json(options))
        assert refused.value.code == "invalid" and refused.value.values["field"] == field, options


def test_a_kept_game_resumes_from_its_record_and_a_corrupt_one_is_refused() -> None:
    options = LocalOptions.from_json({"variant": "short", "level": "normal", "seed": 21})
    game = LocalGame.new("local-4", options)
    rng = random.Random(1)
    for _ in range(12):
        game.act(some_action(game.state(), rng))
    kept = game.saved()
    again = LocalGame.restore(kept["id"], LocalOptions.from_json(kept["options"]), kept["record"])
    assert again.state() == game.state()
    after = some_action(game.state(), rng)
    assert again.act(dict(after)) == game.act(dict(after)), "both go on alike"
    hint = again.hint()
    assert hint["kind"] in ("discard", "play") and hint["options"]
    bad_card = {"type": "play", "seat": 0, "card": "ZZ"}
    tampered = dict(kept["record"], actions=[*kept["record"]["actions"][:3], bad_card])
    for record in (tampered, {"format": "cribbage-record", "version": 99}, "not a record", None):
        with pytest.raises(Refusal) as refused:
            LocalGame.restore("local-5", options, record)
        assert refused.value.code == "bad_record" and refused.value.values["reason"]
