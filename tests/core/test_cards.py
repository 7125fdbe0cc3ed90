"""Cards: parsing every notation, formatting, interning, immutability and precise errors."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribbage.engine.cards import DECK, RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, Card, format_cards, parse_cards
from cribbage.engine.errors import CardError, CribbageError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("5H", 5, 2),
        ("5h", 5, 2),
        ("10H", 10, 2),
        ("10h", 10, 2),
        ("TH", 10, 2),
        ("th", 10, 2),
        ("5♥", 5, 2),
        ("5♡", 5, 2),
        ("JD", 11, 1),
        ("AC", 1, 0),
        ("a♣", 1, 0),
        ("KS", 13, 3),
        ("Q♠", 12, 3),
        ("10♦", 10, 1),
        (" 7c ", 7, 0),
    ],
)
def test_parse_accepts_every_notation(text: str, rank: int, suit: int) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card(rank, suit)


def test_parse_cards_accepts_spaces_commas_and_mixed_tokens() -> None:
    expected = (Card(5, 2), Card(10, 1), Card(11, 0), Card(1, 3))
    assert parse_cards("5H 10D JC AS") == expected
    assert parse_cards("5h,10d, jc ,as") == expected
    assert parse_cards("  5♥  T♦;J♣  A♠ ") == expected
    assert parse_cards(["5H", Card(10, 1), "jc", "A♠"]) == expected
    assert parse_cards("") == ()


@pytest.mark.parametrize("card", DECK, ids=str)
def test_round_trip_of_every_card(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.from_index(card.index) is card
    assert eval(repr(card)) is card


def test_deck_has_52_distinct_cards_in_index_order() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert [c.index for c in DECK] == list(range(52))
    assert sorted(DECK, reverse=True) == list(reversed(DECK))
    assert {str(c) for c in DECK} == {r + s for r in RANK_CHARS for s in SUIT_CHARS}


def test_card_values_count_faces_as_ten() -> None:
    assert [Card(rank, 0).value for rank in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_pretty_and_name() -> None:
    assert Card.parse("TD").pretty == "10♦"
    assert Card.parse("QS").pretty == "Q♠"
    assert Card.parse("5h").name == "five of hearts"
    assert format_cards(parse_cards("5h 10d"), pretty=True) == "5♥ 10♦"
    assert format_cards(parse_cards("5h 10d")) == "5H TD"
    assert [Card(1, s).symbol for s in range(4)] == list(SUIT_SYMBOLS)


def test_cards_are_interned() -> None:
    assert Card.parse("5h") is Card(5, 2)
    assert Card.parse("5♥") is Card.parse("5H") is DECK[18]


@pytest.mark.parametrize("card", [DECK[0], Card.parse("5H"), DECK[51]], ids=str)
def test_pickle_and_copy_keep_identity(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert copy.deepcopy([card, card])[0] is card


def test_cards_are_immutable() -> None:
    card = Card.parse("5H")
    with pytest.raises(AttributeError):
        card.rank = 6
    with pytest.raises(AttributeError):
        del card.suit
    with pytest.raises(AttributeError):
        card.colour = "red"
    assert (card.rank, card.suit) == (5, 2)


def test_cards_hash_and_sort_by_index() -> None:
    assert {Card.parse("5H"): 1}[Card.parse("5h")] == 1
    assert sorted(parse_cards("KS 5H AC 5C")) == list(parse_cards("AC 5C 5H KS"))
    assert Card.parse("AC") < Card.parse("AD") < Card.parse("2C")


@pytest.mark.parametrize("token", ["1X", "11H", "1H", "0S", "5X", "5", "H", "XH", "5HH", "10", "", "  "])
def test_invalid_card_names_the_token(token: str) -> None:
    with pytest.raises(CardError, match=f"invalid card {token!r}"):
        Card.parse(token)


def test_parse_cards_names_the_first_bad_token() -> None:
    with pytest.raises(CardError, match="invalid card '11H'"):
        parse_cards("5H 11H 1X")
    with pytest.raises(CardError, match="invalid card '1X'"):
        parse_cards("5H, 1X")


def test_duplicate_card_is_named() -> None:
    with pytest.raises(CardError, match="duplicate card '5h'"):
        parse_cards("5H 6D 5h")
    with pytest.raises(CardError, match="duplicate card '5♥'"):
        parse_cards(["5H", "5♥"])


def test_wrong_number_of_cards_is_reported() -> None:
    with pytest.raises(CardError, match="expected 4 cards, got 3: '5H 6D 7C'"):
        parse_cards("5H 6D 7C", size=4)
    with pytest.raises(CardError, match="expected 3 or 4 or 5 cards, got 0"):
        parse_cards("", size=(3, 4, 5))
    assert len(parse_cards("5H 6D 7C", size=(3, 4))) == 3


def test_bad_constructor_arguments() -> None:
    for rank, suit in [(0, 0), (14, 0), (5, 4), (5, -1)]:
        with pytest.raises(CardError):
            Card(rank, suit)
    with pytest.raises(CardError, match="card index must be 0 to 51"):
        Card.from_index(52)
    with pytest.raises(CardError, match="a card must be text"):
        parse_cards([5])  # type: ignore[list-item]


def test_card_errors_are_value_errors() -> None:
    assert issubclass(CardError, CribbageError)
    assert issubclass(CardError, ValueError)


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=52))
def test_format_and_parse_round_trip_any_list(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, pretty=True)) == tuple(cards)
    assert parse_cards(", ".join(str(c).lower() for c in cards)) == tuple(cards)
