"""A small cribbage bot for `cribbage match --a exec:"python examples/bot.py"` (docs/protocol.md).

It reads one request per line and answers with one of the request's "legal" options: in the play
the card that scores a fifteen, a thirty-one or a pair and does not leave a count of 5 or 21;
for any other decision the first option.  Standard library only.
"""

import json
import sys


def rating(card: str, view: dict) -> int:
    """What playing ``card`` is worth at once (roughly), less a point for leaving 5 or 21."""
    total = view["count"] + ({"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(card[0]) or int(card[0]))
    pair = bool(view["sequence"]) and view["sequence"][-1][0] == card[0]
    return 2 * (total in (15, 31)) + 2 * pair - (total in (5, 21))


for line in sys.stdin:
    request = json.loads(line)
    options = request["legal"]
    if request["type"] == "play":
        options = [max(options, key=lambda option: rating(option["play"], request["view"]))]
    print(json.dumps(options[0]), flush=True)
