"""The actions of a game: the chance steps (:class:`CutForDeal`, :class:`Deal`, :class:`Starter`)
and the players' choices (:class:`Discard`, :class:`Play`, :class:`Count`, :class:`Muggins`,
:class:`Pass`), their JSON form, and the actions offered again and again, made once."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from functools import cache
from operator import is_
from typing import Any, Final, TypeAlias

from .cards import Card, parse_cards
from .errors import CardError, IllegalActionError

__all__ = [
    "CHANCE_ACTIONS",
    "MAX_CLAIM",
    "Action",
    "Count",
    "CutForDeal",
    "Deal",
    "Discard",
    "Muggins",
    "Pass",
    "Play",
    "Starter",
    "action_from_json",
]

MAX_CLAIM: Final = 60
"""The largest count a player may state (over-claims are corrected to the true count)."""


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """Chance: each seat cuts one card to decide the first dealer."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "cut", "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the hands dealt to each seat, and the cards dealt straight to the crib."""

    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "deal",
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "crib": [str(c) for c in self.crib],
        }


@dataclass(frozen=True, slots=True)
class Starter:
    """Chance: the starter card cut from the rest of the deck."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "starter", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Discard:
    """A seat throws cards to the crib."""

    seat: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "seat": self.seat, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays a card onto the count; ``claim`` is the points it states (manual pegging)."""

    seat: int
    card: Card
    claim: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "play", "seat": self.seat, "card": str(self.card)}
        if self.claim is not None:
            data["claim"] = self.claim
        return data


@dataclass(frozen=True, slots=True)
class Count:
    """Manual counting: a seat states the points of the hand (or crib) being shown."""

    seat: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "count", "seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Muggins:
    """An opponent claims ``points`` that the last count missed."""

    seat: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "muggins", "seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Pass:
    """An opponent lets the last count stand (no muggins call)."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


Action: TypeAlias = CutForDeal | Deal | Starter | Discard | Play | Count | Muggins | Pass
CHANCE_ACTIONS: Final = (CutForDeal, Deal, Starter)
PLAYER_ACTIONS: Final = (Discard, Play, Count, Muggins, Pass)


def brief_repr(value: object) -> str:
    """``repr(value)`` for an error message, cut short (never raises, however large, deeply nested
    or broken the value is)."""
    return reprlib.repr(value)


def _json_cards(data: dict[str, Any], key: str) -> tuple[Card, ...]:
    value = data.get(key)
    if not isinstance(value, list):
        raise CardError(f"{key!r} must be a list of cards")
    return parse_cards([v if isinstance(v, str) else brief_repr(v) for v in value])


def _json_int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalActionError(f"{key!r} must be an integer, not {brief_repr(value)}")
    return value


def action_from_json(data: object) -> Action:
    """Parse the JSON form of an action (the ``to_json`` of each class).

    Raises:
        CribbageError: a subclass naming what is wrong (unknown type, bad card, missing field).
    """
    if not isinstance(data, dict):
        raise IllegalActionError(f"an action must be a JSON object, not {brief_repr(data)}")
    kind = data.get("type")
    if kind == "cut":
        return CutForDeal(_json_cards(data, "cards"))
    if kind == "deal":
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise CardError("'hands' must be a list of hands")
        return Deal(tuple(_json_cards({"hand": h}, "hand") for h in hands), _json_cards(data, "crib"))
    if kind == "starter":
        card = data.get("card")
        if not isinstance(card, str):
            shown = brief_repr(card)
            raise CardError(f"'card' must be a card like '5H', not {shown}", problem="invalid", card=shown)
        return Starter(Card.parse(card))
    if kind == "discard":
        return Discard(_json_int(data, "seat"), _json_cards(data, "cards"))
    if kind == "play":
        card = data.get("card")
        if not isinstance(card, str):
            shown = brief_repr(card)
            raise CardError(f"'card' must be a card like '5H', not {shown}", problem="invalid", card=shown)
        claim = data.get("claim")
        if claim is not None:
            claim = _json_int(data, "claim")
        return Play(_json_int(data, "seat"), Card.parse(card), claim)
    if kind == "count":
        return Count(_json_int(data, "seat"), _json_int(data, "points"))
    if kind == "muggins":
        return Muggins(_json_int(data, "seat"), _json_int(data, "points"))
    if kind == "pass":
        return Pass(_json_int(data, "seat"))
    raise IllegalActionError(f"unknown action type {brief_repr(kind)}")


# The actions offered again and again, made once: actions are immutable values, so every state
# may list the same objects (building 61 claims for each decision cost more than the rest of it).


@cache
def single_play(seat: int, card: Card) -> Play:
    return Play(seat, card)


@cache
def claimed_plays(seat: int, card: Card) -> tuple[Play, ...]:
    """Every claim ``seat`` may state with ``card`` (manual pegging), lowest first."""
    return tuple(Play(seat, card, claim) for claim in range(MAX_CLAIM + 1))


@cache
def stated_counts(seat: int) -> tuple[Count, ...]:
    """Every count ``seat`` may state in the show, lowest first."""
    return tuple(Count(seat, points) for points in range(MAX_CLAIM + 1))


@cache
def muggins_answers(seat: int) -> tuple[Action, ...]:
    """An opponent's answers to a count awaiting the muggins decision: pass, or a call."""
    return (Pass(seat), *(Muggins(seat, points) for points in range(1, MAX_CLAIM + 1)))


def offered(legal: tuple[Action, ...], action: object) -> bool:
    """Whether ``action`` is one of the ``legal`` actions exactly, which apply() need not check.

    Either the very object (from :meth:`GameState.legal_actions`), or an equal one a player
    made, of the same class and with values of exactly the same types: equality alone would let
    ``Discard(True, ...)`` pass for ``Discard(1, ...)`` (``True == 1``), or a lookalike card that
    claims to equal every card.
    """
    try:
        listed = legal[legal.index(action)]  # the actions listed are distinct
    except Exception:  # not listed, or something that breaks comparison: apply() checks it all
        return False
    if listed is action:
        return True
    # Equal, so each value is the listed one if it is of exactly the listed type (or the object).
    if type(action) is Play and type(listed) is Play:
        claim = action.claim
        return (
            type(action.seat) is int and action.card is listed.card and (claim is None or type(claim) is int)
        )
    if type(action) is Discard and type(listed) is Discard:
        cards = action.cards
        return type(action.seat) is int and type(cards) is tuple and all(map(is_, cards, listed.cards))
    if (type(action) is Count and type(listed) is Count) or (
        type(action) is Muggins and type(listed) is Muggins
    ):
        return type(action.seat) is int and type(action.points) is int
    return type(action) is Pass and type(listed) is Pass and type(action.seat) is int
