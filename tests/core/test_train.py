"""The trainers (issue 15, item 4): the pure drills of :mod:`cribbage.study.drills`, ``cribbage train``
in the terminal with scripted input, and the stateless endpoints ``/api/train/...``.

The judge is the computer's own advice: the best keep is ``hint discard``'s first option and the
best card ``hint play``'s, for the same hand or the same view.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from cribbage.ai.discard import discard_options
from cribbage.ai.pegging import play_options
from cribbage.app.games.round import hint_for
from cribbage.cli import main
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.study.drills import (
    PLAY_LEVEL,
    SEED_LIMIT,
    TrainError,
    TrainingScore,
    _positions,
    discard_best,
    discard_deal,
    drill_seeds,
    judge_discard,
    judge_play,
    play_position,
)
from cribbage.tui.train import BEST, TrainOptions, train, verdict
from cribbage.web.answers.study import (
    DiscardDealAnswer,
    DiscardJudgedAnswer,
    PlayJudgedAnswer,
    PlayPositionAnswer,
)
from web_fixtures import make_client

SEEDS = range(6)


# --------------------------------------------------------------------------- the discard drill


def hint_discard_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["hint", "discard", *args, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_best_keep_is_the_first_option_of_hint_discard(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    for dealer in (True, False):
        deal = discard_deal(seed, dealer=dealer)
        answer = judge_discard(deal, deal.hand[:2])
        side = "--dealer" if dealer else "--pone"
        hint = hint_discard_json(capsys, *(str(c) for c in deal.hand), side)
        assert [o.to_json() for o in answer.options] == hint["options"]
        assert set(answer.options[0].discard) == set(parse_cards(hint["options"][0]["discard"]))
        assert len(answer.options) == 15


def test_the_best_keep_at_a_score_is_ranked_by_the_chance_of_winning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deal = discard_deal(11, dealer=False, scores=(100, 110))
    answer = judge_discard(deal, discard_best(deal))
    assert answer.ranked_by == "win" and answer.loss == 0.0 and answer.is_best
    hint = hint_discard_json(capsys, *(str(c) for c in deal.hand), "--pone", "--scores", "100,110")
    assert [o.to_json() for o in answer.options] == hint["options"]
    worst = judge_discard(deal, answer.options[-1].discard)
    assert worst.loss == pytest.approx(answer.options[0].win - answer.options[-1].win)  # type: ignore[operator]
    assert 0 < worst.loss < 1


@pytest.mark.parametrize("seed", SEEDS)
def test_the_loss_is_zero_for_the_best_positive_for_a_worse_keep_never_negative(seed: int) -> None:
    deal = discard_deal(seed)
    best = judge_discard(deal, discard_best(deal))
    assert best.loss == 0.0 and best.is_best and best.chosen == 0
    worst = judge_discard(deal, best.options[-1].discard)
    assert worst.loss > 0 and not worst.is_best
    assert worst.loss == pytest.approx(best.options[0].total - best.options[-1].total)
    for option in best.options:
        judged = judge_discard(deal, option.discard)
        assert judged.loss >= 0
        assert judged.options[judged.chosen].discard == option.discard


def test_a_deal_is_the_same_for_the_same_seed_and_follows_the_options() -> None:
    assert discard_deal(42) == discard_deal(42)
    assert discard_deal(42).hand != discard_deal(43).hand
    assert {discard_deal(s).dealer for s in range(20)} == {True, False}, "either side, drawn from the seed"
    assert all(discard_deal(s, dealer=True).dealer for s in range(5))
    assert discard_deal(42, dealer=False).hand == discard_deal(42).hand
    five = discard_deal(42, get_rules("five-card"))
    assert len(five.hand) == 5
    assert judge_discard(five, five.hand[:2]).options[0].discard == discard_best(five)
    three = discard_deal(42, get_rules("three-player"))
    assert len(judge_discard(three, three.hand[:1]).options) == 5


@pytest.mark.parametrize(
    ("positions", "code"),
    [((0,), "throw_count"), ((0, 1, 2), "throw_count"), ((), "throw_count"), ((3, 3), "card_twice")],
)
def test_a_bad_throw_is_refused_naming_it(positions: tuple[int, ...], code: str) -> None:
    deal = discard_deal(5)
    with pytest.raises(TrainError) as caught:
        judge_discard(deal, [deal.hand[i] for i in positions])
    assert caught.value.code == code


def test_a_card_not_in_the_hand_is_refused() -> None:
    deal = discard_deal(5)
    with pytest.raises(TrainError, match="KH is not in the hand") as caught:
        judge_discard(deal, [deal.hand[0], Card.parse("KH")])
    assert caught.value.code == "card_not_held"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"seed": -1}, "bad_seed"),
        ({"seed": SEED_LIMIT}, "bad_seed"),
        ({"seed": 1, "scores": (121, 3)}, "bad_scores"),
        ({"seed": 1, "scores": (1,)}, "bad_scores"),
        ({"seed": 1, "scores": (1, 2), "rules": get_rules("three-player")}, "bad_scores"),
    ],
)
def test_bad_drill_options_are_refused(kwargs: dict[str, Any], code: str) -> None:
    with pytest.raises(TrainError) as caught:
        discard_deal(**kwargs)
    assert caught.value.code == code


# --------------------------------------------------------------------------- the tally


def test_the_tally_adds_up() -> None:
    tally = TrainingScore()
    assert tally.decisions == 0 and tally.best_share is None and tally.average_loss is None
    after = tally.add_loss(0.0).add_loss(2.0).add_loss(1.0).add_loss(0.1, win=True).add_loss(0.0, win=True)
    assert tally.decisions == 0, "a tally is a value: adding makes a new one"
    assert (after.decisions, after.best) == (5, 2)
    assert after.best_share == pytest.approx(0.4)
    assert after.average_loss == pytest.approx(1.0)
    assert after.average_win_loss == pytest.approx(0.05)
    assert after.history == (0.0, 2.0, 1.0, 0.1, 0.0)
    with pytest.raises(TrainError):
        tally.add_loss(-0.5)
    deal = discard_deal(3)
    answers = [judge_discard(deal, o.discard) for o in discard_options(deal.hand, deal.dealer)[:3]]
    counted = TrainingScore()
    for answer in answers:
        counted = counted.add(answer)
    assert counted.decisions == 3 and counted.best >= 1
    assert counted.points_lost == pytest.approx(sum(a.loss for a in answers))


# --------------------------------------------------------------------------- the play drill


def replayed(seed: int, step: int) -> GameState:
    """The state of the drill's game after ``step`` actions."""
    game, _ = _positions(seed, get_rules())
    state = GameState(get_rules())
    for action in game.actions[:step]:
        state.apply(action)
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_a_play_position_is_one_seats_view_with_a_real_choice(seed: int) -> None:
    position = play_position(seed)
    assert position == play_position(seed), "the same seed, the same position"
    view = position.view
    assert len({c.rank for c in position.legal()}) > 1
    state = replayed(seed, view.step)
    assert state.view(view.seat) == view, "exactly the seat's view at that moment of the game"
    hidden = {str(c) for c in state.hands[1 - view.seat]}
    assert hidden, "the opponent holds cards"
    data = position.to_json()
    text = json.dumps(data)
    assert not any(f'"{card}"' in text for card in hidden), "never the opponent's hidden cards"
    shown = {c for c in data["hand"]} | {p["card"] for p in data["played"]} | set(data["kept"])
    shown |= set(data["discards"]) | set(data["sequence"]) | {data["starter"]}
    assert shown.isdisjoint(hidden)
    assert data["held"][1 - view.seat] == len(hidden)
    assert set(data["legal"]) <= set(data["hand"])


def test_positions_come_from_games_between_computer_players() -> None:
    game, views = _positions(3, get_rules())
    assert game.state.is_terminal and PLAY_LEVEL == "normal"
    assert len(views) > 10 and {v.seat for v in views} == {0, 1}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_best_card_is_the_first_option_of_hint_play(seed: int) -> None:
    position = play_position(seed)
    hint = hint_for(position.view)
    answers = [judge_play(position, card) for card in position.legal()]
    for answer in answers:
        assert answer.options[0].card.rank == Card.parse(hint["options"][0]["card"]).rank
        assert [round(o.value, 2) for o in answer.options] == [o["value"] for o in hint["options"]]
        assert answer.loss >= 0
    assert [o.card for o in answers[0].options] == [o.card for o in play_options(position.view)]
    best = judge_play(position, answers[0].options[0].card)
    assert best.loss == 0.0 and best.is_best and best.chosen == 0
    worst = judge_play(position, answers[0].options[-1].card)
    key = "win" if worst.ranked_by == "win" else "value"
    first, last = worst.options[0], worst.options[-1]
    expected = (first.win or 0) - (last.win or 0) if key == "win" else first.value - last.value
    assert worst.loss == pytest.approx(max(0.0, expected))
    assert judge_play(position, position.legal()[0]).to_json() == answers[0].to_json(), "reproducible"


def test_a_card_that_does_not_fit_the_position_is_refused() -> None:
    position = next(p for p in map(play_position, range(40)) if len(p.legal()) < len(p.view.hand))
    unplayable = next(c for c in position.view.hand if c not in position.legal())
    with pytest.raises(TrainError, match="cannot be played on a count") as caught:
        judge_play(position, unplayable)
    assert caught.value.code == "card_not_playable"
    absent = next(c for c in parse_cards("AS 2S 3S 4S 5S 6S") if c not in position.view.hand)
    with pytest.raises(TrainError) as caught:
        judge_play(position, absent)
    assert caught.value.code == "card_not_held"
    for variant in ("four-player", "lowball"):
        with pytest.raises(TrainError) as caught:
            play_position(1, get_rules(variant))
        assert caught.value.code == "bad_variant" and caught.value.values == {"variant": variant}


# --------------------------------------------------------------------------- the terminal


def session(drill: str, script: str, **options: Any) -> tuple[int, str]:
    out = io.StringIO()
    rules = get_rules(options.pop("variant", "standard"))
    status = train(TrainOptions(drill, rules, **options), io.StringIO(script), out)  # type: ignore[arg-type]
    return status, out.getvalue()


def test_a_scripted_discard_session_with_bad_input() -> None:
    deal = discard_deal(drill_seeds(9).randrange(SEED_LIMIT))
    best = discard_best(deal)
    absent = next(c for c in parse_cards("AS 2S 3S 4S 5S 6S 7S") if c not in deal.hand)
    script = "\n".join(
        [
            "1X 2",  # not a card
            "1",  # one card
            f"{absent} {deal.hand[0]}",  # not held
            " ".join(str(c) for c in best),  # the best; then the input ends (as Ctrl-D)
        ]
    )
    status, out = session("discard", script + "\n", seed=9, ascii=True)
    assert status == 0, out
    assert "'1X' is not a card" in out
    assert "Choose 2 cards" in out
    assert f"You do not hold the {absent.name}" in out
    assert "The best choice." in out
    assert "< you" in out
    assert "--- Tally" in out
    assert out.count(" 1. ") >= 1 and "15. " in out
    assert all(len(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=len)


def test_a_discard_session_by_position_tallies_the_loss() -> None:
    seeds = drill_seeds(4)
    deals = [discard_deal(seeds.randrange(SEED_LIMIT), dealer=False) for _ in range(2)]
    answers = [judge_discard(d, d.hand[:2]) for d in deals]
    status, out = session("discard", "1 2\n1 2\nquit\n", seed=4, dealer=False, ascii=True)
    assert status == 0
    assert "you are the pone" in out and "you deal" not in out
    tally = TrainingScore().add(answers[0]).add(answers[1])
    assert f"2 decisions, {tally.best} best" in out
    assert tally.average_loss is not None and f"average loss {tally.average_loss:.2f} points" in out


def test_a_scripted_play_session_with_bad_input() -> None:
    seeds = drill_seeds(5)
    position = play_position(seeds.randrange(SEED_LIMIT))
    card = position.legal()[0]
    status, out = session("play", f"9\nZZ\n{card}\n", seed=5, ascii=True)
    assert status == 0
    assert "There is no card 9" in out and "'ZZ' is not a card" in out
    answer = judge_play(position, card)
    assert ("The best choice." in out) == answer.is_best
    assert "1 decision," in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_a_choice_that_makes_no_difference_is_not_called_the_best() -> None:
    from dataclasses import replace

    position = play_position(drill_seeds(5).randrange(SEED_LIMIT))
    answer = judge_play(position, position.legal()[0])
    assert len(answer.options) > 1
    lost = replace(answer, options=tuple(replace(o, win=0.0) for o in answer.options), loss=0.0)
    assert verdict(lost) == "Every card loses: it makes no difference here."
    won = replace(lost, options=tuple(replace(o, win=1.0) for o in answer.options))
    assert verdict(won) == "Every card wins: it makes no difference here."
    same = replace(answer, options=tuple(replace(o, value=1.5) for o in answer.options), loss=0.0)
    assert verdict(same) == "Every card is worth the same: it makes no difference here."
    best = replace(answer, chosen=0, loss=0.0)
    assert verdict(best) == (BEST if len({o.value for o in answer.options}) > 1 else verdict(same))
    deal = discard_deal(3)
    throws = judge_discard(deal, deal.hand[:2])
    flat = replace(throws, options=tuple(replace(o, total=2.0) for o in throws.options), loss=0.0)
    assert verdict(flat) == "Every throw is worth the same: it makes no difference here."


class Interrupting(io.StringIO):
    """Standard input whose reader presses Ctrl-C after the given lines."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_leaves_with_the_tally() -> None:
    out = io.StringIO()
    status = train(TrainOptions("discard", get_rules(), seed=1, ascii=True), Interrupting("1 2\n"), out)
    assert status == 130
    assert "1 decision," in out.getvalue() and "--- Tally" in out.getvalue()


def test_the_cli_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "discard", "--scores", "1,130"]) == 2
    assert "--scores 1,130" in capsys.readouterr().err
    assert main(["train", "discard", "--seed", "-3"]) == 2
    assert "--seed: a seed is from 0 to 9007199254740991, not -3" in capsys.readouterr().err
    assert main(["train", "play", "--variant", "four-player"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["train", "play", "--variant", "lowball"]) == 2
    assert main(["train", "discard", "--dealer", "--pone"]) == 2


# --------------------------------------------------------------------------- the endpoints


@pytest.fixture(scope="module")
def client() -> TestClient:
    return make_client()


def test_the_discard_endpoints_are_stateless(client: TestClient) -> None:
    deal = client.post("/api/train/discard", json={"seed": 77, "side": "pone"}).json()
    assert deal == discard_deal(77, dealer=False).to_json()
    drawn = client.post("/api/train/discard").json()
    assert 0 <= drawn["seed"] < SEED_LIMIT and len(drawn["hand"]) == 6
    throw = deal["hand"][:2]
    answer = client.post("/api/train/discard/answer", json={"seed": 77, "side": "pone", "throw": throw})
    assert answer.status_code == 200
    expected = judge_discard(discard_deal(77, dealer=False), parse_cards(throw)).to_json()
    assert answer.json() == expected
    at_score = client.post(
        "/api/train/discard/answer", json={"seed": 77, "side": "pone", "scores": [100, 110], "throw": throw}
    ).json()
    assert at_score["ranked_by"] == "win" and at_score["loss"] >= 0


def test_the_play_endpoints_are_stateless(client: TestClient) -> None:
    position = client.post("/api/train/play", json={"seed": 8}).json()
    assert position == play_position(8).to_json()
    card = position["legal"][-1]
    answer = client.post("/api/train/play/answer", json={"seed": 8, "card": card}).json()
    assert answer == judge_play(play_position(8), Card.parse(card)).to_json()
    assert answer["options"][answer["chosen"]]["card"] == card
    assert client.post("/api/train/play").json()["seed"] >= 0


@pytest.mark.parametrize(
    ("body", "optional"),
    [
        ({"seed": 3, "side": "dealer"}, None),
        ({"seed": 3, "variant": "three-player", "side": "pone"}, "crib_weight"),  # an opponent's crib
        ({"seed": 77, "side": "pone", "scores": [100, 110]}, "win"),  # ranked by the chance of winning
        ({"seed": 5, "variant": "lowball"}, None),
    ],
)
def test_the_discard_answers_are_what_openapi_json_says(
    client: TestClient, body: dict[str, Any], optional: str | None
) -> None:
    deal = DiscardDealAnswer.model_validate(client.post("/api/train/discard", json=body).json())
    throw = deal.hand[: deal.discard]
    judged = client.post("/api/train/discard/answer", json={**body, "throw": throw}).json()
    assert DiscardJudgedAnswer.model_validate(judged).deal == deal
    assert optional is None or all(optional in option for option in judged["options"])
    with pytest.raises(ValidationError):  # exactly the keys documented
        DiscardJudgedAnswer.model_validate({**judged, "extra": 1})


@pytest.mark.parametrize("body", [{"seed": 8}, {"seed": 2, "variant": "five-card"}])
def test_the_play_answers_are_what_openapi_json_says(client: TestClient, body: dict[str, Any]) -> None:
    position = PlayPositionAnswer.model_validate(client.post("/api/train/play", json=body).json())
    judged = client.post("/api/train/play/answer", json={**body, "card": position.legal[0]}).json()
    assert PlayJudgedAnswer.model_validate(judged).position == position
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"RankedKeep", "RankedCard", "PlayJudgedAnswer"} <= set(schemas)


@pytest.mark.parametrize(
    ("path", "body", "code", "words"),
    [
        ("/api/train/discard/answer", {"seed": 5, "throw": ["1X", "2D"]}, "card_invalid", "1X"),
        ("/api/train/discard/answer", {"seed": 5, "throw": ["2D"]}, "throw_count", "throw 2 cards, not 1"),
        ("/api/train/discard/answer", {"seed": 5, "throw": ["2D", "AS"]}, "card_not_held", "AS is not in"),
        ("/api/train/discard/answer", {"seed": 5, "throw": ["2D", "2D"]}, "card_twice", "2D is thrown twice"),
        ("/api/train/discard/answer", {"seed": 5, "variant": "nope", "throw": []}, "bad_variant", "nope"),
        ("/api/train/discard", {"seed": 5, "scores": [3, 121]}, "bad_scores", "scores"),
        ("/api/train/discard", {"seed": 5, "variant": "four-player", "scores": [3, 4]}, None, None),
        ("/api/train/play", {"seed": 5, "variant": "three-player"}, "bad_variant", "two-player"),
        ("/api/train/play/answer", {"seed": 5, "variant": "lowball", "card": "AH"}, "bad_variant", "lowball"),
        ("/api/train/play/answer", {"seed": 5, "card": "ZZ"}, "card_invalid", "ZZ"),
        ("/api/train/play/answer", {"seed": 5, "card": "AH"}, "card_not_held", "AH is not in"),
        ("/api/train/play/answer", {"card": "AH"}, None, "seed"),
        ("/api/train/discard", {"seed": -1}, None, "seed"),
        ("/api/train/discard", {"seed": 1, "side": "left"}, None, "side"),
        ("/api/train/discard", {"seed": 1, "extra": 1}, None, "extra"),
    ],
)
def test_bad_requests_are_refused_naming_the_problem(
    client: TestClient, path: str, body: dict[str, Any], code: str | None, words: str | None
) -> None:
    response = client.post(path, json=body)
    if code is None and words is None:  # two sides with partners: scores are fine
        assert response.status_code == 200
        return
    assert response.status_code == 422, response.json()
    data = response.json()
    if code is not None:
        assert data["code"] == code
    assert words in data["error"]


def test_the_practice_page_is_served(client: TestClient) -> None:
    page = client.get("/practice")
    assert page.status_code == 200 and "practice.js" in page.text
    assert "content-security-policy" in page.headers
    assert client.get("/static/practice/practice.js").status_code == 200


def test_the_play_drill_says_truly_why_the_cards_are_ranked_by_the_chance_of_winning() -> None:
    """Issue 42, item 17: at 37-42 in a game to 121 the game cannot end in this hand; the
    advice ranks the cards by the chance of winning because a side is within 82 points."""
    from cribbage.tui.session import Terminal
    from cribbage.tui.train import Trainer

    position = play_position(0)
    assert position.view.scores == (37, 42)
    answer = judge_play(position, position.legal()[0])
    assert answer.ranked_by == "win"
    options = TrainOptions("play", get_rules(), seed=0, ascii=True)
    trainer = Trainer(options, Terminal(io.StringIO(), io.StringIO()))
    lines = [line.plain for line in trainer.play_table(answer)]
    assert lines[0] == "With 79 points to go the cards are ranked by their chance of winning."
    assert not any("may end in this hand" in line for line in lines)
