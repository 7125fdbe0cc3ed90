"""A seat's legal actions in a few templates: the form a client is sent instead of the list.

:attr:`~cribbage.engine.view.SeatView.legal` lists every choice, which is what a player of the
AI wants; with manual pegging that is one action per card and claim (244 for four cards).
:func:`templates` describes the same set in a few JSON objects, by type of action, and
:func:`expand` is its inverse: ``expand(templates(legal), seat)`` is ``legal`` again, as a set
(:func:`choices` gives one template's actions as JSON).

The templates (JSON objects; ``{"min": m, "max": n}`` is every whole number from m to n):

* ``{"type": "discard", "cards": [...], "count": 2}``: any ``count`` different ``cards``;
* ``{"type": "play", "cards": [...]}``: any one of ``cards`` (the ones that keep the count
  within 31); with manual pegging (muggins in the play) also ``"claim": {"min": 0, "max": 60}``,
  the points stated with the card;
* ``{"type": "count", "points": {"min": 0, "max": 60}}``: the points of a hand or crib stated
  in the show (manual counting);
* ``{"type": "muggins", "points": {"min": 1, "max": 60}}`` and ``{"type": "pass"}``: the
  decision on a count awaiting the muggins call.

The concrete action a client sends is the template's type with one choice in place of each
list or range: ``{"type": "play", "card": "5H", "claim": 2}``, ``{"type": "discard",
"cards": ["5H", "JD"]}``, ``{"type": "count", "points": 8}`` (``docs/api.md``).  Templates
name no seat: they are always the view's seat's own actions.  There is no template for a go
(the engine says go for a seat that cannot play) nor for the chance steps (the cut, the deal and
the starter are drawn by the engine, never a seat's choice).

A server need not check an action against the templates: it parses the action and lets the
engine check it, as for any action; the templates only tell a client what it may send, and
:func:`allows` answers that without the engine.

>>> from cribbage.engine.rules import get_rules
>>> from cribbage.engine.state import GameState
>>> from cribbage.engine.view import Phase
>>> import random
>>> state, rng = GameState(get_rules("standard"), dealer=0), random.Random(1)
>>> _ = state.apply(state.sample_chance(rng))
>>> [(t["type"], len(t["cards"]), t["count"]) for t in templates(state.legal_actions())]
[('discard', 6, 2)]
>>> len(state.legal_actions()) == len(expand(templates(state.legal_actions()), state.to_act))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, groupby
from operator import attrgetter
from typing import Any, cast

from .actions import Action, Count, Discard, Muggins, Pass, Play, action_from_json
from .cards import Card, card_order
from .errors import IllegalActionError

__all__ = ["allows", "choices", "expand", "templates"]

_CHOICE_TYPES = (Discard, Play, Count, Muggins, Pass)
_seat = attrgetter("seat")
_card = attrgetter("card")
_claim = attrgetter("claim")


def templates(legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The templates describing exactly the actions ``legal`` (one seat's), by type of action in
    the order the types first appear.  A set that no single template describes (never among the
    engine's legal actions) is split over several, so the description is always exact.

    Raises:
        IllegalActionError: ``legal`` holds a chance step or the actions of several seats.
    """
    groups: dict[type, list[Any]] = {}
    for kind, run in groupby(legal, type):  # the engine lists the actions of a type together
        actions: list[Any] = list(run)
        if kind not in _CHOICE_TYPES:
            raise IllegalActionError(f"{actions[0]!r} is no seat's choice: the engine draws the chance steps")
        groups.setdefault(kind, []).extend(actions)
    seats = set(map(_seat, legal))
    if len(seats) > 1:
        raise IllegalActionError(f"the templates describe one seat's actions, not seats {sorted(seats)}")
    out: list[dict[str, Any]] = []
    for kind, actions in groups.items():
        if kind is Discard:
            out += _discard_templates(actions)
        elif kind is Play:
            out += _play_templates(actions)
        elif kind is Pass:
            out.append({"type": "pass"})
        else:
            name = "count" if kind is Count else "muggins"
            out += [{"type": name, "points": _range_json(s)} for s in _spans(a.points for a in actions)]
    return out


def _discard_templates(discards: list[Discard]) -> list[dict[str, Any]]:
    """One template per size if the discards of that size are every choice of that many among
    their cards (always, in the engine), else one per discard."""
    out: list[dict[str, Any]] = []
    for size in dict.fromkeys(len(d.cards) for d in discards):
        same = [d for d in discards if len(d.cards) == size]
        cards = sorted({card for d in same for card in d.cards}, key=card_order)
        every = {frozenset(combo) for combo in combinations(cards, size)}
        if len(same) == len(every) and {frozenset(d.cards) for d in same} == every:
            out.append({"type": "discard", "cards": [str(c) for c in cards], "count": size})
        else:
            out += [{"type": "discard", "cards": [str(c) for c in d.cards], "count": size} for d in same]
    return out


def _play_templates(plays: list[Play]) -> list[dict[str, Any]]:
    """The cards grouped by the claims allowed with them (all alike, in the engine), one
    template for each run of claims (or none) of a group."""
    claims: dict[Card, list[int | None]] = {}
    for card, run in groupby(plays, _card):  # the engine lists each card's plays together
        claims.setdefault(card, []).extend(map(_claim, run))
    groups: dict[tuple[tuple[int, int] | None, ...], list[Card]] = {}
    for card, allowed in claims.items():
        if None in allowed:
            key = (None, *_spans(c for c in allowed if c is not None))
        else:
            key = tuple(_spans(cast(list[int], allowed)))
        groups.setdefault(key, []).append(card)
    out: list[dict[str, Any]] = []
    for key, cards in groups.items():
        for span in key:
            template: dict[str, Any] = {"type": "play", "cards": [str(c) for c in cards]}
            if span is not None:
                template["claim"] = _range_json(span)
            out.append(template)
    return out


def _spans(values: Iterable[int]) -> list[tuple[int, int]]:
    """The runs of consecutive numbers among ``values``: (first, last) of each."""
    ordered = sorted(set(values))
    if not ordered or ordered[-1] - ordered[0] == len(ordered) - 1:  # one run (or none): at once
        return [(ordered[0], ordered[-1])] if ordered else []
    spans: list[tuple[int, int]] = []
    for value in ordered:
        if spans and spans[-1][1] == value - 1:
            spans[-1] = (spans[-1][0], value)
        else:
            spans.append((value, value))
    return spans


def _range_json(span: tuple[int, int]) -> dict[str, int]:
    return {"min": span[0], "max": span[1]}


def expand(templates: Sequence[dict[str, Any]], seat: int) -> list[Action]:
    """Every action of ``seat`` the templates describe (the inverse of :func:`templates`).

    Raises:
        CribbageError: a template is malformed (an unknown type, a bad card or range).
    """
    return [action_from_json({**choice, "seat": seat}) for t in templates for choice in choices(t)]


def choices(template: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The actions one template describes, as a client sends them (JSON without the seat), in the
    engine's order: the first choice of the first template is the first legal action.

    Raises:
        IllegalActionError: the template is malformed (an unknown type, no list, a bad range).
    """
    kind = template.get("type")
    if kind == "discard":
        count = template.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise IllegalActionError(f"a discard template's count must be a positive integer, not {count!r}")
        for cards in combinations(_list(template, "cards"), count):
            yield {"type": kind, "cards": list(cards)}
    elif kind == "play":
        claims = _range(template["claim"]) if "claim" in template else (None,)
        for card in _list(template, "cards"):
            for claim in claims:
                yield (
                    {"type": kind, "card": card}
                    if claim is None
                    else {"type": kind, "card": card, "claim": claim}
                )
    elif kind in ("count", "muggins"):
        for points in _range(template.get("points")):
            yield {"type": kind, "points": points}
    elif kind == "pass":
        yield {"type": kind}
    else:
        raise IllegalActionError(f"unknown template type {kind!r}")


def _list(template: dict[str, Any], key: str) -> list[Any]:
    value = template.get(key)
    if not isinstance(value, list):
        raise IllegalActionError(f"a {template.get('type')} template's {key!r} must be a list, not {value!r}")
    return value


def _range(span: object) -> range:
    if not (isinstance(span, dict) and all(type(span.get(k)) is int for k in ("min", "max"))):
        raise IllegalActionError(f"a range must be {{'min': int, 'max': int}}, not {span!r}")
    return range(span["min"], span["max"] + 1)


def allows(templates: Sequence[dict[str, Any]], action: dict[str, Any]) -> bool:
    """Whether ``action`` (JSON as a client sends it, the seat left out) is one the templates
    describe.  Cards are compared as written in the templates (``"5H"``); a discard's cards in
    any order.  Never raises (for templates made by :func:`templates`)."""
    return any(_matches(t, action) for t in templates)


def _matches(template: dict[str, Any], action: dict[str, Any]) -> bool:
    kind = template.get("type")
    if action.get("type") != kind:
        return False
    if kind == "discard":
        cards = action.get("cards")
        return (
            isinstance(cards, list)
            and len(cards) == template.get("count")
            and len(set(map(str, cards))) == len(cards)
            and all(card in template.get("cards", ()) for card in cards)
        )
    if kind == "play":
        claim = action.get("claim")
        if "claim" in template:
            if not _within(template["claim"], claim):
                return False
        elif claim is not None:
            return False
        return isinstance(action.get("card"), str) and action["card"] in template.get("cards", ())
    if kind in ("count", "muggins"):
        return _within(template.get("points"), action.get("points"))
    return kind == "pass"


def _within(span: object, value: object) -> bool:
    return (
        isinstance(span, dict)
        and type(value) is int
        and type(span.get("min")) is int
        and type(span.get("max")) is int
        and span["min"] <= value <= span["max"]
    )
