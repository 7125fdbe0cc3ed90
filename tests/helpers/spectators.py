"""What a spectator may see (docs/api.md, "Watch"): the check of a spectator's state, used by the
web tests of watching and by the browser tests whose spectators follow a game live."""

from __future__ import annotations

import json
import re
from typing import Any

CARD = re.compile(r'"((?:[2-9TJQKA])[CDHS])"')
PUBLIC_KINDS = {"cut", "recut", "starter", "play", "score", "show", "go", "reset"}
"""Event kinds that show their cards to every seat."""


def check_spectator(state: dict[str, Any]) -> int:
    """Every card a spectator's state mentions is public in it; nothing private is there.
    Returns how many cards it mentions."""
    view = state["view"]
    assert state["spectator"] is True and state["seat"] is None and view["seat"] is None
    assert state["actions"] == [] and state["invites"] == []
    assert view["hand"] == [] and view["kept"] == [] and view["discards"] == []
    if view["crib"]:
        assert view["phase"] in ("show", "over"), f"the crib is shown in the {view['phase']}"
    assert state["options"]["seed"] is None
    text = json.dumps({k: v for k, v in state.items() if k != "actions"})  # its own: empty, above
    for secret in ('"deck"', '"pack"', '"token"', '"code"', '"record"', '"actions"'):
        assert secret not in text
    public = {*view["crib"], *(p["card"] for p in view["played"])}
    if view["starter"]:
        public.add(view["starter"])
    for shown in view["shown"]:
        public.update(shown["cards"])
    events = state["events"]
    deals = [i for i, ev in enumerate(events) if ev["kind"] == "deal"]
    current_events = events[deals[-1] if deals else 0 :]
    for ev in events:
        if ev["kind"] == "discard":
            assert not ev.get("cards"), "a discard shows its cards"
        if ev["kind"] in PUBLIC_KINDS:
            public.update(ev.get("cards") or [])
            for combo in ev.get("combos") or []:
                public.update(combo.get("cards") or [])
    # The whole message but the rules' facts and the events of the hands before this one.
    current = {**state, "view": {k: v for k, v in view.items() if k != "rules"}, "events": current_events}
    mentioned = set(CARD.findall(json.dumps(current)))
    assert mentioned <= public, f"the spectator sees {mentioned - public}"
    return len(mentioned)
