"""A game's review in plain English, for ``cribbage review`` and the terminal game.

The review itself (:mod:`cribbage.study.review`) is codes and numbers; the words are made here,
for the terminal, and every line fits :data:`WIDTH` columns.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

from ..ai.discard import KeepOption
from ..ai.pegging import PlayOption
from ..engine.cards import Card, format_cards
from ..text import YOU, reasons_text, seat_name
from .review import (
    THRESHOLDS,
    CountChoice,
    Decision,
    DecisionKind,
    GameReview,
    Grade,
    HandReview,
    SeatTotals,
    Unit,
)

__all__ = ["WIDTH", "review_lines"]

WIDTH: Final = 80
"""The columns every line fits in."""

INDENT: Final = "      "
"""Before the lines that detail a decision."""


def review_lines(review: GameReview, width: int = WIDTH, pretty: bool = True) -> list[str]:
    """The review, hand by hand: each decision with its grade, the best choice where it was
    not made, what each hand gave away, and the game's totals; cards with suit symbols when
    ``pretty``, else in ASCII (``5H``)."""
    names = _names(review)
    lines: list[str] = []
    say = _Writer(lines, width)
    rules = review.rules
    who = ", ".join(names[s] if names[s] == f"seat {s}" else f"{names[s]} (seat {s})" for s in review.seats)
    what = "cribbage" if rules.name == "standard" else f"{rules.name} cribbage"
    seed = "" if review.seed is None else f", seed {review.seed}"
    say(f"Review of {who}: {what} to {rules.target}{seed}.")
    say(_outcome(review, names))
    say(_grades_text())
    by_hand: dict[int, list[Decision]] = {}
    for decision in review.decisions:
        by_hand.setdefault(decision.hand, []).append(decision)
    for hand in review.hands:
        lines.append("")
        say(_hand_head(hand, names, rules.sides))
        for decision in by_hand.get(hand.hand, []):
            if _nothing_to_call(decision):
                continue  # a pass on a right count: in the JSON, not worth a line
            for line in _decision(decision, names, pretty):
                say(line, indent=INDENT)
        for totals in hand.totals:
            if totals.decisions:
                say(f"  Given away by {_by(names[totals.seat])}: " + _given(totals), indent="    ")
        if hand.win_end is not None and hand is review.hands[-1]:
            say("  Then: " + _chances(hand.win_end, names, rules.sides), indent="    ")
    lines.append("")
    for totals in review.totals:
        say(f"Over the game: {names[totals.seat]} gave away " + _given(totals))
        counts = ", ".join(f"{n} {_plural(g, n)}" for g, n in zip(Grade, totals.grades, strict=True))
        say(f"  {totals.decisions} decisions judged: {counts}.", indent="    ")
    chances = [h.win_start for h in review.hands if h.win_start is not None]
    if chances and review.rules.sides == 2:
        for side in range(2):
            line = " ".join(f"{round(100 * c[side])}%" for c in chances)
            last = review.hands[-1].win_end
            end = "" if last is None else f" -> {round(100 * last[side])}%"
            name = _side_name(side, names, review.rules.sides)
            whose = "Your" if name == YOU else f"{name}'s"
            say(f"{whose} chance to win at each deal: {line}{end}", indent="    ")
    elif review.rules.sides != 2 or not chances:
        say("No chance of winning is given for this game: the win tables are for two sides.")
    return lines


class _Writer:
    """Adds wrapped lines to a list."""

    def __init__(self, lines: list[str], width: int) -> None:
        self.lines = lines
        self.width = width

    def __call__(self, text: str, indent: str = "  ") -> None:
        first = len(text) - len(text.lstrip(" "))
        self.lines.extend(
            textwrap.wrap(
                text,
                self.width,
                initial_indent="",
                subsequent_indent=" " * first + indent,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            if text.strip()
            else [""]
        )


def _nothing_to_call(decision: Decision) -> bool:
    """A muggins decision on a count that missed nothing, where nothing was called."""
    return (
        decision.what == "muggins"
        and isinstance(decision.best, CountChoice)
        and isinstance(decision.chosen, CountChoice)
        and decision.best.points == decision.chosen.points == 0
    )


def _names(review: GameReview) -> list[str]:
    return [seat_name(seat, review.names) for seat in range(review.rules.players)]


_PLURALS: Final = {Grade.INACCURACY: "inaccuracies", Grade.MISTAKE: "mistakes", Grade.BLUNDER: "blunders"}


def _plural(grade: Grade, n: int) -> str:
    return grade.value if n == 1 else _PLURALS.get(grade, grade.value)


def _outcome(review: GameReview, names: Sequence[str]) -> str:
    result = review.result
    scores = " to ".join(str(s) for s in sorted(review.scores, reverse=True))
    if result is None:
        return f"The game is not finished: {' to '.join(str(s) for s in review.scores)}."
    if review.rules.sides == review.rules.players:
        winner = names[result.winner]
    else:
        winner = " and ".join(
            names[s] for s in range(review.rules.players) if review.rules.side_of(s) == result.winner
        )
    skunk = ("", ", a skunk", ", a double skunk")[result.skunk]
    return f"{winner} won {scores}{skunk}."


def _grades_text() -> str:
    points, win = THRESHOLDS[Unit.POINTS], THRESHOLDS[Unit.WIN]
    parts = [
        f"{grade.value} under {p:g} points ({w:.0%} to win)"
        for grade, p, w in zip(list(Grade)[1:4], points[1:], win[1:], strict=True)
    ]
    return (
        "Each decision is graded by what it gave away against the computer's best: best (nothing), "
        + ", ".join(parts)
        + f", blunder from {points[3]:g} points ({win[3]:.0%})."
    )


def _chances(win: Sequence[float], names: Sequence[str], sides: int) -> str:
    """Each side's chance of winning, by the side's name (both partners' names)."""
    return "chances to win " + ", ".join(
        f"{_side_name(side, names, sides)} {w:.0%}" for side, w in enumerate(win)
    )


def _hand_head(hand: HandReview, names: Sequence[str], sides: int) -> str:
    scores = ", ".join(f"{_side_name(side, names, sides)} {s}" for side, s in enumerate(hand.scores_start))
    dealer = names[hand.dealer]
    text = f"Hand {hand.hand}: {dealer} {'deal' if dealer == YOU else 'deals'}; {scores}"
    if hand.win_start is not None:
        text += "; " + _chances(hand.win_start, names, sides)
    return text


def _side_name(side: int, names: Sequence[str], sides: int) -> str:
    if sides == len(names):
        return names[side]
    return f"{names[side]} and {names[side + 2]}" if side + 2 < len(names) else names[side]


def _given(totals: SeatTotals) -> str:
    """What was given away, in the units the decisions were graded in: the chance to win for
    those graded by it, points for the others (never "0.00 points" alone after a discard
    graded by the chance it gave away).  The chance is each decision's drop in it added up, in
    percentage points: never a share of the game's chances, which could not pass 100%."""
    win = totals.win >= THRESHOLDS[Unit.WIN][0]
    points = (
        f"{totals.points:.2f} points (discard {totals.discard:.2f}, play {totals.play:.2f},"
        f" counting {totals.count:g})"
    )
    n = totals.win_decisions
    at = "1 decision made for the win" if n == 1 else f"{n} decisions made for the win and added up"
    chance = f"{100 * totals.win:.1f} percentage points of the chance to win, lost at {at}"
    if not win:
        return points + "."
    if totals.points < THRESHOLDS[Unit.POINTS][0]:
        return chance + "."
    return f"{chance} and {points}."


def _loss(decision: Decision) -> str:
    if decision.grade is Grade.BEST:
        return "best"
    if decision.unit is Unit.WIN:
        return f"{decision.grade.value}: the chance to win {100 * decision.loss:.1f} percentage points lower"
    return f"{decision.grade.value}: {decision.loss:.2f} points given away"


def _keep_values(option: KeepOption, win: bool) -> str:
    crib = "+" if option.own_crib else "-"
    if option.crib_weight != 1:  # an opponent's crib with three players
        crib += f" {option.crib_weight:g} x"
    play = "+" if option.pegging >= 0 else "-"
    text = (
        f"hand {option.hand:.2f} {crib} crib {option.crib:.2f} {play} play {abs(option.pegging):.2f}"
        f" = {option.total:.2f}"
    )
    if win and option.win is not None:
        text += f", wins {option.win:.1%}"
    return text


def _by(who: str) -> str:
    """A seat's name after "by": ``you`` for :data:`~cribbage.text.YOU`."""
    return "you" if who == YOU else who


def _decision(decision: Decision, names: Sequence[str], pretty: bool) -> list[str]:
    who = _by(names[decision.seat])
    chosen, best = decision.chosen, decision.best
    if decision.kind is DecisionKind.DISCARD:
        assert isinstance(chosen, KeepOption) and isinstance(best, KeepOption)
        win = decision.unit is Unit.WIN
        head = (
            f"  Discard by {who}: threw {format_cards(chosen.discard, pretty=pretty)},"
            f" kept {format_cards(chosen.keep, pretty=pretty)} ({decision.rank} of {decision.options})"
            f" - {_loss(decision)}"
        )
        lines = [head, f"{INDENT}{_keep_values(chosen, win)}"]
        if decision.grade is not Grade.BEST:
            lines.append(
                f"{INDENT}best: throw {format_cards(best.discard, pretty=pretty)},"
                f" keep {format_cards(best.keep, pretty=pretty)}: {_keep_values(best, win)}"
            )
        return lines
    if decision.kind is DecisionKind.PLAY:
        assert isinstance(chosen, PlayOption) and isinstance(best, PlayOption)
        view = decision.view
        on = f"on {view.count} ({format_cards(view.sequence, pretty=pretty)})" if view.sequence else "to lead"
        head = f"  Play by {who} {on}: {_card(chosen.card, pretty)} - {_loss(decision)}"
        lines = [head]
        if decision.grade is not Grade.BEST:
            lines.append(f"{INDENT}played {_play_values(chosen, pretty)}")
            lines.append(f"{INDENT}best   {_play_values(best, pretty)}")
        return lines
    assert isinstance(chosen, CountChoice) and isinstance(best, CountChoice)
    if decision.what == "muggins":
        counter = names[decision.counter] if decision.counter is not None else "the count"
        counter = "your" if counter == YOU else f"{counter}'s"
        missed, called = best.points, chosen.points
        if missed == 0:
            done = "nothing was missed" + (f", yet {called} were called" if called else "")
        else:
            done = f"{missed} missed, {decision.taken or 0} taken"
        return [f"  Muggins by {who} on {counter} count: {done} - {_loss(decision)}"]
    what = {"hand": "hand", "crib": "crib", "play": "card's points"}.get(decision.what or "", "count")
    stated, true = chosen.points, best.points
    text = f"  Count by {who} of the {what}: {stated} stated, {true} in it - {_loss(decision)}"
    if decision.taken:
        text += f"; the opponent took {decision.taken} (muggins)"
    if stated > true:
        text += "; the excess goes to the opponent" if decision.penalty else "; corrected"
    return [text]


def _card(card: Card, pretty: bool) -> str:
    return card.pretty if pretty else str(card)


def _play_values(option: PlayOption, pretty: bool) -> str:
    value = f"{_card(option.card, pretty)} {option.value:+.2f}"
    if option.win is not None:
        value += f", wins {option.win:.1%}"
    why = reasons_text(option.reasons)
    return f"{value} ({why})" if why else value
