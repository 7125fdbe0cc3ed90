"""The answers about the rules and the scoring: a variant's facts (also part of a game's view),
``GET /api/meta``, ``POST /api/score`` and ``POST /api/peg``."""

from __future__ import annotations

from pydantic import Field

from .base import Answer, Level

__all__ = ["ComboAnswer", "MetaAnswer", "PegAnswer", "PoolAnswer", "RulesFacts", "ShowAnswer"]


class RulesFacts(Answer):
    """``Rules.facts``: a variant's rules and what follows from them."""

    name: str
    players: int
    partnerships: bool
    deal: int
    discard: int
    crib_from_deck: int
    target: int
    one_count: bool
    first_hand_bonus: int
    lowball: bool
    manual_count: bool
    muggins: bool
    muggins_play: bool
    muggins_all_opponents: bool
    overcount_penalty: bool
    skunk: str
    first_dealer: str
    cut_ties: str
    next_dealer: str
    kept: int = Field(description="cards each hand keeps")
    crib_size: int
    sides: int = Field(description="separate scores")
    seat_sides: list[int] = Field(description="each seat's side: the index of its score")
    skunk_line: int | None
    double_skunk_line: int | None


class PoolAnswer(Answer):
    """A pool of "Play now" (cribbage.app.playnow.matchmaking.POOLS): its name, its tables' size
    and variant."""

    name: str
    players: int
    variant: str


class MetaAnswer(Answer):
    """``GET /api/meta``: the lists the page offers that the server defines once."""

    levels: list[Level] = Field(description="the computer levels, weakest first (cribbage.players.LEVELS)")
    default_level: Level = Field(description="the level of a game created without one")
    pools: list[PoolAnswer] = Field(description='the pools of "Play now", in the order the page offers them')
    rating_pools: list[str] = Field(
        description="the rating pools, as the leaderboards name them (cribbage.app.people.rating_pools.POOLS)"
    )


# The JSON of engine.scoring.Combo (documented by none: a docstring would be its schema's description)
class ComboAnswer(Answer, title="Combo"):
    kind: str
    cards: list[str]
    points: int


class ShowAnswer(Answer):
    """``ShowScore.to_json``: the totals by category and every combination."""

    hand: list[str]
    starter: str
    crib: bool
    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    combos: list[ComboAnswer]


class PegAnswer(Answer):
    """``PlayScore.to_json``: the points of the last card."""

    cards: list[str]
    points: int
    count: int
    combos: list[ComboAnswer]
