"""The deal: its chance steps drawn (:func:`draw_chance`: the cut for deal, the deal, the
starter), their transitions and the discards to the crib (his heels, the first-hand bonus), and
who deals the next game (:func:`next_dealer`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import Action, CutForDeal, Deal, Discard, Starter
from .cards import DECK, JACK
from .errors import IllegalActionError
from .events import Event, Kind
from .points import add_points
from .scoring import FIRST_HAND_BONUS, HEELS, Combo
from .view import Phase

if TYPE_CHECKING:
    from .state import GameState


def do_cut(state: GameState, action: CutForDeal, events: list[Event]) -> None:
    cards = tuple(action.cards)  # a list is accepted too
    by_value = state.rules.cut_ties == "value"
    values = [c.value if by_value else c.rank for c in cards]
    best = min(values) if state.rules.first_dealer == "low" else max(values)
    if values.count(best) > 1:
        events.append(Event(Kind.RECUT, cards=cards))
        return
    state.cut_cards = cards
    state.dealer = state.first_dealer = values.index(best)
    events.append(Event(Kind.CUT, seat=state.dealer, cards=cards))
    state.phase = Phase.DEAL


def do_deal(state: GameState, action: Deal, events: list[Event]) -> None:
    n = state.players
    state.hand_number += 1
    state.dealt = [tuple(h) for h in action.hands]
    state.hands = [list(h) for h in action.hands]
    state.kept = [() for _ in range(n)]
    state.discards = [() for _ in range(n)]
    state.crib = list(action.crib)
    state.starter = None
    state.count = 0
    state.sequence = []
    state.played = []
    state.last_player = None
    state.gone = 0
    state.show_step = 0
    state.pending = None
    state.phase = Phase.DISCARD
    events.append(Event(Kind.DEAL, seat=state.dealer))
    if state.hand_number == 1 and state.rules.first_hand_bonus:
        add_points(
            state, state.pone, state.rules.first_hand_bonus, events, kind=Kind.SCORE, detail=FIRST_HAND_BONUS
        )


def do_discard(state: GameState, action: Discard, events: list[Event]) -> None:
    seat = action.seat
    hand = state.hands[seat]
    for card in action.cards:
        hand.remove(card)
    state.discards[seat] = tuple(action.cards)
    state.kept[seat] = tuple(hand)
    state.crib.extend(action.cards)
    events.append(Event(Kind.DISCARD, seat=seat))
    if all(state.discards):
        state.phase = Phase.STARTER


def do_starter(state: GameState, action: Starter, events: list[Event]) -> None:
    state.starter = action.card
    events.append(Event(Kind.STARTER, cards=(action.card,)))
    state.phase = Phase.PLAY
    state.turn = state.pone
    assert state.dealer is not None
    if action.card.rank == JACK:
        add_points(
            state,
            state.dealer,
            2,
            events,
            kind=Kind.SCORE,
            detail=HEELS,
            cards=(action.card,),
            combos=(Combo(HEELS, (action.card,), 2),),
        )


def draw_chance(state: GameState, rng: random.Random) -> Action:
    """A random outcome of the pending chance step, drawn from ``rng`` only."""
    phase = state.phase
    if phase is Phase.CUT:
        return CutForDeal(tuple(rng.sample(DECK, state.players)))
    if phase is Phase.DEAL:
        n, size = state.players, state.rules.deal
        deck = rng.sample(DECK, n * size + state.rules.crib_from_deck)
        assert state.dealer is not None
        first = state.dealer + 1  # dealt one at a time from the dealer's left
        hands = tuple(tuple(deck[(seat - first) % n : n * size : n]) for seat in range(n))
        return Deal(hands, tuple(deck[n * size :]))
    if phase is Phase.STARTER:
        return Starter(rng.choice(state.deck()))
    raise IllegalActionError(f"no chance step now (phase {phase.value})")


def next_dealer(state: GameState) -> int | None:
    """Who deals the first hand of the next game of a match (or a rematch), after ``state``, as
    its rules say (:attr:`Rules.next_dealer`): the loser's first seat (``"loser"``, ACC: side
    ``n``'s first seat is seat ``n``, partners sit ``n`` and ``n + 2``), the seat after the
    first dealer of this game (``"alternate"``), or None: cut for deal (``"cut"``, and after a
    game that ended without a result: forfeited or abandoned).

    >>> import random
    >>> from cribbage.engine.rules import get_rules
    >>> from cribbage.engine.state import GameState
    >>> state = GameState(get_rules("standard"), dealer=0)
    >>> next_dealer(state) is None  # not over yet: cut for deal
    True
    >>> rng = random.Random(3)
    >>> while not state.is_terminal:
    ...     action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
    ...     _ = state.apply(action)
    >>> state.result is not None and next_dealer(state) == state.result.loser  # the loser deals
    True
    """
    result, rule = state.result, state.rules.next_dealer
    if result is None or rule == "cut":
        return None
    if rule == "loser":
        return result.loser
    first = state.first_dealer
    return None if first is None else (first + 1) % state.players
