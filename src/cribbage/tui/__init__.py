"""Cribbage in the terminal: ``cribbage play``, a game against the computer.

The layers: :mod:`~cribbage.tui.look` draws cards, scores and the board (colour and suit
symbols, or plain ASCII); :mod:`~cribbage.tui.narrate` tells the engine's events in words;
:mod:`~cribbage.tui.parse` reads what the player types; :mod:`~cribbage.tui.hints` asks the
computer for advice; :mod:`~cribbage.tui.session` runs the game.  None of them knows a rule:
the engine (:mod:`cribbage.engine`) decides what is legal and what scores.
"""

from .session import Terminal, TerminalGame, TerminalOptions, play, prepare

__all__ = ["Terminal", "TerminalGame", "TerminalOptions", "play", "prepare"]
