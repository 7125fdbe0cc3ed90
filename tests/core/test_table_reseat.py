"""Table.reseat: a computer takes a seat of a game in progress, and the table is the one a replay
of its record gives.

Each case plays a seeded game with the people taking the first legal action, re-seats a seat
midway, and checks the re-seated table against ``Table.from_json`` of its record: the same
scores, steps and learned readings now, and the same actions to the end.
"""

from __future__ import annotations

from typing import Any

import pytest

from cribbage.engine.actions import Muggins, Pass
from cribbage.engine.errors import CribbageError, IllegalActionError
from cribbage.engine.events import Kind
from cribbage.engine.record import Game, SeatRecord
from cribbage.engine.rules import get_rules
from cribbage.players import make_player
from cribbage.table.table import Table, seats


def table_of(variant: str, players: list[str | None], **options: Any) -> Table:
    rules = get_rules(variant, **options)
    game = Game(
        rules,
        seed=31,
        names=[f"P{s}" for s in range(rules.players)],
        seats=seats(players, range(9, 9 + len(players))),
    )
    table = Table(game)
    table.run()
    return table


def play_until(table: Table, done: Any) -> None:
    """The people take their first legal action until ``done(table)`` (or the game ends)."""
    while (seat := table.waiting_for) is not None and not done(table):
        table.act(table.state.view(seat).legal[0])


def hands_over(table: Table) -> int:
    return sum(step.event.kind is Kind.HAND_OVER for step in table.recent)


def assert_same_tables(table: Table, replayed: Table) -> None:
    """The same now (scores, steps, what each computer learned) and the same to the end."""
    assert replayed.game.to_json() == table.game.to_json()
    assert replayed.tally.scores == table.tally.scores
    if None in table.players:
        assert replayed.recent == table.recent
    else:  # nobody left to act: a replay keeps every step, the re-seated table those it kept
        assert table.recent and replayed.recent[-len(table.recent) :] == table.recent
    assert replayed.waiting_for == table.waiting_for
    for seat in range(table.rules.players):
        mine, theirs = table.players[seat], replayed.players[seat]
        assert type(mine) is type(theirs)
        assert vars(mine).get("reader") == vars(theirs).get("reader") if mine is not None else True
        if mine is None:
            assert replayed.recent_for(seat) == table.recent_for(seat)
    for twin in (table, replayed):
        twin.run()
        play_until(twin, lambda _: False)
        assert twin.over
    assert replayed.game.to_json() == table.game.to_json()


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_computer_takes_the_last_persons_seat_knowing_the_hands_over(level: str) -> None:
    table = table_of("standard", [None, "normal"])
    play_until(table, lambda t: t.state.hand_number >= 4)
    assert table.state.hand_number >= 3, "hands are over for the new computer to learn from"
    table.reseat(0, SeatRecord(level, 4), name="Computer")
    assert table.waiting_for is None and table.game.seats[0] == SeatRecord(level, 4)
    assert table.game.names == ("Computer", "P1")
    assert table.recent, "the steps kept for the person are still there to show"
    assert_same_tables(table, Table.from_json(table.game.to_json()))


def test_the_computer_learned_what_a_replay_teaches_it() -> None:
    table = table_of("standard", [None, "strong"])
    play_until(table, lambda t: t.state.hand_number >= 3)
    table.reseat(0, SeatRecord("strong", 4))
    fresh = make_player("strong", 4)
    assert vars(table.players[0])["reader"] != vars(fresh)["reader"], "it learned from the hands over"
    replayed = Table.from_json(table.game.to_json())
    assert vars(table.players[0])["reader"] == vars(replayed.players[0])["reader"]


def test_one_of_two_people_leaves_and_the_other_keeps_their_steps() -> None:
    table = table_of("four-player", [None, "weak", None, "normal"])
    play_until(table, lambda t: t.state.hand_number >= 2 and t.waiting_for == 2)
    before = table.recent_for(0)
    table.reseat(2, SeatRecord("weak", 5), name="Computer")
    assert table.recent_for(0) == before
    with pytest.raises(CribbageError, match="seat 2 is not a person's"):
        table.recent_for(2)
    assert table.waiting_for is None  # the table waited for seat 2: its computer moves at once
    steps = table.run()
    assert steps and table.waiting_for in (0, None)
    assert_same_tables(table, Table.from_json(table.game.to_json()))


def test_a_computer_replaces_a_computer() -> None:
    table = table_of("standard", [None, "weak"])
    play_until(table, lambda t: t.state.hand_number >= 2)
    table.reseat(1, SeatRecord("normal", 6))
    assert table.waiting_for == 0
    assert_same_tables(table, Table.from_json(table.game.to_json()))


def test_the_computer_decides_an_open_muggins_call_of_the_person_who_left() -> None:
    table = table_of("standard", [None, None], manual_count=True, muggins=True, muggins_play=True)
    deciding = lambda t: t.waiting_for == 1 and isinstance(t.state.view(1).legal[-1], (Muggins, Pass))  # noqa: E731
    play_until(table, deciding)
    assert deciding(table) and table.state.pending is not None
    held = table.recent_for(0)
    table.reseat(1, SeatRecord("normal", 7))
    assert table.recent_for(0) == held and table.waiting_for is None
    table.run()
    assert table.state.pending is None or table.waiting_for == 0
    assert_same_tables(table, Table.from_json(table.game.to_json()))


@pytest.mark.parametrize(
    ("seat", "player", "error", "match"),
    [
        (2, SeatRecord("weak", 1), CribbageError, "no seat 2 at a table of 2"),
        (-1, SeatRecord("weak", 1), CribbageError, "no seat -1"),
        (True, SeatRecord("weak", 1), CribbageError, "no seat True"),
        ("0", SeatRecord("weak", 1), CribbageError, "no seat '0'"),
        (0, None, CribbageError, "goes to a computer player, not None"),
        (0, SeatRecord("grandmaster", 1), CribbageError, "unknown player 'grandmaster'"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(seat: Any, player: Any, error: type, match: str) -> None:
    table = table_of("standard", [None, "weak"])
    play_until(table, lambda t: t.state.hand_number >= 2)
    record, players, recent = table.game.to_json(), list(table.players), table.recent_for(0)
    with pytest.raises(error, match=match):
        table.reseat(seat, player)
    assert table.game.to_json() == record and table.players == players and table.recent_for(0) == recent


def test_a_record_without_seats_or_names_and_a_game_over_are_refused() -> None:
    bare = Table(Game(get_rules("standard", target=31), seed=2), [None, make_player("weak", 1)])
    bare.run()
    with pytest.raises(CribbageError, match="does not say who sits"):
        bare.reseat(0, SeatRecord("weak", 3))
    named = table_of("standard", [None, "weak"])
    named.game.names = ()
    with pytest.raises(CribbageError, match="names nobody"):
        named.reseat(0, SeatRecord("weak", 3), name="Computer")
    named.reseat(0, SeatRecord("weak", 3))  # without a name: the record keeps no names
    named.run()
    assert named.over
    with pytest.raises(IllegalActionError, match="the game is over"):
        named.reseat(1, SeatRecord("normal", 3))
