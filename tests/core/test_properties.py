"""Random games of every variant, checking the engine's invariants at every step (like perft)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.engine.actions import Action, Count, Discard, Muggins, Pass, Play
from cribbage.engine.cards import DECK, Card
from cribbage.engine.errors import CribbageError
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS, Rules
from cribbage.engine.state import GameState
from cribbage.engine.view import CHANCE, Phase

OPTIONS = (
    {},
    {"manual_count": True, "muggins": True},
    {"manual_count": True, "muggins": True, "muggins_play": True},
    {"manual_count": True},
    {"manual_count": True, "muggins": True, "overcount_penalty": True},
)
ALL_RULES = [rules.replace(**opts) for rules in VARIANTS.values() for opts in OPTIONS]


def check_cards(state: GameState) -> None:
    """Every card is in exactly one place, and each seat's hand is its kept cards minus its plays."""
    if state.phase in (Phase.CUT, Phase.DEAL, Phase.OVER) or not state.dealt:
        return
    places: list[Card] = list(state.deck())
    for seat in range(state.players):
        places += state.dealt[seat]
        if state.phase is not Phase.DISCARD:
            played = [c for s, c in state.played if s == seat]
            assert sorted(state.hands[seat] + played) == sorted(state.kept[seat])
            assert len(state.kept[seat]) == state.rules.hand_size
    places += state.crib[: state.rules.crib_from_deck]
    assert sorted(places) == list(DECK)
    if state.phase in (Phase.PLAY, Phase.SHOW):
        assert len(state.crib) == state.rules.crib_size
    assert state.count == sum(c.value for c in state.sequence) <= 31


def candidate_actions(state: GameState, rng: random.Random) -> list[Action]:
    """Legal-looking and illegal actions for every seat, to compare with legal_actions()."""
    out: list[Action] = []
    for seat in range(state.players):
        hand = state.hands[seat] if state.hands else []
        out += [Play(seat, card) for card in rng.sample(DECK, 6) + hand]
        out += [Play(seat, card, 0) for card in hand]
        if len(hand) >= state.rules.discard:
            out += [Discard(seat, c) for c in list(combinations(sorted(hand), state.rules.discard))[:4]]
        out += [Count(seat, rng.randrange(-1, 45)), Muggins(seat, rng.randrange(0, 45)), Pass(seat)]
    return out


def run_random_game(rules: Rules, seed: int, check_illegal: bool = True) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    state = game.state
    scores = list(state.scores)
    for _ in range(5000):
        if state.is_terminal:
            break
        if state.is_chance:
            game.apply(state.sample_chance(game.rng))
        else:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            assert all(a.seat == state.to_act for a in legal)  # type: ignore[union-attr]
            assert state.legal_for(state.to_act) == legal
            # Any opponent entitled to the open muggins decision may also act, the later ones
            # before their turn, and so may every seat still to discard; nobody else may.
            others = [a for s in range(rules.players) if s != state.to_act for a in state.legal_for(s)]
            calls = [a for a in others if isinstance(a, (Muggins, Pass))]
            early = [a for a in others if isinstance(a, Discard)]
            assert len(calls) + len(early) == len(others)
            assert bool(calls) == (state.pending is not None and len(state.pending.callers) > 1)
            discarding = state.phase is Phase.DISCARD
            owing = {s for s in range(rules.players) if discarding and not state.discards[s]}
            assert {a.seat for a in early} == owing - {state.to_act}
            if check_illegal:
                legal_set = set(legal) | set(others)
                for candidate in candidate_actions(state, rng):
                    before = state.clone()
                    accepted = state.is_legal(candidate)
                    assert accepted == (candidate in legal_set), candidate
                    if not accepted:
                        with pytest.raises(CribbageError):
                            state.apply(candidate)
                        assert state == before
            action = rng.choice(legal)
            if others and rng.random() < 0.3:  # a later opponent calls or passes first
                action = rng.choice(others)
            elif isinstance(action, (Count, Muggins)) and rng.random() < 0.7:
                action = legal[0] if isinstance(action, Muggins) else action  # mostly pass
            game.apply(action)
        assert state.to_act != CHANCE or state.is_chance
        check_cards(state)
        assert all(new >= old for new, old in zip(state.scores, scores, strict=True))
        scores = list(state.scores)
    assert state.is_terminal, "the game did not end"
    assert state.result is not None
    assert state.scores[state.result.winner if not rules.lowball else state.result.loser] >= rules.target
    return game


@pytest.mark.parametrize(
    "rules", ALL_RULES, ids=lambda r: f"{r.name}-{r.manual_count}{r.muggins}{r.muggins_play}"
)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(rules: Rules, seed: int) -> None:
    game = run_random_game(rules, seed, check_illegal=seed % 2 == 0)
    replayed = Game.from_json(game.to_json())
    assert replayed.state == game.state  # a record replays to the same final state


@pytest.mark.parametrize("name", list(VARIANTS))
def test_many_quick_random_games(name: str) -> None:
    for seed in range(15):
        run_random_game(VARIANTS[name], seed, check_illegal=False)


def test_a_seeded_game_ignores_the_global_random_module() -> None:
    def record(disturb: bool) -> dict[str, object]:
        game = Game(VARIANTS["standard"], seed=42)
        players = random.Random(1)
        while not game.state.is_terminal:
            if disturb:
                random.random()
                random.shuffle(list(range(10)))
            if game.state.is_chance:
                game.deal_chance()
            else:
                game.apply(players.choice(game.state.legal_actions()))
        return game.to_json()

    random.seed(1)
    first = record(False)
    random.seed(2)
    assert record(True) == first
