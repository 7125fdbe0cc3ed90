"""What a director creates a tournament with (``POST /api/tournaments``, docs/api.md,
"Tournaments"): :class:`TournamentSettings`, read from JSON and checked here; a bad value is an
:class:`~cribbage.app.errors.AppError` ``invalid`` naming the ``field``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Final

from ...engine.errors import CribbageError
from ...engine.rules import VARIANTS, get_rules
from ...tournament import PlayoffFormat, QualifyingScoring
from ...tournament.event import PAIRINGS, EventFormat
from ..errors import AppError
from ..games.options import CLOCKS
from ..people.names import check_name

__all__ = ["ENTRY_LIMITS", "GAMES", "VENUES", "TournamentSettings"]

GAMES: Final = (1, 22)
"""The qualifying games a director may choose: 1 to 22 (the ACC's main events play 12 to 22,
its consolations 7 to 12, a club night 9)."""

CONSOLATION: Final = (0, 12)
"""The consolation's games: 0 (none) to 12."""

ENTRY_LIMITS: Final = (2, 1024)
"""The most entrants a director may allow: 2 to 1,024."""

VENUES: Final = ("online", "club")
"""Where the games are played: at the server's tables, or at a club's real boards (results entered)."""

BEST_OF: Final = (0, 3, 5)
"""The playoff matches' length: 0 (no playoffs: the qualifying's standings are the result), best
of 3 or best of 5."""


TWO_SIDED: Final = tuple(v for v, r in VARIANTS.items() if r.sides == 2 and not r.lowball)
"""The variants a tournament plays: two sides, the higher score winning (game points and spread
are counted so): two players, or two partnerships (``four-player``: a team event, each entrant
a team of two)."""


def _int(data: dict[str, Any], name: str, default: int | None, low: int, high: int) -> int | None:
    value = data.get(name, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AppError(
            "invalid", f"{name} is a whole number from {low} to {high}", field=name, low=low, high=high
        )
    return value


def _choice(data: dict[str, Any], name: str, choices: tuple[Any, ...]) -> Any:
    value = data.get(name, choices[0])
    if value not in choices or isinstance(value, bool):
        raise AppError("invalid", f"{name} is one of {', '.join(map(str, choices))}", field=name)
    return value


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A tournament's settings (docs/tournaments.md, "Online and at the club")."""

    name: str
    variant: str = "standard"
    games: int = 9
    pairing: str = "rotation"
    best_of: int = 3
    longer_from: int | None = None
    consolation: int = 0
    clock: int | None = None
    starts: str | None = None
    limit: int = 64
    rated: bool = False
    venue: str = "online"

    @classmethod
    def from_json(cls, data: object) -> TournamentSettings:
        """The settings of a request's JSON object (unknown keys refused).

        Raises:
            AppError: ``invalid`` with the ``field`` at fault.
        """
        if not isinstance(data, dict):
            raise AppError("invalid", "the settings are a JSON object", field="settings")
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise AppError("invalid", f"unknown setting {unknown[0]!r}", field=unknown[0])
        name = check_name(data.get("name"), code="invalid", field="name")
        variant = data.get("variant", "standard")
        if variant not in TWO_SIDED:
            two = ", ".join(TWO_SIDED)
            raise AppError("invalid", f"variant is a variant of two sides: {two}", field="variant")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise AppError("invalid", "rated is true or false", field="rated")
        settings = cls(
            name=name,
            variant=variant,
            games=_int(data, "games", 9, *GAMES) or 9,
            pairing=_choice(data, "pairing", PAIRINGS),
            best_of=_choice(data, "best_of", (3, 5, 0)),
            longer_from=_int(data, "longer_from", None, 1, 20),
            consolation=_int(data, "consolation", 0, *CONSOLATION) or 0,
            clock=_int(data, "clock", None, *CLOCKS),
            starts=_starts(data.get("starts")),
            limit=_int(data, "limit", 64, *ENTRY_LIMITS) or 64,
            rated=rated,
            venue=_choice(data, "venue", VENUES),
        )
        if settings.venue == "club" and (settings.rated or settings.clock is not None):
            field = "rated" if settings.rated else "clock"
            raise AppError(
                "invalid", "a club's games at real boards have no clock and are not rated", field=field
            )
        return settings

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def teams(self) -> bool:
        """Whether it is a team event: each entrant a partnership of two, four at a table."""
        return get_rules(self.variant).partnerships

    def target(self) -> int:
        """The points that win a game of the tournament's variant."""
        return get_rules(self.variant).target

    def event_format(self) -> EventFormat:
        """The rules' format of the event: games, pairing, playoffs, consolation, the variant's skunk line."""
        try:
            rules = get_rules(self.variant)
            playoffs = (
                None
                if self.best_of == 0
                else PlayoffFormat(3 if self.best_of == 3 else 5, self.longer_from, 5)
            )
            return EventFormat(
                self.games, self.pairing, playoffs, self.consolation, QualifyingScoring.for_rules(rules)
            )
        except CribbageError as exc:  # settings stored by an older version that no longer hold
            raise AppError("invalid", str(exc), field="settings") from exc


def _starts(value: object) -> str | None:
    """The start time as an ISO 8601 text with its offset (None: the director starts it)."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise AppError("invalid", "starts is an ISO 8601 time with its offset", field="starts")
    return when.isoformat()
