"""Game review (issue 15): every decision judged against the hint, the CLI, the terminal, the API.

The games are short (61 points) and seeded; the players are the real ones, and the hint-following
players below choose with the very hint the browser shows (``hint_for``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from statistics import mean
from typing import Any

import pytest

from cribbage.app.games.round import hint_for
from cribbage.cli import main
from cribbage.engine.actions import Action, Count, Discard, Muggins, Pass, Play
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.errors import RecordError
from cribbage.engine.record import Game
from cribbage.engine.rules import get_rules
from cribbage.engine.view import SeatView
from cribbage.players import make_player
from cribbage.study.review import (
    THRESHOLDS,
    CountChoice,
    DecisionKind,
    GameReview,
    Grade,
    ReviewError,
    Unit,
    grade,
    review_game,
    review_record,
)
from cribbage.study.review_text import review_lines
from cribbage.table.seating import GameOptions
from cribbage.table.table import Table, seats
from terminal_script import Answerer, options, run_session
from web_fixtures import first_action

SEED = 7


class HintPlayer:
    """Follows the hint for its view: its first option (``pick=0``) or its last (``pick=-1``)."""

    def __init__(self, pick: int) -> None:
        self.pick = pick

    def choose(self, view: SeatView) -> Action:
        first = view.legal[0]
        if isinstance(first, Discard):
            option = hint_for(view)["options"][self.pick]
            return Discard(view.seat, parse_cards(option["discard"]))
        assert isinstance(first, Play), first
        return Play(view.seat, Card.parse(hint_for(view)["options"][self.pick]["card"]))


def hint_game(pick: int, seed: int = SEED, variant: str = "short") -> Game:
    """A game of seat 0 following the hint (``pick``) against ``normal``."""
    game = Game(get_rules(variant), seed=seed, names=["Hinted", "Normal"])
    Table(game, [HintPlayer(pick), make_player("normal", seed)]).run()
    assert game.result is not None
    return game


@cache
def reviewed(pick: int, seed: int = SEED) -> GameReview:
    return review_game(hint_game(pick, seed), seats=[0])


@cache
def strong_weak_game(seed: int, strong_seat: int) -> Game:
    """A game to 61 between ``strong`` (in ``strong_seat``) and ``weak``, played once."""
    players = ["strong", "weak"] if strong_seat == 0 else ["weak", "strong"]
    game = Game(get_rules("short"), seed=seed, seats=seats(players, [seed, seed + 1]))
    Table(game).run()
    return game


@cache
def strong_weak(seed: int, strong_seat: int) -> GameReview:
    return review_game(strong_weak_game(seed, strong_seat))


def losses(review: GameReview, seat: int, unit: Unit = Unit.POINTS) -> list[float]:
    return [d.loss for d in review.decisions if d.seat == seat and d.unit is unit]


# --------------------------------------------------------------------------- the pure review


def test_following_the_hints_first_option_gives_nothing_away() -> None:
    review = reviewed(0)
    mine = [d for d in review.decisions if d.seat == 0]
    assert {d.kind for d in mine} == {DecisionKind.DISCARD, DecisionKind.PLAY}
    assert all(d.loss == 0 and d.grade is Grade.BEST and d.rank == 1 for d in mine)
    totals = review.totals[0]
    assert totals.seat == 0 and totals.points == 0 and totals.win == 0
    assert totals.decisions == len(mine) and totals.grades[0] == len(mine)
    assert all(d["loss"] == 0 for d in review.to_json()["decisions"] if d["seat"] == 0)


def test_always_taking_the_hints_last_option_gives_much_away() -> None:
    first, last = reviewed(0), reviewed(-1)
    worst = [d for d in last.decisions if d.seat == 0]
    assert worst and all(d.rank == d.options for d in worst)
    assert all(d.loss > 0 for d in worst if d.kind is DecisionKind.DISCARD)
    # In a game to 61 every choice is made for the win: the chance of winning given away.
    assert all(d.unit is Unit.WIN for d in worst)
    assert mean(losses(last, 0, Unit.WIN)) > 0.01 and last.totals[0].win > 0.2
    assert first.totals[0].win == 0
    assert sum(last.totals[0].grades[3:]) >= 2  # mistakes and blunders
    # Once the game is lost whatever is chosen, nothing is given away: such choices are "best".
    assert last.hands[-1].win_start is not None and last.hands[-1].win_start[0] < 0.05


def test_in_a_game_to_121_losses_are_in_points_until_the_end() -> None:
    game = Game(get_rules("standard"), seed=SEED)
    table = Table(game, [None, make_player("normal", 1)])  # seat 0 is driven here, for two hands
    table.run()
    worst = HintPlayer(-1)
    while table.waiting_for == 0 and game.state.hand_number <= 2:
        table.act(worst.choose(game.state.view(0)))
    review = review_game(game, [0])  # an unfinished game: as far as it goes
    assert review.result is None and len(review.hands) == 3
    early = [d for d in review.decisions if d.hand <= 2]
    discards = [d for d in early if d.kind is DecisionKind.DISCARD]
    assert discards and all(d.unit is Unit.POINTS and d.loss > 0 for d in discards)
    assert mean([d.loss for d in early]) > 1.5 and review.totals[0].points > 10


def test_weak_gives_away_more_per_decision_than_strong() -> None:
    strong_seat = 0
    review = strong_weak(3, strong_seat)
    assert review.seats == (0, 1)  # a game between computers: every seat is reviewed
    for unit in Unit:
        strong, weak = losses(review, strong_seat, unit), losses(review, 1 - strong_seat, unit)
        if unit is Unit.WIN:  # a game to 61: every choice is made for the win
            assert len(strong) > 5 and len(weak) > 5
        if strong and weak:
            assert mean(weak) > 2 * mean(strong) and mean(weak) > 0.01


def all_reviews() -> list[GameReview]:
    return [reviewed(0), reviewed(-1), strong_weak(3, 0)]


def test_every_loss_is_at_least_zero_and_graded_by_the_thresholds() -> None:
    for review in all_reviews():
        for d in review.decisions:
            assert d.loss >= 0
            assert d.grade is grade(d.loss, d.unit)
            limits = THRESHOLDS[d.unit]
            index = list(Grade).index(d.grade)
            assert index == 4 or d.loss < limits[index]
            assert index == 0 or d.loss >= limits[index - 1]


def test_the_best_choice_is_the_hints_first_option_for_the_same_view() -> None:
    """At every decision of both seats of the strong-weak game."""
    checked = 0
    for review in [strong_weak(3, 0)]:
        for d in review.decisions:
            hint = hint_for(d.view)
            first = hint["options"][0]
            data = d.to_json()
            if d.kind is DecisionKind.DISCARD:
                assert sorted(first["discard"]) == sorted(data["best"]["discard"])
                assert data["ranked_by"] == hint["ranked_by"]
                # The chosen keep is the one the record shows.
                assert (data["chosen"]["win"] is not None) if d.unit is Unit.WIN else True
            elif d.kind is DecisionKind.PLAY:
                assert first["card"] == data["best"]["card"]
                assert data["ranked_by"] == hint["ranked_by"]
            checked += 1
    assert checked > 30


def test_the_best_discard_is_the_first_of_cribbage_hint_discard(capsys: pytest.CaptureFixture[str]) -> None:
    review = strong_weak(3, 0)
    discards = [d for d in review.decisions if d.kind is DecisionKind.DISCARD]
    for d in discards[:4]:
        view = d.view
        own = view.dealer == view.seat
        scores = f"{view.scores[view.side]},{view.scores[1 - view.side]}"
        args = ["hint", "discard", *map(str, view.hand), "--dealer" if own else "--pone"]
        assert main([*args, "--scores", scores, "--variant", "short", "--json"]) == 0
        first = json.loads(capsys.readouterr().out)["options"][0]
        assert sorted(first["discard"]) == sorted(d.to_json()["best"]["discard"])
        assert first["total"] == round(d.best.total, 3)  # type: ignore[union-attr]


def test_the_chances_of_winning_add_to_one_and_reach_one_for_the_winner() -> None:
    for review in all_reviews():
        result = review.result
        assert result is not None
        for hand in review.hands:
            assert hand.win_start is not None and hand.win_end is not None
            assert sum(hand.win_start) == pytest.approx(1) and sum(hand.win_end) == pytest.approx(1)
        last = review.hands[-1].win_end
        assert last is not None and last[result.winner] == 1 and last[result.loser] == 0
        # Each hand ends where the next begins.
        for before, after in zip(review.hands, review.hands[1:], strict=False):
            assert before.win_end == after.win_start and before.scores_end == after.scores_start
        assert review.hands[0].scores_start == (0, 0)


def test_the_json_has_one_entry_per_decision_with_the_table_at_that_moment() -> None:
    review = strong_weak(3, 0)
    data = json.loads(json.dumps(review.to_json()))
    assert data["format"] == "cribbage-review" and data["seats"] == [0, 1]
    assert len(data["decisions"]) == len(review.decisions) > 20
    assert data["thresholds"]["points"]["mistake"] == THRESHOLDS[Unit.POINTS][3]
    for entry in data["decisions"]:
        assert {"hand", "seat", "kind", "chosen", "best", "loss", "grade", "unit", "step", "table"} <= set(
            entry
        )
        assert entry["kind"] in ("discard", "play", "count")
        table = entry["table"]
        assert table["seat"] == entry["seat"] and table["hand_number"] == entry["hand"]
        assert {"hand", "dealer", "scores", "count", "sequence", "played", "starter"} <= set(table)
        if entry["kind"] == "discard":
            assert len(table["hand"]) == 6 and set(entry["chosen"]) >= {
                "keep",
                "hand",
                "crib",
                "pegging",
                "total",
            }
        else:
            assert table["phase"] == "play" and entry["chosen"]["card"] in table["hand"]
    for hand in data["hands"]:
        assert set(hand) == {"hand", "dealer", "scores_start", "scores_end", "win_start", "win_end", "totals"}
        assert [t["seat"] for t in hand["totals"]] == [0, 1]
    # Per-hand totals add up to the game's.
    for index, totals in enumerate(data["totals"]):
        for key in ("discard", "play", "count"):
            assert sum(h["totals"][index][key] for h in data["hands"]) == pytest.approx(totals[key], abs=0.01)
    # The table of a decision is the seat's view at its step: replaying the record that far shows it.
    game = Game.from_json(json.loads(json.dumps(strong_weak_record(3, 0))))
    entry = data["decisions"][5]
    state = Game(game.rules, seed=game.seed, dealer=game.first_dealer)
    for action in game.actions[: entry["step"]]:
        state.apply(action)
    view = state.state.view(entry["seat"]).to_json()
    assert {k: v for k, v in view.items() if k in entry["table"]} == entry["table"]


def strong_weak_record(seed: int, strong_seat: int) -> dict[str, Any]:
    return strong_weak_game(seed, strong_seat).to_json()


def test_the_people_are_reviewed_by_default_and_a_bad_seat_is_named() -> None:
    record = strong_weak_record(3, 0)
    record = {**record, "seats": [None, record["seats"][1]]}  # a person in seat 0
    # The seats reviewed are read from the record's seats, on a game begun as on any (finished
    # records with a person are reviewed by default in test_every_kind_of_saved_record_is_reviewed).
    begun = {k: v for k, v in record.items() if k != "result"} | {"actions": record["actions"][:30]}
    review = review_record(begun)
    assert review.seats == (0,) and {d.seat for d in review.decisions} == {0}
    assert review_record(begun, [1]).seats == (1,)
    with pytest.raises(ReviewError, match="no seat 2 in a 2-player game"):
        review_record(record, [2])
    with pytest.raises(RecordError):
        review_record(
            {**record, "actions": [*record["actions"][:10], {"type": "play", "seat": 0, "card": "ZZ"}]}
        )


def test_an_unfinished_record_is_reviewed_as_far_as_it_goes() -> None:
    record = strong_weak_record(3, 0)
    partial = {k: v for k, v in record.items() if k != "result"}
    partial["actions"] = record["actions"][:40]
    review = review_record(partial)
    assert review.result is None and review.hands
    assert review.hands[-1].win_end is None  # the hand in progress has no end yet
    assert all(d.to_json()["step"] < 40 for d in review.decisions)


def test_three_players_are_reviewed_without_chances() -> None:
    rules = get_rules("three-player", target=61)  # no table of chances at any target
    game = Game(rules, seed=2, seats=seats(["normal"] * 3, [0, 1, 2]))
    Table(game).run()
    review = review_game(game, [0])
    assert review.decisions and all(d.seat == 0 and d.loss >= 0 for d in review.decisions)
    assert all(h.win_start is None and h.win_end is None for h in review.hands)
    assert review.to_json()["hands"][0]["win_start"] is None
    text = review_lines(review)
    assert "No chance of winning is given" in text[-1]
    assert max(len(line) for line in text) <= 80


@pytest.mark.parametrize("variant", ["four-player", "lowball"])
def test_partnerships_and_lowball_are_reviewed_with_each_sides_chances(variant: str) -> None:
    """Their own win tables: one chance per side (partners share theirs), adding to 1, 1 for
    the side that won at the end (in lowball the side that did not reach the target)."""
    rules = get_rules(variant)
    game = Game(rules, seed=2, seats=seats(["normal"] * rules.players, list(range(rules.players))))
    Table(game).run()
    result = game.result
    assert result is not None
    review = review_game(game, [0])
    for hand in review.hands:
        assert hand.win_start is not None and hand.win_end is not None
        assert len(hand.win_start) == 2 and sum(hand.win_start) == pytest.approx(1)
        assert sum(hand.win_end) == pytest.approx(1)
    last = review.hands[-1].win_end
    assert last is not None and last[result.winner] == 1 and last[result.loser] == 0
    first = review.hands[0].win_start
    assert first is not None and 0.3 < first[0] < 0.7  # no side is far ahead at 0-0
    # Near the end the discard is judged by the chance of winning.
    assert any(d.unit is Unit.WIN for d in review.decisions if d.kind is DecisionKind.DISCARD)
    text = review_lines(review)
    assert any("chance to win at each deal" in line for line in text)
    if variant == "four-player":
        assert any(line.strip().startswith("seat 0 and seat 2's chance to win") for line in text)


# --------------------------------------------------------------------------- manual counting


class Counter:
    """Counts its hands wrong by ``short`` points (never below 0); takes no muggins."""

    def __init__(self, short: int, seed: int) -> None:
        self.short = short
        self.inner = make_player("normal", seed)

    def choose(self, view: SeatView) -> Action:
        first = view.legal[0]
        if isinstance(first, Count):
            true = self.inner.choose(view)
            assert isinstance(true, Count)
            return Count(view.seat, max(0, true.points - self.short))
        if isinstance(first, (Pass, Muggins)):
            return Pass(view.seat)
        return self.inner.choose(view)


def test_manual_counts_are_judged_with_the_muggins_taken_and_missed() -> None:
    # A game to 31: three hands, each of seat 0's counts short and mugged (the chances are not
    # looked at here).
    rules = GameOptions(variant="short", muggins=True, target=31).rules()
    game = Game(rules, seed=5)
    Table(game, [Counter(2, 1), make_player("normal", 2)]).run()  # normal takes every missed point
    review = review_game(game, [0, 1])
    counts = [
        d for d in review.decisions if d.kind is DecisionKind.COUNT and d.seat == 0 and d.what != "muggins"
    ]
    assert counts
    for d in counts:
        assert isinstance(d.chosen, CountChoice) and isinstance(d.best, CountChoice)
        missed = d.best.points - d.chosen.points
        assert d.loss == missed and d.to_json()["missed"] == missed
        assert d.taken == missed  # the opponent mugged every point missed
    calls = [d for d in review.decisions if d.what == "muggins" and d.seat == 1]
    assert calls and all(d.loss == 0 for d in calls)  # normal takes all it can
    passes = [d for d in review.decisions if d.what == "muggins" and d.seat == 0]
    missed_calls = [d for d in passes if isinstance(d.best, CountChoice) and d.best.points]
    assert all(d.loss == d.best.points for d in missed_calls)  # type: ignore[union-attr]
    assert review.totals[0].count == sum(
        d.loss for d in review.decisions if d.seat == 0 and d.kind is DecisionKind.COUNT
    )
    assert any("Muggins by" in line for line in review_lines(review))


# --------------------------------------------------------------------------- the command


def write(path: Path, data: object, indent: int | None = None) -> str:
    path.write_text(json.dumps(data, indent=indent), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_cribbage_review_prints_the_review_in_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "game.json", strong_weak_record(3, 0))
    status, out, err = run(capsys, "review", path)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].startswith("Review of seat 0, seat 1: short cribbage to 61")
    assert sum(line.startswith("Hand ") for line in lines) == len(strong_weak(3, 0).hands)
    assert "Discard by seat 1: threw" in out and "Play by seat 0" in out
    assert "blunder" in out and "best: throw" in out  # weak's worst keeps, with the best one
    assert "Over the game: seat 1 gave away" in out and "chance to win at each deal" in out


def test_cribbage_review_json_and_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "game.json", strong_weak_record(3, 0))
    status, out, _ = run(capsys, "review", path, "--seat", "1", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["seats"] == [1] and data["decisions"]
    assert {d["seat"] for d in data["decisions"]} == {1}
    both = strong_weak(3, 0).to_json()
    assert data["decisions"] == [d for d in both["decisions"] if d["seat"] == 1]
    assert data["totals"] == [both["totals"][1]]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        ('{"format": "other"}', "not a cribbage-record version 1 record"),
        ("[1, 2]", "a record must be a JSON object"),
    ],
)
def test_cribbage_review_refuses_a_bad_file_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "review", str(path))
    assert status == 2 and out == "" and message in err and err.startswith("cribbage: error: ")
    status, _, err = run(capsys, "review", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err
    good = write(tmp_path / "good.json", strong_weak_record(3, 0))
    status, _, err = run(capsys, "review", good, "--seat", "5")
    assert status == 2 and "no seat 5" in err


def test_every_kind_of_saved_record_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:

    from web_fixtures import make_client

    files: dict[str, str] = {}
    # cribbage match --records: the games a bot match plays (no names, shows not explained).
    status, _out, err = run(
        capsys, "match", "--a", "normal", "--b", "weak", "--games", "2", "--variant", "short",
        "--records", str(tmp_path / "match"), "--jobs", "2", "--json",
    )  # fmt: skip
    assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "match").iterdir()) == ["game-00001.json", "game-00002.json"]
    files["match"] = str(tmp_path / "match" / "game-00002.json")
    # The terminal's save FILE (Game.save).  This game and the API's are to 31: a record to
    # review as any other, with half the decisions of a game to 61.

    answerer = Answerer()
    assert run_session(options(level="weak", target=31), answerer)[0] == 0
    assert answerer.session is not None and answerer.session.save(str(tmp_path / "terminal.json"))
    files["terminal"] = str(tmp_path / "terminal.json")
    # The API's record, and the page's download of it (indented by two).
    client = make_client()
    created = client.post("/api/games", json={"level": "weak", "target": 31, "seed": 4}).json()
    token, state = created["token"], created["state"]
    while not state["over"]:
        action = {**first_action(state), "version": state["version"]}
        state = client.post(
            f"/api/games/{created['id']}/actions", json=action, headers={"Authorization": f"Bearer {token}"}
        ).json()
    record = client.get(
        f"/api/games/{created['id']}/record", headers={"Authorization": f"Bearer {token}"}
    ).json()
    files["api"] = write(tmp_path / "api.json", record)
    files["download"] = write(tmp_path / "download.json", record, indent=2)
    for kind, path in files.items():
        status, out, err = run(capsys, "review", path, "--json")
        assert status == 0, (kind, err)
        data = json.loads(out)
        assert data["decisions"] and data["result"] is not None, kind
        expected = [0, 1] if kind == "match" else [0]  # a person sat in seat 0 of the others
        assert data["seats"] == expected, kind


# --------------------------------------------------------------------------- the terminal game


def test_the_terminal_game_offers_the_review_at_a_keyboard_only() -> None:

    answerer = Answerer(again=["y", "n"], tty=True)
    status, out = run_session(options(), answerer)
    assert status == 0
    assert out.count("Review this game? (y/n) ") == 1 and out.count("Another game? (y/n) ") == 1
    assert out.index("Game over") < out.index("--- Review") < out.index("Another game?")
    review = out[out.index("--- Review") : out.index("Another game?")]
    assert "Discard by you: threw" in review and "Over the game: You gave away" in review
    assert "Your chance to win at each deal" in review and "You's" not in review
    assert "Given away by you: " in review and "by You" not in review
    assert max(len(line) for line in review.splitlines()) <= 80 and review.isascii()
    # Declined: no review; in a script (not a keyboard) neither question is asked (games to 31:
    # only the questions at their end are looked at).
    status, out = run_session(options(target=31), Answerer(again=["n", "n"], tty=True))
    assert status == 0 and "Review this game? (y/n) " in out and "--- Review" not in out
    status, out = run_session(options(target=31), Answerer())
    assert status == 0 and "Review this game?" not in out and "Another game?" not in out


def test_what_a_hand_gave_away_is_said_in_the_units_its_decisions_were_graded_in() -> None:
    from cribbage.study.review import SeatTotals
    from cribbage.study.review_text import _given

    by_chance = SeatTotals(0, win_discard=0.059, win_decisions=1, decisions=1)
    assert _given(by_chance) == (
        "5.9 percentage points of the chance to win, lost at 1 decision made for the win."
    )
    both = SeatTotals(0, play=1.25, win_discard=0.059, win_decisions=1, decisions=2)
    assert _given(both) == (
        "5.9 percentage points of the chance to win, lost at 1 decision made for the win and 1.25"
        " points (discard 0.00, play 1.25, counting 0)."
    )
    assert _given(SeatTotals(0, decisions=1)) == "0.00 points (discard 0.00, play 0.00, counting 0)."


def test_the_chance_given_away_over_a_game_is_a_sum_of_drops_never_a_share_over_100() -> None:
    """Issue 42 item 8: "Chance of winning given away: 106.5%".  Each decision's drop in the
    chance to win, added up over a game, may pass 100: it is said as such, in percentage points
    at so many decisions, never as a percentage of the game's chances."""
    from types import SimpleNamespace

    from cribbage.study.review import DecisionKind, SeatTotals, Unit, grade
    from cribbage.study.review_text import _given, _loss

    totals = SeatTotals(0, win_discard=0.6, win_play=0.465, win_decisions=14, decisions=30)
    said = _given(totals)
    assert said.startswith("106.5 percentage points of the chance to win, lost at 14 decisions")
    assert "added up" in said and "%" not in said
    drops = [
        SimpleNamespace(kind=kind, unit=Unit.WIN, loss=loss, grade=grade(loss, Unit.WIN))
        for kind, loss in [
            (DecisionKind.DISCARD, 0.2),
            (DecisionKind.PLAY, 0.0001),
            (DecisionKind.PLAY, 0.02),
        ]
    ]
    counted = SeatTotals(0)
    for decision in drops:
        counted = counted.add(decision)  # type: ignore[arg-type]  # what add reads of a Decision
    assert (counted.win_decisions, counted.decisions, counted.to_json()["win_decisions"]) == (2, 3, 2)
    assert _loss(drops[0]) == "blunder: the chance to win 20.0 percentage points lower"  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the API


def test_post_api_review_answers_the_review_of_a_record() -> None:

    from web_fixtures import make_client

    client = make_client()
    record = strong_weak_record(3, 0)
    response = client.post("/api/review", json=record)
    assert response.status_code == 200, response.text
    assert response.json() == json.loads(json.dumps(strong_weak(3, 0).to_json()))
    short = {k: v for k, v in record.items() if k != "result"} | {"actions": record["actions"][:30]}
    one = client.post("/api/review?seat=1", json=short).json()
    assert one["seats"] == [1] and {d["seat"] for d in one["decisions"]} == {1}
    assert one["result"] is None and one["decisions"]
    # Bad records and seats are refused, naming the problem.
    bad = client.post("/api/review", json={**record, "version": 9})
    assert bad.status_code == 422 and "not a cribbage-record version 1 record" in bad.json()["error"]
    broken = {**record, "actions": [*record["actions"][:3], {"type": "deal"}]}
    assert "action 4" in client.post("/api/review", json=broken).json()["error"]
    assert client.post("/api/review?seat=9", json=record).status_code == 422
    assert client.post("/api/review", json=[1, 2]).status_code == 422
    big = {**record, "names": ["x" * 70_000]}
    assert client.post("/api/review", json=big).status_code == 413
    # Busy: more reviews than REVIEWS_AT_ONCE at once are refused, not queued.
    reviews = client.app.state.reviews  # type: ignore[attr-defined]
    held = 0
    while reviews.acquire(blocking=False):
        held += 1
    try:
        busy = client.post("/api/review", json=record)
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
    finally:
        for _ in range(held):
            reviews.release()
    assert client.post("/api/review?seat=0", json=short).status_code == 200  # free again


def test_decision_grades_are_ordered() -> None:
    assert [g.value for g in Grade] == ["best", "fine", "inaccuracy", "mistake", "blunder"]
    assert grade(0.0, Unit.POINTS) is Grade.BEST and grade(5, Unit.POINTS) is Grade.BLUNDER
    assert grade(0.02, Unit.WIN) is Grade.INACCURACY and grade(0.5, Unit.POINTS) is Grade.INACCURACY
