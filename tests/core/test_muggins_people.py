"""Muggins with more than one opponent (three players, four in partnerships): every opponent of
the counter may call, the partner may not, the first call wins, the count stands once all pass."""

from __future__ import annotations

import random

import pytest

from cribbage.engine.actions import Muggins, Pass, Play
from cribbage.engine.cards import Card
from cribbage.engine.errors import IllegalActionError, MugginsError
from cribbage.engine.events import Kind
from cribbage.engine.record import Game, RecordError
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.engine.view import Phase
from cribbage.players import make_player
from cribbage.table.table import Table
from engine_fixtures import deal_game

THREE = ("KH QH JH 2C 3C", "5S 8S 7S 4C 6C", "TD AS 2D 2S 9D")
FOUR = (*THREE, "TC 9H 9C 4H 4D")


def three() -> GameState:
    rules = get_rules("three-player", manual_count=True, muggins=True, muggins_play=True)
    return deal_game(THREE, "7D", ("2C", "4C", "9D"), rules=rules, crib_from_deck="TC")


def four() -> GameState:
    rules = get_rules("four-player", manual_count=True, muggins=True, muggins_play=True)
    return deal_game(FOUR, "7D", ("2C", "4C", "9D", "4H"), rules=rules)


def test_both_opponents_may_call_in_three_players_the_next_one_deciding_first() -> None:
    state = three()
    state.apply(Play(1, Card.parse("5S"), 0))  # nothing missed: the decision is open all the same
    assert state.pending is not None and state.pending.callers == (2, 0)
    assert state.to_act == 2  # the next opponent after the counter decides first
    assert state.legal_for(2) == state.legal_actions()
    assert Pass(0) in state.legal_for(0) and Muggins(0, 3) in state.legal_for(0)  # the later one too
    assert state.legal_for(1) == []  # never the counter
    assert [a.seat for a in state.view(0).legal] == [0] * 61  # the view offers the later opponent's


def test_every_opponent_passing_closes_the_decision() -> None:
    state = three()
    state.apply(Play(1, Card.parse("5S"), 0))
    events = state.apply(Pass(2))
    assert [e.kind for e in events] == [Kind.PASS]
    assert state.pending is not None and state.pending.callers == (0,) and state.to_act == 0
    with pytest.raises(MugginsError, match="seat 2 may not call muggins or pass: it has already passed"):
        state.apply(Muggins(2, 2))
    state.apply(Pass(0))
    assert state.pending is None and state.phase is Phase.PLAY and state.to_act == 2


def test_a_later_opponent_may_call_first_and_the_first_valid_call_wins() -> None:
    state = three()
    state.apply(Play(1, Card.parse("5S"), 0))
    state.apply(Pass(2))
    state.apply(Pass(0))
    state.apply(Play(2, Card.parse("TD"), 0))  # fifteen for 2, stated as 0
    assert state.pending is not None and state.pending.callers == (0, 1) and state.to_act == 0
    before = list(state.scores)
    events = state.apply(Muggins(1, 5))  # seat 1 calls before seat 0's turn to decide
    assert [(e.kind, e.seat, e.points) for e in events if e.kind is Kind.MUGGINS] == [(Kind.MUGGINS, 1, 2)]
    assert state.scores[1] == before[1] + 2 and state.scores[0] == before[0]
    assert state.pending is None and state.to_act == 0  # the play goes on: seat 0 plays next
    snapshot = state.clone()
    with pytest.raises(MugginsError, match="seat 1's call has already taken it"):
        state.apply(Muggins(0, 2))
    assert state == snapshot  # refused, nothing changed


def test_the_partner_may_not_call_muggins_in_partnerships() -> None:
    state = four()
    state.apply(Play(1, Card.parse("5S"), 0))
    assert state.pending is not None and state.pending.callers == (2, 0)  # seat 3 is seat 1's partner
    assert state.legal_for(3) == [] and state.legal_for(1) == []
    snapshot = state.clone()
    with pytest.raises(
        MugginsError, match="seat 3 may not call muggins or pass: it is the count of its partner"
    ):
        state.apply(Muggins(3, 1))
    with pytest.raises(MugginsError, match="seat 1 may not call muggins or pass: it is its own count"):
        state.apply(Pass(1))
    with pytest.raises(IllegalActionError, match="it is not seat 3's turn"):
        state.apply(Play(3, Card.parse("TC")))
    assert state == snapshot


def test_the_first_valid_call_wins_in_partnerships() -> None:
    state = four()
    state.apply(Play(1, Card.parse("5S"), 0))
    state.apply(Pass(0))  # the later opponent passes before its turn
    assert state.pending is not None and state.pending.callers == (2,)
    state.apply(Pass(2))
    state.apply(Play(2, Card.parse("TD"), 0))  # fifteen for 2 missed: opponents 3 then 1
    assert state.pending is not None and state.pending.callers == (3, 1)
    before = list(state.scores)
    state.apply(Muggins(1, 2))
    assert state.scores == [before[0], before[1] + 2]  # seat 1's side (with seat 3) scores it
    with pytest.raises(MugginsError, match="seat 1's call has already taken it"):
        state.apply(Muggins(3, 2))


def test_a_wrong_call_closes_the_decision_and_scores_for_the_counter() -> None:
    state = three()
    before = list(state.scores)
    events = state.apply(Play(1, Card.parse("5S"), 0))
    events = state.apply(Muggins(0, 3))  # nothing was missed: the later opponent's call is wrong
    assert [(e.kind, e.seat, e.points) for e in events if e.kind is Kind.PENALTY] == [(Kind.PENALTY, 1, 3)]
    assert state.scores[1] == before[1] + 3
    assert state.pending is None and state.to_act == 2  # closed: seat 2 plays, it cannot call now
    with pytest.raises(MugginsError, match="seat 0's call has already taken it"):
        state.apply(Pass(2))


def test_a_computer_second_opponent_calls_once_the_first_has_passed() -> None:
    state = three()
    state.apply(Play(1, Card.parse("5S"), 0))
    state.apply(Pass(2))
    state.apply(Pass(0))
    state.apply(Play(2, Card.parse("TD"), 0))
    state.apply(Pass(0))  # the first opponent lets it stand
    assert state.to_act == 1
    for level in ("weak", "normal", "strong"):
        assert make_player(level, 3).choose(state.view(1)) == Muggins(1, 2)


def test_the_table_asks_each_entitled_seat_in_turn_and_takes_a_later_persons_call() -> None:
    """People at seats 0 and 2 count nothing and never call; the computer at seat 1 mugs."""
    rules = get_rules("three-player", manual_count=True, muggins=True, muggins_play=True)
    table = Table(Game(rules, seed=11), [None, make_player("normal", 1), None])
    steps = table.run()
    state = table.state
    early = 0
    while not table.over:
        pending = state.pending
        if pending is not None and pending.callers == (2, 0):  # the computer's count
            assert table.waiting_for == 2 and table.may_act(0) and not table.may_act(1)
            steps += table.act(Pass(0))  # seat 0 decides before its turn
            early += 1
            assert state.pending is not None and state.pending.callers == (2,)
        seat = table.waiting_for
        assert seat is not None
        steps += table.act(state.legal_actions()[0])  # a pass, a count of 0, a card stated as 0
    assert early
    # Seat 2's counts are open to seat 0 (a person, first) and seat 1 (the computer, second):
    # the computer calls once the person has passed.
    mugged = [step.event for step in steps if step.event.kind is Kind.MUGGINS]
    assert any(event.seat == 1 for event in mugged)
    record = table.game.to_json()
    assert Game.from_json(record).state == state


def random_people_game(seed: int, variant: str) -> Game:
    """A game where the seats act at random, later opponents often calling or passing first."""
    rules = get_rules(variant, manual_count=True, muggins=True, muggins_play=True)
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    state = game.state
    early = 0
    while not state.is_terminal:
        if state.is_chance:
            game.apply(state.sample_chance(game.rng))
            continue
        others = [a for s in range(rules.players) if s != state.to_act for a in state.legal_for(s)]
        legal = state.legal_actions()
        if others and rng.random() < 0.5:
            action = rng.choice(others)
            early += 1
        elif isinstance(legal[0], Pass):
            action = legal[0] if rng.random() < 0.6 else rng.choice(legal[1:6])
        else:
            action = rng.choice(legal)
        game.apply(action)
    assert early >= 3
    return game


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
def test_a_record_with_early_calls_replays_to_the_same_game(variant: str) -> None:
    game = random_people_game(5, variant)
    data = game.to_json()
    again = Game.from_json(data)
    assert again.state == game.state and again.to_json() == data


def mugged(game: Game) -> bool:
    """Whether a muggins call in the game took points (from a later opponent's call, early)."""
    state = GameState(game.rules, dealer=game.first_dealer)
    early = False
    for action in game.actions:
        to_act = state.to_act
        events = state.apply(action)
        if isinstance(action, Muggins) and action.seat != to_act:
            early = early or any(e.kind is Kind.MUGGINS for e in events)
    return early


def test_the_review_judges_each_opponents_call_and_what_the_first_call_took() -> None:
    from cribbage.study.review import review_game

    game = next(g for g in map(lambda s: random_people_game(s, "three-player"), range(50)) if mugged(g))
    review = review_game(game, [0, 1, 2])
    decided = [(d.seat, d.counter) for d in review.decisions if d.what == "muggins"]
    # Every call and pass is judged as its own seat's decision, early ones included.
    state = GameState(game.rules, dealer=game.first_dealer)
    expected, taken = [], []
    for action in game.actions:
        counter = None if state.pending is None else state.pending.counter
        events = state.apply(action)
        if isinstance(action, (Muggins, Pass)):
            expected.append((action.seat, counter))
        taken += [e.points for e in events if e.kind is Kind.MUGGINS]
    assert decided == expected
    counts = [d for d in review.decisions if d.what in ("hand", "crib", "play") and d.taken is not None]
    assert sum(d.taken or 0 for d in counts) == sum(taken) > 0


def test_records_made_before_the_option_keep_the_next_opponent_rule() -> None:
    """A three-player record written before ``muggins_all_opponents`` existed (its rules have
    no such key) replays by the rule it was played by: the next opponent's pass closed the
    decision.  The same record under the new rule is refused, naming the action."""
    rules = get_rules(
        "three-player", manual_count=True, muggins=True, muggins_play=True, muggins_all_opponents=False
    )
    game = Game(rules, seed=3)
    players = [make_player("normal", seat) for seat in range(3)]
    Table(game, players).run()
    record = game.to_json()
    passes = [a for a in record["actions"] if a["type"] == "pass"]
    assert passes, "the game has muggins decisions"
    old = {**record, "rules": {k: v for k, v in record["rules"].items() if k != "muggins_all_opponents"}}
    assert Game.from_json(old).state.result == game.state.result
    new = {**record, "rules": {**record["rules"], "muggins_all_opponents": True}}
    with pytest.raises(RecordError, match="action"):
        Game.from_json(new)
    assert get_rules("three-player").muggins_all_opponents  # new games: every opponent
