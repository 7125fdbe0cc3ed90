"""Action templates describe a seat's legal actions exactly, in a few small JSON objects."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cribbage.engine.actions import Action, Count, CutForDeal, Deal, Discard, Muggins, Pass, Play, Starter
from cribbage.engine.cards import DECK, Card, parse_cards
from cribbage.engine.errors import CribbageError, IllegalActionError
from cribbage.engine.rules import VARIANTS, Rules
from cribbage.engine.state import GameState
from cribbage.engine.templates import allows, choices, expand, templates

OPTIONS: tuple[dict[str, bool], ...] = (
    {},
    {"manual_count": True},
    {"manual_count": True, "muggins": True},
    {"manual_count": True, "muggins": True, "muggins_play": True},
)
ALL_RULES = [rules.replace(**opts) for rules in VARIANTS.values() for opts in OPTIONS]
MAX_STEPS = 3000
"""A random game stops after this many actions (a bound, never reached)."""


def sent(action: Action) -> dict[str, Any]:
    """The JSON a client sends for ``action``: its ``to_json`` without the seat."""
    data = action.to_json()
    del data["seat"]
    return data


def size(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def candidates(state: GameState, seat: int, rng: random.Random) -> list[Action]:
    """Actions of ``seat``, legal and not, near the edges of every template."""
    hand = state.hands[seat] if state.hands else []
    cards = hand + rng.sample(DECK, 4)
    out: list[Action] = [Play(seat, c, claim) for c in cards for claim in (None, 0, 60, 61, -1)]
    out += [Discard(seat, (a, b)) for a, b in zip(cards, reversed(cards), strict=True)]
    out += [Discard(seat, tuple(hand[:1])), Discard(seat, tuple(hand[:3]))]
    out += [Count(seat, p) for p in (-1, 0, 60, 61)]
    out += [Muggins(seat, p) for p in (0, 1, 60, 61)]
    return [*out, Pass(seat)]


def check_decision(state: GameState, seat: int, rng: random.Random, seen: Counter[str]) -> None:
    legal = state.legal_for(seat)
    made = templates(legal)
    assert set(expand(made, seat)) == set(legal)
    assert len(expand(made, seat)) == len(legal)
    if legal:  # a client sending the first choice sends what a player of the list would
        assert next(choices(made[0])) == sent(legal[0])
    assert size(made) < 1024
    assert len(made) <= 2  # one per type of action: play, discard, count, or muggins and pass
    for template in made:
        seen[template["type"] + ("+claim" if "claim" in template else "")] += 1
    for action in candidates(state, seat, rng):
        assert allows(made, sent(action)) == (bool(legal) and state.is_legal(action)), action


def play_randomly(rules: Rules, seed: int, seen: Counter[str]) -> None:
    """A random game, the templates of every seat checked at every decision."""
    rng = random.Random(seed)
    state = GameState(rules)
    for _ in range(MAX_STEPS):
        if state.is_terminal:
            return
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(rules.players):
            check_decision(state, seat, rng, seen)
        legal = state.legal_actions()
        action = rng.choice(legal)
        if isinstance(action, Muggins) and rng.random() < 0.7:
            action = legal[0]  # mostly pass, so that games go on
        state.apply(action)
    raise AssertionError("the game did not end")


def name(rules: Rules) -> str:
    return f"{rules.name}-{rules.manual_count}{rules.muggins}{rules.muggins_play}"


@pytest.mark.parametrize("rules", ALL_RULES, ids=name)
def test_the_templates_describe_exactly_the_legal_actions_in_every_variant(rules: Rules) -> None:
    seen: Counter[str] = Counter()
    for seed in range(2):
        play_randomly(rules, seed, seen)
    expected = {"discard", "play+claim" if rules.muggins_play else "play"}
    if rules.manual_count:
        expected.add("count")
    if rules.muggins:
        expected |= {"muggins", "pass"}
    assert set(seen) == expected


def manual_pegging() -> GameState:
    """A seat of a standard game with muggins in the play, to play its first card."""
    rules = VARIANTS["standard"].replace(manual_count=True, muggins=True, muggins_play=True)
    state, rng = GameState(rules, dealer=0), random.Random(5)
    while not (state.legal_actions() and isinstance(state.legal_actions()[0], Play)):
        state.apply(state.sample_chance(rng) if state.is_chance else state.legal_actions()[0])
    return state


def test_a_manual_pegging_decision_is_one_small_template() -> None:
    state = manual_pegging()
    legal = state.legal_actions()
    assert len(legal) == 4 * 61
    hand = sorted(state.hands[state.to_act], key=lambda c: c.index)
    assert templates(legal) == [
        {"type": "play", "cards": [str(c) for c in hand], "claim": {"min": 0, "max": 60}}
    ]
    assert size(templates(legal)) < 100 < size([a.to_json() for a in legal]) / 100


def test_the_show_and_muggins_templates_give_the_points_ranges() -> None:
    counts: list[Action] = [Count(1, p) for p in range(61)]
    assert templates(counts) == [{"type": "count", "points": {"min": 0, "max": 60}}]
    calls: list[Action] = [Pass(1), *(Muggins(1, p) for p in range(1, 61))]
    assert templates(calls) == [{"type": "pass"}, {"type": "muggins", "points": {"min": 1, "max": 60}}]
    assert templates([]) == []


def test_a_set_no_single_template_describes_is_split_exactly() -> None:
    five, jack, king, ace = parse_cards("5H JD KS AC")
    plays: list[Action] = [Play(0, five, claim) for claim in (0, 1, 3)]
    plays += [Play(0, jack, 0), Play(0, jack, None)]
    made = templates(plays)
    assert made == [
        {"type": "play", "cards": ["5H"], "claim": {"min": 0, "max": 1}},
        {"type": "play", "cards": ["5H"], "claim": {"min": 3, "max": 3}},
        {"type": "play", "cards": ["JD"]},
        {"type": "play", "cards": ["JD"], "claim": {"min": 0, "max": 0}},
    ]
    assert set(expand(made, 0)) == set(plays)
    discards: list[Action] = [Discard(0, (five, jack)), Discard(0, (king, ace))]  # not every pair of the four
    assert set(expand(templates(discards), 0)) == set(discards)
    assert len(templates(discards)) == 2
    assert templates([Count(0, 2), Count(0, 5), Count(0, 6)]) == [
        {"type": "count", "points": {"min": 2, "max": 2}},
        {"type": "count", "points": {"min": 5, "max": 6}},
    ]


def test_actions_of_a_type_or_card_apart_in_the_list_are_described_together() -> None:
    five, jack = parse_cards("5H JD")
    mixed: list[Action] = [Count(0, 1), Pass(0), Count(0, 2)]
    assert templates(mixed) == [{"type": "count", "points": {"min": 1, "max": 2}}, {"type": "pass"}]
    plays: list[Action] = [Play(0, five, 0), Play(0, jack, 0), Play(0, five, 1), Play(0, jack, 1)]
    assert templates(plays) == [{"type": "play", "cards": ["5H", "JD"], "claim": {"min": 0, "max": 1}}]


def test_chance_steps_and_several_seats_have_no_templates() -> None:
    card = Card.parse("5H")
    for chance in (CutForDeal((card,)), Deal(((card,),)), Starter(card)):
        with pytest.raises(IllegalActionError, match="chance"):
            templates([chance])
    with pytest.raises(IllegalActionError, match="one seat"):
        templates([Pass(0), Pass(1)])


def test_a_discard_is_allowed_in_any_order_of_its_cards_and_never_twice_one_card() -> None:
    made = [{"type": "discard", "cards": ["AC", "5H", "JD"], "count": 2}]
    assert allows(made, {"type": "discard", "cards": ["JD", "AC"]})
    assert not allows(made, {"type": "discard", "cards": ["JD", "JD"]})
    assert not allows(made, {"type": "discard", "cards": ["JD"]})
    assert not allows(made, {"type": "discard", "cards": "JD AC"})
    assert not allows(made, {"type": "play", "card": "JD"})


def test_claims_and_points_must_be_whole_numbers_in_range() -> None:
    made = [{"type": "play", "cards": ["5H"], "claim": {"min": 0, "max": 60}}]
    assert allows(made, {"type": "play", "card": "5H", "claim": 0})
    for claim in (None, True, 2.0, "2", 61):
        assert not allows(made, {"type": "play", "card": "5H", "claim": claim})
    assert not allows([{"type": "play", "cards": ["5H"]}], {"type": "play", "card": "5H", "claim": 0})
    assert not allows(
        [{"type": "muggins", "points": {"min": 1, "max": 60}}], {"type": "muggins", "points": 0}
    )


@pytest.mark.parametrize(
    "template",
    [
        {"type": "go"},
        {"type": "discard", "cards": ["5H"], "count": True},
        {"type": "play", "cards": "5H"},
        {"type": "play", "cards": ["5H"], "claim": {"min": 0}},
        {"type": "count", "points": {"min": "0", "max": 1}},
        {"type": "play", "cards": ["5X"]},
    ],
)
def test_a_malformed_template_does_not_expand(template: dict[str, Any]) -> None:
    with pytest.raises(CribbageError):
        expand([template], 0)


# --------------------------------------------------------------------------- the page's cases

PAGE_CASES = Path(__file__).parents[1] / "js" / "fixtures" / "templates.json"
"""The engine's templates at a decision of each kind, with the actions they allow and some they do
not, for the page's tests (tests/js/actions.test.js).  Rewrite it with
``PYTHONPATH=src python tests/core/test_templates.py`` after a change to the templates."""

DECISIONS: tuple[tuple[str, dict[str, bool], str], ...] = (
    ("standard", {}, "discard"),
    ("three-player", {}, "discard"),
    ("seven-card", {}, "discard"),
    ("standard", {}, "play"),
    ("standard", {"manual_count": True, "muggins": True, "muggins_play": True}, "play"),
    ("standard", {"manual_count": True}, "count"),
    ("four-player", {"manual_count": True, "muggins": True, "muggins_play": True}, "muggins"),
)


def decision_of(legal: list[Action]) -> str | None:
    if not legal:
        return None
    return "muggins" if isinstance(legal[0], (Muggins, Pass)) else legal[0].to_json()["type"]


def page_case(variant: str, options: dict[str, bool], wanted: str) -> dict[str, Any]:
    """The first decision of kind ``wanted`` in a seeded game of the variant."""
    rng = random.Random(11)
    state = GameState(VARIANTS[variant].replace(**options), dealer=0)
    for _ in range(MAX_STEPS):
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if decision_of(legal) == wanted:
            seat = state.to_act
            others = [a for a in candidates(state, seat, rng) if a not in legal]
            return {
                "name": f"{variant} {' '.join(options)} {wanted}".replace("  ", " "),
                "actions": templates(legal),
                "decision": wanted,
                "allowed": [sent(a) for a in legal] + [sent(a) for a in others if state.is_legal(a)],
                "refused": [sent(a) for a in others if not state.is_legal(a)],
            }
        state.apply(rng.choice(legal))
    raise AssertionError(f"no {wanted} decision came")


def page_cases() -> list[dict[str, Any]]:
    return [page_case(*decision) for decision in DECISIONS]


def test_the_pages_cases_are_the_engines_templates() -> None:
    assert json.loads(PAGE_CASES.read_text()) == page_cases()


if __name__ == "__main__":
    PAGE_CASES.parent.mkdir(parents=True, exist_ok=True)
    PAGE_CASES.write_text(json.dumps(page_cases(), separators=(",", ":")) + "\n")
