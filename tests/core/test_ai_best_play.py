"""`strong` plays the card the hint ranks first, found with less work.

:func:`cribbage.ai.pegging.best_play` skips the points search of the cards that are not among
the likeliest to win; these tests walk whole games and check, at every card `strong` chooses,
that it is :func:`~cribbage.ai.pegging.play_options`'s first card for the same seed and reading.
"""

from __future__ import annotations

import math
import random

import pytest

from cribbage.ai.pegging import best_play, play_options
from cribbage.ai.playmodel import PlayReader
from cribbage.engine.actions import Action, Play
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.engine.view import SeatView
from cribbage.players import Player, make_player
from cribbage.players.levels import StrongPlayer
from cribbage.table.table import Table


class Checked:
    """A `strong` seat whose every choice of card is also ranked by the full analysis."""

    def __init__(self, player: StrongPlayer) -> None:
        self.player = player
        self.kinds: dict[str, int] = {"points": 0, "one likeliest": 0, "tied": 0}

    def choose(self, view: SeatView) -> Action:
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        if len({c.rank for c in plays}) > 1:
            reading = self.player.reader.reading
            step = view.step
            options = play_options(view, seed=random.Random(step), reading=reading)
            assert best_play(view, seed=random.Random(step), reading=reading) == options[0].card
            if options[0].win is None:
                self.kinds["points"] += 1
            else:
                tied = sum(1 for o in options if round(o.win or 0.0, 9) == round(options[0].win, 9))
                self.kinds["one likeliest" if tied == 1 else "tied"] += 1
                assert all(math.isfinite(o.value) for o in options)  # the hint keeps every value
        return self.player.choose(view)

    def observe(self, view: SeatView) -> None:
        self.player.observe(view)


@pytest.mark.parametrize(
    ("variant", "logit", "game"), [("short", False, 3), ("short", True, 2), ("standard", True, 3)]
)
def test_strong_plays_the_hints_first_card(variant: str, logit: bool, game: int) -> None:
    """One game each (strong in seat ``game % 2``, in both seats over the three): every kind
    of decision below comes up in every one of these games."""
    rules = get_rules(variant)
    strong = make_player("strong", game)
    assert isinstance(strong, StrongPlayer)
    if logit:  # the learned logit, as against players who are not points-takers
        strong.reader = PlayReader(fit_score=-math.inf)
    checked = Checked(strong)
    players: list[Player] = [make_player("normal", game), make_player("normal", game)]
    players[game % 2] = checked
    Table(Game(rules, seed=game + 20, explain=False), players).run()
    kinds = checked.kinds
    # Both kinds of decision near the end were met: one card likeliest to win, and ties; in the
    # game to 121, choices by points alone too (a game to 61 may end in any hand).
    assert kinds["one likeliest"] > 0 and kinds["tied"] > 0, kinds
    assert (kinds["points"] > 0) == (rules.target > 61), kinds
