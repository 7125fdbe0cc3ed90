"""Chat at the table, in the application and the storage (cribbage.app.chat, cribbage.storage.chat),
on SQLite and PostgreSQL: who may say what, what is stored, the history, and the reports."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy

from cribbage.app import AppError, GameService, Options, SeatSpec
from cribbage.app.chat import HISTORY, MAX_MARKS, MAX_TEXT, PHRASES, clean_text, graphemes
from cribbage.storage import Storage
from cribbage.storage.tables import chat_reports


@pytest.fixture
def games(shared_url: str) -> Iterator[GameService]:
    service = GameService(Storage(shared_url))
    yield service
    service.close()


def people_table(games: GameService) -> tuple[str, str, str]:
    """A table of two people, both seated: its id and the two seats' tokens."""
    new_game = games.create(Options(), [SeatSpec("human"), SeatSpec("human")])
    token, state = new_game["token"], new_game["state"]
    joined = games.join(state["invites"][0]["code"], "Boris")
    return state["id"], token, joined["token"]


def refused(fn: object, *args: object, **kwargs: object) -> str:
    assert callable(fn)
    with pytest.raises(AppError) as caught:
        fn(*args, **kwargs)
    return caught.value.code


def test_a_seat_says_text_and_phrases_and_the_table_keeps_them_in_order(games: GameService) -> None:
    game_id, first, second = people_table(games)
    said = games.chat.say(game_id, first, text="  <b>hi</b> & <script>x</script>  ")
    assert said["seat"] == 0 and said["text"] == "<b>hi</b> & <script>x</script>"  # plain text, trimmed
    phrase = games.chat.say(game_id, second, phrase="gg")
    assert phrase["seat"] == 1 and phrase["phrase"] == "gg" and "text" not in phrase
    assert phrase["id"] > said["id"]
    assert games.chat.history(game_id) == [said, phrase]
    datetime.fromisoformat(said["at"])  # a moment with its zone


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"text": "   "}, "chat.empty"),
        ({"text": "x" * (MAX_TEXT + 1)}, "chat.too_long"),
        ({"text": "bell\x07"}, "chat.bad_text"),
        ({"text": "new\nline"}, "chat.bad_text"),
        ({"text": "evil\u202etxt"}, "chat.bad_text"),
        ({"text": 5}, "chat.bad_message"),
        ({}, "chat.bad_message"),
        ({"text": "hi", "phrase": "gg"}, "chat.bad_message"),
        ({"phrase": "insult"}, "chat.bad_phrase"),
        # issue 41, item 12: invisible characters only, line breaks, bidi controls by category
        # (U+061C was missing from a list), tag characters, stacked marks
        ({"text": "\u200b\u200b\u200b"}, "chat.bad_text"),
        ({"text": "\u200d"}, "chat.bad_text"),
        ({"text": "\ufeff"}, "chat.bad_text"),
        ({"text": "\u3164\u3164"}, "chat.bad_text"),  # Hangul fillers: letters that show nothing
        ({"text": "one\u2028two"}, "chat.bad_text"),
        ({"text": "one\u2029two"}, "chat.bad_text"),
        ({"text": "abc\u061cdef"}, "chat.bad_text"),
        ({"text": "abc\u2067def"}, "chat.bad_text"),
        ({"text": "hi\U000e0068\U000e0069"}, "chat.bad_text"),
        ({"text": "a\u200d\u200d\u200db"}, "chat.bad_text"),  # joiners that join nothing
        ({"text": "private\ue000"}, "chat.bad_text"),
        ({"text": "unassigned\U0010fffd"}, "chat.bad_text"),
        ({"text": "e" + "\u0301" * 150}, "chat.stacked"),
        ({"text": "e" + "\u0301" * 200}, "chat.stacked"),  # marks, not length: one character
        ({"text": "\u0301\u0302"}, "chat.invisible"),
        ({"text": "👨‍👩‍👧‍👦" * (MAX_TEXT + 1)}, "chat.too_long"),
    ],
)
def test_a_bad_message_is_refused_with_its_code_and_nothing_is_stored(
    games: GameService, kwargs: dict[str, object], code: str
) -> None:
    game_id, first, _second = people_table(games)
    assert refused(games.chat.say, game_id, first, **kwargs) == code
    assert games.chat.history(game_id) == []


def test_the_longest_message_is_taken_whole() -> None:
    assert clean_text(" " + "é" * MAX_TEXT + " ") == "é" * MAX_TEXT
    family = "👨‍👩‍👧‍👦"  # seven code points, one character
    assert clean_text(family * MAX_TEXT) == family * MAX_TEXT  # 1,400 code points
    assert len(graphemes(family * 28)) == 28


@pytest.mark.parametrize(
    "text",
    [
        "❤️ gg",  # a variation selector
        "👩🏽‍❤️‍💋‍👨🏻",  # joiners and skin tones
        "1️⃣ 🇯🇵",  # a keycap, a flag
        "Tiếng Việt",
        "e" + "\u0301" * MAX_MARKS,
        "नमस्ते",
        "می\u200cخواهم",  # Persian's non-joiner inside a word
        "น้ำ",
        "日本語で<b>こんにちは</b>",
    ],
)
def test_text_of_every_script_and_emoji_is_taken_as_typed(text: str) -> None:
    assert clean_text(f"  {text} ") == text
    assert set(PHRASES) == {"hello", "gg", "nice_hand", "well_played", "thanks"}


def test_only_seats_of_a_table_between_people_may_chat(games: GameService) -> None:
    new_game = games.create(Options(), [SeatSpec("human"), SeatSpec("computer", "weak")])
    token, state = new_game["token"], new_game["state"]
    assert refused(games.chat.say, state["id"], token, text="hi") == "chat.computer_table"
    game_id, _first, _second = people_table(games)
    assert refused(games.chat.say, game_id, "wrong", text="hi") == "unauthorized"
    assert refused(games.chat.say, game_id, None, text="hi") == "unauthorized"
    assert refused(games.chat.say, "nogame", token, text="hi") == "not_found"


def test_the_history_is_the_last_messages_oldest_first(games: GameService) -> None:
    game_id, first, _second = people_table(games)
    for n in range(HISTORY + 5):
        games.chat.say(game_id, first, text=str(n))
    history = games.chat.history(game_id)
    assert [message["text"] for message in history] == [str(n) for n in range(5, HISTORY + 5)]
    other, _token, _ = people_table(games)
    assert games.chat.history(other) == []  # each table its own


def test_a_report_is_stored_for_the_operator_with_the_message(games: GameService) -> None:
    game_id, first, second = people_table(games)
    said = games.chat.say(game_id, first, text="rude words")
    reported = games.chat.report(game_id, second, said["id"])
    assert reported["message"] == said["id"]
    (report,) = games.storage.chat.reports()
    assert report.seat == 1 and report.message.text == "rude words" and report.message.seat == 0
    assert report.to_json()["game"] == game_id and report.to_json()["message"]["id"] == said["id"]
    other, token, _ = people_table(games)
    assert refused(games.chat.report, other, token, said["id"]) == "chat.no_message"  # not at this table
    assert refused(games.chat.report, game_id, first, "1") == "chat.no_message"
    assert refused(games.chat.report, game_id, first, True) == "chat.no_message"


def test_a_seat_reports_a_message_once(games: GameService) -> None:
    """Issue 41, item 12: reported again, the answer is the same and nothing more is stored (the
    database holds one row per message and seat: ``uq_chat_reports_message_seat``)."""
    game_id, first, second = people_table(games)
    said = games.chat.say(game_id, first, text="rude words")
    again = [games.chat.report(game_id, second, said["id"]) for _ in range(3)]
    assert again == [{"report": again[0]["report"], "message": said["id"]}] * 3
    games.chat.report(game_id, first, said["id"])  # another seat: a report of its own
    assert sorted(report.seat for report in games.storage.chat.reports()) == [0, 1]
    with pytest.raises(sqlalchemy.exc.IntegrityError), games.storage.engine.begin() as conn:
        conn.execute(
            chat_reports.insert().values(game_id=game_id, message_id=said["id"], seat=1, at=datetime.now(UTC))
        )


def test_pruning_a_game_removes_its_chat(games: GameService) -> None:
    game_id, first, second = people_table(games)
    said = games.chat.say(game_id, first, text="hello")
    games.chat.report(game_id, second, said["id"])
    later = datetime.now(UTC) + timedelta(days=400)
    assert games.prune(keep_days=1, keep_finished_days=1, now=later).games == 1
    assert games.storage.chat.history(game_id) == [] and games.storage.chat.reports() == []
