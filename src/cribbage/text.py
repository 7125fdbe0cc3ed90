"""Events in plain English, for the command line, the replay and the terminal game.

>>> from cribbage.engine.scoring import score_play
>>> describe_combos(score_play("4H 6D 5S").combos)
'fifteen for 2, run of 3 for 3'
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine.cards import format_cards
from .engine.game import Event
from .engine.scoring import RUN, THIRTY_ONE, Combo

__all__ = ["combo_text", "describe", "describe_combos", "seat_name"]


def seat_name(seat: int | None, names: Sequence[str] = ()) -> str:
    """A seat's name, or ``seat N``."""
    if seat is None:
        return "nobody"
    return names[seat] if seat < len(names) else f"seat {seat}"


def combo_text(combo: Combo) -> str:
    """The one English wording of a combination: ``fifteen for 2``, ``run of 4 for 4``, ``31 for 2``,
    ``his heels for 2``."""
    kind = {RUN: f"run of {len(combo.cards)}", THIRTY_ONE: "31"}.get(combo.kind, combo.kind)
    return f"{kind} for {combo.points}"


def describe_combos(combos: Sequence[Combo]) -> str:
    return ", ".join(combo_text(c) for c in combos)


def describe(event: Event, names: Sequence[str] = ()) -> str | None:
    """One line (or a few, for a show) about an event; ``None`` for events not worth a line."""
    who = seat_name(event.seat, names)
    kind = event.kind
    cards = format_cards(event.cards, pretty=True)
    if kind == "cut":
        return f"Cut for deal: {cards}; {who} deals first"
    if kind == "recut":
        return f"Cut for deal: {cards}; a tie, cut again"
    if kind == "deal":
        return f"{who} deals"
    if kind == "discard":
        return f"{who} discards to the crib"
    if kind == "starter":
        return f"Starter: {cards}"
    if kind == "play":
        return f"{who} plays {cards} ({event.count})"
    if kind == "go":
        return f"{who}: go"
    if kind == "reset":
        return "The count starts again at 0" if not event.detail else None
    if kind == "score":
        claim = "" if event.claim is None else f" (claimed {event.claim})"
        return f"{who} scores {event.points}: {describe_combos(event.combos) or event.detail}{claim}"
    if kind == "show":
        what = "crib" if event.detail == "crib" else "hand"
        head = f"{who}'s {what}: {cards} with the starter — {event.points}"
        if event.claim is not None and event.claim != event.points:
            head += f" (claimed {event.claim})"
        lines = [head]
        running = 0
        for combo in event.combos:
            running += combo.points
            lines.append(
                f"    {combo_text(combo):22} {format_cards(combo.cards, pretty=True):18} {running:3}"
            )
        if not event.combos:
            lines.append("    nineteen (no points)")
        return "\n".join(lines)
    if kind == "muggins":
        return f"Muggins! {who} takes {event.points}"
    if kind == "penalty":
        return f"A wrong muggins call: {who} is given {event.points}"
    if kind == "pass":
        return None
    if kind == "win":
        side = f"side {event.side}" if len(names) > 2 else seat_name(event.side, names)
        return f"{side} wins" + (f" with a {event.detail}" if event.detail else "")
    if kind == "hand over":
        return None
    return f"{kind} {who} {cards}".strip()
