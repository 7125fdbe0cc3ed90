"""The tournament page (/tournaments, /tournaments/{id}; issue 44 items 2 and 3) in Chromium.

An online evening: a director and four people, each in a browser context of their own signed in
as their account (the session the game page keeps, put where the page reads it), run a short
tournament: the director creates it on the page, all five register and check in by clicking, the
director starts it; each player sees "your next game is ready" and clicks Play into the game page
once; the games themselves are played out through the HTTP API (each side's first legal action),
and the pages follow by their polling: the standings, the playoff bracket (a 2-entrant final, best
of 3: a finalist is told again when the final's next game is ready), the scorecard and the
champion.  A club night at real boards: the two players enter their table's result from phones
(one page in Japanese), they disagree, the director (in Russian) sees the disagreement and decides
it, and the standings update; no key of the page's words shows untranslated.

One ``cribbage serve`` and one Chromium for the module (``e2e_helpers.ContextPool``: each
person's page starts with its storage cleared); never skipped.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from e2e_helpers import ContextPool, _api, running_server
from web_fixtures import PASSWORD, first_action

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
# Recorded from the first moment of each document (test_web_page_csp.py's): the page sets no
# style attribute and runs no inline script, as the policy without 'unsafe-inline' wants.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""
WAIT = 20_000  # ms: a page's polling (every 3 s) shows what the server decided


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Every account, its seats opened (the signin limit) and every page's polling come from one
    # address: above the default limits.
    limits = [
        "--limit", "signup=200/minute;2000/hour",
        "--limit", "signin=500/minute;5000/hour",
        "--limit", "tournaments=5000/minute;50000/hour",
    ]  # fmt: skip
    with running_server(tmp_path_factory.mktemp("tournament") / "games.db", args=limits) as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


class Person:
    """An account and its page, signed in as the game page keeps a session (``cribbage.session``)."""

    def __init__(self, pool: ContextPool, base: str, name: str, viewport: dict[str, int], lang: str = "en"):
        self.base = base
        self.name = f"{name}{uuid.uuid4().hex[:4]}"
        self.token = str(
            _api(base, "POST", "/api/accounts", {"name": self.name, "password": PASSWORD})["token"]
        )
        self.lang = lang
        self.page = pool.page(viewport=viewport, locale="en-US")
        session = json.dumps(json.dumps({"token": self.token, "name": self.name}))
        self.page.add_init_script(f"localStorage.setItem('cribbage.session', {session});")
        self.page.add_init_script(RECORD_VIOLATIONS)

    def violations(self) -> list[str]:
        """The Content-Security-Policy's refusals on the page shown (none: it keeps the policy)."""
        return list(self.page.evaluate("() => window.__csp || []"))

    def open(self, path: str) -> Any:
        self.page.goto(f"{self.base}{path}?lang={self.lang}")
        return self.page

    def close(self) -> None:
        self.page.close()


def tournament(base: str, tid: str, token: str | None = None) -> dict[str, Any]:
    return dict(_api(base, "GET", f"/api/tournaments/{tid}", token=token))


def play_game(base: str, game_id: str, sessions: list[str]) -> None:
    """The table's game played out over HTTP: each account opens its seat, then every turn's
    seat takes its first legal action, until the game is over."""
    keys = [_api(base, "POST", f"/api/accounts/games/{game_id}/open", token=s) for s in sessions]
    tokens = {int(k["seat"]): str(k["token"]) for k in keys}
    holder = 0
    state = _api(base, "GET", f"/api/games/{game_id}", token=tokens[holder])
    for _ in range(2000):
        if state["over"]:
            return
        seat = int(state["view"]["to_act"])
        if seat != holder:
            holder, state = seat, _api(base, "GET", f"/api/games/{game_id}", token=tokens[seat])
        action = {**first_action(state), "version": state["version"]}
        state = _api(base, "POST", f"/api/games/{game_id}/actions", action, tokens[holder])
    raise AssertionError("the game did not end")


def undecided_games(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [x for x in t["tables"] if x["game_id"] and x["outcome"] is None]


def next_games(base: str, tid: str) -> dict[str, Any]:
    """The tournament once it has games to play or is finished (a game's end makes the next
    tables at once, or within moments): at most 20 s."""
    deadline = time.monotonic() + 20
    while True:
        now = tournament(base, tid)
        if now["stage"] == "finished" or undecided_games(now) or time.monotonic() > deadline:
            return now
        time.sleep(0.1)


def no_key_leaks(page: Any) -> str:
    """The page's text, checked for a word key shown as such (a missing translation)."""
    text = str(page.inner_text("body"))
    leaked = re.findall(r"\b(?:tournament|err|account)\.[A-Za-z_.]+", text)
    assert not leaked, leaked
    return text


@pytest.mark.timeout(150)  # five browsers through a whole event: 17-27 s alone, over 60 s with a core busy
def test_an_online_tournament_from_registration_to_its_champion(contexts: ContextPool, server: str) -> None:
    director = Person(contexts, server, "Dana", DESKTOP)
    people = [Person(contexts, server, name, PHONE) for name in ("Ann", "Bob", "Cy", "Eve")]
    everyone = [director, *people]
    try:
        # The director creates the tournament on the page: 61 points, one qualifying game, a final.
        page = director.open("/tournaments")
        page.fill("#c-name", "Tuesday night")
        page.select_option("#c-variant", "short")
        page.fill("#c-games", "1")
        page.select_option("#c-best-of", "3")
        page.fill("#c-starts", "2030-01-02T19:30")  # the director may still start it earlier
        page.click("#c-submit")
        page.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+"))
        tid = page.url.split("/tournaments/")[1].split("?")[0]
        page.wait_for_selector("#t-name:has-text('Tuesday night')")  # once the page has read it
        assert "61 points" in page.inner_text("#t-settings")
        assert "starts Jan 2, 2030, 7:30" in page.inner_text("#t-settings")  # the reader's own time
        # Everyone (the director plays too: five entrants, two qualify) registers and checks in.
        for person in everyone:
            pg = person.page if person is director else person.open(f"/tournaments/{tid}")
            pg.click("#t-register")
            pg.click("#t-checkin")
            pg.wait_for_selector("#t-reg-status:has-text('You are checked in.')")
        page.wait_for_selector("#t-director-body:has-text('5 checked in.')", timeout=WAIT)
        page.click("#t-start")
        page.wait_for_selector("#t-pairings-card:not([hidden])")
        started = tournament(server, tid)
        assert started["stage"] == "running"
        number = {
            p.name: next(e["number"] for e in started["entrants"] if e["name"] == p.name) for p in everyone
        }
        playing = {n for x in undecided_games(started) for n in (x["first"], x["second"])}
        assert len(playing) == 4, "two tables and a bye"
        # Each player is told their game is ready, and Play opens it on the game page.
        for person in everyone:
            pg = person.page
            if number[person.name] not in playing:
                assert pg.locator("#t-ready").is_hidden()
                continue
            pg.wait_for_selector("#t-ready:not([hidden])", timeout=WAIT)
            assert pg.title().startswith("Your game is ready")
            assert pg.locator(".t-table-row.is-mine .t-play").count() == 1
            assert pg.locator(".t-table-row .t-watch").count() == 2, "every game in progress is watchable"
            game_id = next(
                x["game_id"]
                for x in undecided_games(started)
                if number[person.name] in (x["first"], x["second"])
            )
            pg.click("#t-ready-play")
            pg.wait_for_function(
                "(id) => window.cribbage && window.cribbage.state && window.cribbage.state.id === id",
                arg=game_id,
            )
            person.open(f"/tournaments/{tid}")
        sessions = {number[p.name]: p.token for p in everyone}
        # The games are played through the API until the champion; the finalists are told again.
        finalist_told = False
        for _ in range(8):
            now = next_games(server, tid)
            if now["stage"] == "finished":
                break
            for table in undecided_games(now):
                if table["stage"] == "playoffs" and table["game"] == 1 and not finalist_told:
                    finalist = next(p for p in everyone if number[p.name] == table["first"])
                    finalist.page.wait_for_selector("#t-ready:not([hidden])", timeout=WAIT)
                    finalist_told = True
                play_game(server, table["game_id"], [sessions[table["first"]], sessions[table["second"]]])
        final = tournament(server, tid)
        assert final["stage"] == "finished" and final["champion"] is not None and finalist_told
        champion = next(p for p in everyone if number[p.name] == final["champion"])
        page.wait_for_selector("#t-champion:not([hidden])", timeout=WAIT)
        assert page.inner_text("#t-champion") == f"Champion: {champion.name}"
        rows = page.locator("#t-standings tbody tr")
        assert rows.count() == 5
        leader = final["standings"][0]
        cells = rows.nth(0).locator("td")
        assert cells.nth(0).inner_text() == "1" and cells.nth(2).inner_text() == str(leader["game_points"])
        assert page.locator("#t-bracket .t-bracket-round").count() == 1
        assert page.locator("#t-bracket .t-match .t-side.is-winner").inner_text().startswith(champion.name)
        assert page.locator("#t-csv").get_attribute("href") == f"/api/tournaments/{tid}/standings.csv"
        assert director.violations() == []
        # The champion's scorecard: every game, its review from the page.
        pg = champion.page
        pg.wait_for_selector("#t-champion:not([hidden])", timeout=WAIT)
        pg.click(f"#t-standings button[data-entrant='{final['champion']}']")
        lines = pg.locator("#t-scorecard tbody tr")
        played = [x for x in final["tables"] if final["champion"] in (x["first"], x["second"])]
        assert lines.count() == len(played) >= 3
        assert pg.locator("#t-scorecard .t-result.is-won").count() >= 2
        pg.locator("#t-scorecard .t-review").first.click()
        pg.wait_for_url(re.compile(r"/review"))
        pg.wait_for_selector("#review-body:not([hidden])", timeout=30_000)
    finally:
        for person in everyone:
            person.close()


def test_a_club_night_disagreement_is_decided_by_the_director(contexts: ContextPool, server: str) -> None:
    director = Person(contexts, server, "Dir", DESKTOP, lang="ru")
    ann = Person(contexts, server, "Ann", PHONE, lang="ja")
    bob = Person(contexts, server, "Bob", PHONE)
    try:
        settings = {"name": "Club night", "venue": "club", "variant": "short", "games": 1, "best_of": 0}
        tid = _api(server, "POST", "/api/tournaments", settings, token=director.token)["id"]
        for person in (ann, bob):
            _api(server, "POST", f"/api/tournaments/{tid}/register", token=person.token)
        # The director checks both in and starts it from the page (in Russian).
        page = director.open(f"/tournaments/{tid}")
        for _ in range(2):
            page.locator(".t-checkin").first.click()
            page.wait_for_function("() => document.querySelectorAll('.t-checkin').length < 2")
        page.wait_for_selector("#t-director-body:has-text('Отметились: 2.')")
        text = no_key_leaks(page)
        assert "Судья" in text and "Начать турнир" in text
        page.click("#t-start")
        page.wait_for_selector(".t-table-row .t-result-form")
        # The director starts to type the result (61 to 20) while the players enter theirs on their
        # phones: they disagree about the loser's score.
        numbers = {e["name"]: e["number"] for e in tournament(server, tid)["entrants"]}
        form = page.locator(".t-table-row .t-result-form")
        form.locator(".r-winner").select_option(str(numbers[ann.name]))
        form.locator(".r-points").fill("20")
        for person, points in ((ann, "40"), (bob, "35")):
            pg = person.open(f"/tournaments/{tid}")
            entry = pg.locator(".t-table-row .t-result-form")
            entry.locator(".r-winner").select_option(str(numbers[ann.name]))
            if person is bob:  # a score the server refuses is worded by its field, the form kept
                entry.locator(".r-points").fill("61")
                entry.locator("button[type=submit]").click()
                expect(pg.locator("#t-error")).to_have_text("Loser’s score: from 0 to 60.")
            entry.locator(".r-points").fill(points)
            entry.locator("button[type=submit]").click()
            pg.wait_for_selector(".t-table-row .t-result-form", state="detached")
        expect(ann.page.locator(".t-table-row .t-outcome")).to_have_text(
            "2人の入力が一致しません。ディレクターが決めます。", timeout=WAIT
        )
        # The director sees the disagreement with both entries (the polls that brought them kept
        # what the director had typed), and decides.
        page.wait_for_selector(".t-dispute", timeout=WAIT)
        dispute = page.inner_text(".t-dispute")
        assert "Записи игроков расходятся" in dispute and "40" in dispute and "35" in dispute
        assert page.locator(".t-table-row .t-entries li").count() == 2
        expect(form.locator(".r-points")).to_have_value("20")
        expect(form.locator(".r-winner")).to_have_value(str(numbers[ann.name]))
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#t-champion:not([hidden])")
        assert ann.name in page.inner_text("#t-champion")
        # The players' standings update: the winner first with a skunk's 3 game points, +41.
        for pg in (ann.page, bob.page):
            first = pg.locator("#t-standings tbody tr").nth(0).locator("td")
            expect(first.nth(2)).to_have_text("3", timeout=WAIT)
            assert first.nth(1).inner_text() == ann.name
            assert [first.nth(i).inner_text() for i in (4, 5)] == ["1", "+41"]
        text = no_key_leaks(ann.page)
        assert "順位表" in text and "優勝" in text
        assert director.violations() == [] and ann.violations() == []
        # A guest is entered by name on the page, before a club night's start.
        other = _api(
            server, "POST", "/api/tournaments", {**settings, "name": "Next week"}, token=director.token
        )
        page = director.open(f"/tournaments/{other['id']}")
        page.fill("#t-guest-name", "Walk-in Wes")
        page.click("#t-guest-add")
        guest = page.locator("#t-entrants li", has_text="Walk-in Wes")
        expect(guest).to_contain_text("гость")
        expect(guest.locator(".t-tag.is-in")).to_have_text("отметился")
    finally:
        for person in (director, ann, bob):
            person.close()


def test_a_team_event_of_partners_to_its_champion(contexts: ContextPool, server: str) -> None:
    """Teams of two: Ann registers naming Bob on the page, Bob (in Russian) accepts and checks the
    team in; the director starts it; both partners are told their game is ready; the game seats
    four and is played through the API; a visitor opens the champion's scorecard and its review."""
    director = Person(contexts, server, "Dir", DESKTOP)
    ann = Person(contexts, server, "Ann", PHONE)
    bob = Person(contexts, server, "Bob", PHONE, lang="ru")
    cy, di = (Person(contexts, server, name, PHONE) for name in ("Cy", "Di"))
    visitor = contexts.page(viewport=DESKTOP, locale="en-US")
    try:
        page = director.open("/tournaments")
        page.fill("#c-name", "Pairs night")
        page.select_option("#c-variant", "four-player")
        page.fill("#c-games", "1")
        page.select_option("#c-best-of", "0")
        page.click("#c-submit")
        page.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+"))
        tid = page.url.split("/tournaments/")[1].split("?")[0]
        # Ann names Bob: a name nobody has is refused in words first.
        pg = ann.open(f"/tournaments/{tid}")
        pg.fill("#t-partner-name", "Nobody here")
        pg.click("#t-register")
        expect(pg.locator("#t-error")).to_have_text("No account is named “Nobody here”.")
        pg.fill("#t-partner-name", bob.name)
        pg.click("#t-register")
        expect(pg.locator("#t-reg-status")).to_have_text(f"Waiting for {bob.name} to accept the partnership.")
        # Bob is asked, accepts and checks the team in.
        bp = bob.open(f"/tournaments/{tid}")
        expect(bp.locator("#t-reg-status")).to_contain_text(ann.name)
        no_key_leaks(bp)
        bp.click("#t-accept")
        bp.click("#t-checkin")
        bp.wait_for_selector("#t-reg-status:has-text('отметились')")
        no_key_leaks(bp)
        _api(server, "POST", f"/api/tournaments/{tid}/register", {"partner": di.name}, token=cy.token)
        _api(server, "POST", f"/api/tournaments/{tid}/partner", token=di.token)
        _api(server, "POST", f"/api/tournaments/{tid}/checkin", token=cy.token)
        team = f"{ann.name} & {bob.name}"
        expect(page.locator("#t-entrants li", has_text=team)).to_contain_text("checked in", timeout=WAIT)
        page.click("#t-start")
        page.wait_for_selector("#t-pairings-card:not([hidden])")
        # Both partners are told; the table is the two teams'.
        for person in (ann, bob):
            person.page.wait_for_selector("#t-ready:not([hidden])", timeout=WAIT)
        assert team in ann.page.inner_text(".t-table-row.is-mine")
        (table,) = undecided_games(tournament(server, tid))
        play_game(server, table["game_id"], [ann.token, cy.token, bob.token, di.token])
        final = tournament(server, tid)
        assert final["stage"] == "finished" and final["champion"] in (1, 2)
        champion = next(e["name"] for e in final["entrants"] if e["number"] == final["champion"])
        page.wait_for_selector("#t-champion:not([hidden])", timeout=WAIT)
        assert page.inner_text("#t-champion") == f"Champion: {champion}"
        assert director.violations() == [] and ann.violations() == []
        # A visitor (signed out) opens the champion's scorecard and reviews the game.
        visitor.goto(f"{server}/tournaments/{tid}?lang=en")
        visitor.wait_for_selector("#t-champion:not([hidden])")
        visitor.click(f"#t-standings button[data-entrant='{final['champion']}']")
        visitor.locator("#t-scorecard .t-review").click()
        visitor.wait_for_url(re.compile(r"/review"))
        visitor.wait_for_selector("#review-body:not([hidden])", timeout=30_000)
    finally:
        for person in (director, ann, bob, cy, di):
            person.close()
        visitor.close()
