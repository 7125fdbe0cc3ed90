"""A rated private table from the page (docs/ratings.md, "Which games are rated", item 1): a
signed-in creator ticks "Rated game" in the options (sent as ``rated: true``), the lobby and the
invitation show the table as rated, and a signed-in joiner accepts it ("Accept a rated game",
ticked by default): the game asks to be rated (``options.rated``) and nobody declined it (its
``rating`` pending).  Unticked, the table is unrated; a joiner who unticks it, or a guest (told
so, offered no box), plays it unrated (``declined``); seats that cannot be rated are refused in
the page's language.  No game is played: only the tables are made and joined.

One ``cribbage serve`` and one Chromium for the module, as in ``test_web_account_e2e.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import _api, running_server, shot, state
from test_web_account_e2e import sign_up
from test_web_tables_e2e import Person


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = [
        "--limit", "join=200/minute;1000/hour",
        "--limit", "create=200/minute;1000/hour",
        "--limit", "signup=50/minute;200/hour",
    ]  # fmt: skip
    with running_server(tmp_path_factory.mktemp("rated") / "games.db", args=limits) as base:
        yield base


def arrive(browser: Any, server: str, account: str | None, lang: str = "en") -> Person:
    """A person at the page (a game against the computer shown), signed up as ``account`` if given."""
    person = Person(browser)
    person.page.goto(f"{server}/?lang={lang}&speed=instant")
    person.page.wait_for_function("() => window.cribbage?.state")
    if account:
        sign_up(person.page, account)
        person.page.click("#account-close")
    return person


def create(person: Person, variant: str, seats: dict[int, str], *, rated: bool) -> None:
    """The options dialog, a table with people: its "Rated game" box is there (signed in) and
    unticked, even after a rated table (a rated game is asked for each time); ticked if
    ``rated``; then the table is started."""
    page = person.page
    page.click("#btn-new")
    page.select_option("#opt-variant", variant)
    for seat, kind in seats.items():
        page.select_option(f"#opt-seat-{seat}", kind)
    assert page.is_visible("#opt-rated")
    assert not page.is_checked("#opt-rated")
    page.fill("#opt-name", "Aiko")
    page.check("#opt-public")
    if variant == "standard":
        page.select_option("#opt-target", "61")
    page.set_checked("#opt-rated", rated)
    page.click("#opt-start")


def invitation(person: Person) -> tuple[str, str]:
    """The invitation of the table just made: its link and code."""
    person.page.wait_for_selector(".invite-link")
    link = str(person.page.eval_on_selector(".invite-link", "e => e.value"))
    return link, link.rsplit("/", 1)[1]


def open_invitation(person: Person, link: str) -> None:
    person.page.goto(link + "?lang=en&speed=instant")
    person.page.wait_for_selector("#join-dialog[open] #join-table .join-info")


def join(person: Person, server: str, name: str) -> dict[str, Any]:
    """Join from the open dialog: the game as the joiner's seat reads it (GET /api/games/{id})."""
    page = person.page
    before = page.evaluate("() => localStorage.getItem('cribbage.engine.game')")
    page.fill("#join-name", name)
    page.click("#join-submit")
    # The page shows the joined game (not the game against the computer it showed before).
    page.wait_for_function(
        """(before) => {
          const kept = localStorage.getItem('cribbage.engine.game');
          const shown = window.cribbage.state;
          return kept !== before && shown?.id === JSON.parse(kept).id && !window.cribbage.busy;
        }""",
        arg=before,
    )
    game = json.loads(page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))
    return dict(_api(server, "GET", f"/api/games/{game['id']}", token=game["token"]))


def lobby_table(person: Person, code: str) -> Any:
    """The lobby's entry of the table of this invitation, opened from the top bar."""
    page = person.page
    page.click("#btn-lobby")
    page.wait_for_selector(f"#lobby-body .lobby-join[data-code='{code}']")
    return page.query_selector(f".lobby-table:has(.lobby-join[data-code='{code}'])")


def test_a_signed_in_creator_makes_a_rated_table_and_a_signed_in_joiner_accepts_it(
    browser: Any, server: str
) -> None:
    aiko = arrive(browser, server, "Aiko")
    boris = arrive(browser, server, "Boris")
    try:
        create(aiko, "standard", {1: "human"}, rated=True)
        link, code = invitation(aiko)
        assert state(aiko.page)["options"]["rated"] is True

        # The lobby marks the table as rated.
        entry = lobby_table(boris, code)
        assert "rated" in (entry.get_attribute("class") or "").split()
        assert "Rated" in entry.inner_text()
        boris.page.click("#lobby-close")

        # The invitation says so; a signed-in joiner's acceptance is ticked by default.
        open_invitation(boris, link)
        assert boris.page.inner_text("#join-table .join-rated") == "This game is rated"
        assert boris.page.is_checked("#join-rated")
        assert not boris.page.query_selector("#join-rated-guest")
        shot(boris.page, "rated-table-invitation")
        game = join(boris, server, "Boris")
        assert game["options"]["rated"] is True
        assert game["rating"] == "pending"  # asked, accepted by everyone: rated once every seat acts
        aiko.page.wait_for_function("() => !(window.cribbage.state.waiting_for || []).length")
        assert state(aiko.page)["options"]["rated"] is True
    finally:
        aiko.close()
        boris.close()


def test_an_unticked_box_makes_an_unrated_table(browser: Any, server: str) -> None:
    aiko = arrive(browser, server, "Aiko2")
    boris = arrive(browser, server, "Boris2")
    try:
        create(aiko, "standard", {1: "human"}, rated=False)
        link, code = invitation(aiko)
        assert state(aiko.page)["options"]["rated"] is False
        entry = lobby_table(boris, code)
        assert "rated" not in (entry.get_attribute("class") or "").split()
        boris.page.click("#lobby-close")
        open_invitation(boris, link)
        assert not boris.page.query_selector("#join-table .join-rated, #join-rated")
        game = join(boris, server, "Boris")
        assert game["options"]["rated"] is False
        assert game["rating"] is None
    finally:
        aiko.close()
        boris.close()


def test_a_joiner_who_unticks_it_or_a_guest_plays_the_rated_table_unrated(browser: Any, server: str) -> None:
    aiko = arrive(browser, server, "Aiko3")
    boris = arrive(browser, server, "Boris3")
    carla = arrive(browser, server, None)
    try:
        create(aiko, "standard", {1: "human"}, rated=True)
        link, _ = invitation(aiko)
        open_invitation(boris, link)
        boris.page.uncheck("#join-rated")
        game = join(boris, server, "Boris")
        assert (game["options"]["rated"], game["rating"]) == (True, "declined")
        aiko.page.wait_for_function("() => !(window.cribbage.state.waiting_for || []).length")

        # A guest, from the lobby: told the game is rated and that, joined as a guest, it is not.
        create(aiko, "standard", {1: "human"}, rated=True)
        _, code = invitation(aiko)
        lobby_table(carla, code)
        carla.page.click(f".lobby-join[data-code='{code}']")
        carla.page.wait_for_selector("#join-dialog[open] #join-table .join-rated")
        assert carla.page.inner_text("#join-rated-guest").startswith("Sign in to accept it")
        assert not carla.page.query_selector("#join-rated")
        game = join(carla, server, "Carla")
        assert (game["options"]["rated"], game["rating"]) == (True, "declined")
    finally:
        aiko.close()
        boris.close()
        carla.close()


def test_seats_that_cannot_be_rated_are_refused_in_the_page_language(browser: Any, server: str) -> None:
    aiko = arrive(browser, server, "Aiko4", lang="ja")
    try:
        # Three players, a computer at seat 2: a rated table seats only people (422 invalid, field rated).
        create(aiko, "three-player", {1: "", 2: "human"}, rated=True)
        aiko.page.wait_for_selector("#error:not([hidden])")
        assert "レーティング対局にできるのは" in aiko.page.inner_text("#error")
        assert not aiko.page.query_selector(".invite-link")
    finally:
        aiko.close()


def test_a_guest_is_offered_no_rated_table(browser: Any, server: str) -> None:
    dana = arrive(browser, server, None)
    try:
        dana.page.click("#btn-new")
        dana.page.select_option("#opt-seat-1", "human")
        assert dana.page.is_visible("#opt-name")
        assert not dana.page.is_visible("#opt-rated")
    finally:
        dana.close()
