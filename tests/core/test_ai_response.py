"""The best response in the play agrees with a search through the game engine itself.

The engine plays each guess at the opponent's hand as a separate game; the player's choice must
be the same in every game it cannot tell apart (the same cards seen so far), and the modelled
opponent plays the card that scores most now.  That search knows nothing of
:mod:`cribbage.ai.response`, so agreeing with it on random positions checks the recursion, the
splitting of the belief, goes, the last card, 31, the race and the show order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from cribbage.ai.belief import opponent_belief
from cribbage.ai.playmodel import PlayModel
from cribbage.ai.response import BestResponse, Particle, Race, greedy_ranks
from cribbage.ai.situation import PlaySituation
from cribbage.engine.actions import Deal, Discard, Play, Starter
from cribbage.engine.cards import DECK, Card
from cribbage.engine.rules import Rules, get_rules
from cribbage.engine.scoring import hand_points
from cribbage.engine.state import GameState
from cribbage.engine.view import Phase

ME = 0
After = Callable[[int, int], float]


def world(
    rules: Rules, dealer: int, mine: list[Card], theirs: list[Card], starter: Card, scores: tuple[int, int]
) -> GameState:
    """A game at the start of the play with these kept hands (the throws are other cards)."""
    used = {*mine, *theirs, starter}
    spare = [c for c in DECK if c not in used]
    throws = (spare[: rules.discard], spare[rules.discard : 2 * rules.discard])
    state = GameState(rules, dealer=dealer, explain=False)
    state.scores = list(scores)
    state.previous_scores = list(scores)
    hands = [tuple(mine + throws[0]), tuple(theirs + throws[1])]
    state.apply(Deal((hands[0], hands[1])))
    for i in (1, 2):
        seat = (dealer + i) % 2
        state.apply(Discard(seat, tuple(throws[seat])))
    state.apply(Starter(starter))
    return state


def signature(state: GameState) -> tuple[object, ...]:
    """What seat ME can see of a game in the play (its own cards being the same in every game)."""
    return (state.phase, state.to_act, tuple((s, c.rank) for s, c in state.played), state.count)


def greedy_plays(state: GameState) -> list[Play]:
    """The opponent's plays by the model: one card of each tied best rank."""
    hand = tuple(sorted(c.rank for c in state.hands[state.to_act]))
    ranks = greedy_ranks(hand, tuple(c.rank for c in state.sequence), state.count)
    plays = []
    for rank in ranks:
        card = min(c for c in state.hands[state.to_act] if c.rank == rank)
        plays.append(Play(state.to_act, card))
    return plays


def opposed(seat: int) -> float:
    """What a point of ``seat`` is worth to ME with two players."""
    return 1.0 if seat == ME else -1.0


def engine_value(
    games: list[tuple[GameState, float]], race: After | None, worth: Callable[[int], float] = opposed
) -> float:
    """The weighted total value for ME of games it cannot tell apart (points, or wins; a point
    of each seat counted at ``worth``)."""
    first = games[0][0]
    if first.phase is not Phase.PLAY:
        if race is None:
            return 0.0
        total = 0.0
        for state, weight in games:
            if state.is_terminal:
                assert state.result is not None
                total += weight * (state.result.winner == ME)
            else:
                total += weight * race(state.scores[ME], state.scores[1 - ME])
        return total
    if first.to_act == ME:
        cards = sorted({a.card.rank: a.card for a in first.legal_actions() if isinstance(a, Play)}.items())
        return max(
            engine_after(games, lambda state, card=card: [Play(ME, card)], race, worth) for _, card in cards
        )
    return engine_after(games, greedy_plays, race, worth)


def engine_after(
    games: list[tuple[GameState, float]],
    plays: Callable[[GameState], list[Play]],
    race: After | None,
    worth: Callable[[int], float] = opposed,
) -> float:
    groups: dict[tuple[object, ...], list[tuple[GameState, float]]] = {}
    total = 0.0
    for state, weight in games:
        options = plays(state)
        for action in options:
            child = state.clone()
            events = child.apply(action)
            share = weight / len(options)
            if race is None:
                total += share * sum(e.points * worth(e.seat) for e in events if e.kind == "score")
            groups.setdefault(signature(child), []).append((child, share))
    return total + sum(engine_value(group, race, worth) for group in groups.values())


def random_position(
    rng: random.Random, rules: Rules, guesses: int, scores: tuple[int, int] = (0, 0)
) -> tuple[list[tuple[GameState, float]], list[Particle], tuple[int, ...], Card]:
    size = rules.hand_size
    cards = rng.sample(DECK, size + 1)
    mine, starter = cards[:size], cards[size]
    rest = [c for c in DECK if c not in cards]
    dealer = rng.randrange(2)
    games, belief = [], []
    for _ in range(guesses):
        theirs = rng.sample(rest, size)
        weight = rng.choice((1.0, 2.0, 3.0))
        games.append((world(rules, dealer, mine, theirs, starter, scores), weight))
        show = hand_points(theirs, starter)
        state = games[-1][0]
        crib = hand_points(state.crib, starter, crib=True)
        belief.append(Particle(tuple(sorted(c.rank for c in theirs)), weight, show, crib))
    return games, belief, tuple(sorted(c.rank for c in mine)), starter


@pytest.mark.parametrize("variant", ["standard", "five-card"])
@pytest.mark.parametrize("seed", range(12))
def test_points_agree_with_the_engine(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = get_rules(variant)
    games, belief, mine, _ = random_position(rng, rules, guesses=rng.choice((1, 2, 4)))
    solver = BestResponse(one_count=rules.one_count)
    total = sum(w for _, w in games)
    if games[0][0].to_act == ME:
        values = solver.values(belief, mine)
        for rank, value in values.items():
            card = next(c for c in games[0][0].hands[ME] if c.rank == rank)
            expected = engine_after(games, lambda state, card=card: [Play(ME, card)], None) / total
            assert value == pytest.approx(expected)
    else:
        assert solver.lead_value(belief, mine) == pytest.approx(engine_value(games, None) / total)


@pytest.mark.parametrize("seed", range(12))
def test_races_agree_with_the_engine(seed: int) -> None:
    rng = random.Random(100 + seed)
    rules = get_rules("short")
    scores = (rng.randrange(40, 60), rng.randrange(40, 60))
    games, belief, mine, starter = random_position(rng, rules, guesses=rng.choice((1, 3)), scores=scores)
    first = games[0][0]

    def after(a: int, b: int) -> float:
        return 0.5 + (a - b) / 100

    mine_now, theirs_now = first.scores[ME], first.scores[1 - ME]  # his heels pegged
    show = hand_points(first.kept[ME], starter)
    race = Race(mine_now, theirs_now, rules.target, first.dealer == ME, show, after)
    solver = BestResponse(race=race)
    total = sum(w for _, w in games)
    if first.to_act == ME:
        for rank, value in solver.values(belief, mine).items():
            card = next(c for c in first.hands[ME] if c.rank == rank)
            expected = engine_after(games, lambda state, card=card: [Play(ME, card)], after) / total
            assert value == pytest.approx(expected)
    else:
        assert solver.lead_value(belief, mine) == pytest.approx(engine_value(games, after) / total)


def test_a_pegout_is_a_win_whatever_the_opponent_holds() -> None:
    race = Race(119, 100, 121, dealer=False, show=0, after=lambda a, b: 0.5)
    belief = [Particle((1, 2), 1.0), Particle((13, 13), 1.0)]
    values = BestResponse(race=race).values(belief, mine=(5, 9), seq=(10,))
    assert values[5] == 1.0  # fifteen for two reaches 121 at once
    assert values[9] < 1.0


def test_an_empty_belief_is_refused() -> None:
    with pytest.raises(ValueError, match="no possible hand"):
        BestResponse().values([], mine=(5,))


def test_the_belief_follows_the_play() -> None:
    """The dealer said go at 29: from the pone's view it holds no ace or two."""
    rules = get_rules()
    mine = [Card.parse(c) for c in ("KH", "9H", "AD", "2D")]
    theirs = [Card.parse(c) for c in ("TS", "JS", "9C", "8C")]
    state = world(rules, 1, mine, theirs, Card.parse("3C"), (0, 0))
    for card in ("KH", "TS", "9H"):  # 10, 20, 29: the dealer cannot play
        state.apply(Play(state.to_act, Card.parse(card)))
    assert state.to_act == ME and state.count == 29
    sit = PlaySituation.from_view(state.view(ME))
    belief = opponent_belief(sit, random.Random(3))
    assert sum(p.weight for p in belief) == pytest.approx(1.0)
    assert all(len(p.hand) == 3 for p in belief)
    assert all(min(p.hand) > 2 for p in belief)
    # Before the go nothing rules them out.
    state = world(rules, 1, mine, theirs, Card.parse("3C"), (0, 0))
    belief = opponent_belief(PlaySituation.from_view(state.view(ME)), random.Random(3))
    assert any(min(p.hand) <= 2 for p in belief)


def test_the_belief_reads_the_opponents_choice_of_card() -> None:
    """The pone led a ten: the model leads a card under 5 when it has one (a lead scores
    nothing, so only the model's choice of card tells this), so it is unlikely to hold one."""
    rules = get_rules()
    mine = [Card.parse(c) for c in ("KH", "9H", "7D", "8D")]
    theirs = [Card.parse(c) for c in ("TS", "JS", "QC", "KS")]
    state = world(rules, ME, mine, theirs, Card.parse("6C"), (0, 0))
    before = opponent_belief(PlaySituation.from_view(state.view(ME)), random.Random(5))
    state.apply(Play(1, Card.parse("TS")))
    after = opponent_belief(PlaySituation.from_view(state.view(ME)), random.Random(5))

    def low(belief: list[Particle]) -> float:
        return sum(p.weight for p in belief if min(p.hand) < 5)

    # Of the hands it may hold, two in three have a card under 5.
    assert low(before) > 0.6
    assert low(after) < 0.3


def test_shows_in_the_belief_are_the_opponents_and_the_cribs() -> None:
    rules = get_rules()
    mine = [Card.parse(c) for c in ("5H", "5D", "JH", "QD")]
    state = world(rules, 1, mine, [Card.parse(c) for c in ("2S", "3S", "4S", "6S")], Card.parse("5S"), (0, 0))
    sit = PlaySituation.from_view(state.view(ME))
    belief = opponent_belief(sit, random.Random(4), shows=True)
    assert all(0 <= p.show <= 29 and 0 <= p.crib <= 29 for p in belief)
    assert len({p.show for p in belief}) > 3
    with pytest.raises(ValueError, match="starter"):
        opponent_belief(PlaySituation.typed(mine, ()), random.Random(4), shows=True)


def test_with_a_model_the_solver_answers_the_opponents_likely_cards() -> None:
    """Led a ten into (5, 9): the five makes 15 (then the nine takes the last card), the nine
    first gives only the last card.  A model that cares little for points plays the five with
    chance e/(1+e); the solver's value is the mix, where the exact points-taker always takes 15."""
    belief = [Particle((5, 9), 0.01)] * 100
    careless = PlayModel((0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    five = math.e / (1 + math.e)
    mixed = BestResponse(model=careless).values(belief, mine=(10,))[10]
    assert mixed == pytest.approx(-(3 * five + 1 * (1 - five)), abs=0.03)
    assert BestResponse().values(belief, mine=(10,))[10] == pytest.approx(-3)
