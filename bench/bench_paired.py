"""Paired deals: what a change to `strong` is worth against `normal`, measured deal by deal.

Usage::

    python bench/bench_paired.py --variant four-player --deals 700 --jobs 2 \\
        --try 'cribbage.ai.pegging:RESPONSE_PLAYERS=frozenset({3, 4})'
    python bench/bench_paired.py --variant four-player --deals 300 --try see=all --try see=opponents
    python bench/bench_paired.py --scores 90-118 --deals 1000 --try 'cribbage.ai.discard:ENDGAME_NEED=40'

Each deal is the first hand of a game (from 0-0, or with ``--scores LOW-HIGH`` from both sides'
scores drawn in that range, to study the end of a game; game seed ``--seed`` plus the deal's number),
played with `strong`'s side in every seat rotation, once by `strong` as shipped and once for
each ``--try``.  The same cards come to the same players, so the difference of the two results
on a deal is what the change did there, and its spread is far smaller than that of whole games
(`bench_ai --variant` measures those).

A trial is one or more changes joined by ``;``:

* ``module:ATTR=EXPR``: the module attribute set to the expression for the trial's deals (for
  instance ``cribbage.ai.worlds:KEEP_SHARPNESS=8``);
* ``see=all``, ``see=opponents`` or ``see=partner`` (three or four players; ``all`` with two):
  when `strong` chooses a card in the play it is told the cards those seats hold (the others
  guessed at random from what is left), as ``bench_ceiling.py`` tells it all of them;
* ``model=normal``: `strong` reads the others' keeps and plays with `normal`'s own rules (the
  best keep on its own, the points-taker's card) instead of its model, learned or not: what a
  perfect model of these opponents could read from what they do.

It prints `strong`'s side's net points a deal (its points less each other side's, at half with
three players as `strong` weighs them) by source, with 95% intervals, and each trial's paired
difference to the shipped player with its interval and the share of deals played differently.
With ``--scores`` (two sides with a table of chances) it prints too the chance of winning of
`strong`'s side after the hand (1 or 0 when the game is over, else the variant's table) and
its paired difference: what counts near the end, where points are only a means.
A study: the trials reach into module attributes, and ``see`` into the game's hidden state.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import math
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ceiling

from cribbage.ai import belief, pegging, worlds
from cribbage.ai.discard import opponent_weight
from cribbage.ai.playmodel import Reading
from cribbage.ai.situation import PlaySituation
from cribbage.ai.winning import win_table
from cribbage.ai.worlds import World
from cribbage.engine.cards import Card
from cribbage.engine.events import SOURCES
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS, Rules, get_rules
from cribbage.players import Player, make_player
from cribbage.players.levels import NormalPlayer, card_order
from cribbage.table.match import seat_roles, set_size
from cribbage.table.table import Table

SEES = ("all", "opponents", "partner")
_EVAL_NAMES: dict[str, Any] = {"__builtins__": {}, "frozenset": frozenset, "dict": dict}


class Trial:
    """One ``--try``: module attributes to set, what `strong` sees, whose model it reads by."""

    def __init__(self, text: str, rules: Rules) -> None:
        self.text = text
        self.patches: list[tuple[Any, str, Any]] = []
        self.see: str | None = None
        self.normal_model = False
        for part in filter(None, (p.strip() for p in text.split(";"))):
            if part.startswith("see="):
                self.see = part.removeprefix("see=")
                if self.see not in SEES or (rules.players == 2 and self.see != "all"):
                    raise ValueError(f"{part!r}: see= takes {', '.join(SEES)} (all with two players)")
            elif part == "model=normal":
                if rules.lowball:
                    raise ValueError("model=normal: normal's keep is modelled for the games of most points")
                self.normal_model = True
            elif ":" in part and "=" in part:
                name, rest = part.split(":", 1)
                attr, expr = rest.split("=", 1)
                module = importlib.import_module(name)
                if not hasattr(module, attr.strip()):
                    raise ValueError(f"{part!r}: {name} has no attribute {attr.strip()!r}")
                value = eval(expr, _EVAL_NAMES)  # a study's own command line, not a player's input
                self.patches.append((module, attr.strip(), value))
            else:
                raise ValueError(f"{part!r} is neither module:ATTR=EXPR, see=... nor model=normal")

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        patches = list(self.patches)
        if self.see == "all":
            patches += [
                (pegging, "WorldSampler", bench_ceiling.Truth),
                (pegging, "opponent_belief", bench_ceiling._belief),
                (pegging, "MIN_WORLDS", 1),
                (pegging, "MAX_WORLDS", 1),
            ]
        elif self.see is not None:
            patches.append((pegging, "WorldSampler", Partial if self.see == "opponents" else PartnerOnly))
        if self.normal_model:
            patches += [
                (module, name, value)
                for module in (worlds, belief)
                for name, value in (("keep_weights", _normal_keep), ("history_likelihood", _normal_history))
            ]
        old = [(module, attr, getattr(module, attr)) for module, attr, _ in patches]
        try:
            for module, attr, value in patches:
                setattr(module, attr, value)
            yield
        finally:
            for module, attr, value in reversed(old):
                setattr(module, attr, value)


class Partial:
    """A world sampler that knows the opponents' hands and guesses the partner's at random."""

    known_side = False
    """Which seats it is told: those not on the player's side (opponents), or those on it."""

    def __init__(self, situation: PlaySituation, rng: random.Random, *_: object, **__: object) -> None:
        self.situation = situation
        self.rng = rng

    def draw(self) -> World:
        sit = self.situation
        truth = bench_ceiling._TRUTH["world"]
        assert isinstance(truth, World)
        rules = sit.rules
        side = rules.side_of(sit.seat)
        guessed = [
            s for s in range(rules.players) if s != sit.seat and (rules.side_of(s) == side) != self.known_side
        ]
        told = {c for s in range(rules.players) if s not in guessed for c in truth.hands[s]}
        rest = [c for c in sit.unseen() if c not in told]
        self.rng.shuffle(rest)
        hands = list(truth.hands)
        for s in guessed:
            hands[s], rest = tuple(rest[: len(truth.hands[s])]), rest[len(truth.hands[s]) :]
        return World(tuple(hands), tuple(rest[: len(truth.crib)]))  # the crib guessed too

    def weighted(self) -> list[tuple[World, float]]:
        return [(self.draw(), 1.0) for _ in range(pegging.CANDIDATES_MANY)]


class PartnerOnly(Partial):
    known_side = True


_NORMAL = NormalPlayer(0)
_SLIP = 1e-3
"""What `normal`'s model gives a keep or card that `normal` would not choose (not 0: a world
should not be ruled out by a model)."""


def _normal_keep(cards: Sequence[Card], size: int) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    """:func:`cribbage.ai.worlds.keep_weights` by `normal`'s keep."""
    throw = len(cards) - size
    rules = next(r for r in map(get_rules, VARIANTS) if r.discard == throw and not r.lowball)
    thrown = set(_NORMAL.throw(sorted(cards, key=card_order), rules))
    ways = worlds.splits(len(cards), throw)
    weights = [1.0 if {cards[i] for i in out} == thrown else _SLIP for _, out in ways]
    total = sum(weights)
    return [(kept, out, w / total) for (kept, out), w in zip(ways, weights, strict=True)]


class _NormalReading:
    """`normal`'s card (it looks at ranks only) as a reading of the play."""

    def probability(self, held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> float:
        cards = sorted({r: Card(r, 0) for r in held if count + min(r, 10) <= 31}.values(), key=card_order)
        if not cards:
            return 1.0
        choice = _NORMAL.card(cards, [Card(r, 1) for r in seq], count, get_rules("standard"))
        return 1.0 if choice.rank == rank else _SLIP


_history = worlds.history_likelihood


def _normal_history(
    sit: PlaySituation, now: Sequence[Sequence[int]], reading: Reading | None = None
) -> float:
    return _history(sit, now, _NormalReading())


class OneHand(Table):
    """A table that stops at the first decision after the first hand is over."""

    def _tell_hand_over(self) -> None:
        super()._tell_hand_over()
        self.players[:] = [None] * len(self.players)


Scores = tuple[int, int] | None
"""The range each side's score is drawn from at the deal's start (``--scores``), or 0-0."""
Task = tuple[str, int, int, int, Scores]  # variant, game seed, rotation, trial index (0: shipped), scores
Result = tuple[list[float], str, float | None]
"""Net points a deal by source, a hash of the hand's events, and with ``--scores`` the chance
of winning of `strong`'s side after the hand (1 or 0 when the game is over)."""

_TRIALS: list[Trial] = []


def start_scores(seed: int, scores: tuple[int, int]) -> list[int]:
    """Both sides' scores at the start of a deal, drawn from ``scores`` (lowest, highest) by
    the game's seed: the same for every rotation and trial."""
    rng = random.Random(f"scores {seed}")
    return [rng.randint(*scores) for _ in range(2)]


def play_deal(task: Task) -> Result:
    """The first hand of a game with `strong`'s side at ``rotation``: net points by source."""
    variant, seed, rotation, trial, scores = task
    rules = get_rules(variant)
    mine = {seat for seat, role in enumerate(seat_roles(rules, rotation)) if role == "a"}
    players: list[Player | None] = []
    for seat in range(rules.players):
        player = make_player("strong" if seat in mine else "normal", seed * 10 + seat)
        seeing = trial and _TRIALS[trial - 1].see is not None and seat in mine
        players.append(bench_ceiling.Seeing(player) if seeing else player)
    game = Game(rules, seed=seed)
    if scores is not None:  # a study's own start: the record of such a game is not a real game's
        game.state.scores = start_scores(seed, scores)
        game.state.previous_scores = list(game.state.scores)
    table = OneHand(game, players)
    for player in players:
        if isinstance(player, bench_ceiling.Seeing):
            player.game = game
    with _TRIALS[trial - 1].applied() if trial else contextlib.nullcontext():
        steps = table.run()
    weight = opponent_weight(rules)
    net = [0.0] * len(SOURCES)
    for seat, points in enumerate(table.tally.points):
        for source, p in enumerate(points):
            net[source] += p if seat in mine else -weight * p
    events = repr([step.event.to_json() for step in steps]).encode()
    return net, hashlib.sha1(events).hexdigest(), None if scores is None else _win_after(game, mine)


def _win_after(game: Game, mine: set[int]) -> float:
    """The chance of winning of the side of the seats ``mine`` after the hand: 1 or 0 if the game
    is over, else from the variant's table with the next deal's dealer."""
    state, rules = game.state, game.rules
    side = rules.side_of(min(mine))
    if state.result is not None:
        return 1.0 if state.result.winner == side else 0.0
    table = win_table(rules)
    assert table is not None and state.dealer is not None
    return table.chance(state.scores[side], state.scores[1 - side], rules.side_of(state.dealer) == side)


def _init(variant: str, texts: Sequence[str]) -> None:
    """Each process parses the trials itself (a module does not cross to a worker)."""
    rules = get_rules(variant)
    _TRIALS[:] = [Trial(text, rules) for text in texts]


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run(
    variant: str, deals: int, seed: int, jobs: int, trials: Sequence[str], scores: Scores = None
) -> list[list[Result]]:
    """Each deal and rotation played as shipped (index 0) and by each trial: results by trial."""
    rules = get_rules(variant)
    tasks = [
        (variant, seed + d, r, t, scores)
        for d in range(deals)
        for r in range(set_size(rules))
        for t in range(len(trials) + 1)
    ]
    _init(variant, trials)
    play: Callable[[Task], Result] = play_deal
    if jobs > 1:
        with multiprocessing.get_context().Pool(jobs, _init, (variant, list(trials))) as pool:
            results = pool.map(play, tasks, chunksize=4)
    else:
        results = [play(task) for task in tasks]
    k = len(trials) + 1
    return [results[t::k] for t in range(k)]


def report(names: Sequence[str], by_trial: list[list[Result]]) -> list[str]:
    lines = []
    for name, results in zip(names, by_trial, strict=True):
        totals = mean_ci([sum(net) for net, _, _ in results])
        parts = " / ".join(
            f"{source} {mean_ci([r[0][i] for r in results])[0]:+.3f}" for i, source in enumerate(SOURCES)
        )
        wins = [w for _, _, w in results if w is not None]
        if wins:
            mean, half = mean_ci(wins)
            parts += f"; wins {mean:.1%} ± {half:.1%} after the hand"
        lines.append(
            f"{name}: net {totals[0]:+.3f} ± {totals[1]:.3f} points a deal ({parts}; n={len(results)})"
        )
    base = by_trial[0]
    for name, results in zip(names[1:], by_trial[1:], strict=True):
        pairs = list(zip(results, base, strict=True))
        diff = mean_ci([sum(a) - sum(b) for (a, _, _), (b, _, _) in pairs])
        pegging_diff = mean_ci([a[0] - b[0] for (a, _, _), (b, _, _) in pairs])
        changed = sum(ha != hb for (_, ha, _), (_, hb, _) in pairs)
        line = (
            f"{name} - shipped: {diff[0]:+.3f} ± {diff[1]:.3f} points a deal"
            f" (pegging {pegging_diff[0]:+.3f} ± {pegging_diff[1]:.3f});"
        )
        if any(w is not None for _, _, w in results):
            gain = mean_ci([(a or 0.0) - (b or 0.0) for (_, _, a), (_, _, b) in pairs])
            line += f" chance of winning {gain[0]:+.2%} ± {gain[1]:.2%};"
        lines.append(f"{line} {changed} of {len(results)} played differently")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", choices=VARIANTS, default="standard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--try", dest="trials", action="append", default=[], metavar="TRIAL")
    parser.add_argument(
        "--scores",
        metavar="LOW-HIGH",
        help="start each deal with both sides' scores drawn from LOW to HIGH (two sides with a"
        " table of chances) and print the chance of winning after the hand",
    )
    args = parser.parse_args(argv)
    if args.deals < 2 or args.jobs < 1:
        parser.error("--deals must be at least 2 and --jobs at least 1")
    rules = get_rules(args.variant)
    scores = None
    if args.scores is not None:
        try:
            low, high = (int(part) for part in args.scores.split("-"))
        except ValueError:
            parser.error(f"--scores {args.scores!r}: give LOW-HIGH, two whole numbers")
        if not 0 <= low <= high < rules.target:
            parser.error(f"--scores {args.scores!r}: need 0 <= LOW <= HIGH < {rules.target}")
        if win_table(rules) is None:
            parser.error(f"--scores: {args.variant} has no table of chances of winning")
        scores = (low, high)
    try:
        for text in args.trials:
            Trial(text, rules)
    except (ValueError, ImportError, SyntaxError, NameError) as exc:
        parser.error(str(exc))
    by_trial = run(args.variant, args.deals, args.seed, args.jobs, args.trials, scores)
    for line in report(["shipped", *args.trials], by_trial):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
