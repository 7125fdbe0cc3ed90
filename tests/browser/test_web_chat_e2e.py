"""The chat panel in the browser (view-chat.js): two people at one table, each in a browser of
their own, one reading in English and one in Japanese.  A quick phrase is worded in each
reader's language; a text with markup is shown as the text typed; a muted seat's messages are
hidden, and stay hidden after a reload; a report is said to be made; a table against the
computer has no chat at all.

One ``cribbage serve`` and one Chromium for the module, whose browser contexts serve its tests in
turn (``e2e_helpers.ContextPool``: each page starts with its storage cleared).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import ContextPool, _api, running_server, shot

OPTIONS = {"level": "weak", "variant": "standard", "target": "", "counting": "auto", "dealer": "cut"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("chat") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


def reader(contexts: ContextPool, game: dict[str, Any], lang: str) -> Any:
    """A browser's page of its own (not yet anywhere) whose game is ``game`` (a seat's id and token)."""
    page = contexts.page(viewport={"width": 1000, "height": 900}, locale=lang)
    script = f"localStorage.setItem('cribbage.options', {json.dumps(json.dumps(OPTIONS))});"
    script += f"localStorage.setItem('cribbage.engine.game', {json.dumps(json.dumps(game))});"
    once = f"if (!sessionStorage.getItem('e2e')) {{ {script} sessionStorage.setItem('e2e', '1'); }}"
    page.add_init_script(f"try {{ {once} }} catch (e) {{}}")
    return page


def said(page: Any) -> list[str]:
    """The chat's lines as shown: each its name and what was said."""
    lines = []
    for li in page.query_selector_all("#chat-log li"):
        who, what = li.query_selector(".chat-who"), li.query_selector(".chat-said")
        lines.append(f"{who.inner_text().strip()} {what.inner_text()}")
    return lines


def test_two_people_chat_with_a_phrase_and_a_text(contexts: ContextPool, server: str) -> None:
    created = _api(
        server, "POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "names": ["Aiko"]}
    )
    joined = _api(server, "POST", "/api/join", {"code": created["invites"][0]["code"], "name": "Boris"})
    aiko = reader(contexts, {"id": created["id"], "token": created["token"], "seat": 0}, "en-US")
    boris = reader(contexts, {"id": joined["id"], "token": joined["token"], "seat": 1}, "ja-JP")
    try:
        aiko.goto(f"{server}/?lang=en&speed=instant")
        boris.goto(f"{server}/?lang=ja&speed=instant")
        for page in (aiko, boris):
            page.wait_for_selector("#chat-form")
            page.wait_for_function("() => window.cribbage?.live === 'live'")
        aiko.click('#chat-phrases [data-phrase="gg"]')
        boris.wait_for_selector("#chat-log li")
        assert said(boris) == ["Aiko: いい勝負でした"]  # the phrase in the reader's language
        aiko.wait_for_selector("#chat-log li")
        assert said(aiko) == ["You: Good game"]  # her own, as the scoreboard names her
        typed = '<b>hi</b> <img src=x onerror="window.pwned=1">'
        boris.fill("#chat-text", typed)
        boris.press("#chat-text", "Enter")
        aiko.wait_for_selector("#chat-log li >> nth=1")
        assert said(aiko) == ["You: Good game", f"Boris: {typed}"]  # the text as typed, never markup
        assert aiko.query_selector("#chat-log b, #chat-log img") is None
        assert aiko.evaluate("() => window.pwned") is None
        assert boris.input_value("#chat-text") == ""
        shot(aiko, "chat-en")
        # Aiko reports Boris's message, then mutes Boris: hidden, and still after a reload.
        aiko.click("#chat-log li >> nth=1 >> .chat-report")
        aiko.wait_for_selector("#chat-log li >> nth=1 >> .chat-report[disabled]")
        assert "reported" in aiko.inner_text("#chat-note")
        aiko.click("#chat-log li >> nth=1 >> .chat-mute")
        assert said(aiko) == ["You: Good game"]
        assert "Boris is muted" in aiko.inner_text("#chat-muted")
        aiko.reload()
        aiko.wait_for_selector("#chat-log li")
        assert said(aiko) == ["You: Good game"]  # the history, without the muted seat
        aiko.click("#chat-muted .chat-unmute")
        assert said(aiko) == ["You: Good game", f"Boris: {typed}"]
        # Too long is said in the reader's language, before anything is sent.
        boris.fill("#chat-text", "x" * 200)
        boris.evaluate("() => { document.getElementById('chat-text').value += 'y'; }")
        boris.press("#chat-text", "Enter")
        assert boris.inner_text("#chat-note") == "メッセージは200文字までです。"
    finally:
        aiko.close()
        boris.close()


def test_a_table_against_the_computer_has_no_chat(contexts: ContextPool, server: str) -> None:
    created = _api(server, "POST", "/api/games", {"level": "weak"})
    page = reader(contexts, {"id": created["id"], "token": created["token"], "seat": 0}, "en-US")
    try:
        page.goto(f"{server}/?lang=en&speed=instant")
        page.wait_for_function("() => window.cribbage?.state")
        page.wait_for_timeout(300)
        assert page.query_selector("#chat") is None
    finally:
        page.close()
