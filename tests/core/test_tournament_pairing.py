"""The qualifying round's pairings (cribbage.tournament.pairing): the clubs' rotation and the
Swiss system, and the matching the Swiss system relies on (docs/tournaments.md)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.tournament import (
    EntrantError,
    EntrantId,
    GameScore,
    PairedRound,
    PairingError,
    rotation_capacity,
    rotation_rounds,
    standings,
    swiss_round,
)
from cribbage.tournament.matching import has_perfect_matching, maximum_matching

# Field sizes from 2 to 300: the small ones where repeats are forced, odd and even, and a few big.
SIZES = st.sampled_from([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 25, 40, 63, 101, 150, 299, 300])


def meetings(rounds: Sequence[PairedRound]) -> Counter[frozenset[EntrantId]]:
    return Counter(frozenset(table) for paired in rounds for table in paired.tables)


def check_round(field: Sequence[EntrantId], paired: PairedRound) -> None:
    """Everyone has exactly one place in the round (a table or the bye); a bye only when odd."""
    assert sorted(map(str, paired.entrants())) == sorted(map(str, field))
    assert (paired.bye is not None) == (len(field) % 2 == 1)


def check_byes(field: Sequence[EntrantId], rounds: Sequence[PairedRound]) -> None:
    """Nobody has a second bye while somebody has none, after every round."""
    for done in range(1, len(rounds) + 1):
        byes = Counter(paired.bye for paired in rounds[:done])
        counts = [byes[entrant] for entrant in field]
        assert max(counts) - min(counts) <= 1


def round_exists(field: Sequence[EntrantId], rounds: Sequence[PairedRound], most: int) -> bool:
    """Whether some round (with some fewest-byes entrant out, if odd) meets nobody more than
    ``most`` times in all, decided by brute force for small fields."""
    met = meetings(rounds)
    byes = Counter(paired.bye for paired in rounds)
    fewest = min(byes[e] for e in field)
    outs: list[EntrantId | None] = [e for e in field if byes[e] == fewest] if len(field) % 2 else [None]

    def pairable(rest: list[EntrantId]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            met[frozenset((first, other))] < most and pairable([e for e in others if e != other])
            for other in others
        )

    return any(pairable([e for e in field if e != out]) for out in outs)


def test_rotation_of_an_even_field_is_a_round_robin() -> None:
    rounds = rotation_rounds(list("abcdefghij"), 9)
    assert meetings(rounds) == Counter(frozenset(pair) for pair in combinations("abcdefghij", 2))
    assert all(paired.bye is None and len(paired.tables) == 5 for paired in rounds)


def test_rotation_of_an_odd_field_gives_each_entrant_one_bye_in_entry_order() -> None:
    field = list(range(1, 10))
    rounds = rotation_rounds(field, 9)
    assert meetings(rounds) == Counter(frozenset(pair) for pair in combinations(field, 2))
    assert [paired.bye for paired in rounds] == field


def test_rotation_goes_round_again_for_more_games_but_never_a_third_time() -> None:
    assert (rotation_capacity(14), rotation_capacity(13)) == (13, 13)
    rounds = rotation_rounds(list(range(6)), 10)
    assert set(meetings(rounds).values()) == {2}
    with pytest.raises(PairingError, match="from 1 to 10") as caught:
        rotation_rounds(list(range(6)), 11)
    assert caught.value.values == {"games": 11, "most": 10}
    with pytest.raises(PairingError):
        rotation_rounds(list(range(6)), 0)
    with pytest.raises(EntrantError, match="at least 2") as too_few:
        rotation_rounds(["alone"], 1)
    assert too_few.value.problem == "count"


@settings(max_examples=20, deadline=None)
@given(SIZES, st.integers(1, 22))
def test_rotation_properties(size: int, games: int) -> None:
    field = [f"e{k}" for k in range(size)]
    games = min(games, 2 * rotation_capacity(size))
    rounds = rotation_rounds(field, games)
    assert len(rounds) == games
    for paired in rounds:
        check_round(field, paired)
    check_byes(field, rounds)
    met = meetings(rounds)
    assert max(met.values()) <= (1 if games <= rotation_capacity(size) else 2)


def test_the_first_swiss_round_pairs_neighbours_in_the_standings() -> None:
    paired = swiss_round(["a", "b", "c", "d", "e", "f"])
    assert paired == PairedRound((("a", "b"), ("c", "d"), ("e", "f")))


def test_swiss_looks_ahead_so_the_rest_can_be_paired_without_a_repeat() -> None:
    # f has met c, d and e: pairing a with b (the nearest) would leave f with a repeat.
    history = [PairedRound((("f", "c"),)), PairedRound((("f", "d"),)), PairedRound((("f", "e"),))]
    paired = swiss_round(list("abcdef"), history)
    assert paired.tables == (("a", "c"), ("b", "f"), ("d", "e"))


def test_swiss_allows_a_second_meeting_only_when_it_must_never_a_third() -> None:
    field = list("abcd")
    rounds = list(rotation_rounds(field, 3))  # everyone has met everyone
    for _ in range(3):
        rounds.append(swiss_round(field, rounds))
        assert max(meetings(rounds).values()) <= 2
    assert set(meetings(rounds).values()) == {2}
    with pytest.raises(PairingError, match="third meeting"):
        swiss_round(field, rounds)


def test_the_swiss_bye_goes_to_the_lowest_ranked_of_those_with_fewest_byes() -> None:
    assert swiss_round(list("abcde")).bye == "e"
    assert swiss_round(list("abcde"), [PairedRound((("a", "b"), ("c", "d")), "e")]).bye == "d"


def test_swiss_refuses_a_round_naming_someone_not_in_the_field() -> None:
    with pytest.raises(EntrantError, match="'z' is not in the field"):
        swiss_round(["a", "b"], [PairedRound((("a", "z"),))])


def test_a_round_with_an_entrant_twice_is_refused() -> None:
    with pytest.raises(EntrantError, match="'a' is paired twice"):
        PairedRound((("a", "b"), ("c", "a")))
    with pytest.raises(EntrantError, match="paired twice"):
        PairedRound((("a", "b"),), bye="b")


def play_swiss(field: list[EntrantId], games: int, rng: random.Random) -> list[PairedRound]:
    """A Swiss qualifying with random results, checking each round as it is made: a repeat only
    when no round without one existed, and, should no round avoid a third meeting, none did
    (brute force for fields of up to 11).  The rounds played, fewer only in that case."""
    rounds: list[PairedRound] = []
    results: list[GameScore] = []
    for _ in range(games):
        byes = [paired.bye for paired in rounds if paired.bye is not None]
        ranked = [line.entrant for line in standings(field, results, byes)]
        try:
            paired = swiss_round(ranked, rounds)
        except PairingError:
            assert len(field) > 11 or not round_exists(field, rounds, 2)
            return rounds
        check_round(field, paired)
        met_before = meetings(rounds)
        if any(met_before[frozenset(t)] for t in paired.tables) and len(field) <= 11:
            assert not round_exists(field, rounds, 1)
        rounds.append(paired)
        for a, b in paired.tables:
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            results.append(GameScore(winner, loser, 121, rng.randrange(50, 121)))
    return rounds


@settings(max_examples=15, deadline=None)
@given(SIZES, st.integers(1, 22), st.randoms(use_true_random=False))
def test_swiss_properties(size: int, games: int, rng: random.Random) -> None:
    field: list[EntrantId] = list(range(size))
    games = min(games, rotation_capacity(size) + 2, 6 if size > 40 else 22)
    rounds = play_swiss(field, games, rng)
    assert len(rounds) == games or size <= 11
    check_byes(field, rounds)
    met = meetings(rounds)
    assert max(met.values()) <= 2
    if size >= 2 * games:  # each may still meet half the rest or more: never a repeat (Dirac)
        assert max(met.values()) == 1


def test_a_club_night_of_nine_games_meets_nine_different_opponents() -> None:
    # The rotation, as clubs do, for any field of ten or more; the Swiss in fields big enough.
    for size in (10, 11, 14, 15):
        assert max(meetings(rotation_rounds(list(range(size)), 9)).values()) == 1
    for size in (18, 19, 40):
        assert max(meetings(play_swiss(list(range(size)), 9, random.Random(size))).values()) == 1


def test_a_swiss_near_the_field_size_repeats_only_when_it_must() -> None:
    for seed in range(4):  # 10 entrants, 9 games: a late round may have no repeat-free pairing
        rounds = play_swiss(list(range(10)), 9, random.Random(seed))
        assert len(rounds) == 9 and max(meetings(rounds).values()) <= 2


def brute_force_matching(size: int, edges: set[tuple[int, int]]) -> int:
    """The size of a maximum matching, by trying every one."""

    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        return max([best(rest)] + [1 + best(rest - {u}) for u in rest if (v, u) in edges])

    return best(frozenset(range(size)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.floats(0, 1), st.randoms(use_true_random=False))
def test_the_blossom_matching_is_maximum(size: int, density: float, rng: random.Random) -> None:
    edges = {(i, j) for i in range(size) for j in range(i + 1, size) if rng.random() < density}
    edges |= {(j, i) for i, j in edges}
    adjacency = [[j for j in range(size) if (i, j) in edges] for i in range(size)]
    for neighbours in adjacency:
        rng.shuffle(neighbours)
    mate = maximum_matching(adjacency)
    assert all(u == -1 or (mate[u] == v and (v, u) in edges) for v, u in enumerate(mate))
    assert sum(u != -1 for u in mate) // 2 == brute_force_matching(size, edges)


def test_an_odd_cycle_is_contracted() -> None:
    # Two triangles joined by an edge, and a pendant on each: the blossoms must be shrunk.
    adjacency = [[1, 2], [0, 2], [0, 1, 3], [2, 4, 5], [3, 5], [3, 4, 6], [5, 7], [6]]
    assert has_perfect_matching(adjacency)
    assert not has_perfect_matching([[1, 2, 3], [0], [0], [0]])
