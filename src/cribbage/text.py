"""Events and hints in plain English, for the command line, the replay and the terminal game.

The other layers hand over codes and numbers (event kinds, combination kinds, the hints'
:class:`~cribbage.ai.pegging.Reason`); the English words are made here, and only here, for the
terminal interfaces.  The browser makes its own, in the player's language.

>>> from cribbage.engine.scoring import score_play
>>> describe_combos(score_play("4H 6D 5S").combos)
'fifteen for 2, run of 3 for 3'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .engine.cards import RANK_CHARS, Card, format_cards
from .engine.events import Event, Kind
from .engine.scoring import PAIR, RUN, THIRTY_ONE, Combo

if TYPE_CHECKING:
    from .ai.pegging import Reason

__all__ = [
    "ShowLine",
    "combo_text",
    "describe_combos",
    "event_text",
    "reason_text",
    "reasons_text",
    "seat_name",
    "show_lines",
    "win_note",
]


def seat_name(seat: int | None, names: Sequence[str] = ()) -> str:
    """A seat's name, or ``seat N``."""
    if seat is None:
        return "nobody"
    return names[seat] if seat < len(names) else f"seat {seat}"


YOU = "You"
"""The name of the person's seat in a terminal game: told in the second person."""


def _does(who: str, verb: str, third: str | None = None) -> str:
    """``You play`` or ``Ann plays``: a seat named :data:`YOU` is told in the second person.

    >>> _does("You", "play"), _does("Ann", "play"), _does("You", "are", "is")
    ('You play', 'Ann plays', 'You are')
    """
    return f"{who} {verb}" if who == YOU else f"{who} {third or verb + 's'}"


def _whose(who: str) -> str:
    """``Your`` or ``Ann's``."""
    return "Your" if who == YOU else f"{who}'s"


def _whom(who: str) -> str:
    """``you`` or ``Ann``, inside a sentence."""
    return "you" if who == YOU else who


def _combo_words(kind: str, points: int, cards: int) -> str:
    name = {RUN: f"run of {cards}", THIRTY_ONE: "31"}.get(kind, kind)
    return f"{name} for {points}"


def combo_text(combo: Combo) -> str:
    """The one English wording of a combination: ``fifteen for 2``, ``run of 4 for 4``, ``31 for 2``,
    ``his heels for 2``."""
    return _combo_words(combo.kind, combo.points, len(combo.cards))


class ShowLine(NamedTuple):
    """One line of a show's explanation: its words, its cards and its points."""

    words: str
    cards: tuple[Card, ...]
    points: int


_SAME_RANK: dict[int, str] = {2: "pair", 3: "pair royal", 4: "double pair royal"}
_MULTIPLE_RUNS: dict[tuple[int, ...], str] = {
    (2,): "double run",
    (3,): "triple run",
    (2, 2): "double double run",
    (4,): "quadruple run",
}


def show_lines(combos: Sequence[Combo]) -> list[ShowLine]:
    """A show's combinations as a player names them: the engine lists pairs one pair at a time
    and each run apart; here the pairs of one rank are one line (``pair royal for 6``, ``double
    pair royal for 12``), and runs on the same ranks are one line with their pairs (``double
    run of 3 for 8``, ``triple run of 3 for 15``, ``double double run of 3 for 16``).  Each line
    stands where its first combination stood; the points add up to the same total.

    >>> from cribbage.engine.scoring import score_show
    >>> [line.words for line in show_lines(score_show("5H 5C 5S JD", "5D").combos)][-2:]
    ['double pair royal for 12', 'nobs for 1']
    >>> [line.words for line in show_lines(score_show("3H 3C 4S 5D", "KD").combos)]
    ['fifteen for 2', 'fifteen for 2', 'double run of 3 for 8']
    """
    runs: dict[frozenset[int], list[Combo]] = {}
    for combo in combos:
        if combo.kind == RUN:
            runs.setdefault(frozenset(c.rank for c in combo.cards), []).append(combo)
    group_of: dict[int, tuple[str, object]] = {}  # id(combo) -> the key of its line
    for ranks, same in runs.items():
        if len(same) > 1:
            for combo in same:
                group_of[id(combo)] = ("runs", ranks)
    for combo in combos:
        if combo.kind == PAIR:
            rank = combo.cards[0].rank
            many = next((ranks for ranks, same in runs.items() if len(same) > 1 and rank in ranks), None)
            group_of[id(combo)] = ("runs", many) if many is not None else ("pairs", rank)
    members: dict[tuple[str, object], list[Combo]] = {}
    order: list[tuple[str, object] | Combo] = []
    for combo in combos:
        key = group_of.get(id(combo))
        if key is None:
            order.append(combo)
        elif key not in members:
            members[key] = [combo]
            order.append(key)
        else:
            members[key].append(combo)
    lines = []
    for item in order:
        if isinstance(item, Combo):
            lines.append(ShowLine(combo_text(item), item.cards, item.points))
            continue
        group = members[item]
        cards = tuple(sorted({card for combo in group for card in combo.cards}))
        points = sum(combo.points for combo in group)
        if item[0] == "pairs":
            words = _SAME_RANK.get(len(cards), f"{len(cards)} of a kind")
        else:
            length = next(len(c.cards) for c in group if c.kind == RUN)
            shape = tuple(sorted((n for n in Counter(c.rank for c in cards).values() if n > 1), reverse=True))
            if shape not in _MULTIPLE_RUNS:  # no name for it (seven-card only): one line each
                lines.extend(ShowLine(combo_text(c), c.cards, c.points) for c in group)
                continue
            words = f"{_MULTIPLE_RUNS[shape]} of {length}"
        lines.append(ShowLine(f"{words} for {points}", cards, points))
    return lines


def describe_combos(combos: Sequence[Combo]) -> str:
    return ", ".join(combo_text(c) for c in combos)


def reason_text(reason: Reason) -> str:
    """One reason of a play hint in words: ``pairs the 7 for 2``, ``avoids leaving 21``...

    >>> from cribbage.ai.pegging import Reason, ReasonCode
    >>> reason_text(Reason(ReasonCode.LEAVES, count=21, makes=31))
    'leaves 21: a ten-card makes 31'
    """
    from .ai.pegging import ReasonCode  # the advice's codes; loaded only when there is advice

    code = reason.code
    if code is ReasonCode.COMBO:
        kind, points = reason.kind or "", reason.points or 0
        if kind == PAIR and reason.rank is not None:
            rank = "10" if reason.rank == 10 else RANK_CHARS[reason.rank - 1]
            return f"pairs the {rank} for {points}"
        return _combo_words(kind, points, reason.length or 0)
    if code is ReasonCode.LEAVES:
        return f"leaves {reason.count}: a ten-card makes {reason.makes}"
    if code is ReasonCode.AVOIDS:
        return f"avoids leaving {reason.count}"
    if code is ReasonCode.SAFE_LEAD:
        return "safe lead: no card makes 15 on it"
    return "no points"


def reasons_text(reasons: Sequence[Reason]) -> str:
    """A play hint's reasons in words, joined by commas: ``fifteen for 2, run of 3 for 3``."""
    return ", ".join(reason_text(r) for r in reasons)


def win_note(what: str, target: int, scores: Sequence[int] | None) -> str:
    """Why the ``what`` (throws, keeps, cards) are ranked by their chance of winning, in words
    true of the game: the advice ranks by it from the first hand of a game short enough (to 61),
    else once a side comes within its reach of the target (a number of points, never "this hand").

    >>> win_note("throws", 61, (0, 0))
    'In a game to 61 the throws are ranked by their chance of winning.'
    >>> win_note("cards", 121, (54, 38))
    'With 67 points to go the cards are ranked by their chance of winning.'
    """
    from .ai.discard import ENDGAME_NEED  # the advice's own limits: loaded only with advice
    from .ai.pegging import RACE_NEED

    limit = RACE_NEED if what == "cards" else ENDGAME_NEED
    if target <= limit:
        return f"In a game to {target} the {what} are ranked by their chance of winning."
    if not scores:
        return f"Near the end of the game the {what} are ranked by their chance of winning."
    need = min(target - s for s in scores)
    points = f"{need} point{'s' if need != 1 else ''}"
    return f"With {points} to go the {what} are ranked by their chance of winning."


def event_text(event: Event, names: Sequence[str] = ()) -> str | None:
    """One line (or a few, for a show) about an event; ``None`` for events not worth a line.

    A seat named ``You`` (the person in a terminal game) is told in the second person.

    >>> from cribbage.engine.cards import Card
    >>> play = Event(Kind.PLAY, seat=0, side=0, cards=(Card.parse("4H"),), count=14)
    >>> event_text(play, ["You", "Computer"]), event_text(play, ["Ann", "Bob"])
    ('You play 4♥ (14)', 'Ann plays 4♥ (14)')
    """
    who = seat_name(event.seat, names)
    kind = event.kind
    cards = format_cards(event.cards, pretty=True)
    if kind is Kind.CUT:
        return f"Cut for deal: {cards}; {_does(who, 'deal')} first"
    if kind is Kind.RECUT:
        return f"Cut for deal: {cards}; a tie, cut again"
    if kind is Kind.DEAL:
        return _does(who, "deal")
    if kind is Kind.DISCARD:  # the cards when they are known (a replay), else hidden
        return f"{_does(who, 'discard')} {cards + ' ' if cards else ''}to the crib"
    if kind is Kind.STARTER:
        return f"Starter: {cards}"
    if kind is Kind.PLAY:
        return f"{_does(who, 'play')} {cards} ({event.count})"
    if kind is Kind.GO:
        return f"{who}: go"
    if kind is Kind.RESET:
        return "The count starts again at 0" if not event.detail else None
    if kind is Kind.SCORE:
        claim = "" if event.claim is None else f" (claimed {event.claim})"
        return f"{_does(who, 'score')} {event.points}: {describe_combos(event.combos) or event.detail}{claim}"
    if kind is Kind.SHOW:
        what = "crib" if event.detail == "crib" else "hand"
        head = f"{_whose(who)} {what}: {cards} with the starter — {event.points}"
        if event.claim is not None and event.claim != event.points:
            head += f" (claimed {event.claim})"
        lines = [head]
        running = 0
        for line in show_lines(event.combos):
            running += line.points
            lines.append(f"    {line.words:26} {format_cards(line.cards, pretty=True):18} {running:3}")
        if not event.combos:
            lines.append("    nineteen (no points)")
        return "\n".join(lines)
    if kind is Kind.MUGGINS:
        return f"Muggins! {_does(who, 'take')} {event.points}"
    if kind is Kind.PENALTY:
        given = "are given" if who == YOU else "is given"
        if event.detail == "over-count":
            return f"An over-count: {_whom(who)} {given} the {event.points} counted too many"
        return f"A wrong muggins call: {_whom(who)} {given} {event.points}"
    if kind is Kind.WIN:
        side = f"side {event.side}" if len(names) > 2 else seat_name(event.side, names)
        return _does(side, "win") + (f" with a {event.detail}" if event.detail else "")
    return None  # pass, hand over
