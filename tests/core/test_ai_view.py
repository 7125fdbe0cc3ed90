"""Views only: no computer player or hint can learn a hidden card.

Two kinds of proof: every card a view mentions (in any field, or in its JSON) is one its seat
may see; and players given views of two games that differ only in hidden cards decide the same.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cribbage.players.levels  # noqa: F401  (registers the levels)
from cribbage.engine.actions import Action, Count, Deal, Discard, Play, Starter
from cribbage.engine.cards import DECK, Card, parse_cards
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.engine.view import Phase, SeatView
from cribbage.players import make_player

LEVELS = ("weak", "normal", "strong")
SOURCES = [
    *sorted((Path(__file__).resolve().parents[2] / "src" / "cribbage" / "ai").glob("*.py")),
    Path(__file__).resolve().parents[2] / "src" / "cribbage" / "players" / "levels.py",
    Path(__file__).resolve().parents[2] / "src" / "cribbage" / "cli" / "hint.py",
]


def visible(state: GameState, seat: int) -> set[Card]:
    """The cards ``seat`` may know: its deal, the starter, the cards played and shown."""
    cards = set(state.dealt[seat]) if state.dealt else set()
    if state.starter is not None:
        cards.add(state.starter)
    cards.update(c for _, c in state.played)
    cards.update(state.sequence)
    for s, what in state.show_order()[: state.show_step] if state.dealer is not None else ():
        cards.update(state.crib if what == "crib" else state.kept[s])
    if state.phase is Phase.SHOW and state.show_step >= state.players:  # the crib is turned up
        cards.update(state.crib)
    return cards


def cards_in(view: SeatView) -> set[Card]:
    """Every card a view holds, in its fields, its legal actions and its JSON."""
    found: set[Card] = set(view.hand) | set(view.kept) | set(view.discards) | set(view.sequence)
    found |= {c for _, c in view.played}
    found |= {c for _, _, cards in view.shown for c in cards} | set(view.crib)
    if view.starter is not None:
        found.add(view.starter)
    for action in view.legal:
        found |= set(getattr(action, "cards", ()))
        if isinstance(action, Play):
            found.add(action.card)
    text = json.dumps(view.to_json())
    found |= {c for c in DECK if f'"{c}"' in text}
    return found


def random_states(variant: str, seed: int, **options: object) -> list[GameState]:
    """Copies of a random game at every step."""
    rng = random.Random(seed)
    state = GameState(get_rules(variant, **options))
    states = []
    while not state.is_terminal:
        if state.is_chance:
            state.apply(state.sample_chance(rng))
        else:
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("standard", {}),
        ("three-player", {}),
        ("four-player", {}),
        ("standard", {"manual_count": True, "muggins": True}),
    ],
)
def test_a_view_holds_no_hidden_card(variant: str, options: dict[str, object]) -> None:
    for state in random_states(variant, 5, target=61, **options)[::3]:
        for seat in range(state.players):
            view = state.view(seat)
            assert cards_in(view) <= visible(state, seat)


def test_the_ai_never_touches_the_game_state() -> None:
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert "GameState" not in text, f"{path.name} mentions GameState"
        assert "view.state" not in text


# --------------------------------------------------------------------------- same view, same choice

MINE = "5H 5C 6D JS QH 2C"


def game(theirs: str, starter: str, their_discard: str, played: tuple[str, ...] = ()) -> GameState:
    """Seat 1 (the pone, the player tested) holds MINE; the dealer, seat 0, holds ``theirs``."""
    state = GameState(get_rules("standard", manual_count=True, muggins=True), dealer=0)
    state.apply(Deal((parse_cards(theirs), parse_cards(MINE))))
    state.apply(Discard(1, parse_cards("6D 2C")))
    state.apply(Discard(0, parse_cards(their_discard)))
    state.apply(Starter(Card.parse(starter)))
    for card in played:
        state.apply(Play(state.to_act, Card.parse(card)))
    return state


# Two deals that differ only in what the pone cannot see: the dealer's other cards, its
# discards, and so the pack; the dealer's played card is the same.
TWINS = (
    ("KD 9C 8S 7H 3S AD", "3S AD"),
    ("KD 4C 4S TC AS 8C", "AS 8C"),
)


def decisions(level: str, states: list[GameState]) -> list[Action]:
    chosen = []
    for state in states:
        player = make_player(level, 11)
        view = state.view(state.to_act)
        chosen.append(player.choose(view))
    return chosen


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_decision_in_the_play(level: str) -> None:
    first = [game(hand, "9D", thrown, ("5C", "KD")) for hand, thrown in TWINS]
    assert first[0].view(1) == first[1].view(1)
    assert len(set(decisions(level, first))) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_decision_at_the_discard(level: str) -> None:
    states = []
    for hand, _ in TWINS:
        state = GameState(get_rules("standard"), dealer=0)
        state.apply(Deal((parse_cards(hand), parse_cards(MINE))))
        states.append(state)
    assert states[0].view(1) == states[1].view(1)
    assert len(set(decisions(level, states))) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_count_in_the_show(level: str) -> None:
    states = []
    for hand, thrown in (("KD 9C 8S 7H 3S AD", "3S AD"), ("KD 9C 8S 7H 4C TC", "4C TC")):
        state = game(hand, "9D", thrown)
        while state.phase is Phase.PLAY:
            state.apply(Play(state.to_act, min(a.card for a in state.legal_actions() if isinstance(a, Play))))
        states.append(state)
    views = [s.view(1) for s in states]
    assert views[0] == views[1] and isinstance(views[0].legal[0], Count)
    assert len(set(decisions(level, states))) == 1
