"""The page names a show's combinations as the terminal does (issue 29, item 17): the pairs of a
rank as one line (pair royal, double pair royal), runs on the same ranks with their pairs as one
(double run, triple run, double double run), in every language of the page.

The page's ``showLines`` (static/shared/i18n.js) is run in Chromium on the engine's combinations and
compared with :func:`cribbage.text.show_lines`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cribbage.engine.scoring import score_show
from cribbage.text import show_lines

HANDS = [
    ("7H 7C 7S 2D", "KC"),
    ("7H 7C 7S 7D", "KC"),
    ("3H 3C 4S 5D", "KD"),
    ("9H 9C TS JD", "JC"),
    ("9H 9C 9S TD", "JC"),
    ("5H 5C 5S JD", "5D"),
    ("AH 2C 3S 7D 8C", "9D"),
    ("3H 3C 3S 4D 5D", "4C"),
]

WORDS = {
    "en": ["Pair royal for 6", "Double pair royal for 12", "Double run of 3 for 8", "Triple run of 3 for 15"],
    "ja": ["ペア・ロイヤル（3枚） 6点", "ダブルラン（3枚）8点", "トリプルラン（3枚）15点"],
    "ru": ["Тройка (королевская пара) — 6", "Двойная последовательность из 3 — 8"],
}

LINES_JS = """async ([combos, lang]) => {
  const m = await import('/static/shared/i18n.js');
  await m.setLang(lang);
  return combos.map((cs) => m.showLines(cs).map((l) => [l.kind, l.points, l.n, l.cards.length,
    m.comboLine(l.kind, l.points, l.n)]));
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from e2e_helpers import running_server

    with running_server(tmp_path_factory.mktemp("web") / "games.db") as base:
        yield base


@pytest.mark.parametrize("lang", ["en", "ja", "ru"])
def test_the_page_groups_a_shows_combinations_as_the_terminal_does(
    browser: Any, server: str, lang: str
) -> None:
    shows = [score_show(hand, starter) for hand, starter in HANDS]
    combos = [[c.to_json() for c in show.combos] for show in shows]
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(server)
        found = page.evaluate(LINES_JS, [combos, lang])
    finally:
        ctx.close()
    for show, lines in zip(shows, found, strict=True):
        english = [
            f"{kind} of {n} for {p}" if kind.endswith("run") else f"{kind} for {p}"
            for kind, p, n, _, _ in lines
        ]
        expected = show_lines(show.combos)
        assert english == [line.words for line in expected]
        assert [count for *_, count, _ in lines] == [len(line.cards) for line in expected]
    texts = [text for lines in found for *_, text in lines]
    assert all(any(w in text for text in texts) for w in WORDS[lang]), texts
