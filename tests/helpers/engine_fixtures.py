"""The engine's tests set up games with chosen cards: the hands dealt, the discards made and the
starter cut (:func:`deal_game`), then cards played in turn (:func:`play`)."""

from __future__ import annotations

from collections.abc import Sequence

from cribbage.engine.actions import Deal, Discard, Play, Starter
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.rules import Rules, get_rules
from cribbage.engine.state import GameState


def deal_game(
    hands: Sequence[str],
    starter: str,
    discards: Sequence[str],
    rules: Rules | None = None,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    crib_from_deck: str = "",
) -> GameState:
    """A game at the start of the play: the given hands dealt, discards made, the starter cut."""
    state = GameState(rules or get_rules("standard"), dealer=dealer)
    if scores is not None:
        state.scores = list(scores)
        state.previous_scores = list(scores)
    state.apply(Deal(tuple(parse_cards(h) for h in hands), parse_cards(crib_from_deck)))
    n = state.players
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        state.apply(Discard(seat, parse_cards(discards[seat])))
    state.apply(Starter(Card.parse(starter)))
    return state


def play(state: GameState, *cards: str) -> list[object]:
    """Play cards in turn order (each by the seat to act); returns all events."""
    events: list[object] = []
    for text in cards:
        events += state.apply(Play(state.to_act, Card.parse(text)))
    return events
