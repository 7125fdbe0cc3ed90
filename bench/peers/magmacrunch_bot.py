"""PyPI's ``magmacrunch-cribbage`` computer player as an external bot (docs/protocol.md).

Runs in the benchmark's own virtual environment (made by ``bench/bench_match.py``), where the
package ``cribbage`` is magmacrunch's, not ours.  Its AI makes two decisions:
``ai.select_crib_cards(hand, crib_is_opponents)`` and ``ai.select_pegging_card(hand, count,
played)``, where ``played`` is the cards of the current count.  Any other request (manual
counting) is answered with the first legal option.
"""

import json
import sys

from cribbage import ai  # magmacrunch-cribbage
from cribbage.engine.cards import Card

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def theirs(card: str) -> Card:
    return Card(SUITS[card[-1]], "10" if card[0] == "T" else card[0])


def ours(card: Card) -> str:
    return ("T" if card.rank == "10" else card.rank) + card.suit[0].upper()


def answer(request: dict) -> dict:
    view = request["view"]
    hand = [theirs(c) for c in view["hand"]]
    if request["type"] == "discard" and len(hand) == 6:
        thrown = ai.select_crib_cards(hand, view["dealer"] != view["seat"])
        return {"discard": [ours(c) for c in thrown]}
    if request["type"] == "play" and not view["rules"]["muggins_play"]:
        card = ai.select_pegging_card(hand, view["count"], [theirs(c) for c in view["sequence"]])
        if card is not None:
            return {"play": ours(card)}
    return request["legal"][0]


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
