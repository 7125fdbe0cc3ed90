"""The live fan-out (issue 30): one encoding of a game change's public part, shared by all its sockets.

A ``STATE`` is the public part of the change and the seat's own part (``cribbage.app.games.state``).
Over whole games of two, three and four seats, after every action and for every seat: the two
parts merge to exactly today's ``STATE`` (the text of the builder before the split, kept here,
byte for byte), the public part is the same whichever seat's view made it and never names a card
hidden from any seat, and the message a socket is sent (the shared text with the seat's own
spliced in) parses to exactly the seat's ``STATE``; a spectator's likewise.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from dataclasses import replace
from typing import Any

import pytest

from cribbage.app import Options
from cribbage.app.games.live_game import LiveGame
from cribbage.app.games.replay import one_player, seat_players
from cribbage.app.games.state import PRIVATE, STATE_KEYS, merged, seats_json
from cribbage.engine.record import Game
from cribbage.engine.templates import templates
from cribbage.players import make_player
from cribbage.storage import StoredSeat
from cribbage.table.seating import HUMAN, seat_seed
from cribbage.table.table import PERSON, Table, seats
from cribbage.web.fanout import Shared
from cribbage.web.jsontext import dumps
from test_web_security import cards_in, hidden_cards

# --------------------------------------------------------------------------- today's STATE


def reference_state(session: LiveGame, seat: int, connected: Collection[int]) -> dict[str, Any]:
    """A seat's ``STATE`` as ``LiveGame.to_json`` built it before the split (its code, kept)."""
    table = session.table
    state = table.state
    view = state.view(seat)
    result = state.result
    waiting = session.waiting
    legal = view.legal if not waiting and table.waiting_for is not None else ()
    names = [s.name for s in session.seats]
    options = session.options_json()
    options["names"] = names
    return {
        "id": session.id,
        "version": session.version,
        "seat": seat,
        "names": names,
        "options": options,
        "view": view.to_json(),
        "actions": templates(legal),
        "events": [step.to_json() for step in table.recent_for(seat)],
        "score_history": table.tally.history_json(),
        "breakdown": table.tally.by_side(),
        "over": state.is_terminal,
        "result": None if result is None else result.to_json(),
        "seats": seats_json(session.seats),
        "people": sum(s.kind == "human" for s in session.seats) >= 2,
        "waiting_for": waiting,
        "invites": session.invites() if seat == HUMAN or not session.seats[HUMAN].taken else [],
        "connected": sorted(s.seat for s in session.seats if s.kind == "human" and s.seat in connected),
        **session.clock_json(),
        "arrival": session.arrival,
        "match": session.match_json(),
        "rating": session.rating,
        "rating_change": session.rating_change,
        "rematch": session.rematch,
    }


def reference_watch(session: LiveGame, connected: Collection[int]) -> dict[str, Any]:
    """A spectator's ``STATE`` as ``LiveGame.watch_json`` built it before the split."""
    table = session.table
    state = table.state
    view = state.view(HUMAN).to_json()
    view.update(seat=None, hand=[], kept=[], discards=[])
    result = state.result
    names = [s.name for s in session.seats]
    options = session.options_json()
    options.update(names=names, seed=None)
    return {
        "id": session.id,
        "version": session.version,
        "seat": None,
        "spectator": True,
        "names": names,
        "options": options,
        "view": view,
        "actions": [],
        "events": [step.to_json() for step in table.recent],
        "score_history": table.tally.history_json(),
        "breakdown": table.tally.by_side(),
        "over": state.is_terminal,
        "result": None if result is None else result.to_json(),
        "seats": seats_json(session.seats),
        "people": sum(s.kind == "human" for s in session.seats) >= 2,
        "waiting_for": session.waiting,
        "invites": [],
        "connected": sorted(s.seat for s in session.seats if s.kind == "human" and s.seat in connected),
        **session.clock_json(),
        "arrival": session.arrival,
        "match": session.match_json(),
        "rating": session.rating,
        "rating_change": session.rating_change,
        "rematch": None,
        "rematch_watch": session.rematch_watch,
    }


# --------------------------------------------------------------------------- a table


def table_of(kinds: list[str], seed: int, **options: Any) -> LiveGame:
    """A seeded game whose seats are ``kinds`` ("human", or a computer's level), every seat
    taken (a seeded game of several people is made here, as the service never makes one)."""
    chosen = Options(seed=seed, **options)
    rules = chosen.rules()
    names = tuple(f"P{s}" if kind == "human" else f"C{s}" for s, kind in enumerate(kinds))
    game = Game(
        rules,
        seed=seed,
        names=names,
        seats=seats(
            [PERSON if kind == "human" else kind for kind in kinds],
            [seat_seed(seed, s) for s in range(rules.players)],
        ),
    )
    seated = [
        StoredSeat(
            seat=s,
            kind="human" if kind == "human" else "computer",
            level=None if kind == "human" else kind,
            name=names[s],
            token_hash=f"hash{s}" if kind == "human" else None,
            code=None,
            taken=True,
        )
        for s, kind in enumerate(kinds)
    ]
    table = Table(game, seat_players(game, one_player("random")))
    session = LiveGame(f"game{seed}", chosen, table, seated, one_player("random"))
    session.table.run()
    return session


def parts_check(session: LiveGame, connected: frozenset[int]) -> None:
    """Every seat's and the spectators' states at this moment, as the module says."""
    people = [s.seat for s in session.seats if s.kind == "human"]
    public, own, spectator = session.fanout_json(people, connected, spectators=True)
    assert spectator is not None
    state = session.table.state
    hidden = set().union(*(hidden_cards(state, seat) for seat in range(state.players)))
    leaked = cards_in(public, skip=frozenset({"id"})) & hidden
    assert not leaked, f"the public part names hidden cards {sorted(leaked)}"
    for seat in range(state.players):  # any seat's view makes the same public part
        assert session.public_json(connected, state.view(seat)) == public
    shared = Shared(public)
    for seat in people:
        expected = reference_state(session, seat, connected)
        private = own[seat]
        assert set(public) & set(private) == set(PRIVATE)
        assert set(public) | set(private) <= set(STATE_KEYS)
        assert dumps(merged(public, private)) == dumps(expected)  # byte for byte, as today
        assert dumps(session.to_json(seat, connected)) == dumps(expected)
        assert json.loads(shared.message(private)) == {"type": "state", "state": expected}
    watched = reference_watch(session, connected)
    assert dumps(session.watch_json(connected)) == dumps(watched)
    assert dumps(merged(public, spectator)) == dumps(watched)
    assert json.loads(shared.message(spectator)) == {"type": "state", "state": watched}


def play_checked(session: LiveGame, rng: random.Random) -> int:
    """Play the game to its end with random legal actions of whichever person may act,
    checking the parts after each (the presence, the clock, the seats changing meanwhile);
    returns the number of checks."""
    people = [s.seat for s in session.seats if s.kind == "human"]
    sensible = make_player("weak", rng.randrange(2**32))
    checks = 0
    while True:
        connected = frozenset(seat for seat in people if rng.random() < 0.7)
        parts_check(session, connected)
        checks += 1
        if session.over:
            return checks
        movers = [seat for seat in people if session.table.state.view(seat).legal]
        assert movers, "a person must be able to act"
        seat = rng.choice(movers)
        view = session.table.state.view(seat)
        # Mostly a sensible move (a right count, a call only when one is due), now and then any
        # other with a modest count (a wrong one: a call may follow, the game goes on).
        modest = [
            a for a in view.legal if (getattr(a, "claim", 0) or 0) <= 4 and getattr(a, "points", 0) <= 8
        ]
        session.act(rng.choice(modest) if modest and rng.random() < 0.2 else sensible.choose(view))
        session.deadline = None if rng.random() < 0.5 else 1_800_000_000.0 + checks
        session.away = frozenset(seat for seat in people if rng.random() < 0.2)


@pytest.mark.parametrize(
    ("kinds", "options"),
    [
        (["human", "human"], {}),
        (["human", "human"], {"variant": "short", "manual": True, "muggins": True, "muggins_play": True}),
        (["human", "human", "random"], {"variant": "three-player", "manual": True, "muggins": True}),
        (["human", "random", "human"], {"variant": "three-player"}),
        (["human", "human", "human", "human"], {"variant": "four-player", "manual": True, "muggins": True}),
        (["human", "random", "human", "random"], {"variant": "four-player"}),
        (["human", "random"], {"variant": "short"}),
    ],
)
def test_the_parts_of_every_state_merge_to_todays_state_over_whole_games(
    kinds: list[str], options: dict[str, Any]
) -> None:
    session = table_of(kinds, 11, **options)
    assert play_checked(session, random.Random(5)) > 20
    session.rematch, session.rematch_watch = "next-game", "WATCHCODE1"
    parts_check(session, frozenset({0}))


def test_the_seed_is_the_seats_own_and_open_seats_invite_everyone() -> None:
    session = table_of(["human", "human", "random"], 3, variant="three-player")
    public, own, spectator = session.fanout_json([0, 1], (), spectators=True)
    assert public["options"]["seed"] is None and spectator is not None
    assert [own[0]["options"]["seed"], own[1]["options"]["seed"], spectator["options"]["seed"]] == [
        3,
        3,
        None,
    ]
    assert own[0]["invites"] == own[1]["invites"] == []
    parts_check(session, frozenset({1}))
    # The creator's seat open (its person left): every person sees the invitations.
    session.set_seats(
        [replace(s, taken=False, token_hash=None, code="ABCDEF") if s.seat == 0 else s for s in session.seats]
    )
    public, own, spectator = session.fanout_json([1], (), spectators=True)
    assert own[1]["invites"] == [{"seat": 0, "code": "ABCDEF", "url": "/join/ABCDEF"}]
    assert public["waiting_for"] == [0] and own[1]["actions"] == []
    parts_check(session, frozenset())
