"""What happens in a game: each :class:`Event` (its :class:`Kind`, the :class:`Source` of its
points) and how a finished game ended (:class:`GameResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, Final

from .cards import Card
from .scoring import GO, LAST_CARD, Combo

__all__ = ["SOURCES", "Event", "GameResult", "Kind", "Source"]


class Kind(StrEnum):
    """What an :class:`Event` is.  The value is the event's ``kind`` in JSON.

    The fields each kind sets (``seat`` and ``side`` are the seat concerned and its side):

    * ``CUT``: ``cards`` cut for deal, one per seat; ``seat`` deals first.
    * ``RECUT``: ``cards`` cut for deal with a tie for the deal: cut again.
    * ``DEAL``: a hand is dealt; ``seat`` deals.
    * ``DISCARD``: ``seat`` has thrown to the crib (the cards stay hidden).
    * ``STARTER``: ``cards`` is the starter.
    * ``PLAY``: ``seat`` plays ``cards`` (one card); ``count`` is the count after it.
    * ``SCORE``: ``points`` pegged by ``seat`` outside the show: ``detail`` is ``"play"`` (the card
      just played: ``combos``, ``count``, and ``claim`` when the points were stated), ``"go"``,
      ``"last card"``, ``"his heels"`` or ``"three for last"`` (the five-card first-hand bonus).
    * ``GO``: ``seat`` cannot play at ``count``.
    * ``RESET``: the count goes back to 0; ``detail`` ``"end of play"`` when the play is over.
    * ``SHOW``: ``seat`` counts ``cards`` with the starter; ``detail`` ``"hand"`` or ``"crib"``,
      ``points`` pegged (zero included), ``combos`` and, with manual counting, the ``claim``.
    * ``MUGGINS``: ``seat`` takes ``points`` that a count missed; ``detail`` ``"play"`` or ``"show"``.
    * ``PENALTY``: ``seat`` is given ``points``: a wrong muggins call (``detail`` ``"play"`` or
      ``"show"``) or the excess of an over-count (``"over-count"``).
    * ``PASS``: ``seat`` lets a count stand.
    * ``HAND_OVER``: the hand dealt by ``seat`` is over (its show is counted).
    * ``WIN``: ``side`` wins; ``detail`` ``"skunk"`` or ``"double skunk"`` when it applies.
    """

    CUT = "cut"
    RECUT = "recut"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SCORE = "score"
    GO = "go"
    RESET = "reset"
    SHOW = "show"
    MUGGINS = "muggins"
    PENALTY = "penalty"
    PASS = "pass"
    HAND_OVER = "hand over"
    WIN = "win"


class Source(IntEnum):
    """Where points come from (the one classification, :attr:`Event.source`).

    ``PEGGING``: the play (fifteens, pairs, runs, thirty-one, go, last card); ``HAND`` and
    ``CRIB``: the show; ``OTHER``: his heels, the five-card first-hand bonus, muggins and
    penalties.  Values index per-source tallies; :attr:`label` is the name used in JSON.
    """

    PEGGING = 0
    HAND = 1
    CRIB = 2
    OTHER = 3

    @property
    def label(self) -> str:
        return self.name.lower()


SOURCES: Final = tuple(source.label for source in Source)
"""The names of the sources in :class:`Source` order: pegging, hand, crib, other."""

_PEGGING_DETAILS: Final = frozenset({"play", GO, LAST_CARD})


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened.  ``points`` go to the side of ``seat`` (``side``).

    ``kind`` says what (see :class:`Kind` for the fields each kind sets).
    """

    kind: Kind
    seat: int | None = None
    side: int | None = None
    points: int = 0
    cards: tuple[Card, ...] = ()
    combos: tuple[Combo, ...] = ()
    count: int | None = None
    detail: str = ""
    claim: int | None = None

    @property
    def source(self) -> Source | None:
        """Where the event's points come from (None when it scores nothing)."""
        if not self.points:
            return None
        kind = self.kind
        if kind is Kind.SHOW:
            return Source.CRIB if self.detail == "crib" else Source.HAND
        if kind is Kind.SCORE and self.detail in _PEGGING_DETAILS:
            return Source.PEGGING
        return Source.OTHER

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value}
        for name in ("seat", "side", "count", "claim"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.points:
            data["points"] = self.points
        if self.cards:
            data["cards"] = [str(c) for c in self.cards]
        if self.combos:
            data["combos"] = [c.to_json() for c in self.combos]
        if self.detail:
            data["detail"] = self.detail
        return data


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended."""

    winner: int
    """The winning side."""
    loser: int
    """The side that lost (in lowball: the side that reached the target)."""
    scores: tuple[int, ...]
    skunk: int
    """0, 1 (skunk) or 2 (double skunk)."""
    game_points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "loser": self.loser,
            "scores": list(self.scores),
            "skunk": self.skunk,
            "game_points": self.game_points,
        }


RESET: Final = Event(Kind.RESET)
END_OF_PLAY: Final = Event(Kind.RESET, detail="end of play")
"""The events that never vary, made once (events are immutable values)."""
