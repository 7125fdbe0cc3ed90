"""Tournaments against the core (docs/tournaments.md, "Online and at the club"; issue 44): a
director creates one, accounts register and check in, the director starts it, and from then on
every table is made by itself the moment the tables before it are decided: online games whose
end decides them, club games whose two entered results agree (or the director's).  Withdrawals
forfeit, refusals change nothing, two processes deciding a round's last games at once make the
next round once, and a process that stopped half-way is finished by another's sweep.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from app_fixtures import COMPUTER, make_service, refusal
from cribbage.app import Actor, GameService, one_player
from cribbage.cli import main
from cribbage.storage import Storage
from fake_time import FakeTime
from tournament_fixtures import (
    PASSWORD,
    account,
    create,
    enter_all,
    people,
    play_round,
    play_to_end,
    seat_tokens,
    sessions_at,
    undecided,
)


def test_an_online_tournament_is_played_from_registration_to_its_champion(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy Eve Fay")
    director = found.pop("Dana")[0]
    tournament = create(service, director, games=3, best_of=3)
    tid = tournament["id"]
    assert tournament["stage"] == "registration" and tournament["you"]["director"]
    ann = found["Ann"][0]
    service.tournaments.register(tid, ann)
    assert refusal(service.tournaments.register, tid, ann).code == "tournament.registered"
    assert refusal(service.tournaments.start, tid, ann).code == "tournament.not_director"
    service.tournaments.check_in(tid, ann)
    assert refusal(service.tournaments.start, tid, director).code == "tournament.too_few"
    logins = enter_all(service, tid, {k: v for k, v in found.items() if k != "Ann"})
    logins[1] = found["Ann"][1]
    tournament = service.tournaments.start(tid, director)
    assert tournament["stage"] == "running" and tournament["rounds"]["qualifying"] == 1
    assert refusal(service.tournaments.register, tid, director).code == "tournament.started"
    # Five entrants: two tables and a bye a round; each table's game seats its two accounts.
    first_round = [t for t in tournament["tables"] if t["round"] == 1]
    assert [t["second"] is None for t in first_round] == [False, False, True]
    for table in first_round[:2]:
        state = service.state(
            table["game_id"],
            Actor(seat_tokens(service, table["game_id"], sessions_at(tournament, table, logins))[0]),
        )
        assert state["options"]["tournament"] == tid and state["options"]["variant"] == "short"
    while tournament["stage"] == "running":
        tournament = play_round(service, tournament, logins)
    # Qualifying: three games each, byes included, no opponent met twice.
    qualifying = [t for t in tournament["tables"] if t["stage"] == "qualifying"]
    assert all(s["played"] + s["byes"] == 3 for s in tournament["standings"])
    pairs = Counter(frozenset((t["first"], t["second"])) for t in qualifying if t["second"] is not None)
    assert max(pairs.values()) == 1
    assert sum(s["spread"] for s in tournament["standings"]) == 0
    won = sum(s["game_points"] for s in tournament["standings"])
    assert won == sum(max(t["game_points"]) for t in qualifying if t["second"] is not None) + 2 * 3
    # Playoffs: one in four of five qualifies, rounding up: the top two play a best of 3.
    (final,) = tournament["bracket"][0]
    top_two = [s["entrant"] for s in tournament["standings"][:2]]
    assert [final["top"], final["bottom"]] == top_two and final["best_of"] == 3
    assert max(final["wins"]) == 2 and tournament["champion"] == final["winner"] in top_two
    assert tournament["stage"] == "finished" and not undecided(tournament)


def test_a_withdrawal_forfeits_the_game_in_progress_and_the_rest(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy Eve")
    director = found.pop("Dana")[0]
    tid = create(service, director, games=3, best_of=0)["id"]
    logins = enter_all(service, tid, found)
    tournament = service.tournaments.start(tid, director)
    ann = found["Ann"][0]
    mine = next(t for t in undecided(tournament) if 1 in (t["first"], t["second"]))
    tournament = service.tournaments.withdraw(tid, ann)
    decided = next(t for t in tournament["tables"] if t["game_id"] == mine["game_id"])
    assert decided["outcome"]["forfeit"] and decided["outcome"]["loser"] == 1
    assert refusal(service.tournaments.withdraw, tid, ann).code == "tournament.withdrawn"
    while tournament["stage"] == "running":
        tournament = play_round(service, tournament, logins)
    annes = [t for t in tournament["tables"] if 1 in (t["first"], t["second"]) and t["second"] is not None]
    assert annes and all(t["outcome"]["forfeit"] and t["outcome"]["loser"] == 1 for t in annes)
    assert all(t["game_id"] is None for t in annes if t["round"] > 1), "no game is made for a forfeit"
    line = next(s for s in tournament["standings"] if s["entrant"] == 1)
    assert line["game_points"] == 0 and line["played"] + line["byes"] == 3
    # Without playoffs the qualifying's leader is the champion.
    assert tournament["champion"] == tournament["standings"][0]["entrant"] != 1


def test_a_club_night_counts_results_both_players_agree_on(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy")
    director = found.pop("Dana")[0]
    tid = create(service, director, games=2, best_of=0, venue="club", variant="standard")["id"]
    assert (
        refusal(
            service.tournaments.create, director, {"name": "Open", "venue": "club", "rated": True}
        ).values["field"]
        == "rated"
    )
    logins = enter_all(service, tid, found)
    guest = service.tournaments.add_guest(tid, director, "Walk-in Wes")["number"]
    assert (
        refusal(service.tournaments.add_guest, tid, found["Ann"][0], "Zed").code == "tournament.not_director"
    )
    tournament = service.tournaments.start(tid, director)
    by_number = {number: next(a for a, t in found.values() if t == token) for number, token in logins.items()}
    tables = undecided(tournament)
    assert len(tables) == 2 and all(t["game_id"] is None for t in tables)
    people_table = next(t for t in tables if guest not in (t["first"], t["second"]))
    guest_table = next(t for t in tables if guest in (t["first"], t["second"]))
    key = {k: people_table[k] for k in ("stage", "round", "number", "game")}
    a, b = by_number[people_table["first"]], by_number[people_table["second"]]
    outsider = by_number[next(n for n in (guest_table["first"], guest_table["second"]) if n != guest)]
    win = {**key, "winner": people_table["first"], "loser_points": 95}
    assert refusal(service.tournaments.report, tid, outsider, win).code == "tournament.not_your_table"
    assert (
        refusal(service.tournaments.report, tid, a, {**win, "loser_points": 121}).values["field"]
        == "loser_points"
    )
    assert refusal(service.tournaments.report, tid, a, {**win, "winner": guest}).values["field"] == "winner"
    service.tournaments.report(tid, a, win)
    assert refusal(service.tournaments.report, tid, a, win).code == "tournament.entered"
    # The other player's entry disagrees: shown to the director, not counted.
    shown = service.tournaments.report(tid, b, {**win, "loser_points": 85})
    table = next(t for t in shown["tables"] if t["number"] == key["number"] and t["round"] == 1)
    assert table["disputed"] and table["outcome"] is None and "entries" not in table
    seen = service.tournaments.get(tid, director)
    assert next(t for t in seen["tables"] if t["number"] == key["number"])["entries"]
    # The director's entry decides it: 121-95 is a win of 2 game points, spread 26.
    decided = service.tournaments.report(tid, director, win)
    table = next(t for t in decided["tables"] if t["number"] == key["number"] and t["round"] == 1)
    assert (
        table["outcome"]["winner_points"] == 121
        and table["game_points"] == [2, 0]
        and table["spread"] == [26, -26]
    )
    assert refusal(service.tournaments.report, tid, b, win).code == "tournament.decided"
    # The guest's table: the director enters it (a skunk: 3 game points).
    gkey = {k: guest_table[k] for k in ("stage", "round", "number", "game")}
    after = service.tournaments.report(tid, director, {**gkey, "winner": guest, "loser_points": 80})
    assert after["rounds"]["qualifying"] == 2, "the round's last result makes the next round"
    guest_line = next(s for s in after["standings"] if s["entrant"] == guest)
    assert guest_line["game_points"] == 3 and guest_line["skunks"] == 1 and guest_line["spread"] == 41
    # Round 2 agreed by both players of each table of accounts.
    for table in undecided(after):
        key2 = {k: table[k] for k in ("stage", "round", "number", "game")}
        result = {**key2, "winner": table["second"], "loser_points": 100}
        sides = [table["first"], table["second"]]
        if guest in sides:
            service.tournaments.report(tid, director, result)
            continue
        service.tournaments.report(tid, by_number[sides[0]], result)
        service.tournaments.report(tid, by_number[sides[1]], result)
    final = service.tournaments.get(tid)
    assert final["stage"] == "finished" and final["champion"] == final["standings"][0]["entrant"]


def test_refusals_name_the_problem_and_change_nothing(service: GameService) -> None:
    found = people(service, "Dana Ann")
    director, ann = found["Dana"][0], found["Ann"][0]
    assert (
        refusal(service.tournaments.create, director, {"name": "Open", "games": 0}).values["field"] == "games"
    )
    assert (
        refusal(service.tournaments.create, director, {"name": "Open", "variant": "three-player"}).values[
            "field"
        ]
        == "variant"
    )
    assert (
        refusal(service.tournaments.create, director, {"name": "Open", "pairing": "random"}).values["field"]
        == "pairing"
    )
    assert (
        refusal(service.tournaments.create, director, {"name": "Open", "starts": "tomorrow"}).values["field"]
        == "starts"
    )
    assert (
        refusal(service.tournaments.create, director, {"name": "Open", "prize": 5}).values["field"] == "prize"
    )
    assert refusal(service.tournaments.get, "nope").code == "tournament.not_found"
    tid = create(service, director, games=5, limit=2)["id"]
    service.tournaments.register(tid, ann)
    service.tournaments.register(tid, director)
    carl = account(service, "Carl")[0]
    assert refusal(service.tournaments.register, tid, carl).code == "tournament.full"
    assert refusal(service.tournaments.check_in, tid, carl).code == "tournament.not_entered"
    assert refusal(service.tournaments.add_guest, tid, director, "Wes").code == "tournament.guest_online"
    service.tournaments.check_in(tid, ann)
    service.tournaments.check_in(tid, director)
    # Two entrants meet at most twice: five games cannot be played.
    refused = refusal(service.tournaments.start, tid, director)
    assert refused.code == "tournament.too_many_games" and refused.values == {"games": 5, "most": 2}
    assert service.tournaments.get(tid)["stage"] == "registration"


def test_a_round_decided_in_two_processes_at_once_is_made_once(
    postgres_url: str, time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1's two games end in two processes; each process records its game's end at the same
    moment (the last two outcomes of the round): round 2 is made once, each table one game."""
    one, two = make_service(postgres_url, time), make_service(postgres_url, time)
    try:
        found = people(one, "Dana Ann Bob Cy Eve")
        director = found.pop("Dana")[0]
        tid = create(one, director, games=2, best_of=0)["id"]
        logins = enter_all(one, tid, found)
        tournament = one.tournaments.start(tid, director)
        ends = []
        for service, table in zip((one, two), undecided(tournament), strict=True):
            with monkeypatch.context() as held:  # the game's end is recorded below, at once
                held.setattr(service.tournaments, "game_changed", lambda game_id: None)
                tokens = seat_tokens(service, table["game_id"], sessions_at(tournament, table, logins))
                play_to_end(service, table["game_id"], tokens)
            ends.append((service, table["game_id"]))
        assert service.tournaments.get(tid)["rounds"]["qualifying"] == 1
        barrier = threading.Barrier(2)

        def record(service: GameService, game_id: str) -> None:
            barrier.wait()
            service.tournaments.game_changed(game_id)

        threads = [threading.Thread(target=record, args=end) for end in ends]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        for service in (one, two):
            seen = service.tournaments.get(tid)
            second = [t for t in seen["tables"] if t["round"] == 2]
            assert len(second) == 2 and all(t["game_id"] is not None for t in second)
            assert seen["rounds"]["qualifying"] == 2 and not [t for t in seen["tables"] if t["round"] > 2]
        ids = [t["game_id"] for t in seen["tables"] if t["game_id"]]
        assert len(ids) == len(set(ids)) == 4
        assert one.storage.pruning.count() == 4, "no second game made for a table"
        # A process making a round's games late (a sweep) finds them given: its own are removed.
        stored = two.storage.tournaments.load(tid)
        assert stored is not None
        assert two.tournaments.games.make_for(stored, [t for t in stored.tables if t.round == 2]) == []
        assert one.storage.pruning.count() == 4
    finally:
        one.close()
        two.close()


def test_a_process_stopped_half_way_is_finished_by_the_sweep(
    service: GameService, database: str, time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = people(service, "Dana Ann Bob Cy Eve")
    director = found.pop("Dana")[0]
    tid = create(service, director, games=2, best_of=0)["id"]
    enter_all(service, tid, found)
    monkeypatch.setattr(service.tournaments.games, "make_for", lambda *args: 1 / 0)  # stops before its games
    tournament = service.tournaments.start(tid, director)
    assert [t["game_id"] for t in undecided(tournament)] == [None, None]
    restarted = make_service(database, time)
    try:
        assert restarted.tournaments.sweep(grace=0) == 2
        assert all(t["game_id"] for t in undecided(restarted.tournaments.get(tid)))
        assert restarted.tournaments.sweep(grace=0) == 0
    finally:
        restarted.close()


def test_the_admin_command_lists_shows_and_repairs_a_tournament(
    service: GameService, database: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cribbage admin tournaments``: the list, one tournament with its tables to play, and
    --repair making the games a stopped server did not make."""
    found = people(service, "Dana Ann Bob Cy Eve")
    director = found.pop("Dana")[0]
    tid = create(service, director, games=1, best_of=0)["id"]
    enter_all(service, tid, found)
    with monkeypatch.context() as stopped:
        stopped.setattr(service.tournaments.games, "make_for", lambda *args: 1 / 0)
        service.tournaments.start(tid, director)
    assert main(["admin", "tournaments", "--db", database]) == 0
    assert f"{tid}  running" in capsys.readouterr().out
    assert main(["admin", "tournaments", tid, "--db", database]) == 0
    shown = capsys.readouterr().out
    assert "Tuesday night" in shown and shown.count("(game not made)") == 2
    assert main(["admin", "tournaments", tid, "--repair", "--db", database, "--json"]) == 0
    repaired = json.loads(capsys.readouterr().out)
    assert repaired["repaired"] == 2 and all(t["game_id"] for t in undecided(repaired))
    assert main(["admin", "tournaments", "nope", "--db", database]) == 1
    assert "no tournament 'nope'" in capsys.readouterr().out


def clocked(url: str, time: FakeTime) -> GameService:
    """A service whose storage reads the test's clock too (the start times are the storage's)."""
    service = GameService(
        Storage(url, clock=lambda: datetime.fromtimestamp(time(), UTC)), players=one_player(COMPUTER)
    )
    service.now = time
    return service


def starting_in(service: GameService, time: FakeTime, seconds: float, **settings: Any) -> str:
    """A tournament of Dana's starting by itself ``seconds`` from now, Ann Bob Cy and Eve
    registered, all but Eve checked in: its id."""
    found = people(service, "Dana Ann Bob Cy Eve")
    starts = datetime.fromtimestamp(time() + seconds, UTC).isoformat()
    tid: str = create(service, found["Dana"][0], games=2, best_of=0, starts=starts, **settings)["id"]
    for name in ["Ann", "Bob", "Cy", "Eve"]:
        service.tournaments.register(tid, found[name][0])
        if name != "Eve":
            service.tournaments.check_in(tid, found[name][0])
    return tid


def test_a_tournament_starts_by_itself_at_its_time(tmp_path: Any, time: FakeTime) -> None:
    """Not before its time; at it, the sweep starts it as the director's Start would: those
    checked in play (Eve, registered only, does not), the first round's games made; once."""
    service = clocked(f"sqlite:///{tmp_path / 'games.db'}", time)
    try:
        tid = starting_in(service, time, 3600)
        time.advance(3599)
        assert service.tournaments.sweep() == 0
        assert service.tournaments.get(tid)["stage"] == "registration"
        time.advance(1)
        assert service.tournaments.sweep() == 1  # three play: one table and a bye
        shown = service.tournaments.get(tid)
        assert shown["stage"] == "running" and shown["rounds"]["qualifying"] == 1
        assert sorted(s["entrant"] for s in shown["standings"]) == [1, 2, 3]
        assert [t["game_id"] is not None for t in undecided(shown)] == [True]
        assert service.tournaments.sweep() == 0 and service.tournaments.get(tid)["tables"] == shown["tables"]
    finally:
        service.close()


def test_too_few_checked_in_at_its_time_waits_for_the_director(tmp_path: Any, time: FakeTime) -> None:
    """One checked in at the time: it stays in registration, and is not started by itself later
    (a second check-in does not start it for two): the director starts it."""
    service = clocked(f"sqlite:///{tmp_path / 'games.db'}", time)
    try:
        found = people(service, "Dana Ann Bob")
        director = found["Dana"][0]
        starts = datetime.fromtimestamp(time() + 60, UTC).isoformat()
        tid = create(service, director, games=1, best_of=0, starts=starts)["id"]
        for name in ("Ann", "Bob"):
            service.tournaments.register(tid, found[name][0])
        service.tournaments.check_in(tid, found["Ann"][0])
        time.advance(120)
        assert service.tournaments.sweep() == 0
        service.tournaments.check_in(tid, found["Bob"][0])
        time.advance(120)
        assert service.tournaments.sweep() == 0
        assert service.tournaments.get(tid)["stage"] == "registration"
        assert service.tournaments.start(tid, director)["stage"] == "running"
    finally:
        service.close()


def test_the_director_starting_first_leaves_nothing_to_start(tmp_path: Any, time: FakeTime) -> None:
    service = clocked(f"sqlite:///{tmp_path / 'games.db'}", time)
    try:
        tid = starting_in(service, time, 600)
        director = service.accounts.account_of(service.accounts.sign_in("Dana", PASSWORD)["token"])
        tables = service.tournaments.start(tid, director)["tables"]
        time.advance(600)
        assert service.tournaments.sweep() == 0 and service.tournaments.get(tid, director)["tables"] == tables
    finally:
        service.close()


def test_two_processes_sweeping_at_its_time_start_it_once(shared_url: str, time: FakeTime) -> None:
    """Two server processes sweep at the same moment after the start time: one starts the
    tournament (under its row's lock), the other finds it started; one game a table."""
    one, two = clocked(shared_url, time), clocked(shared_url, time)
    try:
        tid = starting_in(one, time, 30)
        time.advance(30)
        barrier = threading.Barrier(2)
        counts: list[int] = []

        def sweep(service: GameService) -> None:
            barrier.wait()
            counts.append(service.tournaments.sweep())

        threads = [threading.Thread(target=sweep, args=(service,)) for service in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(counts) == [0, 1]
        for service in (one, two):
            shown = service.tournaments.get(tid)
            assert shown["stage"] == "running" and len(shown["tables"]) == 2  # a table and a bye
        assert one.storage.pruning.count() == 1, "one game made"
    finally:
        one.close()
        two.close()


def test_a_rated_tournaments_games_are_rated_as_any_rated_game(service: GameService) -> None:
    """docs/ratings.md, "Which games ask to be rated": its entrants accepted by entering; the
    game counts once both have acted, and its end moves both ratings in the variant's pool."""
    found = people(service, "Dana Ann Bob")
    director = found.pop("Dana")[0]
    tournament = create(service, director, games=1, best_of=0, rated=True)
    logins = enter_all(service, tournament["id"], found)
    tournament = service.tournaments.start(tournament["id"], director)
    [table] = undecided(tournament)
    tokens = seat_tokens(service, table["game_id"], sessions_at(tournament, table, logins))
    last = play_to_end(service, table["game_id"], tokens)
    assert last["rating"] == "counted", last["rating"]
    changes = service.storage.ratings.of_game(table["game_id"])
    assert set(changes) == {found["Ann"][0].id, found["Bob"][0].id}
    for name in ("Ann", "Bob"):
        [pool] = service.storage.ratings.profile(found[name][0].id)
        assert pool.pool == "short" and pool.games == 1
