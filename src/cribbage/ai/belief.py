"""What the opponent may hold: a weighted list of guesses, from everything the seat has seen.

Two players.  The opponent was dealt the cards it has played, the cards it holds and the cards
it threw to the crib; the seat has seen only the first.  :func:`opponent_belief` draws deals of
the rest from the cards the seat has not seen and weighs every way to keep each deal by the
model of :mod:`cribbage.ai.worlds` (people keep cards that score together, play the card that
scores most now and follow the rules), then merges the guesses that hold the same ranks.

>>> import random
>>> from cribbage.engine.cards import parse_cards
>>> from cribbage.ai.situation import PlaySituation
>>> sit = PlaySituation.typed(parse_cards("7C 8D 2S 3H"), parse_cards("5H"))
>>> belief = opponent_belief(sit, random.Random(1))
>>> all(len(p.hand) == 3 for p in belief), round(sum(p.weight for p in belief), 6)
(True, 1.0)
"""

from __future__ import annotations

import random
from typing import Final

from ..engine.cards import Card
from ..engine.scoring import hand_points
from .playmodel import Reading
from .response import Particle
from .situation import PlaySituation
from .worlds import history_likelihood, keep_weights

__all__ = ["DEALS", "PARTICLES", "opponent_belief"]

DEALS: Final = 300
"""Deals of the unseen cards drawn for one belief."""
PARTICLES: Final = 150
"""Guesses kept at most (resampled when the deals give more)."""

Guesses = dict[tuple[tuple[int, ...], int, int], float]
"""Prior weights of guesses by (ranks held, the opponent's show, the crib's show)."""


def opponent_belief(
    sit: PlaySituation,
    rng: random.Random,
    *,
    deals: int = DEALS,
    particles: int = PARTICLES,
    shows: bool = False,
    reading: Reading | None = None,
) -> list[Particle]:
    """The opponent's possible hands in a two-player play, weighted, their weights summing to 1.

    Args:
        sit: the seat's situation (two players).
        rng: draws the deals.
        deals: deals of the unseen cards to draw.
        particles: at most this many guesses are returned (resampled in proportion to weight).
        shows: also give each guess the points of the opponent's show and of the crib (they need
            the starter and the seat's own throw, so the situation must come from a game).
        reading: how the opponent chooses its card (a reading of :mod:`cribbage.ai.playmodel`,
            learned during a game; by default the points-taker's first guess).

    If nothing drawn explains the play so far (the model thinks the opponent's plays impossible),
    the hands are weighed by the keep model alone.
    """
    rules = sit.rules
    if rules.players != 2:
        raise ValueError("a belief about one opponent needs a two-player game")
    starter = sit.starter
    if shows and (starter is None or len(sit.discards) != rules.discard):
        raise ValueError("the shows need the starter and the seat's own throw")
    opponent = 1 - sit.seat
    # In a game the seat knows who played what; in a typed-in situation it does not, and the
    # opponent's deal is taken to be the cards it holds and the ones it threw.
    known_seats = sit.dealer is not None and all(s in (0, 1) for s, _ in sit.played)
    played = [c for s, c in sit.played if s == opponent] if known_seats else []
    keep = rules.hand_size if known_seats else sit.held[opponent]
    guesses = _draw_guesses(sit, rng, deals, shows, played, keep)
    if known_seats:
        belief = _weigh_history(sit, guesses, reading)
    else:
        belief = [Particle(ranks, w, show, crib) for (ranks, show, crib), w in guesses.items()]
    if len(belief) > particles:
        belief = _resample(belief, particles, rng)
    total = sum(p.weight for p in belief)
    return [p._replace(weight=p.weight / total) for p in belief]


def _draw_guesses(
    sit: PlaySituation, rng: random.Random, deals: int, shows: bool, played: list[Card], keep: int
) -> Guesses:
    """Draw ``deals`` deals of the unseen cards to the opponent (after the ``played`` cards it
    is known to have played) and weigh every way to keep ``keep`` cards of each."""
    rules, starter = sit.rules, sit.starter
    unseen = sit.unseen()
    held = sit.held[1 - sit.seat]
    drawn_size = min(len(unseen), held + rules.discard + (rules.crib_from_deck if shows else 0))
    guesses: Guesses = {}
    for _ in range(deals):
        drawn = rng.sample(unseen, drawn_size)
        deal = played + drawn[: held + rules.discard]
        extra = drawn[held + rules.discard :]  # with the shows: cards dealt straight to the crib
        # The played cards come first in ``deal`` and must all be kept.
        for kept, thrown, weight in keep_weights(deal, keep):
            if thrown and thrown[0] < len(played):
                continue
            holding = [deal[i] for i in kept if i >= len(played)]
            key = (tuple(sorted(c.rank for c in holding)), 0, 0)
            if shows:
                assert starter is not None
                crib = [*sit.discards, *(deal[i] for i in thrown), *extra]
                key = (
                    key[0],
                    hand_points([deal[i] for i in kept], starter),
                    hand_points(crib, starter, crib=True),
                )
            guesses[key] = guesses.get(key, 0.0) + weight
    return guesses


def _weigh_history(sit: PlaySituation, guesses: Guesses, reading: Reading | None) -> list[Particle]:
    """The guesses as particles, each weighed by how well it explains the play so far.

    When none explains it, the guesses are weighed by the keep model alone.
    """
    held: list[list[int]] = [[], []]
    held[sit.seat] = [c.rank for c in sit.hand]
    likelihoods: dict[tuple[int, ...], float] = {}
    belief = []
    for (ranks, show, crib), weight in guesses.items():
        likelihood = likelihoods.get(ranks)
        if likelihood is None:
            held[1 - sit.seat] = list(ranks)
            likelihood = likelihoods[ranks] = history_likelihood(sit, held, reading)
        belief.append(Particle(ranks, weight * likelihood, show, crib))
    if any(p.weight > 0 for p in belief):
        return [p for p in belief if p.weight > 0]
    return [Particle(ranks, weight, show, crib) for (ranks, show, crib), weight in guesses.items()]


def _resample(belief: list[Particle], size: int, rng: random.Random) -> list[Particle]:
    """``size`` draws in proportion to weight (systematic resampling), equal draws merged."""
    step = sum(p.weight for p in belief) / size
    point = rng.random() * step
    counts: dict[int, int] = {}
    reached = 0.0
    drawn = 0
    for i, p in enumerate(belief):
        reached += p.weight
        while point < reached and drawn < size:
            counts[i] = counts.get(i, 0) + 1
            point += step
            drawn += 1
    return [belief[i]._replace(weight=float(n)) for i, n in counts.items()]
