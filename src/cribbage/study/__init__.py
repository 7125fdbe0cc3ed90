"""Studying one's own play: the trainers' drills and a finished game's review, each choice
judged by the computer's own advice (the rankings of ``cribbage hint``, :mod:`cribbage.ai`).

:mod:`.drills` deals the discard and play drills from a seed and judges an answer to them;
:mod:`.review` judges every decision of a recorded game, hand by hand; :mod:`.review_text` tells
a review in plain English for the terminal.  Everything here is codes and numbers but that one
module of words: the interfaces (``cribbage train``, ``cribbage review``, the terminal game, the
web API's ``/api/train/...`` and ``/api/review``) only translate.
"""
