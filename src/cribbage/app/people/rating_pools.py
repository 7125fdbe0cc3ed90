"""The rating pools: which kind of game a rated game is, so that its ratings are of that kind.

A rating earned at five-card does not say how one plays three-handed: each pool
(:data:`POOLS`) is one kind of game, and :func:`pool_of` finds a game's pool from its rules,
whatever the variant's name (the standard game to 61 is ``short``), the way of counting and the
skunk scheme aside.  Rules no pool holds are not rated (:class:`UnratedRules`).

>>> pool_of(get_rules("standard", target=61)), pool_of(get_rules("four-player"))
('short', 'partners')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...engine.errors import CribbageError
from ...engine.rules import VARIANTS, Rules, get_rules

__all__ = ["POOLS", "RatingError", "RatingPool", "UnratedRules", "pool_of"]


class RatingError(CribbageError):
    """A rating or a game's outcome that cannot be rated (a bad value, an impossible result)."""

    code = "illegal.rating"


class UnratedRules(RatingError):
    """Rules no rating pool holds (an unusual target or deal): such a game is not rated."""

    code = "illegal.rating.unrated"


@dataclass(frozen=True, slots=True)
class RatingPool:
    """One kind of rated game: its name, its sides and players per side, and whether the lower
    score wins (lowball)."""

    name: str
    sides: int
    side_size: int = 1
    lower_wins: bool = False


POOLS: Final[dict[str, RatingPool]] = {
    pool.name: pool
    for pool in (
        RatingPool("standard", 2),
        RatingPool("short", 2),
        RatingPool("five-card", 2),
        RatingPool("seven-card", 2),
        RatingPool("crib-deal", 2),
        RatingPool("lowball", 2, lower_wins=True),
        RatingPool("three", 3),
        RatingPool("four", 4),
        RatingPool("partners", 2, side_size=2),
    )
}
"""The rating pools by name."""

_VARIANT_POOLS: Final = {
    "standard": "standard",
    "short": "short",
    "five-card": "five-card",
    "seven-card": "seven-card",
    "crib-deal": "crib-deal",
    "lowball": "lowball",
    "three-player": "three",
    "four-player": "partners",
}
"""The pool of each named variant, played as named (tests/app/test_ratings.py checks every variant
of the engine has one)."""

_OTHER_SHAPES: Final = (
    ("seven-card", get_rules("seven-card", crib_from_deck=1)),
    ("seven-card", get_rules("seven-card", target=181)),
    ("seven-card", get_rules("seven-card", target=181, crib_from_deck=1)),
    ("four", get_rules("four-player", partnerships=False)),
)
"""Documented options that keep a variant's game (docs/rules.md): the seven-card crib card and
its game to 181; four players each for themselves is a pool of its own."""

_Shape = tuple[int, bool, int, int, int, int, bool, int, bool]


def _shape(rules: Rules) -> _Shape:
    """What decides who wins how: the seats, the deal, the target, the play.  Not the way of
    counting (manual, muggins), the game points of a skunk or who deals first."""
    return (
        rules.players,
        rules.partnerships,
        rules.deal,
        rules.discard,
        rules.crib_from_deck,
        rules.target,
        rules.one_count,
        rules.first_hand_bonus,
        rules.lowball,
    )


_SHAPES: Final[dict[_Shape, str]] = {
    **{_shape(VARIANTS[name]): pool for name, pool in _VARIANT_POOLS.items() if name in VARIANTS},
    **{_shape(rules): pool for pool, rules in _OTHER_SHAPES},
}


def pool_of(rules: Rules) -> str:
    """The rating pool of a game with these rules: the variant's game, whatever its name (the
    standard game to 61 is ``short``), the way of counting and the skunk scheme aside.

    >>> pool_of(get_rules("three-player", manual_count=True, muggins=True))
    'three'
    >>> pool_of(get_rules("short", target=121))
    'standard'
    >>> pool_of(get_rules("standard", target=91))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cribbage...rating_pools.UnratedRules: no rating pool holds standard to 91 (2 players, 6 dealt, 2 thrown)

    Raises:
        UnratedRules: no pool holds these rules.
    """
    try:
        return _SHAPES[_shape(rules)]
    except KeyError:
        raise UnratedRules(
            f"no rating pool holds {rules.name} to {rules.target} ({rules.players} players, "
            f"{rules.deal} dealt, {rules.discard} thrown)",
            variant=rules.name,
            target=rules.target,
        ) from None
