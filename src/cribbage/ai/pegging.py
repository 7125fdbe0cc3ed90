"""Which card to play: every legal card with its expected value and a short reason.

The player cannot see the other hands.  With two players, :func:`play_options` guesses the
opponent's hand from everything seen (:func:`cribbage.ai.belief.opponent_belief`) and solves the
rest of the play against that guess, the opponent modelled as a player who takes the most points
now (:class:`cribbage.ai.response.BestResponse`): every later choice depends only on what will
have been seen.  With three or four players it draws *worlds* (hands for the other seats,
weighted by how well they explain what those seats kept and played:
:class:`cribbage.ai.worlds.WorldSampler`), merges those with the same ranks into a belief about
every other seat's cards and, with three players, solves the rest of the play against it in
the same way, every other seat playing the points-taker's card
(:class:`cribbage.ai.response.MultiResponse`); with four it searches the rest of the play in
each world as if every hand were known (:class:`cribbage.ai.search.PlaySearch`) and averages.
Either way the work is bounded (guesses, worlds or search nodes), so a decision is the same on
any machine for the same seed and takes a bounded time.

Near the end of the game (a side may reach the target in this hand) the play is for the win:
with two players each guess also holds the opponent's show and the crib, and the values are
chances of winning the game (pegging out, the show in order, then the table of chances of
:mod:`cribbage.ai.winning`); with more players it searches sampled worlds as if every hand were
known (:class:`cribbage.ai.search.PlaySearch`), where pegging out, or stopping another side from
pegging out, is worth far more than points (:data:`cribbage.ai.search.WIN`).  So does lowball,
where nobody wants the points and the points-taker is no model.

Each card comes with its reasons as codes and numbers (:class:`Reason`); the words are made
by each interface in its player's language (:func:`cribbage.text.reasons_text` in English).

>>> from cribbage.engine.cards import parse_cards
>>> options = play_options(PlaySituation.typed(parse_cards("7C 6D 2S"), parse_cards("TD 5H")))
>>> for option in sorted(options, key=lambda o: str(o.card)):
...     print(option.card, [r.to_json() for r in option.reasons])
2S [{'code': 'avoids', 'count': 21}]
6D [{'code': 'leaves', 'count': 21, 'makes': 31}]
7C [{'code': 'avoids', 'count': 21}]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from ..engine.cards import RANK_CHARS, Card
from ..engine.scoring import DOUBLE_PAIR_ROYAL, PAIR, PAIR_ROYAL, RUN, Combo, hand_points, play_combos
from ..engine.view import SeatView
from .belief import opponent_belief
from .discard import opponent_weight
from .playmodel import PlayFit, PlayModel, Reading
from .response import BestResponse, Joint, MultiResponse, Race
from .search import PlaySearch
from .situation import PlaySituation
from .winning import win_table
from .worlds import CANDIDATES, World, WorldSampler

__all__ = ["PlayOption", "PlaySituation", "Reason", "ReasonCode", "best_play", "play_options", "reasons"]

NODE_BUDGET: Final = 6000
"""Search nodes per decision (about 30 ms where the bench ran): worlds are added until it is
spent, at least :data:`MIN_WORLDS` of them unless they cost three budgets, at most
:data:`MAX_WORLDS`."""
MIN_WORLDS: Final = 6
MAX_WORLDS: Final = 48
HORIZON: Final = {2: 10, 3: 8, 4: 7}
"""How many cards ahead the search looks, by number of players: to the end of any two-player
play; eight or seven of the twelve or sixteen cards of a three- or four-player play."""
MIN_PARTICLES: Final = 40
NODES_PER_PARTICLE: Final = 40
"""Two players: the belief holds ``budget // NODES_PER_PARTICLE`` guesses (at least
:data:`MIN_PARTICLES`; fewer when the player holds five cards), from twice as many deals."""
CANDIDATES_MANY: Final = 192
"""Three or four players: candidate worlds drawn for a decision.  The others' plays weigh them so
unevenly (a points-taker's card is nearly certain) that of :data:`~cribbage.ai.worlds.CANDIDATES`
only 5 to 10 counted in the middle of a four-player play (the effective sample size)."""
RESPONSE_PLAYERS: Final = frozenset({3})
"""The numbers of players (beyond two) whose play is the best response
(:class:`~cribbage.ai.response.MultiResponse`).  Four players (partnerships) keep the world
search: the response won no more there (55.2% against 56.8% of 600 games, its pegging edge 1.45
points a game against 1.1; see docs/ai.md)."""
MAX_JOINT: Final = 64
"""Three or four players: the heaviest guesses at the other seats' ranks the best response
keeps (of the :data:`CANDIDATES_MANY` worlds, merged)."""
RACE_MARGIN: Final = 24
"""A world is searched as a race when a side's show leaves it at most this many points short."""
RACE_NEED: Final = 29 + 29 + RACE_MARGIN
"""The play is for the win once a side needs at most this many points (two hands' best shows
and the margin)."""


class ReasonCode(Enum):
    """Why a card is worth playing, or not: the ``code`` of a :class:`Reason` (its JSON)."""

    COMBO = "combo"
    """The card scores a combination: its ``kind`` and ``points`` (and a run's ``length``, a
    pair's ``rank``)."""
    LEAVES = "leaves"
    """The card leaves a ``count`` (5 or 21) on which any ten-card ``makes`` 15 or 31."""
    AVOIDS = "avoids"
    """Another card would leave such a ``count``; this one does not."""
    SAFE_LEAD = "safe_lead"
    """A lead under 5: no single card makes 15 on it."""
    NO_POINTS = "no_points"
    """Nothing of the above."""


_SAME_RANK: Final = frozenset({PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL})


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason for (or against) a card, as a code and its numbers; interfaces word it.

    Attributes:
        code: what kind of reason.
        kind: :data:`ReasonCode.COMBO`: the combination's kind, as in
            :class:`~cribbage.engine.scoring.Combo` (``"fifteen"``, ``"pair"``, ``"run"``...).
        points: :data:`ReasonCode.COMBO`: the combination's points.
        length: a run's number of cards.
        rank: the rank (1 to 13) of a pair, pair royal or double pair royal.
        count: :data:`ReasonCode.LEAVES` and :data:`ReasonCode.AVOIDS`: the count left (or not).
        makes: :data:`ReasonCode.LEAVES`: what a ten-card makes on that count (15 or 31).
    """

    code: ReasonCode
    kind: str | None = None
    points: int | None = None
    length: int | None = None
    rank: int | None = None
    count: int | None = None
    makes: int | None = None

    @classmethod
    def combo(cls, combo: Combo) -> Reason:
        """The reason for a combination the card makes (the card is the combination's last)."""
        return cls(
            ReasonCode.COMBO,
            kind=combo.kind,
            points=combo.points,
            length=len(combo.cards) if combo.kind == RUN else None,
            rank=combo.cards[-1].rank if combo.kind in _SAME_RANK else None,
        )

    def to_json(self) -> dict[str, Any]:
        """``{"code"}`` and the numbers that apply, such as ``{"code": "combo", "kind": "pair",
        "points": 2, "rank": "7"}``; a rank is written as in a card (``A 2-9 T J Q K``)."""
        data: dict[str, Any] = {"code": self.code.value}
        if self.kind is not None:
            data["kind"] = self.kind
        if self.points is not None:
            data["points"] = self.points
        if self.length is not None:
            data["length"] = self.length
        if self.rank is not None:
            data["rank"] = RANK_CHARS[self.rank - 1]
        if self.count is not None:
            data["count"] = self.count
        if self.makes is not None:
            data["makes"] = self.makes
        return data


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One card that can be played, what it scores now and what it is worth in the end.

    Attributes:
        card: the card.
        points: what it scores as it is played.
        value: the expected net points from here to the end of the play (own side minus the
            others, each at half with three players), from the search (with three or four
            players near the end of the game, wins count :data:`~cribbage.ai.search.WIN` each).
        reasons: why, as codes with numbers (:func:`reasons`): the combinations it makes, or
            the count it leaves or avoids...
        win: with two players when the game may end in this hand, the chance of winning the
            game after playing the card (it then ranks the cards); else ``None``.
    """

    card: Card
    points: int
    value: float
    reasons: tuple[Reason, ...]
    win: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "card": str(self.card),
            "points": self.points,
            "value": round(self.value, 3),
            "reasons": [r.to_json() for r in self.reasons],
        }
        if self.win is not None:
            data["win"] = round(self.win, 4)
        return data


def play_options(
    situation: SeatView | PlaySituation,
    *,
    seed: int | random.Random = 0,
    budget: int = NODE_BUDGET,
    reading: Reading | None = None,
) -> list[PlayOption]:
    """Every legal card, best first, with its expected value from the search and its reasons.

    Args:
        situation: a seat's view during its turn in the play, or a :class:`PlaySituation`.
        seed: the seed (or generator) that draws the worlds.
        budget: search nodes to spend (the number of worlds follows from it).
        reading: how the other players choose their cards, to read their plays so far (a
            reading of :mod:`cribbage.ai.playmodel`, learned during a game; by default the
            points-taker's first guess).  The search answers the points-taker's card or, when
            ``reading`` is a :class:`~cribbage.ai.playmodel.PlayModel`, the cards it gives.
    """
    return _ranked_options(situation, seed, budget, reading, best_only=False)


def best_play(
    situation: SeatView | PlaySituation,
    *,
    seed: int | random.Random = 0,
    budget: int = NODE_BUDGET,
    reading: Reading | None = None,
) -> Card:
    """The card :func:`play_options` ranks first (the same arguments, the same card), for less
    work: when the chance of winning ranks the cards (two players, near the end), the points
    that break its ties are searched only for the cards tied first, and not at all when one
    rank is likeliest to win.

    Raises:
        ValueError: when no card can be played.
    """
    options = _ranked_options(situation, seed, budget, reading, best_only=True)
    if not options:
        raise ValueError("no card can be played")
    return options[0].card


def _ranked_options(
    situation: SeatView | PlaySituation,
    seed: int | random.Random,
    budget: int,
    reading: Reading | None,
    best_only: bool,
) -> list[PlayOption]:
    sit = PlaySituation.from_view(situation) if isinstance(situation, SeatView) else situation
    legal = sit.legal()
    if not legal:
        return []
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    values, wins = _search_values(sit, rng, budget, reading or PlayFit(), best_only)
    options = [
        PlayOption(
            card,
            _points_now(sit, card),
            values[card.rank],
            reasons(sit, card, legal),
            None if wins is None else wins[card.rank],
        )
        for card in legal
    ]
    # Of cards as likely to win, one that reaches the target now wins for certain.
    need = None if sit.scores is None else sit.rules.target - sit.scores[sit.rules.side_of(sit.seat)]
    options.sort(
        key=lambda o: (
            -_rounded(o.win or 0.0),
            need is None or o.points < need,
            -_rounded(o.value),
            -o.points,
            o.card.index,
        )
    )
    return options


def _rounded(value: float) -> float:
    """A value or chance as the ranking compares it: equal to nine places is a tie."""
    return round(value, 9)


def _points_now(sit: PlaySituation, card: Card) -> int:
    sequence = (*sit.sequence, card)
    return sum(c.points for c in play_combos(sequence, sit.count + card.value))


# --------------------------------------------------------------------------- the search


def _search_values(
    sit: PlaySituation, rng: random.Random, budget: int, reading: Reading, best_only: bool
) -> tuple[dict[int, float], dict[int, float] | None]:
    """Each playable rank's value in points and, when the game may end in this hand, its
    chance of winning (two players; else ``None``).  With ``best_only``, the points of a rank
    that is not among the likeliest to win are not searched (its value is minus infinity), nor
    those of the one rank likeliest to win (0)."""
    rules = sit.rules
    if rules.players == 2:
        if not rules.lowball:
            race = _response_race(sit) if _may_end(sit) else None
            if race is not None or not _may_end(sit):
                return _response_values(sit, rng, budget, race, reading, best_only)
        return _world_values(sit, rng, budget, reading), None
    # The response, unless some world makes it a race (or in lowball, or in partnerships).
    sampler = WorldSampler(sit, rng, reading, candidates=CANDIDATES_MANY)
    if (
        rules.lowball
        or rules.players not in RESPONSE_PLAYERS
        or (_may_end(sit) and any(_race(sit, w) for w, _ in sampler.weighted()))
    ):
        return _world_values(sit, rng, budget, reading, sampler), None
    return _multi_values(sit, sampler, reading), None


def _response_values(
    sit: PlaySituation, rng: random.Random, budget: int, race: Race | None, reading: Reading, best_only: bool
) -> tuple[dict[int, float], dict[int, float] | None]:
    """Two players: the best play against a greedy opponent over a belief about its cards."""
    # The solver's work grows with the orders the player's cards can come in: five cards (the
    # first plays of seven-card cribbage) get fewer guesses than four.
    orders = max(24, math.factorial(len(sit.hand)))
    particles = max(MIN_PARTICLES, budget // NODES_PER_PARTICLE * 24 // orders)
    belief = opponent_belief(
        sit, rng, particles=particles, deals=2 * particles, shows=race is not None, reading=reading
    )
    mine = tuple(sorted(c.rank for c in sit.hand))
    seq = tuple(c.rank for c in sit.sequence)
    one_count = sit.rules.one_count
    model = reading if isinstance(reading, PlayModel) else None
    if race is None:
        return BestResponse(one_count=one_count, model=model).values(belief, mine, seq), None
    wins = BestResponse(one_count=one_count, race=race, model=model).values(belief, mine, seq)
    top = max(_rounded(w) for w in wins.values())
    ranks = [r for r, w in wins.items() if _rounded(w) == top] if best_only else None
    if ranks is not None and len(ranks) == 1:  # no tie to break: the cards of one rank play alike
        return {r: 0.0 if r in ranks else -math.inf for r in wins}, wins
    points = BestResponse(one_count=one_count, model=model).values(belief, mine, seq, ranks)
    return {r: points.get(r, -math.inf) for r in wins}, wins


def _multi_values(sit: PlaySituation, sampler: WorldSampler, reading: Reading) -> dict[int, float]:
    """Three or four players: the best play against points-taking others over a belief about
    every other seat's cards (the sampler's weighted candidate worlds)."""
    rules = sit.rules
    belief = joint_belief(sampler.weighted(), sit.seat, MAX_JOINT)
    solver = MultiResponse(
        rules.players,
        tuple(rules.side_of(s) for s in range(rules.players)),
        sit.seat,
        one_count=rules.one_count,
        opponent_weight=opponent_weight(rules),
        model=reading if isinstance(reading, PlayModel) else None,
    )
    mine = tuple(sorted(c.rank for c in sit.hand))
    return solver.values(belief, mine, tuple(c.rank for c in sit.sequence))


def joint_belief(worlds: Sequence[tuple[World, float]], seat: int, limit: int) -> list[Joint]:
    """The guesses at the other seats' ranks from weighted worlds: worlds whose hands hold the
    same ranks merged (their weights added), the ``limit`` heaviest kept.

    >>> from cribbage.engine.cards import parse_cards
    >>> a = World((parse_cards("5H"), parse_cards("TD"), parse_cards("KS")), ())
    >>> b = World((parse_cards("5H"), parse_cards("TS"), parse_cards("KD")), ())
    >>> joint_belief([(a, 1.0), (b, 2.0)], seat=0, limit=10)
    [(((), (10,), (13,)), 3.0)]
    """
    merged: dict[tuple[tuple[int, ...], ...], float] = {}
    for world, weight in worlds:
        hands = tuple(
            () if s == seat else tuple(sorted(c.rank for c in h)) for s, h in enumerate(world.hands)
        )
        merged[hands] = merged.get(hands, 0.0) + weight
    heaviest = sorted(merged.items(), key=lambda item: -item[1])
    return heaviest[:limit]


def _response_race(sit: PlaySituation) -> Race | None:
    """The race of a two-player game in a seat's view, when a table of chances fits the rules."""
    rules = sit.rules
    table = win_table(rules)
    starter = sit.starter
    if (
        table is None
        or sit.scores is None
        or sit.dealer is None
        or starter is None
        or len(sit.kept) != rules.hand_size
        or len(sit.discards) != rules.discard
    ):
        return None
    mine, theirs = sit.scores[rules.side_of(sit.seat)], sit.scores[1 - rules.side_of(sit.seat)]
    dealer = sit.dealer == sit.seat

    def after(mine: int, theirs: int) -> float:
        return table.chance(mine, theirs, dealing=not dealer)

    return Race(mine, theirs, rules.target, dealer, hand_points(sit.kept, starter), after)


def _world_values(
    sit: PlaySituation, rng: random.Random, budget: int, reading: Reading, sampler: WorldSampler | None = None
) -> dict[int, float]:
    """The average over sampled worlds (drawn by ``sampler``, or a new one) of each playable
    rank's value."""
    rules = sit.rules
    n = rules.players
    sides = tuple(rules.side_of(s) for s in range(n))
    side = rules.side_of(sit.seat)
    depth = HORIZON[n]
    seq = tuple(c.rank for c in sit.sequence)
    ranks = {c.rank for c in sit.legal()}
    shared = PlaySearch(
        n,
        sides,
        side,
        one_count=rules.one_count,
        depth=depth,
        lowball=rules.lowball,
        greedy_others=not rules.lowball,
        opponent_weight=opponent_weight(rules),
    )
    totals: dict[int, float] = dict.fromkeys(ranks, 0.0)
    worlds = 0
    nodes = 0
    if sampler is None:
        sampler = WorldSampler(sit, rng, reading, candidates=CANDIDATES_MANY if n > 2 else CANDIDATES)
    # Until the budget is spent, with at least MIN_WORLDS worlds unless they are very costly.
    while worlds < MAX_WORLDS and (nodes < budget or (worlds < MIN_WORLDS and nodes < 3 * budget)):
        world = sampler.draw()
        hands = tuple(tuple(sorted(c.rank for c in hand)) for hand in world.hands)
        race = _race(sit, world)
        if race is None:
            search = shared
        else:  # the game may end: every seat is assumed to play to win, and no memo is shared
            left, show = race
            search = PlaySearch(
                n,
                sides,
                side,
                one_count=rules.one_count,
                depth=depth,
                left=left,
                show=show,
                lowball=rules.lowball,
                opponent_weight=opponent_weight(rules),
            )
        before = search.nodes
        for rank, value in search.card_values(hands, sit.seat, seq).items():
            totals[rank] += value
        nodes += search.nodes - before + 1
        worlds += 1
    return {rank: total / worlds for rank, total in totals.items()}


WorldRace = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]


def _may_end(sit: PlaySituation) -> bool:
    """Whether some side may reach the target in this hand (its play and shows)."""
    if sit.scores is None:
        return False
    return min(sit.rules.target - s for s in sit.scores) <= RACE_NEED


def _race(sit: PlaySituation, world: World) -> WorldRace | None:
    """The needs of each side and the show in order, when some side may reach the target."""
    rules = sit.rules
    if sit.scores is None or sit.dealer is None or sit.starter is None:
        return None
    n = rules.players
    needs = tuple(rules.target - s for s in sit.scores)
    if min(needs) > RACE_NEED:
        return None
    starter = sit.starter
    show: list[tuple[int, int]] = []
    for i in range(1, n + 1):
        seat = (sit.dealer + i) % n
        shown = [c for s, c in sit.played if s == seat] + list(world.hands[seat])
        if seat == sit.seat and sit.kept:
            shown = list(sit.kept)
        if len(shown) == rules.hand_size:
            show.append((rules.side_of(seat), hand_points(shown, starter)))
    crib = [*sit.discards, *world.crib][: rules.crib_size]
    if len(crib) == rules.crib_size and 3 <= len(crib) <= 5:
        show.append((rules.side_of(sit.dealer), hand_points(crib, starter, crib=True)))
    totals = [0] * rules.sides
    for side, points in show:
        totals[side] += points
    if all(need - totals[side] > RACE_MARGIN for side, need in enumerate(needs)):
        return None
    return needs, tuple(show)


# --------------------------------------------------------------------------- reasons

_TEN_TRAPS: Final = {5: 15, 21: 31}
"""Counts on which any ten-card makes 15 or 31, and what it makes."""


def reasons(sit: PlaySituation, card: Card, legal: Sequence[Card]) -> tuple[Reason, ...]:
    """Why to play (or not to play) ``card`` now: the combinations it makes, else one reason.

    >>> from cribbage.engine.cards import parse_cards
    >>> sit = PlaySituation.typed(parse_cards("7C 6D 5S"), parse_cards("TD"))
    >>> [[r.to_json() for r in reasons(sit, card, sit.legal())] for card in sit.legal()]
    [[{'code': 'combo', 'kind': 'fifteen', 'points': 2}], [{'code': 'no_points'}], [{'code': 'no_points'}]]
    """
    count = sit.count + card.value
    combos = play_combos((*sit.sequence, card), count)
    if combos:
        return tuple(Reason.combo(c) for c in combos)
    if count in _TEN_TRAPS:
        return (Reason(ReasonCode.LEAVES, count=count, makes=_TEN_TRAPS[count]),)
    if not sit.sequence and card.value < 5:
        return (Reason(ReasonCode.SAFE_LEAD),)
    if any(sit.count + other.value in _TEN_TRAPS for other in legal if other.rank != card.rank):
        trap = next(sit.count + o.value for o in legal if sit.count + o.value in _TEN_TRAPS)
        return (Reason(ReasonCode.AVOIDS, count=trap),)
    return (Reason(ReasonCode.NO_POINTS),)
