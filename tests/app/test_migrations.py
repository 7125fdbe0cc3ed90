"""Schema migrations (cribbage.storage.migrations): a database of the schema before migrations (the side
tables lobby, watch, seating, clocks and rematches; tests/fixtures/make_old_database.py made it)
is brought to the newest revision on SQLite and PostgreSQL, and everything in it answers and plays
on as before; a new database is made at the newest at once and equals the tables' definitions.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient

from cribbage.cli import main
from cribbage.storage import Storage, StorageError, StoredGame, StoredSeat, metadata
from cribbage.storage.migrations import Migrated, config, head
from web_fixtures import first_action, make_app

FIXTURES = Path(__file__).parents[1] / "fixtures"
MANIFEST = json.loads((FIXTURES / "old_schema.json").read_text())
NOW: float = MANIFEST["now"]
GAMES: dict[str, Any] = MANIFEST["games"]
SIDE_TABLES = ("lobby", "watch", "seating", "clocks", "rematches")


@pytest.fixture(params=["sqlite", "postgresql"])
def old_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of the schema before migrations, with the fixture's games: a copy of the SQLite
    file, or the PostgreSQL dump loaded into a schema of its own."""
    if request.param == "sqlite":
        shutil.copy(FIXTURES / "old_schema.sqlite", tmp_path / "games.db")
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql((FIXTURES / "old_schema.postgresql.sql").read_text())
    engine.dispose()
    return url


@pytest.fixture
def storage(old_url: str) -> Iterator[Storage]:
    opened = Storage(old_url)
    yield opened
    opened.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _plain(value: Any) -> Any:
    """A Storage answer as the fixture's JSON has it, its times in UTC (SQLite keeps no zone)."""
    if hasattr(value, "__dataclass_fields__"):
        fields = value.__dataclass_fields__
        # A seat's extra keys are newer than the fixture (0010): none for every migrated seat.
        if "keys" in fields and isinstance(value, StoredSeat):
            assert value.keys == ()
            fields = [name for name in fields if name != "keys"]
        # A game's rematch_of is newer than the fixture's answers (its column is not): checked
        # against the rematch links by the test itself.
        if isinstance(value, StoredGame):
            fields = [name for name in fields if name != "rematch_of"]
        return {name: _plain(getattr(value, name)) for name in fields}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, datetime):
        return _moment(value.isoformat())
    return value


def _moment(text: str) -> str:
    moment = datetime.fromisoformat(text)
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def _expected(value: Any) -> Any:
    """The fixture's answers with their times in UTC."""
    if isinstance(value, dict):
        return {
            key: _moment(item) if key in ("created", "updated", "listed") else _expected(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_expected(item) for item in value]
    return value


def _diff(engine: sqlalchemy.Engine) -> list[Any]:
    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def _revision(engine: sqlalchemy.Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_an_old_database_is_migrated_and_every_answer_stays_as_it_was(storage: Storage) -> None:
    assert storage.migrated == Migrated(None, head())
    answers = _expected(MANIFEST["answers"])
    for name, game in GAMES.items():
        game_id = game["id"]
        assert _plain(storage.games.load(game_id)) == answers[name]["load"], name
        assert _plain(storage.seats.load(game_id)) == answers[name]["seats"], name
        assert list(storage.games.position(game_id) or ()) == answers[name]["position"], name
        assert _plain(storage.clocks.load(game_id)) == answers[name]["clock"], name
        assert storage.games.rematch(game_id) == answers[name]["rematch"], name
        rematch_of = [GAMES[other]["id"] for other in GAMES if answers[other]["rematch"] == game_id]
        loaded = storage.games.load(game_id)
        assert loaded is not None and loaded.rematch_of == (rematch_of[0] if rematch_of else None), name
    waiting = GAMES["waiting"]
    assert _plain(storage.games.lobby()) == answers["lobby"]
    assert _plain(storage.seats.invitation(waiting["invitation"])) == answers["invitation"]
    assert storage.games.watched(waiting["watch"]) == answers["watched"] == waiting["id"]
    assert storage.clocks.due(NOW + 10**6) == answers["due"]
    # The fixture holds what the tests need: a seating generation, an away seat, a rematch link.
    assert answers["clocked"]["position"][1] == 1 and answers["clocked"]["clock"]["away"]
    assert answers["finished"]["rematch"] == GAMES["rematch"]["id"]
    # The side tables are gone; the tables are exactly the newest definitions.
    tables = set(sqlalchemy.inspect(storage.engine).get_table_names())
    assert tables == {*metadata.tables, "alembic_version"}
    assert not tables & set(SIDE_TABLES)
    assert _diff(storage.engine) == []


def _play_out(client: TestClient, game_id: str, tokens: list[str | None]) -> dict[str, Any]:
    """The seat to act takes its first legal action until the game is over: the last state.
    Each action's answer is its seat's state: another seat's is asked only when it is to act."""
    anyone = next(t for t in tokens if t)
    state: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=auth(anyone)).json()
    for _ in range(3000):
        if state["over"]:
            return state
        seat = state["view"]["to_act"]
        token = tokens[seat]
        assert token is not None, seat
        if state["seat"] != seat:
            state = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        answer = client.post(f"/api/games/{game_id}/actions", json=first_action(state), headers=auth(token))
        assert answer.status_code == 200, answer.text
        state = answer.json()
    raise AssertionError("the game did not end")


def test_every_game_of_an_old_database_plays_on(old_url: str) -> None:
    app = make_app(old_url, computer="weak")
    app.state.service.now = lambda: NOW
    with TestClient(app) as client:
        for name, game in GAMES.items():  # every seat's token still opens its game
            for token in filter(None, game["tokens"]):
                answer = client.get(f"/api/games/{game['id']}", headers=auth(token))
                assert answer.status_code == 200, (name, answer.text)
        finished, again = GAMES["finished"], GAMES["rematch"]
        state = client.get(f"/api/games/{finished['id']}", headers=auth(finished["tokens"][0])).json()
        assert state["over"] and state["rematch"] == again["id"]
        asked = client.post(f"/api/games/{finished['id']}/rematch", headers=auth(finished["tokens"][0]))
        assert asked.status_code == 200 and asked.json()["id"] == again["id"]  # the same one
        clocked = GAMES["clocked"]
        state = client.get(f"/api/games/{clocked['id']}", headers=auth(clocked["tokens"][0])).json()
        assert state["away"] == [clocked["away"]] and state["turn_clock"] is not None
        waiting = GAMES["waiting"]
        assert client.get(f"/api/join/{waiting['invitation']}").status_code == 200
        lobby = client.get("/api/lobby").json()["tables"]
        assert [table["code"] for table in lobby] == [waiting["invitation"]]
        watched = client.get(f"/api/watch/{waiting['watch']}")
        assert watched.status_code == 200 and watched.json()["id"] == waiting["id"]
        joined = client.post("/api/join", json={"code": waiting["invitation"], "name": "Gus"})
        assert joined.status_code == 201, joined.text
        tokens = list(waiting["tokens"])
        tokens[joined.json()["seat"]] = joined.json()["token"]
        assert client.get("/api/lobby").json()["tables"] == []  # no open seat: out of the lobby
        for game_id, seated in [
            (waiting["id"], tokens),
            (again["id"], again["tokens"]),
            (clocked["id"], clocked["tokens"]),
            (GAMES["solo"]["id"], GAMES["solo"]["tokens"]),
        ]:
            assert _play_out(client, game_id, seated)["over"]
        watched = client.get(f"/api/watch/{waiting['watch']}")
        assert watched.status_code == 200 and watched.json()["over"]


def test_a_new_database_is_made_at_the_newest_revision_and_equals_the_tables(shared_url: str) -> None:
    storage = Storage(shared_url)
    try:
        assert storage.migrated == Migrated(None, head(), created=True)
        assert _revision(storage.engine) == head()
        assert _diff(storage.engine) == []
    finally:
        storage.close()
    again = Storage(shared_url)
    again.close()
    assert again.migrated == Migrated(head(), head())


def test_serve_migrates_an_old_database_before_it_listens(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copy(FIXTURES / "old_schema.sqlite", db)
    command = [sys.executable, "-m", "cribbage", "serve", "--port", "0", "--db", str(db)]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None and server.stderr is not None
        assert "Open http://127.0.0.1:" in server.stdout.readline()
        engine = sqlalchemy.create_engine(f"sqlite:///{db}")
        assert _revision(engine) == head()
        engine.dispose()
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    said = server.stderr.read()
    server.stdout.close()
    server.stderr.close()
    assert f"Migrated the database from the schema before migrations to revision {head()}: sqlite:///" in said


def _rows(engine: sqlalchemy.Engine) -> dict[str, list[Any]]:
    with engine.connect() as conn:
        return {
            name: conn.execute(sqlalchemy.text(f"SELECT * FROM {name} ORDER BY 1, 2")).all()
            for name in ("games", "seats")
        }


def test_admin_migrate_says_what_it_did_and_a_second_time_changes_nothing(
    old_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = sqlalchemy.create_engine(old_url)
    assert _revision(engine) is None
    assert main(["admin", "migrate", "--db", old_url]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"Migrated the database from the schema before migrations to revision {head()}: ")
    assert _revision(engine) == head()
    rows = _rows(engine)
    assert main(["admin", "migrate", "--db", old_url]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"The database is at schema revision {head()} already, the newest: ")
    assert _rows(engine) == rows
    engine.dispose()


def test_a_database_a_newer_version_migrated_is_refused_unchanged(shared_url: str) -> None:
    Storage(shared_url).close()
    engine = sqlalchemy.create_engine(shared_url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(StorageError, match=r"revision '0099'.*does not know.*upgrade cribbage"):
        Storage(shared_url)
    assert _revision(engine) == "0099"
    engine.dispose()


def _side_rows(conn: sqlalchemy.Connection) -> dict[str, list[tuple[Any, ...]]]:
    return {
        name: sorted(tuple(row) for row in conn.execute(sqlalchemy.text(f"SELECT * FROM {name}")))
        for name in SIDE_TABLES
    }


def test_the_fold_goes_back_to_the_side_tables_as_they_were(old_url: str) -> None:
    engine = sqlalchemy.create_engine(old_url)
    with engine.connect() as conn:
        before = _side_rows(conn)
    assert all(before.values())  # every side table had rows to fold
    Storage(old_url).close()
    with engine.begin() as conn:
        command.downgrade(config(conn), "0001")
    with engine.connect() as conn:
        assert _side_rows(conn) == before
        assert _revision(engine) == "0001"
    storage = Storage(old_url)  # and up again
    storage.close()
    assert storage.migrated == Migrated("0001", head())
    engine.dispose()
