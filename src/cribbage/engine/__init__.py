"""The engine: the rules of cribbage and nothing else.

From the bottom up: :mod:`~cribbage.engine.cards` (cards, parsing, formatting),
:mod:`~cribbage.engine.scoring` (the show and the play, explained), :mod:`~cribbage.engine.rules`
(every variant as one rules object), then a game as a state machine with explicit chance steps,
typed events and each seat's view: :mod:`~cribbage.engine.actions` (the actions and their JSON),
:mod:`~cribbage.engine.events` (what happens, how a game ended), :mod:`~cribbage.engine.view`
(what a seat sees, the phases), :mod:`~cribbage.engine.checks` (an action checked before it is
applied), :mod:`~cribbage.engine.dealing`, :mod:`~cribbage.engine.pegging`,
:mod:`~cribbage.engine.show` and :mod:`~cribbage.engine.muggins` (the transitions of each phase),
:mod:`~cribbage.engine.points` (points pegged, the game's end) and
:mod:`~cribbage.engine.state` (:class:`~cribbage.engine.state.GameState`, which holds them
together).
:mod:`~cribbage.engine.record` keeps JSON game records; :mod:`~cribbage.engine.templates`
describes a seat's legal actions in a few JSON templates for clients.
:mod:`~cribbage.engine.stats` counts exact distributions of hands.  Nothing here knows of
players, processes or interfaces.
"""
