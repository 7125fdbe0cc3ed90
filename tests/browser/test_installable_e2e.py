"""The page installs as an app and opens offline after one visit (issue 45, item 1), in Chromium:
Chromium's own installability verdict through the DevTools protocol (no errors, the manifest
read from ``/manifest.webmanifest`` without errors); the service worker controls the page after
one visit with every file of ``/offline.json`` kept; then, the network off, every page reloads
from the worker's cache, and the game page says in the player's language (en, ja, ru) that the
server cannot be reached, with Retry, and no key of its words shows untranslated.

One ``cribbage serve`` and one Chromium for the module; each test a browser context of its own
(the network is switched off for a whole context), the installability's a persistent one (a
profile on disk: Chromium installs nothing from an incognito context, ``in-incognito``); never
skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from e2e_helpers import CHROMIUM_ARGS, find_chromium, running_server, watch_errors

PAGES = {  # each address, and what its page shows once loaded
    "/": "#scoreboard",
    "/howto": "article[lang]",
    "/review": "#review",
    "/practice": "#practice",
    "/tournaments": "#tournament",
    "/tournaments/0123abcd": "#tournament",
    "/join/ABCD-EFGH": "#scoreboard",
}

OFFLINE_WORDS = {  # the game page's words for "offline" and "Retry" (static/lang/*.js)
    "en": ("The server cannot be reached.", "Retry"),
    "ja": ("サーバーにつながりません。", "もう一度"),
    "ru": ("Сервер недоступен.", "Повторить"),
}

# The shell's cache once complete: its name and how many answers it holds.
KEPT_JS = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith('cribbage-shell-'));
  const paths = async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname);
  const kept = await Promise.all(names.map(paths));
  return { names, kept };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("installable") / "games.db") as base:
        yield base


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(
        locale="en-US", viewport={"width": 1200, "height": 900}, service_workers="allow"
    )
    yield made
    made.close()


def _controlled(page: Any) -> None:
    """Wait until the service worker controls ``page`` (it claims the page once active)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def test_chromium_finds_the_page_installable(browser: Any, server: str, tmp_path: Any) -> None:
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=find_chromium(), args=CHROMIUM_ARGS, locale="en-US"
    )
    try:
        _installable(context, server)
    finally:
        context.close()


def _installable(context: Any, server: str) -> None:
    page = watch_errors(context.new_page())
    page.goto(f"{server}/")
    _controlled(page)
    cdp = context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{server}/manifest.webmanifest"
    assert manifest["errors"] == []
    assert '"display": "standalone"' in manifest["data"]
    cdp.detach()


def test_the_worker_keeps_every_listed_file_after_one_visit(context: Any, server: str) -> None:
    page = watch_errors(context.new_page())
    listed = page.request.get(f"{server}/offline.json").json()
    page.goto(f"{server}/howto")
    _controlled(page)
    found = page.evaluate(KEPT_JS)
    assert found["names"] == [f"cribbage-shell-{listed['version']}"]
    # The shell's files, and the engine's as they are kept in the background (some or all yet).
    shell = [path for path in found["kept"][0] if not path.startswith("/engine/")]
    assert sorted(shell) == sorted([*listed["files"], "/offline.json"])
    assert set(found["kept"][0]) - set(shell) <= set(listed["engine"])
    scope = page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.scope)")
    assert scope == f"{server}/"  # one registration for the site: Web Push's too


def test_every_page_opens_offline_and_the_game_says_the_server_cannot_be_reached(
    context: Any, server: str
) -> None:
    page = watch_errors(context.new_page())
    page.goto(f"{server}/")
    _controlled(page)
    context.set_offline(True)
    try:
        for path, shown in PAGES.items():
            page.goto(f"{server}{path}")
            page.wait_for_selector(shown, state="attached")
            assert page.url == f"{server}{path}"
            assert page.evaluate("() => document.querySelector('link[rel=manifest]') !== null"), path
        for lang, (offline, retry) in OFFLINE_WORDS.items():
            page.goto(f"{server}/?lang={lang}")
            page.wait_for_selector("#error:not([hidden])")
            assert page.inner_text("#error span") == offline
            assert page.inner_text("#error button") == retry
            assert page.query_selector("dialog[open]") is None  # nothing covers the message
            keys = r"\b(?:err|account|tournament|play|players|review|train)\.[A-Za-z_.]+"
            assert not re.findall(keys, page.inner_text("body"))
        page.click("#error button")  # Retry: the page starts again, still offline, and says so
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error span") == OFFLINE_WORDS["ru"][0]
    finally:
        context.set_offline(False)
    page.goto(f"{server}/")  # the network back: the game page from the network, no error
    page.wait_for_function("() => !!document.querySelector('#opt-variant option')")
    assert page.is_hidden("#error")
