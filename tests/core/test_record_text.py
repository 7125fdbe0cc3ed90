"""The stored record's text, kept from one save to the next (:class:`RecordText`): at every step
of a game it is the record :meth:`Game.to_json` gives, however the saves fall."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.app.games.repository import RecordText
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules


def _step(game: Game, rng: random.Random) -> None:
    if game.state.is_chance:
        game.deal_chance()
    else:
        game.apply(rng.choice(game.state.legal_actions()))


@pytest.mark.parametrize(("variant", "seed"), [("standard", 3), ("five-card", 8), ("three-player", 11)])
def test_the_text_is_the_record_at_every_save(variant: str, seed: int) -> None:
    game = Game(get_rules(variant), seed=seed, names=("Ann", "Bob", "Chen")[: get_rules(variant).players])
    text, rng, saves = RecordText(), random.Random(seed), 0
    while not game.state.is_terminal:
        for _ in range(rng.choice((1, 1, 2, 5))):  # saves after one action or several
            if not game.state.is_terminal:
                _step(game, rng)
        encoded = text.encode(game)
        assert isinstance(encoded, str)
        assert json.loads(encoded) == game.to_json()
        saves += 1
    assert game.to_json()["result"] and saves > 20
    assert text.size == len(json.dumps(game.to_json()["actions"], separators=(",", ":"))) - 2


def test_another_game_object_starts_the_text_again() -> None:
    """A session rebuilt from its record holds a new game: none of the old text is kept."""
    rng = random.Random(5)
    first = Game(get_rules(), seed=5, names=("Ann", "Bob"))
    for _ in range(30):
        _step(first, rng)
    text = RecordText()
    text.encode(first)
    replayed = Game.from_json(first.to_json())
    replayed.names = ("Ann", "Boris")  # a seat taken by someone else
    _step(replayed, rng)
    assert json.loads(str(text.encode(replayed))) == replayed.to_json()
    for seed, steps in ((6, 1), (7, 60)):  # another game, shorter or longer than the text kept
        other = Game(get_rules(), seed=seed, names=("Ann", "Bob"))
        for _ in range(steps):
            _step(other, rng)
        assert json.loads(str(text.encode(other))) == other.to_json()


def test_a_record_orjson_cannot_write_is_given_as_its_value() -> None:
    seed = 2**80 + 1  # beyond 64 bits
    game = Game(get_rules(), seed=seed, names=("Ann", "Bob"))
    game.deal_chance()
    encoded: Any = RecordText().encode(game)
    assert encoded == game.to_json() and encoded["seed"] == seed
