"""The application's result types (cribbage.app.games.results) and the web's answer models
(cribbage.web.answers) state the same shapes: each typed dict has exactly its model's keys, and
the same of them always sent (a model's field without a default is a required key)."""

from __future__ import annotations

from typing import Any, is_typeddict

import pytest
from pydantic import BaseModel

from cribbage.app.games import results
from cribbage.app.games.state import STATE_KEYS
from cribbage.web.answers.games import HintAnswer, Invite, SeatInfo, StateAnswer, TurnClock, WatchAnswer
from cribbage.web.answers.tables import (
    InvitationAnswer,
    JoinAnswer,
    LeaveAnswer,
    LobbyAnswer,
    LobbyTable,
    NewGameAnswer,
    RematchAnswer,
    SeenAnswer,
    TableOptions,
    WatchLinkAnswer,
)

PAIRS: list[tuple[Any, type[BaseModel]]] = [
    (results.CreatedGame, NewGameAnswer),
    (results.JoinedSeat, JoinAnswer),
    (results.LeftSeat, LeaveAnswer),
    (results.Rematched, RematchAnswer),
    (results.SeenClock, SeenAnswer),
    (results.WatchLink, WatchLinkAnswer),
    (results.LobbyTables, LobbyAnswer),
    (results.ListedTable, LobbyTable),
    (results.Invitation, InvitationAnswer),
    (results.TableCounting, TableOptions),
    (results.SeatShown, SeatInfo),
    (results.SeatInvite, Invite),
    (results.RunningClock, TurnClock),
    (results.Advice, HintAnswer),
]


def required(model: type[BaseModel]) -> set[str]:
    return {name for name, field in model.model_fields.items() if field.is_required()}


@pytest.mark.parametrize(("typed", "model"), PAIRS, ids=[model.__name__ for _typed, model in PAIRS])
def test_a_result_has_its_answer_models_keys(typed: Any, model: type[BaseModel]) -> None:
    assert is_typeddict(typed)
    assert set(typed.__annotations__) | set(typed.__required_keys__) == set(model.model_fields)
    assert typed.__required_keys__ == required(model)


def test_a_state_is_a_seats_or_a_spectators() -> None:
    state = results.State
    assert list(state.__annotations__) == list(STATE_KEYS)
    assert set(state.__annotations__) == set(StateAnswer.model_fields) | set(WatchAnswer.model_fields)
    assert state.__required_keys__ == required(StateAnswer) & required(WatchAnswer)
    assert state.__optional_keys__ == {"spectator", "rematch_watch"}
