"""The review page (issue 15, item 2) in Chromium: a game to 61 finished, the review opened from
the result screen in English on a desktop screen (1280x800), in Japanese and in Russian on a phone
(390x844): the graph of the chance of winning and the timeline are there, choosing a decision
shows the table of that moment (its cards are the decision's ``table.hand`` in the API's own
review), nothing scrolls sideways and no CSP violation is seen.  A record file is opened from the page (with a
seat to choose, and a three-player game whose graph shows the scores); bad files are refused in
the player's language and leave the review shown.

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each test's page starts with its storage cleared); screenshots
go to ``test-artifacts/``.
Never skipped: without Debian's ``chromium`` they fail, naming it.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from e2e_helpers import ContextPool, _api, finished_game, running_server, set_options, shot

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""

WORDS = {
    "en": {"open": "Review this game", "title": "Game review", "moment": "The table at that moment"},
    "ja": {"open": "この対局を振り返る", "title": "対局の振り返り", "moment": "その時点の場"},
    "ru": {"open": "Разобрать эту партию", "title": "Разбор партии", "moment": "Стол в тот момент"},
}
SCRIPT = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}

CARDS_OF = "els => els.map((e) => e.dataset.card)"
REVIEWED = "() => window.cribbageReview && window.cribbageReview.review && !window.cribbageReview.busy"
SETTLED = "() => window.cribbageReview && !window.cribbageReview.busy && (window.cribbageReview.review || window.cribbageReview.error)"  # noqa: E501
REFUSAL = """() => {
  const e = window.cribbageReview.error;
  return e && JSON.stringify({ ...e, err: e.err && { code: e.err.code, message: e.err.message } });
}"""


def reviewed(pg: Any) -> None:
    """Wait until the page's review request is answered, and say what went wrong if it was not
    a review (the request's refusal, e.g. ``busy``, rather than a bare timeout)."""
    pg.wait_for_function(SETTLED)
    error = pg.evaluate(REFUSAL)
    assert error is None, f"the review was refused: {error}"
    pg.wait_for_function(REVIEWED)


ERROR_SHOWN = "() => !window.cribbageReview.busy && !document.getElementById('review-error').hidden"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("review") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def game(server: str) -> dict[str, Any]:
    """A game to 61 played to its end through the API, its record and the API's review of seat 0
    (61: the shortest game with a win table, whose chance of winning the graph shows)."""
    played = finished_game(server)
    record = _api(server, "GET", f"/api/games/{played['id']}/record", token=played["token"])
    review = _api(server, "POST", "/api/review?seat=0", record)
    assert review["decisions"] and review["hands"][0]["win_start"] is not None
    return {"game": played, "record": record, "review": review}


@pytest.fixture(scope="module")
def short_record(server: str) -> dict[str, Any]:
    """The record of a game to 31 played to its end through the API: a short game, whose review
    costs the server a fraction of the game to 61's (for a review that is only shown)."""
    played = finished_game(server, target=31)
    return dict(_api(server, "GET", f"/api/games/{played['id']}/record", token=played["token"]))


def new_page(contexts: ContextPool, size: dict[str, int]) -> tuple[Any, list[str]]:
    """A page of that size (a phone has touch) whose console errors and CSP violations are kept."""
    phone = size["width"] < 600
    pg = contexts.page(viewport=size, is_mobile=phone, has_touch=phone, locale="en-US")
    set_options(pg, level="weak", speed="fast")
    pg.add_init_script(RECORD_VIOLATIONS)
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    return pg, problems


def no_sideways_scroll(pg: Any, what: str) -> None:
    extra = pg.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    assert extra <= 0, f"{what}: the page scrolls sideways by {extra}px"


def check_review(pg: Any, expected: dict[str, Any], lang: str, what: str) -> None:
    """The graph and the timeline are shown, and each kind of decision shows its moment."""
    reviewed(pg)
    shown = pg.evaluate("() => window.cribbageReview.review")
    assert shown["decisions"] == expected["decisions"], "the page shows the API's review of the seat"
    assert pg.inner_text(".review-title") == WORDS[lang]["title"]
    graph = pg.locator("#review-graph")
    assert graph.get_attribute("data-kind") == "win"
    assert pg.locator("#review-graph polyline").count() == 1
    # One point per hand as it is dealt, and one at the end.
    assert pg.locator("#review-graph circle.point").count() == len(expected["hands"]) + 1
    assert pg.locator("#timeline > li.hand-item").count() == len(expected["hands"])
    mine = [d for d in expected["decisions"] if d["seat"] == 0]
    assert pg.locator("#timeline button.decision").count() == len(mine)
    grades = pg.locator("#timeline button.decision .grade")
    for i in range(grades.count()):
        assert grades.nth(i).locator(".mark").inner_text().strip(), "a grade has its mark, not a colour only"
    if lang != "en":
        assert SCRIPT[lang].search(pg.inner_text("#review-body")), f"the review is worded in {lang}"
    for kind in ("discard", "play"):
        index = next(i for i, d in enumerate(expected["decisions"]) if d["seat"] == 0 and d["kind"] == kind)
        decision = expected["decisions"][index]
        pg.click(f"button.decision[data-index='{index}']")
        pg.wait_for_selector("#moment #moment-board svg.board-svg")
        assert pg.inner_text("#moment h3") == WORDS[lang]["moment"]
        cards = pg.eval_on_selector_all("#moment-hand .card", CARDS_OF)
        assert cards == decision["table"]["hand"], (kind, cards, decision["table"]["hand"])
        starter = pg.eval_on_selector_all("#moment-starter .card", CARDS_OF)
        assert starter == ([decision["table"]["starter"]] if decision["table"]["starter"] else [])
        if kind == "play":
            sequence = pg.eval_on_selector_all("#moment-sequence .card", CARDS_OF)
            assert sequence == decision["table"]["sequence"]
            assert f"{decision['table']['count']}" in pg.inner_text("#moment")
        pegs = pg.eval_on_selector_all("#moment-board .peg.front-peg", "ps => ps.map((p) => p.dataset.score)")
        assert sorted(int(p) for p in pegs) == sorted(decision["table"]["scores"])
        table = pg.locator(f"button.decision[data-index='{index}'] + .why-block table.compare")
        assert table.locator("tbody tr").count() == (1 if decision["rank"] == 1 else 2)
        no_sideways_scroll(pg, f"{what} with a {kind} shown")


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("ja", "phone"), ("ru", "phone")])
def test_the_review_opens_from_the_result_screen(
    contexts: ContextPool, server: str, game: dict[str, Any], lang: str, size: str
) -> None:
    """The longer words on the narrower screen: Japanese and Russian on a phone, English (and the
    record's download, and a reload) on a desktop."""
    pg, problems = new_page(contexts, SIZES[size])
    stored = json.dumps(json.dumps(game["game"]))
    pg.add_init_script(f"localStorage.setItem('cribbage.engine.game', {stored})")
    pg.goto(f"{server}/?lang={lang}&speed=instant")
    pg.wait_for_selector("#result-dialog[open] #result-chart svg")
    assert pg.inner_text("#result-review") == WORDS[lang]["open"]
    if lang == "en" and size == "desktop":
        with pg.expect_download() as download:
            pg.click("#result-record")
        saved = json.loads(download.value.path().read_text())
        assert saved == game["record"], "the download is the record as the server wrote it (64-bit seeds)"
    pg.click("#result-review")
    pg.wait_for_url(f"**/review?lang={lang}")
    assert "record" not in pg.url, "the record goes through sessionStorage, not the address"
    check_review(pg, game["review"], lang, f"{lang} on a {size}")
    assert pg.is_hidden("#seat-pick"), "one person's seat: nothing to choose"
    shot(pg, f"review-{lang}-{size}")
    stored = json.loads(pg.evaluate("() => sessionStorage.getItem('cribbage.review')"))
    assert json.loads(stored["text"]) == game["record"], "the record exactly as the server wrote it"
    assert stored["seat"] == 0 and stored["fromGame"] is True
    if size == "desktop":
        pg.reload()  # the review of this tab is kept across a reload (in any language)
        reviewed(pg)
        assert pg.evaluate("() => window.cribbageReview.seat") == 0
    assert pg.evaluate("() => window.__csp") == []
    assert problems == []
    pg.close()


def test_a_record_file_with_a_seat_to_choose(
    contexts: ContextPool, server: str, game: dict[str, Any]
) -> None:
    """A record opened from a file; with two people in it, the seat is chosen on the page."""
    pg, problems = new_page(contexts, PHONE)
    pg.goto(f"{server}/review?lang=en")
    pg.wait_for_function("() => window.cribbageReview && !window.cribbageReview.busy")
    assert pg.is_hidden("#review-body")
    assert "Open a game record" in pg.inner_text("#review-status")
    record = {**game["record"], "seats": [None, None]}  # both seats people's: either may be reviewed
    pg.set_input_files(
        "#record-file",
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    check_review(pg, game["review"], "en", "a file on a phone")
    assert pg.is_visible("#seat-pick")
    assert pg.locator("#seat-select option").count() == 2
    pg.select_option("#seat-select", "1")
    pg.wait_for_function("() => window.cribbageReview.review && window.cribbageReview.review.seats[0] === 1")
    reviewed(pg)
    seat1 = [d for d in pg.evaluate("() => window.cribbageReview.review.decisions") if d["seat"] == 1]
    assert seat1 and pg.locator("#timeline button.decision").count() == len(seat1)
    index = pg.evaluate("() => window.cribbageReview.review.decisions.findIndex((d) => d.seat === 1)")
    pg.click(f"button.decision[data-index='{index}']")
    cards = pg.eval_on_selector_all("#moment-hand .card", CARDS_OF)
    assert cards == seat1[0]["table"]["hand"] or seat1[0]["kind"] == "count"
    pg.select_option("#lang-select", "ja")  # the language changed on the page: all worded again
    pg.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert pg.inner_text(".review-title") == WORDS["ja"]["title"]
    assert pg.inner_text("#moment h3") == WORDS["ja"]["moment"], "the decision shown stays shown"
    assert SCRIPT["ja"].search(pg.inner_text("#timeline"))
    assert pg.evaluate("() => window.__csp") == []
    assert problems == []
    pg.close()


def test_three_players_show_the_scores_and_say_so(contexts: ContextPool, server: str) -> None:
    """Without a win table (three players) the graph shows every side's score, and says so (a game
    to 31: a short one, its review the server's work)."""
    played = finished_game(server, variant="three-player", target=31)
    record = _api(server, "GET", f"/api/games/{played['id']}/record", token=played["token"])
    pg, problems = new_page(contexts, PHONE)
    pg.goto(f"{server}/review?lang=ja")
    pg.wait_for_function(
        "() => window.cribbageReview && !window.cribbageReview.busy"
    )  # its file input listens
    pg.set_input_files(
        "#record-file",
        files=[{"name": "three.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    reviewed(pg)
    review = pg.evaluate("() => window.cribbageReview.review")
    assert review["players"] == 3 and review["hands"][0]["win_start"] is None
    assert pg.get_attribute("#review-graph", "data-kind") == "scores"
    assert pg.locator("#review-graph polyline").count() == 3
    assert "勝つ確率が分かりません" in pg.inner_text("#chart-caption")
    no_sideways_scroll(pg, "three players on a phone")
    shot(pg, "review-three-players-ja-phone")
    assert pg.evaluate("() => window.__csp") == []
    assert problems == []
    pg.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bad_files_are_refused_in_words(
    contexts: ContextPool, server: str, game: dict[str, Any], short_record: dict[str, Any], lang: str
) -> None:
    """Not JSON, JSON that is not a record, and a record the server refuses (422, its message
    shown): each is worded, and the review shown before (a game to 31's) stays as it was."""
    pg, problems = new_page(contexts, PHONE)
    pg.goto(f"{server}/review?lang={lang}")
    pg.wait_for_function(
        "() => window.cribbageReview && !window.cribbageReview.busy"
    )  # its file input listens

    def upload(name: str, data: bytes) -> None:
        file = {"name": name, "mimeType": "application/json", "buffer": data}
        pg.set_input_files("#record-file", files=[file])

    upload("good.json", json.dumps(short_record).encode())
    reviewed(pg)
    before = pg.evaluate("() => window.cribbageReview.review")

    upload("notes.txt", b"these are not the droids")
    pg.wait_for_function(ERROR_SHOWN)
    error = pg.inner_text("#review-error-text")
    assert "notes.txt" in error and ("JSON" in error)
    if lang == "ru":
        assert SCRIPT["ru"].search(error)
    assert pg.is_visible("#review-body"), "the review shown before stays"
    assert pg.evaluate("() => window.cribbageReview.review") == before

    upload("other.json", b'{"format": "something-else", "actions": []}')
    pg.wait_for_function("() => document.getElementById('review-error-text').textContent.includes('other')")
    assert "cribbage-record" in pg.inner_text("#review-error-text")
    assert pg.evaluate("() => window.cribbageReview.review") == before

    broken = json.loads(json.dumps(game["record"]))
    broken["actions"][3]["cards"] = ["5H", "5H"]  # a discard the deal never held
    upload("broken.json", json.dumps(broken).encode())
    pg.wait_for_function("() => document.getElementById('review-error-text').textContent.includes('5H')")
    error = pg.inner_text("#review-error-text")
    assert "action 4" in error, error  # the server's own message, which names the action (from 1)
    if lang == "ru":
        assert "Сервер не смог разобрать" in error
    assert pg.evaluate("() => window.cribbageReview.review") == before, "a refused record changes nothing"
    # The record is kept and sent as its file's text: its 64-bit seeds are not rounded.
    assert json.loads(pg.evaluate("() => window.cribbageReview.text")) == short_record
    assert pg.is_hidden("#review-retry"), "a refused record is not tried again"
    shot(pg, f"review-bad-file-{lang}-phone")

    # Cut in the second hand (without its result, which the cut record no longer reaches).
    unfinished = {k: v for k, v in game["record"].items() if k != "result"}
    unfinished["actions"] = unfinished["actions"][:20]
    upload("unfinished.json", json.dumps(unfinished).encode())
    pg.wait_for_function("() => window.cribbageReview.review && window.cribbageReview.review.result === null")
    reviewed(pg)
    assert pg.is_hidden("#review-error"), "a good record clears the error"
    words = {"en": "The record ends before the game does.", "ru": "Запись обрывается до конца партии."}
    assert words[lang] in pg.inner_text("#review-summary")
    hands = pg.evaluate("() => window.cribbageReview.review.hands")
    assert hands[-1]["win_end"] is None
    assert pg.locator("#review-graph circle.point").count() == len(hands), "no point after the last deal"
    assert pg.evaluate("() => window.__csp") == []
    assert [p for p in problems if "status of 422" not in p] == []
    pg.close()


def test_a_busy_server_is_worded_and_tried_again(
    contexts: ContextPool, server: str, game: dict[str, Any]
) -> None:
    """With both review slots of the server taken by real reviews, the page's request is answered
    503: the page says the server is busy, in the player's language, and Retry gets the review."""
    both = {**game["record"], "seats": [None, None]}  # two people: both seats reviewed, twice the work
    pg, problems = new_page(contexts, PHONE)
    pg.goto(f"{server}/review?lang=ja")
    pg.wait_for_function("() => window.cribbageReview && !window.cribbageReview.busy")
    workers = [threading.Thread(target=_api, args=(server, "POST", "/api/review", both)) for _ in range(2)]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + 10
    while True:  # until both slots are taken: an empty body is then refused 503, not 422
        try:
            _api(server, "POST", "/api/review", {})
        except urllib.error.HTTPError as exc:
            if exc.code == 503:
                break
        assert time.monotonic() < deadline, "the server never became busy"
    data = json.dumps(game["record"]).encode()
    file = {"name": "game.json", "mimeType": "application/json", "buffer": data}
    pg.set_input_files("#record-file", files=[file])
    pg.wait_for_function(ERROR_SHOWN)
    assert "サーバーはほかの対局を分析中です" in pg.inner_text("#review-error-text")
    assert pg.is_visible("#review-retry")
    for worker in workers:
        worker.join()
    pg.click("#review-retry")
    check_review(pg, game["review"], "ja", "a review tried again")
    assert pg.is_hidden("#review-error")
    assert pg.evaluate("() => window.__csp") == []
    assert [p for p in problems if "status of 503" not in p] == []
    pg.close()


def test_counts_and_muggins_are_worded_with_their_cards(contexts: ContextPool, server: str) -> None:
    """A game with manual counting and muggins in which seat 0 states 0 every time: each count
    says what was stated, what there was, what was missed and taken, and shows the cards counted
    (a game to 31: a short one, its review the server's work)."""
    played = finished_game(server, manual=True, muggins=True, target=31)
    record = _api(server, "GET", f"/api/games/{played['id']}/record", token=played["token"])
    pg, problems = new_page(contexts, DESKTOP)
    pg.goto(f"{server}/review?lang=en")
    pg.wait_for_function(
        "() => window.cribbageReview && !window.cribbageReview.busy"
    )  # its file input listens
    data = json.dumps(record).encode()
    pg.set_input_files(
        "#record-file", files=[{"name": "m.json", "mimeType": "application/json", "buffer": data}]
    )
    reviewed(pg)
    decisions = pg.evaluate("() => window.cribbageReview.review.decisions")
    missed = next(
        i for i, d in enumerate(decisions) if d["kind"] == "count" and d["what"] == "hand" and d["missed"]
    )
    d = decisions[missed]
    pg.click(f"button.decision[data-index='{missed}']")
    why = pg.inner_text(f"button.decision[data-index='{missed}'] + .why-block")
    assert (
        f"Your hand: you stated {d['chosen']['points']}; there were {d['best']['points']} points." in why
    ), why
    assert f"{d['missed']} point" in why and "missed" in why
    if d["taken"]:
        assert f"The opponent took {d['taken']} point" in why
    assert pg.eval_on_selector_all("#moment-counted .card", CARDS_OF) == d["table"]["kept"]
    call = next(i for i, d in enumerate(decisions) if d["kind"] == "count" and d["what"] == "muggins")
    d = decisions[call]
    pg.click(f"button.decision[data-index='{call}']")
    why = pg.inner_text(f"button.decision[data-index='{call}'] + .why-block")
    assert "you let the count stand" in why or "you called muggins" in why, why
    claim = d["table"]["claim"]
    shown = [
        x["cards"] for x in d["table"]["shown"] if x["seat"] == claim["seat"] and x["what"] == claim["what"]
    ]
    assert pg.eval_on_selector_all("#moment-counted .card", CARDS_OF) == shown[-1]
    assert f"stated {claim['points']}" in pg.inner_text("#moment")
    no_sideways_scroll(pg, "counts on a desktop")
    assert pg.evaluate("() => window.__csp") == []
    assert problems == []
    pg.close()


def test_the_practice_page_leads_to_the_review_page(contexts: ContextPool, server: str) -> None:
    """The review page is reached from the practice page's menu, in the page's language, and
    invites a record file to be opened."""
    pg, problems = new_page(contexts, PHONE)
    pg.goto(f"{server}/practice?lang=ru")
    link = pg.locator("#link-review")
    expect(link).to_have_text("Разбор партии")  # the words come once the page has its language
    no_sideways_scroll(pg, "the practice page's menu on a phone")
    link.click()
    pg.wait_for_url("**/review?lang=ru")
    pg.wait_for_function("() => window.cribbageReview && !window.cribbageReview.busy")
    assert pg.inner_text(".file-pick") == "Открыть запись партии"
    assert "Откройте запись партии" in pg.inner_text("#review-status")
    assert pg.is_hidden("#review-body") and pg.is_hidden("#review-error")
    no_sideways_scroll(pg, "the empty review page on a phone")
    missing = pg.evaluate(
        """async () => {
          const { STRINGS, loadLanguages } = await import('/static/shared/i18n.js');
          await loadLanguages();
          const keys = Object.keys(STRINGS.en).filter((k) => k.startsWith('review.'));
          const lacking = (l) => keys.filter((k) => !(k in STRINGS[l])).map((k) => `${l}:${k}`);
          return [keys.length, ['ja', 'ru'].flatMap(lacking)];
        }"""
    )
    assert missing[0] > 40 and missing[1] == [], "every word of the review page in ja and ru"
    assert pg.evaluate("() => window.__csp") == []
    assert problems == []
    pg.close()
