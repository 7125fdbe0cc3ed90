"""The browser game end to end: a real ``cribbage serve`` and Debian's headless Chromium, driven
by Playwright the way a person plays (clicks, keys, a phone-sized screen).

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each test's page starts with its storage cleared).  Screenshots
go to ``test-artifacts/``.  The tests are never skipped: without Debian's ``chromium``
(``apt-get install chromium``; test.sh installs it) they fail, naming it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.engine.rules import VARIANTS, get_rules
from cribbage.engine.state import GameState
from e2e_helpers import (
    ContextPool,
    decision,
    no_horizontal_overflow,
    running_server,
    set_options,
    shot,
    state,
    step,
    wait_ready,
    watch_errors,
)

STEP_LIMIT = 400  # far more decisions than any game to 61 takes


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web") / "games.db") as base:
        yield base


SCREEN = {"viewport": {"width": 1100, "height": 900}, "locale": "en-US"}


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


class Visitor:
    """A returning visitor's browser on a 1100x900 screen (the first visit's options are tested
    on their own): its pages are new pages of the module's contexts, closed after the test;
    the errors they throw fail it."""

    def __init__(self, contexts: ContextPool, **options: str) -> None:
        self.contexts = contexts
        self.options = options
        self.pages: list[Any] = []

    def new_page(self) -> Any:
        page = self.contexts.page(**SCREEN)
        set_options(page, **self.options)
        self.pages.append(page)
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()


@pytest.fixture
def context(contexts: ContextPool) -> Iterator[Visitor]:
    visitor = Visitor(contexts)
    yield visitor
    visitor.close()


def open_game(context: Any, server: str, query: str = "lang=en&speed=instant&seed=11") -> Any:
    page = watch_errors(context.new_page())
    page.goto(f"{server}/?{query}")
    wait_ready(page)
    return page


def play_until(page: Any, done: Any, limit: int = STEP_LIMIT, **kw: Any) -> str:
    for _ in range(limit):
        what = step(page, **kw)
        if what == "over" or done(page):
            return what
    raise AssertionError("the game did not get there in time")


def my_turn_to_play(page: Any) -> bool:
    return decision(state(page)) == "play" and not page.query_selector("#btn-continue")


# --------------------------------------------------------------------------- a whole game


def test_whole_game_to_61_by_clicking(context: Any, server: str) -> None:
    page = open_game(context, server)
    # Choose the options in the dialog, as a visitor would: 61 points, a weak computer.
    page.click("#btn-options")
    # The variants and their targets come from the server (GET /api/variants).
    page.wait_for_function("() => document.querySelectorAll('#opt-variant option').length > 1")
    names = page.eval_on_selector_all("#opt-variant option", "els => els.map(e => e.value)")
    assert names == list(VARIANTS)
    assert page.text_content("#opt-target-default") == "The variant’s own (121)"
    page.select_option("#opt-variant", "seven-card")
    assert page.text_content("#opt-target-default") == "The variant’s own (151)"
    page.select_option("#opt-variant", "standard")
    page.check('input[name="level"][value="weak"]')
    page.select_option("#opt-target", "61")
    page.check('input[name="counting"][value="auto"]')
    shot(page, "options-dialog")
    page.click("#opt-start")
    page.wait_for_function("() => window.cribbage?.state?.view.target === 61")
    wait_ready(page)
    st = state(page)
    assert st["options"]["level"] == "weak" and st["options"]["target"] == 61
    shot(page, "game-discard")

    seen: set[str] = set()
    for _ in range(STEP_LIMIT):
        what = step(page)
        seen.add(what)
        if what == "play" and "play-shot" not in seen:
            seen.add("play-shot")
            shot(page, "game-play")
        if what == "over":
            break
    else:
        raise AssertionError("the game to 61 did not finish")
    assert {"discard", "play", "continue"} <= seen

    st = state(page)
    assert st["over"] and st["result"] is not None
    result = st["result"]
    assert max(result["scores"]) >= 61
    # The result screen: winner, final scores, the chart with one line per side, statistics.
    dialog = page.locator("#result-dialog")
    dialog.wait_for(state="visible")
    title = page.text_content("#result-title") or ""
    assert ("You win" in title) == (result["winner"] == 0)
    assert page.locator("#result-chart svg polyline").count() == 2
    if result["skunk"]:
        assert page.locator("#result-skunk").is_visible()
    stats = json.loads(page.evaluate("() => localStorage.getItem('cribbage.engine.stats')"))
    assert stats["played"] == 1 and stats["won"] + stats["lost"] == 1
    assert stats["withBreakdown"] == 1
    assert stats["pegging"] + stats["hand"] + stats["crib"] <= result["scores"][0]
    shot(page, "game-result")
    # The pegs: each side's front peg in the hole of its score (the game hole past the target).
    page.click("#result-close")
    fronts = page.eval_on_selector_all(".pegs .front-peg", "els => els.map(e => Number(e.dataset.score))")
    assert sorted(fronts) == sorted(result["scores"])


# --------------------------------------------------------------------------- hints


def test_hints_for_the_discard_and_the_play(context: Any, server: str) -> None:
    page = open_game(context, server, "lang=en&speed=instant&seed=21")
    assert decision(state(page)) == "discard"
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    rows = page.locator(".hint-table tbody tr")
    assert rows.count() == 15  # every way to throw two of six
    totals = [
        float(x)
        for x in page.eval_on_selector_all(".hint-table td.total", "els => els.map(e => e.textContent)")
    ]
    assert totals == sorted(totals, reverse=True)
    shot(page, "hint-discard")
    rows.first.click()
    assert page.locator("#hand .card.selected").count() == 2
    page.click("#btn-confirm")
    wait_ready(page)
    # Until it is our turn to play, then ask with the keyboard (H).
    play_until(page, my_turn_to_play, limit=20)
    wait_ready(page)  # a hint is not offered while the page is still busy (the key would be dropped)
    page.locator("body").press("h")
    page.wait_for_selector(".hint-plays li")
    suggested = page.locator("#hand .card.suggested")
    assert suggested.count() == 1
    reason = page.text_content(".hint-plays li.best .hint-reason") or ""
    assert reason.strip() and not re.search(r"combo|safe_lead|no_points|reason\.", reason)
    shot(page, "hint-play")
    card = suggested.get_attribute("data-card")
    suggested.click()
    wait_ready(page)
    played = [p["card"] for p in state(page)["view"]["played"] if p["seat"] == 0]
    assert card in played


def test_keyboard_only_discard_and_play(context: Any, server: str) -> None:
    page = open_game(context, server, "lang=en&speed=instant&seed=81")
    need = state(page)["actions"][0]["count"]
    body = page.locator("body")
    for key in "12"[:need]:
        body.press(key)
    assert page.locator("#hand .card.selected").count() == need
    assert page.locator("#hand .card[aria-pressed=true]").count() == need
    page.keyboard.press("Enter")  # the focus is on a card: Enter still sends the discard
    wait_ready(page)
    assert state(page)["view"]["discards"]
    play_until(page, my_turn_to_play, limit=10)
    index = page.get_attribute("#hand button.card.playable >> nth=0", "data-index")
    before = len(state(page)["view"]["played"])
    page.keyboard.press(str(index))
    assert page.evaluate("() => document.activeElement.dataset.index") == index
    page.keyboard.press("Enter")
    wait_ready(page)
    assert len(state(page)["view"]["played"]) > before or state(page)["view"]["phase"] != "play"


# --------------------------------------------------------------------------- manual counting


def test_manual_counting_and_muggins_both_ways(contexts: ContextPool, server: str) -> None:
    ctx = Visitor(contexts, counting="muggins", level="normal")
    page = open_game(ctx, server, "lang=en&speed=instant&seed=5")
    assert state(page)["options"]["manual"] and state(page)["options"]["muggins"]
    mugged_me = called = False
    for _ in range(STEP_LIMIT):
        wait_ready(page)
        st = state(page)
        kind = None if page.query_selector("#btn-continue") else decision(st)
        if kind == "count" and not mugged_me:
            shot(page, "manual-count")
            step(page, count=0)  # say nothing: the computer may take what we missed
            wait_ready(page)
            log = page.text_content("#log") or ""
            mugged_me = "Muggins!" in log or "Nineteen" in log or "stated 0" in log
            continue
        if kind == "muggins" and not called:
            shot(page, "manual-muggins-decision")
            step(page, muggins=1)  # we call muggins on the computer's count
            wait_ready(page)
            log = page.text_content("#log") or ""
            called = "Muggins! You take" in log or "wrong muggins call" in log
            shot(page, "manual-muggins-called")
            continue
        if mugged_me and called:
            break
        what = step(page, count=30)
        if what == "over":
            break
    assert mugged_me, "no manual count was asked for"
    assert called, "no computer count could be challenged"
    ctx.close()


# --------------------------------------------------------------------------- languages


def test_language_switch_is_remembered_and_browser_language_is_the_default(
    contexts: ContextPool, server: str
) -> None:
    page = contexts.page(viewport={"width": 1100, "height": 900}, locale="ru-RU")
    set_options(page)
    page.goto(f"{server}/?speed=instant&seed=31")
    wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert page.text_content("#btn-new") == "Новая игра"
    page.select_option("#lang-select", "ja")  # its words are loaded, then the page is worded again
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert page.text_content("#btn-new") == "新しいゲーム"
    assert "クリブ" in (page.text_content("#crib-label") or "")
    shot(page, "lang-ja")
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "ja"
    assert page.text_content("#btn-options") == "オプションルール"
    page.select_option("#lang-select", "en")
    assert page.text_content("#btn-new") == "New game"
    page.close()


# --------------------------------------------------------------------------- reload


def test_a_game_survives_a_reload(context: Any, server: str) -> None:
    page = open_game(context, server, "lang=en&speed=instant&seed=41")
    step(page)  # the discard
    play_until(page, my_turn_to_play, limit=10)
    step(page)  # one card
    wait_ready(page)
    before = state(page)
    page.reload()
    wait_ready(page)
    after = state(page)
    assert after["id"] == before["id"]
    assert after["version"] == before["version"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert page.locator("#hand .card.played").count() == len(
        [p for p in after["view"]["played"] if p["seat"] == 0]
    )
    shot(page, "after-reload")
    # ... and it goes on.
    assert step(page) in ("play", "continue", "discard", "count", "muggins")
    wait_ready(page)
    assert state(page)["version"] > before["version"]


# --------------------------------------------------------------------------- layouts


def test_phone_layout_has_no_horizontal_overflow(contexts: ContextPool, server: str) -> None:
    page = contexts.page(
        viewport={"width": 375, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="ja-JP",
    )
    set_options(page)
    page.goto(f"{server}/?speed=instant&seed=51")
    wait_ready(page)
    width, inner = no_horizontal_overflow(page)
    assert width <= inner == 375
    shot(page, "phone-discard")
    page.tap("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    width, inner = no_horizontal_overflow(page)
    assert width <= inner, "the hint table sticks out"
    shot(page, "phone-hint")
    page.tap(".hint-table tbody tr >> nth=0")
    page.tap("#btn-confirm")
    for _ in range(60):
        what = step(page)
        width, inner = no_horizontal_overflow(page)
        assert width <= inner, f"overflow after {what}"
        if page.query_selector("#btn-continue"):
            shot(page, "phone-show")
            break
    page.goto(f"{server}/howto")
    page.wait_for_selector("article:not([hidden]) .example .ex-result .ex-total")
    width, inner = no_horizontal_overflow(page)
    assert width <= inner, "the how-to page sticks out"
    page.close()


def test_four_player_table_lays_out_three_computer_seats(contexts: ContextPool, server: str) -> None:
    ctx = Visitor(contexts, variant="four-player")
    page = open_game(ctx, server, "lang=en&speed=instant&seed=61")
    st = state(page)
    assert st["view"]["players"] == 4
    assert page.locator("#opponents .seat").count() == 3
    # One name per seat (issue 29): "Computer N" by its seat counted from 1, the partner marked.
    names = [page.text_content(f"#opponents .seat-{seat} .seat-name") for seat in (1, 2, 3)]
    assert names == ["Computer 2", "Computer 3", "Computer 4"]
    assert page.text_content("#opponents .seat-2 .badge.partner") == "Partner"
    assert not page.query_selector("#opponents .seat-1 .badge.partner")
    assert page.locator("#scoreboard .score-chip").count() == 2
    step(page)
    wait_ready(page)
    shot(page, "four-player")
    ctx.close()


def test_hint_reasons_are_worded_from_their_codes_in_every_language(context: Any, server: str) -> None:
    page = context.new_page()
    page.goto(f"{server}/review?lang=en")  # a light page of the site, for its modules
    reasons = [
        [{"code": "combo", "kind": "pair", "points": 2, "rank": "7"}],
        [
            {"code": "combo", "kind": "fifteen", "points": 2},
            {"code": "combo", "kind": "run", "points": 3, "length": 3},
        ],
        [{"code": "combo", "kind": "pair", "points": 2, "rank": "T"}],
        [{"code": "leaves", "count": 21, "makes": 31}],
        [{"code": "avoids", "count": 21}],
        [{"code": "safe_lead"}],
        [{"code": "no_points"}],
    ]
    words = page.evaluate(
        """async (reasons) => {
            const i18n = await import('/static/shared/i18n.js');
            await i18n.loadLanguages();
            const out = {};
            for (const lang of i18n.LANGS) {
                i18n.setLang(lang);
                out[lang] = reasons.map((r) => i18n.reasonsLine(r));
            }
            i18n.setLang('en');
            return out;
        }""",
        reasons,
    )
    assert words["en"] == [
        "pairs the 7 for 2",
        "Fifteen for 2, Run of 3 for 3",
        "pairs the 10 for 2",
        "leaves 21: a ten-card makes 31",
        "avoids leaving 21",
        "a safe lead: no card makes 15 on it",
        "no points",
    ]
    for lang in ("ja", "ru"):
        assert all(w and w != e for w, e in zip(words[lang], words["en"], strict=True)), words[lang]
    for lang, lines in words.items():
        assert not any(re.search(r"reason\.|combo|undefined|_", line) for line in lines), (lang, lines)
    assert "21" in words["ja"][3] and "31" in words["ru"][3] and "7" in words["ja"][0]


def test_every_event_kind_of_the_engine_is_written_once_in_the_page(context: Any, server: str) -> None:
    kinds: set[str] = set()
    rng = random.Random(5)
    for name in ("standard", "five-card", "three-player", "four-player"):
        for manual in (False, True):
            options = {"manual_count": True, "muggins": True, "muggins_play": True} if manual else {}
            game = GameState(get_rules(name, target=61, **options))
            while not game.is_terminal:
                action = game.sample_chance(rng) if game.is_chance else rng.choice(game.legal_actions())
                kinds.update(event.kind for event in game.apply(action))
    page = context.new_page()
    page.goto(f"{server}/review?lang=en")  # a light page of the site, for its modules
    ev = page.evaluate("async () => ({ ...(await import('/static/shared/codes.js')).EV })")
    assert kinds <= set(ev.values()), kinds - set(ev.values())
    assert len(set(ev.values())) == len(ev)


# --------------------------------------------------------------------------- the how-to page


def test_howto_examples_are_live_and_the_try_box_scores_any_hand(context: Any, server: str) -> None:
    page = context.new_page()
    page.goto(f"{server}/howto?lang=en")
    page.wait_for_selector('article:not([hidden]) .example[data-id="twenty-nine"] .ex-total')
    assert page.text_content('article:not([hidden]) .example[data-id="twenty-nine"] .ex-total') == "29"
    page.wait_for_function(
        "() => document.querySelectorAll('article:not([hidden]) .example .ex-total').length"
        " === document.querySelectorAll('article:not([hidden]) .example').length"
    )
    # A combination of an example is highlighted in turn.
    page.click('article:not([hidden]) .example[data-id="twenty-nine"] .replay')
    page.wait_for_selector('article:not([hidden]) .example[data-id="twenty-nine"] .card.hl')
    shot(page, "howto-en")
    # The try box: any hand and starter.
    page.fill("#try-hand", "4H 5C 5S 6D")
    page.fill("#try-starter", "JS")
    page.click("#try-go")
    page.wait_for_function(
        "() => (document.querySelector('#try-result .ex-total') || {}).textContent === '16'"
    )
    page.fill("#try-hand", "5H 5H 6D 7C")
    page.click("#try-go")
    page.wait_for_selector("#try-result .error")
    assert re.search(r"5H|duplicate", page.text_content("#try-result .error") or "", re.I)
    # The other languages.
    page.select_option("#lang-select", "ja")
    page.wait_for_selector('article[lang="ja"] .example .ex-total')
    assert "フィフティーン" in (page.text_content('article[lang="ja"]') or "")
    page.select_option("#lang-select", "ru")
    page.wait_for_selector('article[lang="ru"] .example .ex-total')
    assert "пятнадцать" in (page.text_content('article[lang="ru"]') or "").lower()


def test_page_weight_is_under_300_kb(browser: Any, server: str) -> None:
    """A first visit's downloads: a context of its own (the module's others keep their caches)."""
    sizes: dict[str, int] = {}

    def record(response: Any) -> None:
        if response.url.startswith(server) and "/api/" not in response.url:
            sizes[response.url] = len(response.body())

    context = browser.new_context(**SCREEN)
    set_options(context)
    page = watch_errors(context.new_page())
    page.on("response", record)
    page.goto(f"{server}/?lang=en&speed=instant&seed=71")
    wait_ready(page)
    assert sum(sizes.values()) < 300_000, sizes
    assert all(url.startswith(server) for url in sizes)
    sizes.clear()
    page.goto(f"{server}/howto")
    page.wait_for_load_state("networkidle")
    assert sum(sizes.values()) < 300_000, sizes
    context.close()
