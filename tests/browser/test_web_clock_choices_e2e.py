"""The turn clocks the page offers (issue 42, item 10): besides the live ones, the usual choices of
a correspondence game, hours to days per move (1 and 8 hours, 1, 2, 3 and 7 days), each one the
server takes (``cribbage.app.games.options.CLOCKS``) and worded in the page's language; a table made
with a week per move shows it to the person invited.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.app.games.options import CLOCKS, CORRESPONDENCE
from e2e_helpers import running_server, state
from test_web_tables_e2e import Person

HOUR, DAY = 3600, 86400
CHOICES = [30, 60, 120, HOUR, 8 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("clocks") / "games.db") as base:
        yield base


def choices(page: Any) -> list[tuple[str, str]]:
    """The clock's options: their values and labels."""
    return [
        (str(value), str(label))
        for value, label in page.eval_on_selector_all(
            "#opt-clock option", "els => els.map((e) => [e.value, e.textContent])"
        )
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["1 hour", "8 hours", "1 day", "2 days", "3 days", "7 days"]),
        ("ja", ["1時間", "8時間", "1日", "2日", "3日", "7日"]),
        ("ru", ["1 час", "8 часов", "1 день", "2 дня", "3 дня", "7 дней"]),
    ],
)
def test_the_options_offer_correspondence_clocks_from_an_hour_to_a_week(
    browser: Any, server: str, lang: str, words: list[str]
) -> None:
    person = Person(browser)
    try:
        page = person.page
        page.goto(f"{server}/?lang={lang}&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        page.click("#btn-new")
        offered = choices(page)
        assert offered[0][0] == ""  # no clock
        assert [int(value) for value, _ in offered[1:]] == CHOICES
        assert all(CLOCKS[0] <= seconds <= CLOCKS[1] for seconds in CHOICES)  # the server takes each
        correspondence = [label for value, label in offered[1:] if int(value) >= CORRESPONDENCE]
        assert correspondence == words
    finally:
        person.close()


def test_a_table_with_a_week_per_move_says_so_to_the_person_invited(browser: Any, server: str) -> None:
    aiko, boris = Person(browser), Person(browser)
    try:
        page = aiko.page
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        page.click("#btn-new")
        page.select_option("#opt-seat-1", "human")
        page.fill("#opt-name", "Aiko")
        page.select_option("#opt-clock", str(7 * DAY))
        page.click("#opt-start")
        link = page.input_value(".invite-link")
        assert state(page)["options"]["clock"] == 7 * DAY

        other = boris.page
        other.goto(link + "?lang=en&speed=instant")
        other.wait_for_selector("#join-dialog[open] .join-info")
        assert "7 d per turn" in other.inner_text(".join-info")
    finally:
        aiko.close()
        boris.close()
