"""Game review: every decision of the reviewed seats judged against the hint, hand by hand.

:func:`review_game` replays a recorded game and, at each decision of the reviewed seats, asks the
hint (:mod:`cribbage.ai.advice`) from *that seat's view at that moment* what was best:

* every **discard**: the keep chosen and the best keep, each with its expected hand, crib, play
  and total (or its chance of winning, where the hint ranks the keeps by it);
* every **play** with a real choice (cards of more than one rank to choose from): the card played
  and the best card, with their values as the play hint gives them;
* every **count** stated by the seat (manual counting): the points missed or stated too many,
  and whether an opponent took the missed points (muggins); and every **muggins** decision of
  the seat on an opponent's count: the missed points taken, left, or wrongly called.

The *loss* of a decision is what it gave away: the best option's value less the chosen one's
(never below zero), in points, or in chance of winning (0 to 1) where the hint ranks by it; a
count's loss is the points missed, plus the excess of an over-count when the rules give it to
the opponent.  Each decision is graded by its loss (:data:`THRESHOLDS`, see :class:`Grade`).

Per hand and per game the losses are added up by kind for each reviewed seat, and each side's
chance of winning is given at the start of every hand and after it (its show, or the end of the
game), from the win tables of :mod:`cribbage.ai.winning`.  Those tables exist for two sides
(two players, lowball included, and four in partnerships): with three players, or a target
without a table, the chances are ``None`` (the scores of each hand are there instead).

Everything here is pure: codes and numbers, no words (the terminal's English is made by
:mod:`cribbage.study.review_text`, the page's by the page).

>>> from cribbage.engine.record import Game
>>> from cribbage.engine.rules import get_rules
>>> from cribbage.players import make_player
>>> from cribbage.table.table import Table
>>> game = Game(get_rules("short"), seed=3)
>>> _ = Table(game, [make_player("normal", 1), make_player("weak", 2)]).run()
>>> review = review_game(game, seats=[1])
>>> all(d.loss >= 0 and d.seat == 1 for d in review.decisions)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final

from ..ai.advice import keep_advice, play_advice
from ..ai.counting import missed_points, show_count, show_turn
from ..ai.discard import KeepOption
from ..ai.pegging import PlayOption
from ..ai.winning import win_table
from ..engine.actions import Action, Count, Deal, Discard, Muggins, Pass, Play
from ..engine.errors import CribbageError
from ..engine.events import GameResult, Kind
from ..engine.record import Game
from ..engine.rules import Rules
from ..engine.scoring import play_points
from ..engine.state import GameState
from ..engine.view import SeatView

__all__ = [
    "FORMAT",
    "THRESHOLDS",
    "CountChoice",
    "Decision",
    "DecisionKind",
    "GameReview",
    "Grade",
    "HandReview",
    "ReviewError",
    "SeatTotals",
    "Unit",
    "grade",
    "review_game",
    "review_record",
    "reviewed_seats",
]

FORMAT: Final = "cribbage-review"
VERSION: Final = 1


class ReviewError(CribbageError):
    """A review that cannot be made: a seat that is not in the game."""


class DecisionKind(StrEnum):
    """What was decided: the ``kind`` of a decision in JSON."""

    DISCARD = "discard"
    PLAY = "play"
    COUNT = "count"
    """A count stated (``what``: ``"hand"``, ``"crib"`` or ``"play"``), or a muggins decision on
    an opponent's count (``what``: ``"muggins"``)."""


class Unit(StrEnum):
    """What a loss is measured in."""

    POINTS = "points"
    WIN = "win"
    """The chance of winning the game, 0 to 1 (where the hint ranks the options by it)."""


class Grade(StrEnum):
    """How good a decision was, by its loss (:data:`THRESHOLDS`), best first."""

    BEST = "best"
    """Nothing given away (the hint's first option, or one as good, up to rounding)."""
    FINE = "fine"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS: Final[dict[Unit, tuple[float, float, float, float]]] = {
    Unit.POINTS: (0.005, 0.5, 1.5, 3.0),
    Unit.WIN: (0.0005, 0.01, 0.03, 0.08),
}
"""For each unit, the losses below which a decision is ``best``, ``fine``, an ``inaccuracy``
and a ``mistake``; from the last on it is a ``blunder``.  In points: under half a point is
fine (within what the estimates can tell apart), a point (a missed fifteen-for-one, a wasted
pair) is an inaccuracy, two a mistake, three or more a blunder.  In chance of winning: under 1%,
3% and 8%."""


def grade(loss: float, unit: Unit) -> Grade:
    """The grade of a decision that gave away ``loss`` (in ``unit``).

    >>> grade(0.0, Unit.POINTS), grade(1.0, Unit.POINTS), grade(0.1, Unit.WIN)
    (<Grade.BEST: 'best'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.BLUNDER: 'blunder'>)
    """
    for limit, name in zip(THRESHOLDS[unit], Grade, strict=False):
        if loss < limit:
            return name
    return Grade.BLUNDER


@dataclass(frozen=True, slots=True)
class CountChoice:
    """The points of a count: stated (``chosen``) or true (``best``); for a muggins decision,
    the points called (0 for a pass) and the points the count missed."""

    points: int

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points}


ReviewedChoice = KeepOption | PlayOption | CountChoice


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a reviewed seat, judged from its view at that moment.

    Attributes:
        hand: the number of the hand (1 for the first).
        seat: the seat that decided.
        kind: a discard, a play or a count.
        chosen: what the seat chose (a keep, a card with its values, or the points stated).
        best: the hint's first option for the same view (or the true count).
        loss: what the choice gave away, in ``unit`` (0 or more).
        unit: points, or the chance of winning where the hint ranks by it.
        grade: the grade of ``loss``.
        view: the seat's view at that moment (what the table showed it).
        rank: the chosen option's place in the hint (1 for the first); 0 for counts.
        options: how many options the hint ranked; 0 for counts.
        what: for counts: ``"hand"``, ``"crib"``, ``"play"`` (a card's stated points) or
            ``"muggins"`` (a call on an opponent's count).
        taken: for a count: the points an opponent then took from it by muggins (None when no
            call was possible); for a muggins decision: the points the call scored.
        counter: for a muggins decision: the seat whose count it was.
        penalty: for a count: whether the rules give an over-count's excess to the opponent.
    """

    hand: int
    seat: int
    kind: DecisionKind
    chosen: ReviewedChoice
    best: ReviewedChoice
    loss: float
    unit: Unit
    grade: Grade
    view: SeatView
    rank: int = 0
    options: int = 0
    what: str | None = None
    taken: int | None = None
    counter: int | None = None
    penalty: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"hand", "seat", "kind", "chosen", "best", "loss", "grade", "unit", "step", "table",
        ...}``: see docs/api.md (``POST /api/review``)."""
        digits = 4 if self.unit is Unit.WIN else 3
        data: dict[str, Any] = {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.kind.value,
            "chosen": self.chosen.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, digits),
            "grade": self.grade.value,
            "unit": self.unit.value,
            "step": self.view.step,
        }
        if self.kind is DecisionKind.COUNT:
            assert isinstance(self.chosen, CountChoice) and isinstance(self.best, CountChoice)
            stated, true = self.chosen.points, self.best.points
            data["what"] = self.what
            if self.what == "muggins":
                data["counter"] = self.counter
                data["taken"] = self.taken or 0
                data["left"] = max(0, true - stated)
                data["wrong"] = stated if true == 0 and stated > 0 else 0
            else:
                data["missed"] = max(0, true - stated)
                data["over"] = max(0, stated - true)
                data["penalty"] = self.penalty
                data["taken"] = self.taken
        else:
            data["rank"] = self.rank
            data["options"] = self.options
            data["ranked_by"] = (
                "win" if self.unit is Unit.WIN else "total" if self.kind is DecisionKind.DISCARD else "value"
            )
        data["table"] = table_json(self.view)
        return data


def table_json(view: SeatView) -> dict[str, Any]:
    """The table as the seat saw it (its view's JSON without the rules' facts, which the review
    gives once): its cards, the count and its cards, the cards played, the scores, the dealer."""
    data = view.to_json()
    for key in ("rules", "show_order", "players", "variant", "target"):
        data.pop(key, None)
    return data


@dataclass(frozen=True, slots=True)
class SeatTotals:
    """What one reviewed seat gave away, by kind of decision.

    ``discard``, ``play`` and ``count`` are points (decisions judged in points); ``win_discard``
    and ``win_play`` the chance of winning (decisions judged by it): each decision's drop in the
    chance, 0 to 1, added up over the ``win_decisions`` that dropped it, so a sum that may pass 1
    (ten decisions losing 15% each), never a share of the game's chances.
    """

    seat: int
    discard: float = 0.0
    play: float = 0.0
    count: float = 0.0
    win_discard: float = 0.0
    win_play: float = 0.0
    win_decisions: int = 0
    """The decisions judged by the chance of winning that lost some of it (not ``best``)."""
    decisions: int = 0
    grades: tuple[int, ...] = (0, 0, 0, 0, 0)
    """How many decisions had each :class:`Grade`, in its order."""

    @property
    def points(self) -> float:
        """The points given away in all."""
        return self.discard + self.play + self.count

    @property
    def win(self) -> float:
        """The chance of winning given away in all."""
        return self.win_discard + self.win_play

    def add(self, decision: Decision) -> SeatTotals:
        """These totals with ``decision`` counted."""
        kind, loss = decision.kind, decision.loss
        if decision.unit is Unit.WIN:
            name = "win_discard" if kind is DecisionKind.DISCARD else "win_play"
        else:
            name = kind.value
        grades = list(self.grades)
        grades[list(Grade).index(decision.grade)] += 1
        lost = int(decision.unit is Unit.WIN and decision.grade is not Grade.BEST)
        return replace(
            self,
            **{name: getattr(self, name) + loss},
            win_decisions=self.win_decisions + lost,
            decisions=self.decisions + 1,
            grades=tuple(grades),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "discard": round(self.discard, 3),
            "play": round(self.play, 3),
            "count": round(self.count, 3),
            "points": round(self.points, 3),
            "win_discard": round(self.win_discard, 4),
            "win_play": round(self.win_play, 4),
            "win": round(self.win, 4),
            "win_decisions": self.win_decisions,
            "decisions": self.decisions,
            "grades": {g.value: n for g, n in zip(Grade, self.grades, strict=True)},
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand: who dealt, the scores and chances of winning before and after it, and what
    each reviewed seat gave away in it.

    ``win_start`` and ``win_end`` hold each side's chance of winning (they add up to 1), or are
    ``None`` where no table applies (three players, a target without a table, an unfinished
    hand).  With partners they are per side (the side of seats 0 and 2 first).
    ``win_end`` is the chance after the hand's show (as the next hand starts), or 1 and 0 when
    the game ended in this hand.
    """

    hand: int
    dealer: int
    scores_start: tuple[int, ...]
    scores_end: tuple[int, ...]
    win_start: tuple[float, ...] | None
    win_end: tuple[float, ...] | None
    totals: tuple[SeatTotals, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "dealer": self.dealer,
            "scores_start": list(self.scores_start),
            "scores_end": list(self.scores_end),
            "win_start": None if self.win_start is None else [round(w, 4) for w in self.win_start],
            "win_end": None if self.win_end is None else [round(w, 4) for w in self.win_end],
            "totals": [t.to_json() for t in self.totals],
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of a game: every decision of the reviewed seats, the hands, the totals."""

    rules: Rules
    names: tuple[str, ...]
    seats: tuple[int, ...]
    """The reviewed seats."""
    decisions: tuple[Decision, ...]
    hands: tuple[HandReview, ...]
    totals: tuple[SeatTotals, ...]
    """Per reviewed seat, over the whole game."""
    result: GameResult | None
    scores: tuple[int, ...]
    """The scores at the end of the record."""
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The review as JSON (``docs/api.md``, ``POST /api/review``)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.rules.name,
            "players": self.rules.players,
            "target": self.rules.target,
            "rules": self.rules.facts(),
            "names": list(self.names),
            "seed": self.seed,
            "seats": list(self.seats),
            "thresholds": {
                unit.value: dict(zip([g.value for g in Grade][:-1], limits, strict=True))
                for unit, limits in THRESHOLDS.items()
            },
            "result": None if self.result is None else self.result.to_json(),
            "scores": list(self.scores),
            "decisions": [d.to_json() for d in self.decisions],
            "hands": [h.to_json() for h in self.hands],
            "totals": [t.to_json() for t in self.totals],
        }


# --------------------------------------------------------------------------- reviewing


def reviewed_seats(game: Game, seats: Sequence[int] | None = None) -> tuple[int, ...]:
    """The seats to review: ``seats`` (checked), else the people's seats of the record, else all.

    Raises:
        ReviewError: for a seat that is not in the game.
    """
    players = game.rules.players
    if seats is None:
        people = tuple(s for s, who in enumerate(game.seats) if who is None)
        return people or tuple(range(players))
    for seat in seats:
        if type(seat) is not int or not 0 <= seat < players:
            raise ReviewError(f"no seat {seat!r} in a {players}-player game: seats are 0 to {players - 1}")
    return tuple(sorted(set(seats)))


def review_record(data: object, seats: Sequence[int] | None = None) -> GameReview:
    """The review of a game record (its JSON, as saved or downloaded).

    Raises:
        RecordError: the record is malformed or replays an illegal action (see
            :meth:`~cribbage.engine.record.Game.from_json`).
        ReviewError: a seat that is not in the game.
    """
    return review_game(Game.from_json(data), seats)


@dataclass
class _Hand:
    """A hand being reviewed."""

    number: int
    dealer: int
    scores: tuple[int, ...]
    win: tuple[float, ...] | None
    totals: dict[int, SeatTotals] = field(default_factory=dict)


def review_game(game: Game, seats: Sequence[int] | None = None) -> GameReview:
    """Review the decisions of ``seats`` (by default :func:`reviewed_seats`) in ``game``'s record.

    The record is replayed on a fresh state; each decision is judged from the deciding seat's
    view just before its action.

    Raises:
        ReviewError: a seat that is not in the game.
    """
    rules = game.rules
    chosen_seats = reviewed_seats(game, seats)
    state = GameState(rules, dealer=game.first_dealer, explain=False)
    decisions: list[Decision] = []
    hands: list[HandReview] = []
    totals = {seat: SeatTotals(seat) for seat in chosen_seats}
    current: _Hand | None = None
    open_count: int | None = None
    """The index in ``decisions`` of a reviewed seat's count that an opponent may yet mug."""
    for action in game.actions:
        # A muggins call or pass may come from a later opponent before its turn, and a discard
        # from any seat still to discard: the action's seat decides.
        actor = action.seat if isinstance(action, (Muggins, Pass, Discard)) else state.to_act
        judged: list[Decision] = []
        if actor >= 0 and actor in totals and current is not None:
            judged = _judge(state.view(actor), action, current.number)
        if isinstance(action, Deal):
            assert state.dealer is not None
            current = _Hand(state.hand_number + 1, state.dealer, tuple(state.scores), _chances(state))
        events = state.apply(action)
        if isinstance(action, (Muggins, Pass)) and open_count is not None:
            # Every opponent may call until one does or all have passed.
            taken = sum(e.points for e in events if e.kind is Kind.MUGGINS)
            if taken or state.pending is None:
                decisions[open_count] = replace(decisions[open_count], taken=taken)
            if state.pending is None:
                open_count = None
        for decision in judged:
            assert current is not None
            decisions.append(decision)
            totals[decision.seat] = totals[decision.seat].add(decision)
            seat_totals = current.totals.get(decision.seat, SeatTotals(decision.seat))
            current.totals[decision.seat] = seat_totals.add(decision)
            if decision.what in ("hand", "crib", "play") and state.pending is not None:
                open_count = len(decisions) - 1
        if current is not None and (state.is_terminal or any(e.kind is Kind.HAND_OVER for e in events)):
            hands.append(_close(current, state, chosen_seats))
            current = None
    if current is not None:  # an unfinished record: the hand in progress
        hands.append(_close(current, state, chosen_seats, finished=False))
    return GameReview(
        rules=rules,
        names=game.names,
        seats=chosen_seats,
        decisions=tuple(decisions),
        hands=tuple(hands),
        totals=tuple(totals[s] for s in chosen_seats),
        result=state.result,
        scores=tuple(state.scores),
        seed=game.seed,
    )


def _close(hand: _Hand, state: GameState, seats: Sequence[int], finished: bool = True) -> HandReview:
    result = state.result
    if not hand.win or not finished:
        end = None
    elif result is not None:
        end = tuple(1.0 if side == result.winner else 0.0 for side in range(state.rules.sides))
    else:
        end = _chances(state)
    return HandReview(
        hand=hand.number,
        dealer=hand.dealer,
        scores_start=hand.scores,
        scores_end=tuple(state.scores),
        win_start=hand.win,
        win_end=end,
        totals=tuple(hand.totals.get(seat, SeatTotals(seat)) for seat in seats),
    )


def _chances(state: GameState) -> tuple[float, ...] | None:
    """Each side's chance of winning from the state's scores as its dealer deals (two sides
    with a win table only: two players, lowball included, or four in partnerships)."""
    rules = state.rules
    table = win_table(rules)
    dealer = state.dealer
    if table is None or dealer is None or rules.sides != 2:
        return None
    side = state.rules.side_of(dealer)
    mine, theirs = state.scores[side], state.scores[1 - side]
    chance = table.chance(mine, theirs, dealing=True)
    return (chance, 1.0 - chance) if side == 0 else (1.0 - chance, chance)


def _judge(view: SeatView, action: Action, hand: int) -> list[Decision]:
    """The decisions in ``action`` of ``view``'s seat, judged (none when it had no choice).

    A card played with its points stated (muggins in the play) is two decisions: the card (when
    there was a choice) and the count of its points.
    """
    if isinstance(action, Discard):
        return [_judge_discard(view, action, hand)]
    if isinstance(action, Play):
        judged = _judge_play(view, action, hand)
        if action.claim is not None:
            judged.append(_judge_claim(view, action, hand))
        return judged
    if isinstance(action, Count):
        return [_judge_count(view, action, hand)]
    if isinstance(action, (Muggins, Pass)):
        return [_judge_muggins(view, action, hand)]
    return []


def _judge_discard(view: SeatView, action: Discard, hand: int) -> Decision:
    options = keep_advice(view)
    thrown = set(action.cards)
    index = next(i for i, o in enumerate(options) if set(o.discard) == thrown)
    chosen, best = options[index], options[0]
    if best.win is not None and chosen.win is not None:
        loss, unit = best.win - chosen.win, Unit.WIN
    else:
        loss, unit = best.total - chosen.total, Unit.POINTS
    loss = max(0.0, loss)
    return Decision(
        hand, view.seat, DecisionKind.DISCARD, chosen, best, loss, unit, grade(loss, unit), view,
        rank=index + 1, options=len(options),
    )  # fmt: skip


def _judge_play(view: SeatView, action: Play, hand: int) -> list[Decision]:
    cards = {a.card for a in view.legal if isinstance(a, Play)}
    if len({c.rank for c in cards}) < 2:
        return []  # no real choice: cards of one rank play alike
    options = play_advice(view)
    index = next(i for i, o in enumerate(options) if o.card == action.card)
    chosen, best = options[index], options[0]
    if best.win is not None and chosen.win is not None:
        loss, unit = best.win - chosen.win, Unit.WIN
    else:
        loss, unit = best.value - chosen.value, Unit.POINTS
    loss = max(0.0, loss)
    return [
        Decision(
            hand, view.seat, DecisionKind.PLAY, chosen, best, loss, unit, grade(loss, unit), view,
            rank=index + 1, options=len(options),
        )
    ]  # fmt: skip


def _judge_claim(view: SeatView, action: Play, hand: int) -> Decision:
    """The points stated for a card played, with muggins in the play."""
    sequence = (*view.sequence, action.card)
    true = play_points(sequence, view.count + action.card.value)
    return _count_decision(view, hand, "play", action.claim or 0, true)


def _judge_count(view: SeatView, action: Count, hand: int) -> Decision:
    turn, combos = show_turn(view), show_count(view)
    assert turn is not None and combos is not None
    return _count_decision(view, hand, turn[1], action.points, sum(c.points for c in combos))


def _count_decision(view: SeatView, hand: int, what: str, stated: int, true: int) -> Decision:
    rules = view.rules
    loss = float(max(0, true - stated))
    if rules.overcount_penalty:
        loss += max(0, stated - true)
    return Decision(
        hand, view.seat, DecisionKind.COUNT, CountChoice(stated), CountChoice(true), loss, Unit.POINTS,
        grade(loss, Unit.POINTS), view, what=what, penalty=rules.overcount_penalty,
    )  # fmt: skip


def _judge_muggins(view: SeatView, action: Muggins | Pass, hand: int) -> Decision:
    assert view.claim is not None
    missed = missed_points(view)
    called = action.points if isinstance(action, Muggins) else 0
    if missed:
        taken = min(called, missed)
        loss = float(missed - taken)
    else:
        taken, loss = 0, float(called)  # a wrong call gives the points called to the counter
    return Decision(
        hand, view.seat, DecisionKind.COUNT, CountChoice(called), CountChoice(missed), loss, Unit.POINTS,
        grade(loss, Unit.POINTS), view, what="muggins", taken=taken, counter=view.claim[0],
    )  # fmt: skip
