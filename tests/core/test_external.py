"""External bots over JSON lines: the example bot plays, misbehaving bots lose their games."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from cribbage.engine.actions import Deal, Discard, Play
from cribbage.engine.cards import parse_cards
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.players import RandomPlayer
from cribbage.players.external import BotError, ExternalPlayer, build_request, parse_answer
from cribbage.table.match import play_game, run_match

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'bot.py'))}"

# The first legal answer, the protocol's simplest bot; misbehaving bots below start from it.
FIRST_LEGAL = """
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps(request["legal"][0]), flush=True)
"""


def bot(tmp_path: Path, name: str, source: str) -> str:
    """A player name that runs ``source`` as a Python script."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_example_bot_plays_a_match() -> None:
    result = run_match(EXAMPLE_BOT, "random", games=4, seed=1, jobs=1, rules=get_rules())
    assert result.errors == [] and result.games == 4
    assert result.a_wins + result.b_wins == 4
    assert result.to_json()["a_points"]["pegging"] > 0


def test_example_bot_gives_the_same_result_on_two_jobs() -> None:
    one = run_match(EXAMPLE_BOT, "random", games=4, seed=3, jobs=1, rules=get_rules())
    two = run_match(EXAMPLE_BOT, "random", games=4, seed=3, jobs=2, rules=get_rules())
    timing = ("seconds", "games_per_second", "jobs")
    assert {k: v for k, v in one.to_json().items() if k not in timing} == {
        k: v for k, v in two.to_json().items() if k not in timing
    }


MISBEHAVING = {
    "sleeps": (
        "import sys, time\nsys.stdin.readline()\ntime.sleep(10)\n",
        "did not answer within 0.5 s",
    ),
    "exits": (
        "import sys\nsys.stdin.readline()\nsys.stderr.write('boom: out of ideas\\n')\nsys.exit(3)\n",
        "exited with status 3 without answering; its last error line: 'boom: out of ideas'",
    ),
    "garbage": (
        "import sys\nsys.stdin.readline()\nprint('hello there', flush=True)\nsys.stdin.readline()\n",
        "sent a line that is not JSON: 'hello there'",
    ),
    "illegal": (
        FIRST_LEGAL.replace(
            'print(json.dumps(request["legal"][0]), flush=True)',
            'answer = request["legal"][0]\n'
            '    if request["type"] == "play":\n'
            '        seen = set(request["view"]["hand"]) | {p["card"] for p in request["view"]["played"]}\n'
            '        deck = [r + s for r in "A23456789TJQK" for s in "CDHS"]\n'
            '        answer = {"play": next(card for card in deck if card not in seen)}\n'
            "    print(json.dumps(answer), flush=True)",
        ),
        "illegal play",
    ),
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVING))
def test_misbehaving_bot_loses_each_game_and_the_match_goes_on(tmp_path: Path, kind: str) -> None:
    source, message = MISBEHAVING[kind]
    name = bot(tmp_path, kind, source)
    reported = []
    result = run_match(
        name, "random", games=2, seed=1, jobs=1, rules=get_rules(), timeout=0.5, on_error=reported.append
    )
    assert result.games == 2 and result.b_wins == 2 and result.a_wins == 0
    assert [e.game for e in result.errors] == [0, 1] and reported == result.errors
    for error in result.errors:
        assert error.player == "a" and message in error.message and name in error.message
    data = result.to_json()
    assert data["forfeits"] == {"a": 2, "b": 0} and len(data["errors"]) == 2


def test_a_bot_that_fails_once_is_restarted_for_the_next_game(tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    source = (
        f"""
import os, sys
if not os.path.exists({str(marker)!r}):
    open({str(marker)!r}, "w").close()
    sys.exit(1)
"""
        + FIRST_LEGAL
    )
    result = run_match(bot(tmp_path, "once", source), "random", games=4, seed=2, jobs=1, rules=get_rules())
    assert [e.game for e in result.errors] == [0]
    assert result.games == 4 and result.tally["a"].forfeits == 1


def test_errors_are_reported_by_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cribbage.cli import main

    source, _ = MISBEHAVING["garbage"]
    name = bot(tmp_path, "garbage", source)
    status = main(["match", "--a", "random", "--b", name, "--games", "2", "--json", "--timeout", "2"])
    captured = capsys.readouterr()
    assert status == 0
    data = json.loads(captured.out)
    assert [e["player"] for e in data["errors"]] == ["b", "b"] and data["a_wins"] == 2
    assert captured.err.count("not JSON") == 2


def test_manual_counting_sends_count_and_muggins_requests(tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    source = f"""
import json, sys
with open({str(log)!r}, "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        print(json.dumps(json.loads(line)["legal"][0]), flush=True)
"""
    name = bot(tmp_path, "logger", source)
    for rules in (
        get_rules(manual_count=True, muggins=True),
        get_rules("short", manual_count=True, muggins=True, muggins_play=True),
    ):
        result = run_match(name, "random", games=2, seed=4, jobs=1, rules=rules)
        assert result.errors == []
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = {r["type"] for r in requests}
    assert kinds == {"discard", "play", "count", "muggins"}
    assert all(len(r["legal"]) >= 2 for r in requests)  # a bot is only asked when it has a choice
    for r in requests:
        view = r["view"]
        assert view["to_act"] == view["seat"]
        if r["type"] == "count":
            assert view["counting"]["seat"] == view["seat"]
            if view["counting"]["what"] == "hand":
                assert view["counting"]["cards"] == view["kept"]
            else:  # the crib is turned up for its owner to count
                assert view["counting"]["cards"] == view["crib"] and len(view["crib"]) == 4
        if r["type"] == "muggins":
            assert view["last_count"]["seat"] != view["seat"]
            assert view["last_count"]["claim"] == view["claim"]["points"]
            assert {"pass": True} in r["legal"] and {"muggins": 1} in r["legal"]
        if r["type"] == "play":
            assert all("claim" in option for option in r["legal"]) == view["rules"]["muggins_play"]


def test_request_holds_the_view_and_the_legal_answers() -> None:
    state = GameState(get_rules(), dealer=0)
    state.apply(Deal((parse_cards("5H 5C JD 9S 3C KH"), parse_cards("4D 6S 7C 8H QS 2D"))))
    request = build_request(state.view(1))
    assert request["type"] == "discard" and len(request["legal"]) == 15
    assert request["legal"][0] == {"discard": ["2D", "4D"]}
    view = request["view"]
    for key in (
        "seat",
        "players",
        "dealer",
        "scores",
        "target",
        "variant",
        "hand",
        "starter",
        "count",
        "sequence",
        "played",
        "rules",
    ):
        assert key in view
    assert view["hand"] == ["4D", "6S", "7C", "8H", "QS", "2D"] and view["starter"] is None


def test_answers_are_checked_against_the_legal_actions() -> None:
    state = GameState(get_rules(), dealer=0)
    state.apply(Deal((parse_cards("5H 5C JD 9S 3C KH"), parse_cards("4D 6S 7C 8H QS 2D"))))
    view = state.view(1)
    assert parse_answer('{"discard": ["qs", "2d"]}', view) == Discard(1, parse_cards("2D QS"))
    for line, message in (
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"discard": ["QS"]}', "illegal discard"),
        ('{"discard": ["QS", "QS"]}', "duplicate"),
        ('{"discard": ["5H", "QS"]}', "illegal discard"),
        ('{"play": "QS"}', "a discard is"),
    ):
        with pytest.raises(BotError, match=message):
            parse_answer(line, view)
    assert Play(1, parse_cards("QS")[0]) not in view.legal


def test_external_player_can_be_used_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "first.py"
    path.write_text(FIRST_LEGAL)
    state = GameState(get_rules(), dealer=0)
    state.apply(Deal((parse_cards("5H 5C JD 9S 3C KH"), parse_cards("4D 6S 7C 8H QS 2D"))))
    with ExternalPlayer([sys.executable, str(path)]) as player:
        assert player.choose(state.view(1)) == state.view(1).legal[0]
        assert player.running
    assert not player.running


def test_a_program_that_exited_before_its_first_request_fails_it(tmp_path: Path) -> None:
    """Started before the game (``start``), the bot exits before it is asked anything: its first
    request fails, naming its exit, and is not quietly sent to a new process (which made the
    restart test depend on whether the bot had exited yet when it was first asked)."""
    marker, path = tmp_path / "exited", tmp_path / "exits-once.py"
    once = (
        f"import os, sys\nif not os.path.exists({str(marker)!r}):\n    open({str(marker)!r}, 'w').close()\n"
    )
    path.write_text(once + "    sys.exit(3)\n" + FIRST_LEGAL)  # a new process would answer
    state = GameState(get_rules(), dealer=0)
    state.apply(Deal((parse_cards("5H 5C JD 9S 3C KH"), parse_cards("4D 6S 7C 8H QS 2D"))))
    with ExternalPlayer([sys.executable, str(path)], name="gone") as player:
        player.start()
        assert player._proc is not None
        player._proc.wait(timeout=30)  # exited before the game asks anything
        with pytest.raises(BotError, match=r"^gone \(seat 1\) exited with status 3 without answering"):
            player.choose(state.view(1))
        assert not player.running


def test_a_program_that_cannot_start_loses_the_game(tmp_path: Path) -> None:
    path = tmp_path / "not-a-program"
    path.write_bytes(b"\x00\x01 not an executable format")
    path.chmod(0o755)
    with ExternalPlayer([str(path)], name="broken") as player:
        _, stats = play_game(get_rules(), [player, RandomPlayer(1)], seed=1)
    assert stats.forfeit == 0 and stats.winner == 1
    assert stats.error.startswith("broken (seat 0) cannot be started")
