"""A chat flood in the browser (issue 42, item 9): messages typed fast past the chat's limit (5 in
10 seconds by default; 5 a minute here) lost their text, the line cleared before the server
refused them, and a report inside the same window was refused too, reports counting against the
chat.  The line now keeps its text until the server says the message; a refusal says why in the
reader's language; a report has its own limit and goes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import ContextPool, _api, running_server
from test_web_chat_e2e import reader, said


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The chat's 5 in a minute, not the default's 5 in 10 seconds: a slow machine stays inside it.
    limits = ["--limit", "chat=5/minute;300/hour"]
    with running_server(tmp_path_factory.mktemp("chat-flood") / "games.db", args=limits) as base:
        yield base


@pytest.fixture(scope="module")
def contexts(browser: Any, server: str) -> Iterator[ContextPool]:
    pool = ContextPool(browser, server)
    yield pool
    pool.close()


def send(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


@pytest.mark.parametrize(
    ("lang", "locale", "refused"),
    [
        ("en", "en-US", "Too many messages at once: your text is kept; send it again in"),
        ("ja", "ja-JP", "メッセージが多すぎます。入力した文は残してあります。"),
    ],
)
def test_a_flood_keeps_the_text_refused_and_a_report_still_goes(
    contexts: ContextPool, server: str, lang: str, locale: str, refused: str
) -> None:
    created = _api(
        server, "POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "names": ["Aiko"]}
    )
    joined = _api(server, "POST", "/api/join", {"code": created["invites"][0]["code"], "name": "Boris"})
    aiko = reader(contexts, {"id": created["id"], "token": created["token"], "seat": 0}, "en-US")
    boris = reader(contexts, {"id": joined["id"], "token": joined["token"], "seat": 1}, locale)
    try:
        aiko.goto(f"{server}/?lang=en&speed=instant")
        boris.goto(f"{server}/?lang={lang}&speed=instant")
        for page in (aiko, boris):
            page.wait_for_selector("#chat-form")
            page.wait_for_function("() => window.cribbage?.live === 'live'")
        send(aiko, "you will lose")
        boris.wait_for_selector("#chat-log li")

        for n in range(5):  # the chat's limit: each said, and only then the line cleared
            send(boris, f"message {n}")
            boris.wait_for_function(
                "(n) => document.querySelectorAll('#chat-log li').length === n", arg=n + 2
            )
            boris.wait_for_function("() => document.getElementById('chat-text').value === ''")
        send(boris, "one too many")
        boris.wait_for_function(
            "(text) => document.getElementById('chat-note').textContent.startsWith(text)", arg=refused
        )
        assert boris.input_value("#chat-text") == "one too many"  # kept, to send again
        assert len(said(boris)) == 6 and not any("one too many" in line for line in said(boris))

        # Within the same minute, Boris reports Aiko's message: reports have a limit of their own.
        boris.click("#chat-log li >> nth=0 >> .chat-report")
        boris.wait_for_selector("#chat-log li >> nth=0 >> .chat-report[disabled]")
        assert boris.input_value("#chat-text") == "one too many"
    finally:
        aiko.close()
        boris.close()
