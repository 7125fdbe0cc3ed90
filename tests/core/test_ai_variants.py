"""``strong`` with three and four players: whose crib it is, and whose points count how much."""

from __future__ import annotations

import random

import pytest

from cribbage.ai.discard import discard_options, opponent_weight
from cribbage.ai.pegging import CANDIDATES_MANY
from cribbage.ai.playmodel import PlayFit, hand_choices
from cribbage.ai.search import WIN, PlaySearch
from cribbage.ai.situation import PlaySituation
from cribbage.ai.tables import crib_value
from cribbage.ai.worlds import CANDIDATES, WorldSampler, history_likelihood
from cribbage.engine.actions import Play
from cribbage.engine.cards import Card, format_cards, parse_cards
from cribbage.engine.events import Kind
from cribbage.engine.rules import get_rules
from cribbage.engine.state import GameState
from cribbage.engine.view import SeatView
from cribbage.players import make_player

RANKS = "A23456789TJQK"


def one(rank: str) -> tuple[Card, ...]:
    return parse_cards(f"{rank}C")


# --------------------------------------------------------------------------- the crib tables


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
def test_an_opponents_crib_is_fed_and_ours_is_spoiled(variant: str) -> None:
    """Every other seat throws to feed a crib of its side and to spoil the others': an
    opponent's crib (fed by its owner's side: two of three throwers in partnerships, the dealer
    alone with three players) is worth more than ours (spoiled by both opponents, or by the two
    opponents against the partner) for every card thrown; before, both were the uniform values."""
    rules = get_rules(variant)
    theirs = [crib_value(one(r), rules, own=False) for r in RANKS]
    ours = [crib_value(one(r), rules, own=True) for r in RANKS]
    assert all(t > o for t, o in zip(theirs, ours, strict=True))
    assert sum(theirs) - sum(ours) > 13 * 0.15


def test_partners_crib_is_fed_by_the_partner() -> None:
    """In partnerships one other seat feeds our crib (the partner), against none with three
    players, where both others spoil the dealer's crib: our crib is worth more in partnerships
    for most throws; an opponent's crib, fed by two seats rather than one, more still."""
    three, four = get_rules("three-player"), get_rules("four-player")
    ours = sum(crib_value(one(r), four, own=True) - crib_value(one(r), three, own=True) for r in RANKS)
    theirs = sum(crib_value(one(r), four, own=False) - crib_value(one(r), three, own=False) for r in RANKS)
    assert ours > 13 * 0.05
    assert theirs > 13 * 0.05


def test_partnership_discard_weighs_the_partners_crib_as_fed() -> None:
    """With the partner's crib, 5 6 8 T T: the tables of a crib the partner feeds (and the
    opponents spoil) make the 8 the better throw (an 8 goes with the 7s and 8s a partner gives);
    against random cards (the old uniform table) strong threw the 6."""
    rules = get_rules("four-player")
    best = discard_options("5S 6C 8D TD TH", dealer=True, rules=rules)[0]
    assert format_cards(best.discard) == "8D"
    assert best.own_crib and best.crib == crib_value(parse_cards("8D"), rules, own=True)
    assert best.crib_weight == 1.0


# --------------------------------------------------------------------------- two opponents


def test_an_opponents_point_weighs_half_with_three_players() -> None:
    assert opponent_weight(get_rules("three-player")) == 0.5
    assert opponent_weight(get_rules("four-player")) == 1.0
    assert opponent_weight(get_rules("standard")) == 1.0


def test_three_player_discard_counts_half_of_an_opponents_crib() -> None:
    """A point in one opponent's crib costs half a point: the total is hand - crib / 2 + play,
    and A A 4 5 T throws the 5 (keeping 15-2 15-4 and the pair) where the whole crib would have
    kept it and thrown an ace; the dealer's own crib counts whole."""
    rules = get_rules("three-player")
    options = discard_options("AD AS 4S 5H TH", dealer=False, rules=rules)
    for option in options:
        assert option.crib_weight == 0.5
        assert option.total == pytest.approx(option.hand - option.crib / 2 + option.pegging)
        assert option.to_json()["crib_weight"] == 0.5
        assert "- 0.5 × crib" in str(option)
    assert format_cards(options[0].discard) == "5H"
    for option in discard_options("AD AS 4S 5H TH", dealer=True, rules=rules):
        assert option.crib_weight == 1.0 and "crib_weight" not in option.to_json()
        assert option.total == pytest.approx(option.hand + option.crib + option.pegging)


def test_two_player_totals_are_unchanged() -> None:
    """hand ± crib + pegging, whole, with one opponent."""
    for dealer in (True, False):
        for option in discard_options("5H 5C 6D JS QH 2C", dealer=dealer):
            assert option.crib_weight == 1.0 and "crib_weight" not in option.to_json()
            crib = option.crib if dealer else -option.crib
            assert option.total == pytest.approx(option.hand + crib + option.pegging)


def test_three_player_search_counts_an_opponents_points_half() -> None:
    """Seat 0 leads its 5, seat 1 makes 15 with its ten (2) and has the last card (1): three
    points of one of two opponents are worth -1.5; a whole -3 with the old weighting."""
    search = PlaySearch(3, (0, 1, 2), 0, greedy_others=True, opponent_weight=0.5)
    assert search.card_values(((5,), (10,), ()), 0) == {5: -1.5}
    assert PlaySearch(3, (0, 1, 2), 0, greedy_others=True).card_values(((5,), (10,), ()), 0) == {5: -3.0}


def test_three_player_search_takes_the_card_the_half_weight_prefers() -> None:
    """At 6 holding 5 and 6 (the others 4 T and 3 8): pairing the 6 gives the others more
    later; with their points at half the 5 is the better card, with them whole the 6 was."""
    hands = ((5, 6), (4, 10), (3, 8))
    half = PlaySearch(3, (0, 1, 2), 0, greedy_others=True, opponent_weight=0.5).card_values(hands, 0, (6,))
    whole = PlaySearch(3, (0, 1, 2), 0, greedy_others=True).card_values(hands, 0, (6,))
    assert max(half, key=half.__getitem__) == 5
    assert max(whole, key=whole.__getitem__) == 6


def test_pegging_out_is_a_whole_win_or_loss_whatever_the_weight() -> None:
    """Seat 1 needs 2 and makes 15 on seat 0's 5: the game is lost, worth -WIN, not -WIN / 2."""
    search = PlaySearch(3, (0, 1, 2), 0, left=(50, 2, 50), greedy_others=True, opponent_weight=0.5)
    assert search.card_values(((5,), (10,), ()), 0) == {5: -WIN}


# --------------------------------------------------------------------------- partners in the play


def test_the_partners_points_count_as_ours_in_the_play() -> None:
    """Partnerships: seat 0 leads a 5 and its partner (seat 2) makes 15 and the last card: +3
    for the side.  Holding 5 9, the partner T 4, the opponents K and Q: leading the 9, the K
    makes 19 and the partner's ten 29, where neither opponent can follow: a go for the
    partner, then the 5 makes 15 on the Q and the partner has the last card (+4); leading the 5
    gives the K its 15.  (A guard: the search counted the side's points so before issue 18.)"""
    search = PlaySearch(4, (0, 1, 0, 1), 0, greedy_others=True)
    assert search.card_values(((5,), (), (10,), ()), 0) == {5: 3.0}
    assert search.card_values(((5, 9), (13,), (10, 4), (12,)), 0) == {5: 0.0, 9: 4.0}


def test_hint_text_adds_up_with_half_an_opponents_crib(capsys: pytest.CaptureFixture[str]) -> None:
    """``cribbage hint discard`` with three players says an opponent's crib counts half, and its
    columns add up: hand - crib share + peg = total."""
    from cribbage.cli import main

    assert main(["hint", "discard", "AD", "AS", "4S", "5H", "TH", "--variant", "three-player", "--pone"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "half a point (crib column: 0.5 x crib)" in lines[1]
    hand, crib, peg, total = (float(x) for x in lines[3].replace("- ", "-").split()[-4:])
    assert total == pytest.approx(hand + crib + peg, abs=0.011)
    five = crib_value(parse_cards("5H"), get_rules("three-player"), own=False)
    assert crib == pytest.approx(-five / 2, abs=0.006)


# --------------------------------------------------------------------------- the worlds


def _mid_play_view() -> SeatView:
    """Seat 0's view in the middle of a four-player play (strong in seats 0 and 2, normal in 1
    and 3), once at least six cards are down and seat 0 has cards of two ranks to choose from."""
    rules = get_rules("four-player")
    state = GameState(rules)
    rng = random.Random(4)
    players = [make_player("strong" if s % 2 == 0 else "normal", s) for s in range(4)]
    while not state.is_terminal:
        if state.is_chance:
            state.apply(state.sample_chance(rng))
            continue
        seat = state.to_act
        view = state.view(seat)
        ranks = {a.card.rank for a in view.legal if isinstance(a, Play)}
        if seat == 0 and len(view.played) >= 6 and len(ranks) > 1:
            return view
        state.apply(players[seat].choose(view))
    raise AssertionError("no such view")


def test_more_candidate_worlds_with_three_or_four_players() -> None:
    """The others' plays weigh the candidate worlds so unevenly that few count: drawing
    CANDIDATES_MANY of them (every one consistent with the play) counts several times as many
    as the CANDIDATES the two-player reading needs."""
    view = _mid_play_view()
    sit = PlaySituation.from_view(view)

    def effective(candidates: int) -> tuple[int, float]:
        sampler = WorldSampler(sit, random.Random(1), PlayFit(), candidates=candidates)
        sampler.draw()
        weights = sampler._weights
        for world in sampler._candidates:
            assert history_likelihood(sit, [[c.rank for c in hand] for hand in world.hands]) > 0
        return len(weights), sum(weights) ** 2 / sum(w * w for w in weights)

    few, few_ess = effective(CANDIDATES)
    many, many_ess = effective(CANDIDATES_MANY)
    assert (few, many) == (CANDIDATES, CANDIDATES_MANY) and CANDIDATES_MANY >= 3 * CANDIDATES
    assert many_ess > 2 * few_ess


def test_a_partners_plays_do_not_weigh_the_worlds_but_an_opponents_do() -> None:
    """The partner is ``strong``, not the points-taker the reading describes: a world is not
    made less likely because the partner's card was not the points-taker's, while an
    opponent's card still weighs it.  Seat 0 led a 4, opponent 1 played a 6, partner 2 a king,
    opponent 3 an ace; it is seat 0's turn at 21."""
    rules = get_rules("four-player")
    played = tuple(zip((0, 1, 2, 3), parse_cards("4H 6C KD AS"), strict=True))
    sit = PlaySituation(
        rules, 0, parse_cards("9H 9C QD"), tuple(c for _, c in played), played, (3, 3, 3, 3), dealer=3
    )
    mine, third = [9, 9, 12], [7, 8, 9]

    def likelihood(opponent: list[int], partner: list[int]) -> float:
        return history_likelihood(sit, [mine, opponent, partner, third], PlayFit())

    # Holding a 5 the points-taker would have made 15 with it rather than play the king.
    assert likelihood([2, 3, 5], [2, 3, 7]) == likelihood([2, 3, 5], [3, 5, 7]) > 0
    # Holding a jack the points-taker would have played it (the higher card) rather than the 6.
    assert likelihood([2, 3, 5], [2, 3, 7]) > 2 * likelihood([2, 3, 11], [2, 3, 7]) > 0


def test_the_reading_learns_from_the_opponents_only() -> None:
    """What the reading learns at a hand's end are the opponents' choices (each made from
    cards of an opponent's hand), never the partner's, though the partner had choices too."""
    rules = get_rules("four-player")
    state = GameState(rules)
    rng = random.Random(5)
    players = [make_player("strong" if s % 2 == 0 else "normal", s) for s in range(4)]
    partner_chose = False
    while True:
        assert not state.is_terminal, "no hand where the partner chose between ranks"
        if state.is_chance:
            events = state.apply(state.sample_chance(rng))
        else:
            seat = state.to_act
            view = state.view(seat)
            ranks = {a.card.rank for a in view.legal if isinstance(a, Play)}
            partner_chose |= seat == 2 and len(ranks) > 1
            events = state.apply(players[seat].choose(view))
        if any(event.kind is Kind.HAND_OVER for event in events):
            if partner_chose:
                break
            partner_chose = False
    view = state.view(0)
    seen = hand_choices(view)
    assert seen
    opponents = [sorted(c.rank for s, c in view.played if s == seat) for seat in (1, 3)]
    for held, _, _, rank in seen:
        assert any(all(held.count(r) <= hand.count(r) for r in held) for hand in opponents)
        assert rank in held
