"""The play search agrees with the game engine, and the analysis agrees with brute force."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cribbage.ai.discard import discard_options, hand_average
from cribbage.ai.search import WIN, PlaySearch, play_points_of_ranks
from cribbage.ai.situation import PlaySituation
from cribbage.ai.tables import Starters, crib_expectation, crib_value, standalone_points, throw_class
from cribbage.ai.worlds import WorldSampler
from cribbage.engine.actions import Play
from cribbage.engine.cards import DECK, Card, parse_cards
from cribbage.engine.errors import CardError
from cribbage.engine.rules import get_rules
from cribbage.engine.scoring import hand_points, play_combos, rank_points
from cribbage.engine.state import GameState
from cribbage.engine.view import Phase
from engine_fixtures import deal_game, play


def pegged(state: GameState, action: Play, side: int) -> tuple[GameState, int]:
    """The state after ``action`` and the points pegged in the play: side's minus the others'."""
    child = state.clone()
    events = child.apply(action)
    delta = sum(e.points * (1 if e.side == side else -1) for e in events if e.kind == "score")
    return child, delta


def engine_value(state: GameState, side: int) -> float:
    """Minimax of the rest of the play through the engine itself: side's points minus the others'."""
    if state.phase is not Phase.PLAY:
        return 0.0
    seat = state.to_act
    best: float | None = None
    for action in state.legal_actions():
        assert isinstance(action, Play)
        child, delta = pegged(state, action, side)
        value = delta + engine_value(child, side)
        if best is None or (value > best if state.side_of(seat) == side else value < best):
            best = value
    assert best is not None
    return best


def random_play_position(variant: str, seed: int, plays: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(get_rules(variant), dealer=0)
    while state.phase is not Phase.PLAY:
        state.apply(state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions()))
    for _ in range(plays):
        if state.phase is not Phase.PLAY:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("variant", "plays"),
    [
        ("standard", 2),
        ("standard", 3),
        ("five-card", 0),
        ("three-player", 5),
        ("four-player", 9),
        ("crib-deal", 2),
    ],
)
def test_search_equals_engine_minimax(variant: str, plays: int) -> None:
    for seed in range(4):
        state = random_play_position(variant, seed, plays)
        if state.phase is not Phase.PLAY:
            continue
        seat = state.to_act
        side = state.side_of(seat)
        rules = state.rules
        hands = tuple(tuple(sorted(c.rank for c in h)) for h in state.hands)
        search = PlaySearch(
            rules.players, [rules.side_of(s) for s in range(rules.players)], side, one_count=rules.one_count
        )
        values = search.card_values(hands, seat, tuple(c.rank for c in state.sequence))
        for action in state.legal_actions():
            assert isinstance(action, Play)
            child, delta = pegged(state, action, side)
            assert values[action.card.rank] == pytest.approx(delta + engine_value(child, side))


def test_play_points_match_the_scorer() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        cards = rng.sample(DECK, rng.randint(1, 6))
        count = sum(c.value for c in cards)
        if count > 31:
            continue
        expected = sum(c.points for c in play_combos(cards, count))
        assert play_points_of_ranks(tuple(c.rank for c in cards)) == expected


def test_pegging_out_is_a_win_in_the_search() -> None:
    # Side 0 needs 2: the 5 on a 10 makes fifteen and ends the game.
    search = PlaySearch(2, (0, 1), 0, left=(2, 50), show=((1, 0), (0, 0)))
    values = search.card_values(((5, 9), (1, 2)), 0, (10,))
    assert values[5] == WIN and values[9] < WIN


# --------------------------------------------------------------------------- the show averages


def test_hand_average_is_the_average_over_every_starter() -> None:
    rng = random.Random(1)
    for _ in range(300):
        dealt = rng.sample(DECK, 6)
        keep = dealt[:4] if rng.random() < 0.7 else [Card(r, 2) for r in (1, 3, 9, 11)]
        starters = [c for c in DECK if c not in dealt and c not in keep]
        for crib in (False, True):
            brute = sum(hand_points(keep, s, crib) for s in starters) / len(starters)
            assert hand_average(keep, starters, crib) == pytest.approx(brute)


@pytest.mark.parametrize("thrown", ["5H 5C", "JH 4H", "JD", "KS QS", "2C"])
def test_crib_expectation_is_the_average_over_every_deal(thrown: str) -> None:
    cards = parse_cards(thrown)
    unseen = [c for c in DECK if c not in cards][::3]  # a small pack, so brute force is quick
    total = n = 0
    m = 4 - len(cards)
    for starter in unseen:
        rest = [c for c in unseen if c is not starter]
        for others in combinations(rest, m):
            total += hand_points((*cards, *others), starter, crib=True)
            n += 1
    assert crib_expectation(cards, unseen, 4) == pytest.approx(total / n)


def test_standalone_points_and_starters() -> None:
    assert standalone_points(parse_cards("5H 5C JD QS")) == 10
    assert standalone_points(parse_cards("2H 4H 6H 8H")) == 4
    assert standalone_points(parse_cards("3C 4D 5H 6S")) == rank_points([3, 4, 5, 6])
    assert Starters.excluding(parse_cards("5H 5C")).size == 50


def test_crib_tables_cover_every_throw_and_favour_fives() -> None:
    rules = get_rules()
    own = {
        name: crib_value(parse_cards(cards), rules, own=True)
        for name, cards in (("55", "5H 5C"), ("AK", "AH KD"), ("5J", "5H JD"), ("27", "2C 7D"))
    }
    assert own["55"] > own["5J"] > own["27"] > own["AK"]
    assert throw_class(parse_cards("TD 9D")) == "9Ts"
    for variant in ("five-card", "seven-card", "three-player", "four-player", "crib-deal", "lowball"):
        r = get_rules(variant)
        assert 2 < crib_value(tuple(DECK[: r.discard]), r, own=False) < 10


def test_exact_crib_is_close_to_the_tables() -> None:
    for option in discard_options("5H 5C 6D JS QH 2C", dealer=True, exact=True):
        table = crib_value(option.discard, get_rules(), own=True)
        assert abs(option.crib - table) < 1.5


def test_discard_options_reject_a_wrong_hand() -> None:
    with pytest.raises(CardError):
        discard_options("5H 5C 6D JS QH", dealer=True)
    with pytest.raises(CardError):
        discard_options("5H 5H 6D JS QH 2C", dealer=True)


# --------------------------------------------------------------------------- the worlds


def test_worlds_agree_with_a_go() -> None:
    # Pone 9, dealer K (19), pone 8 (27): the dealer says go, so it holds nothing under 5.
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("5C 5D", "2C 3C"))
    play(state, "9S", "KH", "8S", "QH")
    situation = PlaySituation.from_view(state.view(1))
    sampler = WorldSampler(situation, random.Random(1))
    for _ in range(50):
        world = sampler.draw()
        assert len(world.hands[0]) == 2 and all(c.value > 4 for c in world.hands[0])
        assert world.hands[1] == situation.hand
        assert len(world.crib) >= 2 and not set(world.crib) & set(world.hands[0])


def test_worlds_favour_hands_that_score() -> None:
    # Before the dealer plays, its four cards are more often ones that score together.
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("5C 5D", "2C 3C"))
    situation = PlaySituation.from_view(state.view(1))
    modelled = WorldSampler(situation, random.Random(2))
    pack = situation.unseen()
    rng = random.Random(2)
    model = sum(standalone_points(modelled.draw().hands[0]) for _ in range(300)) / 300
    uniform = sum(standalone_points(rng.sample(pack, 4)) for _ in range(300)) / 300
    assert model > uniform + 1
