"""The game state machine: each test is named after the rule it checks."""

from __future__ import annotations

import pytest

from cribbage.engine.actions import Count, CutForDeal, Deal, Discard, Muggins, Pass, Play, Starter
from cribbage.engine.cards import Card, parse_cards
from cribbage.engine.errors import IllegalActionError, RulesError
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.engine.view import CHANCE, TERMINAL, Phase
from engine_fixtures import deal_game, play

HANDS = ("4H 6D 5S 9C QC KD", "7C 8D 2S 3H JS AD")


def kinds(events: list[object], kind: str) -> list[object]:
    return [e for e in events if getattr(e, "kind", None) == kind]


def test_lower_card_deals_first() -> None:
    state = GameState(get_rules())
    assert state.to_act == CHANCE and state.phase is Phase.CUT
    state.apply(CutForDeal(parse_cards("KH 3C")))
    assert state.dealer == 1 and state.phase is Phase.DEAL


def test_higher_card_deals_option() -> None:
    state = GameState(get_rules(first_dealer="high"))
    state.apply(CutForDeal(parse_cards("KH 3C")))
    assert state.dealer == 0


def test_equal_ranks_cut_again() -> None:
    state = GameState(get_rules())
    events = state.apply(CutForDeal(parse_cards("KH KC")))
    assert kinds(events, "recut") and state.phase is Phase.CUT


def test_ten_valued_cards_tie_only_with_value_option() -> None:
    acc = GameState(get_rules())
    acc.apply(CutForDeal(parse_cards("KH QC")))
    assert acc.phase is Phase.DEAL  # ACC: only equal ranks tie; the queen is lower
    seed = GameState(get_rules(cut_ties="value", first_dealer="high"))
    seed.apply(CutForDeal(parse_cards("KH QC")))
    assert seed.phase is Phase.CUT


def test_pone_plays_first_and_his_heels_gives_dealer_two() -> None:
    state = deal_game(HANDS, "JH", ("QC KD", "AD JS"))
    assert state.scores == [2, 0]
    assert state.to_act == 1  # the pone, left of the dealer


def test_nobs_is_for_the_jack_in_hand_not_the_jack_starter() -> None:
    state = deal_game(HANDS, "JH", ("QC KD", "AD 2S"))
    assert state.scores == [2, 0]  # heels only; the JS in the pone's hand is another suit


def test_go_and_next_count_led_by_the_opponent_of_the_last_player() -> None:
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("5C 5D", "2C 3C"))
    # pone (seat 1) 9, dealer K (19), pone 8 (27), dealer cannot play: go; pone cannot play 7 or 6
    events = play(state, "9S", "KH", "8S")
    assert [e.seat for e in kinds(events, "go")] == [0]
    assert state.scores == [0, 1] and state.count == 0  # go for 1 to the pone, count reset
    assert state.to_act == 0  # the dealer, opponent of the last player, leads the next count


def test_player_continues_after_opponent_says_go() -> None:
    state = deal_game(("KH QH JH TH 5C 5D", "AS 2S 3S 4S 9C 8C"), "7D", ("5C 5D", "9C 8C"))
    events = play(state, "AS", "KH", "2S", "QH", "3S")  # 1 11 13 23 26: the dealer cannot play
    assert [e.seat for e in kinds(events, "go")] == [0]
    assert state.to_act == 1 and state.count == 26  # the pone goes on; the count stays
    play(state, "4S")  # 30: nobody can play, the pone scores the go
    assert state.scores == [0, 1] and state.count == 0 and state.to_act == 0


def test_player_plays_on_alone_when_the_opponent_has_no_cards() -> None:
    state = deal_game(("AH 2H 3H 4H 5C 5D", "KS QS JS TS 9C 8C"), "7D", ("5C 5D", "9C 8C"))
    play(state, "KS", "AH", "QS", "2H", "3H", "4H")  # 10 11 21 23 (pone go) 26 30
    assert state.scores == [4, 0] and state.count == 0  # run of 2-3-4 for 3, go for 1
    assert state.to_act == 1  # the pone leads and, the dealer being out, plays on
    events = play(state, "JS", "TS")
    assert [(e.seat, e.detail) for e in kinds(events, "score")] == [(1, "last card")]


def test_thirty_one_scores_two_and_no_go_point() -> None:
    state = deal_game(("KH QH 5H AH 5C 5D", "JS 6S 9C 4D 2C 3C"), "7D", ("5C 5D", "2C 3C"))
    events = play(state, "JS", "KH", "6S", "5H")  # 10 20 26 31: 31 for 2 to the dealer
    scores = kinds(events, "score")
    assert [(e.seat, e.points) for e in scores] == [(0, 2)]
    assert state.count == 0 and state.to_act == 1  # the opponent of the last player leads


def test_last_card_does_not_score_on_top_of_31() -> None:
    state = deal_game(("KD AD 7D 2D TC 2C", "4H 4C 7C AS 3C AC"), "QS", ("AD TC", "3C 7C"))
    events = play(state, "4H", "2C", "AS", "KD", "AC", "7D", "4C", "2D")  # ... 25 29 31
    final = kinds(events, "score")[-1]
    assert [c.kind for c in final.combos] == ["thirty-one"] and final.points == 2
    assert state.phase is Phase.DEAL


def play_out(state: GameState) -> list[object]:
    """Play the lowest legal card for each seat until the play ends."""
    events: list[object] = []
    while state.phase is Phase.PLAY:
        events += state.apply(state.legal_actions()[0])
    return events


def test_last_card_scores_one() -> None:
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"))
    events = play_out(state)  # 7 8 ... the last card played makes less than 31
    combos = [c.kind for e in kinds(events, "score") for c in e.combos]
    assert combos.count("last card") == 1
    assert [e for e in kinds(events, "play")][-1].count < 31


def test_forced_action_is_the_only_legal_action_else_none() -> None:
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("5C 5D", "2C 3C"))
    assert state.forced_action() is None  # the pone may play any of four cards
    play(state, "9S", "KH", "8S", "QH", "7S", "JH")  # 9 19 27 go, 10 17 27: the pone holds a 6
    assert state.forced_action() == Play(1, Card.parse("6S"))
    while state.phase is Phase.PLAY:
        legal = state.legal_actions()
        assert state.forced_action() == (legal[0] if len(legal) == 1 else None)
        state.apply(legal[0])
    assert state.forced_action() is None  # the deal is a chance step: nobody acts


def test_simulations_peg_the_same_points_without_listing_combinations() -> None:
    explained = deal_game(HANDS, "AH", ("QC KD", "AD JS"))
    quick = deal_game(HANDS, "AH", ("QC KD", "AD JS"))
    quick.explain = False
    for _ in range(8):
        action = explained.legal_actions()[-1]
        first, second = explained.apply(action), quick.apply(action)
        assert [(e.kind, e.seat, e.points) for e in first] == [(e.kind, e.seat, e.points) for e in second]
        assert all(not e.combos for e in second if e.kind == "show" or e.detail == "play")
    assert explained.scores == quick.scores


def test_show_order_pone_hand_dealer_hand_then_crib() -> None:
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"))
    events = play_out(state)
    shows = kinds(events, "show")
    assert [(e.seat, e.detail) for e in shows] == [(1, "hand"), (0, "hand"), (0, "crib")]
    assert state.dealer == 1 and state.phase is Phase.DEAL  # the deal passes to the left


def test_non_dealer_show_wins_before_the_dealer_counts() -> None:
    # The pone needs 6 and has 5 5 5 J... scores 29 at the show; the dealer at 119 never counts.
    state = deal_game(("KH QH 9H AH 2C 3C", "5H 5C 5S JD 4C 6C"), "5D", ("2C 3C", "4C 6C"), scores=(119, 115))
    play(state, "JD", "KH", "5H", "AH", "5C", "QH", "5S", "9H")  # 31 for 2, fifteen for 2: 119
    assert state.scores == [120, 148] or state.scores[1] >= 121
    assert state.is_terminal and state.to_act == TERMINAL
    assert state.result is not None and state.result.winner == 1
    assert state.scores[0] < 121  # the dealer's hand and crib were never counted


def test_game_ends_the_instant_the_target_is_reached_in_the_play() -> None:
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"), scores=(100, 119))
    events = play(state, "8D", "4H", "3H")  # 8 12 15: fifteen for 2 to the pone
    assert state.is_terminal and state.scores == [100, 121]
    assert [e.kind for e in events][-1] == "win"
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(Play(0, Card.parse("5S")))


def test_four_card_crib_flush_does_not_count() -> None:
    state = deal_game(("2H 4H 9C 9D KS KC", "6H 8H 3C 3D QS QC"), "AS", ("2H 4H", "6H 8H"))
    events = play(state, "3C", "9C", "3D", "9D", "QS", "KS", "QC", "KC")
    crib = next(e for e in kinds(events, "show") if e.detail == "crib")
    assert not [c for c in crib.combos if c.kind == "flush"]


def test_five_card_crib_flush_counts_five() -> None:
    state = deal_game(("2H 4H 9C 9D KS KC", "6H 8H 3C 3D QS QC"), "AH", ("2H 4H", "6H 8H"))
    events = play(state, "3C", "9C", "3D", "9D", "QS", "KS", "QC", "KC")
    crib = next(e for e in kinds(events, "show") if e.detail == "crib")
    assert [c.points for c in crib.combos if c.kind == "flush"] == [5]


def test_five_card_variant_pone_scores_three_and_one_count_only() -> None:
    rules = get_rules("five-card")
    state = GameState(rules, dealer=0)
    events = state.apply(Deal((parse_cards("KH QH JH 2C 3C"), parse_cards("9S 8S 7S 4C 6C"))))
    assert state.scores == [0, 3]
    assert [e.detail for e in kinds(events, "score")] == ["three for last"]
    state.apply(Discard(1, parse_cards("4C 6C")))
    state.apply(Discard(0, parse_cards("2C 3C")))
    state.apply(Starter(Card.parse("AD")))
    play(state, "9S", "KH", "8S")  # 9 19 27: nobody can play; pone scores go; the play ends
    assert state.phase is not Phase.PLAY
    assert state.hands[0] and state.hands[1]  # cards left unplayed


def test_three_players_play_and_count_from_the_dealers_left() -> None:
    rules = get_rules("three-player")
    state = deal_game(
        ("KH QH JH 2C 3C", "9S 8S 7S 4C 6C", "AD AS 2D 2S 5D"),
        "7D",
        ("2C", "4C", "5D"),
        rules=rules,
        crib_from_deck="TC",
    )
    assert len(state.crib) == 4 and state.to_act == 1
    events = play_out(state)
    shows = kinds(events, "show")
    assert [(e.seat, e.detail) for e in shows] == [(1, "hand"), (2, "hand"), (0, "hand"), (0, "crib")]


def test_partners_share_one_score() -> None:
    rules = get_rules("four-player")
    state = deal_game(
        ("KH QH JH 2C 3C", "9S 8S 7S 4C 6C", "AD AS 2D 2S 5D", "TC TD 9H 9D 4H"),
        "JC",
        ("2C", "4C", "5D", "4H"),
        rules=rules,
    )
    assert state.scores == [2, 0]  # his heels for the dealer's side
    play(state, "9S", "AD", "9H")  # seat 1, 2, 3: 9 10 19
    assert len(state.scores) == 2


def test_lowball_first_to_the_target_loses() -> None:
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"), scores=(100, 119), rules=get_rules("lowball"))
    play(state, "8D", "4H", "3H")
    assert state.result is not None and state.result.loser == 1 and state.result.winner == 0


@pytest.mark.parametrize(
    ("loser_score", "scheme", "skunk", "points"),
    [
        (91, "acc", 0, 2),
        (90, "acc", 1, 3),
        (60, "acc", 2, 3),
        (60, "seed3", 2, 3),
        (60, "seed4", 2, 4),
        (80, "seed4", 1, 2),
        (10, "marked", 2, 1),
    ],
)
def test_skunk_and_double_skunk_game_points(loser_score: int, scheme: str, skunk: int, points: int) -> None:
    state = deal_game(
        HANDS, "AH", ("QC KD", "AD JS"), scores=(loser_score, 119), rules=get_rules(skunk=scheme)
    )  # type: ignore[arg-type]
    play(state, "8D", "4H", "3H")
    assert state.result is not None
    assert (state.result.skunk, state.result.game_points) == (skunk, points)


def test_skunk_line_at_61_is_31() -> None:
    rules = get_rules("short")
    assert rules.skunk_line == 31 and rules.double_skunk_line is None


# --------------------------------------------------------------------------- muggins


def manual_show_state(muggins: bool = True) -> GameState:
    rules = get_rules(manual_count=True, muggins=muggins)
    state = deal_game(HANDS, "7D", ("QC KD", "AD JS"), rules=rules)
    play_out(state)
    assert state.phase is Phase.SHOW and state.to_act == 1
    return state


def test_manual_count_scores_what_is_stated_and_muggins_takes_the_rest() -> None:
    state = manual_show_state()
    before = list(state.scores)
    true = 4  # JS TS 6S 4S + 7D: fifteens 6+4+... computed by the engine below
    from cribbage.engine.scoring import score_show

    true = score_show(parse_cards("7C 8D 2S 3H"), Card.parse("7D")).total
    state.apply(Count(1, true - 2))
    assert state.to_act == 0  # the dealer may call muggins
    events = state.apply(Muggins(0, 5))
    assert state.scores[1] == before[1] + true - 2
    assert state.scores[0] == before[0] + 2  # the lesser of claimed (5) and missed (2)
    assert kinds(events, "muggins")


def test_wrong_muggins_call_gives_the_claimed_points_to_the_opponent() -> None:
    state = manual_show_state()
    from cribbage.engine.scoring import score_show

    true = score_show(parse_cards("7C 8D 2S 3H"), Card.parse("7D")).total
    before = list(state.scores)
    state.apply(Count(1, true))
    events = state.apply(Muggins(0, 3))
    assert state.scores == [before[0], before[1] + true + 3]
    assert kinds(events, "penalty")


def test_over_count_is_corrected_not_scored() -> None:
    state = manual_show_state()
    from cribbage.engine.scoring import score_show

    true = score_show(parse_cards("7C 8D 2S 3H"), Card.parse("7D")).total
    before = list(state.scores)
    state.apply(Count(1, true + 7))
    state.apply(Pass(0))
    assert state.scores[1] == before[1] + true


def test_without_muggins_missed_points_are_simply_lost() -> None:
    state = manual_show_state(muggins=False)
    before = list(state.scores)
    state.apply(Count(1, 0))
    assert state.scores == before and state.to_act == 0  # dealer counts next, nobody mugs


def test_muggins_in_the_play() -> None:
    rules = get_rules(manual_count=True, muggins=True, muggins_play=True)
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"), rules=rules)
    state.apply(Play(1, Card.parse("8D"), 0))
    state.apply(Pass(0))
    state.apply(Play(0, Card.parse("4H"), 0))
    state.apply(Pass(1))
    state.apply(Play(1, Card.parse("3H"), 0))  # fifteen for 2, claimed 0
    assert state.to_act == 0
    state.apply(Muggins(0, 2))
    assert state.scores == [2, 0]
    with pytest.raises(IllegalActionError, match="claim"):
        state.apply(Play(0, Card.parse("5S")))


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play(0, Card.parse("4H")), "not seat 0's turn"),
        (Play(1, Card.parse("4H")), "does not hold"),
        (Discard(1, parse_cards("7C 8D")), "cannot discard"),
        (Count(1, 3), "counts are stated"),
        (Muggins(1, 2), "no count"),
        (Starter(Card.parse("2H")), "no starter"),
        (Play(5, Card.parse("4H")), "no seat 5"),
    ],
)
def test_illegal_action_raises_and_leaves_the_state_unchanged(action: object, message: str) -> None:
    state = deal_game(HANDS, "AH", ("QC KD", "AD JS"))
    before = state.clone()
    with pytest.raises(IllegalActionError, match=message):
        state.apply(action)  # type: ignore[arg-type]
    assert state == before


def test_play_past_31_is_illegal() -> None:
    state = deal_game(("KH QH JH TH 5C 5D", "9S 8S 7S 6S 2C 3C"), "AD", ("TH 5C", "2C 3C"))
    play(state, "9S", "KH", "7S")  # 26: the dealer can play the 5 but not the queen
    before = state.clone()
    with pytest.raises(IllegalActionError, match="past 31"):
        state.apply(Play(0, Card.parse("QH")))
    assert state == before


def test_bad_rules_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown variant"):
        get_rules("nine-card")
    with pytest.raises(RulesError, match="players"):
        get_rules(players=5)
    with pytest.raises(RulesError, match="muggins needs manual"):
        get_rules(muggins=True)


# --------------------------------------------------------------------------- views


def test_views_show_the_crib_only_once_it_is_turned_up() -> None:
    state = manual_show_state()
    for seat in (0, 1):
        view = state.view(seat)
        assert view.crib == ()
        assert set(state.crib) - set(view.discards) <= set(view.unseen())
    state.apply(Count(1, 0))
    state.apply(Pass(0))
    state.apply(Count(0, 0))  # the dealer's hand
    state.apply(Pass(1))
    assert state.to_act == 0  # the dealer now counts the crib, face up for everyone
    for seat in (0, 1):
        assert sorted(state.view(seat).crib) == sorted(state.crib)
        assert not set(state.crib) & set(state.view(seat).unseen())


def test_the_muggins_decider_sees_the_stated_count_but_not_the_missed_points() -> None:
    state = manual_show_state()
    state.apply(Count(1, 3))
    view = state.view(0)
    assert view.claim == (1, "hand", 3)
    assert "missed" not in str(view.to_json())
    assert state.view(0).shown[-1][0] == 1  # the counted hand is face up


def test_over_count_penalty_option_gives_the_excess_to_the_opponent() -> None:
    rules = get_rules(manual_count=True, muggins=True, overcount_penalty=True)
    state = deal_game(HANDS, "7D", ("QC KD", "AD JS"), rules=rules)
    play_out(state)
    from cribbage.engine.scoring import score_show

    true = score_show(parse_cards("7C 8D 2S 3H"), Card.parse("7D")).total
    before = list(state.scores)
    events = state.apply(Count(1, true + 4))
    assert state.scores == [before[0] + 4, before[1] + true]
    assert kinds(events, "penalty")[0].detail == "over-count"
