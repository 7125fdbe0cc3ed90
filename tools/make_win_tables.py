"""Write ``src/cribbage/ai/data/winning.json``: the chance of winning a two-player game by score.

For each shape of deal (standard, five-card, seven-card, crib-deal) the tool plays ``--hands``
hands (half as many for the rarer deals) between two ``strong`` players far from the end of a
game, and records what each role scored: pegged in the play (the dealer's his heels included),
shown in the pone's hand, the dealer's hand and the crib.  Those distributions are the hand
model of :mod:`cribbage.ai.winning`, and :func:`cribbage.ai.winning.solve` turns each into the
table of the dealer's chance of winning from every score for the variant's target (and 61 for
the standard deal's short game).

Each block of hands has its own seeded generators, so the file is the same for any ``--jobs``.

Usage::

    python tools/make_win_tables.py                  # about 25 minutes on 2 cores
    python tools/make_win_tables.py --hands 500      # a quick look
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from cribbage.ai.winning import WIN_FILE, HandModel, deal_shape, solve
from cribbage.engine.game import CHANCE, GameState, Phase
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import GO, HEELS, LAST_CARD
from cribbage.players.levels import StrongPlayer

DATA = Path(__file__).resolve().parent.parent / "src" / "cribbage" / "ai" / "data"
SHAPES = {"standard": (121, 61), "five-card": (61,), "seven-card": (151,), "crib-deal": (121,)}
"""A variant for each shape of deal, and the targets to solve for."""
BLOCK = 50
"""Hands per job."""
FAR = 1000
"""The target of the simulated games: out of reach."""

Hand = tuple[int, int, int, int, int]
"""Dealer's pegging, pone's pegging, pone's hand, dealer's hand, crib."""


def play_hands(job: tuple[str, int, int, int]) -> list[Hand]:
    """``count`` hands between strong players far from the end, the dealer at seat 0."""
    variant, first, count, seed = job
    # Far from any target, so that the players play for points (and need no table of chances).
    rules = get_rules(variant, target=FAR)
    hands = []
    for index in range(first, first + count):
        rng = random.Random(f"{seed}:{variant}:{index}")
        players = [StrongPlayer(rng.getrandbits(32)), StrongPlayer(rng.getrandbits(32))]
        state = GameState(rules, dealer=0, explain=False)
        got = [0, 0, 0, 0, 0]
        while True:
            actor = state.to_act
            if actor == CHANCE:
                action = state.sample_chance(rng)
            else:
                forced = state.forced_action()
                action = forced if forced is not None else players[actor].choose(state.view(actor))
            for event in state.apply(action):
                if not event.points:
                    continue
                if event.kind == "score" and event.detail in ("play", GO, LAST_CARD, HEELS):
                    got[0 if event.seat == 0 else 1] += event.points
                elif event.kind == "show":
                    got[4 if event.detail == "crib" else 3 if event.seat == 0 else 2] += event.points
            if state.phase is Phase.DEAL or state.is_terminal:
                break
        hands.append((got[0], got[1], got[2], got[3], got[4]))
    return hands


def model(hands: Sequence[Hand]) -> HandModel:
    n = len(hands)

    def dist(values: Counter[int]) -> dict[int, float]:
        return {k: v / n for k, v in sorted(values.items())}

    pegging = Counter((h[0], h[1]) for h in hands)
    return HandModel(
        pegging={k: v / n for k, v in sorted(pegging.items())},
        pone_hand=dist(Counter(h[2] for h in hands)),
        dealer_hand=dist(Counter(h[3] for h in hands)),
        crib=dist(Counter(h[4] for h in hands)),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=8000, help="hands per shape of deal (default 8000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2, help="processes to use (default 2)")
    args = parser.parse_args(argv)
    models: dict[str, Any] = {}
    tables: dict[str, Any] = {}
    for variant, targets in SHAPES.items():
        start = time.perf_counter()
        count = args.hands if variant == "standard" else args.hands // 2
        work = [(variant, first, min(BLOCK, count - first), args.seed) for first in range(0, count, BLOCK)]
        hands: list[Hand] = []
        with Pool(args.jobs) as pool:
            for part in pool.imap(play_hands, work):
                hands += part
        hand_model = model(hands)
        rules = get_rules(variant)
        shape = deal_shape(rules)
        models[shape] = hand_model.to_json()
        means = [sum(h[i] for h in hands) / len(hands) for i in range(5)]
        print(
            f"{variant}: {len(hands)} hands in {time.perf_counter() - start:.0f} s; means: dealer pegs"
            f" {means[0]:.2f}, pone pegs {means[1]:.2f}, pone hand {means[2]:.2f}, dealer hand"
            f" {means[3]:.2f}, crib {means[4]:.2f}",
            file=sys.stderr,
        )
        for target in targets:
            win = solve(hand_model, target)
            tables[f"{shape}-{target}"] = [[round(v * 10000) for v in row] for row in win]
            print(f"  target {target}: the first dealer wins {win[0][0]:.2%}", file=sys.stderr)
    data = {
        "description": (
            "The dealer's chance of winning, in 1/10000, by [dealer's score][pone's score], and the"
            " hand model it is solved from (see tools/make_win_tables.py)."
        ),
        "generator": f"tools/make_win_tables.py --hands {args.hands} --seed {args.seed}",
        "models": models,
        "tables": tables,
    }
    path = DATA / WIN_FILE
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
