"""``cribbage replay FILE``: print a recorded game hand by hand."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import replace

from ..engine.actions import Deal, Discard
from ..engine.cards import format_cards
from ..engine.events import Kind
from ..engine.record import Game
from ..engine.state import GameState
from ..text import event_text, seat_name
from . import file_name

HELP = "print a recorded game (a JSON record) hand by hand"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_name, help="a game record saved by cribbage (JSON)")


def run(args: argparse.Namespace) -> int:
    print_game(Game.load(args.file))  # the whole record is checked before anything is printed
    return 0


def print_game(game: Game, before_hand: Callable[[int], bool] | None = None) -> None:
    """Print a game's record hand by hand, with every hand dealt, every discard, every play and
    every show.

    ``before_hand`` is called with the number of each hand after the first before it is
    printed (to pace a demo); when it returns False, the rest is printed without it.
    """
    names = game.names or tuple(f"seat {i}" for i in range(game.rules.players))
    state = GameState(game.rules, dealer=game.first_dealer)
    seed = "" if game.seed is None else f", seed {game.seed}"
    print(f"Variant {game.rules.name}, to {game.rules.target}{seed}")
    for action in game.actions:
        if isinstance(action, Deal):
            if before_hand is not None and state.hand_number > 0 and not before_hand(state.hand_number + 1):
                before_hand = None
            print()
            print(f"Hand {state.hand_number + 1} — scores " + ", ".join(str(s) for s in state.scores))
        for event in state.apply(action):
            line = event_text(event, names)
            if isinstance(action, Discard) and event.kind is Kind.DISCARD:  # the record shows them
                line = event_text(replace(event, cards=action.cards), names)
            if line:
                print(line)
        if isinstance(action, Deal):
            for seat, hand in enumerate(action.hands):
                print(f"  {seat_name(seat, names)}: {format_cards(hand, pretty=True)}")
            if action.crib:
                print(f"  to the crib: {format_cards(action.crib, pretty=True)}")
    print()
    result = state.result
    scores = ", ".join(str(s) for s in state.scores)
    if result is None:
        print(f"The game is not finished: scores {scores}")
    else:
        print(f"Final scores {scores}; {result.game_points} game points")
