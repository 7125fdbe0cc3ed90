"""The engine's errors: a stable code per class, and the values an interface needs to word them.

An interface answers with ``code`` and ``values`` and never works out again what the engine knew
when it raised (which card was bad or given twice, where a count passed 31).
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cribbage.engine.actions import Play
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.errors import (
    CardError,
    CountError,
    CribbageError,
    IllegalActionError,
    MugginsError,
    RecordError,
    RulesError,
)
from cribbage.engine.scoring import score_play, score_show
from engine_fixtures import deal_game, play


def test_each_class_has_its_code() -> None:
    """The codes of the contract every interface words (CODES.md), each a class attribute."""
    codes = {
        CribbageError: "illegal",
        CardError: "illegal.card",
        RulesError: "illegal.rules",
        IllegalActionError: "illegal.action",
        CountError: "illegal.action",
        MugginsError: "illegal.muggins",
        RecordError: "bad_record",
    }
    assert {cls: cls.code for cls in codes} == codes
    assert CribbageError("anything").values == {} and RecordError("bad").code == "bad_record"


@pytest.mark.parametrize(
    ("cards", "size", "values"),
    [
        (["5H", "1X"], None, {"problem": "invalid", "card": "1X"}),
        (["5H", " 5h "], None, {"problem": "duplicate", "card": " 5h "}),
        ("5H 6D", (3, 4, 5), {"problem": "count", "count": 2, "allowed": [3, 4, 5]}),
        ("5H 6D 7C", 2, {"problem": "count", "count": 3, "allowed": [2]}),
        ([5], None, {"problem": "invalid", "card": "5"}),
    ],
)
def test_a_card_error_names_the_card_or_the_count(cards: Any, size: Any, values: dict[str, Any]) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(cards, size)
    error = raised.value
    assert error.values == values and error.problem == values["problem"]
    assert (error.card, error.count, list(error.allowed)) == (
        values.get("card"),
        values.get("count"),
        values.get("allowed", []),
    )


def test_the_show_names_the_starter_found_in_the_hand_and_a_wrong_number_of_cards() -> None:
    with pytest.raises(CardError, match="duplicate card '5H'") as raised:
        score_show(parse_cards("5C 5H JD 5S"), Card.parse("5h"))
    assert raised.value.values == {"problem": "duplicate", "card": "5H"}
    with pytest.raises(CardError) as raised:
        score_show(parse_cards("5C 5H"), Card.parse("JD"))
    assert raised.value.values == {"problem": "count", "count": 2, "allowed": [3, 4, 5]}


@pytest.mark.parametrize(
    ("cards", "card", "count"),
    [("KH KD KS QC", "QC", 40), ("9H 9D 9S 5C", "5C", 32), ("TH TD 5S 7C 4D", "7C", 32)],
)
def test_a_count_past_31_names_the_card_and_the_total_over_it(cards: str, card: str, count: int) -> None:
    with pytest.raises(CountError, match=f"makes {count}") as raised:
        score_play(cards)
    error = raised.value
    assert isinstance(error, IllegalActionError) and error.code == "illegal.action"
    assert (error.card, error.count, error.values) == (card, count, {"card": card, "count": count})


def test_a_card_played_past_31_in_a_game_names_the_count_it_would_make() -> None:
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("TH 5C", "2C 3C"))
    play(state, "9S", "KH", "7S")  # 26
    with pytest.raises(CountError, match="past 31") as raised:
        state.apply(Play(0, Card.parse("QH")))
    assert raised.value.values == {"card": "QH", "count": 36}


def test_an_error_keeps_its_values_through_pickling() -> None:
    """A bot match's worker process sends its errors back pickled."""
    errors: list[CribbageError] = [
        CountError("past 31", card="QC", count=40),
        CardError("duplicate card '5H'", problem="duplicate", card="5H"),
        MugginsError("no count to call muggins on"),
        CribbageError("anything", seat=3),
    ]
    for error in errors:
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
        assert copy.values == error.values and vars(copy) == vars(error)
