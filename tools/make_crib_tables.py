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
      number of ``--jobs``).
    * With three or four players every other seat is dealt a random hand and throws so: to feed
      the crib when it is on the crib owner's side, to spoil it otherwise.  ``own`` (the crib is
      the thrower's side's): in partnerships the partner feeds it and the two opponents spoil it;
      with three players both others spoil it.  ``other`` (an opponent's crib): the dealer's side
      feeds it (the two opponents; with three players the dealer) and the rest spoil it (the
      partner; the third player).  A card dealt to the crib from the pack is drawn uniformly
      (with three players, one): exact over it and the starter.
    * In ``lowball`` (a table of its own, ``...-lowball``) the other player wants the fewest
      points: it keeps the worst average hand, feeds our crib (``own``) and spoils its own
      (``other``).

``src/cribbage/ai/data/pegging.json``
    What a kept hand is worth in the play, by its ranks (``A234``), as pone and as dealer, for
    two players and hands of 3, 4 and 5 cards (the deals of five-card, standard and seven-card
    cribbage).  The opponent's hand is guessed as the ``strong`` player guesses it at the start
    of the play (:func:`cribbage.ai.belief.opponent_belief`: ``--deals`` random deals of the other
    cards, every keep weighed by the keep model, ``--particles`` guesses kept; a third of them
    for five-card hands, which take longest), and the play is solved as the ``strong`` player
    plays it: the best response to a points-taking opponent over that guess
    (:class:`cribbage.ai.response.BestResponse`).  Each hand has its own seeded generator, so
    the file is the same for any number of ``--jobs``.

    ``p3-4`` and ``p4-4``: the same for three and four players (kept hands of four cards), as
    ``dealer`` when the player's side deals and ``pone`` otherwise, from ``--multi-deals`` deals
    of the other hands per kept hand and role (:func:`multi_pegging_values`: the others keep
    sensibly, the play is searched as ``strong`` searches a world, the others taking points).

Usage::

    python tools/make_crib_tables.py                  # both files: about 30 minutes on 2 cores
    python tools/make_crib_tables.py --only pegging --deals 300 --particles 100   # a quick look
    python tools/make_crib_tables.py --only crib --variants three-player four-player  # those tables
    python tools/make_crib_tables.py --only multi-pegging --multi-variants three-player --multi-deals 200
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from cribbage.ai.belief import opponent_belief
from cribbage.ai.discard import opponent_weight
from cribbage.ai.response import BestResponse
from cribbage.ai.search import PlaySearch
from cribbage.ai.situation import PlaySituation
from cribbage.ai.tables import Starters, crib_expectation, table_shape, throw_class
from cribbage.engine.cards import DECK, RANK_CHARS, Card
from cribbage.engine.rules import Rules, get_rules

DATA = Path(__file__).resolve().parent.parent / "src" / "cribbage" / "ai" / "data"
VARIANTS = ("standard", "five-card", "seven-card", "crib-deal", "three-player", "four-player", "lowball")
"""One variant for each shape of deal (``short`` deals like ``standard``), and ``lowball``, which
deals like ``standard`` but where every player throws for the fewest points."""

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
    """The throw of a player who keeps the best average hand and feeds (+1) or spoils (-1) the crib.

    In lowball, where points count against their side, the player wants the fewest: the worst
    average hand, and a crib of its side spoiled (``sign`` +1), an opponent's fed (-1).
    """
    starters = Starters.excluding(hand)
    polarity = -1 if rules.lowball else 1
    best: tuple[float, tuple[Card, ...]] | None = None
    for thrown in combinations(hand, rules.discard):
        keep = [c for c in hand if c not in thrown]
        value = polarity * (starters.average(keep) + sign * uniform[throw_class(thrown)])
        if best is None or value > best[0]:
            best = (value, thrown)
    assert best is not None
    return best[1]


def thrower_signs(rules: Rules, own: bool) -> tuple[int, ...]:
    """How each other seat throws to the crib, +1 to feed it or -1 to spoil it, seen from seat 0:
    the seats of the crib owner's side feed it.  The crib is seat 0's side's (``own``; seat 0
    deals) or the next seat's (seat 1 deals, an opponent in every variant).

    >>> thrower_signs(get_rules("standard"), True), thrower_signs(get_rules("standard"), False)
    ((-1,), (1,))
    >>> thrower_signs(get_rules("four-player"), True), thrower_signs(get_rules("four-player"), False)
    ((-1, 1, -1), (1, -1, 1))
    >>> thrower_signs(get_rules("three-player"), True), thrower_signs(get_rules("three-player"), False)
    ((-1, -1), (1, -1))
    """
    owner = rules.side_of(0 if own else 1)
    return tuple(1 if rules.side_of(seat) == owner else -1 for seat in range(1, rules.players))


def model_value(job: Job) -> tuple[str, str, bool, float, float]:
    """The average crib for one throw against sensible other players, and its standard error."""
    variant, name, own, samples, seed = job
    rules = get_rules(variant)
    uniform = uniform_table(variant)
    rng = random.Random(f"{seed}:{variant}:{name}:{own}")
    thrown = representative(name)
    pool = [c for c in DECK if c not in thrown]
    signs = thrower_signs(rules, own)
    total = square = 0.0
    for _ in range(samples):
        dealt = rng.sample(pool, rules.deal * len(signs))
        crib = thrown
        for i, sign in enumerate(signs):
            crib += sensible_throw(dealt[i * rules.deal : (i + 1) * rules.deal], rules, sign, uniform)
        if len(crib) == rules.crib_size:
            value = Starters.excluding((*thrown, *dealt)).average(crib, crib=True)
        else:
            rest = [c for c in pool if c not in dealt]
            value = crib_expectation(crib, rest, rules.crib_size)
        total += value
        square += value * value
    mean = total / samples
    error = ((square / samples - mean * mean) / samples) ** 0.5
    return variant, name, own, mean, error


def crib_tables(
    samples: int, seed: int, jobs: int, variants: Sequence[str] = VARIANTS, old: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The crib tables of ``variants``; the other shapes' are copied from ``old`` (the file as it
    was), which must then have been written with the same samples and seed."""
    tables: dict[str, Any] = {}
    work: list[Job] = []
    for variant in VARIANTS:
        rules = get_rules(variant)
        if variant not in variants:
            assert old is not None
            tables[table_shape(rules)] = old["tables"][table_shape(rules)]
            continue
        uniform = {k: round(v, 4) for k, v in uniform_table(variant).items()}
        entry: dict[str, Any] = {"variant": variant, "uniform": uniform}
        work += [(variant, name, own, samples, seed) for name in uniform for own in (True, False)]
        entry["own"], entry["other"] = {}, {}
        tables[table_shape(rules)] = entry
    worst = 0.0
    with Pool(jobs) as pool:
        for variant, name, own, value, error in pool.imap_unordered(model_value, work, chunksize=4):
            tables[table_shape(get_rules(variant))]["own" if own else "other"][name] = round(value, 4)
            worst = max(worst, error)
    print(f"largest standard error of a table entry: {worst:.3f}", file=sys.stderr)
    for variant in variants:
        entry = tables[table_shape(get_rules(variant))]
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

PEGGING_SHAPES = {3: "five-card", 4: "standard", 5: "seven-card"}
"""The variant whose deal each size of kept hand is valued in (two players)."""


def rank_name(ranks: Sequence[int]) -> str:
    """``A234``: the table key of a multiset of ranks."""
    return "".join(RANK_CHARS[r - 1] for r in sorted(ranks))


def keep_multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` ranks with at most four of a rank."""
    return [k for k in combinations_with_replacement(range(1, 14), size) if max(map(k.count, k)) <= 4]


def pegging_values(job: tuple[int, tuple[int, ...], int, int, int]) -> tuple[str, float, float]:
    """A kept hand's net pegging as pone and as dealer, best response against a greedy opponent."""
    size, ranks, deals, particles, seed = job
    rules = get_rules(PEGGING_SHAPES[size])
    if size == 5:
        particles = max(1, particles // 3)
    name = rank_name(ranks)
    rng = random.Random(f"{seed}:pegging:{size}:{name}")
    suits: dict[int, int] = {}
    keep = []
    for rank in ranks:  # any suits will do: a flush is rare and only the ranks play
        suits[rank] = suits.get(rank, -1) + 1
        keep.append(Card(rank, suits[rank]))
    values = []
    for dealer in (1, 0):  # the seat is 0: first as pone, then as dealer
        sit = PlaySituation(rules, 0, tuple(keep), (), (), (size, size), dealer=dealer)
        belief = opponent_belief(sit, rng, deals=deals, particles=particles)
        solver = BestResponse(one_count=rules.one_count)
        if dealer:
            values.append(max(solver.values(belief, tuple(ranks)).values()))
        else:
            values.append(solver.lead_value(belief, tuple(ranks)))
    return name, values[0], values[1]


MULTI_PEGGING = ("three-player", "four-player")
"""The variants of more than two players: their pegging tables come from :func:`multi_pegging_values`."""


def multi_pegging_values(job: tuple[str, tuple[int, ...], int, int]) -> tuple[str, str, float, float]:
    """A kept hand's net pegging with three or four players, when its side deals and when not.

    Seat 0 deals.  The hand is held in turn by each seat of the side that deals (the dealer,
    and in partnerships the dealer's partner) or of the other sides; every other seat is dealt
    a random hand and keeps what a sensible player keeps (:func:`sensible_throw`, feeding the
    dealer's crib when it is on the dealer's side).  The play is searched to its end as the
    ``strong`` player searches a world: its side (the partner too) seeing every hand, the others
    taking the most points now; the net points are its side's, less the others' (each at half
    with three players, see :func:`cribbage.ai.discard.opponent_weight`).
    """
    variant, ranks, deals, seed = job
    rules = get_rules(variant)
    n = rules.players
    name = rank_name(ranks)
    rng = random.Random(f"{seed}:pegging:{variant}:{name}")
    suits: dict[int, int] = {}
    keep = []
    for rank in ranks:
        suits[rank] = suits.get(rank, -1) + 1
        keep.append(Card(rank, suits[rank]))
    pool = [c for c in DECK if c not in keep]
    uniform = uniform_table(variant)
    sides = tuple(rules.side_of(s) for s in range(n))
    weight = opponent_weight(rules)
    values = []
    for own in (True, False):
        seats = [s for s in range(n) if (sides[s] == sides[0]) == own]
        searches = {
            seat: PlaySearch(
                n, sides, sides[seat], one_count=rules.one_count, greedy_others=True, opponent_weight=weight
            )
            for seat in seats
        }
        total = 0.0
        for deal in range(deals):
            seat = seats[deal % len(seats)]
            dealt = rng.sample(pool, rules.deal * (n - 1))
            hands: list[tuple[int, ...]] = [()] * n
            hands[seat] = tuple(sorted(ranks))
            for i, other in enumerate(s for s in range(n) if s != seat):
                hand = dealt[i * rules.deal : (i + 1) * rules.deal]
                thrown = sensible_throw(hand, rules, 1 if sides[other] == sides[0] else -1, uniform)
                hands[other] = tuple(sorted(c.rank for c in hand if c not in thrown))
            total += searches[seat].value(tuple(hands), 1)
        values.append(total / deals)
    return variant, name, values[0], values[1]


def multi_pegging_tables(
    deals: int, seed: int, jobs: int, variants: Sequence[str] = MULTI_PEGGING
) -> dict[str, Any]:
    """The pegging tables of three and four players, by the ranks of a kept hand (four cards)."""
    tables: dict[str, Any] = {}
    for variant in variants:
        rules = get_rules(variant)
        work = [(variant, ranks, deals, seed) for ranks in keep_multisets(rules.hand_size)]
        results: dict[str, tuple[float, float]] = {}
        start = time.perf_counter()
        with Pool(jobs) as pool:
            for _, name, own, other in pool.imap(multi_pegging_values, work, chunksize=8):
                results[name] = (own, other)
        print(f"{variant} pegging: {time.perf_counter() - start:.0f} s", file=sys.stderr)
        names = [rank_name(ranks) for ranks in keep_multisets(rules.hand_size)]
        tables[f"p{rules.players}-{rules.hand_size}"] = {
            "variant": variant,
            "deals": deals,
            "pone": {n: round(results[n][1], 3) for n in names},
            "dealer": {n: round(results[n][0], 3) for n in names},
        }
    return tables


def pegging_table(deals: int, particles: int, seed: int, jobs: int) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    work = [
        (size, ranks, deals, particles, seed) for size in PEGGING_SHAPES for ranks in keep_multisets(size)
    ]
    results: dict[str, tuple[float, float]] = {}
    with Pool(jobs) as pool:
        for name, pone, dealer in pool.imap(pegging_values, work, chunksize=8):
            results[name] = (pone, dealer)
    for size, variant in PEGGING_SHAPES.items():
        names = [rank_name(ranks) for ranks in keep_multisets(size)]
        tables[str(size)] = {
            "variant": variant,
            "pone": {n: round(results[n][0], 3) for n in names},
            "dealer": {n: round(results[n][1], 3) for n in names},
        }
    return {
        "description": (
            "Net pegging of a kept hand by its ranks, as pone and as dealer: the best response"
            " against a greedy opponent whose hand is guessed from the keep model"
            " (see tools/make_crib_tables.py)."
        ),
        "generator": f"tools/make_crib_tables.py --deals {deals} --particles {particles} --seed {seed}",
        "deals": deals,
        "particles": particles,
        "seed": seed,
        "tables": tables,
    }


def write(name: str, data: dict[str, Any]) -> None:
    path = DATA / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=3000, help="opponent hands per throw (default 3000)")
    parser.add_argument("--deals", type=int, default=1000, help="opponent deals per kept hand (default 1000)")
    parser.add_argument(
        "--particles", type=int, default=300, help="opponent hands kept per kept hand (default 300)"
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2, help="processes to use (default 2)")
    parser.add_argument(
        "--only",
        choices=("crib", "pegging", "multi-pegging"),
        help="write only one of the files, or (multi-pegging) only the three- and four-player"
        " pegging tables into pegging.json",
    )
    parser.add_argument(
        "--multi-deals",
        type=int,
        default=100,
        help="deals per kept hand and role for the three- and four-player pegging tables (default 100)",
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=VARIANTS,
        default=VARIANTS,
        help="rebuild only these variants' crib tables, keeping the others of crib.json (default: all)",
    )
    parser.add_argument(
        "--multi-variants",
        nargs="+",
        choices=MULTI_PEGGING,
        default=MULTI_PEGGING,
        help="with --only multi-pegging: the variants to (re)build (default: both)",
    )
    args = parser.parse_args(argv)
    if args.only == "multi-pegging":
        data = json.loads((DATA / "pegging.json").read_text(encoding="utf-8"))
        data["tables"].update(
            multi_pegging_tables(args.multi_deals, args.seed, args.jobs, args.multi_variants)
        )
        write("pegging.json", data)
        return 0
    if args.only != "pegging":
        start = time.perf_counter()
        old = None
        if set(args.variants) != set(VARIANTS):
            old = json.loads((DATA / "crib.json").read_text(encoding="utf-8"))
            if (old["samples"], old["seed"]) != (args.samples, args.seed):
                parser.error(f"crib.json was written with {old['generator']}: rebuild every variant")
        write("crib.json", crib_tables(args.samples, args.seed, args.jobs, args.variants, old))
        print(f"crib tables: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.only != "crib":
        start = time.perf_counter()
        data = pegging_table(args.deals, args.particles, args.seed, args.jobs)
        data["tables"].update(multi_pegging_tables(args.multi_deals, args.seed, args.jobs))
        write("pegging.json", data)
        print(f"pegging table: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
