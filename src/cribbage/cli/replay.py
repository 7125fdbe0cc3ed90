"""``cribbage replay FILE``: print a recorded game hand by hand."""

from __future__ import annotations

import argparse

from ..cards import format_cards
from ..game import Deal, GameState
from ..record import Game
from ..text import describe, seat_name

HELP = "print a recorded game (a JSON record) hand by hand"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record saved by cribbage (JSON)")


def run(args: argparse.Namespace) -> int:
    game = Game.load(args.file)  # checks the whole record before printing anything
    names = game.names or tuple(f"seat {i}" for i in range(game.rules.players))
    state = GameState(game.rules, dealer=game.first_dealer)
    print(
        f"Variant {game.rules.name}, to {game.rules.target}"
        + (f", seed {game.seed}" if game.seed is not None else "")
    )
    for action in game.actions:
        if isinstance(action, Deal):
            print()
            print(f"Hand {state.hand_number + 1} — scores " + ", ".join(str(s) for s in state.scores))
        events = state.apply(action)
        for event in events:
            line = describe(event, names)
            if line:
                print(line)
        if isinstance(action, Deal):
            for seat, hand in enumerate(action.hands):
                print(f"  {seat_name(seat, names)}: {format_cards(hand, pretty=True)}")
            if action.crib:
                print(f"  to the crib: {format_cards(action.crib, pretty=True)}")
    print()
    result = state.result
    if result is None:
        print("The game is not finished: scores " + ", ".join(str(s) for s in state.scores))
    else:
        print(
            "Final scores " + ", ".join(str(s) for s in result.scores) + f"; {result.game_points} game points"
        )
    return 0
