"""The best response of three and four players agrees with a search through the game engine.

The engine plays each guess at the other seats' hands as a separate game; the player's choice
must be the same in every game it cannot tell apart (the same cards and goes seen so far), and
every other seat (the partner too) plays the card that scores most now.  That search knows
nothing of :class:`cribbage.ai.response.MultiResponse`, so agreeing with it on random positions
checks the recursion, the splitting of the belief, goes, the last card, 31 and partners.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from cribbage.ai.discard import opponent_weight
from cribbage.ai.pegging import CANDIDATES_MANY, MAX_JOINT, joint_belief, play_options
from cribbage.ai.playmodel import PlayFit
from cribbage.ai.response import Joint, MultiResponse
from cribbage.ai.search import PlaySearch
from cribbage.ai.situation import PlaySituation
from cribbage.ai.worlds import World, WorldSampler
from cribbage.engine.actions import Deal, Discard, Play, Starter
from cribbage.engine.cards import DECK, Card
from cribbage.engine.rules import Rules, get_rules
from cribbage.engine.state import GameState
from test_ai_response import engine_after, engine_value

ME = 0
Games = list[tuple[GameState, float]]


def world(rules: Rules, dealer: int, hands: list[list[Card]], starter: Card) -> GameState:
    """A game at the start of the play with these kept hands (the throws are other cards)."""
    used = {c for hand in hands for c in hand} | {starter}
    spare = [c for c in DECK if c not in used]
    n = rules.players
    throws = [spare[i * rules.discard : (i + 1) * rules.discard] for i in range(n)]
    crib = spare[n * rules.discard : n * rules.discard + rules.crib_from_deck]
    state = GameState(rules, dealer=dealer, explain=False)
    state.apply(Deal(tuple(tuple(h + t) for h, t in zip(hands, throws, strict=True)), tuple(crib)))
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        state.apply(Discard(seat, tuple(throws[seat])))
    state.apply(Starter(starter))
    return state


def gain(rules: Rules) -> Callable[[int], float]:
    """What a point of ``seat`` is worth to ME: one for its side, minus the opponent weight else."""
    return lambda seat: 1.0 if rules.side_of(seat) == rules.side_of(ME) else -opponent_weight(rules)


def random_position(
    rng: random.Random, rules: Rules, guesses: int
) -> tuple[Games, list[Joint], tuple[int, ...]]:
    """Games at the start of the play that differ in the other seats' hands, and the belief."""
    size = rules.hand_size
    cards = rng.sample(DECK, size + 1)
    mine, starter = cards[:size], cards[size]
    rest = [c for c in DECK if c not in cards]
    dealer = rng.randrange(rules.players)
    games: Games = []
    belief: list[Joint] = []
    for _ in range(guesses):
        drawn = rng.sample(rest, size * (rules.players - 1))
        hands = [mine] + [drawn[i * size : (i + 1) * size] for i in range(rules.players - 1)]
        weight = rng.choice((1.0, 2.0, 3.0))
        games.append((world(rules, dealer, hands, starter), weight))
        ranks = tuple(() if s == ME else tuple(sorted(c.rank for c in h)) for s, h in enumerate(hands))
        belief.append((ranks, weight))
    return games, belief, tuple(sorted(c.rank for c in mine))


def solver(rules: Rules) -> MultiResponse:
    sides = tuple(rules.side_of(s) for s in range(rules.players))
    return MultiResponse(
        rules.players, sides, ME, one_count=rules.one_count, opponent_weight=opponent_weight(rules)
    )


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
@pytest.mark.parametrize("seed", range(8))
def test_the_play_agrees_with_the_engine(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = get_rules(variant)
    games, belief, mine = random_position(rng, rules, guesses=rng.choice((1, 2, 3)))
    total = sum(w for _, w in games)
    first = games[0][0]
    worth = gain(rules)
    if first.to_act == ME:
        values = solver(rules).values(belief, mine)
        assert values  # the leader can always play
        for rank, value in values.items():
            card = next(c for c in first.hands[ME] if c.rank == rank)
            expected = engine_after(games, lambda state, card=card: [Play(ME, card)], None, worth) / total
            assert value == pytest.approx(expected)
    else:
        expected = engine_value(games, None, worth) / total
        assert solver(rules).value(belief, mine, first.to_act) == pytest.approx(expected)


def _untied(rng: random.Random, rest: list[Card], size: int) -> list[Card]:
    """A hand with at most one rank of ten-cards (two would tie for the points-taker, where
    the search takes the worse for the player and the response either, evenly)."""
    while True:
        hand = rng.sample(rest, size)
        if len({c.rank for c in hand if c.value == 10}) <= 1:
            return hand


@pytest.mark.parametrize("depth", [99, 7])
@pytest.mark.parametrize("seed", range(10))
def test_one_guess_is_the_search_of_that_world(seed: int, depth: int) -> None:
    """One guess, three players: the response is the perfect-information search of that world
    with points-taking others, to the same horizon."""
    rng = random.Random(50 + seed)
    cards = rng.sample(DECK, 4)
    rest = [c for c in DECK if c not in cards]
    one = _untied(rng, rest, 4)
    rest = [c for c in rest if c not in one]
    hands = (
        tuple(sorted(c.rank for c in cards)),
        tuple(sorted(c.rank for c in one)),
        tuple(sorted(c.rank for c in _untied(rng, rest, 4))),
    )
    search = PlaySearch(3, (0, 1, 2), 0, depth=depth, greedy_others=True, opponent_weight=0.5)
    response = MultiResponse(3, (0, 1, 2), 0, opponent_weight=0.5, depth=depth)
    belief: list[Joint] = [(((), hands[1], hands[2]), 1.0)]
    assert response.values(belief, hands[0]) == pytest.approx(search.card_values(hands, 0))
    for turn in (1, 2):
        assert response.value(belief, hands[0], turn) == pytest.approx(search.value(hands, turn))


def test_the_choice_is_one_card_for_guesses_it_cannot_tell_apart() -> None:
    """Three players; the player leads from a queen and a king; seat 2 holds a king, seat 1 a
    king or a jack and nothing tells which.  Against the king the queen is best (a king lead
    gives a pair and a pair royal: -3.5 against -0.5), against the jack the king (the queen lets
    seat 2 make Q J K: -1 against 0.5).  The value is the better single card for both (the queen,
    -0.75), not the average of each guess's best (0, what searching each guess as if it were
    known would promise)."""
    response = solver(get_rules("three-player"))
    mine = (12, 13)
    king: Joint = (((), (13,), (13,)), 1.0)
    jack: Joint = (((), (11,), (13,)), 1.0)
    assert response.values([king], mine) == {12: pytest.approx(-0.5), 13: pytest.approx(-3.5)}
    assert response.values([jack], mine) == {12: pytest.approx(-1.0), 13: pytest.approx(0.5)}
    assert response.values([king, jack], mine) == {12: pytest.approx(-0.75), 13: pytest.approx(-1.5)}


def test_a_later_choice_follows_what_was_seen() -> None:
    """Seat 1 leads a jack or a queen, seat 2 plays a king on it, then the player, holding a
    jack and a queen, completes the run with the other (3, then the go and the last card: 5;
    the same card as seat 1's scores 2).  It sees the lead before it chooses, so it wins 5 either
    way: one reply for both leads would win 5 or 2, 3.5 on average."""
    response = solver(get_rules("three-player"))
    jack: Joint = (((), (11,), (13,)), 1.0)
    queen: Joint = (((), (12,), (13,)), 1.0)
    assert response.value([jack], (11, 12), 1) == pytest.approx(5.0)
    assert response.value([queen], (11, 12), 1) == pytest.approx(5.0)
    assert response.value([jack, queen], (11, 12), 1) == pytest.approx(5.0)
    assert response.values([(((), (), ()), 1.0)], (11, 12), (11, 13)) == {11: 2.0, 12: 5.0}


def test_the_partners_points_are_the_sides() -> None:
    """Four players: the player's 5 makes 25 and seat 1 cannot play its ten.  If the partner
    (seat 2) holds the 6 it makes 31 (+2) and seat 1's ten is the last card (-1); if seat 1
    holds the 6 it makes 31 (-2) and the partner's ten is the last card (+1)."""
    response = solver(get_rules("four-player"))
    assert response.values([(((), (10,), (6,), ()), 1.0)], (5,), (10, 10)) == {5: pytest.approx(1.0)}
    assert response.values([(((), (6,), (10,), ()), 1.0)], (5,), (10, 10)) == {5: pytest.approx(-1.0)}


def test_goes_31_and_the_last_card_with_three_seats() -> None:
    """The player's 9 makes 29.  Seat 1 holds a 5 and cannot play.  If seat 2 holds a 2 it
    makes 31 (2 points, worth -1 to the player), and seat 1 leads its 5 as the last card (-0.5).
    If it holds a 3 it says go too: the go is the player's (+1), then seat 1 leads 5 and seat 2
    plays 3, the last card (-0.5).  In five-card rules the play ends at that 31 or go."""
    three = get_rules("three-player")
    two: Joint = (((), (5,), (2,)), 1.0)
    three_: Joint = (((), (5,), (3,)), 1.0)
    response = solver(three)
    assert response.values([two], (9,), (10, 10)) == {9: pytest.approx(-1.5)}
    assert response.values([three_], (9,), (10, 10)) == {9: pytest.approx(0.5)}
    assert response.values([two, three_], (9,), (10, 10)) == {9: pytest.approx(-0.5)}
    one_count = dataclasses.replace(three, one_count=True)
    assert solver(one_count).values([two, three_], (9,), (10, 10)) == {9: pytest.approx(0.0)}


def test_an_empty_belief_is_refused() -> None:
    with pytest.raises(ValueError, match="no possible hand"):
        solver(get_rules("three-player")).values([], (5,))


def test_worlds_with_the_same_ranks_are_merged_and_the_heaviest_kept() -> None:
    def hands(*texts: str) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(Card.parse(t) for t in text.split()) for text in texts)

    worlds = [
        (World(hands("5H", "TD KS", "2C 3C"), ()), 1.0),
        (World(hands("5H", "TS KD", "3D 2D"), ()), 2.0),
        (World(hands("5H", "9S KD", "3D 2D"), ()), 0.5),
        (World(hands("5H", "AS KD", "3D 2D"), ()), 0.25),
    ]
    assert joint_belief(worlds, 0, 2) == [(((), (10, 13), (2, 3)), 3.0), (((), (9, 13), (2, 3)), 0.5)]


def test_the_play_of_three_players_is_the_response() -> None:
    """Far from the end of the game, a three-player play is chosen by the response over the
    sampler's weighted worlds (the hint's values are its values), not by searching each world."""
    rules = get_rules("three-player")
    cards = [Card.parse(c) for c in ("5H", "6D", "7C", "KS", "TD", "9S", "8S", "2C", "3D", "4H", "JC", "QH")]
    state = world(rules, 2, [cards[0:4], cards[4:8], cards[8:12]], Card.parse("AS"))
    assert state.to_act == ME
    sit = PlaySituation.from_view(state.view(ME))
    options = play_options(sit, seed=3)
    sampler = WorldSampler(sit, random.Random(3), PlayFit(), candidates=CANDIDATES_MANY)
    belief = joint_belief(sampler.weighted(), ME, MAX_JOINT)
    expected = solver(rules).values(belief, (5, 6, 7, 13))
    assert {o.card.rank: o.value for o in options} == pytest.approx(expected)
