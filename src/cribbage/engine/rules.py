"""The rules of a game as one immutable object, and the named variants built from it.

Every variant of the seeds is a :class:`Rules` value: the number of players, how many cards are
dealt and thrown, the target, and the options (muggins, skunks, who deals first).  Variants are
found by name with :func:`get_rules`; options are changed with :meth:`Rules.replace`.

>>> r = get_rules("five-card")
>>> r.hand_size, r.target, r.one_count, r.first_hand_bonus
(3, 61, True, 3)
>>> get_rules("standard", target=61).skunk_line
31
>>> get_rules("three-player").show_order(dealer=2)
((0, 'hand'), (1, 'hand'), (2, 'hand'), (2, 'crib'))
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Final, Literal

from .errors import RulesError

SkunkScheme = Literal["acc", "seed3", "seed4", "marked"]
FirstDealer = Literal["low", "high"]
NextDealer = Literal["loser", "cut", "alternate"]
CutTies = Literal["rank", "value"]
ShowCount = tuple[int, str]
"""One count of the show: the seat that counts and what, ``"hand"`` or ``"crib"``."""

GAME_POINTS: Final[dict[str, tuple[int, int, int]]] = {
    "acc": (2, 3, 3),
    "seed3": (1, 2, 3),
    "seed4": (1, 2, 4),
    "marked": (1, 1, 1),
}
"""Game points for (a plain win, a skunk, a double skunk) under each scheme.

``acc``: the American Cribbage Congress scorecard (win 2, skunk 3; no double skunk).
``seed3``/``seed4``: the seed site's local rule (a skunk is two games, a double skunk three or
four).  ``marked``: every win counts once, the skunk is only marked (the seed site's own game).
"""


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that distinguishes one variant or house rule from another.

    Attributes:
        name: the variant's name (see :data:`VARIANTS`).
        players: 2, 3 or 4 seats.
        partnerships: seats opposite each other (0 and 2, 1 and 3) share one score.
        deal: cards dealt to each player.
        discard: cards each player throws to the crib.
        crib_from_deck: cards dealt from the deck straight to the crib.
        target: the game hole (121, 61, 151...).
        one_count: the play is a single count to 31: it ends at the first go or 31 (five-card).
        first_hand_bonus: points for the non-dealer at the start of the game (five-card: 3).
        lowball: the first side to reach the target loses.
        manual_count: players state their own counts (in the show, and in the play when
            ``muggins_play`` is set); otherwise the engine counts.
        muggins: with manual counting, an opponent may claim points a player failed to count.
        muggins_play: muggins applies to the play (pegging) too.
        muggins_all_opponents: with three or four players, every opponent of the counter may
            call muggins, the next one first (the default); False: only the next opponent
            (the rule of records made before this option, which read as False without it).
        overcount_penalty: with manual counting, a claim above the true count is corrected and
            the opponent scores the excess (the traditional laws, Hoyle); the ACC only corrects
            it (the default).
        skunk: the game-points scheme (see :data:`GAME_POINTS`).
        first_dealer: "low" (the lower cut deals, ACC) or "high" (the higher cut deals).
        cut_ties: "rank": cut again only on equal ranks (ACC); "value": also when both cuts are
            ten-valued (the Japanese seed).
        next_dealer: who deals first in the next game of a match: "loser" (ACC), "cut" (cut
            again), or "alternate".
    """

    name: str = "standard"
    players: int = 2
    partnerships: bool = False
    deal: int = 6
    discard: int = 2
    crib_from_deck: int = 0
    target: int = 121
    one_count: bool = False
    first_hand_bonus: int = 0
    lowball: bool = False
    manual_count: bool = False
    muggins: bool = False
    muggins_play: bool = False
    muggins_all_opponents: bool = True
    overcount_penalty: bool = False
    skunk: SkunkScheme = "acc"
    first_dealer: FirstDealer = "low"
    cut_ties: CutTies = "rank"
    next_dealer: NextDealer = "loser"

    def __post_init__(self) -> None:
        problems = []
        if self.players not in (2, 3, 4):
            problems.append(f"players must be 2, 3 or 4, not {self.players}")
        if self.partnerships and self.players != 4:
            problems.append("partnerships need 4 players")
        if not 1 <= self.discard < self.deal:
            problems.append(f"discard must be between 1 and deal - 1, not {self.discard}")
        if self.crib_from_deck < 0:
            problems.append("crib_from_deck cannot be negative")
        if self.players * self.deal + self.crib_from_deck > 51:
            problems.append("not enough cards in the deck for this deal")
        if not 3 <= self.hand_size <= 5:
            problems.append(f"hands must keep 3 to 5 cards, not {self.hand_size}")
        if self.crib_size < 2:
            problems.append(f"the crib must hold at least 2 cards, not {self.crib_size}")
        if not 1 <= self.target <= 1000:
            problems.append(f"target must be 1 to 1000, not {self.target}")
        if self.skunk not in GAME_POINTS:
            problems.append(f"unknown skunk scheme {self.skunk!r}")
        if self.first_dealer not in ("low", "high"):
            problems.append(f"first_dealer must be 'low' or 'high', not {self.first_dealer!r}")
        if self.cut_ties not in ("rank", "value"):
            problems.append(f"cut_ties must be 'rank' or 'value', not {self.cut_ties!r}")
        if self.next_dealer not in ("loser", "cut", "alternate"):
            problems.append(f"next_dealer must be 'loser', 'cut' or 'alternate', not {self.next_dealer!r}")
        if (self.muggins or self.muggins_play or self.overcount_penalty) and not self.manual_count:
            problems.append("muggins needs manual counting (manual_count=True)")
        if problems:
            raise RulesError("; ".join(problems))

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.deal - self.discard

    @property
    def crib_size(self) -> int:
        return self.players * self.discard + self.crib_from_deck

    @property
    def sides(self) -> int:
        """Number of separate scores: 2 for partnerships, else one per player."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    @property
    def skunk_line(self) -> int:
        """A loser below this score is skunked (91 at 121, 31 at 61)."""
        return self.target - 30

    @property
    def double_skunk_line(self) -> int | None:
        """A loser below this score is double skunked (61 at 121); none for short games."""
        return self.target - 60 if self.target >= 121 else None

    def show_order(self, dealer: int) -> tuple[ShowCount, ...]:
        """The counts of the show in order: each seat's hand from the dealer's left, then the crib.

        Raises:
            RulesError: for a dealer that is not a seat.
        """
        if not (isinstance(dealer, int) and 0 <= dealer < self.players):
            raise RulesError(f"the dealer must be a seat 0 to {self.players - 1}, not {dealer!r}")
        return _show_order(self.players, dealer)

    def facts(self) -> dict[str, Any]:
        """What interfaces and bots need to know of these rules, as JSON: every option of
        :meth:`to_json` and what follows from them: ``kept`` (cards each hand keeps),
        ``crib_size``, ``sides`` (separate scores), ``seat_sides`` (each seat's side, the index
        of its score), ``skunk_line`` and ``double_skunk_line`` (``None`` when there is none).

        >>> facts = get_rules("three-player").facts()
        >>> facts["deal"], facts["discard"], facts["kept"], facts["crib_from_deck"], facts["crib_size"]
        (5, 1, 4, 1, 4)
        >>> facts["target"], facts["skunk_line"], facts["double_skunk_line"], facts["sides"]
        (121, 91, 61, 3)
        >>> get_rules("four-player").facts()["seat_sides"]
        [0, 1, 0, 1]
        """
        return {
            **_options_json(self),
            "kept": self.hand_size,
            "crib_size": self.crib_size,
            "sides": self.sides,
            "seat_sides": [self.side_of(seat) for seat in range(self.players)],
            "skunk_line": self.skunk_line,
            "double_skunk_line": self.double_skunk_line,
        }

    def game_points(self, skunk_level: int) -> int:
        """Game points of a win with 0 (plain), 1 (skunk) or 2 (double skunk)."""
        return GAME_POINTS[self.skunk][skunk_level]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, checked like a new one."""
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:
            raise RulesError(f"unknown rule option: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        return dict(_options_json(self))

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from :meth:`to_json` output; raises :class:`RulesError` on anything else."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a JSON object, not {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for key, value in data.items():
            if key not in fields:
                raise RulesError(f"unknown rule option {key!r}")
            expected = bool if fields[key].type == "bool" else int if fields[key].type == "int" else str
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise RulesError(f"rule option {key!r} has a bad value {value!r}")
        name = data.get("name", "standard")
        if name not in VARIANTS:
            raise RulesError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        # Rules written before an option existed keep the rule they were played by.
        return cls(**{**_BEFORE_OPTIONS, **data})


_BEFORE_OPTIONS: Final[dict[str, Any]] = {"muggins_all_opponents": False}
"""What rules written without an option had (:meth:`Rules.from_json`): the option's absence
means the rule before it."""


@functools.cache
@functools.lru_cache(maxsize=256)
def _options_json(rules: Rules) -> dict[str, Any]:
    """The options of some rules as JSON, made once (every state sent to a page holds them);
    callers copy it."""
    return dataclasses.asdict(rules)


def _show_order(players: int, dealer: int) -> tuple[ShowCount, ...]:
    hands = tuple(((dealer + i) % players, "hand") for i in range(1, players + 1))
    return (*hands, (dealer, "crib"))


VARIANTS: Final[dict[str, Rules]] = {
    rules.name: rules
    for rules in (
        Rules(),
        Rules(name="short", target=61),
        Rules(name="five-card", deal=5, discard=2, target=61, one_count=True, first_hand_bonus=3),
        Rules(name="seven-card", deal=7, discard=2, target=151),
        Rules(name="three-player", players=3, deal=5, discard=1, crib_from_deck=1),
        Rules(name="four-player", players=4, partnerships=True, deal=5, discard=1),
        Rules(name="crib-deal", deal=5, discard=1, crib_from_deck=2),
        Rules(name="lowball", lowball=True),
    )
}
"""The named variants.  ``crib-deal`` is the seed's local rule: five cards each and two dealt to
the crib, each player throwing one."""


def get_rules(name: str = "standard", **options: Any) -> Rules:
    """The rules of a named variant, with options changed.

    Raises:
        RulesError: for an unknown variant or option, or an inconsistent combination.
    """
    try:
        rules = VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise RulesError(f"unknown variant {name!r} (known: {known})") from None
    return rules.replace(**options) if options else rules
