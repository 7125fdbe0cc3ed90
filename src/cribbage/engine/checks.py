"""The checks of an action before :meth:`GameState.apply` changes anything: anything may come in
(a player's or a record's action, or garbage), and each refusal is a
:class:`~cribbage.engine.errors.CribbageError` naming the problem."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import (
    CHANCE_ACTIONS,
    MAX_CLAIM,
    PLAYER_ACTIONS,
    Count,
    CutForDeal,
    Deal,
    Discard,
    Muggins,
    Pass,
    Play,
    Starter,
    brief_repr,
)
from .cards import Card, format_cards
from .errors import CardError, CountError, IllegalActionError, MugginsError
from .points import Pending
from .view import CHANCE, Phase

if TYPE_CHECKING:
    from .state import GameState

ACTION_TYPES: Final[frozenset[type]] = frozenset(CHANCE_ACTIONS + PLAYER_ACTIONS)
"""The action classes themselves: a subclass is not an action (types are checked strictly)."""
CARD_LISTS: Final = (tuple, list)
"""What may hold the cards of a chance action."""


def check_cards(cards: object, size: int, what: str, used: int = 0) -> int:
    """Check the cards of a chance action: a tuple (or list) of ``size`` :class:`Card` objects,
    none of them among ``used`` (card bits) nor repeated.  Returns ``used`` with their bits."""
    if not isinstance(cards, CARD_LISTS) or type(cards) not in CARD_LISTS:  # no subclasses
        raise CardError(f"{what} must be a tuple of cards, not {brief_repr(cards)}")
    if len(cards) != size:
        raise CardError(
            f"{what} must be {size} cards, not {len(cards)}: {brief_repr(cards)}",
            problem="count",
            count=len(cards),
            allowed=(size,),
        )
    for card in cards:
        if type(card) is not Card:
            raise CardError(f"{what} holds {brief_repr(card)}, which is not a Card")
        if used & card.bit:
            raise CardError(f"{card} is dealt twice", problem="duplicate", card=str(card))
        used |= card.bit
    return used


def check(state: GameState, action: object) -> None:
    """Raise a :class:`CribbageError` naming why ``action`` may not be applied now.

    Anything may come in (a player's or a record's action, or garbage), so every type is
    checked strictly before any value is used: a ``bool`` is no seat, count or claim, text is
    no card, and a subclass is no action.
    """
    if type(action) not in ACTION_TYPES:
        raise IllegalActionError(f"not an action: {brief_repr(action)}")
    if state.phase is Phase.OVER:
        raise IllegalActionError("the game is over")
    if isinstance(action, CHANCE_ACTIONS):
        _check_chance(state, action)
        return
    if not isinstance(action, PLAYER_ACTIONS):  # never: all the types are known (for mypy)
        raise IllegalActionError(f"not an action: {brief_repr(action)}")
    _check_seat(state, action)
    if isinstance(action, (Muggins, Pass)):
        _check_call(state, action)
    else:
        _check_turn(state, action)
        if isinstance(action, Discard):
            _check_discard(state, action)
        elif isinstance(action, Play):
            _check_play(state, action)
        else:
            _check_count(state, action)


def _check_seat(state: GameState, action: Discard | Play | Count | Muggins | Pass) -> None:
    """The seat is one of the game's, and no chance step comes first."""
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalActionError(f"no seat {brief_repr(seat)} in a {state.players}-player game")
    if state.to_act == CHANCE:
        name = type(action).__name__
        raise IllegalActionError(f"{name} during the {state.phase.value}: a chance step comes first")


def _check_call(state: GameState, action: Muggins | Pass) -> None:
    """A call or a pass needs a count awaiting the muggins decision."""
    pending = state.pending
    if pending is not None:
        _check_muggins(state, action, pending)
        return
    closed = state.closed_by
    if closed is not None:
        raise MugginsError(f"there is no count to call muggins on: seat {closed}'s call has already taken it")
    raise MugginsError("there is no count to call muggins on")


def _check_turn(state: GameState, action: Discard | Play | Count) -> None:
    """It is the seat's turn (a seat still to discard may discard before the seats ahead of it),
    and no count awaits the muggins decision."""
    seat, actor = action.seat, state.to_act
    if isinstance(action, Discard) and state.phase is Phase.DISCARD and state.discards[seat]:
        raise IllegalActionError(f"seat {seat} has discarded already")
    if seat != actor and not (isinstance(action, Discard) and state.owes_discard(seat)):
        raise IllegalActionError(f"it is not seat {seat}'s turn (seat {actor} is to act)")
    if state.pending is not None:
        raise IllegalActionError(f"seat {seat} must call muggins or pass first")


def _check_discard(state: GameState, action: Discard) -> None:
    seat, phase = action.seat, state.phase
    if phase is not Phase.DISCARD:
        raise IllegalActionError(f"cannot discard during the {phase.value}")
    cards = action.cards
    if type(cards) is not tuple:
        raise IllegalActionError(f"a discard's cards must be a tuple of cards, not {brief_repr(cards)}")
    if len(cards) != state.rules.discard:
        raise IllegalActionError(f"discard {state.rules.discard} cards, not {len(cards)}")
    for card in cards:
        if type(card) is not Card:
            raise IllegalActionError(f"not a card: {brief_repr(card)}")
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"duplicate card in discard {format_cards(cards)}")
    for card in cards:
        if card not in state.hands[seat]:
            raise IllegalActionError(f"seat {seat} does not hold {card}")


def _check_play(state: GameState, action: Play) -> None:
    seat, phase = action.seat, state.phase
    if phase is not Phase.PLAY:
        raise IllegalActionError(f"cannot play a card during the {phase.value}")
    card = action.card
    if type(card) is not Card:
        raise IllegalActionError(f"not a card: {brief_repr(card)}")
    if card not in state.hands[seat]:
        raise IllegalActionError(f"seat {seat} does not hold {card}")
    if state.count + card.value > 31:
        raise CountError(
            f"{card} would take the count from {state.count} past 31",
            card=str(card),
            count=state.count + card.value,
        )
    claim = action.claim
    if state.rules.muggins_play:
        if not (type(claim) is int and 0 <= claim <= MAX_CLAIM):
            raise IllegalActionError(
                f"state the points of the play: a claim of 0 to {MAX_CLAIM}, not {brief_repr(claim)}"
            )
    elif claim is not None:
        raise IllegalActionError("claims are only stated with muggins in the play")


def _check_count(state: GameState, action: Count) -> None:
    if state.phase is not Phase.SHOW or not state.rules.manual_count:
        raise IllegalActionError("counts are stated only in the show with manual counting")
    points = action.points
    if not (type(points) is int and 0 <= points <= MAX_CLAIM):
        raise IllegalActionError(f"a count must be 0 to {MAX_CLAIM} points, not {brief_repr(points)}")


def _check_muggins(state: GameState, action: Muggins | Pass, pending: Pending) -> None:
    """A call or a pass on the count awaiting the muggins decision: any opponent of the
    counter who has not passed may make it, before its turn too."""
    seat = action.seat
    if seat not in pending.callers:
        if seat == pending.counter:
            why = "it is its own count"
        elif state.side_of(seat) == state.side_of(pending.counter):
            why = f"it is the count of its partner, seat {pending.counter}"
        else:
            why = "it has already passed on this count"
        raise MugginsError(f"seat {seat} may not call muggins or pass: {why}")
    if isinstance(action, Muggins):
        points = action.points
        if not (type(points) is int and 1 <= points <= MAX_CLAIM):
            raise MugginsError(f"a muggins call must be 1 to {MAX_CLAIM} points, not {brief_repr(points)}")


def _check_chance(state: GameState, action: CutForDeal | Deal | Starter) -> None:
    phase = state.phase
    if isinstance(action, CutForDeal):
        if phase is not Phase.CUT:
            raise IllegalActionError(f"no cut for deal during the {phase.value}")
        check_cards(action.cards, state.players, "the cut for deal")
    elif isinstance(action, Deal):
        if phase is not Phase.DEAL:
            raise IllegalActionError(f"no deal during the {phase.value}")
        hands = action.hands
        if not isinstance(hands, CARD_LISTS) or type(hands) not in CARD_LISTS or len(hands) != state.players:
            raise CardError(f"deal {state.players} hands (a tuple of hands), not {brief_repr(hands)}")
        used = 0
        for hand in hands:
            used = check_cards(hand, state.rules.deal, "a hand", used)
        check_cards(action.crib, state.rules.crib_from_deck, "the crib", used)
    else:
        if phase is not Phase.STARTER:
            raise IllegalActionError(f"no starter during the {phase.value}")
        card = action.card
        if type(card) is not Card or card not in state.deck():
            raise IllegalActionError(f"the starter {brief_repr(card)} is not a card of the deck")
