"""Write the tables the computer players ship with: crib values and pegging values.

``src/cribbage/ai/data/crib.json``
    For every throw to the crib, by ranks and suitedness (``5K``, ``5Ks``, ``55``; ``J`` for a
    one-card throw), the expected points of the crib.

    * ``uniform``: exact, with the other cards of the crib and the starter drawn uniformly from
      the rest of the pack (:func:`cribbage.ai.tables.crib_expectation`).
    * ``own`` and ``other`` (two-player variants): the other player is dealt a random hand and
      throws what a sensible player throws: the cards whose keep has the best exact average hand
      *minus* the uniform crib value when the crib is ours (``own``: they spoil it), *plus* it
      when the crib is theirs (``other``: they feed it).  Averaged exactly over the starters and
      the cards dealt to the crib, and by Monte Carlo over the other player's hand (``--samples``
      hands per throw, each throw with its own seeded generator, so the file is the same for any
      number of ``--jobs``).  Variants with more players use the uniform values for both.

``src/cribbage/ai/data/pegging.json``
    What a kept hand is worth in the play.  Random standard deals are kept as above; the play of
    the two kept hands is then solved exactly with both hands known
    (:class:`cribbage.ai.search.PlaySearch`), and the pone's net pegging (and the dealer's, its
    opposite) is fitted by least squares on the number of cards of each rank and of pairs in the
    hand.

Usage::

    python tools/make_crib_tables.py                  # both files: 5 to 15 minutes on 2 cores
    python tools/make_crib_tables.py --only pegging --deals 2000   # a quick look
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from cribbage.ai.search import PlaySearch
from cribbage.ai.tables import Starters, crib_expectation, table_shape, throw_class
from cribbage.cards import DECK, Card
from cribbage.rules import Rules, get_rules

DATA = Path(__file__).resolve().parent.parent / "src" / "cribbage" / "ai" / "data"
VARIANTS = ("standard", "five-card", "seven-card", "crib-deal", "three-player", "four-player")
"""One variant for each shape of deal (``short`` and ``lowball`` deal like ``standard``)."""

Job = tuple[str, str, bool, int, int]  # variant, throw class, own crib, samples, seed


def representative(name: str) -> tuple[Card, ...]:
    """Cards of a throw class: the first card a club, the second a diamond unless suited."""
    suited = name.endswith("s")
    ranks = [" A23456789TJQK".index(ch) for ch in name.rstrip("s")]
    return tuple(Card(rank, 0 if suited or i == 0 else 1) for i, rank in enumerate(ranks))


def throw_classes(size: int) -> list[str]:
    """Every class of one-card (13) or two-card (169: pairs, unsuited, suited) throws."""
    if size == 1:
        return [throw_class((Card(r, 0),)) for r in range(1, 14)]
    names = []
    for a in range(1, 14):
        for b in range(a, 14):
            names.append(throw_class((Card(a, 0), Card(b, 1))))
            if a != b:
                names.append(throw_class((Card(a, 0), Card(b, 0))))
    return names


def uniform_value(name: str, rules: Rules) -> float:
    thrown = representative(name)
    return crib_expectation(thrown, [c for c in DECK if c not in thrown], rules.crib_size)


@cache
def uniform_table(variant: str) -> dict[str, float]:
    """The exact crib of every throw against random cards, for one variant's deal."""
    rules = get_rules(variant)
    return {name: uniform_value(name, rules) for name in throw_classes(rules.discard)}


def sensible_throw(
    hand: Sequence[Card], rules: Rules, sign: int, uniform: dict[str, float]
) -> tuple[Card, ...]:
    """The throw of a player who keeps the best average hand and feeds (+1) or spoils (-1) the crib."""
    starters = Starters.excluding(hand)
    best: tuple[float, tuple[Card, ...]] | None = None
    for thrown in combinations(hand, rules.discard):
        keep = [c for c in hand if c not in thrown]
        value = starters.average(keep) + sign * uniform[throw_class(thrown)]
        if best is None or value > best[0]:
            best = (value, thrown)
    assert best is not None
    return best[1]


def model_value(job: Job) -> tuple[str, str, bool, float, float]:
    """The average crib for one throw against a sensible opponent, and its standard error."""
    variant, name, own, samples, seed = job
    rules = get_rules(variant)
    uniform = uniform_table(variant)
    rng = random.Random(f"{seed}:{variant}:{name}:{own}")
    thrown = representative(name)
    pool = [c for c in DECK if c not in thrown]
    total = square = 0.0
    for _ in range(samples):
        hand = rng.sample(pool, rules.deal)
        theirs = sensible_throw(hand, rules, -1 if own else 1, uniform)
        crib = (*thrown, *theirs)
        if len(crib) == rules.crib_size:
            value = Starters.excluding((*thrown, *hand)).average(crib, crib=True)
        else:
            rest = [c for c in pool if c not in hand]
            value = crib_expectation(crib, rest, rules.crib_size)
        total += value
        square += value * value
    mean = total / samples
    error = ((square / samples - mean * mean) / samples) ** 0.5
    return variant, name, own, mean, error


def crib_tables(samples: int, seed: int, jobs: int) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    work: list[Job] = []
    for variant in VARIANTS:
        rules = get_rules(variant)
        uniform = {k: round(v, 4) for k, v in uniform_table(variant).items()}
        entry: dict[str, Any] = {"variant": variant, "uniform": uniform}
        if rules.players == 2:
            work += [(variant, name, own, samples, seed) for name in uniform for own in (True, False)]
            entry["own"], entry["other"] = {}, {}
        else:
            entry["own"] = entry["other"] = uniform
        tables[table_shape(rules)] = entry
    worst = 0.0
    with Pool(jobs) as pool:
        for variant, name, own, value, error in pool.imap_unordered(model_value, work, chunksize=4):
            tables[table_shape(get_rules(variant))]["own" if own else "other"][name] = round(value, 4)
            worst = max(worst, error)
    print(f"largest standard error of a table entry: {worst:.3f}", file=sys.stderr)
    for entry in tables.values():
        for key in ("own", "other"):
            entry[key] = dict(sorted(entry[key].items(), key=lambda kv: list(entry["uniform"]).index(kv[0])))
    return {
        "description": "Expected crib points by throw (ranks, 's' = suited); see tools/make_crib_tables.py.",
        "generator": f"tools/make_crib_tables.py --samples {samples} --seed {seed}",
        "samples": samples,
        "seed": seed,
        "tables": tables,
    }


# --------------------------------------------------------------------------- pegging


def pegging_deals(job: tuple[int, int, int]) -> list[tuple[list[int], list[int], float]]:
    """Solved plays of random standard deals: (pone ranks, dealer ranks, pone's net pegging)."""
    first, count, seed = job
    rules = get_rules("standard")
    uniform = uniform_table("standard")
    results = []
    for index in range(first, first + count):
        rng = random.Random(f"{seed}:pegging:{index}")
        cards = rng.sample(DECK, 12)
        pone, dealer = cards[:6], cards[6:]
        kept = []
        for hand, sign in ((pone, -1), (dealer, 1)):
            thrown = sensible_throw(hand, rules, sign, uniform)
            kept.append(sorted(c.rank for c in hand if c not in thrown))
        search = PlaySearch(2, (0, 1), 0)
        value = max(search.card_values((tuple(kept[0]), tuple(kept[1])), 0).values())
        results.append((kept[0], kept[1], value))
    return results


def features(ranks: Sequence[int]) -> list[float]:
    """Bias, cards of each rank, pairs."""
    counts = [0] * 13
    for r in ranks:
        counts[r - 1] += 1
    return [1.0, *map(float, counts), float(sum(n * (n - 1) // 2 for n in counts))]


def least_squares(rows: list[list[float]], ys: list[float], ridge: float = 1.0) -> list[float]:
    """Ridge regression by the normal equations (the bias is not penalised)."""
    n = len(rows[0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for row, y in zip(rows, ys, strict=True):
        for i in range(n):
            b[i] += row[i] * y
            for j in range(n):
                a[i][j] += row[i] * row[j]
    for i in range(1, n):
        a[i][i] += ridge
    for col in range(n):  # Gaussian elimination with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(n)]


def pegging_table(deals: int, seed: int, jobs: int) -> dict[str, Any]:
    chunk = 250
    work = [(first, min(chunk, deals - first), seed) for first in range(0, deals, chunk)]
    rows: dict[str, list[list[float]]] = {"pone": [], "dealer": []}
    ys: dict[str, list[float]] = {"pone": [], "dealer": []}
    with Pool(jobs) as pool:
        for part in pool.imap(pegging_deals, work):
            for pone, dealer, value in part:
                rows["pone"].append(features(pone))
                ys["pone"].append(value)
                rows["dealer"].append(features(dealer))
                ys["dealer"].append(-value)
    table = {}
    for role in ("pone", "dealer"):
        w = least_squares(rows[role], ys[role])
        mean = sum(ys[role]) / len(ys[role])
        table[role] = {
            "bias": round(w[0], 4),
            "ranks": [round(x, 4) for x in w[1:14]],
            "pair": round(w[14], 4),
            "mean": round(mean, 4),
        }
    return {
        "description": "Net pegging of a kept hand: bias + value of each card's rank + value per pair.",
        "generator": f"tools/make_crib_tables.py --deals {deals} --seed {seed}",
        "deals": deals,
        "seed": seed,
        "tables": {"4": table},
    }


def write(name: str, data: dict[str, Any]) -> None:
    path = DATA / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=3000, help="opponent hands per throw (default 3000)")
    parser.add_argument("--deals", type=int, default=20000, help="solved deals for the pegging table")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2, help="processes to use (default 2)")
    parser.add_argument("--only", choices=("crib", "pegging"), help="write only one of the files")
    args = parser.parse_args(argv)
    if args.only != "pegging":
        start = time.perf_counter()
        write("crib.json", crib_tables(args.samples, args.seed, args.jobs))
        print(f"crib tables: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.only != "crib":
        start = time.perf_counter()
        write("pegging.json", pegging_table(args.deals, args.seed, args.jobs))
        print(f"pegging table: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
