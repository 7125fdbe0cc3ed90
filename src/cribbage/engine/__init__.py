"""The engine: the rules of cribbage and nothing else.

From the bottom up: :mod:`~cribbage.engine.cards` (cards, parsing, formatting),
:mod:`~cribbage.engine.scoring` (the show and the play, explained), :mod:`~cribbage.engine.rules`
(every variant as one rules object), :mod:`~cribbage.engine.game` (a game as a state machine with
explicit chance steps, typed events and each seat's view) and :mod:`~cribbage.engine.record`
(JSON game records); :mod:`~cribbage.engine.templates` describes a seat's legal actions in a few
JSON templates for clients.  :mod:`~cribbage.engine.stats` counts exact distributions of hands.  Nothing
here knows of players, processes or interfaces.
"""
