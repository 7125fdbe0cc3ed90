"""Which card to play: every legal card with its expected value and a short reason.

The player cannot see the other hands.  With two players, :func:`play_options` guesses the
opponent's hand from everything seen (:func:`cribbage.ai.belief.opponent_belief`) and solves the
rest of the play against that guess, the opponent modelled as a player who takes the most points
now (:class:`cribbage.ai.response.BestResponse`): every later choice depends only on what will
have been seen.  With three or four players it samples *worlds* (hands for the other seats,
weighted by how well they explain what those seats kept and played:
:class:`cribbage.ai.worlds.WorldSampler`), searches the rest of the play in each as if every
hand were known (:class:`cribbage.ai.search.PlaySearch`) and averages.  Either way the work
follows a budget, so a decision is the same on any machine for the same seed and takes a
bounded time.

Near the end of the game (a side may reach the target in this hand) the play is for the win:
with two players each guess also holds the opponent's show and the crib, and the values are
chances of winning the game (pegging out, the show in order, then the table of chances of
:mod:`cribbage.ai.winning`); with more players pegging out, or stopping another side from
pegging out, is worth far more than points (:data:`cribbage.ai.search.WIN`).

>>> from cribbage.engine.cards import parse_cards
>>> options = play_options(PlaySituation.typed(parse_cards("7C 6D 2S"), parse_cards("TD 5H")))
>>> sorted((str(o.card), o.reason) for o in options)
[('2S', 'avoids leaving 21'), ('6D', 'leaves 21: a ten-card makes 31'), ('7C', 'avoids leaving 21')]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.cards import Card
from ..engine.game import SeatView
from ..engine.scoring import hand_points, play_combos
from .belief import opponent_belief
from .playmodel import PlayFit, PlayModel, Reading
from .response import BestResponse, Race
from .search import PlaySearch
from .situation import PlaySituation
from .winning import win_table
from .worlds import World, WorldSampler

__all__ = ["PlayOption", "PlaySituation", "play_options"]

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
RACE_MARGIN: Final = 24
"""A world is searched as a race when a side's show leaves it at most this many points short."""
RACE_NEED: Final = 29 + 29 + RACE_MARGIN
"""The play is for the win once a side needs at most this many points (two hands' best shows
and the margin)."""


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One card that can be played, what it scores now and what it is worth in the end.

    Attributes:
        card: the card.
        points: what it scores as it is played.
        value: the expected net points from here to the end of the play (own side minus the
            others), from the search (with three or four players near the end of the game,
            wins count :data:`~cribbage.ai.search.WIN` each).
        reason: a few words: ``"fifteen for 2"``, ``"avoids leaving 21"``, ``"pairs the 7"``.
        win: with two players when the game may end in this hand, the chance of winning the
            game after playing the card (it then ranks the cards); else ``None``.
    """

    card: Card
    points: int
    value: float
    reason: str
    win: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "card": str(self.card),
            "points": self.points,
            "value": round(self.value, 3),
            "reason": self.reason,
        }
        if self.win is not None:
            data["win"] = round(self.win, 4)
        return data

    def __str__(self) -> str:
        text = f"{self.card.pretty:>3}  {self.value:+6.2f}  {self.reason}"
        return text if self.win is None else f"{text} (wins {self.win:.1%})"


def play_options(
    situation: SeatView | PlaySituation,
    *,
    seed: int | random.Random = 0,
    budget: int = NODE_BUDGET,
    reading: Reading | None = None,
) -> list[PlayOption]:
    """Every legal card, best first, with its expected value from the search and a reason.

    Args:
        situation: a seat's view during its turn in the play, or a :class:`PlaySituation`.
        seed: the seed (or generator) that draws the worlds.
        budget: search nodes to spend (the number of worlds follows from it).
        reading: how the other players choose their cards, to read their plays so far (a
            reading of :mod:`cribbage.ai.playmodel`, learned during a game; by default the
            points-taker's first guess).  The search answers the points-taker's card or, when
            ``reading`` is a :class:`~cribbage.ai.playmodel.PlayModel`, the cards it gives.
    """
    sit = PlaySituation.from_view(situation) if isinstance(situation, SeatView) else situation
    legal = sit.legal()
    if not legal:
        return []
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    values, wins = _search_values(sit, rng, budget, reading or PlayFit())
    options = [
        PlayOption(
            card,
            _points_now(sit, card),
            values[card.rank],
            reason(sit, card, legal),
            None if wins is None else wins[card.rank],
        )
        for card in legal
    ]
    # Of cards as likely to win, one that reaches the target now wins for certain.
    need = None if sit.scores is None else sit.rules.target - sit.scores[sit.rules.side_of(sit.seat)]
    options.sort(
        key=lambda o: (
            -round(o.win or 0.0, 9),
            need is None or o.points < need,
            -round(o.value, 9),
            -o.points,
            o.card.index,
        )
    )
    return options


def _points_now(sit: PlaySituation, card: Card) -> int:
    sequence = (*sit.sequence, card)
    return sum(c.points for c in play_combos(sequence, sit.count + card.value))


# --------------------------------------------------------------------------- the search


def _search_values(
    sit: PlaySituation, rng: random.Random, budget: int, reading: Reading
) -> tuple[dict[int, float], dict[int, float] | None]:
    """Each playable rank's value in points and, when the game may end in this hand, its
    chance of winning (two players; else ``None``)."""
    rules = sit.rules
    if rules.players == 2 and not rules.lowball:
        race = _response_race(sit) if _may_end(sit) else None
        if race is not None or not _may_end(sit):
            return _response_values(sit, rng, budget, race, reading)
    return _world_values(sit, rng, budget, reading), None


def _response_values(
    sit: PlaySituation, rng: random.Random, budget: int, race: Race | None, reading: Reading
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
    points = BestResponse(one_count=one_count, model=model).values(belief, mine, seq)
    if race is None:
        return points, None
    return points, BestResponse(one_count=one_count, race=race, model=model).values(belief, mine, seq)


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


def _world_values(sit: PlaySituation, rng: random.Random, budget: int, reading: Reading) -> dict[int, float]:
    """The average over sampled worlds of each playable rank's value."""
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
    )
    totals: dict[int, float] = dict.fromkeys(ranks, 0.0)
    worlds = 0
    nodes = 0
    sampler = WorldSampler(sit, rng, reading)
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


def reason(sit: PlaySituation, card: Card, legal: Sequence[Card]) -> str:
    """A few words on why to play (or not to play) ``card`` now.

    >>> from cribbage.engine.cards import parse_cards
    >>> sit = PlaySituation.typed(parse_cards("7C 6D 5S"), parse_cards("TD"))
    >>> [reason(sit, card, sit.legal()) for card in sit.legal()]
    ['fifteen for 2', 'no points', 'no points']
    """
    count = sit.count + card.value
    combos = play_combos((*sit.sequence, card), count)
    if combos:
        return ", ".join(_describe(c.kind, c.points, card) for c in combos)
    if count in _TEN_TRAPS:
        return f"leaves {count}: a ten-card makes {_TEN_TRAPS[count]}"
    if not sit.sequence and card.value < 5:
        return "safe lead: no card makes 15 on it"
    if any(sit.count + other.value in _TEN_TRAPS for other in legal if other.rank != card.rank):
        trap = next(sit.count + o.value for o in legal if sit.count + o.value in _TEN_TRAPS)
        return f"avoids leaving {trap}"
    return "no points"


def _describe(kind: str, points: int, card: Card) -> str:
    if kind == "pair":
        return f"pairs the {card.rank_char if card.rank != 10 else '10'} for 2"
    if kind == "run":
        return f"run of {points} for {points}"
    return f"{kind} for {points}"
