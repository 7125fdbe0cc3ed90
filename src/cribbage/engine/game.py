"""A game of cribbage as a state machine: state -> legal actions -> apply -> events.

:class:`GameState` holds one game under any :class:`~cribbage.engine.rules.Rules`.  Who acts next is
:attr:`GameState.to_act`: a seat number, :data:`CHANCE` when the next step is a chance event (the
cut for deal, the deal, the starter), or :data:`TERMINAL` once the game is over.  Chance steps are
actions like the others (:class:`CutForDeal`, :class:`Deal`, :class:`Starter`), produced by
:meth:`GameState.sample_chance` from an injected :class:`random.Random`, so a seeded game is the
same everywhere and a search can re-deal the cards it cannot see.

Forced steps are taken by the engine itself: a player who cannot play says go, and with
automatic counting the show is counted as soon as the play ends.  Players are only asked when
they have a choice (a discard, a card, a count, a muggins call).

Every :meth:`GameState.apply` checks the action completely before changing anything, raises
:class:`~cribbage.engine.errors.IllegalActionError` naming the problem, and returns the
:class:`Event` list of what happened (scores with their reasons), so interfaces can announce them.

>>> import random
>>> state = GameState(get_rules("standard"))
>>> rng = random.Random(7)
>>> while not state.is_terminal:
...     action = state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
...     _ = state.apply(action)
>>> max(state.scores) >= 121
True
"""

from __future__ import annotations

import random
import reprlib
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum, StrEnum
from itertools import combinations
from operator import is_
from typing import Any, Final, TypeAlias

from .cards import DECK, JACK, Card, card_order, format_cards, parse_cards, remaining
from .errors import CardError, CountError, CribbageError, IllegalActionError, MugginsError
from .rules import Rules, get_rules
from .scoring import (
    FIRST_HAND_BONUS,
    GO,
    HEELS,
    LAST_CARD,
    Combo,
    hand_points,
    play_combos,
    play_points,
    score_show,
)

__all__ = [
    "CHANCE",
    "SOURCES",
    "TERMINAL",
    "Action",
    "Count",
    "CutForDeal",
    "Deal",
    "Discard",
    "Event",
    "GameResult",
    "GameState",
    "Kind",
    "Muggins",
    "Pass",
    "Phase",
    "Play",
    "SeatView",
    "Source",
    "Starter",
    "action_from_json",
    "get_rules",
    "next_dealer",
]

CHANCE: Final = -1
""":attr:`GameState.to_act` when the next step is a chance event."""
TERMINAL: Final = -2
""":attr:`GameState.to_act` once the game is over."""

MAX_CLAIM: Final = 60
"""The largest count a player may state (over-claims are corrected to the true count)."""


class Phase(Enum):
    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


# --------------------------------------------------------------------------- actions


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
_PLAYER_ACTIONS: Final = (Discard, Play, Count, Muggins, Pass)
_ACTION_TYPES: Final[frozenset[type]] = frozenset(CHANCE_ACTIONS + _PLAYER_ACTIONS)
"""The action classes themselves: a subclass is not an action (types are checked strictly)."""
_CARD_LISTS: Final = (tuple, list)
"""What may hold the cards of a chance action."""


def _show(value: object) -> str:
    """``repr(value)`` for an error message, cut short (never raises, however large, deeply nested
    or broken the value is)."""
    return reprlib.repr(value)


def _json_cards(data: dict[str, Any], key: str) -> tuple[Card, ...]:
    value = data.get(key)
    if not isinstance(value, list):
        raise CardError(f"{key!r} must be a list of cards")
    return parse_cards([v if isinstance(v, str) else _show(v) for v in value])


def _json_int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalActionError(f"{key!r} must be an integer, not {_show(value)}")
    return value


def action_from_json(data: object) -> Action:
    """Parse the JSON form of an action (the ``to_json`` of each class).

    Raises:
        CribbageError: a subclass naming what is wrong (unknown type, bad card, missing field).
    """
    if not isinstance(data, dict):
        raise IllegalActionError(f"an action must be a JSON object, not {_show(data)}")
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
            shown = _show(card)
            raise CardError(f"'card' must be a card like '5H', not {shown}", problem="invalid", card=shown)
        return Starter(Card.parse(card))
    if kind == "discard":
        return Discard(_json_int(data, "seat"), _json_cards(data, "cards"))
    if kind == "play":
        card = data.get("card")
        if not isinstance(card, str):
            shown = _show(card)
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
    raise IllegalActionError(f"unknown action type {_show(kind)}")


# --------------------------------------------------------------------------- events


class Kind(StrEnum):
    """What an :class:`Event` is.  The value is the event's ``kind`` in JSON.

    The fields each kind sets (``seat`` and ``side`` are the seat concerned and its side):

    * ``CUT``: ``cards`` cut for deal, one per seat; ``seat`` deals first.
    * ``RECUT``: ``cards`` cut for deal with a tie for the deal: cut again.
    * ``DEAL``: a hand is dealt; ``seat`` deals.
    * ``DISCARD``: ``seat`` has thrown to the crib (the cards stay hidden).
    * ``STARTER``: ``cards`` is the starter.
    * ``PLAY``: ``seat`` plays ``cards`` (one card); ``count`` is the count after it.
    * ``SCORE``: ``points`` pegged by ``seat`` outside the show: ``detail`` is ``"play"`` (the card
      just played: ``combos``, ``count``, and ``claim`` when the points were stated), ``"go"``,
      ``"last card"``, ``"his heels"`` or ``"three for last"`` (the five-card first-hand bonus).
    * ``GO``: ``seat`` cannot play at ``count``.
    * ``RESET``: the count goes back to 0; ``detail`` ``"end of play"`` when the play is over.
    * ``SHOW``: ``seat`` counts ``cards`` with the starter; ``detail`` ``"hand"`` or ``"crib"``,
      ``points`` pegged (zero included), ``combos`` and, with manual counting, the ``claim``.
    * ``MUGGINS``: ``seat`` takes ``points`` that a count missed; ``detail`` ``"play"`` or ``"show"``.
    * ``PENALTY``: ``seat`` is given ``points``: a wrong muggins call (``detail`` ``"play"`` or
      ``"show"``) or the excess of an over-count (``"over-count"``).
    * ``PASS``: ``seat`` lets a count stand.
    * ``HAND_OVER``: the hand dealt by ``seat`` is over (its show is counted).
    * ``WIN``: ``side`` wins; ``detail`` ``"skunk"`` or ``"double skunk"`` when it applies.
    """

    CUT = "cut"
    RECUT = "recut"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SCORE = "score"
    GO = "go"
    RESET = "reset"
    SHOW = "show"
    MUGGINS = "muggins"
    PENALTY = "penalty"
    PASS = "pass"
    HAND_OVER = "hand over"
    WIN = "win"


class Source(IntEnum):
    """Where points come from (the one classification, :attr:`Event.source`).

    ``PEGGING``: the play (fifteens, pairs, runs, thirty-one, go, last card); ``HAND`` and
    ``CRIB``: the show; ``OTHER``: his heels, the five-card first-hand bonus, muggins and
    penalties.  Values index per-source tallies; :attr:`label` is the name used in JSON.
    """

    PEGGING = 0
    HAND = 1
    CRIB = 2
    OTHER = 3

    @property
    def label(self) -> str:
        return self.name.lower()


SOURCES: Final = tuple(source.label for source in Source)
"""The names of the sources in :class:`Source` order: pegging, hand, crib, other."""

_PEGGING_DETAILS: Final = frozenset({"play", GO, LAST_CARD})


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened.  ``points`` go to the side of ``seat`` (``side``).

    ``kind`` says what (see :class:`Kind` for the fields each kind sets).
    """

    kind: Kind
    seat: int | None = None
    side: int | None = None
    points: int = 0
    cards: tuple[Card, ...] = ()
    combos: tuple[Combo, ...] = ()
    count: int | None = None
    detail: str = ""
    claim: int | None = None

    @property
    def source(self) -> Source | None:
        """Where the event's points come from (None when it scores nothing)."""
        if not self.points:
            return None
        kind = self.kind
        if kind is Kind.SHOW:
            return Source.CRIB if self.detail == "crib" else Source.HAND
        if kind is Kind.SCORE and self.detail in _PEGGING_DETAILS:
            return Source.PEGGING
        return Source.OTHER

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value}
        for name in ("seat", "side", "count", "claim"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.points:
            data["points"] = self.points
        if self.cards:
            data["cards"] = [str(c) for c in self.cards]
        if self.combos:
            data["combos"] = [c.to_json() for c in self.combos]
        if self.detail:
            data["detail"] = self.detail
        return data


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended."""

    winner: int
    """The winning side."""
    loser: int
    """The side that lost (in lowball: the side that reached the target)."""
    scores: tuple[int, ...]
    skunk: int
    """0, 1 (skunk) or 2 (double skunk)."""
    game_points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "loser": self.loser,
            "scores": list(self.scores),
            "skunk": self.skunk,
            "game_points": self.game_points,
        }


_RESET: Final = Event(Kind.RESET)
_END_OF_PLAY: Final = Event(Kind.RESET, detail="end of play")
"""The events that never vary, made once (events are immutable values)."""


# --------------------------------------------------------------------------- a seat's view


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the only input of players, hints, bots and interfaces.

    It never holds another seat's hand, the deck or the crib before the show.  Hands shown in
    the show (``shown``) are public once counted; the crib once it is counted.
    """

    seat: int
    rules: Rules
    phase: Phase
    to_act: int
    dealer: int | None
    scores: tuple[int, ...]
    """Points of each side (index with ``rules.side_of(seat)``).  While a count awaits the
    muggins decision, the scores before it: what it pegged would tell an over-count."""
    previous_scores: tuple[int, ...]
    hand: tuple[Card, ...]
    """The cards this seat holds now."""
    kept: tuple[Card, ...]
    """This seat's hand after its discard (what it will show)."""
    discards: tuple[Card, ...]
    """This seat's own discards to the crib."""
    starter: Card | None
    count: int
    sequence: tuple[Card, ...]
    """The cards of the current count, in order."""
    played: tuple[tuple[int, Card], ...]
    """Every card played this hand with the seat that played it."""
    held: tuple[int, ...]
    """How many cards each seat still holds."""
    shown: tuple[tuple[int, str, tuple[Card, ...]], ...]
    """Hands (and the crib) counted so far in this show: (seat, "hand" or "crib", cards)."""
    crib: tuple[Card, ...]
    """The crib, once it is turned up to be counted (empty before)."""
    claim: tuple[int, str, int] | None
    """A stated count awaiting a muggins decision: (seat that counted, "play", "hand" or
    "crib", points stated).  Its cards are the last of ``shown`` (of ``played`` in the play);
    its true points are in no view until every opponent entitled to the call has decided."""
    hand_number: int
    legal: tuple[Action, ...]
    """The actions this seat may take now (empty when it is not its turn; in the discard phase
    every seat still to discard may, not only :attr:`to_act`)."""
    step: int = 0
    """The position in the game: how many actions (chance steps included) have been applied.
    With a player's seed it seeds the player's choice, so a game rebuilt from its record goes on
    exactly as it would have."""
    callers: tuple[int, ...] = ()
    """While a count awaits the muggins decision: the opponents still entitled to it, the one
    to decide first (``to_act``) first; each of them may call (or pass) now."""

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_dealer(self) -> bool:
        return self.dealer == self.seat

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: other hands, the crib's unknown cards and the deck."""
        starter = () if self.starter is None else (self.starter,)
        played = (card for _, card in self.played)
        shown = (card for _, _, cards in self.shown for card in cards)
        return remaining(
            self.hand, self.kept, self.discards, self.sequence, played, shown, self.crib, starter
        )

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``docs/api.md``, ``docs/protocol.md``).  Besides what the seat sees
        it carries the rules' facts (``"rules"``: :meth:`Rules.facts`) and the show's counts in
        order for the current dealer (``"show_order"``: ``[{"seat", "what"}]``, empty before the
        first dealer is known), so that no client need work the rules out for itself."""
        return {
            "seat": self.seat,
            "players": self.rules.players,
            "variant": self.rules.name,
            "target": self.rules.target,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "previous_scores": list(self.previous_scores),
            "hand": [str(c) for c in self.hand],
            "kept": [str(c) for c in self.kept],
            "discards": [str(c) for c in self.discards],
            "starter": None if self.starter is None else str(self.starter),
            "count": self.count,
            "sequence": [str(c) for c in self.sequence],
            "played": [{"seat": s, "card": str(c)} for s, c in self.played],
            "held": list(self.held),
            "shown": [{"seat": s, "what": w, "cards": [str(c) for c in cards]} for s, w, cards in self.shown],
            "crib": [str(c) for c in self.crib],
            "claim": None
            if self.claim is None
            else {
                "seat": self.claim[0],
                "what": self.claim[1],
                "points": self.claim[2],
                "callers": list(self.callers),
            },
            "hand_number": self.hand_number,
            "rules": self.rules.facts(),
            "show_order": []
            if self.dealer is None
            else [{"seat": s, "what": w} for s, w in self.rules.show_order(self.dealer)],
        }


# --------------------------------------------------------------------------- the state


@dataclass(frozen=True, slots=True)
class _Pending:
    """A manual count awaiting the opponents' muggins decision."""

    counter: int  # the seat that counted
    callers: tuple[int, ...]  # the opponents still entitled to decide, in turn order
    missed: int  # the points the count left out (hidden from the views)
    phase: str  # "play" or "show"
    what: str  # "play", "hand" or "crib"
    claim: int  # the points stated
    scores: tuple[int, ...]  # each side's score before the count (the views show these)
    previous_scores: tuple[int, ...]

    @property
    def caller(self) -> int:
        """The opponent whose turn it is to decide (the others may call before it)."""
        return self.callers[0]


def _check_cards(cards: object, size: int, what: str, used: int = 0) -> int:
    """Check the cards of a chance action: a tuple (or list) of ``size`` :class:`Card` objects,
    none of them among ``used`` (card bits) nor repeated.  Returns ``used`` with their bits."""
    if not isinstance(cards, _CARD_LISTS) or type(cards) not in _CARD_LISTS:  # no subclasses
        raise CardError(f"{what} must be a tuple of cards, not {_show(cards)}")
    if len(cards) != size:
        raise CardError(
            f"{what} must be {size} cards, not {len(cards)}: {_show(cards)}",
            problem="count",
            count=len(cards),
            allowed=(size,),
        )
    for card in cards:
        if type(card) is not Card:
            raise CardError(f"{what} holds {_show(card)}, which is not a Card")
        if used & card.bit:
            raise CardError(f"{card} is dealt twice", problem="duplicate", card=str(card))
        used |= card.bit
    return used


def _offered(legal: tuple[Action, ...], action: object) -> bool:
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


@dataclass(slots=True)
class GameState:
    """One game in progress.  Create it with the rules (and a dealer, to skip the cut).

    The public attributes are read-only by convention; change the state only with
    :meth:`apply`.  :meth:`clone` gives an independent copy for search.
    """

    rules: Rules
    dealer: int | None = None
    phase: Phase = Phase.CUT
    scores: list[int] = field(default_factory=list)
    """Points of each side."""
    previous_scores: list[int] = field(default_factory=list)
    """Each side's score before its last score: the back peg."""
    hands: list[list[Card]] = field(default_factory=list)
    """Cards each seat holds now (during the play, the cards not yet played)."""
    kept: list[tuple[Card, ...]] = field(default_factory=list)
    """Each seat's hand after the discard: what it shows."""
    dealt: list[tuple[Card, ...]] = field(default_factory=list)
    crib: list[Card] = field(default_factory=list)
    discards: list[tuple[Card, ...]] = field(default_factory=list)
    starter: Card | None = None
    count: int = 0
    sequence: list[Card] = field(default_factory=list)
    """Cards of the current count, in order."""
    played: list[tuple[int, Card]] = field(default_factory=list)
    """Every card played this hand, with its seat, in order."""
    turn: int = 0
    """During the play: the seat to play next."""
    gone: int = 0
    """During the play: bit ``1 << seat`` for each seat that has said go in this count."""
    last_player: int | None = None
    show_step: int = 0
    """During the show: index into :meth:`show_order`."""
    pending: _Pending | None = None
    closed_by: int | None = None
    """The seat whose muggins call the last action was (None after any other action): a later
    call on the same count is refused naming it."""
    hand_number: int = 0
    first_dealer: int | None = None
    """The seat that dealt the first hand (cut for, or given)."""
    cut_cards: tuple[Card, ...] = ()
    explain: bool = True
    """Whether play and show events list every combination; ``False`` gives totals only
    (simulations)."""
    result: GameResult | None = None
    steps: int = 0
    """How many actions (chance steps included) have been applied: the length of the record."""
    players: int = field(init=False, default=0)
    """The number of seats (``rules.players``)."""
    # Caches valid until the next apply(): the actor, and the actions this state offered itself
    # (from legal_actions or sample_chance), which apply() then need not check again.
    _actor: int | None = field(default=None, init=False, compare=False, repr=False)
    _legal: tuple[Action, ...] | None = field(default=None, init=False, compare=False, repr=False)
    _sampled: Action | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise TypeError("rules must be a Rules object")
        sides = self.rules.sides
        self.players = self.rules.players
        if not self.scores:
            self.scores = [0] * sides
            self.previous_scores = [0] * sides
        if self.dealer is not None:
            if not (isinstance(self.dealer, int) and 0 <= self.dealer < self.rules.players):
                raise IllegalActionError(f"dealer must be a seat 0 to {self.rules.players - 1}")
            if self.phase is Phase.CUT:
                self.phase = Phase.DEAL
            if self.first_dealer is None:
                self.first_dealer = self.dealer

    # ------------------------------------------------------------------ queries

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_chance(self) -> bool:
        return self.phase in (Phase.CUT, Phase.DEAL, Phase.STARTER)

    @property
    def to_act(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        actor = self._actor
        if actor is None:
            actor = self._actor = self._find_actor()
        return actor

    def _find_actor(self) -> int:
        phase = self.phase
        if phase is Phase.OVER:
            return TERMINAL
        if phase in (Phase.CUT, Phase.DEAL, Phase.STARTER):
            return CHANCE
        if self.pending is not None:
            return self.pending.caller
        if phase is Phase.PLAY:
            return self.turn
        if phase is Phase.DISCARD:
            return self._next_discarder()
        return self._show_counter()

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def pone(self) -> int:
        """The seat to the dealer's left, who plays and counts first."""
        assert self.dealer is not None
        return (self.dealer + 1) % self.players

    def show_order(self) -> list[tuple[int, str]]:
        """The counts of the show in order for this hand's dealer (:meth:`Rules.show_order`)."""
        assert self.dealer is not None
        return list(self.rules.show_order(self.dealer))

    def _show_counter(self) -> int:
        return self.show_order()[self.show_step][0]

    def _next_discarder(self) -> int:
        assert self.dealer is not None
        for i in range(1, self.players + 1):
            seat = (self.dealer + i) % self.players
            if not self.discards[seat]:
                return seat
        raise AssertionError("no seat left to discard")

    def _discards_of(self, seat: int) -> list[Action]:
        """Every discard ``seat`` may make from its hand."""
        hand = sorted(self.hands[seat], key=card_order)
        return [Discard(seat, combo) for combo in combinations(hand, self.rules.discard)]

    def _owes_discard(self, seat: int) -> bool:
        """Whether ``seat`` has yet to discard in the discard phase: it may do so at once, before
        the seats ahead of it (the seats discard at the same time; :attr:`to_act` is the first
        from the dealer's left still to, the one a driver asks)."""
        return self.phase is Phase.DISCARD and not self.discards[seat]

    def can_play(self, seat: int) -> bool:
        limit = 31 - self.count
        return any(c.value <= limit for c in self.hands[seat])

    def deck(self) -> list[Card]:
        """Cards not dealt (the stock): where the starter comes from."""
        return remaining(*self.dealt, self.crib)

    def legal_actions(self) -> list[Action]:
        """Every action the actor may take now (chance actions are not listed: sample them).

        The list is sorted in a stable order (by card index, then claim).
        """
        return list(self._legal_now())

    def forced_action(self) -> Action | None:
        """The actor's only legal action when it has no choice (its last playable card), else None.

        Lets a driver take forced steps without building a view or asking a player.
        """
        legal = self._legal_now()
        return legal[0] if len(legal) == 1 else None

    def _legal_now(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(self._find_legal())
        return legal

    def _find_legal(self) -> list[Action]:
        phase = self.phase
        if phase in (Phase.OVER, Phase.CUT, Phase.DEAL, Phase.STARTER):
            return []
        if self.pending is not None:
            caller = self.pending.caller
            return [Pass(caller), *(Muggins(caller, p) for p in range(1, MAX_CLAIM + 1))]
        if phase is Phase.DISCARD:
            return self._discards_of(self._next_discarder())
        if phase is Phase.PLAY:
            seat = self.turn
            limit = 31 - self.count
            cards = sorted((c for c in self.hands[seat] if c.value <= limit), key=card_order)
            if self.rules.muggins_play:
                return [Play(seat, c, claim) for c in cards for claim in range(MAX_CLAIM + 1)]
            return [Play(seat, c) for c in cards]
        seat = self._show_counter()
        return [Count(seat, p) for p in range(MAX_CLAIM + 1)]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (see :class:`SeatView`)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {_show(seat)} in a {self.players}-player game")
        n = self.players
        shown: list[tuple[int, str, tuple[Card, ...]]] = []
        dealer = self.dealer
        if self.show_step and dealer is not None:
            if self.phase is Phase.DEAL:
                # Between a hand's end and the next deal the show stays on view, but the deal has
                # already passed one seat on (_end_hand): the hand shown was the seat before's.
                dealer = (dealer - 1) % n
            order = [((dealer + i) % n, "hand") for i in range(1, n + 1)]
            order.append((dealer, "crib"))
            for s, what in order[: self.show_step]:
                shown.append((s, what, tuple(self.crib) if what == "crib" else self.kept[s]))
        actor = self.to_act
        pending = self.pending
        return SeatView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            to_act=actor,
            dealer=self.dealer,
            # While a count awaits the muggins decision, what it pegged stays out of sight.
            scores=tuple(self.scores) if pending is None else pending.scores,
            previous_scores=tuple(self.previous_scores) if pending is None else pending.previous_scores,
            hand=tuple(self.hands[seat]) if self.hands else (),
            kept=self.kept[seat] if self.kept else (),
            discards=self.discards[seat] if self.discards else (),
            starter=self.starter,
            count=self.count,
            sequence=tuple(self.sequence),
            played=tuple(self.played),
            held=tuple(len(self.hands[s]) for s in range(n)) if self.hands else (0,) * n,
            shown=tuple(shown),
            crib=tuple(self.crib) if self._crib_is_up() else (),
            claim=None if pending is None else (pending.counter, pending.what, pending.claim),
            hand_number=self.hand_number,
            legal=self._legal_for(seat, actor),
            step=self.steps,
            callers=() if pending is None else pending.callers,
        )

    def legal_for(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now: the actor's :meth:`legal_actions`; while a count
        awaits the muggins decision, also each later opponent's (any opponent who has not
        passed may call or pass before its turn); in the discard phase, the discards of every
        seat still to discard (the seats discard at the same time); empty for every other seat."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {_show(seat)} in a {self.players}-player game")
        return list(self._legal_for(seat, self.to_act))

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may act now: it is the actor, an opponent still entitled to decide
        on the count awaiting the muggins decision, or a seat still to discard."""
        pending = self.pending
        return (
            seat == self.to_act
            or (pending is not None and seat in pending.callers)
            or (0 <= seat < self.players and self._owes_discard(seat))
        )

    def _legal_for(self, seat: int, actor: int) -> tuple[Action, ...]:
        if seat == actor:
            return self._legal_now()
        pending = self.pending
        if pending is not None and seat in pending.callers:
            return (Pass(seat), *(Muggins(seat, p) for p in range(1, MAX_CLAIM + 1)))
        if self._owes_discard(seat):
            return tuple(self._discards_of(seat))
        return ()

    def _crib_is_up(self) -> bool:
        """Whether the crib has been turned up to be counted (the last step of the show)."""
        hands_counted = self.show_step >= self.players  # one count per seat comes first
        crib_counted = self.show_step > self.players
        return crib_counted or (hands_counted and self.phase is Phase.SHOW)

    def verify(self, action: Action) -> None:
        """Raise the :class:`CribbageError` that :meth:`apply` would raise for ``action`` now,
        naming why it is not allowed; return if it is.  Never changes the state."""
        self._check(action)

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` (never raises)."""
        try:
            self._check(action)
        except CribbageError:
            return False
        return True

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Action:
        """A random outcome of the pending chance step, drawn from ``rng`` only."""
        self._sampled = action = self._draw_chance(rng)
        return action

    def _draw_chance(self, rng: random.Random) -> Action:
        phase = self.phase
        if phase is Phase.CUT:
            return CutForDeal(tuple(rng.sample(DECK, self.players)))
        if phase is Phase.DEAL:
            n, size = self.players, self.rules.deal
            deck = rng.sample(DECK, n * size + self.rules.crib_from_deck)
            assert self.dealer is not None
            first = self.dealer + 1  # dealt one at a time from the dealer's left
            hands = tuple(tuple(deck[(seat - first) % n : n * size : n]) for seat in range(n))
            return Deal(hands, tuple(deck[n * size :]))
        if phase is Phase.STARTER:
            return Starter(rng.choice(self.deck()))
        raise IllegalActionError(f"no chance step now (phase {phase.value})")

    # ------------------------------------------------------------------ apply

    def clone(self) -> GameState:
        """An independent copy (cards are shared: they are immutable)."""
        return GameState(
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            scores=list(self.scores),
            previous_scores=list(self.previous_scores),
            hands=[list(h) for h in self.hands],
            kept=list(self.kept),
            dealt=list(self.dealt),
            crib=list(self.crib),
            discards=list(self.discards),
            starter=self.starter,
            count=self.count,
            sequence=list(self.sequence),
            played=list(self.played),
            turn=self.turn,
            gone=self.gone,
            last_player=self.last_player,
            show_step=self.show_step,
            pending=self.pending,  # never mutated, only replaced
            closed_by=self.closed_by,
            hand_number=self.hand_number,
            first_dealer=self.first_dealer,
            cut_cards=self.cut_cards,
            explain=self.explain,
            result=self.result,
            steps=self.steps,
        )

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return what happened.

        Raises:
            IllegalActionError: (or another :class:`CribbageError`) naming why the action is not
                allowed now; the state is then unchanged.
        """
        # The fast path: an action this state offered itself (the chance step it sampled, or one
        # of its legal actions exactly) needs no check.  None is never offered: it is only the
        # empty cache.
        sampled = self._sampled
        if sampled is None or action is not sampled:
            legal = self._legal
            if not (legal and _offered(legal, action)):
                self._check(action)
        self._actor = self._legal = self._sampled = None
        self.closed_by = None
        self.steps += 1
        events: list[Event] = []
        try:
            if isinstance(action, Play):  # the most frequent first
                self._do_play(action, events)
            elif isinstance(action, Discard):
                self._do_discard(action, events)
            elif isinstance(action, CutForDeal):
                self._do_cut(action, events)
            elif isinstance(action, Deal):
                self._do_deal(action, events)
            elif isinstance(action, Starter):
                self._do_starter(action, events)
            elif isinstance(action, Count):
                self._do_count(action, events)
            else:
                self._do_muggins(action, events)
        except _GameOver:
            pass
        return events

    # ------------------------------------------------------------------ checks

    def _check(self, action: object) -> None:
        """Raise a :class:`CribbageError` naming why ``action`` may not be applied now.

        Anything may come in (a player's or a record's action, or garbage), so every type is
        checked strictly before any value is used: a ``bool`` is no seat, count or claim, text is
        no card, and a subclass is no action.
        """
        if type(action) not in _ACTION_TYPES:
            raise IllegalActionError(f"not an action: {_show(action)}")
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if isinstance(action, CHANCE_ACTIONS):
            self._check_chance(action)
            return
        if not isinstance(action, _PLAYER_ACTIONS):  # never: all the types are known (for mypy)
            raise IllegalActionError(f"not an action: {_show(action)}")
        name = type(action).__name__
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {_show(seat)} in a {self.players}-player game")
        actor = self.to_act
        if actor == CHANCE:
            raise IllegalActionError(f"{name} during the {phase.value}: a chance step comes first")
        pending = self.pending
        if pending is not None and isinstance(action, (Muggins, Pass)):
            self._check_muggins(action, pending)
            return
        if isinstance(action, (Muggins, Pass)):
            closed = self.closed_by
            if closed is not None:
                raise MugginsError(
                    f"there is no count to call muggins on: seat {closed}'s call has already taken it"
                )
            raise MugginsError("there is no count to call muggins on")
        if isinstance(action, Discard) and phase is Phase.DISCARD and self.discards[seat]:
            raise IllegalActionError(f"seat {seat} has discarded already")
        if seat != actor and not (isinstance(action, Discard) and self._owes_discard(seat)):
            raise IllegalActionError(f"it is not seat {seat}'s turn (seat {actor} is to act)")
        if pending is not None:
            raise IllegalActionError(f"seat {seat} must call muggins or pass first")
        if isinstance(action, Discard):
            if phase is not Phase.DISCARD:
                raise IllegalActionError(f"cannot discard during the {phase.value}")
            cards = action.cards
            if type(cards) is not tuple:
                raise IllegalActionError(f"a discard's cards must be a tuple of cards, not {_show(cards)}")
            if len(cards) != self.rules.discard:
                raise IllegalActionError(f"discard {self.rules.discard} cards, not {len(cards)}")
            for card in cards:
                if type(card) is not Card:
                    raise IllegalActionError(f"not a card: {_show(card)}")
            if len(set(cards)) != len(cards):
                raise IllegalActionError(f"duplicate card in discard {format_cards(cards)}")
            for card in cards:
                if card not in self.hands[seat]:
                    raise IllegalActionError(f"seat {seat} does not hold {card}")
        elif isinstance(action, Play):
            if phase is not Phase.PLAY:
                raise IllegalActionError(f"cannot play a card during the {phase.value}")
            card = action.card
            if type(card) is not Card:
                raise IllegalActionError(f"not a card: {_show(card)}")
            if card not in self.hands[seat]:
                raise IllegalActionError(f"seat {seat} does not hold {card}")
            if self.count + card.value > 31:
                raise CountError(
                    f"{card} would take the count from {self.count} past 31",
                    card=str(card),
                    count=self.count + card.value,
                )
            claim = action.claim
            if self.rules.muggins_play:
                if not (type(claim) is int and 0 <= claim <= MAX_CLAIM):
                    raise IllegalActionError(
                        f"state the points of the play: a claim of 0 to {MAX_CLAIM}, not {_show(claim)}"
                    )
            elif claim is not None:
                raise IllegalActionError("claims are only stated with muggins in the play")
        else:  # Count
            if phase is not Phase.SHOW or not self.rules.manual_count:
                raise IllegalActionError("counts are stated only in the show with manual counting")
            points = action.points
            if not (type(points) is int and 0 <= points <= MAX_CLAIM):
                raise IllegalActionError(f"a count must be 0 to {MAX_CLAIM} points, not {_show(points)}")

    def _check_muggins(self, action: Muggins | Pass, pending: _Pending) -> None:
        """A call or a pass on the count awaiting the muggins decision: any opponent of the
        counter who has not passed may make it, before its turn too."""
        seat = action.seat
        if seat not in pending.callers:
            if seat == pending.counter:
                why = "it is its own count"
            elif self.side_of(seat) == self.side_of(pending.counter):
                why = f"it is the count of its partner, seat {pending.counter}"
            else:
                why = "it has already passed on this count"
            raise MugginsError(f"seat {seat} may not call muggins or pass: {why}")
        if isinstance(action, Muggins):
            points = action.points
            if not (type(points) is int and 1 <= points <= MAX_CLAIM):
                raise MugginsError(f"a muggins call must be 1 to {MAX_CLAIM} points, not {_show(points)}")

    def _check_chance(self, action: CutForDeal | Deal | Starter) -> None:
        phase = self.phase
        if isinstance(action, CutForDeal):
            if phase is not Phase.CUT:
                raise IllegalActionError(f"no cut for deal during the {phase.value}")
            _check_cards(action.cards, self.players, "the cut for deal")
        elif isinstance(action, Deal):
            if phase is not Phase.DEAL:
                raise IllegalActionError(f"no deal during the {phase.value}")
            hands = action.hands
            if (
                not isinstance(hands, _CARD_LISTS)
                or type(hands) not in _CARD_LISTS
                or len(hands) != self.players
            ):
                raise CardError(f"deal {self.players} hands (a tuple of hands), not {_show(hands)}")
            used = 0
            for hand in hands:
                used = _check_cards(hand, self.rules.deal, "a hand", used)
            _check_cards(action.crib, self.rules.crib_from_deck, "the crib", used)
        else:
            if phase is not Phase.STARTER:
                raise IllegalActionError(f"no starter during the {phase.value}")
            card = action.card
            if type(card) is not Card or card not in self.deck():
                raise IllegalActionError(f"the starter {_show(card)} is not a card of the deck")

    # ------------------------------------------------------------------ scoring

    def _score(
        self, seat: int, points: int, events: list[Event], announce_zero: bool = False, **detail: Any
    ) -> None:
        """Peg points for seat's side; ends the game the instant a side reaches the target.

        No event is recorded for zero points unless ``announce_zero`` (a show of nineteen).
        """
        side = self.side_of(seat)
        if points <= 0:
            if announce_zero:
                events.append(Event(seat=seat, side=side, points=0, **detail))
            return
        self.previous_scores[side] = self.scores[side]
        self.scores[side] += points
        events.append(Event(seat=seat, side=side, points=points, **detail))
        if self.scores[side] >= self.rules.target:
            self._finish(side, events)

    def _finish(self, side: int, events: list[Event]) -> None:
        rules = self.rules
        sides = rules.sides
        if rules.lowball:
            loser = side
            others = [s for s in range(sides) if s != side]
            winner = min(others, key=lambda s: (self.scores[s], s))
            skunk = 0
        else:
            winner = side
            loser = min((s for s in range(sides) if s != side), key=lambda s: (self.scores[s], s))
            worst = self.scores[loser]
            double = rules.double_skunk_line
            skunk = 2 if double is not None and worst < double else 1 if worst < rules.skunk_line else 0
        self.result = GameResult(winner, loser, tuple(self.scores), skunk, rules.game_points(skunk))
        self.phase = Phase.OVER
        self.pending = None
        events.append(Event(Kind.WIN, side=winner, detail=("", "skunk", "double skunk")[skunk]))
        raise _GameOver

    # ------------------------------------------------------------------ phases

    def _do_cut(self, action: CutForDeal, events: list[Event]) -> None:
        cards = tuple(action.cards)  # a list is accepted too
        by_value = self.rules.cut_ties == "value"
        values = [c.value if by_value else c.rank for c in cards]
        best = min(values) if self.rules.first_dealer == "low" else max(values)
        if values.count(best) > 1:
            events.append(Event(Kind.RECUT, cards=cards))
            return
        self.cut_cards = cards
        self.dealer = self.first_dealer = values.index(best)
        events.append(Event(Kind.CUT, seat=self.dealer, cards=cards))
        self.phase = Phase.DEAL

    def _do_deal(self, action: Deal, events: list[Event]) -> None:
        n = self.players
        self.hand_number += 1
        self.dealt = [tuple(h) for h in action.hands]
        self.hands = [list(h) for h in action.hands]
        self.kept = [() for _ in range(n)]
        self.discards = [() for _ in range(n)]
        self.crib = list(action.crib)
        self.starter = None
        self.count = 0
        self.sequence = []
        self.played = []
        self.last_player = None
        self.gone = 0
        self.show_step = 0
        self.pending = None
        self.phase = Phase.DISCARD
        events.append(Event(Kind.DEAL, seat=self.dealer))
        if self.hand_number == 1 and self.rules.first_hand_bonus:
            self._score(
                self.pone, self.rules.first_hand_bonus, events, kind=Kind.SCORE, detail=FIRST_HAND_BONUS
            )

    def _do_discard(self, action: Discard, events: list[Event]) -> None:
        seat = action.seat
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
        self.discards[seat] = tuple(action.cards)
        self.kept[seat] = tuple(hand)
        self.crib.extend(action.cards)
        events.append(Event(Kind.DISCARD, seat=seat))
        if all(self.discards):
            self.phase = Phase.STARTER

    def _do_starter(self, action: Starter, events: list[Event]) -> None:
        self.starter = action.card
        events.append(Event(Kind.STARTER, cards=(action.card,)))
        self.phase = Phase.PLAY
        self.turn = self.pone
        assert self.dealer is not None
        if action.card.rank == JACK:
            self._score(
                self.dealer,
                2,
                events,
                kind=Kind.SCORE,
                detail=HEELS,
                cards=(action.card,),
                combos=(Combo(HEELS, (action.card,), 2),),
            )

    def _do_play(self, action: Play, events: list[Event]) -> None:
        seat, card = action.seat, action.card
        self.hands[seat].remove(card)
        self.sequence.append(card)
        self.played.append((seat, card))
        self.count += card.value
        self.last_player = seat
        events.append(Event(Kind.PLAY, seat=seat, cards=(card,), count=self.count))
        if self.explain:
            combos = tuple(play_combos(self.sequence, self.count))
            true = sum(c.points for c in combos)
        else:
            combos, true = (), play_points(self.sequence, self.count)
        claim = action.claim
        # With manual pegging only the stated points are pegged (an over-claim is corrected);
        # what was missed may be mugged before the next play.
        pegged = true if claim is None else min(claim, true)
        before = tuple(self.scores), tuple(self.previous_scores)
        self._score(
            seat, pegged, events, kind=Kind.SCORE, combos=combos, count=self.count, detail="play", claim=claim
        )
        if claim is not None:
            self._penalise_over_claim(seat, claim - true, events)
            self._open_muggins(seat, true - pegged, "play", "play", claim, before)
        if self.pending is None:
            self._advance_play(events)

    def _advance_play(self, events: list[Event]) -> None:
        """After a card: who plays next, goes, the last card, and the end of the play."""
        n = self.players
        last = self.last_player
        assert last is not None
        if self.count < 31:
            for i in range(1, n + 1):
                seat = (last + i) % n
                if self.can_play(seat):
                    self._say_go(last, i, events)
                    self.turn = seat
                    return
            # Nobody can play: the last player scores a go, or the last card.
            self._say_go(last, n, events)
            over = self.rules.one_count or not any(self.hands)
            kind = LAST_CARD if over else GO
            self._score(
                last, 1, events, kind=Kind.SCORE, detail=kind, count=self.count, combos=(Combo(kind, (), 1),)
            )
        else:
            over = self.rules.one_count or not any(self.hands)
        if over:
            self._end_play(events)
            return
        self.count = 0
        self.sequence = []
        self.gone = 0
        events.append(_RESET)
        for i in range(1, n + 1):
            seat = (last + i) % n
            if self.hands[seat]:
                self.turn = seat
                return

    def _say_go(self, last: int, upto: int, events: list[Event]) -> None:
        """The seats after ``last`` (fewer than ``upto`` places on) that hold cards say go, once a count."""
        for j in range(1, upto):
            seat = (last + j) % self.players
            if self.hands[seat] and not self.gone >> seat & 1:
                self.gone |= 1 << seat
                events.append(Event(Kind.GO, seat=seat, count=self.count))

    def _end_play(self, events: list[Event]) -> None:
        self.phase = Phase.SHOW
        self.show_step = 0
        self.count = 0
        self.sequence = []
        events.append(_END_OF_PLAY)
        if not self.rules.manual_count:
            while self.phase is Phase.SHOW:
                self._count_show(None, events)

    def _count_show(self, claim: int | None, events: list[Event]) -> None:
        seat, what = self.show_order()[self.show_step]
        assert self.starter is not None
        cards = tuple(self.crib) if what == "crib" else self.kept[seat]
        if self.explain:
            combos = score_show(cards, self.starter, crib=what == "crib").combos
            true = sum(c.points for c in combos)
        else:
            combos, true = (), hand_points(cards, self.starter, what == "crib")
        pegged = true if claim is None or claim > true else claim
        before = tuple(self.scores), tuple(self.previous_scores)
        self.show_step += 1
        self._score(
            seat,
            pegged,
            events,
            announce_zero=True,
            kind=Kind.SHOW,
            cards=cards,
            combos=combos,
            detail=what,
            claim=claim,
        )
        if claim is not None:
            self._penalise_over_claim(seat, claim - true, events)
            self._open_muggins(seat, max(0, true - claim), "show", what, claim, before)
        if self.pending is None and self.show_step == len(self.show_order()):
            self._end_hand(events)

    def _opponents(self, seat: int) -> tuple[int, ...]:
        """The seats on other sides than ``seat``'s, in turn order from the next one: who may
        call muggins on its counts, and in which order they decide."""
        side, n = self.side_of(seat), self.players
        return tuple(s for i in range(1, n) if self.side_of(s := (seat + i) % n) != side)

    def _opponent(self, seat: int) -> int:
        """The next seat after ``seat`` on another side: who may call muggins on its counts."""
        side = self.side_of(seat)
        return next(s for i in range(1, self.players) if self.side_of(s := (seat + i) % self.players) != side)

    def _open_muggins(
        self,
        counter: int,
        missed: int,
        phase: str,
        what: str,
        claim: int,
        before: tuple[tuple[int, ...], tuple[int, ...]],
    ) -> None:
        """Open the muggins decision on a stated count; ``before`` holds the scores and previous
        scores from before the count, which the views show until the decision closes."""
        if self.rules.muggins:
            callers = self._opponents(counter)
            if not self.rules.muggins_all_opponents:
                callers = callers[:1]  # only the next opponent (records made before the option)
            self.pending = _Pending(counter, callers, missed, phase, what, claim, *before)

    def _penalise_over_claim(self, counter: int, excess: int, events: list[Event]) -> None:
        """With ``overcount_penalty`` the opponent scores what a claim had too many (Hoyle)."""
        if excess > 0 and self.rules.overcount_penalty:
            self._score(self._opponent(counter), excess, events, kind=Kind.PENALTY, detail="over-count")

    def _do_count(self, action: Count, events: list[Event]) -> None:
        self._count_show(action.points, events)

    def _do_muggins(self, action: Muggins | Pass, events: list[Event]) -> None:
        pending = self.pending
        assert pending is not None
        if isinstance(action, Pass):
            events.append(Event(Kind.PASS, seat=action.seat))
            rest = tuple(s for s in pending.callers if s != action.seat)
            if rest:  # the other opponents still decide
                self.pending = replace(pending, callers=rest)
                return
            self.pending = None
        else:
            # A call closes the decision, whether it finds missed points or not (a wrong call
            # is penalised and the count then stands, as with one opponent): the first call wins.
            self.pending = None
            self.closed_by = action.seat
            self._score_call(action, pending, events)
        if pending.phase == "play":
            self._advance_play(events)
        elif self.show_step == len(self.show_order()):
            self._end_hand(events)

    def _score_call(self, action: Muggins, pending: _Pending, events: list[Event]) -> None:
        if pending.missed > 0:
            # ACC 10.4: the caller scores the lesser of the claimed and the true missed points.
            self._score(
                action.seat,
                min(action.points, pending.missed),
                events,
                kind=Kind.MUGGINS,
                detail=pending.phase,
            )
        else:
            # ACC 10.4: a call where nothing was missed gives the claimed points to the opponent.
            self._score(pending.counter, action.points, events, kind=Kind.PENALTY, detail=pending.phase)

    def _end_hand(self, events: list[Event]) -> None:
        assert self.dealer is not None
        events.append(Event(Kind.HAND_OVER, seat=self.dealer))
        # One seat on, always: view() finds the dealer of the hand still on view as the seat before.
        self.dealer = (self.dealer + 1) % self.players
        self.phase = Phase.DEAL


class _GameOver(Exception):
    """Raised inside apply() the instant a side reaches the target."""


# --------------------------------------------------------------------------- between games


def next_dealer(state: GameState) -> int | None:
    """Who deals the first hand of the next game of a match (or a rematch), after ``state``, as
    its rules say (:attr:`Rules.next_dealer`): the loser's first seat (``"loser"``, ACC: side
    ``n``'s first seat is seat ``n``, partners sit ``n`` and ``n + 2``), the seat after the
    first dealer of this game (``"alternate"``), or None: cut for deal (``"cut"``, and after a
    game that ended without a result: forfeited or abandoned).

    >>> import random
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
