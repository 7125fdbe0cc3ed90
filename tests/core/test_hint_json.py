"""The AI's own hint JSON: ``Hint.to_json`` is exactly what ``GET /api/games/{id}/hint`` sent
before the web layer stopped serializing the advice itself (docs/api.md).

The reference below is the web service's serializer as it was (``hint_for`` of issue 30's
start), kept verbatim so the comparison holds after the service calls ``hint(view).to_json()``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribbage.ai.advice import Hint, hint, keep_advice, play_advice
from cribbage.app.games.round import hint_for
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.engine.view import Phase, SeatView


def hint_before(view: SeatView) -> dict[str, Any]:
    """``hint_for`` as the web service had it (its second serialization of the advice)."""
    if view.phase is Phase.DISCARD:
        keeps = keep_advice(view)
        ranked_by_win = any(o.win is not None for o in keeps)
        return {
            "kind": "discard",
            "ranked_by": "win" if ranked_by_win else "total",
            "options": [
                {
                    "keep": [str(c) for c in o.keep],
                    "discard": [str(c) for c in o.discard],
                    "hand_points": round(o.hand, 2),
                    "crib_points": round(o.crib, 2),
                    **({"crib_weight": round(o.crib_weight, 4)} if o.crib_weight != 1 else {}),
                    "pegging": round(o.pegging, 2),
                    "total": round(o.total, 2),
                    **({"win": round(o.win, 4)} if o.win is not None else {}),
                }
                for o in keeps
            ],
        }
    plays = play_advice(view)
    return {
        "kind": "play",
        "ranked_by": "win" if any(o.win is not None for o in plays) else "value",
        "options": [
            {
                "card": str(o.card),
                "value": round(o.value, 2),
                "reasons": [r.to_json() for r in o.reasons],
                **({"win": round(o.win, 4)} if o.win is not None else {}),
            }
            for o in plays
        ],
    }


def decisions(variant: str, seed: int, every: int) -> list[SeatView]:
    """Seat 0's views at every ``every``-th of its discards and plays with a choice, in a game
    of random moves."""
    game = Game(get_rules(variant), seed=seed)
    rng = random.Random(seed)
    views: list[SeatView] = []
    asked = 0
    state = game.state
    while not state.is_terminal:
        if state.is_chance:
            game.deal_chance()
            continue
        view = state.view(0)
        if state.to_act == 0 and state.phase in (Phase.DISCARD, Phase.PLAY) and len(view.legal) > 1:
            asked += 1
            if asked % every == 0:
                views.append(view)
        game.apply(rng.choice(state.view(state.to_act).legal))
    return views


@pytest.mark.parametrize(
    ("variant", "every"),
    [("standard", 9), ("short", 3), ("three-player", 5), ("four-player", 5), ("lowball", 7)],
)
def test_the_hint_json_is_what_the_hint_endpoint_sent(variant: str, every: int) -> None:
    views = decisions(variant, seed=11, every=every)
    assert len(views) >= 3
    shapes = set()
    for view in views:
        expected = hint_before(view)
        assert hint(view).to_json() == expected
        assert hint_for(view) == expected  # the service, whether or not it calls hint() yet
        shapes.add((expected["kind"], expected["ranked_by"]))
    assert {kind for kind, _ in shapes} == {"discard", "play"}


def test_the_hint_names_what_ranks_its_options() -> None:
    """Win-ranked near the end (short: a side needs at most 80 points from the start), and an
    opponent's crib at half weight with three players."""
    short = decisions("short", seed=4, every=1)
    assert {hint(v).ranked_by for v in short[:6]} == {"win"}
    three = next(v for v in decisions("three-player", seed=4, every=1) if v.phase is Phase.DISCARD)
    advice = hint(three)
    assert isinstance(advice, Hint) and advice.kind == "discard" and advice.ranked_by == "total"
    weights = {o.get("crib_weight") for o in advice.to_json()["options"]}
    assert weights == ({0.5} if three.dealer != three.seat else {None})
