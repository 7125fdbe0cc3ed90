"""What new players tripped over on the page (issue 16), kept fixed in the browser: a phone
(390x844) in every language of the page, and a laptop (1280x800).

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each test's page starts with its storage cleared); screenshots
go to ``test-artifacts/``.  Never skipped: without Debian's ``chromium`` they fail, naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import (
    ContextPool,
    decision,
    finished_game,
    set_options,
    shot,
    state,
    step,
    wait_ready,
)

LANGS = ("en", "ja", "ru")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "laptop": LAPTOP}

# Elements that stick out of a dialog sideways: [tag, id or class, left, right] of each.
OVERFLOW_JS = """(sel) => {
  const d = document.querySelector(sel);
  const r = d.getBoundingClientRect();
  const out = [];
  for (const e of d.querySelectorAll('*')) {
    const b = e.getBoundingClientRect();
    if (!b.width || getComputedStyle(e).visibility === 'hidden') continue;
    if (b.right > r.right + 0.5 || b.left < r.left - 0.5) {
      out.push([e.tagName, e.id || String(e.className), Math.round(b.left), Math.round(b.right)]);
    }
  }
  const page = document.scrollingElement.scrollWidth - innerWidth;
  return {out, scroll: d.scrollWidth - d.clientWidth, page};
}"""

# Whether each selected element is wholly on screen (the viewport, as scrolled now).
ON_SCREEN_JS = """(selectors) => selectors.map((sel) => {
  const els = [...document.querySelectorAll(sel)];
  if (!els.length) return [sel, 'missing'];
  for (const e of els) {
    const b = e.getBoundingClientRect();
    if (b.top < -0.5 || b.left < -0.5 || b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5) {
      return [sel, [Math.round(b.top), Math.round(b.bottom), Math.round(b.left), Math.round(b.right)]];
    }
  }
  return [sel, 'ok'];
})"""

# The contrast of an element's text with what is behind it, from the computed styles: the text
# colour with the opacities of the element and its ancestors, over their background colours.
CONTRAST_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const parse = (c) => {
    const p = c.match(/[\\d.]+/g).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const layers = [];
  let opacity = 1;
  for (let e = el; e; e = e.parentElement) {
    const cs = getComputedStyle(e);
    opacity *= Number(cs.opacity);
    const bg = parse(cs.backgroundColor);
    if (bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; }
  }
  let back = [255, 255, 255];
  for (const layer of layers.reverse()) back = over(layer, back);
  const fg = parse(getComputedStyle(el).color);
  const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], back);
  const lum = (c) => {
    const lin = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const [r, g, b] = c.map(lin);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(text), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

# Elements with an accessible name but no role (explicit, or the element's own).
ROLELESS_JS = """() => {
  const implicit = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SECTION', 'NAV', 'MAIN',
    'DIALOG', 'OUTPUT', 'OL', 'UL', 'TABLE', 'FORM', 'HEADER', 'FOOTER', 'ASIDE', 'DETAILS']);
  return [...document.querySelectorAll('[aria-label]')]
    .filter((e) => !e.getAttribute('role') && !implicit.has(e.tagName))
    .map((e) => e.id || e.className || e.tagName);
}"""

EMPTY_HEADERS_JS = """(root) => [...document.querySelectorAll(root + ' th')]
  .filter((th) => th.offsetParent !== null && !th.textContent.trim()).length"""

ENGLISH_ERRORS = re.compile(r"invalid|duplicate|expected|should|string|request|starter:|hand:", re.I)
SCRIPT = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from e2e_helpers import running_server

    with running_server(tmp_path_factory.mktemp("web") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, str]:
    """A game to 61 played to its end through the API (the pages only read it)."""
    return finished_game(server)


def new_page(
    contexts: ContextPool,
    size: dict[str, int],
    url: str,
    *,
    options: dict[str, str] | None = None,
    game: dict[str, str] | None = None,
) -> Any:
    """A page of that size (a phone has touch) at ``url``; ``options`` remembered as a returning
    visitor's (``None``: a first visit), ``game`` as the page's own."""
    phone = size["width"] < 600
    page = contexts.page(viewport=size, is_mobile=phone, has_touch=phone, locale="en-US")
    if options is not None:
        set_options(page, **options)
    if game is not None:
        page.add_init_script(f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))})")
    page.goto(url)
    return page


def assert_on_screen(page: Any, *selectors: str, what: str) -> None:
    result = dict(page.evaluate(ON_SCREEN_JS, list(selectors)))
    assert all(v == "ok" for v in result.values()), (what, result)


def assert_fits(page: Any, selector: str, what: str) -> None:
    result = page.evaluate(OVERFLOW_JS, selector)
    assert not result["out"] and result["scroll"] <= 0, (what, result)
    assert result["page"] <= 0, (what, "the page scrolls sideways", result)


# --------------------------------------------------------------------------- overflowing dialogs


@pytest.mark.parametrize("lang", LANGS)
def test_dialogs_and_the_howto_page_fit_a_phone(
    contexts: ContextPool, server: str, finished: dict[str, str], lang: str
) -> None:
    """At 390x844 nothing sticks out of the result, options and statistics dialogs, and neither
    the game page nor the how-to page scrolls sideways; no header cell is empty; the skunk
    badge needs no emoji."""
    page = new_page(contexts, PHONE, f"{server}/?lang={lang}&speed=instant", options={}, game=finished)
    page.wait_for_selector("#result-dialog[open] #result-chart svg")
    assert_fits(page, "#result-dialog", f"result dialog in {lang}")
    assert page.evaluate(EMPTY_HEADERS_JS, "#result-dialog") == 0
    badge = page.evaluate(
        "() => getComputedStyle(document.getElementById('result-skunk'), '::before').content"
    )
    assert badge in ("none", "normal", ""), badge
    assert not re.search(r"[\U0001F300-\U0001FAFF]", page.text_content("#result-dialog") or "")
    shot(page, f"page-result-{lang}")
    page.click("#result-close")
    page.click("#btn-options")
    page.wait_for_function("() => document.querySelectorAll('#opt-variant option').length > 1")
    assert_fits(page, "#options-dialog", f"options dialog in {lang}")
    assert page.is_visible("#overcount-note")
    shot(page, f"page-options-{lang}")
    page.click("#opt-cancel")
    page.click("#btn-stats")
    assert_fits(page, "#stats-dialog", f"statistics dialog in {lang}")
    page.click("#stats-close")
    page.goto(f"{server}/howto?lang={lang}")
    page.wait_for_selector("article:not([hidden]) .example .ex-total")
    width = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    assert width <= 0, f"the how-to page in {lang} scrolls sideways by {width} px"
    assert page.evaluate(EMPTY_HEADERS_JS, "article:not([hidden])") == 0
    page.close()


# --------------------------------------------------------------------------- the main action in sight


@pytest.mark.parametrize(
    ("size", "lang"), [("phone", "en"), ("phone", "ja"), ("phone", "ru"), ("laptop", "ru")]
)
def test_the_cards_the_count_and_the_next_action_are_on_screen(
    contexts: ContextPool, server: str, size: str, lang: str
) -> None:
    """In a game to 121 (the taller board): the hand, the count and "To the crib" on one screen;
    the hint comes into view (beside the hand on a laptop); when playing, the hand and the
    count; the show's Continue.  With it: the card buttons' names begin with what they show,
    every named element has a role, Continue's key label is legible, the log's colons are the
    language's own and the Russian discard prompt reads plainly.  Every language on the narrow
    phone, the longest words (Russian) on the laptop."""
    page = new_page(
        contexts, SIZES[size], f"{server}/?lang={lang}&speed=instant&seed=7", options={"dealer": "computer"}
    )
    wait_ready(page)
    assert decision(state(page)) == "discard"
    assert_on_screen(page, "#hand .card", "#count", "#btn-confirm", what=f"the discard, {size} {lang}")
    # Accessible names: a card button's begins with the rank it shows; nothing named lacks a role.
    for label, rank in page.eval_on_selector_all(
        "#hand button.card",
        "els => els.map(e => [e.getAttribute('aria-label'), e.querySelector('.corner b').textContent])",
    ):
        assert label.startswith(rank), (label, rank)
    assert page.evaluate(ROLELESS_JS) == []
    if lang == "ru":
        prompt = page.text_content("#prompt") or ""
        assert prompt == "Выберите 2 карты в криб сдающего (Компьютер).", prompt
    # The hint comes into view; on a laptop it stands beside the hand and the button.
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    assert_on_screen(
        page, "#hint-panel .hint-head", ".hint-table tbody tr.best td.total", what=f"the hint, {size} {lang}"
    )
    if size == "laptop":
        assert_on_screen(
            page, "#hint-panel", "#hand .card", "#btn-confirm", what=f"the hint beside the hand, {lang}"
        )
    shot(page, f"page-hint-{size}-{lang}")
    page.click(".hint-table tbody tr >> nth=0")
    page.click("#btn-confirm")
    # The play: the hand and the count.
    played = False
    for _ in range(40):
        wait_ready(page)
        if page.query_selector("#btn-continue"):
            break
        if decision(state(page)) == "play" and not played:
            assert_on_screen(page, "#hand .card", "#count", what=f"the play, {size} {lang}")
            played = True
        step(page)
    else:
        raise AssertionError("no show came")
    assert played
    # The show's Continue, with a legible key label.
    assert_on_screen(page, "#btn-continue", what=f"Continue, {size} {lang}")
    for sel in ("#btn-continue", "#btn-continue kbd"):
        ratio = page.evaluate(CONTRAST_JS, sel)
        assert ratio >= 4.5, (sel, ratio)
    shot(page, f"page-show-{size}-{lang}")
    if lang == "ja":
        lines = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
        assert len(lines) > 5 and not [line for line in lines if ":" in line], lines
    page.close()


def test_text_on_plain_backgrounds_is_legible(contexts: ContextPool, server: str) -> None:
    """Contrast of at least 4.5:1, from the computed styles, for the small texts and key labels."""
    page = new_page(contexts, LAPTOP, f"{server}/?lang=en&speed=instant&seed=7", options={})
    wait_ready(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    for sel in ("#btn-hint kbd", "#btn-hint", "#prompt", "#game-info", ".keys", ".hint-note", ".chip-name"):
        ratio = page.evaluate(CONTRAST_JS, sel)
        assert ratio is not None and ratio >= 4.5, (sel, ratio)
    page.close()


# --------------------------------------------------------------------------- words


@pytest.mark.parametrize("lang", LANGS)
def test_the_try_box_words_every_error_in_the_page_language(
    contexts: ContextPool, server: str, lang: str
) -> None:
    """A bad card, a card twice, no starter: told in the reader's language from the server's
    codes, never the server's English."""
    page = new_page(contexts, PHONE, f"{server}/howto?lang={lang}")
    page.wait_for_selector("article:not([hidden]) .example .ex-total")
    seen = []
    for hand, starter, must in (
        ("XX 5H 5C", "JS", "XX"),
        ("5H 5H 6D 7C", "JS", "5H"),
        ("5H 6D 7C", "", ""),
        ("5H 6D", "JS", "2"),
        ("5H 6D 7C", "5H", "5H"),
    ):
        page.fill("#try-hand", hand)
        page.fill("#try-starter", starter)
        page.click("#try-go")
        page.wait_for_selector("#try-result .error")
        text = page.text_content("#try-result .error") or ""
        assert must in text, (hand, starter, text)
        assert lang == "en" or not ENGLISH_ERRORS.search(text), (lang, text)
        if lang in SCRIPT:
            assert SCRIPT[lang].search(text), (lang, text)
        if lang == "ja":
            assert "：" in text and ":" not in text, text
        seen.append(text)
    assert len(set(seen)) == len(seen), seen
    # The game page's errors are worded by their code (never by the HTTP status), an unknown code
    # and no answer at all too (tests/js/words.test.js checks every code in every language).
    words = page.evaluate(
        """async () => {
            const i18n = await import('/static/shared/i18n.js');
            const { ApiError } = await import('/static/shared/api.js');
            const codes = ['illegal.action', 'illegal.card', 'not_found', 'unauthorized', 'stale',
                'seat_taken', 'invalid', 'internal', 'computer_unavailable', 'a_code_not_known_yet'];
            return codes.map((code) => i18n.errorText(
                new ApiError(400, 'an English message from the server', { code })))
              .concat([i18n.errorText(new ApiError(0, 'an English message from the browser'))]);
        }"""
    )
    assert all(w and "English" not in w for w in words), words
    if lang in SCRIPT:
        assert all(SCRIPT[lang].search(w) for w in words), words
    page.close()


def test_an_over_count_is_not_called_a_muggins_call(contexts: ContextPool, server: str) -> None:
    """Stating too much with muggins gives the excess to the opponent: the log says so, and
    the options say this penalty comes with muggins, in every language."""
    options = {"counting": "muggins", "level": "weak"}
    page = new_page(contexts, LAPTOP, f"{server}/?lang=en&speed=instant&seed=5", options=options)
    for _ in range(60):
        wait_ready(page)
        if not page.query_selector("#btn-continue") and decision(state(page)) == "count":
            break
        step(page)
    else:
        raise AssertionError("no count was asked for")
    step(page, count=29)  # more than any hand here holds
    wait_ready(page)
    log = page.text_content("#log") or ""
    assert re.search(r"Over-counted: the excess, \d+ points?, goes to Computer\.", log), log
    assert "wrong muggins call" not in log, log
    words = page.evaluate(
        """async () => {
            const i18n = await import('/static/shared/i18n.js');
            await i18n.loadLanguages();
            const out = {};
            for (const lang of i18n.LANGS) {
                i18n.setLang(lang);
                const n = { name: 'X', n: 3 };
                const t = (key) => i18n.t(key, n);
                out[lang] = [t('overcountPenalty'), t('penaltyCalled'), t('overcountNote')];
            }
            i18n.setLang('en');
            return out;
        }"""
    )
    for lang, (overcount, wrong_call, note) in words.items():
        assert overcount != wrong_call and "3" in overcount and note, (lang, words[lang])
    page.close()


# --------------------------------------------------------------------------- hints


def test_the_discard_hint_shows_the_column_it_is_ranked_by(contexts: ContextPool, server: str) -> None:
    """In a game to 61 the keeps are ranked by the chance of winning: the column is shown (on a
    phone too) and is in order; in lowball the points are the player's, fewest first, and said."""
    page = new_page(contexts, PHONE, f"{server}/?lang=ja&speed=instant&seed=3", options={"target": "61"})
    wait_ready(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    assert page.is_visible("#hint-win-note")
    assert_on_screen(page, ".hint-table th.win", what="the chance of winning on a phone")
    wins = [
        float(x.rstrip("%"))
        for x in page.eval_on_selector_all(".hint-table td.win", "els => els.map(e => e.textContent)")
    ]
    assert len(wins) == 15 and wins == sorted(wins, reverse=True)
    shot(page, "page-hint-win-ja")
    page.close()

    page = new_page(
        contexts, LAPTOP, f"{server}/?lang=en&speed=instant&seed=3", options={"variant": "lowball"}
    )
    wait_ready(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tbody tr")
    assert page.is_visible("#hint-lowball-note") and not page.query_selector(".hint-table th.win")
    assert "fewer is better" in (page.text_content(".hint-table th.total") or "")
    totals = [
        float(x)
        for x in page.eval_on_selector_all(".hint-table td.total", "els => els.map(e => e.textContent)")
    ]
    assert totals == sorted(totals) and totals[0] > 0
    page.close()


# --------------------------------------------------------------------------- the first visit


def test_the_first_visit_chooses_the_options_before_the_first_deal(
    contexts: ContextPool, server: str
) -> None:
    """Nothing remembered: the options come first and no game is dealt until they are chosen;
    they are remembered, and the next visit starts a game at once."""
    page = new_page(contexts, PHONE, f"{server}/?lang=ru&speed=instant&seed=9")
    page.wait_for_selector("#options-dialog[open]")
    assert page.text_content("#options-title") == "Добро пожаловать! Выберите игру"
    assert page.is_visible("#welcome-note") and not page.is_visible("#opt-cancel")
    assert page.evaluate("() => window.cribbage.state") is None
    assert_fits(page, "#options-dialog", "the first visit's options")
    shot(page, "page-first-visit-ru")
    page.check('input[name="level"][value="weak"]')
    page.select_option("#opt-target", "61")
    page.check('input[name="counting"][value="manual"]')
    page.click("#opt-start")
    wait_ready(page)
    options = state(page)["options"]
    assert options["level"] == "weak" and options["target"] == 61 and options["manual"] is True
    remembered = json.loads(page.evaluate("() => localStorage.getItem('cribbage.options')"))
    assert (
        remembered["level"] == "weak" and remembered["target"] == "61" and remembered["counting"] == "manual"
    )
    # The next visit (no game in progress): a game with the remembered options, no dialog.
    page.evaluate("() => localStorage.removeItem('cribbage.engine.game')")
    page.reload()
    wait_ready(page)
    assert not page.is_visible("#options-dialog")
    assert state(page)["options"]["level"] == "weak" and state(page)["options"]["target"] == 61
    page.close()
