"""No phantom states between processes (issue 29, item 2): an action tried on a process's cached
copy whose save is refused (another process moved first) changed that copy; a request that
already held the copy must serve, and act on, the stored game, never that unsaved one.

Two :class:`GameService` instances on one PostgreSQL schema stand for two server processes;
a hook in one's save lets another request take the game in the moment the save is refused.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cribbage.web.service import ApiError, GameService, Options, SeatSpec, Session
from cribbage.web.storage import Storage

pytestmark = pytest.mark.postgres

WAIT = 10.0
PEOPLE = [SeatSpec("human"), SeatSpec("human")]


@pytest.fixture
def services(postgres_url: str) -> Iterator[tuple[GameService, GameService]]:
    """Two services on one database, as two server processes: each its own connections and cache."""
    first, second = GameService(Storage(postgres_url)), GameService(Storage(postgres_url))
    yield first, second
    first.close()
    second.close()


def table_of_two(services: tuple[GameService, GameService]) -> tuple[str, list[str], int]:
    """A table of two people, cached by both services at its first decision: the game, the
    seats' tokens and the version."""
    a, b = services
    token, state = a.create(Options(), PEOPLE)
    joined = a.join(state["invites"][0]["code"], "Dana")
    tokens = [token, joined["token"]]
    for service in (a, b):
        for token in tokens:
            assert service.state(state["id"], token)["version"] == state["version"]
    return state["id"], tokens, state["version"]


def refused_with(
    monkeypatch: pytest.MonkeyPatch, service: GameService, game_id: str, request: Callable[[], Any]
) -> Callable[[], Any]:
    """Make ``service``'s next save of ``game_id`` first start ``request`` in a thread and wait
    until that request holds the cached game (it then waits for the game's lock, which the
    action holds until its refused save is handled); returns what gives the request's answer."""
    took = threading.Event()
    answer: dict[str, Any] = {}
    load, update = service._load, service.storage.update

    def holding(wanted: str) -> Session:
        session = load(wanted)
        if threading.current_thread() is thread:
            took.set()
        return session

    def run() -> None:
        try:
            answer["value"] = request()
        except ApiError as exc:
            answer["value"] = exc

    thread = threading.Thread(target=run)

    def saving(wanted: str, *args: Any, **kwargs: Any) -> bool:
        if wanted == game_id and not thread.is_alive() and "value" not in answer:
            thread.start()
            assert took.wait(WAIT), "the other request never took the game"
        return update(wanted, *args, **kwargs)

    monkeypatch.setattr(service, "_load", holding)
    monkeypatch.setattr(service.storage, "update", saving)

    def result() -> Any:
        thread.join(WAIT)
        assert not thread.is_alive(), "the other request never ended"
        return answer["value"]

    return result


def race(
    monkeypatch: pytest.MonkeyPatch,
    services: tuple[GameService, GameService],
    request: Callable[[GameService, str, list[str], int], Any],
) -> tuple[str, list[str], int, dict[str, Any], dict[str, Any], Any]:
    """The seat to act discards through B; then through A, whose copy is one version behind,
    it discards another pair (another tab, or the page's retry): A's save is refused, while
    ``request(a, game_id, tokens, seat)`` holds A's cached game.  Returns the game, the tokens,
    the seat, the stored discard, B's answer to it and the request's answer."""
    a, b = services
    game_id, tokens, version = table_of_two(services)
    seat = b.state(game_id, tokens[0])["view"]["to_act"]
    legal = b.state(game_id, tokens[seat])["legal"]
    assert len(legal) > 1 and legal[0]["type"] == "discard"
    stored = b.act(game_id, tokens[seat], {**legal[0], "version": version})
    result = refused_with(monkeypatch, a, game_id, lambda: request(a, game_id, tokens, seat))
    with pytest.raises(ApiError) as refused:  # A's copy is read afresh: the seat discarded already
        a.act(game_id, tokens[seat], legal[1])
    assert refused.value.status in (400, 409)
    return game_id, tokens, seat, legal[0], stored, result()


def test_a_state_read_while_a_refused_action_held_the_game_is_the_stored_one(
    monkeypatch: pytest.MonkeyPatch, services: tuple[GameService, GameService]
) -> None:
    def read(a: GameService, game_id: str, tokens: list[str], seat: int) -> Any:
        return a.state(game_id, tokens[seat])

    game_id, tokens, seat, _sent, stored, served = race(monkeypatch, services, read)
    assert not isinstance(served, ApiError), served
    # At the stored version, and its hand is the one kept by the stored discard (the unsaved
    # copy kept another pair: a hand, at the same version, that was never stored).
    assert served["version"] == stored["version"]
    assert served["view"] == stored["view"]
    assert served == services[1].state(game_id, tokens[seat])


def test_an_action_sent_while_a_refused_action_held_the_game_builds_on_the_stored_one(
    monkeypatch: pytest.MonkeyPatch, services: tuple[GameService, GameService]
) -> None:
    a, b = services

    def other_seat_discards(a: GameService, game_id: str, tokens: list[str], seat: int) -> Any:
        # The other seat's page acts on the version B answered.  Tried on the unsaved copy (at
        # that version too), the action would be saved: a record built on a discard never made.
        legal = b.state(game_id, tokens[1 - seat])["legal"]
        version = b.state(game_id, tokens[1 - seat])["version"]
        return a.act(game_id, tokens[1 - seat], {**legal[0], "version": version})

    game_id, tokens, seat, sent, acknowledged, answer = race(monkeypatch, services, other_seat_discards)
    assert not isinstance(answer, ApiError), answer
    stored = a.storage.load(game_id)
    assert stored is not None
    # The discard B acknowledged stays the stored one, and the other seat's came after it.
    assert stored.record["actions"][acknowledged["version"] - 1] == sent
    assert answer == b.state(game_id, tokens[1 - seat])
