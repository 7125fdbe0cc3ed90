"""The series of a match of "Play now" (cribbage.app.games.series): the score after a game, the next
game's series, the end of the match, partners winning together, and first_to's bounds."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cribbage.app.errors import AppError
from cribbage.app.games.options import Options
from cribbage.app.games.series import Series, check_first_to
from cribbage.engine.rules import get_rules


def won_by(side: int) -> object:
    return SimpleNamespace(winner=side)


def test_a_best_of_3_goes_on_until_a_seat_has_two_wins() -> None:
    rules = get_rules("short")
    first = Series.first(2, 2)
    assert first == Series(2, 1, (0, 0))
    assert first.wins_after(rules, None) == (0, 0)  # not over (or forfeited): nothing counted
    second = first.next(rules, won_by(1))  # type: ignore[arg-type]
    assert second == Series(2, 2, (0, 1))
    third = second.next(rules, won_by(0))  # type: ignore[arg-type]
    assert third == Series(2, 3, (1, 1))
    assert third.next(rules, won_by(0)) is None  # type: ignore[arg-type]
    assert third.view(rules, won_by(0)) == {  # type: ignore[arg-type]
        "first_to": 2, "number": 3, "wins": [2, 1], "over": True, "winner": 0,
    }  # fmt: skip
    assert third.view(rules, None)["over"] is False and third.view(rules, None)["winner"] is None


def test_partners_win_together_and_three_players_each_alone() -> None:
    partners = Series.first(2, 4)
    after = partners.wins_after(get_rules("four-player"), won_by(1))  # type: ignore[arg-type]
    assert after == (0, 1, 0, 1)
    view = Series(2, 2, after).view(get_rules("four-player"), won_by(1))  # type: ignore[arg-type]
    assert view["over"] and view["winner"] == 1
    three = Series.first(3, 3).wins_after(get_rules("three-player"), won_by(2))  # type: ignore[arg-type]
    assert three == (0, 0, 1)


def test_the_series_round_trips_through_the_stored_options_and_is_not_shown_as_an_option() -> None:
    options = Options(variant="short", match=Series(3, 2, (1, 0)))
    from dataclasses import asdict

    stored = {**asdict(options), "names": list(options.names)}
    assert stored["match"] == {"first_to": 3, "number": 2, "wins": (1, 0)}
    assert Options.from_json(stored) == options
    assert "match" not in options.to_json(options.rules())
    assert Options.from_json({**stored, "match": None}).match is None


@pytest.mark.parametrize("bad", [0, 6, -1, "2", 2.0, True, None])
def test_first_to_is_a_whole_number_from_1_to_5(bad: object) -> None:
    assert [check_first_to(n) for n in range(1, 6)] == [1, 2, 3, 4, 5]
    with pytest.raises(AppError) as refused:
        check_first_to(bad)
    assert refused.value.code == "play.bad_first_to" and refused.value.to_json()["high"] == 5
