"""The compact playout plays exactly the games of the engine, for every variant it supports."""

from __future__ import annotations

import pytest

from cribbage.engine.rules import VARIANTS, Rules, get_rules
from cribbage.players import Player, RandomPlayer, make_player
from cribbage.players.levels import NormalPlayer, StrongPlayer
from cribbage.table.match import derive_seed, play_game, run_match
from cribbage.table.playout import play_greedy_game, supports

TWO_PLAYER = [name for name, rules in VARIANTS.items() if rules.players == 2]
PAIRS = (("normal", "normal"), ("normal", "weak"), ("weak", "normal"), ("weak", "weak"))
GAMES = 60
"""Games per variant, 15 for each pair of players.  Every step from line to line of the playout
comes up within the first 20 games of each variant, but a game won on his heels (rare: the 13th
of five-card, and the 14th and 15th of lowball with two of the options below).  The study of
1,000 games a variant, with the time each takes: ``bench/bench_playout.py``."""


def players(names: tuple[str, str], game: int) -> list[Player]:
    return [make_player(name, derive_seed(7, game, seat)) for seat, name in enumerate(names)]


def same_games(rules: Rules, games: int, first_dealer: int | None = None) -> None:
    """Each seeded game, played by the engine and by the playout with new players each time."""
    for game in range(games):
        names = PAIRS[game % len(PAIRS)]
        seed = derive_seed(3, game)
        _, expected = play_game(rules, players(names, game), seed, first_dealer)
        assert play_greedy_game(rules, players(names, game), seed, first_dealer) == expected, (names, seed)


def test_every_two_player_variant_is_supported() -> None:
    assert TWO_PLAYER == ["standard", "short", "five-card", "seven-card", "crib-deal", "lowball"]


@pytest.mark.parametrize("variant", TWO_PLAYER)
def test_the_playout_plays_the_engines_games(variant: str) -> None:
    same_games(get_rules(variant), GAMES)


@pytest.mark.parametrize(
    "options",
    [
        {"first_dealer": "high", "cut_ties": "value", "skunk": "seed4"},
        {"target": 31},  # games won in the first hands, on heels, in the play, in the show
        {"target": 181, "one_count": True, "first_hand_bonus": 2},
    ],
)
def test_the_playout_follows_the_options(options: dict[str, object]) -> None:
    same_games(get_rules("standard", **options), 30)
    same_games(get_rules("lowball", **options), 15, first_dealer=1)


def test_what_the_playout_does_not_support_goes_through_the_engine() -> None:
    normal = [NormalPlayer(1), NormalPlayer(2)]
    assert supports(get_rules(), normal)
    assert not supports(get_rules("standard", manual_count=True), normal)
    assert not supports(get_rules("three-player"), [*normal, NormalPlayer(3)])
    assert not supports(get_rules(), [NormalPlayer(1), RandomPlayer(2)])
    assert not supports(get_rules(), [NormalPlayer(1), StrongPlayer(2)])

    class Cautious(NormalPlayer):
        """A subclass may decide otherwise: only the exact levels are played out."""

    assert not supports(get_rules(), [NormalPlayer(1), Cautious(2)])
    with pytest.raises(ValueError, match="two weak or normal players"):
        play_greedy_game(get_rules("three-player"), [*normal, NormalPlayer(3)], seed=1)


def without_timing(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "jobs")}


def test_a_match_is_the_same_with_and_without_the_playout() -> None:
    rules = get_rules()
    fast = [run_match("normal", "weak", 40, seed=5, jobs=jobs, rules=rules).to_json() for jobs in (1, 2)]
    slow = run_match("normal", "weak", 40, seed=5, jobs=1, rules=rules, playout=False).to_json()
    assert without_timing(fast[0]) == without_timing(fast[1]) == without_timing(slow)
