"""The rules' facts and the show order: defined once (engine.rules), sent in every view's JSON."""

from __future__ import annotations

import pytest

from cribbage.engine.actions import Count
from cribbage.engine.errors import RulesError
from cribbage.engine.rules import VARIANTS, get_rules
from cribbage.engine.state import GameState
from engine_fixtures import deal_game, play


def order(rules_name: str, dealer: int) -> list[tuple[int, str]]:
    return list(get_rules(rules_name).show_order(dealer))


def test_show_order_for_two_three_and_four_players() -> None:
    assert order("standard", 0) == [(1, "hand"), (0, "hand"), (0, "crib")]
    assert order("standard", 1) == [(0, "hand"), (1, "hand"), (1, "crib")]
    assert order("three-player", 1) == [(2, "hand"), (0, "hand"), (1, "hand"), (1, "crib")]
    assert order("four-player", 3) == [(0, "hand"), (1, "hand"), (2, "hand"), (3, "hand"), (3, "crib")]
    with pytest.raises(RulesError):
        get_rules("standard").show_order(2)


def test_the_game_counts_in_the_rules_order() -> None:
    for name in ("standard", "three-player", "four-player"):
        rules = get_rules(name)
        for dealer in range(rules.players):
            assert GameState(rules, dealer=dealer).show_order() == order(name, dealer)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "standard",
            {"players": 2, "deal": 6, "discard": 2, "kept": 4, "crib_size": 4, "crib_from_deck": 0}
            | {"target": 121, "skunk_line": 91, "double_skunk_line": 61, "sides": 2, "seat_sides": [0, 1]}
            | {"partnerships": False, "lowball": False, "manual_count": False, "muggins": False},
        ),
        (
            "short",
            {"players": 2, "deal": 6, "kept": 4, "target": 61, "skunk_line": 31, "double_skunk_line": None},
        ),
        (
            "five-card",
            {"deal": 5, "discard": 2, "kept": 3, "crib_size": 4, "target": 61, "one_count": True}
            | {"first_hand_bonus": 3, "double_skunk_line": None},
        ),
        ("seven-card", {"deal": 7, "kept": 5, "crib_size": 4, "target": 151, "skunk_line": 121}),
        (
            "three-player",
            {"players": 3, "deal": 5, "discard": 1, "kept": 4, "crib_from_deck": 1, "crib_size": 4}
            | {"sides": 3, "seat_sides": [0, 1, 2]},
        ),
        (
            "four-player",
            {"players": 4, "deal": 5, "discard": 1, "kept": 4, "crib_size": 4, "partnerships": True}
            | {"sides": 2, "seat_sides": [0, 1, 0, 1]},
        ),
        ("crib-deal", {"deal": 5, "discard": 1, "kept": 4, "crib_from_deck": 2, "crib_size": 4}),
        ("lowball", {"lowball": True, "target": 121}),
    ],
)
def test_facts_of_each_variant(name: str, expected: dict[str, object]) -> None:
    facts = get_rules(name).facts()
    assert facts["name"] == name
    assert {key: facts[key] for key in expected} == expected
    # Every rule option is there too, as in the record's rules.
    assert facts.items() >= get_rules(name).to_json().items()


def test_facts_follow_the_options() -> None:
    facts = get_rules("standard", target=61, manual_count=True, muggins=True, muggins_play=True).facts()
    assert (facts["target"], facts["skunk_line"], facts["double_skunk_line"]) == (61, 31, None)
    assert facts["manual_count"] and facts["muggins"] and facts["muggins_play"]


def test_every_variant_has_facts() -> None:
    for name, rules in VARIANTS.items():
        facts = rules.facts()
        assert facts["crib_size"] == rules.players * rules.discard + rules.crib_from_deck
        assert facts["kept"] == rules.deal - rules.discard and facts["name"] == name


def test_the_view_carries_the_facts_and_the_show_order() -> None:
    rules = get_rules("three-player")
    before = GameState(rules).view(0).to_json()
    assert before["rules"] == rules.facts() and before["show_order"] == []
    state = deal_game(
        ("5H 5C 6D JS QH", "4D 6S 7C 8H QS", "2C 3C 4C 9C KC"),
        "7D",
        ("QH", "QS", "KC"),
        rules,
        dealer=2,
        crib_from_deck="AH",
    )
    view = state.view(1).to_json()
    assert view["rules"] == rules.facts()
    assert view["show_order"] == [
        {"seat": 0, "what": "hand"},
        {"seat": 1, "what": "hand"},
        {"seat": 2, "what": "hand"},
        {"seat": 2, "what": "crib"},
    ]


def test_the_view_of_a_partnership_and_of_two_players() -> None:
    four = deal_game(
        ("5H 5C 6D JS QH", "4D 6S 7C 8H QS", "2C 3C 4C 9C KC", "AD 2D 3D 9D KD"),
        "7D",
        ("QH", "QS", "KC", "KD"),
        get_rules("four-player"),
        dealer=1,
    )
    view = four.view(0).to_json()
    assert view["rules"]["partnerships"] is True and view["rules"]["sides"] == 2
    assert [(e["seat"], e["what"]) for e in view["show_order"]] == [
        (2, "hand"),
        (3, "hand"),
        (0, "hand"),
        (1, "hand"),
        (1, "crib"),
    ]
    two = deal_game(("7C 8D JS QH AC 2C", "7S 5H 3D KD 4C 4S"), "6S", ("AC 2C", "4C 4S"))
    view = two.view(1).to_json()
    assert view["rules"]["crib_size"] == 4 and view["rules"]["double_skunk_line"] == 61
    assert [(e["seat"], e["what"]) for e in view["show_order"]] == [(1, "hand"), (0, "hand"), (0, "crib")]


def test_the_show_is_counted_in_the_views_order() -> None:
    rules = get_rules("standard", manual_count=True)
    state = deal_game(("7C 8D JS QH AC 2C", "7S 5H 3D KD 4C 4S"), "6S", ("AC 2C", "4C 4S"), rules)
    play(state, "3D", "7C", "5H", "8D", "7S", "JS", "KD", "QH")
    expected = state.view(0).to_json()["show_order"]
    counted = []
    while state.phase.value == "show":
        seat = state.to_act
        counted.append({"seat": seat, "what": "crib" if len(counted) == rules.players else "hand"})
        state.apply(Count(seat, 0))
        if state.phase.value == "show":
            shown = state.view(0).to_json()["shown"]
            assert [{"seat": s["seat"], "what": s["what"]} for s in shown] == counted
    assert counted == expected
