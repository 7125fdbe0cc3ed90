"""The steps a table hands out: each with its index and the public table after it.

Whole games with people at some seats (random legal actions) and computers at the others, in
the plain rules and with manual counting under muggins (whose held-back events the snapshots
follow): the indices run 0, 1, 2... across the game and a seat's steps leave none out; a replay
of the record gives the same steps; the snapshot after each engine action is the engine's own
public state; no snapshot holds a card that is not on the table.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribbage.engine.events import Event, Kind
from cribbage.engine.record import Game
from cribbage.engine.rules import Rules, get_rules
from cribbage.players import make_player
from cribbage.table.public import Public
from cribbage.table.table import Step, Table, seats

MUGGINS = {"manual_count": True, "muggins": True, "muggins_play": True}
CASES = [
    pytest.param("standard", {}, (0,), id="standard-one-person"),
    pytest.param("standard", MUGGINS, (0, 1), id="standard-muggins-two-people"),
    pytest.param("three-player", MUGGINS, (0, 2), id="three-muggins"),
    pytest.param("four-player", {}, (1, 3), id="four-two-people"),
]


class Checked(Table):
    """A table that checks, after each action the engine applies, that the public table after
    its last step is the engine's (the scores always; the rest unless events are held back)."""

    def _apply(self, action: Any) -> list[Step]:
        steps = super()._apply(action)
        check_public(self)
        return steps


def check_public(table: Table) -> None:
    engine, folded = Public.of(table.state), table.tally.public
    assert (folded.scores, folded.previous) == (engine.scores, engine.previous)
    if table._held is None:
        assert folded == engine


def rules(variant: str, changes: dict[str, bool]) -> Rules:
    return get_rules(variant).replace(**changes)


def new_table(variant: str, changes: dict[str, bool], people: tuple[int, ...], seed: int) -> Table:
    r = rules(variant, changes)
    names = [None if s in people else "normal" for s in range(r.players)]
    game = Game(r, seed=seed, seats=seats(names, [seed + s for s in range(r.players)]))
    return Checked(game)


class People:
    """The people of these games: a computer's choice, but now and then (three times in a hundred) any
    legal action, so that counts go wrong and muggins is called."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.computer = make_player("normal", seed)

    def act(self, table: Table) -> list[Step]:
        seat = table.waiting_for
        assert seat is not None
        state = table.state
        if self.rng.random() < 0.03:
            return table.act(self.rng.choice(state.legal_for(seat)))
        return table.act(self.computer.choose(state.view(seat)))


def play(table: Table, seed: int) -> list[Step]:
    """The whole game: every step handed out."""
    people = People(seed)
    steps = table.run()
    while not table.over:
        steps += people.act(table)
    return steps


@pytest.mark.parametrize(("variant", "changes", "people"), CASES)
def test_indices_run_on_by_one_and_a_replay_gives_the_same_steps(
    variant: str, changes: dict[str, bool], people: tuple[int, ...]
) -> None:
    for seed in (3, 11):
        table = new_table(variant, changes, people, seed)
        persons = People(seed)
        handed = table.run()
        seen = {seat: -1 for seat in people}  # the last index each seat was shown
        decisions = 0
        while not table.over:
            for seat in people:
                mine = [step.index for step in table.recent_for(seat)] or [seen[seat]]
                assert mine == list(range(mine[0], mine[0] + len(mine)))
                assert mine[0] <= seen[seat] + 1, "a seat's steps leave none out"
                seen[seat] = max(seen[seat], mine[-1])
            if decisions % 5 == 0:  # the record replayed now and then: the same steps
                again = Table.from_json(table.game.to_json())
                for seat in people:
                    assert [s.to_json() for s in again.recent_for(seat)] == [
                        s.to_json() for s in table.recent_for(seat)
                    ]
                assert again.tally.count == table.tally.count
            decisions += 1
            handed += persons.act(table)
        assert [step.index for step in handed] == list(range(len(handed)))
        assert handed[-1].event.kind is Kind.WIN
        assert handed[-1].after == Public.of(table.state)


@pytest.mark.parametrize(("variant", "changes", "people"), CASES)
def test_no_snapshot_holds_a_card_off_the_table(
    variant: str, changes: dict[str, bool], people: tuple[int, ...]
) -> None:
    table = new_table(variant, changes, people, 5)
    on_table: set[str] = set()  # the cards shown face up so far: starters and cards played
    for step in play(table, 5):
        event: Event = step.event
        if event.kind in (Kind.STARTER, Kind.PLAY):
            on_table.update(str(card) for card in event.cards)
        after = step.to_json()["after"]
        shown = {card for _, card in after["pl"]} | ({after["st"]} if "st" in after else set())
        assert shown <= on_table
        assert set(after) <= {"ph", "d", "h", "st", "c", "pl", "run", "held", "crib", "prev"}


def test_the_snapshot_of_a_step() -> None:
    table = Table(Game(rules("standard", {}), seed=1, dealer=0), [None, make_player("weak", 2)])
    deal, discard = table.run()
    public = {"ph": "discard", "d": 0, "h": 1, "c": 0, "pl": [], "run": 0, "prev": [0, 0]}
    assert deal.to_json() == {
        "kind": "deal",
        "seat": 0,
        "index": 0,
        "scores": [0, 0],
        "after": {**public, "held": [6, 6], "crib": 0},
    }
    assert discard.to_json() == {
        "kind": "discard",
        "seat": 1,
        "index": 1,
        "scores": [0, 0],
        "after": {**public, "held": [6, 4], "crib": 2},
    }
