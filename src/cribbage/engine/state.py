"""A game of cribbage as a state machine: state -> legal actions -> apply -> events.

:class:`GameState` holds one game under any :class:`~cribbage.engine.rules.Rules`.  Who acts next is
:attr:`GameState.to_act`: a seat number, :data:`~cribbage.engine.view.CHANCE` when the next step is
a chance event (the cut for deal, the deal, the starter), or :data:`~cribbage.engine.view.TERMINAL`
once the game is over.  Chance steps are actions like the others (:mod:`cribbage.engine.actions`),
produced by :meth:`GameState.sample_chance` from an injected :class:`random.Random`, so a seeded
game is the same everywhere and a search can re-deal the cards it cannot see.

Forced steps are taken by the engine itself: a player who cannot play says go, and with
automatic counting the show is counted as soon as the play ends.  Players are only asked when
they have a choice (a discard, a card, a count, a muggins call).

Every :meth:`GameState.apply` checks the action completely before changing anything, raises
:class:`~cribbage.engine.errors.IllegalActionError` naming the problem, and returns the
:class:`~cribbage.engine.events.Event` list of what happened (scores with their reasons), so
interfaces can announce them.  The checks are in :mod:`~cribbage.engine.checks`, the
transitions of each phase in :mod:`~cribbage.engine.dealing`, :mod:`~cribbage.engine.pegging`,
:mod:`~cribbage.engine.show` and :mod:`~cribbage.engine.muggins`.

>>> import random
>>> from cribbage.engine.rules import get_rules
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
from dataclasses import dataclass, field
from itertools import combinations

from .actions import (
    Action,
    Count,
    CutForDeal,
    Deal,
    Discard,
    Play,
    Starter,
    brief_repr,
    claimed_plays,
    muggins_answers,
    offered,
    single_play,
    stated_counts,
)
from .cards import Card, card_order, remaining
from .checks import check
from .dealing import do_cut, do_deal, do_discard, do_starter, draw_chance
from .errors import CribbageError, IllegalActionError
from .events import Event, GameResult
from .muggins import do_muggins
from .pegging import do_play
from .points import GameOver, Pending
from .rules import Rules
from .show import do_count
from .view import CHANCE, TERMINAL, Phase, SeatView

__all__ = ["GameState"]


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
    pending: Pending | None = None
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

    def owes_discard(self, seat: int) -> bool:
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
            return list(muggins_answers(caller))
        if phase is Phase.DISCARD:
            return self._discards_of(self._next_discarder())
        if phase is Phase.PLAY:
            seat = self.turn
            limit = 31 - self.count
            cards = sorted((c for c in self.hands[seat] if c.value <= limit), key=card_order)
            if self.rules.muggins_play:
                return [play for c in cards for play in claimed_plays(seat, c)]
            return [single_play(seat, c) for c in cards]
        return list(stated_counts(self._show_counter()))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (see :class:`SeatView`)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {brief_repr(seat)} in a {self.players}-player game")
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
            raise IllegalActionError(f"no seat {brief_repr(seat)} in a {self.players}-player game")
        return list(self._legal_for(seat, self.to_act))

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may act now: it is the actor, an opponent still entitled to decide
        on the count awaiting the muggins decision, or a seat still to discard."""
        pending = self.pending
        return (
            seat == self.to_act
            or (pending is not None and seat in pending.callers)
            or (0 <= seat < self.players and self.owes_discard(seat))
        )

    def _legal_for(self, seat: int, actor: int) -> tuple[Action, ...]:
        if seat == actor:
            return self._legal_now()
        pending = self.pending
        if pending is not None and seat in pending.callers:
            return muggins_answers(seat)
        if self.owes_discard(seat):
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
        check(self, action)

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` (never raises)."""
        try:
            check(self, action)
        except CribbageError:
            return False
        return True

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Action:
        """A random outcome of the pending chance step, drawn from ``rng`` only."""
        self._sampled = action = draw_chance(self, rng)
        return action

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
            if not (legal and offered(legal, action)):
                check(self, action)
        self._actor = self._legal = self._sampled = None
        self.closed_by = None
        self.steps += 1
        events: list[Event] = []
        try:
            if isinstance(action, Play):  # the most frequent first
                do_play(self, action, events)
            elif isinstance(action, Discard):
                do_discard(self, action, events)
            elif isinstance(action, CutForDeal):
                do_cut(self, action, events)
            elif isinstance(action, Deal):
                do_deal(self, action, events)
            elif isinstance(action, Starter):
                do_starter(self, action, events)
            elif isinstance(action, Count):
                do_count(self, action, events)
            else:
                do_muggins(self, action, events)
        except GameOver:
            pass
        return events
