"""The trainers: a discard drill and a play drill, each judged by the computer's own advice.

Both drills are pure functions of a seed, so an answer can be recomputed from the seed alone
(the web API is stateless) and a session can be replayed:

* **the discard drill** (:func:`discard_deal`, :func:`judge_discard`): a random deal for a
  variant, as dealer or pone, optionally at given scores.  The player's throw is judged against
  every keep ranked by :func:`cribbage.ai.discard_options` (the same ranking as
  ``cribbage hint discard``): the parts of each keep, the rank of the one chosen and the *loss*,
  what the choice gave away (the best keep's total less the chosen one's, in points; or, near the
  end of a game of two sides where the keeps are ranked by the chance of winning, the chance lost).
* **the play drill** (:func:`play_position`, :func:`judge_play`): a position from a real game,
  played by two ``normal`` computer players through the one driver
  (:class:`~cribbage.table.table.Table`); it is one seat's view at one of its decisions with more
  than one distinct card to choose from (never the opponent's hidden cards).  The player's card is
  judged against every legal card valued by :func:`cribbage.ai.play_options` with the seed of the
  hints (:data:`PLAY_SEED`), so the values are those of ``hint play`` and the same every time.

A :class:`TrainingScore` keeps the running score of a session as an immutable value.  Nothing here does
I/O or makes words: errors are :class:`TrainError` with a code and its values, and every value
has a ``to_json``.

>>> deal = discard_deal(7)
>>> answer = judge_discard(deal, discard_best(deal))
>>> answer.loss, answer.is_best, len(answer.options)
(0.0, True, 15)
>>> TrainingScore().add(answer).best_share
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, Literal

from ..ai.discard import KeepOption, discard_options
from ..ai.pegging import PlayOption, play_options
from ..engine.actions import Action, Play
from ..engine.cards import DECK, Card, format_cards
from ..engine.errors import CribbageError
from ..engine.record import Game
from ..engine.rules import VARIANTS, Rules, get_rules
from ..engine.view import Phase, SeatView
from ..players import make_player
from ..table.seating import seat_seed
from ..table.table import Table

__all__ = [
    "PLAY_LEVEL",
    "PLAY_SEED",
    "PLAY_VARIANTS",
    "SEED_LIMIT",
    "DiscardAnswer",
    "DiscardDeal",
    "PlayAnswer",
    "PlayPosition",
    "TrainError",
    "TrainingScore",
    "discard_best",
    "discard_deal",
    "drill_seeds",
    "judge_discard",
    "judge_play",
    "play_position",
]

SEED_LIMIT: Final = 2**53
"""Seeds are below this (integers a browser's JSON keeps exactly)."""
PLAY_SEED: Final = 0
"""The seed of the play values: the one ``cribbage hint play`` and the game's hints use."""
PLAY_LEVEL: Final = "normal"
"""The computer players whose games give the play drill's positions."""
BEST_MARGIN: Final = 1e-9
"""A choice within this of the best is a best choice (ties, and cards of the same rank)."""

RankedBy = Literal["total", "value", "win"]


class TrainError(CribbageError):
    """A drill's input is wrong: ``code`` says how (with ``values``), the message in English.

    Codes: ``bad_seed``, ``bad_scores``, ``bad_variant``, ``throw_count``, ``card_not_held``,
    ``card_twice``, ``card_not_playable``.
    """

    def __init__(self, message: str, code: str, **values: Any) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def _check_seed(seed: object) -> int:
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise TrainError(
            f"the seed must be a whole number from 0 to {SEED_LIMIT - 1}, not {seed!r}", "bad_seed"
        )
    return seed


def drill_seeds(seed: int) -> random.Random:
    """The generator of a session's drill seeds (``randrange(SEED_LIMIT)`` for each drill)."""
    return random.Random(f"train-session:{_check_seed(seed)}")


# --------------------------------------------------------------------------- the discard drill


@dataclass(frozen=True, slots=True)
class DiscardDeal:
    """A discard drill: the dealt hand, whose crib it is and the scores, all from :attr:`seed`."""

    seed: int
    rules: Rules
    hand: tuple[Card, ...]
    dealer: bool
    """Whether the crib is the player's (the player deals)."""
    scores: tuple[int, int] | None = None
    """(the player's score, the opponent's), when the drill is played at a score."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "variant": self.rules.name,
            "hand": [str(c) for c in self.hand],
            "side": "dealer" if self.dealer else "pone",
            "dealer": self.dealer,
            "scores": None if self.scores is None else list(self.scores),
            "target": self.rules.target,
            "discard": self.rules.discard,
            "lowball": self.rules.lowball,
        }


def discard_deal(
    seed: int,
    rules: Rules | None = None,
    dealer: bool | None = None,
    scores: Sequence[int] | None = None,
) -> DiscardDeal:
    """The deal of the discard drill ``seed``: the same hand for the same seed and variant.

    Args:
        seed: 0 to :data:`SEED_LIMIT` - 1.
        rules: the variant (standard by default).
        dealer: whether the player deals (owns the crib); ``None``: drawn from the seed.
        scores: (the player's, the opponent's) for a game of two sides, each below the target.

    Raises:
        TrainError: for a bad seed or bad scores.
    """
    rules = rules or get_rules()
    seed = _check_seed(seed)
    checked = _check_scores(scores, rules)
    rng = random.Random(f"train-discard:{seed}")
    hand = tuple(sorted(rng.sample(DECK, rules.deal)))
    side = rng.random() < 0.5
    return DiscardDeal(seed, rules, hand, side if dealer is None else bool(dealer), checked)


def _check_scores(scores: Sequence[int] | None, rules: Rules) -> tuple[int, int] | None:
    if scores is None:
        return None
    values = list(scores)
    if rules.sides != 2:
        raise TrainError(f"scores are for games of two sides, not {rules.name!r}", "bad_scores")
    if len(values) != 2 or any(type(s) is not int or not 0 <= s < rules.target for s in values):
        raise TrainError(
            f"scores are two whole numbers from 0 to {rules.target - 1} (yours, the opponent's), "
            f"not {values!r}",
            "bad_scores",
            target=rules.target,
        )
    return values[0], values[1]


@dataclass(frozen=True, slots=True)
class DiscardAnswer:
    """A throw judged: every keep best first, which one was chosen, and what it gave away."""

    deal: DiscardDeal
    options: tuple[KeepOption, ...]
    chosen: int
    """The index in :attr:`options` of the keep chosen."""
    loss: float
    """The best keep's total less the chosen one's (>= 0); the chance of winning lost when
    :attr:`ranked_by` is ``"win"``."""

    @property
    def ranked_by(self) -> RankedBy:
        return "win" if self.options[0].win is not None else "total"

    @property
    def is_best(self) -> bool:
        return self.loss <= BEST_MARGIN

    def to_json(self) -> dict[str, Any]:
        """The deal, ``ranked_by``, ``options`` (best first, as ``hint discard --json`` gives
        them), ``chosen`` (an index in ``options``), ``loss`` and ``best``."""
        return {
            "deal": self.deal.to_json(),
            "ranked_by": self.ranked_by,
            "options": [o.to_json() for o in self.options],
            "chosen": self.chosen,
            "loss": round(self.loss, 4),
            "best": self.is_best,
        }


def judge_discard(deal: DiscardDeal, throw: Sequence[Card]) -> DiscardAnswer:
    """Judge the cards thrown from ``deal``.

    Raises:
        TrainError: for the wrong number of cards, a card given twice or one not in the hand.
    """
    rules = deal.rules
    thrown = list(throw)
    if len(thrown) != rules.discard:
        raise TrainError(
            f"throw {rules.discard} card{'s' if rules.discard > 1 else ''}, not {len(thrown)}",
            "throw_count",
            wanted=rules.discard,
            count=len(thrown),
        )
    for i, card in enumerate(thrown):
        if card not in deal.hand:
            raise TrainError(
                f"{card} is not in the hand {format_cards(deal.hand)}", "card_not_held", card=str(card)
            )
        if card in thrown[:i]:
            raise TrainError(f"{card} is thrown twice", "card_twice", card=str(card))
    options = tuple(discard_options(deal.hand, deal.dealer, rules, deal.scores))
    wanted = set(thrown)
    chosen = next(i for i, o in enumerate(options) if set(o.discard) == wanted)
    return DiscardAnswer(deal, options, chosen, _loss(options[0], options[chosen]))


def discard_best(deal: DiscardDeal) -> tuple[Card, ...]:
    """The best throw of ``deal``: the first option of ``hint discard``."""
    return discard_options(deal.hand, deal.dealer, deal.rules, deal.scores)[0].discard


def _loss(best: KeepOption | PlayOption, chosen: KeepOption | PlayOption) -> float:
    if best.win is not None and chosen.win is not None:
        return max(0.0, best.win - chosen.win)
    high = best.total if isinstance(best, KeepOption) else best.value
    low = chosen.total if isinstance(chosen, KeepOption) else chosen.value
    return max(0.0, high - low)


# --------------------------------------------------------------------------- the play drill


class _Recorder:
    """A computer player whose views are kept at every play with a real choice."""

    def __init__(self, name: str, seed: int, views: list[SeatView]) -> None:
        self.player = make_player(name, seed)
        self.views = views

    def choose(self, view: SeatView) -> Action:
        if view.phase is Phase.PLAY and len({a.card.rank for a in view.legal if isinstance(a, Play)}) > 1:
            self.views.append(view)
        return self.player.choose(view)

    def observe(self, view: SeatView) -> None:
        observe = getattr(self.player, "observe", None)
        if callable(observe):
            observe(view)


def _positions(seed: int, rules: Rules) -> tuple[Game, list[SeatView]]:
    """The game of seed ``seed`` between two :data:`PLAY_LEVEL` players, and every view of a
    seat at a play with more than one distinct card to choose from, in the order of the game."""
    views: list[SeatView] = []
    players = [_Recorder(PLAY_LEVEL, seat_seed(seed, s), views) for s in range(rules.players)]
    game = Game(rules, seed=seed)
    Table(game, players).run()
    return game, views


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """A play drill: one seat's view at a decision of a real game (:func:`play_position`)."""

    seed: int
    view: SeatView
    """What the seat knew: its cards, the count, the cards played, the scores, its own discards."""

    @property
    def rules(self) -> Rules:
        return self.view.rules

    def legal(self) -> tuple[Card, ...]:
        """The cards that may be played, in card order."""
        return tuple(sorted({a.card for a in self.view.legal if isinstance(a, Play)}))

    def to_json(self) -> dict[str, Any]:
        """What the seat knows (never another seat's cards): ``seat``, ``dealer`` (a seat),
        ``starter``, ``scores`` (by side), ``hand``, ``kept`` and ``discards`` (its own),
        ``sequence`` and ``count``, ``played`` (``[{"seat", "card"}]`` this hand), ``held`` (cards
        each seat holds), ``hand_number``, ``legal`` (the cards that may be played)."""
        v = self.view
        return {
            "seed": self.seed,
            "variant": v.rules.name,
            "target": v.rules.target,
            "lowball": v.rules.lowball,
            "seat": v.seat,
            "dealer": v.dealer,
            "starter": None if v.starter is None else str(v.starter),
            "scores": list(v.scores),
            "hand": [str(c) for c in v.hand],
            "kept": [str(c) for c in v.kept],
            "discards": [str(c) for c in v.discards],
            "sequence": [str(c) for c in v.sequence],
            "count": v.count,
            "played": [{"seat": s, "card": str(c)} for s, c in v.played],
            "held": list(v.held),
            "hand_number": v.hand_number,
            "legal": [str(c) for c in self.legal()],
        }


def _play_drill_fits(rules: Rules) -> bool:
    """Two players, and not lowball: near its end a lowball play's values weigh the wins in with
    the points (as :data:`cribbage.ai.search.WIN` each), so a loss in them would not be points."""
    return rules.players == 2 and not rules.lowball


PLAY_VARIANTS: Final = tuple(name for name, rules in VARIANTS.items() if _play_drill_fits(rules))
"""The variants of the play drill."""


@lru_cache(maxsize=256)
def play_position(seed: int, rules: Rules | None = None) -> PlayPosition:
    """The position of the play drill ``seed``: a game seeded with it is played by two
    :data:`PLAY_LEVEL` computers, and one of its decisions with a real choice is drawn.

    The last positions are kept (they are values): the answer to a drill just dealt finds its
    position again without replaying the game.

    Raises:
        TrainError: for a bad seed, or a variant not in :data:`PLAY_VARIANTS`.
    """
    rules = rules or get_rules()
    seed = _check_seed(seed)
    if not _play_drill_fits(rules):
        raise TrainError(
            f"the play drill is for two-player variants other than lowball, not {rules.name!r}",
            "bad_variant",
            variant=rules.name,
        )
    views = _positions(seed, rules)[1]
    rng = random.Random(f"train-play:{seed}")
    return PlayPosition(seed, rng.choice(views))


@dataclass(frozen=True, slots=True)
class PlayAnswer:
    """A card judged: every legal card best first with its value, and what the choice gave away."""

    position: PlayPosition
    options: tuple[PlayOption, ...]
    chosen: int
    """The index in :attr:`options` of the card played."""
    loss: float
    """The best card's value less the chosen one's (>= 0), in points; the chance of winning lost
    when :attr:`ranked_by` is ``"win"``."""

    @property
    def ranked_by(self) -> RankedBy:
        return "win" if self.options[0].win is not None else "value"

    @property
    def is_best(self) -> bool:
        return self.loss <= BEST_MARGIN

    def to_json(self) -> dict[str, Any]:
        """The position, ``ranked_by``, ``options`` (best first, as ``hint play --json`` gives
        them), ``chosen``, ``loss`` and ``best``."""
        return {
            "position": self.position.to_json(),
            "ranked_by": self.ranked_by,
            "options": [o.to_json() for o in self.options],
            "chosen": self.chosen,
            "loss": round(self.loss, 4),
            "best": self.is_best,
        }


def judge_play(position: PlayPosition, card: Card) -> PlayAnswer:
    """Judge ``card`` played in ``position``.

    Raises:
        TrainError: for a card not in the hand, or one that would pass 31.
    """
    view = position.view
    if card not in view.hand:
        raise TrainError(
            f"{card} is not in the hand {format_cards(view.hand)}", "card_not_held", card=str(card)
        )
    if card not in position.legal():
        raise TrainError(
            f"{card} cannot be played on a count of {view.count}",
            "card_not_playable",
            card=str(card),
            count=view.count,
        )
    options = tuple(play_options(view, seed=PLAY_SEED))
    # Cards of one rank are worth the same: the option of that rank stands for the card.
    chosen = next(i for i, o in enumerate(options) if o.card == card)
    return PlayAnswer(position, options, chosen, _loss(options[0], options[chosen]))


# --------------------------------------------------------------------------- the tally


@dataclass(frozen=True, slots=True)
class TrainingScore:
    """The running score of a session: decisions, best choices, and the losses.

    Losses in points and in the chance of winning are kept apart (a decision ranked by the chance
    of winning adds to :attr:`win_loss`).

    >>> tally = TrainingScore().add_loss(0.0).add_loss(1.5).add_loss(0.25, win=True)
    >>> tally.decisions, tally.best, tally.average_loss, tally.average_win_loss
    (3, 1, 0.75, 0.25)
    """

    decisions: int = 0
    best: int = 0
    point_decisions: int = 0
    points_lost: float = 0.0
    win_decisions: int = 0
    win_lost: float = 0.0
    history: tuple[float, ...] = field(default=(), repr=False)
    """Each decision's loss, in order."""

    def add(self, answer: DiscardAnswer | PlayAnswer) -> TrainingScore:
        """The tally with ``answer`` counted."""
        return self.add_loss(answer.loss, win=answer.ranked_by == "win")

    def add_loss(self, loss: float, *, win: bool = False) -> TrainingScore:
        """The tally with one more decision that lost ``loss`` (>= 0)."""
        if not loss >= 0:
            raise TrainError(f"a loss is never below 0, not {loss!r}", "bad_loss")
        best = self.best + (loss <= BEST_MARGIN)
        history = (*self.history, loss)
        if win:
            return TrainingScore(
                self.decisions + 1,
                best,
                self.point_decisions,
                self.points_lost,
                self.win_decisions + 1,
                self.win_lost + loss,
                history,
            )
        return TrainingScore(
            self.decisions + 1,
            best,
            self.point_decisions + 1,
            self.points_lost + loss,
            self.win_decisions,
            self.win_lost,
            history,
        )

    @property
    def best_share(self) -> float | None:
        """The share of best choices (``None`` before the first decision)."""
        return self.best / self.decisions if self.decisions else None

    @property
    def average_loss(self) -> float | None:
        """The average points lost per decision ranked by points (``None`` if there was none)."""
        return self.points_lost / self.point_decisions if self.point_decisions else None

    @property
    def average_win_loss(self) -> float | None:
        """The average chance of winning lost per decision ranked by it (``None`` if none)."""
        return self.win_lost / self.win_decisions if self.win_decisions else None

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "best": self.best,
            "best_share": self.best_share,
            "average_loss": self.average_loss,
            "average_win_loss": self.average_win_loss,
        }
