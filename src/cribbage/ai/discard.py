"""Which cards to keep: every possible keep ranked by its expected value.

For each way to split the dealt hand into the cards kept and the cards thrown to the crib,
:func:`discard_options` gives

* the *hand*: the exact average show of the kept cards over every starter the player cannot see
  (46 of them for a six-card deal),
* the *crib*: the expected points of the crib the throw goes to, from the shipped tables
  (:func:`cribbage.ai.tables.crib_value`) or, with ``exact=True``, exactly over every starter and
  every throw of the other players (:func:`cribbage.ai.tables.crib_expectation`),
* the *pegging* estimate of the kept cards in the play (:func:`cribbage.ai.tables.pegging_value`),
* the *total* the ``strong`` player ranks by: hand, plus the crib when it is the player's side's
  (minus it otherwise), plus pegging; near the end of the game, weighted by what still matters
  and by the chance of reaching the target in this hand (see :class:`Endgame`).

>>> best = discard_options("5H 5C 6D JS QH 2C", dealer=False)[0]
>>> format_cards(best.keep), format_cards(best.discard)
('5H 5C JS QH', '6D 2C')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from ..cards import DECK, Card, format_cards, parse_cards
from ..rules import Rules, get_rules
from ..scoring import hand_points
from .tables import Starters, crib_expectation, crib_value, pegging_value, unseen_draws

__all__ = ["Endgame", "KeepOption", "discard_options", "hand_average"]


@dataclass(frozen=True, slots=True)
class KeepOption:
    """One way to discard: the cards kept and thrown, and what each part is expected to score.

    Attributes:
        keep: the cards kept for the play and the show.
        discard: the cards thrown to the crib.
        hand: the expected show of ``keep``, averaged exactly over every unseen starter.
        crib: the expected points of the crib (whoever owns it).
        own_crib: whether the crib belongs to the player's side.
        pegging: the estimated net points of ``keep`` in the play.
        total: what the keep is worth to the player: ``hand ± crib + pegging``, weighted near the
            end of the game.
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: float
    crib: float
    own_crib: bool
    pegging: float
    total: float

    def to_json(self) -> dict[str, Any]:
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand": round(self.hand, 3),
            "crib": round(self.crib, 3),
            "own_crib": self.own_crib,
            "pegging": round(self.pegging, 3),
            "total": round(self.total, 3),
        }

    def __str__(self) -> str:
        sign = "+" if self.own_crib else "-"
        keep, throw = format_cards(self.keep, pretty=True), format_cards(self.discard, pretty=True)
        return (
            f"keep {keep}, throw {throw}: hand {self.hand:.2f} {sign} crib {self.crib:.2f}"
            f" + pegging {self.pegging:.2f} = {self.total:.2f}"
        )


def hand_average(keep: Sequence[Card], starters: Sequence[Card], crib: bool = False) -> float:
    """The exact average show of ``keep`` over ``starters`` (the cards the player cannot see).

    With ``crib``, scored as a crib (a flush needs the starter's suit too).

    >>> hand_average(parse_cards("5H 5C JS QH"), parse_cards("5D 5S"))  # 20, and 21 with nobs
    20.5
    """
    return Starters(starters).average(keep, crib)


REACH_POINTS: Final = 12.0
"""What counting out for certain, before the opponent can, adds to a keep's total near the end."""
PEGGING_GROSS: Final = {False: 3.5, True: 4.5}
"""Points a pone (False) and a dealer (True) usually peg with four cards each."""


@dataclass(frozen=True, slots=True)
class Endgame:
    """What still matters when the game may end in this hand, from the (own, other) scores.

    The show is counted in order: the pone's hand, the dealer's hand, then the crib.

    * A dealer facing a pone who is likely to count out first gains little from its hand and
      crib: only pegging out before the pone counts can save it.
    * A pone near the target values the dealer's crib less (it may never be counted).
    * Either side values the chance of reaching the target with this hand (its pegging, hand
      and, for the dealer, crib), up to :data:`REACH_POINTS`, the more so as the opponent is near.
    """

    own_need: int
    other_need: int
    own_crib: bool
    hand: float = 1.0
    crib: float = 1.0
    pegging: float = 1.0
    urgency: float = 0.0

    @classmethod
    def of(cls, rules: Rules, own_crib: bool, scores: Sequence[int] | None) -> Endgame | None:
        if scores is None or rules.lowball or len(scores) < 2:
            return None
        own_need, other_need = rules.target - scores[0], rules.target - scores[1]
        typical = 3 * rules.hand_size  # a hand and its pegging: about 12 points
        if min(own_need, other_need) > 3 * typical:
            return None
        reach = _closeness(own_need, typical)
        threat = _closeness(other_need, typical)
        urgency = _closeness(other_need, round(1.5 * typical))
        needs = (own_need, other_need, own_crib)
        if own_crib:  # the opponent counts first: what is counted after it matters less
            hand = 1 - 0.5 * threat
            return cls(*needs, hand=hand, crib=1 - 0.8 * threat, pegging=1 + threat, urgency=urgency * hand)
        return cls(*needs, crib=1 - 0.5 * reach, pegging=1 + 0.5 * reach + threat, urgency=urgency)

    def total(
        self, keep: Sequence[Card], unseen: Sequence[Card], hand: float, crib: float, pegging: float
    ) -> float:
        """The keep's total: the weighted parts, plus the value of reaching the target now."""
        signed_crib = crib if self.own_crib else -crib
        total = self.hand * hand + self.crib * signed_crib + self.pegging * pegging
        if self.urgency:
            total += REACH_POINTS * self.urgency * self.reach_chance(keep, unseen, crib)
        return total

    def reach_chance(self, keep: Sequence[Card], unseen: Sequence[Card], crib: float) -> float:
        """The chance that pegging, the hand and (for the dealer) the crib reach the target.

        Exact over the starters for the hand; the pegging and the crib are taken at their usual
        values with a spread of about 3 points (a logistic curve).
        """
        short = (
            self.own_need - PEGGING_GROSS[self.own_crib] * len(keep) / 4 - (crib if self.own_crib else 0.0)
        )
        chance = 0.0
        for starter in unseen:
            chance += 1.0 / (1.0 + math.exp((short - 0.5 - hand_points(keep, starter)) / 1.7))
        return chance / len(unseen)


def _closeness(need: int, typical: int) -> float:
    """1 when ``need`` is within a typical hand, falling to 0 at twice a typical hand."""
    if need <= typical:
        return 1.0
    if need >= 2 * typical:
        return 0.0
    return (2 * typical - need) / typical


def discard_options(
    hand: Sequence[Card] | str,
    dealer: bool,
    rules: Rules | None = None,
    scores: Sequence[int] | None = None,
    exact: bool = False,
) -> list[KeepOption]:
    """Every way to discard from ``hand``, best first.

    Args:
        hand: the dealt cards (as many as the rules deal).
        dealer: whether the crib is the player's side's.
        rules: the variant (standard by default).
        scores: (own, opponent's) scores, to weigh the parts near the end of the game.
        exact: compute the crib exactly over every starter and every throw of the other
            players (uniform over the unseen cards) instead of reading the tables.

    Raises:
        CardError: for a hand of the wrong size or a card given twice.
    """
    rules = rules or get_rules()
    cards = parse_cards(hand, size=rules.deal)
    unseen = [c for c in DECK if c not in cards]
    lowball = rules.lowball
    endgame = Endgame.of(rules, dealer, scores)
    starters = Starters(unseen)
    draws = unseen_draws(unseen, rules.crib_size - rules.discard + 1) if exact else None
    options = []
    for thrown in combinations(cards, rules.discard):
        keep = tuple(c for c in cards if c not in thrown)
        expected_hand = starters.average(keep)
        if exact:
            crib = crib_expectation(thrown, unseen, rules.crib_size, draws=draws)
        else:
            crib = crib_value(thrown, rules, own=dealer)
        pegging = pegging_value(keep, rules, dealer) if rules.players == 2 else 0.0
        total = expected_hand + (crib if dealer else -crib) + pegging
        if lowball:
            total = -total
        elif endgame is not None:
            total = endgame.total(keep, unseen, expected_hand, crib, pegging)
        options.append(KeepOption(keep, thrown, expected_hand, crib, dealer, pegging, total))
    options.sort(key=lambda o: (-o.total, -o.hand, [c.index for c in o.discard]))
    return options
