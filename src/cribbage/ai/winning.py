"""The chance of winning a two-sided game from its score, and what a hand scores by role.

Near the end of a game points matter only as they decide who reaches the target first, so the
``strong`` player weighs its choices there by the chance of winning.  That chance, from the
start of a hand with the dealer at ``d`` and the pone at ``p``, is a table computed by
``tools/make_win_tables.py`` (shipped in ``data/winning.json``) from a model of one hand:

* the points each role pegs in the play (a joint distribution: the dealer's, his heels
  included, and the pone's), then the pone's hand, then the dealer's hand and the crib, each
  drawn independently from what ``strong`` players scored in simulated hands;
* the game ends the moment a side reaches the target: during the play (when both could, either
  is as likely to be first), at the pone's count, or at the dealer's;
* otherwise the deal passes, and the chance is the table's own value for the next hand.

In partnerships the sides take the roles, and the four hands are counted in their order (the
pone's, the dealer's partner's, the pone's partner's, the dealer's and the crib).  In lowball
the side that reaches the target loses.  Three players have no table.

:class:`HandModel` holds those distributions, :class:`WinTable` the chances.

>>> from cribbage.engine.rules import get_rules
>>> table = win_table(get_rules())
>>> table is not None and 0.5 < table.chance(0, 0, dealing=True) < 0.6  # the first deal helps
True
>>> round(table.chance(120, 100, dealing=False), 2)  # the pone counts first: one point to go
1.0
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ..engine.errors import CribbageError
from ..engine.rules import Rules

__all__ = ["WIN_FILE", "Distribution", "HandModel", "WinTable", "deal_shape", "solve", "win_table"]

WIN_FILE: Final = "winning.json"

Distribution = dict[int, float]
"""Chances of point totals: ``{points: chance}``."""


@dataclass(frozen=True)
class HandModel:
    """What one hand scores, by role, as independent distributions.

    Attributes:
        pegging: the chance of each (dealer's, pone's) points in the play; the dealer's include
            his heels.  With partners, each side's points.
        pone_hand: the pone's show.
        dealer_hand: the dealer's show.
        crib: the crib's show.
        dealer_partner_hand: with four players in partnerships, the dealer's partner's show
            (counted second, after the pone's); else ``None``.
        pone_partner_hand: the pone's partner's show (counted third), or ``None``.
    """

    pegging: dict[tuple[int, int], float]
    pone_hand: Distribution
    dealer_hand: Distribution
    crib: Distribution
    dealer_partner_hand: Distribution | None = None
    pone_partner_hand: Distribution | None = None

    @property
    def dealer_show(self) -> Distribution:
        """The dealer's hand and crib together."""
        return convolve(self.dealer_hand, self.crib)

    @property
    def hands(self) -> list[tuple[bool, Distribution]]:
        """The hands in the order they are counted, each as (whether the dealer's side scores
        it, its distribution): the pone's, then the dealer's; with partners the pone's, the
        dealer's partner's, the pone's partner's and the dealer's.  The crib (apart) is counted
        with the last.  A seat's place in this list is its place in the show (0 for the pone)."""
        if self.dealer_partner_hand is None or self.pone_partner_hand is None:
            return [(False, self.pone_hand), (True, self.dealer_hand)]
        return [
            (False, self.pone_hand),
            (True, self.dealer_partner_hand),
            (False, self.pone_partner_hand),
            (True, self.dealer_hand),
        ]

    @property
    def shows(self) -> list[tuple[bool, Distribution]]:
        """The counts of the show in order, as :attr:`hands` but with the crib added to the
        dealer's hand (they are counted one after the other, with nothing between)."""
        counts = self.hands
        counts[-1] = (True, self.dealer_show)
        return counts

    def to_json(self) -> dict[str, Any]:
        data = {
            "pegging": [[a, b, round(p, 6)] for (a, b), p in sorted(self.pegging.items())],
            "pone_hand": _dist_json(self.pone_hand),
            "dealer_hand": _dist_json(self.dealer_hand),
            "crib": _dist_json(self.crib),
        }
        if self.dealer_partner_hand is not None and self.pone_partner_hand is not None:
            data["dealer_partner_hand"] = _dist_json(self.dealer_partner_hand)
            data["pone_partner_hand"] = _dist_json(self.pone_partner_hand)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandModel:
        partners = "dealer_partner_hand" in data
        return cls(
            pegging={(int(a), int(b)): float(p) for a, b, p in data["pegging"]},
            pone_hand=_dist_from_json(data["pone_hand"]),
            dealer_hand=_dist_from_json(data["dealer_hand"]),
            crib=_dist_from_json(data["crib"]),
            dealer_partner_hand=_dist_from_json(data["dealer_partner_hand"]) if partners else None,
            pone_partner_hand=_dist_from_json(data["pone_partner_hand"]) if partners else None,
        )


def _dist_json(dist: Distribution) -> list[list[float]]:
    return [[k, round(p, 6)] for k, p in sorted(dist.items())]


def _dist_from_json(data: Sequence[Sequence[float]]) -> Distribution:
    return {int(k): float(p) for k, p in data}


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent totals."""
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def solve(model: HandModel, target: int) -> list[list[float]]:
    """The dealer's side's chance of reaching ``target`` first from every score, ``[dealer][pone]``
    (of the two sides), below ``target``.

    By levels of the sum of the scores, from the highest down: every hand scores at least a point
    (the last card), so a state depends only on states of higher sums, or of the same sum for a
    count of nothing, worked out before it (the counts of the show from the last back).
    """
    t = target
    peg = [(a, b, p) for (a, b), p in model.pegging.items() if p > 0]
    shows = [(dealers, sorted((h, p) for h, p in dist.items() if p > 0)) for dealers, dist in model.shows]
    if any(a + b <= 0 for a, b, _ in peg):
        raise CribbageError("every hand pegs at least the last card")
    win = [[0.0] * t for _ in range(t)]
    # before[k][x][y]: the dealer's chance once the play is over and the show's counts before
    # the k-th are made, with the dealer's side at x and the pone's at y (both below the target).
    before = [[[0.0] * t for _ in range(t)] for _ in shows]
    last = len(shows) - 1
    for level in range(2 * t - 2, -1, -1):
        cells = [(d, level - d) for d in range(max(0, level - t + 1), min(t - 1, level) + 1)]
        for d, p in cells:
            total = 0.0
            for a, b, chance in peg:
                x, y = d + a, p + b
                if x >= t:
                    total += chance * (0.5 if y >= t else 1.0)
                elif y < t:
                    total += chance * before[0][x][y]
            win[d][p] = total
        for k in range(last, -1, -1):
            dealers, dist = shows[k]
            table = before[k]
            for x, y in cells:
                total = 0.0
                if k == last:  # the dealer's own count: then the deal passes
                    for z, chance in dist:
                        total += chance * (1.0 if x + z >= t else 1.0 - win[y][x + z])
                elif dealers:
                    after = before[k + 1]
                    for z, chance in dist:
                        total += chance * (1.0 if x + z >= t else after[x + z][y])
                else:
                    after = before[k + 1]
                    for h, chance in dist:
                        if y + h < t:
                            total += chance * after[x][y + h]
                table[x][y] = total
    return win


class WinTable:
    """The chance of winning from a score, for one variant's deal and target.

    ``dealer_wins[d][p]`` is the dealer's side's chance of winning; in lowball (``lowball``),
    where the side that reaches the target loses, it is the chance that the pone's side
    reaches it first.
    """

    def __init__(
        self, target: int, dealer_wins: list[list[float]], model: HandModel, lowball: bool = False
    ) -> None:
        self.target = target
        self.dealer_wins = dealer_wins
        self.model = model
        self.lowball = lowball

    def chance(self, mine: int, theirs: int, dealing: bool) -> float:
        """The chance of winning at the start of a hand, with these scores, dealing or not."""
        t = self.target
        if mine < 0 or theirs < 0:
            raise ValueError(f"no chance of winning from a negative score: {mine}, {theirs}")
        if mine >= t or theirs >= t:
            won = 1.0 if mine >= t > theirs else 0.0 if theirs >= t > mine else 0.5
            return 1.0 - won if self.lowball else won
        if dealing:
            return self.dealer_wins[mine][theirs]
        return 1.0 - self.dealer_wins[theirs][mine]


@cache
def _load() -> dict[str, Any]:
    text = resources.files("cribbage.ai").joinpath("data", WIN_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def deal_shape(rules: Rules) -> str:
    """The name of a deal in the tables: cards dealt and thrown, crib cards from the pack; the
    number of players when not two, ``-one`` for a single count, ``-lowball`` for lowball.

    >>> from cribbage.engine.rules import get_rules
    >>> deal_shape(get_rules()), deal_shape(get_rules("five-card")), deal_shape(get_rules("lowball"))
    ('deal6-throw2-crib0', 'deal5-throw2-crib0-one', 'deal6-throw2-crib0-lowball')
    >>> deal_shape(get_rules("four-player")), deal_shape(get_rules("three-player"))
    ('p4-deal5-throw1-crib0', 'p3-deal5-throw1-crib1')
    """
    players = "" if rules.players == 2 else f"p{rules.players}-"
    return (
        f"{players}deal{rules.deal}-throw{rules.discard}-crib{rules.crib_from_deck}"
        + ("-one" if rules.one_count else "")
        + ("-lowball" if rules.lowball else "")
    )


@cache
def _table(shape: str, target: int, lowball: bool) -> WinTable | None:
    data = _load()
    model = data["models"].get(shape)
    table = data["tables"].get(f"{shape}-{target}")
    if model is None or table is None:
        return None
    wins = [[v / 10000 for v in row] for row in table]
    return WinTable(target, wins, HandModel.from_json(model), lowball=lowball)


def win_table(rules: Rules) -> WinTable | None:
    """The table of these rules' own deal and target, or ``None`` when none is shipped (never
    another variant's): two sides only (two players, or four in partnerships)."""
    if rules.sides != 2:
        return None
    return _table(deal_shape(rules), rules.target, rules.lowball)
