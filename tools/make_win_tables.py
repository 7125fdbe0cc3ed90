"""Write ``src/cribbage/ai/data/winning.json``: the chance of winning a two-sided game by score.

For each shape of deal (standard, five-card, seven-card, crib-deal, lowball, four-player
partnerships) the tool plays ``--hands`` hands (half as many for all but the standard deal)
between ``strong`` players far from the end of a game, and records what each role scored:
pegged in the play (the dealer's side's, his heels included, and the pone's side's), shown in
the pone's hand, the dealer's hand and the crib (and with partners the dealer's partner's and
the pone's partner's hands).  Those distributions are the hand model of
:mod:`cribbage.ai.winning`, and :func:`cribbage.ai.winning.solve` turns each into the table of
the dealer's chance of winning from every score for the variant's targets (:data:`SHAPES`).
In lowball the side that reaches the target loses: the table is one minus the chance that the
dealer's side reaches it first.

Three players have no table (three scores: not solved here); :func:`cribbage.ai.winning.win_table`
answers ``None`` for them.

Each block of hands has its own seeded generators, so the file is the same for any ``--jobs``,
and ``--variants`` rebuilds some shapes alone: the others' hand models are read back from the
file and their tables solved again from them (the same numbers).

Usage::

    python tools/make_win_tables.py                  # about 45 minutes on 2 cores
    python tools/make_win_tables.py --hands 500      # a quick look
    python tools/make_win_tables.py --variants lowball four-player   # those shapes only
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
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import GO, HEELS, LAST_CARD
from cribbage.engine.state import GameState
from cribbage.engine.view import CHANCE, Phase
from cribbage.players.levels import StrongPlayer

DATA = Path(__file__).resolve().parent.parent / "src" / "cribbage" / "ai" / "data"
SHAPES = {
    "standard": (121, 61),
    "five-card": (61,),
    "seven-card": (151, 181),
    "crib-deal": (121,),
    "lowball": (121,),
    "four-player": (121,),
}
"""A variant for each shape of deal, and the targets to solve for."""
BLOCK = 50
"""Hands per job."""
FAR = 1000
"""The target of the simulated games: out of reach."""

Hand = tuple[int, ...]
"""Dealer's side's pegging, pone's side's pegging, pone's hand, dealer's hand, crib; with four
players then the dealer's partner's hand and the pone's partner's."""


def play_hands(job: tuple[str, int, int, int]) -> list[Hand]:
    """``count`` hands between strong players far from the end, the dealer at seat 0."""
    variant, first, count, seed = job
    # Far from any target, so that the players play for points (and need no table of chances).
    rules = get_rules(variant, target=FAR)
    # Where each seat's hand goes in a Hand: the dealer, the pone, the dealer's partner, the
    # pone's partner.
    shown = {0: 3, 1: 2, 2: 5, 3: 6}
    hands = []
    for index in range(first, first + count):
        rng = random.Random(f"{seed}:{variant}:{index}")
        players = [StrongPlayer(rng.getrandbits(32)) for _ in range(rules.players)]
        state = GameState(rules, dealer=0, explain=False)
        got = [0] * (7 if rules.players == 4 else 5)
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
                assert event.seat is not None
                if event.kind == "score" and event.detail in ("play", GO, LAST_CARD, HEELS):
                    got[rules.side_of(event.seat)] += event.points
                elif event.kind == "show":
                    got[4 if event.detail == "crib" else shown[event.seat]] += event.points
            if state.phase is Phase.DEAL or state.is_terminal:
                break
        hands.append(tuple(got))
    return hands


def model(hands: Sequence[Hand]) -> HandModel:
    n = len(hands)

    def dist(values: Counter[int]) -> dict[int, float]:
        return {k: v / n for k, v in sorted(values.items())}

    pegging = Counter((h[0], h[1]) for h in hands)
    partners = len(hands[0]) == 7
    return HandModel(
        pegging={k: v / n for k, v in sorted(pegging.items())},
        pone_hand=dist(Counter(h[2] for h in hands)),
        dealer_hand=dist(Counter(h[3] for h in hands)),
        crib=dist(Counter(h[4] for h in hands)),
        dealer_partner_hand=dist(Counter(h[5] for h in hands)) if partners else None,
        pone_partner_hand=dist(Counter(h[6] for h in hands)) if partners else None,
    )


def simulate(variant: str, count: int, seed: int, jobs: int) -> tuple[HandModel, float]:
    """The hand model of a variant from ``count`` simulated hands, and the seconds it took."""
    start = time.perf_counter()
    work = [(variant, first, min(BLOCK, count - first), seed) for first in range(0, count, BLOCK)]
    hands: list[Hand] = []
    with Pool(jobs) as pool:
        for part in pool.imap(play_hands, work):
            hands += part
    seconds = time.perf_counter() - start
    means = [sum(h[i] for h in hands) / len(hands) for i in range(len(hands[0]))]
    partners = (
        f", dealer's partner's hand {means[5]:.2f}, pone's partner's hand {means[6]:.2f}"
        if len(means) == 7
        else ""
    )
    print(
        f"{variant}: {len(hands)} hands in {seconds:.0f} s; means: dealer pegs {means[0]:.2f}, pone"
        f" pegs {means[1]:.2f}, pone hand {means[2]:.2f}, dealer hand {means[3]:.2f}, crib"
        f" {means[4]:.2f}{partners}",
        file=sys.stderr,
    )
    return model(hands), seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=8000, help="hands per shape of deal (default 8000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2, help="processes to use (default 2)")
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=list(SHAPES),
        default=list(SHAPES),
        help="simulate only these shapes, keeping the others' hand models from the file (default: all)",
    )
    args = parser.parse_args(argv)
    path = DATA / WIN_FILE
    old: dict[str, Any] = {}
    if set(args.variants) != set(SHAPES):
        old = json.loads(path.read_text(encoding="utf-8"))
        if old["generator"] != f"tools/make_win_tables.py --hands {args.hands} --seed {args.seed}":
            parser.error(f"{WIN_FILE} was written with {old['generator']}: rebuild every shape")
    models: dict[str, Any] = {}
    tables: dict[str, Any] = {}
    built: dict[str, Any] = {}
    for variant, targets in SHAPES.items():
        shape = deal_shape(get_rules(variant))
        if variant in args.variants:
            count = args.hands if variant == "standard" else args.hands // 2
            hand_model, seconds = simulate(variant, count, args.seed, args.jobs)
            built[shape] = {"hands": count, "seconds": round(seconds)}
        else:
            hand_model = HandModel.from_json(old["models"][shape])
            built[shape] = old.get("built", {}).get(shape, {"hands": old_hands(args.hands, variant)})
        models[shape] = hand_model.to_json()
        for target in targets:
            start = time.perf_counter()
            win = solve(hand_model, target)
            if get_rules(variant).lowball:  # the side that reaches the target first loses
                win = [[1.0 - v for v in row] for row in win]
            tables[f"{shape}-{target}"] = [[round(v * 10000) for v in row] for row in win]
            print(
                f"  {variant} to {target}: the first dealer wins {win[0][0]:.2%}"
                f" (solved in {time.perf_counter() - start:.0f} s)",
                file=sys.stderr,
            )
    data = {
        "description": (
            "The dealer's chance of winning, in 1/10000, by [dealer's score][pone's score] (of the"
            " two sides), the hand model it is solved from, and how many hands each model was"
            " simulated from (see tools/make_win_tables.py)."
        ),
        "generator": f"tools/make_win_tables.py --hands {args.hands} --seed {args.seed}",
        "built": built,
        "models": models,
        "tables": tables,
    }
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return 0


def old_hands(hands: int, variant: str) -> int:
    """The hands a shape was simulated from, in a file written before it said so."""
    return hands if variant == "standard" else hands // 2


if __name__ == "__main__":
    sys.exit(main())
