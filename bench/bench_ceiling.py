"""How far `strong`'s play is from a play that sees every hand: the ceiling of the play.

Usage::

    python bench/bench_ceiling.py --variant three-player --games 300 --jobs 1 --seed 1
    python bench/bench_ceiling.py --variant standard --games 2000 --jobs 2

Plays the games of ``bench/bench_ai.py --variant NAME`` (the same seeds, so the same deals,
seat-swapped) with one change: every `strong` seat, when it chooses a card in the play, is
told the cards every other seat holds (and, for the race near the end, what the hands and the
crib will show).  Its guess at the hidden cards becomes the truth: with two players the belief
is that one hand (:func:`cribbage.ai.belief.opponent_belief`), with three or four the only
world drawn is the real one (:class:`cribbage.ai.worlds.WorldSampler`).  Everything else is
`strong` as shipped: its discard, its model of the others (points-takers), its search.

It prints what ``bench_ai --variant`` prints.  The difference between the two win rates is what
reading the hidden cards could still gain in the play; the rest of the distance to a target
has to come from the discard (or is not there to be had).  A study, not a player: it reaches
into the game's state, which no seat's view holds, by replacing the two module attributes
above for the run.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ai

from cribbage.ai import pegging
from cribbage.ai.response import Particle
from cribbage.ai.situation import PlaySituation
from cribbage.ai.worlds import World
from cribbage.engine.actions import Action
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS
from cribbage.engine.scoring import hand_points
from cribbage.engine.view import SeatView
from cribbage.players import Player
from cribbage.table import match
from cribbage.table.table import Table

_TRUTH: dict[str, object] = {}
"""The hidden cards at the decision being made (one process plays one game at a time)."""


class Truth:
    """The world sampler's stand-in: every draw is the real world."""

    def __init__(self, situation: PlaySituation, rng: random.Random, *_: object, **__: object) -> None:
        self.rng = rng

    def draw(self) -> World:
        world = _TRUTH["world"]
        assert isinstance(world, World)
        return world

    def weighted(self) -> list[tuple[World, float]]:
        return [(self.draw(), 1.0)]


def _belief(*_: object, **__: object) -> list[Particle]:
    particle = _TRUTH["particle"]
    assert isinstance(particle, Particle)
    return [particle]


class Seeing:
    """A player told the hidden cards before each of its decisions (the game is set by
    :class:`SeeingTable`)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.game: Game | None = None

    def choose(self, view: SeatView) -> Action:
        assert self.game is not None
        state = self.game.state
        crib = tuple(c for c in state.crib if c not in view.discards)
        _TRUTH["world"] = World(tuple(tuple(h) for h in state.hands), crib)
        rules = state.rules
        if rules.players == 2 and state.starter is not None and state.kept:
            other = 1 - view.seat
            kept = state.kept[other]
            show = hand_points(kept, state.starter) if len(kept) == rules.hand_size else 0
            full = len(state.crib) == rules.crib_size
            crib_points = hand_points(tuple(state.crib), state.starter, crib=True) if full else 0
            held = tuple(sorted(c.rank for c in state.hands[other]))
            _TRUTH["particle"] = Particle(held, 1.0, show, crib_points)
        return self.inner.choose(view)

    def observe(self, view: SeatView) -> None:
        observe = getattr(self.inner, "observe", None)
        if callable(observe):
            observe(view)


class SeeingTable(Table):
    """The table of every game: hands its game to the seeing players (also inside bench_ai's
    timing wrapper)."""

    def __init__(self, game: Game, players: Sequence[Player | None] | None = None) -> None:
        super().__init__(game, players)
        for player in self.players:
            inner = getattr(player, "player", player)
            if isinstance(inner, Seeing):
                inner.game = game


def _make_player(level: str, seed: int) -> Player:
    player = bench_ai_make_player(level, seed)
    return Seeing(player) if level == "strong" else player


bench_ai_make_player = bench_ai.make_player


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", choices=VARIANTS, default="standard")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    # The worker processes are forked after these replacements, so they play with them too.
    pegging.WorldSampler = Truth  # type: ignore[misc,assignment]
    pegging.opponent_belief = _belief
    pegging.MIN_WORLDS, pegging.MAX_WORLDS = 1, 1  # type: ignore[misc]
    match.Table = SeeingTable  # type: ignore[misc]
    bench_ai.make_player = _make_player
    print("strong's play sees every hand (its discard does not):")
    bench_ai.print_variant(*bench_ai.variant_strength(args.variant, args.games, args.jobs, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
