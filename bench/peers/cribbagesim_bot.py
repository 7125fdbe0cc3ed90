"""PyPI's ``CribbageSim`` computer player (its Hoyle-like strategy) as an external bot.

Runs in the benchmark's own virtual environment (made by ``bench/bench_match.py``) and speaks
the JSON-lines protocol of docs/protocol.md.  CribbageSim's strategies act through callbacks:
``form_crib(xfer_to_crib, get_hand)`` moves two cards by index from the hand to the crib (the
dealer's strategy maximises hand + crib points, the pone's hand - crib), and ``follow(count,
play_card, get_hand, get_play_pile)`` plays one card by index, leading when the pile (the cards
of the current count) is empty.  CribbageSim plays out a "go" with the same card ratings as a
follow, so ``follow`` serves for every card.  Other requests get the first legal option.
"""

import json
import sys

from CribbageSim.CribbagePlayStrategy import (
    HoyleishDealerCribbagePlayStrategy,
    HoyleishPlayerCribbagePlayStrategy,
)
from HandsDecksCards.card import Card

DEALER = HoyleishDealerCribbagePlayStrategy()
PONE = HoyleishPlayerCribbagePlayStrategy()


def theirs(card: str) -> Card:
    return Card(card[-1], "10" if card[0] == "T" else card[0])


def ours(card: Card) -> str:
    return ("T" if card.pips == "10" else card.pips) + card.suit


def answer(request: dict) -> dict:
    view = request["view"]
    strategy = DEALER if view["dealer"] == view["seat"] else PONE
    hand = [theirs(c) for c in view["hand"]]
    chosen: list[Card] = []
    if request["type"] == "discard" and len(hand) == 6:
        strategy.form_crib(lambda i: chosen.append(hand.pop(i)), lambda: list(hand))
        return {"discard": [ours(c) for c in chosen]}
    if request["type"] == "play" and not view["rules"]["muggins_play"]:
        pile = [theirs(c) for c in view["sequence"]]
        strategy.follow(view["count"], lambda i: chosen.append(hand.pop(i)), lambda: list(hand), lambda: pile)
        if chosen:
            return {"play": ours(chosen[0])}
    return request["legal"][0]


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
