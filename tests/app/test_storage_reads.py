"""The storage's hot paths: the read every request makes (``storage.games.position``), run on a driver
connection of its own, and the record written at every action (``_dumps``, with orjson).

It must see what another process (another ``Storage`` on the same database) saved at once, and
fail as every other storage call does: with SQLAlchemy's ``OperationalError``, which the web layer
answers as a database away.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy.exc import OperationalError

from cribbage.storage import Storage, StoredGame, StoredSeat, _dumps


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_position_reads_what_another_process_saved(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _url(kind, tmp_path, request)
    mine, other = Storage(url), Storage(url)
    try:
        seat = StoredSeat(0, "human", None, "Aiko", "1" * 64, None, True)
        mine.games.insert(StoredGame("g1", "1" * 64, {}, {"actions": []}, 0, False), [seat])
        assert mine.games.position("g1") == (0, 0)
        assert mine.games.position("no-such-game") is None
        assert other.games.update("g1", {"actions": [1, 2]}, version=2, over=False, expected=0)
        assert mine.games.position("g1") == (2, 0)
        computer = StoredSeat(0, "computer", "weak", "Bot", None, None, True)
        assert other.games.reseat("g1", computer, holder="1" * 64) == 1
        assert mine.games.position("g1") == (2, 1)
        for _ in range(50):  # each read gives its connection back to the pool
            assert mine.games.position("g1") == (2, 1)
    finally:
        mine.close()
        other.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_moved_gives_the_record_only_to_a_copy_behind(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``storage.games.moved``: the position, and the record when the copy's version or seating
    generation is not the stored one, in one read."""
    url = _url(kind, tmp_path, request)
    mine, other = Storage(url), Storage(url)
    try:
        seat = StoredSeat(0, "human", None, "Aiko", "1" * 64, None, True)
        mine.games.insert(StoredGame("g1", "1" * 64, {}, {"actions": [], "seed": 2**70}, 0, False), [seat])
        assert mine.games.moved("g1", 0, 0) == (0, 0, None)
        assert mine.games.moved("no-such-game", 0, 0) is None
        assert other.games.update("g1", {"actions": [1, 2], "seed": 2**70}, version=2, over=False, expected=0)
        assert mine.games.moved("g1", 0, 0) == (2, 0, {"actions": [1, 2], "seed": 2**70})  # big numbers exact
        assert mine.games.moved("g1", 2, 0) == (2, 0, None)
        assert other.games.reseat(
            "g1", StoredSeat(0, "computer", "weak", "Bot", None, None, True), holder="1" * 64
        )
        assert mine.games.moved("g1", 2, 0) == (2, 1, {"actions": [1, 2], "seed": 2**70})  # reseated
        assert mine.games.moved("g1", 2, 1) == (2, 1, None)
    finally:
        mine.close()
        other.close()


def test_a_failing_read_raises_sqlalchemys_operational_error(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        store.games.insert(StoredGame("g1", "1" * 64, {}, {"actions": []}, 0, False))
        with store.engine.begin() as conn:
            conn.execute(sqlalchemy.text("ALTER TABLE games RENAME TO elsewhere"))
        with pytest.raises(OperationalError, match="no such table: games"):
            store.games.position("g1")
        with store.engine.begin() as conn:  # the pool's connections still serve
            conn.execute(sqlalchemy.text("ALTER TABLE elsewhere RENAME TO games"))
        assert store.games.position("g1") == (0, 0)
    finally:
        store.close()


def test_records_are_written_as_json_reads_them_back() -> None:
    """orjson writes the records; what it refuses (an integer beyond 64 bits) json writes."""
    record = {
        "names": ["Aïko", "Zoë ♥", 'quote " and \\ back'],
        "seed": 2**63 - 1,
        "actions": [{"type": "play", "seat": 1, "card": "TH", "claim": None}, [1, 2.5, True]],
        "by_side": {0: 12, 1: 7},
    }
    text = _dumps(record)
    assert json.loads(text) == json.loads(json.dumps(record))
    assert text == json.dumps(record, separators=(",", ":"), ensure_ascii=False)  # compact, as before
    huge = {"seed": 2**80, "names": ["Aïko"]}
    assert json.loads(_dumps(huge)) == huge
