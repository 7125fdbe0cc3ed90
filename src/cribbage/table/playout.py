"""A compact playout of two-player games between the greedy computer players, for bot matches.

:func:`cribbage.table.match.run_match` plays most games between ``weak`` and ``normal`` players, and
those spend most of their time in the machinery of the engine rather than in decisions: a
:class:`~cribbage.engine.state.GameState` checks every action, lists the legal ones, records an
:class:`~cribbage.engine.events.Event` for everything that happens, and builds a
:class:`~cribbage.engine.view.SeatView` for every decision.  :func:`play_greedy_game` plays the same
game with plain lists and integers and asks the players only what they would decide from their
view (:meth:`~cribbage.players.levels.NormalPlayer.throw` and
:meth:`~cribbage.players.levels.NormalPlayer.card`), several times faster.

It is a second implementation of part of the rules, so it is held to the first: for the same
seed and players it plays exactly the game :func:`cribbage.table.match.play_game` plays with the
engine — the same chance draws in the same order, the same decisions (so the same draws on the
players' generators), the same points by source, the same winner — and
``tests/core/test_playout.py`` checks that on 60 seeded games of each variant it supports, and
``bench/bench_playout.py`` on a thousand a variant (``--games``).
It supports what :func:`supports` says: two players, both ``weak`` or ``normal``, with
automatic counting (so no muggins); every other game goes through the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..engine.cards import DECK, JACK, Card, card_order
from ..engine.events import Source
from ..engine.rules import Rules
from ..engine.scoring import hand_points, play_points
from ..players import Player
from ..players.levels import NormalPlayer, WeakPlayer
from .table import GameStats

__all__ = ["play_greedy_game", "supports"]

_PEGGING, _HAND, _CRIB, _OTHER = (int(source) for source in Source)
"""The sources of points (:class:`~cribbage.engine.events.Source`), as plain indexes."""

GREEDY: Final = (NormalPlayer, WeakPlayer)
"""The players the playout can ask, by exact type (a subclass may decide otherwise)."""


def supports(rules: Rules, players: Sequence[Player]) -> bool:
    """Whether :func:`play_greedy_game` can play this game exactly as the engine would."""
    return (
        rules.players == 2
        and not rules.manual_count
        and len(players) == 2
        and all(type(p) in GREEDY for p in players)
    )


class _Over(Exception):
    """A side reached the target: the game ends on the spot."""


def play_greedy_game(
    rules: Rules, players: Sequence[Player], seed: int, first_dealer: int | None = None
) -> GameStats:
    """Play one game as :func:`cribbage.table.match.play_game` would, and return its statistics.

    Each step names the engine's function it follows.

    Args:
        rules: the variant; :func:`supports` must accept it with the players.
        players: one ``weak`` or ``normal`` player per seat.
        seed: seeds the chance generator (cut for deal, deals, starters).
        first_dealer: the first dealer's seat, or None to cut for deal.
    """
    if not supports(rules, players):
        raise ValueError("the playout plays two weak or normal players with automatic counting")
    game = _Playout(rules, [p for p in players if isinstance(p, GREEDY)], random.Random(seed))
    dealer = game.cut_for_deal() if first_dealer is None else first_dealer
    first = dealer
    try:
        while True:
            game.play_hand(dealer)
            dealer = 1 - dealer  # end_hand
    except _Over:
        pass
    return game.stats(seed, first)


class _Playout:
    """One game's state as plain lists and integers: the scores, the points by source, and
    :attr:`GameState.steps <cribbage.engine.state.GameState.steps>` (the actions applied, which
    with a player's seed seed its choice)."""

    def __init__(self, rules: Rules, greedy: list[NormalPlayer | WeakPlayer], rng: random.Random) -> None:
        self.rules = rules
        self.greedy = greedy  # all the players, as supports() says
        self.rng = rng
        self.scores = [0, 0]
        self.points = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.steps = 0
        self.hand_number = 0

    def peg(self, seat: int, amount: int, source: int) -> None:  # engine.points.add_points
        scores = self.scores
        scores[seat] += amount
        self.points[seat][source] += amount
        if scores[seat] >= self.rules.target:
            raise _Over

    def cut_for_deal(self) -> int:
        """draw_chance and do_cut: cut again while the best card is tied; the first dealer."""
        rules = self.rules
        while True:
            self.steps += 1
            cut = self.rng.sample(DECK, 2)
            values = [c.value if rules.cut_ties == "value" else c.rank for c in cut]
            best = min(values) if rules.first_dealer == "low" else max(values)
            if values.count(best) == 1:
                return values.index(best)

    def play_hand(self, dealer: int) -> None:
        """One hand dealt by ``dealer``: the deal, the discards, the starter, the play, the show."""
        rules, deal, pone = self.rules, self.rules.deal, 1 - dealer
        # draw_chance and do_deal: dealt one at a time from the dealer's left.
        self.hand_number += 1
        dealt = self.rng.sample(DECK, 2 * deal + rules.crib_from_deck)
        self.steps += 1
        hands: list[list[Card]] = [[], []]
        hands[pone], hands[dealer] = dealt[0 : 2 * deal : 2], dealt[1 : 2 * deal : 2]
        crib = dealt[2 * deal :]
        if self.hand_number == 1 and rules.first_hand_bonus:
            self.peg(pone, rules.first_hand_bonus, _OTHER)
        # do_discard, the pone first: each player throws from its hand, in card order.
        kept: list[list[Card]] = [[], []]
        for seat in (pone, dealer):
            hand = sorted(hands[seat], key=card_order)
            self.greedy[seat].step = self.steps
            thrown = self.greedy[seat].throw(hand, rules)
            self.steps += 1
            kept[seat] = [c for c in hand if c not in thrown]
            crib += thrown
        # draw_chance and do_starter: the starter from the cards not dealt, in deck order.
        used = 0
        for card in dealt:
            used |= card.bit
        starter = self.rng.choice([c for c in DECK if not used & c.bit])
        self.steps += 1
        if starter.rank == JACK:  # his heels
            self.peg(dealer, 2, _OTHER)
        self.play([list(kept[0]), list(kept[1])], pone)
        # end_play and count_show: the pone's hand, the dealer's, then the crib.
        shows = ((pone, kept[pone], _HAND), (dealer, kept[dealer], _HAND), (dealer, crib, _CRIB))
        for seat, cards_shown, source in shows:
            shown = hand_points(cards_shown, starter, source == _CRIB)
            if shown:
                self.peg(seat, shown, source)

    def play(self, held: list[list[Card]], pone: int) -> None:
        """do_play and advance_play: the pone leads; a player asked only with a choice.

        The hands stay in card order, which is also the order of their values: the playable
        cards are the first ones, and a hand can play if its first card can."""
        rules, greedy, one_count = self.rules, self.greedy, self.rules.one_count
        turn, count = pone, 0
        sequence: list[Card] = []
        while True:
            hand = held[turn]
            limit = 31 - count
            cards = [c for c in hand if c.value <= limit]
            if len(cards) == 1:
                card = cards[0]
            else:
                greedy[turn].step = self.steps
                card = greedy[turn].card(cards, sequence, count, rules)
            self.steps += 1
            last = turn
            hand.remove(card)
            sequence.append(card)
            count += card.value
            pegged = play_points(sequence, count)
            if pegged:
                self.peg(last, pegged, _PEGGING)
            other = held[1 - last]
            if count < 31:
                if other and other[0].value <= 31 - count:
                    turn = 1 - last  # (the last player said go, if it had cards left)
                    continue
                if hand and hand[0].value <= 31 - count:
                    continue  # the other said go: the last player plays on
                over = one_count or not (hand or other)
                self.peg(last, 1, _PEGGING)  # a go, or the last card
            else:
                over = one_count or not (hand or other)
            if over:
                return
            turn, count = (1 - last if other else last), 0
            sequence = []

    def stats(self, seed: int, first: int) -> GameStats:
        """finish: the side that reached the target wins, or in lowball loses."""
        rules, scores, points = self.rules, self.scores, self.points
        side = 0 if scores[0] >= rules.target else 1
        if rules.lowball:
            winner, skunk = 1 - side, 0
        else:
            winner, worst = side, scores[1 - side]
            double = rules.double_skunk_line
            skunk = 2 if double is not None and worst < double else 1 if worst < rules.skunk_line else 0
        return GameStats(
            seed=seed,
            first_dealer=first,
            winner=winner,
            skunk=skunk,
            scores=(scores[0], scores[1]),
            points=tuple((p[0], p[1], p[2], p[3]) for p in points),
            hands=self.hand_number,
        )
