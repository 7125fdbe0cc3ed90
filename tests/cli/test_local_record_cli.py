"""A game played in the browser's engine downloads as the engine's record (issue 45 item 2:
"`cribbage replay` and `cribbage review` read a file downloaded from the page"): the text the
worker's ``record`` call answers (cribbage.local.calls), saved to a file, is read by both
commands; a kept game's ``saved`` text restores it there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribbage.cli import main
from cribbage.engine.templates import choices
from cribbage.local.calls import call


def test_a_browser_games_record_is_read_by_replay_and_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = {"variant": "short", "level": "weak", "seed": 12, "names": ["Aiko"]}
    state = json.loads(call("new", json.dumps(["local-cli", options])))["ok"]
    while not state["over"]:
        action = {**next(choices(state["actions"][0])), "version": state["version"]}
        state = json.loads(call("act", json.dumps(["local-cli", action])))["ok"]
    text = json.loads(call("record", json.dumps(["local-cli"])))["ok"]  # the page's download
    path = tmp_path / "cribbage-game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    assert "Aiko" in replayed
    assert main(["review", "--seat", "0", "--json", str(path)]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["names"][0] == "Aiko" and review["seats"]
    # The kept form restores the game, over, in another tab's engine.
    saved = json.loads(json.loads(call("saved", json.dumps(["local-cli"])))["ok"])
    again = json.loads(
        call("restore", json.dumps(["local-cli-2", saved["options"], json.dumps(saved["record"])]))
    )
    assert again["ok"]["over"] and again["ok"]["result"] == state["result"]
