"""The engine's checks of what it is given: every bad action is a typed error that leaves the
state exactly as it was, and the view at a hand's end shows that hand.  Each test is named after
the rule it checks."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.cli import main
from cribbage.engine.actions import Action, Count, CutForDeal, Deal, Discard, Muggins, Pass, Play, Starter
from cribbage.engine.cards import DECK, Card, parse_cards
from cribbage.engine.errors import CribbageError, RecordError
from cribbage.engine.record import Game
from cribbage.engine.rules import VARIANTS, Rules, get_rules
from cribbage.engine.state import GameState
from cribbage.engine.view import CHANCE, Phase

HANDS = ("4H 6D 5S 9C QC KD", "7C 8D 2S 3H JS AD")
MUGGINS = {"manual_count": True, "muggins": True, "muggins_play": True}


def snapshot(state: GameState) -> tuple[GameState, list[Action], int]:
    """The state's fields, legal actions and actor, taken from a copy (the state's own caches of
    its legal actions and sampled chance step are left as they are)."""
    copy = state.clone()
    return copy, copy.clone().legal_actions(), copy.clone().to_act


def assert_unchanged(state: GameState, before: tuple[GameState, list[Action], int]) -> None:
    copy, legal, actor = before
    assert state == copy  # every dataclass field
    assert state.legal_actions() == legal and state.to_act == actor


def refused(state: GameState, action: object) -> CribbageError:
    """Apply ``action``, which must raise a CribbageError and leave the state unchanged."""
    before = snapshot(state)
    with pytest.raises(CribbageError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert_unchanged(state, before)
    assert not state.is_legal(action)  # type: ignore[arg-type]
    return info.value


def dealt(rules: Rules | None = None, dealer: int = 0) -> GameState:
    state = GameState(rules or get_rules(), dealer=dealer)
    state.apply(Deal(tuple(parse_cards(h) for h in HANDS)))
    return state


def play_until(state: GameState, rng: random.Random, done: Any) -> None:
    """Play random legal actions (and chance steps) until ``done(state)``."""
    for _ in range(5000):
        if done(state):
            return
        state.apply(state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions()))
    raise AssertionError("never reached")


# --------------------------------------------------------------------------- 1. the fast path


def test_only_the_very_action_offered_skips_the_check() -> None:
    # Nothing sampled: the cache of the sampled action is None, and None must not pass for it.
    state = dealt()
    assert "not an action" in str(refused(state, None))
    state.legal_actions()  # cached: an equal-looking action that is not one of them is checked
    assert "not an action" in str(refused(state, None))

    # A pending muggins decision is not cleared by a bad action.
    state = deal_with_pending_muggins()
    assert state.pending is not None
    refused(state, None)
    refused(state, "pass")
    assert state.pending is not None


def deal_with_pending_muggins() -> GameState:
    state = GameState(get_rules(manual_count=True, muggins=True), dealer=0)
    play_until(state, random.Random(3), lambda s: s.pending is not None)
    return state


# --------------------------------------------------------------------------- 2. chance actions


TEXT_HANDS = (tuple(HANDS[0].split()), tuple(HANDS[1].split()))


@pytest.mark.parametrize(
    "deal",
    [
        Deal(TEXT_HANDS, ()),  # text, not cards
        Deal(HANDS, ()),  # type: ignore[arg-type]  # hands as strings
        Deal((parse_cards(HANDS[0]),), ()),  # one hand for two seats
        Deal((parse_cards(HANDS[0]), parse_cards(HANDS[1])[:5]), ()),  # a short hand
        Deal((parse_cards(HANDS[0]), parse_cards(HANDS[0])), ()),  # the same cards twice
        Deal((parse_cards(HANDS[0]), parse_cards(HANDS[1])), parse_cards("2H")),  # a crib dealt
        Deal((parse_cards(HANDS[0]), (*parse_cards(HANDS[1])[:5], None)), ()),  # type: ignore[arg-type]
        Deal({0: parse_cards(HANDS[0]), 1: parse_cards(HANDS[1])}, ()),  # type: ignore[arg-type]
        Deal((parse_cards(HANDS[0]), parse_cards(HANDS[1])), "2H"),  # type: ignore[arg-type]
    ],
)
def test_a_deal_must_be_hands_of_card_objects(deal: Deal) -> None:
    state = GameState(get_rules(), dealer=0)
    refused(state, deal)
    assert state.phase is Phase.DEAL and state.legal_actions() == []


@pytest.mark.parametrize(
    "cut",
    [
        CutForDeal(("3C", "KH")),  # type: ignore[arg-type]
        CutForDeal(parse_cards("3C")),
        CutForDeal((Card.parse("3C"), Card.parse("3C"))),
        CutForDeal("3C KH"),  # type: ignore[arg-type]
        CutForDeal((Card.parse("3C"), 5)),  # type: ignore[arg-type]
    ],
)
def test_a_cut_for_deal_must_be_one_card_object_per_seat(cut: CutForDeal) -> None:
    refused(GameState(get_rules()), cut)


def test_a_starter_must_be_a_card_object_of_the_deck() -> None:
    state = dealt()
    state.apply(Discard(1, parse_cards("7C 8D")))
    state.apply(Discard(0, parse_cards("QC KD")))
    for starter in ("AH", None, 5, Card.parse("4H"), Card.parse("QC")):  # text, held, thrown
        refused(state, Starter(starter))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- 3. strict types


def test_bools_and_other_lookalikes_are_not_seats_points_claims_or_cards() -> None:
    state = dealt()  # seat 1 (the pone) discards first
    cards = parse_cards("7C 8D")
    for bad in (
        Discard(True, cards),  # type: ignore[arg-type]
        Discard(1.0, cards),  # type: ignore[arg-type]
        Discard(1, list(cards)),  # type: ignore[arg-type]
        Discard(1, ("7C", "8D")),  # type: ignore[arg-type]
        Discard(1, (cards[0], "8D")),  # type: ignore[arg-type]
    ):
        refused(state, bad)
    listed = next(a for a in state.legal_actions() if isinstance(a, Discard) and set(a.cards) == set(cards))
    refused(state, dataclasses.replace(listed, seat=True))  # equal to a listed action
    assert not any(state.discards)
    for seat in (True, 1.0, "1"):
        with pytest.raises(CribbageError, match="no seat"):
            state.view(seat)  # type: ignore[arg-type]

    rules = get_rules(**MUGGINS)
    state = GameState(rules, dealer=0)
    state.apply(Deal(tuple(parse_cards(h) for h in HANDS)))
    state.apply(Discard(1, parse_cards("7C 8D")))
    state.apply(Discard(0, parse_cards("QC KD")))
    state.apply(Starter(Card.parse("AH")))
    two = Card.parse("2S")
    for bad in (
        Play(True, two, 0),  # type: ignore[arg-type]
        Play(1, two, False),
        Play(1, two, True),
        Play(1, "2S", 0),  # type: ignore[arg-type]
        Play(1, two, 0.0),  # type: ignore[arg-type]
    ):
        refused(state, bad)
    state.apply(Play(1, two, 0))
    assert state.pending is not None and state.to_act == 0
    for bad in (Pass(False), Muggins(False, 2), Muggins(0, True), Muggins(0, 2.0)):  # type: ignore[arg-type]
        refused(state, bad)
    state.apply(Pass(0))

    state = GameState(get_rules(manual_count=True), dealer=0)
    play_until(state, random.Random(1), lambda s: s.phase is Phase.SHOW)
    seat = state.to_act
    for bad in (Count(seat, True), Count(seat == 1, 3), Count(seat, 3.0)):  # type: ignore[arg-type]
        refused(state, bad)


# --------------------------------------------------------------------------- 4. the view at a hand's end


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_view_between_hands_shows_the_finished_hand_with_its_crib_owner(name: str, dealer: int) -> None:
    rules = VARIANTS[name]
    state = GameState(rules, dealer=dealer % rules.players)
    rng = random.Random(dealer)
    shows: list[tuple[int | None, str, tuple[Card, ...]]] = []
    while not state.is_terminal:
        hand_dealer = state.dealer
        events = state.apply(
            state.sample_chance(rng) if state.is_chance else rng.choice(state.legal_actions())
        )
        shows += [(e.seat, e.detail, e.cards) for e in events if e.kind == "show"]
        if any(e.kind == "hand over" for e in events):
            n = rules.players
            assert hand_dealer is not None and state.phase is Phase.DEAL
            order = [((hand_dealer + i) % n, "hand") for i in range(1, n + 1)] + [(hand_dealer, "crib")]
            for seat in range(n):
                view = state.view(seat)
                assert [(s, w) for s, w, _ in view.shown] == order
                assert list(view.shown) == shows  # the counts in the order they were made
                assert view.shown[-1][2] == view.crib == tuple(state.crib)
                assert len(view.crib) == rules.crib_size
                assert (
                    view.kept == state.kept[seat]
                    and view.shown[[s for s, _ in order].index(seat)][2] == view.kept
                )
                assert view.hand == tuple(state.hands[seat])  # () unless the play was one count
                assert (
                    view.held == tuple(len(h) for h in state.hands)
                    and view.claim is None
                    and view.legal == ()
                )
                assert view.dealer == (hand_dealer + 1) % n  # the next hand's dealer
            shows = []
        elif any(e.kind == "deal" for e in events):
            assert state.view(0).shown == () and state.view(0).crib == ()


# --------------------------------------------------------------------------- 5. bad record files


BAD_FILES = {
    "not UTF-8": b'\xff\xfe{"format": "cribbage-record"}',
    "nested too deeply": b"[" * 100_000,
    "nested objects": b'{"a":' * 100_000,
}


@pytest.mark.parametrize("content", BAD_FILES.values(), ids=list(BAD_FILES))
def test_a_bad_record_file_is_a_record_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as info:
        Game.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_a_record_nested_too_deeply_for_python_is_a_record_error() -> None:
    data: Any = Game(get_rules(), seed=1).to_json()
    entry: Any = "5H"
    for _ in range(100_000):  # deeper than json could read or write
        entry = [entry]
    data["actions"] = [{"type": "starter", "card": entry}]
    with pytest.raises(RecordError):
        Game.from_json(data)
    data["actions"] = [entry]
    with pytest.raises(RecordError):
        Game.from_json(data)


@pytest.mark.parametrize("content", BAD_FILES.values(), ids=list(BAD_FILES))
@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_replay_and_resume_of_a_bad_file_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, command: list[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main([*command, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("cribbage: error: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


# --------------------------------------------------------------------------- property: garbage in


class Anything:
    """Equal to everything: must not pass for an action the state offered."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class Raising:
    """Raises when compared or printed."""

    def __eq__(self, other: object) -> bool:
        raise TypeError("no comparing")

    def __repr__(self) -> str:
        raise TypeError("no printing")

    __hash__ = None  # type: ignore[assignment]


class SubPlay(Play):
    """Not a Play: a lookalike subclass."""


def garbage(state: GameState, rng: random.Random) -> list[object]:
    """Objects that apply() must refuse now: non-actions, lookalikes, wrong seats and types."""
    n = state.players
    actor = state.to_act
    card = rng.choice(DECK)
    cards = tuple(rng.sample(DECK, n * 7))
    out: list[object] = [
        None, "", "pass", "5H", 0, 1, -1, True, False, 1.0, (), (0,), (0, card), [], [0, card], {},
        {"type": "pass", "seat": max(actor, 0)}, {"type": "deal"}, object(), card, Phase.PLAY, Anything(),
        Raising(), Play, Discard, Deal(()), CutForDeal(()), Starter(None),  # type: ignore[arg-type]
    ]  # fmt: skip
    players = range(n)
    if actor < 0:  # a chance step (or the game is over): no player may act
        out += [Pass(s) for s in players] + [Count(s, 0) for s in players] + [Muggins(s, 1) for s in players]
        out += [Discard(s, cards[:1]) for s in players] + [Play(s, card) for s in players]
    else:
        wrong = [s for s in (*players, n, -1) if s != actor]
        # While a count awaits the muggins decision every opponent who has not passed may call
        # or pass (the later ones before their turn): only the others' calls are wrong.
        callers = () if state.pending is None else state.pending.callers
        not_callers = [s for s in wrong if s not in callers]
        out += (
            [Pass(s) for s in not_callers] + [Count(s, 0) for s in wrong] + [Play(s, card, 0) for s in wrong]
        )
        out += [Pass(True), Pass(False), Pass(float(actor))]  # type: ignore[arg-type]
        if state.pending is None:
            out += [Pass(actor), Muggins(actor, 1)]
        if state.phase is not Phase.SHOW or state.pending is not None:
            out += [Count(actor, 0)]
        legal = state.legal_actions()
        for action in rng.sample(legal, min(3, len(legal))):
            seats = not_callers if isinstance(action, (Muggins, Pass)) else wrong
            out += [dataclasses.replace(action, seat=s) for s in (*seats, True, False, float(actor))]  # type: ignore[arg-type]
            if isinstance(action, Discard):
                out += [
                    Discard(actor, list(action.cards)),  # type: ignore[arg-type]
                    Discard(actor, tuple(str(c) for c in action.cards)),  # type: ignore[arg-type]
                    Discard(actor, (Anything(),) * len(action.cards)),  # type: ignore[arg-type]
                    Discard(actor, (Raising(),) * len(action.cards)),  # type: ignore[arg-type]
                    Discard(actor, action.cards * 2),
                ]
            elif isinstance(action, Play):
                out += [Play(actor, str(action.card), action.claim), Play(actor, Anything(), action.claim)]  # type: ignore[arg-type]
                out += [SubPlay(actor, action.card, action.claim), Play(actor, Raising(), action.claim)]  # type: ignore[arg-type]
                if action.claim is None:
                    out += [Play(actor, action.card, 0), Play(actor, action.card, True)]  # type: ignore[arg-type]
                else:
                    out += [dataclasses.replace(action, claim=c) for c in (None, True, False, -1, 61, 1.0)]  # type: ignore[arg-type]
            elif isinstance(action, (Count, Muggins)):
                points: tuple[Any, ...] = (True, False, -1, 61, 2.0, "3", Anything())
                out += [dataclasses.replace(action, points=p) for p in points]
    # Chance actions of the wrong kind, or of the right kind with bad cards.
    out += [CutForDeal(tuple(str(c) for c in cards[:n])), CutForDeal(cards[:1] * n)]  # type: ignore[arg-type]
    size, extra = state.rules.deal, state.rules.crib_from_deck
    hands = tuple(cards[i * size : (i + 1) * size] for i in range(n))
    crib = cards[n * size : n * size + extra]
    out += [
        Deal(tuple(tuple(str(c) for c in h) for h in hands), tuple(str(c) for c in crib)),  # type: ignore[arg-type]
        Deal(hands[:-1], crib),
        Deal((hands[0],) * n, crib),
        Deal(hands, (*crib, Anything())),  # type: ignore[arg-type]
        Deal(tuple((*h[:-1], True) for h in hands), crib),  # type: ignore[arg-type]
        Starter(str(card)),  # type: ignore[arg-type]
        Starter(Anything()),  # type: ignore[arg-type]
    ]
    if state.phase is not Phase.CUT:
        out += [CutForDeal(cards[:n])]
    if state.phase is not Phase.DEAL:
        out += [Deal(hands, crib)]
    if state.phase is Phase.STARTER:
        out += [Starter(c) for c in state.dealt[0][:2]]  # not in the deck
    else:
        out += [Starter(card)]
    return out


def probe(state: GameState, rng: random.Random) -> None:
    objects = garbage(state, rng)
    before = snapshot(state)
    for obj in objects:
        target = state.clone()  # nothing cached: apply() checks everything
        if rng.random() < 0.5:  # or the state has offered its actions (or a chance step) already
            if target.to_act == CHANCE:
                target.sample_chance(rng)
            target.legal_actions()
        with pytest.raises(CribbageError):
            target.apply(obj)  # type: ignore[arg-type]
        assert_unchanged(target, before)
        assert not target.is_legal(obj)  # type: ignore[arg-type]


def where(state: GameState) -> str:
    """The kind of moment to probe: each phase, a pending muggins decision, between hands."""
    if state.pending is not None:
        return f"muggins-{state.pending.phase}"
    if state.phase is Phase.DEAL and state.hand_number:
        return "between hands"
    return state.phase.value


@pytest.mark.parametrize("manual", ["auto", "manual", "muggins"])
@pytest.mark.parametrize("name", list(VARIANTS))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_apply_refuses_anything_but_a_legal_action_and_changes_nothing(
    name: str, manual: str, seed: int
) -> None:
    options = {"auto": {}, "manual": {"manual_count": True}, "muggins": MUGGINS}[manual]
    rules = VARIANTS[name].replace(**options)
    rng = random.Random(seed)
    state = GameState(rules)  # no dealer: the game starts with the cut
    probed: set[str] = set()
    for _ in range(5000):
        moment = where(state)
        if moment not in probed or rng.random() < 0.01:
            probed.add(moment)
            probe(state, rng)
        if state.is_terminal:
            break
        if state.to_act == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if state.pending is not None:  # mostly pass: calls of up to 60 points end games fast
                action = legal[0] if rng.random() < 0.9 else legal[rng.randint(1, 3)]
            else:
                action = rng.choice(legal)
            if rng.random() < 0.5:  # a player's own copy of a legal action is accepted too
                action = dataclasses.replace(action)
        state.apply(action)
    assert state.is_terminal
    expected = {"cut", "deal", "discard", "starter", "play", "between hands", "over"}
    if manual != "auto":
        expected.add("show")
    if manual == "muggins":
        expected |= {"muggins-play", "muggins-show"}
    assert expected <= probed
