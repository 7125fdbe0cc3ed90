"""The whole tournament as a value (cribbage.tournament.event; docs/tournaments.md, "The event"):
from the field and its format, the tables that come next; played out with random results and
withdrawals over fields of 2 to 40, it always ends, every entrant still playing has its number of
qualifying games, nobody meets an opponent a third time, nobody who withdrew qualifies, and the
champion won its matches."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.tournament import PlayoffFormat
from cribbage.tournament.errors import TournamentError
from cribbage.tournament.event import (
    CONSOLATION,
    PLAYOFFS,
    QUALIFYING,
    EventFormat,
    EventTable,
    TableOutcome,
    TournamentEvent,
)


def play(event: TournamentEvent, rng: random.Random, withdraw: float = 0.0) -> TournamentEvent:
    """Play the event to its end with random results (a skunk now and then), storing what
    :meth:`TournamentEvent.due` asks for each time, and withdrawing an entrant now and then."""
    for _ in range(500):
        if event.finished:
            return event
        due = event.due()
        for table, outcome in due:
            event = event.with_tables([table])
            if outcome is not None:
                event = event.decide(table, outcome)
        assert event.due() == (), "what is due is due once"
        playing = [e for e in event.entrants if e not in event.withdrawn]
        if withdraw and rng.random() < withdraw and len(playing) > 2:
            gone = rng.choice(playing)
            for table, outcome in event.forfeits_on_withdrawal(gone):
                event = event.decide(table, outcome)
            event = event.withdraw(gone)
            continue
        for table in event.undecided():
            assert table.second is not None
            winner, loser = (table.first, table.second) if rng.random() < 0.5 else (table.second, table.first)
            event = event.decide(table, TableOutcome(winner, loser, 121, rng.randrange(60, 121)))
    raise AssertionError("the event did not end")


@settings(max_examples=40, deadline=None)
@given(
    field=st.integers(2, 40),
    games=st.integers(1, 6),
    pairing=st.sampled_from(["rotation", "swiss"]),
    best_of=st.sampled_from([None, 1, 3]),
    consolation=st.integers(0, 3),
    withdraw=st.sampled_from([0.0, 0.2]),
    seed=st.integers(0, 10**6),
)
def test_any_event_is_played_to_its_end_by_the_rules(
    field: int, games: int, pairing: str, best_of: int | None, consolation: int, withdraw: float, seed: int
) -> None:
    capacity = field - 1 if field % 2 == 0 else field
    games = min(games, capacity if pairing == "swiss" else 2 * capacity)
    playoffs = None if best_of is None else PlayoffFormat(best_of)
    event = TournamentEvent(tuple(range(1, field + 1)), EventFormat(games, pairing, playoffs, consolation))
    event = play(event, random.Random(seed), withdraw)
    qualifying = [t for t, _ in event.stage_tables(QUALIFYING)]
    assert event.rounds_made(QUALIFYING) == games
    meetings = Counter(frozenset(t.sides()) for t in qualifying if t.second is not None)
    assert not meetings or max(meetings.values()) <= 2, "never a third meeting"
    for line in event.standings(QUALIFYING):
        if line.entrant not in event.withdrawn:
            assert line.played + line.byes == games, "every entrant still playing has its games"
    qualifiers = event.qualifiers()
    champion = event.champion(PLAYOFFS)
    if playoffs is None:
        assert not qualifiers and champion == event.standings(QUALIFYING)[0].entrant
    else:
        assert champion in qualifiers
        if champion in event.withdrawn:  # forfeits every match against one still playing
            assert set(qualifiers) <= event.withdrawn or len(qualifiers) == 1
        bracket = event.bracket()
        assert bracket is not None and bracket.champion == champion
    if event.rounds_made(CONSOLATION):
        assert not set(t.first for t, _ in event.stage_tables(CONSOLATION)) & set(qualifiers)


def test_a_rotation_with_a_bye_makes_each_round_once_its_last_table_is_decided() -> None:
    event = TournamentEvent(("ann", "bob", "cy"), EventFormat(games=3, playoffs=None))
    first = event.next_tables()
    assert [(t.first, t.second) for t in first] == [("bob", "cy"), ("ann", None)]
    event = event.with_tables(first)
    assert event.next_tables() == (), "round 2 waits for round 1's game"
    event = event.decide(first[0], TableOutcome("cy", "bob", 121, 80))
    assert [(t.round, t.first, t.second) for t in event.next_tables()] == [(2, "cy", "ann"), (2, "bob", None)]
    line = {s.entrant: s for s in event.standings()}
    assert (line["cy"].game_points, line["cy"].skunks, line["cy"].spread) == (3, 1, 41)
    assert (line["ann"].game_points, line["ann"].byes) == (2, 1)


def test_a_playoff_match_is_played_game_after_game_until_it_is_won() -> None:
    event = TournamentEvent((1, 2, 3, 4, 5, 6, 7, 8), EventFormat(games=1, playoffs=PlayoffFormat(3)))
    event = event.with_tables(event.next_tables())
    for table in event.undecided():
        event = event.decide(table, TableOutcome(min(table.sides()), max(table.sides()), 121, 100))
    # Eight entrants: two qualify (one in four), a final best of 3.
    (game1,) = event.next_tables()
    assert game1 == EventTable(PLAYOFFS, 1, 1, 1, event.qualifiers()[0], event.qualifiers()[1])
    event = event.with_tables([game1]).decide(game1, TableOutcome(game1.second, game1.first, 121, 90))
    (game2,) = event.next_tables()
    assert game2.game == 2 and event.champion() is None
    event = event.with_tables([game2]).decide(game2, TableOutcome(game2.second, game2.first, 121, 90))
    assert event.next_tables() == () and event.finished and event.champion() == game1.second


def test_a_withdrawal_forfeits_and_a_decided_table_cannot_be_decided_again() -> None:
    event = TournamentEvent((1, 2, 3, 4), EventFormat(games=2, playoffs=None))
    event = event.with_tables(event.next_tables())
    mine = next(t for t in event.undecided() if 1 in t.sides())
    ((table, outcome),) = event.forfeits_on_withdrawal(1)
    assert table == mine and outcome.forfeit and outcome.loser == 1 and outcome.spread == 0
    event = event.decide(table, outcome).withdraw(1)
    with pytest.raises(TournamentError):
        event.decide(table, TableOutcome(1, table.second or 2, 121, 0))
    other = next(t for t in event.undecided())
    event = event.decide(other, TableOutcome(other.first, other.second, 121, 100))
    due = event.due()
    assert all(outcome is not None and outcome.loser == 1 for t, outcome in due if 1 in t.sides())
