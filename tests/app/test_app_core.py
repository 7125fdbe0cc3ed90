"""The application core's contracts with the edge: every code it raises has an HTTP status in
the one table (``cribbage.web.errors``), and it publishes (its sink) exactly once per stored
change, never for a refused request nor a read."""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

import cribbage.app
from cribbage.app import Actor, AppError, GameService, Options, SeatSpec
from cribbage.app.games.state import merged
from cribbage.engine import errors as engine_errors
from cribbage.players import Player, make_player
from cribbage.storage import Storage
from cribbage.web.errors import STATUS, status_of
from web_fixtures import first_action

APP = Path(cribbage.app.__file__).parent


def raised_codes() -> set[str]:
    """Every code the application's source gives an :class:`AppError` (its first argument)."""
    codes = set()
    for path in APP.rglob("*.py"):
        if path.name == "errors.py":  # engine_error: the engine's own codes, checked below
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "AppError" and node.args:
                first = node.args[0]
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path.name}:{node.lineno}: an AppError's code is a literal"
                )
                codes.add(first.value)
    return codes


def test_every_code_the_application_raises_has_its_status_in_the_edge_table() -> None:
    engine = {
        kind.code
        for kind in vars(engine_errors).values()
        if isinstance(kind, type) and issubclass(kind, engine_errors.CribbageError)
    }
    codes = raised_codes() | engine
    assert {"not_found", "unauthorized", "stale", "invalid", "illegal.action"} <= codes  # the scan works
    unlisted = {code for code in codes if code not in STATUS and code.partition(".")[0] not in STATUS}
    assert not unlisted, f"codes without an HTTP status in cribbage.web.errors.STATUS: {sorted(unlisted)}"


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("illegal.card", 422),
        ("illegal.rules", 422),
        ("illegal.action", 400),
        ("illegal.muggins", 400),
        ("not_found", 404),
        ("unauthorized", 401),
        ("forbidden", 403),
        ("stale", 409),
        ("computer_unavailable", 503),
        ("corrupt_record", 500),
        ("too_many", 429),
    ],
)
def test_a_code_maps_to_todays_status(code: str, status: int) -> None:
    assert status_of(code) == status


def test_a_refusal_is_its_code_message_and_values() -> None:
    refusal = AppError("stale", "stale version 3: the game is at version 5", version=5)
    assert refusal.to_json() == {"error": str(refusal), "code": "stale", "version": 5}


class Published(list[str]):
    """A sink that notes the ids of the games whose changes were stored (and ``said:ID`` for a
    chat message)."""

    def changed(self, game_id: str, connected: Collection[int] | None = None) -> None:
        self.append(game_id)

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        self.append(f"said:{game_id}")


@pytest.fixture
def published() -> Published:
    return Published()


@pytest.fixture
def games(published: Published) -> GameService:
    return GameService(Storage("sqlite://"), sink=published)


def test_the_service_publishes_once_per_stored_change(games: GameService, published: list[str]) -> None:
    new_game = games.create(Options(seed=3, level="weak"))
    token, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    assert published == [game_id]  # the new game
    for _ in range(3):
        state = games.act(game_id, Actor(token), {**first_action(state), "version": state["version"]})
    assert published == [game_id] * 4  # one per action
    games.state(game_id, Actor(token))
    games.hint(game_id, Actor(token))
    assert published == [game_id] * 4  # reads publish nothing


def test_a_chat_message_is_told_to_the_sink_once_stored_and_a_refused_one_not(
    games: GameService, published: Published
) -> None:
    state = games.create(Options(), [SeatSpec("human"), SeatSpec("human")])["state"]
    game_id = state["id"]
    joined = games.join(state["invites"][0]["code"], "Boris")
    published.clear()
    said = games.chat.say(game_id, joined["token"], phrase="gg")
    assert said["phrase"] == "gg" and published == [f"said:{game_id}"]
    with pytest.raises(AppError):
        games.chat.say(game_id, joined["token"], phrase="no such phrase")
    assert published == [f"said:{game_id}"]


def test_an_action_without_an_answer_is_stored_and_published_alike(
    games: GameService, published: list[str]
) -> None:
    """A live socket's action: only the version comes back (its state comes with the others')."""
    new_game = games.create(Options(seed=3, level="weak"))
    token, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    done = games.act(
        game_id, Actor(token), {**first_action(state), "version": state["version"]}, answer=False
    )
    now = games.state(game_id, Actor(token))
    assert done == {"version": now["version"]} and now["version"] > state["version"]
    assert published == [game_id] * 2


def test_the_service_never_publishes_a_refused_request(games: GameService, published: list[str]) -> None:
    new_game = games.create(Options(seed=4, level="weak"))
    token, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    published.clear()
    legal = first_action(state)
    refusals = [
        ({**legal, "version": state["version"] + 1}, "stale"),  # a stale version
        ({"type": "fly"}, "invalid"),  # malformed
        ({**legal, "seat": 1}, "forbidden"),  # another seat's
        ({"type": "play", "seat": 0, "card": state["view"]["hand"][0]}, "illegal.action"),  # discard first
    ]
    for action, code in refusals:
        with pytest.raises(AppError) as refused:
            games.act(game_id, Actor(token), action)
        assert refused.value.code == code
    with pytest.raises(AppError) as wrong:
        games.act(game_id, Actor("not-a-token"), legal)
    assert wrong.value.code == "unauthorized"
    assert published == []
    games.act(game_id, Actor(token), legal)
    assert published == [game_id]


def test_a_table_publishes_when_a_seat_is_taken_or_left(games: GameService, published: list[str]) -> None:
    state = games.create(Options(), [SeatSpec("human"), SeatSpec("human")])["state"]
    game_id = state["id"]
    joined = games.join(state["invites"][0]["code"], "Dana")
    with pytest.raises(AppError) as taken:
        games.join(state["invites"][0]["code"], "Eve")
    assert taken.value.code == "seat_taken"
    games.leave(game_id, Actor(joined["token"]))
    assert published == [game_id] * 3  # created, joined, left


def test_the_computer_players_come_from_the_factory_and_the_record_names_the_levels() -> None:
    made: list[tuple[str, int | None]] = []

    def players(level: str, seed: int | None) -> Player:
        made.append((level, seed))
        return make_player("weak", seed)

    games = GameService(Storage("sqlite://"), players=players)
    layout = [SeatSpec("human"), SeatSpec("computer", "strong"), SeatSpec("computer", "normal")]
    new_game = games.create(Options(variant="three-player", seed=5), layout)
    token, state = new_game["token"], new_game["state"]
    assert [level for level, _seed in made] == ["strong", "normal"]
    record = games.storage.games.load(state["id"])
    assert record is not None
    assert [None if s is None else s["player"] for s in record.record["seats"]] == [None, "strong", "normal"]
    # Restored (another process, or after the cache dropped it): the same factory makes them again.
    again = GameService(games.storage, players=players)
    made.clear()
    assert again.state(state["id"], Actor(token)) == state
    assert [level for level, _seed in made] == ["strong", "normal"]


@pytest.mark.parametrize("saved", [False, True])
def test_a_fanout_is_each_seats_state_in_two_parts(games: GameService, saved: bool) -> None:
    new_game = games.create(Options(), [SeatSpec("human"), SeatSpec("human")])
    token, state = new_game["token"], new_game["state"]
    game_id = state["id"]
    other = games.join(state["invites"][0]["code"], "Dana")["token"]
    code = games.watch_link(game_id, Actor(token))["code"]
    parts = games.state_parts(game_id, [token, other, "not-a-token"], spectators=True, saved=saved)
    assert parts.version == state["version"]
    for who in (token, other):
        private = parts.private[who]
        assert not isinstance(private, AppError)
        assert merged(parts.public, private) == games.state(game_id, Actor(who))
    assert [parts.private[token]["seat"], parts.private[other]["seat"]] == [0, 1]  # type: ignore[index]
    assert parts.spectator is not None and merged(parts.public, parts.spectator) == games.watch(code)
    wrong = parts.private["not-a-token"]
    assert isinstance(wrong, AppError) and wrong.code == "unauthorized"
    assert games.state_parts(game_id, [token]).spectator is None
    with pytest.raises(AppError) as missing:
        games.state_parts("no-such-game", [token], saved=saved)
    assert missing.value.code == "not_found"


def test_an_action_is_quick_where_no_computer_searches_for_long(games: GameService) -> None:
    """:meth:`GameService.quick_to_act`: people and the quick levels answer at once; a strong
    computer, a game not cached here, or players from another factory may not."""
    new_game = games.create(Options(), [SeatSpec("human"), SeatSpec("human")])
    people_token, people = new_game["token"], new_game["state"]
    new_game = games.create(Options(level="normal", seed=1))
    normal_token, normal = new_game["token"], new_game["state"]
    layout = [SeatSpec("human"), SeatSpec("computer", "weak"), SeatSpec("computer", "strong")]
    strong = games.create(Options(variant="three-player", seed=2), layout)["state"]
    assert games.quick_to_act(people["id"]) and games.quick_to_act(normal["id"])
    assert not games.quick_to_act(strong["id"])
    assert not games.quick_to_act("no-such-game")
    elsewhere = GameService(games.storage)  # another process: nothing cached yet
    assert not elsewhere.quick_to_act(people["id"])
    elsewhere.state(people["id"], Actor(people_token))
    assert elsewhere.quick_to_act(people["id"])
    tests_players = GameService(games.storage, players=lambda _level, seed: make_player("weak", seed))
    tests_players.state(normal["id"], Actor(normal_token))
    assert not tests_players.quick_to_act(normal["id"])  # its players are not the levels' own
