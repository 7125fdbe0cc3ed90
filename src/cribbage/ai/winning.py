"""The chance of winning a two-player game from its score, and what a hand scores by role.

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
            his heels.
        pone_hand: the pone's show.
        dealer_hand: the dealer's show.
        crib: the crib's show.
    """

    pegging: dict[tuple[int, int], float]
    pone_hand: Distribution
    dealer_hand: Distribution
    crib: Distribution

    @property
    def dealer_show(self) -> Distribution:
        """The dealer's hand and crib together."""
        return convolve(self.dealer_hand, self.crib)

    def to_json(self) -> dict[str, Any]:
        return {
            "pegging": [[a, b, round(p, 6)] for (a, b), p in sorted(self.pegging.items())],
            "pone_hand": _dist_json(self.pone_hand),
            "dealer_hand": _dist_json(self.dealer_hand),
            "crib": _dist_json(self.crib),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandModel:
        return cls(
            pegging={(int(a), int(b)): float(p) for a, b, p in data["pegging"]},
            pone_hand=_dist_from_json(data["pone_hand"]),
            dealer_hand=_dist_from_json(data["dealer_hand"]),
            crib=_dist_from_json(data["crib"]),
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
    """The dealer's chance of winning from every score, ``[dealer][pone]``, below ``target``.

    By levels of the sum of the scores, from the highest down: every hand scores at least a point
    (the last card), so a state depends only on states of higher sums.
    """
    t = target
    peg = [(a, b, p) for (a, b), p in model.pegging.items() if p > 0]
    pone = sorted((h, p) for h, p in model.pone_hand.items() if p > 0)
    dealer = sorted((z, p) for z, p in model.dealer_show.items() if p > 0)
    if any(a + b <= 0 for a, b, _ in peg):
        raise CribbageError("every hand pegs at least the last card")
    win = [[0.0] * t for _ in range(t)]
    # after_pone[x][y]: the dealer's chance once the play is over with the dealer at x and the
    # pone at y (both below the target), the shows still to count; after_show[x][y] the same
    # once the pone has counted to y.
    after_pone = [[0.0] * t for _ in range(t)]
    after_show = [[0.0] * t for _ in range(t)]
    for level in range(2 * t - 2, -1, -1):
        cells = [(d, level - d) for d in range(max(0, level - t + 1), min(t - 1, level) + 1)]
        for d, p in cells:
            total = 0.0
            for a, b, chance in peg:
                x, y = d + a, p + b
                if x >= t:
                    total += chance * (0.5 if y >= t else 1.0)
                elif y < t:
                    total += chance * after_pone[x][y]
            win[d][p] = total
        for x, y in cells:  # the dealer's show, once the pone is at y
            total = 0.0
            for z, chance in dealer:
                total += chance * (1.0 if x + z >= t else 1.0 - win[y][x + z])
            after_show[x][y] = total
        for x, y in cells:  # the pone's show first
            total = 0.0
            for h, chance in pone:
                if y + h < t:
                    total += chance * after_show[x][y + h]
            after_pone[x][y] = total
    return win


class WinTable:
    """The chance of winning from a score, for one variant's deal and target."""

    def __init__(self, target: int, dealer_wins: list[list[float]], model: HandModel) -> None:
        self.target = target
        self.dealer_wins = dealer_wins
        self.model = model

    def chance(self, mine: int, theirs: int, dealing: bool) -> float:
        """The chance of winning at the start of a hand, with these scores, dealing or not."""
        t = self.target
        if mine >= t or theirs >= t:
            return 1.0 if mine >= t > theirs else 0.0 if theirs >= t > mine else 0.5
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
    """The name of a two-player deal in the tables: cards dealt and thrown, crib cards from the pack."""
    return f"deal{rules.deal}-throw{rules.discard}-crib{rules.crib_from_deck}" + (
        "-one" if rules.one_count else ""
    )


@cache
def _table(shape: str, target: int) -> WinTable | None:
    data = _load()
    model = data["models"].get(shape)
    table = data["tables"].get(f"{shape}-{target}")
    if model is None or table is None:
        return None
    return WinTable(target, [[v / 10000 for v in row] for row in table], HandModel.from_json(model))


def win_table(rules: Rules) -> WinTable | None:
    """The table for these rules: two players, a shipped deal and target, not lowball."""
    if rules.players != 2 or rules.lowball:
        return None
    return _table(deal_shape(rules), rules.target)
