"""Tables with people in the browser (issue 14, part C): two browser contexts play each other by
clicking, a partnership deal with two people and two computers, and a leak check of every live
message each page receives.

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each person's page starts with its storage cleared); never
skipped: without Debian's ``chromium`` the tests fail, naming it.  Where a test is about something
else than the clicks of a deal (a spectator, play again, a muggins call, the next deal), the seats
play the rest of it through the HTTP API with their tokens while the pages follow it live (or
are away); the table made and joined in the pages plays its first deal by clicking
(test_web_e2e.py clicks a whole game through).
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.scoring import score_show
from e2e_helpers import ContextPool, _api, decision, running_server, shot, state, step
from spectators import check_spectator
from web_fixtures import first_action

PHONE = {"width": 390, "height": 844}
CARD = re.compile(r'"((?:[2-9TJQKA]|10)[CDHS\u2663\u2666\u2665\u2660])"')
# Event kinds that show cards to every seat (a discard shows its cards to its own seat only).
PUBLIC_KINDS = {"cut", "recut", "starter", "play", "score", "show", "go", "reset"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Every person of these tests joins from one address: more joins (and new games) a minute
    # than the default limits let one address make (the limits are test_web_limits.py's).
    limits = ["--limit", "join=200/minute;1000/hour", "--limit", "create=200/minute;1000/hour"]
    with running_server(tmp_path_factory.mktemp("tables") / "games.db", args=limits) as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


class Person:
    """A person's browser on a phone, its storage its own, with every live message it receives.

    ``browser`` is Chromium (a context of the person's own, closed with them) or a
    :class:`~e2e_helpers.ContextPool` (a page in one of its contexts, its storage cleared: the
    context goes back to the pool with the person)."""

    def __init__(self, browser: Any, options: dict[str, Any] | None = None) -> None:
        self.pool = isinstance(browser, ContextPool)
        if isinstance(browser, ContextPool):
            self.page = browser.page(viewport=PHONE, locale="en-US")
            self.context = self.page.context
        else:
            self.context = browser.new_context(viewport=PHONE, locale="en-US")
            self.context.set_default_timeout(30_000)
        stored = {
            "level": "weak",
            "variant": "standard",
            "target": "",
            "counting": "auto",
            "dealer": "cut",
            "speed": "normal",
            **(options or {}),
        }
        (self.page if self.pool else self.context).add_init_script(
            "try { if (!localStorage.getItem('cribbage.options'))"
            f" localStorage.setItem('cribbage.options', {json.dumps(json.dumps(stored))}); }} catch (e) {{}}"
        )
        self.received: list[str] = []
        """The live messages the page received, as sent (read as ``frames``)."""
        self.sent: list[dict[str, Any]] = []
        """The messages the page sent over its sockets (and its ``seen`` over HTTP)."""
        self.posts: list[str] = []
        """The actions the page sent over HTTP (their addresses)."""
        self.errors: list[str] = []
        if not self.pool:
            self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", self._socket)
        self.page.on("request", self._request)

    def _socket(self, ws: Any) -> None:
        def received(payload: Any) -> None:
            if isinstance(payload, str):
                self.received.append(payload)

        def sent(payload: Any) -> None:
            if isinstance(payload, str):
                self.sent.append(json.loads(payload))

        ws.on("framereceived", received)
        ws.on("framesent", sent)

    def _request(self, request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/actions"):
            self.posts.append(request.url)
        if request.method == "POST" and request.url.endswith("/seen"):  # as over the socket
            self.sent.append({"type": "seen", **json.loads(request.post_data)})

    @property
    def frames(self) -> list[dict[str, Any]]:
        """Every live message the page received (read when asked: most tests never ask)."""
        return [json.loads(payload) for payload in self.received]

    def actions_sent(self) -> list[dict[str, Any]]:
        """The actions the page sent over its sockets."""
        return [message for message in self.sent if message.get("type") == "action"]

    def sit(self, server: str, game: dict[str, Any], lang: str = "en") -> None:
        """Open the page on ``game`` (its id, token and seat), kept as the browser's own as if it
        had made or joined it."""
        self.page.add_init_script(  # (pages without storage, about:blank, are left alone)
            "try { if (!sessionStorage.getItem('e2e-game')) {"
            f" localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))});"
            " sessionStorage.setItem('e2e-game', '1'); } } catch (e) {}"
        )
        self.page.goto(f"{server}/?lang={lang}&speed=instant")
        self.page.wait_for_function("() => window.cribbage?.state && window.cribbage.live === 'live'")

    def game(self) -> dict[str, Any]:
        """The game this browser keeps as its own (its id, seat and token)."""
        return dict(json.loads(self.page.evaluate("() => localStorage.getItem('cribbage.engine.game')")))

    def close(self) -> None:
        if self.pool:
            self.page.close()  # its context goes back to the pool (closing twice is nothing)
        else:
            self.context.close()
        assert not self.errors, f"JavaScript errors on the page: {self.errors}"


CAN_ACT = """() => {
  const c = window.cribbage;
  if (!c || !c.state) return false;
  if (document.getElementById('btn-continue')) return true;
  return !c.busy && !c.state.over && (c.state.actions || []).length > 0;
}"""


def version(page: Any) -> int:
    """The version of the state the page shows (one look at the page)."""
    return int(page.evaluate("() => window.cribbage.state.version"))


def can_act(page: Any) -> bool:
    """The page waits for its person: Continue, or a decision (one look at the page)."""
    return bool(page.evaluate(CAN_ACT))


def play_together(pages: list[Any], done: Any, seconds: float = 90) -> None:
    """Each page takes its decisions by clicking whenever it has one, until done()."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        acted = False
        for page in pages:
            if can_act(page):
                step(page)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)


def api_play(
    server: str, game_id: str, tokens: list[str], done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Each seat in turn (its token) takes its first legal action through the HTTP API when it has
    one, until ``done`` of the state as a seat sees it, or the game's end: that state."""
    for _ in range(1000):
        for token in tokens:
            st: dict[str, Any] = _call(server, "GET", f"/api/games/{game_id}", token)
            if done(st) or st["over"]:
                return st
            if st["actions"]:
                body = {**first_action(st), "version": st["version"]}
                _call(server, "POST", f"/api/games/{game_id}/actions", token, body)
    raise AssertionError("the table did not get there through the API")


def seated(
    server: str, people: dict[int, Person], names: list[str], seats: list[dict[str, Any]], **options: Any
) -> dict[int, dict[str, Any]]:
    """A table made through the API by the first person (``names[0]``, seat 0) with ``seats`` and
    ``options`` (to 61 unless they say otherwise: None for the variant's own), its invitations
    taken there in turn by the other ``names``, and each person's page opened at their seat
    (``people`` by seat): each seat's game as its page keeps it (id, token, seat).
    (The tables made and joined in the page are
    test_two_people_make_a_table_in_the_page_and_play_it_to_the_result's.)"""
    body = {"seats": seats, "names": names[:1], "target": 61, **options}
    created = _api(server, "POST", "/api/games", body)
    games = {0: {"id": created["id"], "token": created["token"], "seat": 0}}
    for invite, name in zip(created["invites"], names[1:], strict=False):
        joined = _api(server, "POST", "/api/join", {"code": invite["code"], "name": name})
        games[joined["seat"]] = {"id": created["id"], "token": joined["token"], "seat": joined["seat"]}
    for seat, person in people.items():
        person.sit(server, games[seat])
    return games


HUMAN = {"kind": "human"}


def caught_up(pages: list[Any], version: int, seconds: float = 60) -> None:
    """Until each page has shown the game up to ``version`` and waits (its Continue pressed on the
    way, as its person would): pages that follow moves made through the API lag behind them."""
    deadline = time.monotonic() + seconds
    for page in pages:
        while not page.evaluate(
            "(v) => window.cribbage?.state?.version >= v && !window.cribbage.busy", version
        ):
            assert time.monotonic() < deadline, "the page did not catch up with the game"
            if page.query_selector("#btn-continue"):
                page.click("#btn-continue")
            page.wait_for_timeout(50)


def create_table(
    person: Person, server: str, variant: str, seats: dict[int, str], name: str, takeover: str = ""
) -> list[str]:
    """The creator chooses the seats in the options (and who takes the seat of a person who
    leaves) and starts: the invitations' links."""
    page = person.page
    page.goto(f"{server}/?lang=en&speed=instant")
    page.wait_for_function("() => window.cribbage?.state")
    page.click("#btn-new")
    page.select_option("#opt-variant", variant)
    for seat, kind in seats.items():
        page.select_option(f"#opt-seat-{seat}", kind)
    assert page.is_visible("#opt-name")
    page.fill("#opt-name", name)
    page.check("#opt-public")
    page.select_option("#opt-takeover", takeover)
    if variant == "standard":
        page.select_option("#opt-target", "61")
    page.click("#opt-start")
    page.wait_for_selector(".invite-link")
    links = page.eval_on_selector_all(".invite-link", "els => els.map((e) => e.value)")
    codes = page.eval_on_selector_all(".invite-code", "els => els.map((e) => e.textContent)")
    assert len(links) == len(codes) == sum(1 for k in seats.values() if k == "human")
    assert all(link.endswith(f"/join/{code}") for link, code in zip(links, codes, strict=True))
    assert "Waiting for people to join" in page.inner_text("#table-status")
    return [str(link) for link in links]


def join_by_link(person: Person, link: str, name: str) -> None:
    page = person.page
    page.goto(link + "?lang=en&speed=instant")
    page.wait_for_selector("#join-dialog[open]")
    assert page.input_value("#join-code") == link.rsplit("/", 1)[1]
    page.fill("#join-name", name)
    page.click("#join-submit")
    page.wait_for_function("() => window.cribbage?.state && !window.cribbage.busy")
    # The page's address no longer holds the invitation; the token is only in the storage.
    path = page.evaluate("() => location.pathname")
    assert path == "/"
    stored = page.evaluate("() => localStorage.getItem('cribbage.engine.game')")
    token = json.loads(stored)["token"]
    assert token not in page.url
    assert page.evaluate("() => localStorage.getItem('cribbage.name')") == name


def private_cards(frames: list[dict[str, Any]]) -> dict[int, set[str]]:
    """A seat's own cards by hand number, from its own live messages."""
    out: dict[int, set[str]] = defaultdict(set)
    for frame in frames:
        if frame.get("type") != "state":
            continue
        v = frame["state"]["view"]
        out[v["hand_number"]].update(v["hand"], v["kept"], v["discards"])
    return out


def check_no_leak(people: list[Person]) -> int:
    """No live message to a seat holds another seat's hidden cards, or the crib before the show."""
    own = {}
    received = [person.frames for person in people]
    for frames in received:
        states = [f["state"] for f in frames if f.get("type") == "state"]
        assert states, "no live message received"
        own[states[0]["seat"]] = private_cards(frames)
    checked = 0
    for frames in received:
        for frame in frames:
            if frame.get("type") != "state":
                continue
            st = frame["state"]
            seat, v = st["seat"], st["view"]
            text = json.dumps(st)
            assert '"deck"' not in text and '"pack"' not in text
            if v["crib"]:
                assert v["phase"] in ("show", "over"), f"the crib is shown in the {v['phase']}"
            public = {*v["hand"], *v["kept"], *v["discards"], *v["crib"]}
            if v["starter"]:
                public.add(v["starter"])
            public.update(p["card"] for p in v["played"])
            for shown in v["shown"]:
                public.update(shown["cards"])
            events = st.get("events") or []
            deals = [i for i, ev in enumerate(events) if ev["kind"] == "deal"]
            for ev in events[deals[-1] if deals else 0 :]:
                if ev["kind"] == "discard" and ev.get("seat") != seat:
                    assert not ev.get("cards"), "another seat's discard shows its cards"
                if ev["kind"] in PUBLIC_KINDS:
                    public.update(ev.get("cards") or [])
                    for combo in ev.get("combos") or []:
                        public.update(combo.get("cards") or [])
            # Every other seat's cards of this hand (from its own messages) may appear only once public.
            # The whole message but the rules' facts and the events of hands before this one.
            current = {**st, "view": {k: v[k] for k in v if k != "rules"}}
            current["events"] = events[deals[-1] if deals else 0 :]
            mentioned = set(CARD.findall(json.dumps(current)))
            for other, by_hand in own.items():
                if other == seat:
                    continue
                hidden = by_hand.get(v["hand_number"], set()) - public
                assert not (hidden & mentioned), f"seat {seat} sees seat {other}'s {hidden & mentioned}"
            checked += 1
    return checked


def test_two_people_make_a_table_in_the_page_and_play_it_to_the_result(
    contexts: ContextPool, server: str
) -> None:
    """Aiko makes a table to 61 in the page and Boris joins it by its link; they play its first
    deal by clicking (the moves over the live socket, Boris's dropped once and back by itself),
    the rest through the API while their pages are away; back on the page (its token kept in the
    browser) each shows the result from its own seat.  No live message shows one the other's
    hidden cards.  (test_web_e2e.py clicks a whole game through to its result.)"""
    aiko, boris = Person(contexts), Person(contexts)
    try:
        (link,) = create_table(aiko, server, "standard", {1: "human"}, "Aiko")
        join_by_link(boris, link, "Boris")
        # The creator's page hears of the join at once: the invitation goes, the game starts.
        aiko.page.wait_for_function("() => !document.querySelector('.invite-link')")
        assert "Boris" in aiko.page.inner_text("#table-panel")
        assert "Aiko" in boris.page.inner_text("#table-panel")
        assert aiko.page.evaluate("() => window.cribbage.live") == "live"
        shot(aiko.page, "tables-two-people-creator")
        shot(boris.page, "tables-two-people-joiner")
        # The seat waiting says whom it waits for (the one to act says it is their turn).
        dropped = False
        pages = [aiko.page, boris.page]

        def first_deal_played() -> bool:
            nonlocal dropped
            if not dropped and boris.page.evaluate("() => window.cribbage.state.view.phase") == "play":
                # A lost connection comes back by itself and catches up.
                boris.page.evaluate("() => window.cribbage.dropLive()")
                dropped = True
            return all(p.evaluate("() => window.cribbage.state.view.hand_number >= 2") for p in pages)

        play_together(pages, first_deal_played)
        # The moves went over the live socket, each with the version it was chosen at and a ref
        # (over HTTP only while Boris's socket was reconnecting, if he moved then): a discard and
        # four cards each at least.
        assert dropped and len(aiko.actions_sent()) >= 5 and not aiko.posts
        assert len(boris.actions_sent()) + len(boris.posts) >= 5 and len(boris.posts) <= 2
        assert all("version" in m["action"] and m["ref"] for m in aiko.actions_sent() + boris.actions_sent())
        # The rest of the game through the API, the pages away; they come back to its result.
        tokens, game_id = [aiko.game()["token"], boris.game()["token"]], state(aiko.page)["id"]
        for page in pages:
            page.goto("about:blank")
        assert api_play(server, game_id, tokens, lambda st: False)["over"]
        for page in pages:
            page.goto(f"{server}/?lang=en&speed=instant")
        for page in pages:
            page.wait_for_selector("#result-dialog[open]")
        a, b = state(aiko.page), state(boris.page)
        # Each page keeps the server's seat numbers (it only draws its own seat at the bottom).
        assert a["result"] == b["result"] and a["result"]["winner"] in (0, 1)
        assert [a["seat"], b["seat"]] == [0, 1]
        winner = "You win!"
        assert (winner in aiko.page.inner_text("#result-title")) == (a["result"]["winner"] == 0)
        assert (winner in boris.page.inner_text("#result-title")) == (b["result"]["winner"] == 1)
        mine = "#result-scores .final-score >> nth=0"  # the own side first, in the first colour
        assert boris.page.inner_text(mine).split()[-1] == str(b["result"]["scores"][1])
        assert a["over"] and b["over"] and a["id"] == b["id"] == game_id
        boris.page.wait_for_function("() => window.cribbage?.live === 'live'")
        shot(boris.page, "tables-two-people-result")
        assert check_no_leak([aiko, boris]) > 20
    finally:
        aiko.close()
        boris.close()


def test_a_move_goes_over_http_when_the_socket_does_not_answer_and_a_refusal_is_worded(
    contexts: ContextPool, server: str
) -> None:
    """Boris's socket passes through a route: his first move over it is swallowed (the page sends
    it over HTTP after a few seconds, once), the second is refused by the route as the server
    refuses (the page words it in his language, nothing sent over HTTP), the rest pass."""
    aiko, boris = Person(contexts), Person(contexts)
    moves: list[str] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") == "action":
                moves.append(str(data["ref"]))
                if len(moves) == 1:
                    return  # lost on the way: never answered
                if len(moves) == 2:
                    refusal = {"type": "error", "error": "no", "code": "illegal.action", "status": 400}
                    refusal["ref"] = data["ref"]
                    ws.send(json.dumps(refusal))
                    return
            to_server.send(message)

        ws.on_message(from_page)

    try:
        games = seated(server, {0: aiko}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        boris.page.route_web_socket(re.compile(r".*/live$"), route)
        boris.sit(server, games[1], lang="ja")  # his page's socket routed
        pages = [aiko.page, boris.page]
        play_together(pages, lambda: bool(moves))
        boris.page.wait_for_function(
            "() => !!window.cribbage && !window.cribbage.busy"
        )  # after a few seconds
        assert len(boris.posts) == 1  # the lost move went over HTTP, and was played
        play_together(pages, lambda: len(moves) >= 2)
        boris.page.wait_for_selector("#error", state="visible")
        assert boris.page.inner_text("#error").startswith("エラー：今はそれはできません。")
        assert len(boris.posts) == 1
        before = version(boris.page)
        play_together(pages, lambda: version(boris.page) >= before + 6)
        assert len(moves) > 2 and len(boris.posts) == 1 and not aiko.posts
    finally:
        aiko.close()
        boris.close()


def test_partnership_deal_with_two_people_and_two_computers(contexts: ContextPool, server: str) -> None:
    aiko, chen = Person(contexts), Person(contexts)
    try:
        weak = {"kind": "computer", "level": "weak"}
        seats = [HUMAN, weak, HUMAN, weak]
        games = seated(
            server,
            {0: aiko},
            ["Aiko"],
            seats,
            variant="four-player",
            target=None,
            public=True,
            takeover="strong",
        )
        # The lobby lists the table with its free seat, and who takes the seat of a person who
        # leaves, in the reader's language; the partner takes the free seat from there.
        lobby = chen.page
        code = state(aiko.page)["invites"][0]["code"]
        for lang, takeover in (
            ("en", "If someone leaves: Strong computer"),
            ("ja", "抜けた席：コンピューター（つよい）"),
            ("ru", "Если кто-то уйдёт: сильный компьютер"),
        ):
            lobby.goto(f"{server}/?lang={lang}&speed=instant")
            lobby.wait_for_function("() => window.cribbage?.state")
            lobby.click("#btn-lobby")
            lobby.wait_for_selector(f'.lobby-join[data-code="{code}"]')
            listed = lobby.inner_text("#lobby-body")
            assert "Aiko" in listed and takeover in listed, listed
        lobby.click(f'.lobby-join[data-code="{code}"]')
        lobby.wait_for_selector("#join-dialog[open]")
        lobby.fill("#join-name", "Chen")
        lobby.click("#join-submit")
        lobby.wait_for_function("() => window.cribbage?.state?.seat === 2")
        # The first deal through the API (the pages follow it live), to the second.
        tokens = [games[0]["token"], chen.game()["token"]]
        st = api_play(server, games[0]["id"], tokens, lambda st: st["view"]["hand_number"] >= 2)
        caught_up([aiko.page, chen.page], st["version"])  # the show read to its end
        a, c = state(aiko.page), state(chen.page)
        # Partners share a side: the same scores, in the same order from either's point of view.
        assert a["view"]["scores"] == c["view"]["scores"]
        assert sum(a["breakdown"][0].values()) + sum(a["breakdown"][1].values()) > 0
        shot(chen.page, "tables-partners-after-first-show")
        assert check_no_leak([aiko, chen]) > 5
    finally:
        aiko.close()
        chen.close()


def test_each_page_shows_which_people_are_connected(contexts: ContextPool, server: str) -> None:
    aiko, boris = Person(contexts), Person(contexts)
    try:
        seated(server, {0: aiko, 1: boris}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        aiko.page.wait_for_selector('.table-seats li[data-seat="1"] .presence.online')
        assert aiko.page.inner_text('.table-seats li[data-seat="1"] .presence') == "online"
        boris.page.wait_for_selector('.table-seats li[data-seat="0"] .presence.online')
        shot(aiko.page, "tables-presence-online")
        boris.page.close()  # Boris's page goes: Aiko's says so, from the server's word
        aiko.page.wait_for_selector('.table-seats li[data-seat="1"] .presence.offline')
        assert aiko.page.inner_text('.table-seats li[data-seat="1"] .presence') == "offline"
        assert aiko.page.query_selector('.table-seats li[data-seat="0"] .presence.online')
    finally:
        aiko.close()
        boris.close()


def test_a_spectator_watches_by_the_creators_link_and_sees_only_what_every_seat_sees(
    contexts: ContextPool, server: str
) -> None:
    aiko, boris, carla = Person(contexts), Person(contexts), Person(contexts)
    try:
        seated(server, {0: aiko, 1: boris}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        aiko.page.click("#btn-watch-link")
        watch = aiko.page.input_value("#watch-link")
        assert re.fullmatch(rf"{re.escape(server)}/watch/[2-9A-Z]{{10}}", watch), watch
        assert not boris.page.query_selector("#btn-watch-link")  # the creator's only
        carla.page.goto(watch + "?lang=ja&speed=instant")
        carla.page.wait_for_function(
            "() => window.cribbage && window.cribbage.state && window.cribbage.live === 'live'"
        )
        assert carla.page.inner_text("#table-status").startswith("観戦中")
        assert carla.page.evaluate("() => localStorage.getItem('cribbage.engine.game')") is None
        # The seats play on through the API, their pages away (the spectator's is looked at).
        start, game_id = state(aiko.page)["version"], state(aiko.page)["id"]
        tokens = [aiko.game()["token"], boris.game()["token"]]
        for person in (aiko, boris):
            person.page.goto("about:blank")
        api_play(server, game_id, tokens, lambda st: st["version"] >= start + 12)
        carla.page.wait_for_function(f"() => window.cribbage?.state?.version >= {start + 12}")
        shot(carla.page, "tables-spectator")
        watched = state(carla.page)
        assert watched["spectator"] and watched["view"]["hand"] == [] and watched["actions"] == []
        assert not carla.page.query_selector("#btn-watch-link")
        frames = [f["state"] for f in carla.frames if f.get("type") == "state"]
        assert len(frames) > 3
        for frame in frames:
            check_spectator(frame)
        assert "Boris" in carla.page.inner_text("#table-panel") and "Aiko" in carla.page.inner_text(
            "#table-panel"
        )
    finally:
        aiko.close()
        boris.close()
        carla.close()


def test_a_person_leaves_and_the_creator_gives_the_seat_to_a_computer(
    contexts: ContextPool, server: str
) -> None:
    aiko, boris = Person(contexts), Person(contexts)
    try:
        seated(server, {0: aiko, 1: boris}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        aiko.page.wait_for_function("() => !document.querySelector('.invite-link')")
        boris.page.on("dialog", lambda dialog: dialog.accept())
        boris.page.click("#btn-leave")
        boris.page.wait_for_selector("#options-dialog[open]")
        assert boris.page.evaluate("() => localStorage.getItem('cribbage.engine.game')") is None
        # Aiko's page: the seat is open again, its invitation back, and the log says who left.
        aiko.page.wait_for_selector('.table-seats li.open[data-seat="1"]')
        assert "Boris left the table: the seat is open." in (aiko.page.text_content("#log") or "")
        aiko.page.wait_for_selector('.invite[data-seat="1"] .seat-computer-go')
        shot(aiko.page, "tables-seat-left")
        aiko.page.select_option('.invite[data-seat="1"] .seat-computer-level', "weak")
        aiko.page.click('.invite[data-seat="1"] .seat-computer-go')
        aiko.page.wait_for_function("() => window.cribbage?.state?.seats[1].kind === 'computer'")
        st = state(aiko.page)
        assert st["seats"][1]["level"] == "weak" and st["waiting_for"] == []
        assert "Weak computer" in aiko.page.inner_text('.table-seats li[data-seat="1"]')
        play_together([aiko.page], lambda: version(aiko.page) >= st["version"] + 6)
    finally:
        aiko.close()
        boris.close()


def test_the_turn_clock_chosen_on_the_page_counts_down_beside_the_seat_to_act(
    contexts: ContextPool, server: str
) -> None:
    aiko, boris = Person(contexts), Person(contexts)
    try:
        page = aiko.page
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        page.click("#btn-new")
        page.select_option("#opt-seat-1", "human")
        page.fill("#opt-name", "Aiko")
        page.select_option("#opt-clock", "30")
        page.click("#opt-start")
        link = page.input_value(".invite-link")
        assert state(page)["options"]["clock"] == 30 and state(page)["turn_clock"] is None  # waits
        joined = _api(server, "POST", "/api/join", {"code": link.rsplit("/", 1)[1], "name": "Boris"})
        boris.sit(server, {"id": state(page)["id"], "token": joined["token"], "seat": joined["seat"]})
        page.wait_for_selector(".table-seats .clock-left")
        st = state(page)
        seat = st["turn_clock"]["seat"]
        # The seat's page says it shows the decision: its 30 seconds run from then (not before).
        shown = (aiko if seat == 0 else boris).sent
        deadline = time.monotonic() + 10
        while not any(m.get("type") == "seen" for m in shown):
            assert time.monotonic() < deadline, "the page never said it shows the decision"
            page.wait_for_timeout(50)
        assert [m for m in shown if m.get("type") == "seen"][:1] == [
            {"type": "seen", "version": st["version"]}
        ]
        badge = f'.table-seats li[data-seat="{seat}"] .clock-left'
        page.wait_for_function(
            f"() => /^(30|29|28|27) s left$/.test(document.querySelector('{badge}').textContent)",
            timeout=5_000,
        )
        page.wait_for_function(
            f'() => /^(2[0-7]) s left$/.test(document.querySelector(\'.table-seats li[data-seat="{seat}"]'
            " .clock-left').textContent)",
            timeout=10_000,
        )
        shot(page, "tables-turn-clock")
    finally:
        aiko.close()
        boris.close()


def test_the_creator_gives_an_offline_persons_seat_to_a_computer_after_asking(
    contexts: ContextPool, server: str
) -> None:
    aiko, boris = Person(contexts), Person(contexts)
    try:
        seated(server, {0: aiko, 1: boris}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        page = aiko.page
        page.wait_for_function("() => (window.cribbage?.state?.connected || []).includes(1)")
        assert not page.query_selector('.table-seats li[data-seat="1"] .seat-computer-go')  # online
        boris.page.close()  # Boris goes offline (his seat is still his)
        button = '.table-seats li[data-seat="1"] .seat-computer-go'
        page.wait_for_selector(button)
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            if len(asked) == 1:
                dialog.dismiss()
            else:
                dialog.accept()

        page.on("dialog", answer)
        given: list[str] = []  # the page's requests to give a seat to a computer
        page.on("request", lambda r: given.append(r.url) if r.url.endswith("/computer") else None)
        with page.expect_event("dialog"):
            page.click(button)  # asked, and refused: nothing changes
        assert asked == [
            "Boris is offline. Give their seat to a computer? They will not play at this table again."
        ]
        assert state(page)["seats"][1]["kind"] == "human"
        page.select_option('.table-seats li[data-seat="1"] .seat-computer-level', "weak")
        page.click(button)
        page.wait_for_function("() => window.cribbage?.state?.seats[1].kind === 'computer'")
        assert len(asked) == 2 and state(page)["seats"][1]["level"] == "weak"
        assert len(given) == 1, given  # the refused question sent nothing
        st = state(page)
        play_together([page], lambda: version(page) >= st["version"] + 6)
    finally:
        aiko.close()
        boris.close()


def test_people_discard_at_once_and_a_choice_survives_the_others_discard(
    contexts: ContextPool, server: str
) -> None:
    aiko, boris = Person(contexts), Person(contexts)
    try:
        seated(server, {0: aiko, 1: boris}, ["Aiko", "Boris"], [HUMAN, HUMAN])
        pages = {0: aiko.page, 1: boris.page}
        for page in pages.values():
            page.wait_for_function(
                "() => window.cribbage?.state?.actions.length > 0 && !window.cribbage.busy"
            )
        first = state(aiko.page)["view"]["to_act"]
        later = pages[1 - first]  # its seat discards after the other in the engine's order...
        later.click('#hand [data-index="1"]')  # ...and chooses a card while the other discards
        version = state(later)["version"]
        step(pages[first])
        later.wait_for_function(f"() => window.cribbage?.state?.version > {version} && !window.cribbage.busy")
        assert later.query_selector('#hand [data-index="1"].selected')  # its choice is still there
        later.click('#hand [data-index="2"]')
        later.click("#btn-confirm")
        for page in pages.values():
            page.wait_for_function("() => window.cribbage?.state?.view.phase === 'play'")
        # Now the other way round at the next deal: the later seat discards first, at once.  The
        # rest of this deal is played through the API while the pages are away; they come back to it.
        tokens, game_id = [aiko.game()["token"], boris.game()["token"]], state(aiko.page)["id"]
        for page in pages.values():
            page.goto("about:blank")
        st = api_play(
            server,
            game_id,
            tokens,
            lambda st: st["view"]["phase"] == "discard" and st["view"]["hand_number"] == 2,
        )
        for page in pages.values():
            page.goto(f"{server}/?lang=en&speed=instant")
        caught_up(list(pages.values()), st["version"])
        assert all(can_act(page) for page in pages.values())
        first = state(aiko.page)["view"]["to_act"]
        later = pages[1 - first]
        step(later)
        later.wait_for_function("() => window.cribbage?.state?.view.discards.length === 2")
        assert state(later)["actions"] == [] and len(later.query_selector_all("#hand button.card")) == 4
        assert "Waiting for" in later.inner_text("#prompt")
        assert state(pages[first])["view"]["discards"] == []  # nothing of it shown to the other
    finally:
        aiko.close()
        boris.close()


def _call(server: str, method: str, path: str, token: str, body: Any = None) -> Any:
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_play_again_takes_every_page_to_the_new_game(contexts: ContextPool, server: str) -> None:
    """The people's pages and a spectator's (left at the last show, never pressing Continue)."""
    aiko, boris, carla = Person(contexts), Person(contexts), Person(contexts)
    try:
        # The table made and joined through the API, its game (to 31, a short one) played there
        # while the spectator's page follows it live; the people's pages open on its result.
        games = seated(server, {}, ["Aiko", "Boris"], [HUMAN, HUMAN], target=31)
        game_id, tokens = games[0]["id"], [games[0]["token"], games[1]["token"]]
        code = _call(server, "POST", f"/api/games/{game_id}/watch", tokens[0])["code"]
        carla.page.goto(f"{server}/watch/{code}?lang=ru&speed=instant")
        carla.page.wait_for_function("() => window.cribbage?.live === 'live'")
        assert api_play(server, game_id, tokens, lambda st: False)["over"]
        aiko.sit(server, games[0])
        boris.sit(server, games[1])
        pages = [aiko.page, boris.page]
        deadline = time.monotonic() + 60
        while not all(p.query_selector("#result-dialog[open] #result-again:not([hidden])") for p in pages):
            assert time.monotonic() < deadline, "no result with a play-again button"
            for page in pages:
                if page.query_selector("#btn-continue") and not page.query_selector("#result-dialog[open]"):
                    page.click("#btn-continue")  # the last show, then the result
            pages[0].wait_for_timeout(50)
        shot(boris.page, "tables-play-again")
        boris.page.click("#result-again")
        for seat, page in enumerate(pages):
            page.wait_for_function(
                f"() => window.cribbage.state && window.cribbage.state.id !== {json.dumps(game_id)}"
                " && !window.cribbage.busy"
            )
            st = state(page)
            assert st["seat"] == seat and not st["over"] and st["waiting_for"] == []
            assert (
                json.loads(page.evaluate("() => localStorage.getItem('cribbage.engine.game')"))["id"]
                == st["id"]
            )
        assert state(aiko.page)["id"] == state(boris.page)["id"]
        assert "A new game at the same table." in (aiko.page.text_content("#log") or "")
        # The spectator's page went too, to the new game's watch link (its address says so).
        new_id = state(aiko.page)["id"]
        carla.page.wait_for_function(
            f"() => window.cribbage.state && window.cribbage.state.id === {json.dumps(new_id)}"
            " && !window.cribbage.busy && window.cribbage.live === 'live'"
        )
        follow = _call(server, "POST", f"/api/games/{new_id}/watch", tokens[0])["code"]
        assert follow != code and carla.page.evaluate("() => location.pathname") == f"/watch/{follow}"
        assert "Новая партия за тем же столом." in (carla.page.text_content("#log") or "")
        assert carla.page.evaluate("() => localStorage.getItem('cribbage.engine.game')") is None
        # The spectator's page shows the new game as it goes on (its Continue pressed, as a person would).
        # (The people play on through the API with the new game's tokens, which their pages keep.)
        new_tokens = [aiko.game()["token"], boris.game()["token"]]
        target = api_play(server, new_id, new_tokens, lambda st: st["version"] > 8)["version"]
        caught_up([carla.page], target)
        frames = [f["state"] for f in carla.frames if f.get("type") == "state"]
        assert any(frame["id"] == new_id for frame in frames)
        for frame in frames:
            check_spectator(frame)
    finally:
        aiko.close()
        boris.close()
        carla.close()


def test_a_wrong_code_is_said_in_the_reader_language_and_every_new_text_is_translated(
    contexts: ContextPool, server: str
) -> None:
    dana = Person(contexts)
    try:
        page = dana.page
        page.goto(f"{server}/?lang=ru&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        page.click("#btn-join")
        page.fill("#join-code", "ZZZZZZ")
        page.fill("#join-name", "Дана")
        page.click("#join-submit")
        page.wait_for_selector("#join-error:not([hidden])")
        assert page.inner_text("#join-error") == "Стола с таким кодом нет."
        missing = page.evaluate(
            """async () => {
              const { STRINGS, loadLanguages } = await import('/static/shared/i18n.js');
              await loadLanguages();
              const keys = ['joinTable', 'lobby', 'seatsTitle', 'yourName', 'publicTable', 'inviteCode',
                'join', 'refresh', 'playerN', 'openSeat', 'seatN', 'person', 'computerChosen',
                'waitingJoin', 'waitingFor', 'yourTurn', 'toAct', 'joined', 'notJoined', 'invitations',
                'inviteLink', 'copyLink', 'copyCode', 'copied', 'live.connecting', 'live.live',
                'live.reconnecting', 'live.refused', 'joinUnknown', 'joinTaken', 'err.too_many',
                'joinBadName', 'joinedLog', 'loading', 'lobbyEmpty', 'clockN', 'freeSeats',
                'whoWaits', 'joinSeat', 'seatOnline', 'seatOffline', 'watching', 'watchingLog',
                'getWatchLink', 'watchLink', 'ifLeaves', 'takeoverWait', 'leaveTable', 'leaveConfirmWait',
                'youLeft', 'computerTakes', 'leftSeat', 'leftForComputer', 'turnClock', 'noClock',
                'clock30', 'clock60', 'clock120', 'clockLeft', 'away', 'rematch', 'rematchLog',
                'takeoverLevel', 'takeoverNone',
                'mugginsAnyone', 'waitingMuggins', 'mugginsLate'];
              return ['en', 'ja', 'ru'].flatMap(
                (l) => keys.filter((k) => !(k in STRINGS[l])).map((k) => `${l}:${k}`));
            }"""
        )
        assert missing == []
    finally:
        dana.close()


def _missed(view: dict[str, Any]) -> int:
    """The points the count awaiting the muggins decision left out, from what every seat sees."""
    claim = view["claim"]
    if claim is None or claim["what"] == "play":
        return 0
    cards = next(
        s["cards"] for s in view["shown"] if s["seat"] == claim["seat"] and s["what"] == claim["what"]
    )
    true = score_show(
        parse_cards(" ".join(cards)), Card.parse(view["starter"]), crib=claim["what"] == "crib"
    ).total
    return int(true - claim["points"])


def test_three_people_count_by_hand_and_the_first_muggins_call_in_the_browser_wins(
    contexts: ContextPool, server: str
) -> None:
    options = {"counting": "muggins"}
    aiko, boris, chen = (Person(contexts, options) for _ in range(3))
    try:
        # The deal and the play through the API, then each person's page opens at the show: the
        # counts are the test.
        three = {"variant": "three-player", "target": None, "manual": True, "muggins": True}
        games = seated(server, {}, ["Aiko", "Boris", "Chen"], [HUMAN, HUMAN, HUMAN], **three)
        tokens = [games[seat]["token"] for seat in range(3)]
        st = api_play(server, games[0]["id"], tokens, lambda st: decision(st) == "count")
        people = [aiko, boris, chen]
        for seat, person in enumerate(people):
            person.sit(server, games[seat])
        names = {0: "Aiko", 1: "Boris", 2: "Chen"}
        pages = [p.page for p in people]
        caught_up(pages, st["version"])
        caller: Person | None = None
        deadline = time.monotonic() + 120
        while caller is None:
            assert time.monotonic() < deadline, "no count open to two people missed any points"
            # A count that missed points, open to both opponents: the one who decides second
            # (not the page's turn yet: to_act is the other) calls first, in the browser.
            for person in people:
                page = person.page
                if not can_act(page) or page.query_selector("#btn-continue"):
                    continue
                st = state(page)
                claim = st["view"]["claim"]
                if (
                    claim
                    and len(claim["callers"]) == 2
                    and st["view"]["to_act"] != st["seat"]
                    and _missed(st["view"]) > 0
                ):
                    caller = person
                    break
            if caller is not None:
                break
            acted = False
            for page in pages:
                if can_act(page):
                    step(page)  # counts of 0, cards played, counts let stand
                    acted = True
            if not acted:
                pages[0].wait_for_timeout(40)
        page = caller.page
        st = state(page)
        missed = _missed(st["view"])
        seat = st["seat"]
        counter_seat = st["view"]["claim"]["seat"]  # the server's seat numbers
        first_seat = next(s for s in range(3) if s not in (seat, counter_seat))
        assert "Every opponent may call: the first call takes the points." in page.inner_text("#prompt")
        first_page = people[first_seat].page
        # The opponent whose turn it is to decide is offered the call too.
        first_page.wait_for_function(
            "() => (window.cribbage.state.actions || []).some((a) => a.type === 'muggins')", timeout=10_000
        )
        # The counter's page says whom the table waits for: both opponents, by name.
        waiting = f"Waiting for a muggins call or pass: {names[first_seat]}, {names[seat]}"
        people[counter_seat].page.wait_for_function(
            "(text) => document.getElementById('prompt').textContent.includes(text)",
            arg=waiting,
            timeout=10_000,
        )
        shot(page, "tables-muggins-before-the-call")
        page.fill("#muggins-input", str(missed))
        page.click("#btn-muggins")
        page.wait_for_function("() => !document.querySelector('#muggins-input')")
        # Every page sees the call; the other opponent's choice is gone.
        expected = f"Muggins! {names[seat]} takes {missed} point{'s' if missed != 1 else ''}."
        log = "() => document.getElementById('log').textContent"  # the log may be folded away
        for other in people:
            mine = other is caller
            text = f"Muggins! You take {missed} point{'s' if missed != 1 else ''}." if mine else expected
            until = time.monotonic() + 20
            while text not in other.page.evaluate(log):
                assert time.monotonic() < until, f"{names[people.index(other)]} never saw {text!r}"
                if other.page.query_selector("#btn-continue"):  # the show waits to be read
                    other.page.click("#btn-continue")
                other.page.wait_for_timeout(50)
        first = state(first_page)
        assert not any(a["type"] in ("pass", "muggins") for a in first["actions"])
        shot(first_page, "tables-muggins-seen-by-the-other-opponent")
        assert check_no_leak(people) > 3
    finally:
        for person in (aiko, boris, chen):
            person.close()


def test_an_over_count_between_people_is_shown_once_and_only_after_the_muggins_decision(
    contexts: ContextPool, server: str
) -> None:
    """Issue 29: a count stated too high appeared twice in the caller's show ("hand 6 (stated 29)"
    twice), and its true points were on the caller's page before the decision."""
    options = {"counting": "muggins"}
    aiko, boris = Person(contexts, options), Person(contexts, options)
    try:
        # The deal and the play through the API, then the pages open at the first count.
        games = seated(server, {}, ["Aiko", "Boris"], [HUMAN, HUMAN], manual=True, muggins=True)
        st = api_play(
            server, games[0]["id"], [games[0]["token"], games[1]["token"]], lambda st: decision(st) == "count"
        )
        people = {0: aiko, 1: boris}
        for seat, person in people.items():
            person.sit(server, games[seat])
        caught_up([aiko.page, boris.page], st["version"])
        counter: Person | None = None
        deadline = time.monotonic() + 90
        while counter is None:  # to the first count of a show; the pone states 29
            assert time.monotonic() < deadline, "no show came"
            acted = False
            for person in people.values():
                if not can_act(person.page):
                    continue
                st = state(person.page)
                if decision(st) == "count" and not st["view"]["shown"]:
                    counter = person
                    break
                step(person.page)
                acted = True
            if not acted and counter is None:
                aiko.page.wait_for_timeout(40)
        step(counter.page, count=29)
        caller = boris if counter is aiko else aiko
        page = caller.page
        page.wait_for_selector(".muggins-form", timeout=20_000)
        # The caller sees the cards and the 29 stated, and nothing of what they are worth.
        entry = page.inner_text(".show-entry")
        assert "stated 29" in entry and not page.query_selector(".show-entry .entry-total"), entry
        told = [e for e in state(page)["events"] if e.get("claim") == 29 or e.get("detail") == "over-count"]
        assert not told, told
        page.click("#btn-pass")
        # Read through the show to the caller's own count: the over-count is listed once.
        deadline = time.monotonic() + 30
        while decision(state(page)) != "count" or page.evaluate("() => window.cribbage.busy"):
            assert time.monotonic() < deadline, "the caller's count never came"
            if page.query_selector("#btn-continue"):
                page.click("#btn-continue")
            page.wait_for_timeout(50)
        summary = page.eval_on_selector_all(".show-summary li", "els => els.map((e) => e.textContent)")
        assert sum("stated 29" in line for line in summary) == 1, summary
        entry = page.inner_text(".show-entry")
        assert "stated 29" not in entry, entry  # the current entry is the caller's own count
    finally:
        aiko.close()
        boris.close()
