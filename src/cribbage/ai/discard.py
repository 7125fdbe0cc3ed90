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
* near the end of a game of two sides (two players, lowball too, or partners; a side needs at
  most :data:`ENDGAME_NEED` points), the *chance of winning* with the keep, which then ranks
  the keeps instead: the hand over every starter, counted at the player's place in the show,
  the crib from sampled cards (two players) or from the hand model (partners), the pegging and
  the other hands from the hand model of :mod:`cribbage.ai.winning`, counted in order, and the
  game after this hand from its table.

>>> best = discard_options("5H 5C 6D JS QH 2C", dealer=False)[0]
>>> format_cards(best.keep), format_cards(best.discard)
('5H 5C JS QH', '6D 2C')
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Final

from ..engine.cards import DECK, Card, format_cards, parse_cards
from ..engine.rules import Rules, get_rules
from ..engine.scoring import hand_points
from .tables import Starters, crib_expectation, crib_value, pegging_value, unseen_draws
from .winning import Distribution, WinTable, convolve, win_table

__all__ = ["ENDGAME_NEED", "KeepOption", "discard_options", "hand_average", "opponent_weight", "show_place"]


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
    place: int | None = None,
) -> list[KeepOption]:
    """Every way to discard from ``hand``, best first.

    Args:
        hand: the dealt cards (as many as the rules deal).
        dealer: whether the crib is the player's side's.
        rules: the variant (standard by default).
        scores: (own side's, other side's) scores, to weigh the parts near the end of the game.
        exact: compute the crib exactly over every starter and every throw of the other
            players (uniform over the unseen cards) instead of reading the tables.
        place: the player's place in the show's order (:func:`show_place`: 0 for the pone, who
            counts first, up to the dealer, who counts last); by default the dealer's or the
            pone's, as ``dealer`` says.  It matters only for the chance of winning in
            partnerships, where the dealer's partner and the pone's partner count in between.

    Raises:
        CardError: for a hand of the wrong size or a card given twice.
        ValueError: for a ``place`` not on the side ``dealer`` says.
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
    if scores is not None:
        options = _with_win_chances(cards, options, dealer, rules, scores, place)
    options.sort(key=lambda o: (-(o.win or 0.0), -o.total, -o.hand, [c.index for c in o.discard]))
    return options


def _with_win_chances(
    cards: Sequence[Card],
    options: list[KeepOption],
    dealer: bool,
    rules: Rules,
    scores: Sequence[int],
    place: int | None,
) -> list[KeepOption]:
    """The options with their chance of winning near the end of the game.

    It is counted wherever two sides have a table (two players, lowball, partnerships; not three
    players: see :func:`cribbage.ai.winning.win_table`) once a side needs at most
    :data:`ENDGAME_NEED` points; else the options are returned as they are."""
    if not (rules.sides == 2 and len(scores) == 2 and min(rules.target - s for s in scores) <= ENDGAME_NEED):
        return options
    table = win_table(rules)
    if table is None:
        return options
    seats = len(table.model.hands)
    turn = (seats - 1 if dealer else 0) if place is None else place
    if not (0 <= turn < seats and table.model.hands[turn][0] == dealer):
        raise ValueError(f"place {place} in the show is not on the {'dealer' if dealer else 'pone'}'s side")
    chances = _win_chances(cards, options, turn, rules, (scores[0], scores[1]), table)
    return [replace(o, win=w) for o, w in zip(options, chances, strict=True)]


def show_place(seat: int, dealer: int, rules: Rules) -> int:
    """A seat's place in the show's order: 0 for the pone (the seat after the dealer, who counts
    first), up to ``rules.players - 1`` for the dealer (who counts last).

    >>> [show_place(seat, dealer=1, rules=get_rules("four-player")) for seat in range(4)]
    [2, 3, 0, 1]
    """
    return (seat - dealer - 1) % rules.players


def _win_chances(
    cards: Sequence[Card],
    options: Sequence[KeepOption],
    place: int,
    rules: Rules,
    scores: tuple[int, int],
    table: WinTable,
) -> list[float]:
    """The chance of winning with each keep, counted in the order of the game.

    The play and the other hands (the opponents', and a partner's) come from the hand model;
    the player's hand from every unseen starter, counted at its ``place`` in the show
    (:func:`show_place`), with each keep's pegging estimate shifting its points from the play.
    The crib is counted with the dealer's hand.  With two players its points come from every
    starter with :data:`CRIB_DRAWS` draws of its other cards (the same draws for every keep);
    with four (one card in four is the player's) from the hand model, which knows how the others
    feed and spoil it, and costs far less to count in order.  Either way its average is moved to
    the tables' (``KeepOption.crib``).  In lowball the side that reaches the target loses.
    """
    model = table.model
    dealing = place == len(model.hands) - 1
    average_pegging = sum(o.pegging for o in options) / len(options)
    pegging = [o.pegging - average_pegging for o in options]
    unseen = [c for c in DECK if c not in cards]
    if rules.players == 2:
        chance = _Counting(table, rules, place, scores).chance
        return _drawn_crib_chances(cards, options, pegging, unseen, dealing, rules, scores, chance)
    crib_base, spread = _crib_spread(model.crib, options)
    chance = _Counting(table, rules, place, scores, spread).chance
    chances = []
    for option, shift in zip(options, pegging, strict=True):
        crib = option.crib - crib_base
        total = 0.0
        for starter in unseen:
            hand = hand_points(option.keep, starter)
            total += chance(hand + shift + crib, 0.0) if dealing else chance(hand + shift, crib)
        chances.append(total / len(unseen))
    return chances


def _drawn_crib_chances(
    cards: Sequence[Card],
    options: Sequence[KeepOption],
    pegging: Sequence[float],
    unseen: Sequence[Card],
    dealing: bool,
    rules: Rules,
    scores: tuple[int, int],
    chance: Callable[[float, float], float],
) -> list[float]:
    """The chance of winning with each keep with the crib's other cards drawn: ``chance`` of the
    points of the hand and of the crib over every starter and draw.  The draws are seeded by the
    hand and the scores, so the answer is the same every time."""
    rng = random.Random(f"{sorted(c.index for c in cards)}:{scores}:{dealing}")
    extra = rules.crib_size - rules.discard
    draws = [
        (starter, *rng.sample([c for c in unseen if c != starter], extra))
        for starter in unseen
        for _ in range(CRIB_DRAWS)
    ]
    chances = []
    for option, pegging_shift in zip(options, pegging, strict=True):
        cribs = [hand_points((*option.discard, *others), starter, crib=True) for starter, *others in draws]
        # The crib's other cards are drawn at random; its average is moved to the tables' (the
        # others spoil or feed it), as the pegging estimate moves the play.
        crib_shift = option.crib - sum(cribs) / len(cribs)
        shift = pegging_shift + (crib_shift if dealing else 0.0)
        total = 0.0
        for (starter, *_), crib in zip(draws, cribs, strict=True):
            hand = hand_points(option.keep, starter)
            if dealing:
                total += chance(hand + crib + shift, 0.0)
            else:
                total += chance(hand + shift, crib + crib_shift)
        chances.append(total / len(draws))
    return chances


def _crib_spread(crib: Distribution, options: Sequence[KeepOption]) -> tuple[float, Distribution]:
    """The crib's spread from the hand model, moved by whole points so that the rest of every
    keep's crib (its known part) is 0 or more, and the points it stands for (its average).

    >>> _crib_spread({2: 0.5, 6: 0.5}, [KeepOption((), (), 0, 3.5, True, 0, 0)])  # 0.5 known
    (3.0, {1: 0.5, 5: 0.5})
    """
    average = sum(h * p for h, p in crib.items())
    moved = math.floor(min(o.crib for o in options) - average)
    spread: Distribution = {}
    for h, p in crib.items():
        spread[max(0, h + moved)] = spread.get(max(0, h + moved), 0.0) + p
    return average + moved, spread


SEEN_LIMIT: Final = 100_000
"""Counting positions kept between decisions at most, for each table and place."""
_SEEN: dict[tuple[WinTable, bool, int], dict[tuple[int, int, int, int, int], float]] = {}


class _Counting:
    """The chance of winning once the cards are kept, from the points of the player's hand and
    of the crib that are known (:meth:`chance`), the rest of the hand from the model.

    The counts come in the order of the rules: the play (either side can go out), then each
    hand at its place in the show, the crib with the dealer's; a game that goes on is valued by
    the table.  With ``spread`` (the crib's unknown part, see :func:`_crib_spread`) the crib's
    points are that and the known ones together.
    """

    def __init__(
        self,
        table: WinTable,
        rules: Rules,
        place: int,
        scores: tuple[int, int],
        spread: Distribution | None = None,
    ) -> None:
        model = table.model
        self.table, self.target, self.place = table, rules.target, place
        self.last = len(model.hands) - 1
        self.dealer = model.hands[place][0]
        # The chance of winning when the player's side reaches the target first, and the other's.
        self.first = (0.0, 1.0) if rules.lowball else (1.0, 0.0)
        # Each count: whether the player's side scores it, and the distribution of its points
        # beyond the known ones (the player's hand, the crib's known part).
        counts = [(dealers == self.dealer, dist) for dealers, dist in model.hands]
        counts[place] = (True, {0: 1.0})
        if spread is not None:
            counts[-1] = (counts[-1][0], convolve(counts[-1][1], spread))
        self.counts = counts
        # Before the k-th count the player's hand and the crib are added to their side's score
        # at once when that side counts nothing before their turn (it cannot reach the target
        # sooner): the target is still checked count by count, in order, and the positions that
        # differ only by when a known number of points is added are worked out once.
        self.own_now = [not any(ours for ours, _ in counts[k:place]) for k in range(self.last + 1)]
        self.crib_now = [
            not any(ours == self.dealer for ours, _ in counts[k : self.last]) for k in range(self.last + 1)
        ]
        self.start = 0 if self.own_now[0] else place
        self.positions = self._before(scores, model.pegging)
        # What the counts from a position are worth depends on the table and the place, not on
        # the scores of this hand: without a crib spread of its own it is kept for the next one.
        self.seen = _SEEN.setdefault((table, rules.lowball, place), {}) if spread is None else {}
        if len(self.seen) > SEEN_LIMIT:
            self.seen.clear()
        self.memo: dict[tuple[int, int], float] = {}

    def _before(
        self, scores: tuple[int, int], pegging: Mapping[tuple[int, int], float]
    ) -> list[tuple[int, int, float, float | None]]:
        """The positions (the player's side's score, the other's, chance) the counting goes on
        from at :attr:`start`, each with its chance of winning when already decided (else None).

        The play, then, when the player's side counts before the player, the counts before the
        player's: they do not depend on the keep, so they are summed once, forward.
        """
        target, dealer = self.target, self.dealer
        first_mine, first_theirs = self.first
        plays = [(a, b, p) if dealer else (b, a, p) for (a, b), p in pegging.items() if p >= PEGGING_MASS]
        mass = sum(p for _, _, p in plays)
        positions: list[tuple[int, int, float, float | None]] = []
        for a, b, p in plays:
            x, y = scores[0] + a, scores[1] + b
            won = (
                (0.5 if y >= target else first_mine) if x >= target else first_theirs if y >= target else None
            )
            positions.append((x, y, p / mass, won))
        for ours, dist in self.counts[: self.start]:
            reached: dict[tuple[int, int], float] = {}
            decided = 0.0
            for x, y, p, won in positions:
                if won is not None:
                    decided += p * won
                    continue
                for h, q in dist.items():
                    if ours and x + h >= target:
                        decided += p * q * first_mine
                    elif not ours and y + h >= target:
                        decided += p * q * first_theirs
                    else:
                        where = (x + h, y) if ours else (x, y + h)
                        reached[where] = reached.get(where, 0.0) + p * q
            positions = [(x, y, p, None) for (x, y), p in reached.items()]
            positions.append((target, target, 1.0, decided))
        return positions

    def count_from(self, k: int, x: int, y: int, own: int, crib: int) -> float:
        """Before the ``k``-th count (the player's side at x, the other at y), with the known
        points of the player's hand (``own``, counted at its place) and of the crib (``crib``,
        the dealer's side's, counted last) still to add (0 once added)."""
        target, last = self.target, self.last
        if k > last:
            return self.table.chance(x, y, dealing=not self.dealer)
        if own:
            if self.own_now[k]:
                x, own = min(x + own, target), 0
            else:  # points past the target count alike
                own = min(own, target - x)
        if crib:
            if self.crib_now[k]:
                if self.dealer:
                    x = min(x + crib, target)
                else:
                    y += crib
                crib = 0
            else:
                crib = min(crib, target - (x if self.dealer else y))
        key = (k, x, y, own, crib)
        total = self.seen.get(key)
        if total is not None:
            return total
        ours, dist = self.counts[k]
        first_mine, first_theirs = self.first
        add = (own if k == self.place else 0) + (crib if k == last else 0)
        own, crib = (0 if k == self.place else own), (0 if k == last else crib)
        total = 0.0
        for h, p in dist.items():
            if ours:
                if x + h + add >= target:
                    total += p * first_mine
                else:
                    total += p * self.count_from(k + 1, x + h + add, y, own, crib)
            elif y + h + add >= target:
                total += p * first_theirs
            else:
                total += p * self.count_from(k + 1, x, y + h + add, own, crib)
        self.seen[key] = total
        return total

    def after_deal(self, shows: int, crib: int) -> float:
        """The chance of winning given the known points of the player's hand (with the crib's,
        for the dealer) and of the crib (for another seat)."""
        key = (shows, crib)
        value = self.memo.get(key)
        if value is None:
            value = 0.0
            for x, y, p, won in self.positions:
                value += p * (self.count_from(self.start, x, y, shows, crib) if won is None else won)
            self.memo[key] = value
        return value

    def chance(self, shows: float, crib: float) -> float:
        """:meth:`after_deal` between whole points, linear in each (a keep's estimates shift
        its points by fractions); never below no points at all."""
        low_s, low_c = max(0, math.floor(shows)), max(0, math.floor(crib))
        part_s, part_c = max(0.0, shows - low_s), max(0.0, crib - low_c)
        value = self.after_deal(low_s, low_c)
        if part_s:
            value += part_s * (self.after_deal(low_s + 1, low_c) - value)
        if part_c:
            upper = self.after_deal(low_s, low_c + 1)
            if part_s:
                upper += part_s * (self.after_deal(low_s + 1, low_c + 1) - upper)
            value += part_c * (upper - value)
        return value
