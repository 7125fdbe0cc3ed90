"""Retention: old games are removed, with their seats and lobby rows, by the server and by
``cribbage admin prune``; the clock is ours (``now`` and the storage's ``clock``), nothing sleeps."""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from cribbage import storage as storage_module
from cribbage.cli import main
from cribbage.storage import Pruned, Storage, StorageError, StoredGame, StoredSeat
from cribbage.web.hardening import HEADER_TIMEOUT_ENV
from cribbage.web.retention import Retention
from cribbage.web.settings import ENVIRONMENT, Settings
from test_web_api import play_out, random_chooser
from web_fixtures import auth, first_action, make_app, make_client, new_game

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
KEEP = {"keep_days": 30, "keep_finished_days": 365}


def url_of(database: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if database == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return str(request.getfixturevalue("postgres_url"))


def put(
    store: Storage, *, over: bool, updated: datetime, listed: bool = True, open_seat: bool = False
) -> str:
    """A game stored as last touched at ``updated``, with two seats and a lobby row."""
    game_id = f"g-{uuid.uuid4().hex[:10]}"
    code = uuid.uuid4().hex[:6].upper() if open_seat else None
    store.games.insert(
        StoredGame(game_id, "0" * 64, {"level": "weak"}, {"actions": []}, 0, over, updated, updated),
        [
            StoredSeat(0, "human", None, "Aiko", "1" * 64, None, True),
            StoredSeat(1, "human", None, "Player 2", None, code, not open_seat),
        ],
        listed=listed,
    )
    return game_id


def rows(store: Storage, table: Any, game_id: str) -> int:
    with store.engine.connect() as conn:
        query = select(func.count()).select_from(table).where(table.c.game_id == game_id)
        return int(conn.execute(query).scalar_one())


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    storage = Storage(url_of(request.param, tmp_path, request))
    yield storage
    storage.close()


def test_old_games_go_with_their_seats_and_lobby_rows_recent_ones_stay(store: Storage) -> None:
    old = put(store, over=False, updated=NOW - 31 * DAY)
    recent = put(store, over=False, updated=NOW - 29 * DAY)
    finished_recently = put(store, over=True, updated=NOW - 300 * DAY)  # past keep_days, not its own
    finished_long_ago = put(store, over=True, updated=NOW - 366 * DAY)

    pruned = store.pruning.prune(now=NOW, **KEEP)

    assert (pruned.unfinished, pruned.finished) == (1, 1)
    assert set(pruned.ids) == {old, finished_long_ago}
    assert pruned.bytes > 0
    games = storage_module.games
    for gone in (old, finished_long_ago):
        assert store.games.load(gone) is None
        assert store.seats.load(gone) == []
        assert rows(store, storage_module.seats, gone) == 0
    for kept in (recent, finished_recently):
        assert store.games.load(kept) is not None
        assert len(store.seats.load(kept)) == 2
        with store.engine.connect() as conn:  # still listed: the lobby is a column of the game's row
            assert conn.execute(select(games.c.listed).where(games.c.id == kept)).scalar_one() is not None
    assert store.pruning.prune(now=NOW, **KEEP) == Pruned(0, 0, 0)  # idempotent


def test_a_touched_game_is_kept(store: Storage) -> None:
    """An action or a seat taken makes a game recent again (the storage's clock writes it)."""
    acted = put(store, over=False, updated=NOW - 40 * DAY)
    joined = put(store, over=False, updated=NOW - 40 * DAY, open_seat=True)
    untouched = put(store, over=False, updated=NOW - 40 * DAY)
    store.now = lambda: NOW - DAY
    assert store.games.update(acted, {"actions": [1]}, version=1, over=False, expected=0)
    code = store.seats.load(joined)[1].code
    assert code is not None
    took = store.seats.take(code, "2" * 64, "Boris")
    assert took is not None and took.won

    pruned = store.pruning.prune(now=NOW, **KEEP)

    assert pruned.ids == (untouched,)
    assert store.games.load(acted) is not None and store.games.load(joined) is not None


def test_the_finished_limit_is_its_own(store: Storage) -> None:
    finished = put(store, over=True, updated=NOW - 100 * DAY)
    assert store.pruning.prune(now=NOW, keep_days=30, keep_finished_days=101).games == 0
    assert store.pruning.prune(now=NOW, keep_days=30, keep_finished_days=99).ids == (finished,)


def test_zero_days_keeps_forever(store: Storage) -> None:
    unfinished = put(store, over=False, updated=NOW - 5000 * DAY)
    finished = put(store, over=True, updated=NOW - 5000 * DAY)
    assert store.pruning.prune(now=NOW, keep_days=0, keep_finished_days=0) == Pruned(0, 0, 0)
    assert store.pruning.prune(now=NOW, keep_days=0, keep_finished_days=365).ids == (finished,)
    assert store.games.load(unfinished) is not None
    assert store.pruning.prune(now=NOW, keep_days=30, keep_finished_days=0).ids == (unfinished,)


def test_dry_run_counts_and_deletes_nothing(store: Storage) -> None:
    for _ in range(3):
        put(store, over=False, updated=NOW - 31 * DAY)
    put(store, over=True, updated=NOW - 400 * DAY)
    put(store, over=False, updated=NOW)
    before = store.pruning.count()

    dry = store.pruning.prune(now=NOW, dry_run=True, **KEEP)

    assert (dry.unfinished, dry.finished, dry.ids) == (3, 1, ())
    assert store.pruning.count() == before
    real = store.pruning.prune(now=NOW, **KEEP)
    assert (real.unfinished, real.finished, real.bytes) == (dry.unfinished, dry.finished, dry.bytes)
    assert store.pruning.count() == before - 4


@pytest.mark.parametrize("days", [-1, 1.5, "30"])
def test_bad_days_are_refused_and_nothing_goes(store: Storage, days: Any) -> None:
    game = put(store, over=False, updated=NOW - 400 * DAY)
    with pytest.raises(StorageError, match="whole number of days"):
        store.pruning.prune(now=NOW, keep_days=days, keep_finished_days=365)
    assert store.games.load(game) is not None


def test_pruning_goes_in_batches(store: Storage) -> None:
    games = {put(store, over=False, updated=NOW - 31 * DAY, listed=False) for _ in range(7)}
    assert set(store.pruning.prune(now=NOW, batch=2, **KEEP).ids) == games


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_two_processes_pruning_at_once_neither_fails_nor_double_counts(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = url_of(database, tmp_path, request)
    first, second = Storage(url), Storage(url)
    old = {put(first, over=False, updated=NOW - 31 * DAY) for _ in range(120)}
    recent = {put(first, over=False, updated=NOW - DAY) for _ in range(5)}
    results: list[Pruned] = []
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def prune(store: Storage) -> None:
        try:
            start.wait()
            results.append(store.pruning.prune(now=NOW, batch=10, **KEEP))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=prune, args=(s,)) for s in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    removed = [game_id for result in results for game_id in result.ids]
    assert sorted(removed) == sorted(old)  # each removed once, by one of them
    assert first.pruning.count() == len(recent)
    first.close()
    second.close()


def test_a_game_touched_during_pruning_is_kept_by_the_delete_itself(store: Storage) -> None:
    """The age is checked in the DELETE: a game chosen as old but touched before the delete
    runs is kept (here: touched between the dry run that saw it and the pruning)."""
    game = put(store, over=False, updated=NOW - 31 * DAY)
    assert store.pruning.prune(now=NOW, dry_run=True, **KEEP).unfinished == 1
    store.now = lambda: NOW
    assert store.games.update(game, {"actions": [1]}, version=1, over=False, expected=0)
    assert store.pruning.prune(now=NOW, **KEEP).games == 0
    assert store.games.load(game) is not None


# --------------------------------------------------------------------------- through the API


def test_a_pruned_game_answers_404_even_when_cached(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    client = make_client(database_url=url)
    game_id, token, state = new_game(client, seed=3)
    finished_id, finished_token, finished = new_game(client, seed=4)
    *_, finished = play_out(client, finished_id, finished_token, finished, random_chooser(1))
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).status_code == 200  # cached
    # A finished game's record stays downloadable until its own limit.
    other = Storage(url)
    later = datetime.now(UTC) + 31 * DAY
    assert other.pruning.prune(now=later, **KEEP).ids == (game_id,)
    assert client.get(f"/api/games/{finished_id}/record", headers=auth(finished_token)).status_code == 200

    for method, path, body in (
        ("GET", f"/api/games/{game_id}", None),
        ("POST", f"/api/games/{game_id}/actions", first_action(state)),
        ("GET", f"/api/games/{game_id}/hint", None),
    ):
        response = client.request(method, path, json=body, headers=auth(token))
        gone = (404, {"error": "no such game", "code": "not_found"})
        assert (response.status_code, response.json()) == gone, path
    assert game_id not in client.app.state.service.cached()  # type: ignore[attr-defined]

    assert other.pruning.prune(now=later + 365 * DAY, **KEEP).ids == (finished_id,)
    response = client.get(f"/api/games/{finished_id}/record", headers=auth(finished_token))
    assert (response.status_code, response.json()) == (404, {"error": "no such game", "code": "not_found"})
    other.close()


def test_pruning_in_this_process_drops_the_cached_copies() -> None:
    client = make_client()
    game_id, _token, _state = new_game(client, seed=5)
    service = client.app.state.service  # type: ignore[attr-defined]
    assert game_id in service.cached()
    pruned = service.prune(now=datetime.now(UTC) + 31 * DAY, **KEEP)
    assert pruned.ids == (game_id,)
    assert game_id not in service.cached()
    assert service.cached_bytes == 0


def test_the_server_prunes_by_itself_soon_after_it_starts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Storage(url)
    real_now = datetime.now(UTC)
    old = put(store, over=False, updated=real_now - 31 * DAY)
    kept = put(store, over=False, updated=real_now - 29 * DAY)
    app = make_app(url, retention=Retention(30, 365, interval=3600, first_delay=0))
    with TestClient(app):
        deadline = time.monotonic() + 20
        while store.games.load(old) is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert store.games.load(old) is None
        assert store.games.load(kept) is not None
    app.state.service.close()
    store.close()


def test_keeping_forever_starts_no_pruning(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Storage(url)
    old = put(store, over=True, updated=datetime.now(UTC) - 5000 * DAY)
    app = make_app(url, retention=Retention(0, 0, first_delay=0))
    with TestClient(app) as client:
        assert client.get("/api/variants").status_code == 200
    assert store.games.load(old) is not None
    app.state.service.close()
    store.close()


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT["keep_days"], "7")
    monkeypatch.setenv(ENVIRONMENT["keep_finished_days"], "0")
    monkeypatch.setenv(ENVIRONMENT["cache_mb"], "64")
    monkeypatch.setenv(ENVIRONMENT["db"], "sqlite://")
    settings = Settings.from_environment()
    assert settings.retention == Retention(7, 0)
    assert settings.cache_bytes == 64 * 1024 * 1024
    monkeypatch.setenv(ENVIRONMENT["keep_days"], "never")
    with pytest.raises(ValueError, match=ENVIRONMENT["keep_days"]):
        Settings.from_environment()


# --------------------------------------------------------------------------- cribbage admin prune


def test_admin_prune_reports_removes_and_dry_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    store = Storage(f"sqlite:///{path}")
    real_now = datetime.now(UTC)
    for _ in range(2):
        put(store, over=False, updated=real_now - 31 * DAY)
    put(store, over=True, updated=real_now - 400 * DAY)
    put(store, over=True, updated=real_now - 10 * DAY)

    assert main(["admin", "prune", "--db", str(path), "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert {k: dry[k] for k in ("dry_run", "unfinished", "finished", "keep_days", "keep_finished_days")} == {
        "dry_run": True,
        "unfinished": 2,
        "finished": 1,
        "keep_days": 30,
        "keep_finished_days": 365,
    }
    assert dry["bytes"] > 0
    assert store.pruning.count() == 4

    assert main(["admin", "prune", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Removed 2 games in progress and 1 finished game (")
    assert store.pruning.count() == 1

    assert main(["admin", "prune", "--db", str(path), "--keep-finished-days", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 1
    assert store.pruning.count() == 0
    store.close()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--keep-days", "-3"], "--keep-days is a whole number of days"),
        (["--keep-finished-days", "never"], "--keep-finished-days is a whole number of days"),
        (["--db", "nosuchdriver://x/y"], "cannot open the database"),
    ],
)
def test_admin_prune_refuses_bad_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    path = tmp_path / "games.db"
    store = Storage(f"sqlite:///{path}")
    put(store, over=False, updated=datetime.now(UTC) - 400 * DAY)
    full = ["admin", "prune", *(argv if "--db" in argv else ["--db", str(path), *argv])]
    assert main(full) == 2
    assert message in capsys.readouterr().err
    assert store.pruning.count() == 1
    store.close()


def test_serve_refuses_bad_retention_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in [*ENVIRONMENT.values(), HEADER_TIMEOUT_ENV]:  # serve writes its settings here
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)
    db = str(tmp_path / "games.db")
    assert main(["serve", "--db", db, "--port", "0", "--keep-days", "x"]) == 2
    assert "--keep-days is a whole number of days" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--port", "0", "--cache-mb", "0"]) == 2
    assert "--cache-mb must be at least 1" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--port", "0", "--prune-interval", "0"]) == 2
    assert "--prune-interval must be positive" in capsys.readouterr().err


def test_serve_hands_its_settings_to_the_application(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage.cli import build_parser, serve

    for key in ENVIRONMENT.values():
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)
    argv = ["serve", "--keep-days", "7", "--keep-finished-days", "0", "--prune-interval", "60"]
    args = build_parser("serve").parse_args([*argv, "--cache-mb", "64", "--name-hold-days", "7"])
    settings = Settings.from_environment(serve.settings_of(args, "sqlite://").environment())
    assert settings.retention == Retention(7, 0, interval=60.0)
    assert settings.cache_bytes == 64 * 1024 * 1024
    assert settings.name_hold_days == 7
    defaults = build_parser("serve").parse_args(["serve"])
    settings = Settings.from_environment(serve.settings_of(defaults, "sqlite://").environment())
    assert (settings.retention, settings.cache_bytes) == (Retention(), 256 * 1024 * 1024)
    assert settings.name_hold_days == 30


def test_a_game_touched_while_the_delete_waits_is_kept(postgres_url: str) -> None:
    """PostgreSQL: the pruning's DELETE waits for the row a request is saving; once that commits,
    the DELETE checks the age again on the saved row and keeps the game (selecting the ids first
    and deleting them by id would remove it)."""
    store = Storage(postgres_url)
    game = put(store, over=False, updated=NOW - 31 * DAY)
    other = put(store, over=False, updated=NOW - 31 * DAY)
    results: list[Pruned] = []
    with store.engine.connect() as conn:
        saving = conn.begin()
        conn.execute(
            storage_module.games.update().where(storage_module.games.c.id == game).values(updated=NOW)
        )
        pruning = threading.Thread(target=lambda: results.append(store.pruning.prune(now=NOW, **KEEP)))
        pruning.start()
        waiting = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM games%'"
        )
        deadline = time.monotonic() + 10
        with store.engine.connect() as watch:
            while time.monotonic() < deadline and not watch.execute(sqlalchemy.text(waiting)).scalar_one():
                time.sleep(0.01)
        saving.commit()
    pruning.join(30)
    assert [result.ids for result in results] == [(other,)]
    assert store.games.load(game) is not None
    store.close()


def test_a_game_whose_turn_clock_runs_is_kept_however_long_untouched(store: Storage) -> None:
    """A correspondence game (days a move) waits long between actions: its running clock counts
    as a touch at its deadline, so it is pruned only ``keep_days`` after a deadline passed
    unnoticed (every server down)."""
    running = put(store, over=False, updated=NOW - 40 * DAY)
    store.clocks.set(running, 0, (NOW + 3 * DAY).timestamp(), frozenset())
    lapsed = put(store, over=False, updated=NOW - 40 * DAY)
    store.clocks.set(lapsed, 0, (NOW - 31 * DAY).timestamp(), frozenset())
    stopped = put(store, over=False, updated=NOW - 40 * DAY)
    store.clocks.set(stopped, 0, None, frozenset())  # waits for people: no clock runs

    assert store.pruning.prune(now=NOW, keep_days=1, keep_finished_days=365, dry_run=True).unfinished == 2
    pruned = store.pruning.prune(now=NOW, **KEEP)

    assert set(pruned.ids) == {lapsed, stopped}
    assert store.games.load(running) is not None
