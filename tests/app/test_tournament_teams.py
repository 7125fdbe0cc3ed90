"""Team events (issue 44, item 1: "partnerships as a team event, each team two accounts";
docs/tournaments.md, "Team events"): an entrant is a partnership; its first player registers
naming the partner, who accepts (or declines, withdrawing the team); a table's game seats four,
each team's partners facing each other; game points, spread and the bracket count per team.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app_fixtures import refusal
from cribbage.app import Actor, GameService
from cribbage.storage import StoredAccount
from tournament_fixtures import create, people, play_to_end, seat_tokens, undecided

Found = dict[str, tuple[StoredAccount, str]]


def enter_teams(
    service: GameService, tid: str, found: Found, pairs: list[tuple[str, str]]
) -> dict[int, list[str]]:
    """Each pair registers (the first naming the second), the partner accepts, the team checks
    in: each team's two session tokens by its number (its first player's first)."""
    teams = {}
    for first, second in pairs:
        shown = service.tournaments.register(tid, found[first][0], second)
        service.tournaments.accept_partner(tid, found[second][0])
        service.tournaments.check_in(tid, found[second][0])  # either partner checks the team in
        teams[shown["you"]["entrant"]] = [found[first][1], found[second][1]]
    return teams


def sessions_of(table: dict[str, Any], teams: dict[int, list[str]]) -> list[str]:
    """The sessions of a table's four seats: the first team at seats 0 and 2, the second at 1 and 3."""
    first, second = teams[table["first"]], teams[table["second"]]
    return [first[0], second[0], first[1], second[1]]


def test_a_rated_team_event_is_played_by_partnerships_to_its_champion(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy Di Eve Fay Gus Hal")
    director = found.pop("Dana")[0]
    tournament = create(service, director, variant="four-player", games=3, best_of=0, rated=True)
    tid = tournament["id"]
    assert tournament["teams"] and tournament["settings"]["variant"] == "four-player"
    teams = enter_teams(service, tid, found, [("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Fay"), ("Gus", "Hal")])
    shown = service.tournaments.get(tid, found["Bob"][0])
    assert shown["you"] == {"director": False, "entrant": 1, "accept": False}
    assert [e["name"] for e in shown["entrants"]] == ["Ann & Bob", "Cy & Di", "Eve & Fay", "Gus & Hal"]
    assert shown["entrants"][0]["players"] == ["Ann", "Bob"] and not shown["entrants"][0]["partner_pending"]
    tournament = service.tournaments.start(tid, director)
    # Each table's game seats four: the first team at seats 0 and 2, partners facing each other.
    for table in undecided(tournament):
        tokens = seat_tokens(service, table["game_id"], sessions_of(table, teams))
        state = service.state(table["game_id"], Actor(tokens[0]))
        names = {e["number"]: e["players"] for e in tournament["entrants"]}
        first, second = names[table["first"]], names[table["second"]]
        assert state["options"]["names"] == [first[0], second[0], first[1], second[1]]
        assert state["options"]["variant"] == "four-player" and state["options"]["rated"]
    table = undecided(tournament)[0]
    refused = refusal(service.tournaments.games.record, tid, table["game_id"])
    assert refused.code == "tournament.game_not_over"
    while tournament["stage"] == "running":
        for table in undecided(tournament):
            tokens = seat_tokens(service, table["game_id"], sessions_of(table, teams))
            play_to_end(service, table["game_id"], tokens)
        tournament = service.tournaments.get(tid)
    # Three games each, a different team each time; game points and spread per team.
    qualifying = [t for t in tournament["tables"] if t["second"] is not None]
    assert len(qualifying) == 6
    assert max(Counter(frozenset((t["first"], t["second"])) for t in qualifying).values()) == 1
    assert sorted(s["entrant"] for s in tournament["standings"]) == [1, 2, 3, 4]
    assert all(s["played"] == 3 for s in tournament["standings"])
    assert sum(s["spread"] for s in tournament["standings"]) == 0
    assert tournament["champion"] == tournament["standings"][0]["entrant"]
    # A finished game's record is anyone's (a scorecard's review); its four players' ratings moved.
    game_id = qualifying[0]["game_id"]
    record = service.tournaments.games.record(tid, game_id)
    assert record["format"] == "cribbage-record" and len(record["names"]) == 4 and record["result"]
    changes = service.storage.ratings.of_game(game_id)
    players = [p for n in (qualifying[0]["first"], qualifying[0]["second"]) for p in names[n]]
    assert {found[p][0].id for p in players} == set(changes)
    other = create(service, director)["id"]
    assert refusal(service.tournaments.games.record, other, game_id).code == "tournament.no_table"


def test_a_team_registers_with_its_partners_consent(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy Di")
    director = found.pop("Dana")[0]
    ann, bob, cy, di = (found[n][0] for n in ("Ann", "Bob", "Cy", "Di"))
    tid = create(service, director, variant="four-player", games=1)["id"]
    singles = create(service, director, games=1)["id"]
    # A team event's entry names a partner: another account, not entered already.
    assert refusal(service.tournaments.register, tid, ann).values["field"] == "partner"
    assert refusal(service.tournaments.register, tid, ann, "Ann").values["field"] == "partner"
    assert refusal(service.tournaments.register, tid, ann, "Nobody").values == {
        "field": "partner",
        "name": "Nobody",
    }
    assert refusal(service.tournaments.register, singles, ann, "Bob").values["field"] == "partner"
    shown = service.tournaments.register(tid, ann, "bob")  # a name as its owner may type it
    assert shown["entrants"][0]["name"] == "Ann & Bob" and shown["entrants"][0]["partner_pending"]
    assert refusal(service.tournaments.register, tid, bob, "Cy").code == "tournament.registered"
    assert refusal(service.tournaments.register, tid, cy, "Bob").values["name"] == "Bob"
    # Bob is asked; the team checks in once he accepts.
    assert service.tournaments.get(tid, bob)["you"] == {"director": False, "entrant": 1, "accept": True}
    assert refusal(service.tournaments.check_in, tid, ann).code == "tournament.partner_pending"
    assert refusal(service.tournaments.check_in, tid, director, 1).code == "tournament.partner_pending"
    assert refusal(service.tournaments.accept_partner, tid, cy).code == "tournament.no_invitation"
    assert refusal(service.tournaments.accept_partner, tid, ann).code == "tournament.no_invitation"
    service.tournaments.accept_partner(tid, bob)
    assert refusal(service.tournaments.accept_partner, tid, bob).code == "tournament.no_invitation"
    assert service.tournaments.check_in(tid, ann)["entrants"][0]["checked_in"]
    # Cy names Di, who declines: withdrawing before the start removes the team's entry.
    service.tournaments.register(tid, cy, "Di")
    after = service.tournaments.withdraw(tid, di)
    assert [e["name"] for e in after["entrants"]] == ["Ann & Bob"]
    # A team whose partner has not accepted does not play: one team checked in is too few.
    service.tournaments.register(tid, cy, "Di")
    assert (
        refusal(service.tournaments.add_guest, tid, director, "Wes", "Val").code == "tournament.guest_online"
    )
    assert refusal(service.tournaments.start, tid, director).code == "tournament.too_few"
    assert service.tournaments.get(tid)["stage"] == "registration"


def test_a_club_team_event_counts_the_results_both_teams_agree_on(service: GameService) -> None:
    found = people(service, "Dana Ann Bob Cy Di")
    director = found.pop("Dana")[0]
    tid = create(service, director, variant="four-player", games=1, best_of=0, venue="club")["id"]
    assert refusal(service.tournaments.add_guest, tid, director, "Wes").values["field"] == "partner"
    assert refusal(service.tournaments.add_guest, tid, director, "Wes", "wes").values["field"] == "partner"
    guests = service.tournaments.add_guest(tid, director, "Wes", "Val")
    assert guests["entrants"][0]["name"] == "Wes & Val" and guests["entrants"][0]["checked_in"]
    enter_teams(service, tid, found, [("Ann", "Bob")])
    tournament = service.tournaments.start(tid, director)
    [table] = undecided(tournament)
    assert table["game_id"] is None, "a club's table is played at a real board"
    key = {k: table[k] for k in ("stage", "round", "number", "game")}
    result = {**key, "winner": 2, "loser_points": 88}
    cy = found["Cy"][0]
    assert refusal(service.tournaments.report, tid, cy, result).code == "tournament.not_your_table"
    # Bob, Ann's partner, enters their team's result; the director, for the guests' team.
    service.tournaments.report(tid, found["Bob"][0], result)
    assert refusal(service.tournaments.report, tid, found["Ann"][0], result).code == "tournament.entered"
    final = service.tournaments.report(tid, director, result)
    assert final["stage"] == "finished" and final["champion"] == 2
    [line] = [s for s in final["standings"] if s["entrant"] == 2]
    assert line["game_points"] == 3 and line["skunks"] == 1 and line["spread"] == 33
