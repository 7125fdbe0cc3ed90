"""The browser page at tables with people (issue 29, items 6, 8, 10, 11 and 12).

Who left, shown while the page holds at "Continue"; one name per seat on every panel; the welcome
offering the lobby, and seat choices kept to their variant; the wording (the dealer, the two
"play again" buttons, the leave question, the join dialog's table, the Russian practice page's
buttons, minus signs); the phone at 390x844 in Japanese and Russian, measured: names on one line
beside the "away" badge, the result's buttons on screen, a spectator's card backs and no hint, the
review's colours and its total column.

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each test's page starts with its storage cleared).  The other
seats of a table are played through the API (their tokens), which is quicker than a second page
and as real for the page under test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import ContextPool, _api, running_server, shot, state
from web_fixtures import first_action

PHONE = {"width": 390, "height": 844}
OPTIONS = {"level": "weak", "variant": "standard", "target": "", "counting": "auto", "dealer": "cut"}
BLUE = "#1e63c4"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    limits = ["--limit", "join=300/minute;2000/hour", "--limit", "create=300/minute;2000/hour"]
    with running_server(tmp_path_factory.mktemp("seats") / "games.db", args=limits) as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


def phone(contexts: ContextPool, *, game: dict[str, Any] | None = None, first: bool = False) -> Any:
    """A phone's page (not yet anywhere): a returning visitor's options (none on a ``first``
    visit), and ``game`` stored as the page's own."""
    page = contexts.page(viewport=PHONE, locale="en-US")
    script = "" if first else f"localStorage.setItem('cribbage.options', {json.dumps(json.dumps(OPTIONS))});"
    if game is not None:
        script += f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))});"
    once = f"if (!sessionStorage.getItem('e2e')) {{ {script} sessionStorage.setItem('e2e', '1'); }}"
    page.add_init_script(f"try {{ {once} }} catch (e) {{}}")
    return page


def table(server: str, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """A table made through the API by Aiko; ``joined`` the other people (Boris, Carla...) by seat."""
    created = _api(server, "POST", "/api/games", {"seats": seats, "names": ["Aiko"], **options})
    created["joined"] = {}
    return created


def join(server: str, created: dict[str, Any], name: str, index: int = 0) -> dict[str, Any]:
    joined = _api(server, "POST", "/api/join", {"code": created["invites"][index]["code"], "name": name})
    created["joined"][joined["seat"]] = joined
    return joined  # type: ignore[no-any-return]


def own(created: dict[str, Any]) -> dict[str, Any]:
    return {"id": created["id"], "token": created["token"], "seat": 0}


def act_for(server: str, game_id: str, token: str) -> bool:
    """The seat of ``token`` takes its first legal action, if it has one."""
    st = _api(server, "GET", f"/api/games/{game_id}", token=token)
    if st["over"] or not st["actions"]:
        return False
    _api(
        server, "POST", f"/api/games/{game_id}/actions", {**first_action(st), "version": st["version"]}, token
    )
    return True


def finish(server: str, created: dict[str, Any]) -> None:
    tokens = [created["token"], *(j["token"] for j in created["joined"].values())]
    for _ in range(2000):
        if not any(act_for(server, created["id"], token) for token in tokens):
            return
    raise AssertionError("the table's game did not end")


def seat_texts(page: Any) -> dict[int, str]:
    return {
        int(li.get_attribute("data-seat")): li.inner_text()
        for li in page.query_selector_all(".table-seats li")
    }


# --------------------------------------------------------------------------- item 6


def test_the_seat_panel_shows_who_left_while_the_page_holds_at_continue(
    contexts: ContextPool, server: str
) -> None:
    created = table(server, [{"kind": "human"}, {"kind": "human"}], target=61)
    boris = join(server, created, "Boris")
    page = phone(contexts, game=own(created))
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_selector('.table-seats li[data-seat="1"] .presence')
        for _ in range(400):  # both seats play through the API; the page follows to the first show
            if page.query_selector("#btn-continue"):
                break
            if not any(act_for(server, created["id"], token) for token in (created["token"], boris["token"])):
                page.wait_for_timeout(40)
        else:
            raise AssertionError("the page never held at Continue")
        assert "joined" in seat_texts(page)[1]
        _api(server, "POST", f"/api/games/{created['id']}/leave", token=boris["token"])
        page.wait_for_selector('.table-seats li.open[data-seat="1"]', timeout=10_000)
        assert page.query_selector("#btn-continue"), "the page still holds at Continue"
        assert "not joined yet" in seat_texts(page)[1] and "online" not in seat_texts(page)[1]
        assert "Boris left the table" in (page.text_content("#log") or "")
        page.click("#btn-continue")
        page.wait_for_selector('.invite[data-seat="1"]')
    finally:
        page.close()


# --------------------------------------------------------------------------- item 8


@pytest.mark.parametrize(("lang", "computer"), [("en", "Computer"), ("ja", "コンピューター")])
def test_every_panel_names_a_computer_by_its_seat_before_and_after_a_takeover(
    contexts: ContextPool, server: str, lang: str, computer: str
) -> None:
    created = table(
        server,
        [{"kind": "human"}, {"kind": "computer", "level": "weak"}, {"kind": "human"}],
        variant="three-player",
        takeover="weak",
        public=True,
    )
    page = phone(contexts, game=own(created))
    try:
        page.goto(f"{server}/?lang={lang}&speed=instant")
        page.wait_for_selector('.table-seats li[data-seat="1"]')
        space = " " if lang == "en" else ""
        name2, name3 = f"{computer}{space}2", f"{computer}{space}3"
        # The lobby lists the table with the same name for its computer.
        page.click("#btn-lobby")
        button = f'.lobby-join[data-code="{created["invites"][0]["code"]}"]'
        page.wait_for_selector(button)
        listed = page.locator(".lobby-table", has=page.locator(button))
        assert name2 in listed.inner_text()
        page.click("#lobby-close")
        carla = join(server, created, "Carla")
        page.wait_for_selector('.table-seats li.taken[data-seat="2"]')
        assert page.text_content(".table-seats li[data-seat='1'] .table-seat-name") == name2
        assert page.text_content("#opponents .seat-1 .seat-name") == name2
        assert page.text_content("#opponents .seat-2 .seat-name") == "Carla"
        _api(server, "POST", f"/api/games/{created['id']}/leave", token=carla["token"])
        page.wait_for_function("() => window.cribbage?.state?.seats[2].kind === 'computer'")
        page.wait_for_function(
            "() => (!!window.cribbage && !window.cribbage.busy) || !!document.getElementById('btn-continue')"
        )
        assert page.text_content(".table-seats li[data-seat='2'] .table-seat-name") == name3
        assert page.text_content("#opponents .seat-2 .seat-name") == name3
        assert page.text_content(".table-seats li[data-seat='1'] .table-seat-name") == name2
        names = page.eval_on_selector_all(
            ".seat-name, .table-seat-name, .chip-name", "els => els.map((e) => e.textContent)"
        )
        assert not [n for n in names if n.endswith(("0", "1")) or n == computer], names
    finally:
        page.close()


# --------------------------------------------------------------------------- item 10


def test_the_welcome_offers_the_lobby_and_comes_back_without_a_game(
    contexts: ContextPool, server: str
) -> None:
    page = phone(contexts, first=True)
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_selector("#options-dialog[open]")
        assert page.is_visible("#opt-lobby") and page.is_visible("#opt-join")
        assert not page.is_visible("#opt-cancel")
        page.click("#opt-lobby")
        page.wait_for_selector("#lobby-dialog[open]")
        assert page.evaluate("() => window.cribbage.state") is None  # no game against the computer
        page.click("#lobby-close")
        page.wait_for_selector("#options-dialog[open]")  # the welcome again
        page.click("#opt-join")
        page.wait_for_selector("#join-dialog[open]")
        page.click("#join-cancel")
        page.wait_for_selector("#options-dialog[open]")
        assert page.evaluate("() => window.cribbage.state") is None
        page.click("#opt-start")  # and the welcome still starts a game
        page.wait_for_function("() => window.cribbage?.state && !window.cribbage.busy")
        assert not page.is_visible("#opt-lobby")
    finally:
        page.close()


def test_a_seat_chosen_for_one_variant_is_no_choice_in_another(contexts: ContextPool, server: str) -> None:
    page = phone(contexts)
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_function("() => window.cribbage?.state && !window.cribbage.busy")
        page.click("#btn-new")
        page.select_option("#opt-variant", "standard")
        page.select_option("#opt-seat-1", "human")
        page.select_option("#opt-variant", "four-player")
        values = page.eval_on_selector_all("#opt-seats select", "els => els.map((e) => e.value)")
        assert values == ["", "", ""]  # computers, not an invitation at seat 2
        page.select_option("#opt-variant", "standard")
        page.select_option("#opt-seat-1", "human")
        page.click("#opt-save")
        # The dialog saves the options when its close event comes, after the click returns.
        saved = "() => JSON.stringify(JSON.parse(localStorage.getItem('cribbage.options') || '{}').seats)"
        page.wait_for_function(f"() => ({saved})() === '[\"human\"]'")  # fails by its timeout
        # Options saved with the 2-player person, then another variant chosen: a game against computers.
        stored = json.loads(page.evaluate("() => localStorage.getItem('cribbage.options')"))
        assert stored["seats"] == ["human"]
        stored["variant"] = "four-player"
        page.evaluate(f"() => localStorage.setItem('cribbage.options', {json.dumps(json.dumps(stored))})")
        for storage in ("localStorage", "sessionStorage"):
            page.evaluate(f"() => {storage}.removeItem('cribbage.engine.game')")
        page.reload()
        page.wait_for_function("() => window.cribbage?.state?.view.players === 4")
        st = state(page)
        assert [s["kind"] for s in st["seats"]] == ["human", "computer", "computer", "computer"]
        assert st["invites"] == []
    finally:
        page.close()


# --------------------------------------------------------------------------- item 11


def test_every_new_text_is_in_every_language(contexts: ContextPool, server: str) -> None:
    page = phone(contexts)
    try:
        page.goto(f"{server}/review?lang=en")  # a light page of the site, for its modules
        missing = page.evaluate(
            """async () => {
              const { STRINGS, loadLanguages } = await import('/static/shared/i18n.js');
              await loadLanguages();
              const keys = ['leaveConfirmWait', 'leaveConfirmComputer', 'newGameAlone', 'dealerLeft',
                'yourSeatN', 'atTheTable', 'rematch', 'playAgain', 'partner', 'computer', 'computerN',
                'counted.auto', 'counted.manual', 'counted.muggins', 'counted.mugginsPlay'];
              return ['en', 'ja', 'ru']
                .flatMap((l) => keys.filter((k) => !(k in STRINGS[l])).map((k) => `${l}:${k}`))
                .concat(['en', 'ja', 'ru'].filter((l) => 'leaveConfirm' in STRINGS[l]));
            }"""
        )
        assert missing == []
        numbers = page.evaluate(
            """async () => {
              const { numText } = await import('/static/shared/i18n.js');
              return [numText(-0.5), numText(-0.001), numText(0.001, 2, true), numText(1.5, 2, true),
                numText(-12.34, 1), numText(-3, 0), numText(undefined)];
            }"""
        )
        assert numbers == ["\u22120.50", "0.00", "0.00", "+1.50", "\u221212.3", "\u22123", "\u2014"]
        # No page formats a number with a hyphen-minus of its own: they all go through numText.
        for script in ("game/app.js", "practice/practice.js", "review/review.js"):
            text = page.evaluate(f"async () => (await fetch('/static/{script}')).text()")
            assert "'\u2212'" not in text and "? '+' : '-'" not in text, script
    finally:
        page.close()


def test_the_russian_practice_page_names_each_button_once(contexts: ContextPool, server: str) -> None:
    page = phone(contexts)
    try:
        page.goto(f"{server}/practice?lang=ru")
        # The page's module has run (the HTML's buttons are English until it words them).
        page.wait_for_function("() => window.cribbagePractice")
        texts = page.eval_on_selector_all(
            "button:not(.card)", "els => els.map((e) => e.textContent.trim()).filter(Boolean)"
        )
        assert texts.count("Сбросить") == 1, texts
        assert len(set(texts)) == len(texts), texts
    finally:
        page.close()


def test_a_table_of_people_is_worded_as_one(contexts: ContextPool, server: str) -> None:
    """The dealer, the strength, the leave question and the two ways to play again."""
    created = table(server, [{"kind": "human"}, {"kind": "human"}], target=61)
    boris = join(server, created, "Boris")
    page = phone(contexts, game=own(created))
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_selector('.table-seats li[data-seat="1"]')
        assert "computer" not in page.inner_text("#game-info").lower()  # no strength where none plays
        page.click("#btn-new")
        page.select_option("#opt-variant", "standard")
        page.select_option("#opt-seat-1", "human")
        assert page.inner_text("#opt-dealer-left") == "The player on your left (seat 2)"
        page.select_option("#opt-seat-1", "")
        assert page.inner_text("#opt-dealer-left") == "The computer"
        page.click("#opt-cancel")
        questions: list[str] = []
        page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
        with page.expect_event("dialog"):
            page.click("#btn-leave")
        assert questions == [
            "Leave this table? Your seat stays open: anyone with its invitation can take it, you too."
        ]
        page.goto("about:blank")  # away while the game is played through the API (not drawn state by state)
        finish(server, created)
        page.goto(f"{server}/?lang=en&speed=instant")  # back: the result at once, no show's Continue
        page.wait_for_selector("#result-dialog[open]")
        assert page.inner_text("#result-again") == "Play again with these players"
        assert page.inner_text("#result-new") == "New game (these players are not invited)"
        assert boris["seat"] == 1
    finally:
        page.close()
    # With a takeover level, the question says a computer plays the seat and there is no way back.
    created = table(server, [{"kind": "human"}, {"kind": "human"}], takeover="strong")
    join(server, created, "Boris")
    page = phone(contexts, game=own(created))
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_selector("#btn-leave")
        questions = []
        page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
        with page.expect_event("dialog"):
            page.click("#btn-leave")
        assert questions == [
            "Leave this table? A computer (Strong computer) plays your seat from now on:"
            " you cannot come back to it."
        ]
    finally:
        page.close()


def test_the_join_dialog_shows_the_table_before_joining(contexts: ContextPool, server: str) -> None:
    created = table(
        server,
        [{"kind": "human"}, {"kind": "computer", "level": "strong"}, {"kind": "human"}, {"kind": "human"}],
        variant="four-player",
        manual=True,
    )
    join(server, created, "Boris", index=1)
    page = phone(contexts)
    try:
        page.goto(f"{server}/join/{created['invites'][0]['code']}?lang=en&speed=instant")
        page.wait_for_selector("#join-table .join-seats li")
        info = page.inner_text("#join-table .join-info")
        assert info == "Four players (partners) · Game to 121 · Each player counts their own hands"
        seats = page.eval_on_selector_all(".join-seats li", "els => els.map((e) => e.textContent)")
        assert seats == ["Aiko", "Computer 2 (Strong computer)", "Seat 3: yours", "Boris"]
        shot(page, "join-preview")
        # A code typed by hand is looked up too; a wrong one is said at once.
        page.fill("#join-code", "ZZZZZZ")
        page.dispatch_event("#join-code", "change")
        page.wait_for_selector("#join-table .error")
        assert page.inner_text("#join-table .error") == "No table has this invitation code."
    finally:
        page.close()


# --------------------------------------------------------------------------- item 12, on a phone


def one_line(page: Any, selector: str) -> list[tuple[str, int]]:
    """Each element's text and how many lines it takes (1: not broken into a column)."""
    return [
        (str(text), int(lines))
        for text, lines in page.eval_on_selector_all(
            selector,
            """els => els.map((e) => {
                 const range = document.createRange();
                 range.selectNodeContents(e);
                 const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                 return [e.textContent, tops.size];
               })""",
        )
    ]


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_on_a_phone_a_name_stays_on_one_line_beside_the_away_badge(
    contexts: ContextPool, server: str, lang: str
) -> None:
    created = table(server, [{"kind": "human"}, {"kind": "human"}], clock=30)
    join(server, created, "Boris")
    page = phone(contexts, game=own(created))
    try:

        def away(route: Any) -> None:  # both seats away, as after their clocks ran out
            answer = route.fetch()
            route.fulfill(response=answer, json={**answer.json(), "away": [0, 1]})

        page.route(f"**/api/games/{created['id']}", away)
        page.route_web_socket("**/live**", lambda ws: None)  # no newer state comes to replace it
        page.goto(f"{server}/?lang={lang}&speed=instant")
        page.wait_for_selector(".table-seats .badge.away")
        labels = ".table-seats .table-seat-name, .table-seats small, .table-seats .presence"
        # Measured once every label is drawn: written and laid out (a label still empty, or not
        # yet laid out, has no line at all).
        page.wait_for_function(
            """(selector) => {
                 const els = [...document.querySelectorAll(selector)];
                 return els.length > 0 && els.every((e) => e.textContent.trim() && e.getClientRects().length);
               }""",
            arg=labels,
        )
        shot(page, f"seats-away-{lang}")
        lines = one_line(page, labels)
        assert lines and all(n == 1 for _, n in lines), lines
        box = page.eval_on_selector("#table-panel", "e => e.getBoundingClientRect().right")
        assert box <= PHONE["width"]
    finally:
        page.close()


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, Any]:
    """A table of Aiko and Boris (61 points) whose game they played to its end through the API
    (the pages only read it)."""
    created = table(server, [{"kind": "human"}, {"kind": "human"}], target=61)
    join(server, created, "Boris")
    finish(server, created)
    return created


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_on_a_phone_the_result_buttons_are_on_screen(
    contexts: ContextPool, server: str, finished: dict[str, Any], lang: str
) -> None:
    page = phone(contexts, game=own(finished))
    try:
        page.goto(f"{server}/?lang={lang}&speed=instant")
        page.wait_for_selector("#result-dialog[open] #result-chart svg")  # filled, then shown
        shot(page, f"result-phone-{lang}")
        boxes = page.eval_on_selector_all(
            "#result-dialog .dialog-buttons button",
            """els => els.filter((e) => !e.hidden).map((e) => {
                 const r = e.getBoundingClientRect();
                 return [e.id, r.top, r.bottom, r.right];
               })""",
        )
        assert len(boxes) == 5, boxes  # again with these players, new game, review, record, close
        for name, top, bottom, right in boxes:
            assert top >= 0 and bottom <= PHONE["height"] and right <= PHONE["width"], (name, top, bottom)
        page.click("#result-close")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_on_a_phone_a_spectator_sees_every_seat_s_backs_and_no_hint(
    contexts: ContextPool, server: str, lang: str
) -> None:
    created = table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], variant="three-player")
    join(server, created, "Boris", 0)
    join(server, created, "Carla", 1)
    link = _api(server, "POST", f"/api/games/{created['id']}/watch", token=created["token"])
    code = link["url"].rsplit("/", 1)[1]
    page = phone(contexts)
    try:
        page.goto(f"{server}/watch/{code}?lang={lang}&speed=instant")
        page.wait_for_function("() => window.cribbage?.state && !window.cribbage.busy")
        shot(page, f"spectator-phone-{lang}")
        held = state(page)["view"]["held"]
        assert held[0] > 0
        assert page.locator("#hand .backs .card").count() == held[0]
        for seat in (1, 2):
            assert page.locator(f"#opponents .seat-{seat} .backs .card").count() == held[seat]
        assert not page.is_visible("#btn-hint")
        # As the seats discard (in the order the game takes them), seat 0's backs follow.
        tokens = [created["token"], *(created["joined"][seat]["token"] for seat in (1, 2))]
        for _ in range(3):
            for token in tokens:
                st = _api(server, "GET", f"/api/games/{created['id']}", token=token)
                if st["actions"] and first_action(st)["type"] == "discard":
                    act_for(server, created["id"], token)
        version = _api(server, "GET", f"/api/games/{created['id']}", token=created["token"])["version"]
        page.wait_for_function(f"() => window.cribbage?.state?.version >= {version} && !window.cribbage.busy")
        held = state(page)["view"]["held"]
        assert page.locator("#hand .backs .card").count() == held[0] == 4
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_on_a_phone_the_review_keeps_the_game_s_colours_and_its_total_in_view(
    contexts: ContextPool, server: str, finished: dict[str, Any], lang: str
) -> None:
    boris = finished["joined"][1]
    page = phone(contexts, game={"id": finished["id"], "token": boris["token"], "seat": 1})
    try:
        page.goto(f"{server}/?lang={lang}&speed=instant")
        page.wait_for_selector("#result-dialog[open]")
        colour = "e => getComputedStyle(e).getPropertyValue('--side').trim()"
        game_colour = page.eval_on_selector("#result-scores .final-score", colour)
        assert game_colour == BLUE  # Boris's own side, first and blue on his page
        page.click("#result-review")
        page.wait_for_selector(".decision", timeout=90_000)
        summary = page.eval_on_selector_all(
            "#review-summary .final-score",
            "els => els.map((e) => [e.textContent, getComputedStyle(e).getPropertyValue('--side').trim()])",
        )
        mine = [colour for text, colour in summary if "Boris" in text or "あなた" in text or "Вы" in text]
        assert mine == [BLUE], summary
        discard = page.locator(".decision-item", has=page.locator(".decision")).first
        discard.locator(".decision").click()
        page.wait_for_selector(".result-table th.total")
        page.locator(".result-table").first.scroll_into_view_if_needed()
        shot(page, f"review-phone-{lang}")
        right = page.eval_on_selector(".result-table th.total", "e => e.getBoundingClientRect().right")
        assert right <= PHONE["width"], right
    finally:
        page.close()
