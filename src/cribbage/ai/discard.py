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
  (minus it otherwise, or minus half of it with three players: see :func:`opponent_weight`), plus
  pegging;
* near the end of a two-player game (a side needs at most :data:`ENDGAME_NEED` points), the
  *chance of winning* with the keep, which then ranks the keeps instead: the hand and the crib
  over every starter with sampled crib cards, the pegging and the opponent's shows from the hand
  model of :mod:`cribbage.ai.winning`, counted in order, and the game after this hand from its
  table.

>>> best = discard_options("5H 5C 6D JS QH 2C", dealer=False)[0]
>>> format_cards(best.keep), format_cards(best.discard)
('5H 5C JS QH', '6D 2C')
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Final

from ..engine.cards import DECK, Card, format_cards, parse_cards
from ..engine.rules import Rules, get_rules
from ..engine.scoring import hand_points
from .tables import Starters, crib_expectation, crib_value, pegging_value, unseen_draws
from .winning import WinTable, win_table

__all__ = ["ENDGAME_NEED", "KeepOption", "discard_options", "hand_average", "opponent_weight"]


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
        total: what the keep is worth to the player in points: ``hand ± crib_weight × crib +
            pegging``.
        win: near the end of the game, the chance of winning with this keep (else ``None``).
        crib_weight: what a point of this crib is worth to the player: 1, or with three players
            and an opponent's crib 1/2 (:func:`opponent_weight`).
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: float
    crib: float
    own_crib: bool
    pegging: float
    total: float
    win: float | None = None
    crib_weight: float = 1.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand": round(self.hand, 3),
            "crib": round(self.crib, 3),
            "own_crib": self.own_crib,
            "pegging": round(self.pegging, 3),
            "total": round(self.total, 3),
        }
        if self.win is not None:
            data["win"] = round(self.win, 4)
        if self.crib_weight != 1:
            data["crib_weight"] = round(self.crib_weight, 4)
        return data

    def __str__(self) -> str:
        sign = "+" if self.own_crib else "-"
        if self.crib_weight != 1:
            sign += f" {self.crib_weight:g} ×"
        keep, throw = format_cards(self.keep, pretty=True), format_cards(self.discard, pretty=True)
        text = (
            f"keep {keep}, throw {throw}: hand {self.hand:.2f} {sign} crib {self.crib:.2f}"
            f" + pegging {self.pegging:.2f} = {self.total:.2f}"
        )
        return text if self.win is None else f"{text}, wins {self.win:.1%}"


def opponent_weight(rules: Rules) -> float:
    """What a point of one opponent's side is worth against a point of one's own: with three
    players 1/2, else 1.

    With one opponent, its point is as bad as one's own is good.  With two, the chances of
    winning of the three add to 1, so in an even game a point that raises one opponent's chance
    takes it from the other two alike: half from the player, half from the other opponent.

    >>> opponent_weight(get_rules("three-player")), opponent_weight(get_rules("four-player"))
    (0.5, 1.0)
    """
    return 1 / (rules.sides - 1)


def hand_average(keep: Sequence[Card], starters: Sequence[Card], crib: bool = False) -> float:
    """The exact average show of ``keep`` over ``starters`` (the cards the player cannot see).

    With ``crib``, scored as a crib (a flush needs the starter's suit too).

    >>> hand_average(parse_cards("5H 5C JS QH"), parse_cards("5D 5S"))  # 20, and 21 with nobs
    20.5
    """
    return Starters(starters).average(keep, crib)


ENDGAME_NEED: Final = 80
"""Keeps are ranked by the chance of winning once a side needs at most this many points."""
CRIB_DRAWS: Final = 3
"""For each starter, the crib's other cards are drawn this many times to weigh a keep's chance
of winning."""
PEGGING_MASS: Final = 2e-4
"""Outcomes of the play less likely than this are left out of the chance of winning."""


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
    starters = Starters(unseen)
    draws = unseen_draws(unseen, rules.crib_size - rules.discard + 1) if exact else None
    weight = 1.0 if dealer else opponent_weight(rules)
    options = []
    for thrown in combinations(cards, rules.discard):
        keep = tuple(c for c in cards if c not in thrown)
        expected_hand = starters.average(keep)
        if exact:
            crib = crib_expectation(thrown, unseen, rules.crib_size, draws=draws)
        else:
            crib = crib_value(thrown, rules, own=dealer)
        pegging = pegging_value(keep, rules, dealer)
        total = expected_hand + (crib if dealer else -weight * crib) + pegging
        if rules.lowball:
            total = -total
        option = KeepOption(keep, thrown, expected_hand, crib, dealer, pegging, total, crib_weight=weight)
        options.append(option)
    # The chance of winning is counted for two players only (not yet for partners or lowball,
    # whose tables are shipped: see :func:`cribbage.ai.winning.win_table`).
    two_players = rules.players == 2 and not rules.lowball
    if (
        two_players
        and scores is not None
        and len(scores) == 2
        and min(rules.target - s for s in scores) <= ENDGAME_NEED
    ):
        table = win_table(rules)
        if table is not None:
            chances = _win_chances(cards, options, dealer, rules, (scores[0], scores[1]), table)
            options = [replace(o, win=w) for o, w in zip(options, chances, strict=True)]
    options.sort(key=lambda o: (-(o.win or 0.0), -o.total, -o.hand, [c.index for c in o.discard]))
    return options


def _win_chances(
    cards: Sequence[Card],
    options: Sequence[KeepOption],
    dealer: bool,
    rules: Rules,
    scores: tuple[int, int],
    table: WinTable,
) -> list[float]:
    """The chance of winning with each keep, counted in the order of the game.

    The play, the opponent's hand and (for a dealer) the crib's share of the opponent's cards
    come from the hand model; the player's hand and the crib from every unseen starter, each with
    :data:`CRIB_DRAWS` draws of the crib's other cards (the same draws for every keep), each keep's
    pegging estimate shifting its points from the play.  The draws are seeded by the hand and the
    scores, so the answer is the same every time.
    """
    mine, theirs = scores
    target = rules.target
    model = table.model
    unseen = [c for c in DECK if c not in cards]
    rng = random.Random(f"{sorted(c.index for c in cards)}:{scores}:{dealer}")
    extra = rules.crib_size - rules.discard
    draws = [
        (starter, *rng.sample([c for c in unseen if c != starter], extra))
        for starter in unseen
        for _ in range(CRIB_DRAWS)
    ]
    # The play: (player's points, opponent's points, chance).
    plays = [(a, b, p) if dealer else (b, a, p) for (a, b), p in model.pegging.items() if p >= PEGGING_MASS]
    mass = sum(p for _, _, p in plays)
    plays = [(a, b, p / mass) for a, b, p in plays]
    average_pegging = sum(o.pegging for o in options) / len(options)
    opponent_hand = model.pone_hand if dealer else model.dealer_hand

    seen: dict[tuple[int, int], float] = {}

    def shown(x: int, y: int) -> float:
        """After the play (player at x, opponent at y): the opponent's hand is still to count,
        and the player's shows (already added to x) come after it (dealer) or before (pone)."""
        x = min(x, target)
        key = (x, y)
        total = seen.get(key)
        if total is not None:
            return total
        total = 0.0
        for h, p in opponent_hand.items():
            if dealer:
                if y + h < target:
                    total += p * (1.0 if x >= target else table.chance(x, y + h, dealing=False))
            elif x >= target:
                total += p
            elif y + h < target:
                total += p * table.chance(x, y + h, dealing=True)
        seen[key] = total
        return total

    memo: dict[tuple[int, int], float] = {}

    def after_deal(shows: int, crib: int) -> float:
        """The chance of winning given the player's shows and the opponent's crib points."""
        key = (shows, crib)
        value = memo.get(key)
        if value is None:
            value = 0.0
            for a, b, p in plays:
                x, y = mine + a, theirs + b
                if x >= target:
                    value += p * (0.5 if y >= target else 1.0)
                elif y < target:
                    value += p * shown(x + shows, y + crib)
            memo[key] = value
        return value

    def at(shows: float, crib: float) -> float:
        """:func:`after_deal` between whole points, linear in each (a keep's estimates shift
        its points by fractions); never below no points at all."""
        low_s, low_c = max(0, math.floor(shows)), max(0, math.floor(crib))
        part_s, part_c = max(0.0, shows - low_s), max(0.0, crib - low_c)
        value = after_deal(low_s, low_c)
        if part_s:
            value += part_s * (after_deal(low_s + 1, low_c) - value)
        if part_c:
            upper = after_deal(low_s, low_c + 1)
            if part_s:
                upper += part_s * (after_deal(low_s + 1, low_c + 1) - upper)
            value += part_c * (upper - value)
        return value

    chances = []
    for option in options:
        cribs = [hand_points((*option.discard, *others), starter, crib=True) for starter, *others in draws]
        # The crib's other cards are drawn at random; its average is moved to the tables' (the
        # other player spoils our crib and feeds its own), as the pegging estimate moves the play.
        crib_shift = option.crib - sum(cribs) / len(cribs)
        shift = option.pegging - average_pegging + (crib_shift if dealer else 0.0)
        total = 0.0
        for (starter, *_), crib in zip(draws, cribs, strict=True):
            hand = hand_points(option.keep, starter)
            if dealer:
                total += at(hand + crib + shift, 0.0)
            else:
                total += at(hand + shift, crib + crib_shift)
        chances.append(total / len(draws))
    return chances
