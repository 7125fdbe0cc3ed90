"""Entrants: a player or a partnership, known to these rules only by an id.

The rules deal in ids, never in accounts: a string or an int chosen by the caller (a team of two
is one entrant).  A field is a sequence of distinct ids in entry order, the order that breaks the
last tie of a standing (:mod:`cribbage.tournament.scoring`).

>>> check_entrants(["ann", 7, "ann & bob"])
('ann', 7, 'ann & bob')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from .errors import EntrantError

__all__ = ["EntrantId", "check_entrant", "check_entrants"]

EntrantId: TypeAlias = str | int
"""An entrant's id: a string or an int (not a bool), opaque to these rules."""


def check_entrant(entrant: object) -> EntrantId:
    """``entrant`` if it is a string or an int (a bool is not an id).

    Raises:
        EntrantError: ``invalid``, naming it.
    """
    if isinstance(entrant, bool) or not isinstance(entrant, str | int):
        raise EntrantError(
            f"entrant {entrant!r} is not a string or an int", problem="invalid", entrant=entrant
        )
    return entrant


def check_entrants(entrants: Iterable[object], *, least: int = 0) -> tuple[EntrantId, ...]:
    """The field as a tuple, each id checked (:func:`check_entrant`) and entered once.

    Raises:
        EntrantError: ``invalid`` or ``duplicate`` naming the first bad id; ``count`` when
            there are fewer than ``least``.
    """
    field: list[EntrantId] = []
    seen: set[EntrantId] = set()
    for entrant in entrants:
        checked = check_entrant(entrant)
        if checked in seen:
            raise EntrantError(f"entrant {checked!r} is entered twice", problem="duplicate", entrant=checked)
        seen.add(checked)
        field.append(checked)
    if len(field) < least:
        raise EntrantError(f"{len(field)} entrants, at least {least} needed", problem="count")
    return tuple(field)
