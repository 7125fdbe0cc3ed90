"""The one driver of every game: a recorded game and who sits in each seat.

A :class:`Table` draws the chance steps, takes the forced actions of computer seats, asks the
computer players for the rest, tells every player each hand's end, turns a failing external bot
into a forfeit, and hands back each event with the scores after it (:class:`Step`).  While a
stated count awaits the muggins decision, its true points are shown to nobody: its events (from
the stated count on) and those of each pass that leaves the decision open are held back, and come
in their order, each once, when the decision closes.  A seat with
no player is a person's: the table stops and waits for :meth:`Table.act`.  Bot matches, the demo,
the terminal game and the web service all drive their games through it.

A game lives wholly in its record.  The computer players draw their chances from their seed and
the position in the game (:class:`~cribbage.players.base.SeededPlayer`), and learn only from the
views the table shows them at each hand's end; :meth:`Table.from_json` replays the record once,
showing them those views again, so a restored table goes on exactly as the uninterrupted one.

>>> from cribbage.engine.rules import get_rules
>>> from cribbage.players import make_player
>>> table = Table(Game(get_rules("standard"), seed=7), [make_player("normal", 1), make_player("weak", 2)])
>>> steps = table.run()
>>> table.over, steps[-1].event.kind is Kind.WIN, max(steps[-1].scores) >= 121
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.actions import Action, Discard, Muggins, Pass
from ..engine.errors import CribbageError, IllegalActionError
from ..engine.events import SOURCES, Event, Kind
from ..engine.record import Game, SeatRecord
from ..engine.rules import Rules
from ..engine.state import GameState
from ..engine.view import CHANCE, TERMINAL, Phase
from ..players import Player, make_player, new_seed
from ..players.external import BotError
from .public import Public

__all__ = ["PERSON", "Forfeit", "GameStats", "Step", "Table", "Tally", "seats"]

PERSON: Final = None
"""The player of a seat where a person sits: the table waits for their action."""


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the game shown to every seat, its position among them and the public table
    after it."""

    event: Event
    index: int
    """The step's position in the game's steps (0 for the first): a replay of the record gives
    every step the same."""
    after: Public
    """What every seat sees after the event (:class:`~cribbage.table.public.Public`)."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score after the event."""
        return self.after.scores

    def to_json(self) -> dict[str, Any]:
        """The event's JSON with ``index``, ``scores`` (the scores after it) and ``after`` (the
        rest of the public table after it: :meth:`Public.to_json`)."""
        data = self.event.to_json()
        data["index"] = self.index
        data["scores"] = list(self.scores)
        data["after"] = self.after.to_json()
        return data


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat that lost the game by failing (an external bot that crashed or broke the protocol)."""

    seat: int
    error: str


class Tally:
    """The running count of a game's shown events: the public table after each, the score at
    each hand's start, points by source.

    It is fed every event of the game that every seat may see, in order (:meth:`feed`), from the
    engine's state before the first (a new game's), and is the one place where an interface finds
    the public table and the scores after an event, the score history and where the points came
    from.
    """

    def __init__(self, state: GameState) -> None:
        rules = state.rules
        self.rules = rules
        self.public = Public.of(state)
        """The public table after the last event fed (before the first: ``state``'s)."""
        self.count = 0
        """How many events were fed: the index of the next step."""
        self.hands = 0
        self.history: list[tuple[int, tuple[int, ...]]] = []
        """(hand number, each side's score) at the start of every hand, then the final scores."""
        self.points = [[0] * len(SOURCES) for _ in range(rules.players)]
        """For each seat, the points it pegged by :class:`~cribbage.engine.events.Source`."""

    def feed(self, events: Iterable[Event]) -> list[Step]:
        """Count the events; returns them as steps, each with its index and the table after it."""
        steps = []
        rules = self.rules
        for event in events:
            kind = event.kind
            if kind is Kind.DEAL:
                self.hands += 1
                self.history.append((self.hands, self.public.scores))
            self.public = self.public.after(event, rules)
            source = event.source
            if source is not None and event.seat is not None:
                self.points[event.seat][source] += event.points
            if kind is Kind.WIN:
                self.history.append((self.hands + 1, self.public.scores))
            steps.append(Step(event, self.count, self.public))
            self.count += 1
        return steps

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score after the last event fed."""
        return self.public.scores

    def by_side(self) -> list[dict[str, int]]:
        """Each side's points by source, as ``{"pegging": ..., "hand": ..., "crib": ..., "other": ...}``."""
        sides = [dict.fromkeys(SOURCES, 0) for _ in range(self.rules.sides)]
        for seat, points in enumerate(self.points):
            side = sides[self.rules.side_of(seat)]
            for name, value in zip(SOURCES, points, strict=True):
                side[name] += value
        return sides

    def history_json(self) -> list[dict[str, Any]]:
        return [{"hand": hand, "scores": list(scores)} for hand, scores in self.history]


@dataclass(frozen=True, slots=True)
class GameStats:
    """What :func:`play_game` counts in one game.

    Attributes:
        seed: the seed of the chance generator.
        first_dealer: the seat that dealt the first hand.
        winner: the winning side (on a forfeit: the best other side).
        skunk: 0, 1 (skunk) or 2 (double skunk); 0 on a forfeit.
        scores: each side's final score.
        points: for each seat, the points it pegged by source, in the order of :data:`SOURCES`.
        hands: hands dealt.
        forfeit: the seat that lost by failing (an external bot), or None.
        error: what the failing seat did wrong.
    """

    seed: int
    first_dealer: int
    winner: int
    skunk: int
    scores: tuple[int, ...]
    points: tuple[tuple[int, int, int, int], ...]
    hands: int
    forfeit: int | None = None
    error: str = ""


class Table:
    """A game in progress and its players: the one loop that drives every game.

    Args:
        game: the recorded game (new, or rebuilt by :meth:`from_json`).
        players: one per seat; :data:`PERSON` (``None``) where a person sits.  By default the
            players the record names in ``game.seats``.

    Raises:
        CribbageError: for a wrong number of players, or a record seat naming an unknown player.
    """

    def __init__(self, game: Game, players: Sequence[Player | None] | None = None) -> None:
        rules = game.rules
        if players is None:
            if not game.seats:
                raise CribbageError("the record does not say who sits at the table")
            players = [None if s is None else make_player(s.player, s.seed) for s in game.seats]
        if len(players) != rules.players:
            raise CribbageError(f"{rules.name} needs {rules.players} players, not {len(players)}")
        self.game = game
        self.players = list(players)
        self.tally = Tally(game.state)
        self.forfeit: Forfeit | None = None
        self._steps: list[Step] = []
        """The steps kept for :attr:`recent` and :meth:`recent_for`: from the earliest of the
        people's last actions on (a step that every person has acted past is dropped)."""
        self._first = 0
        """The position in the game (steps since its start) of ``_steps[0]``."""
        self._last_person = 0
        """Where the last action of any person began (0 before the first)."""
        self._since = {seat: 0 for seat, player in enumerate(self.players) if player is PERSON}
        """For each person's seat, where its own last action began (0 before its first)."""
        self._held: list[Event] | None = None
        """While a count awaits the muggins decision, the events held back until it closes (the
        true count, an over-count's penalty, the passes); None while no decision is open."""

    @classmethod
    def from_json(cls, data: object, players: Sequence[Player | None] | None = None) -> Table:
        """The table of a record, replayed once: its players see each hand's end again.

        Raises:
            RecordError: naming what is wrong with the record.
        """
        game, entries, result = Game.parse(data)
        table = cls(game, players)
        table.replay(entries, result)
        return table

    def replay(self, entries: Sequence[Any], result: object = None) -> None:
        """Apply a record's actions (see :meth:`Game.replay`) as if they were played here: the
        players see each hand's end, the tally counts every event.

        Raises:
            RecordError: naming the first bad entry.
        """
        self.game.replay(entries, self._replayed, result)

    # ------------------------------------------------------------------ queries

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def over(self) -> bool:
        """Whether the game has ended: a side reached the target, or a seat forfeited."""
        return self.forfeit is not None or self.game.state.is_terminal

    @property
    def waiting_for(self) -> int | None:
        """The person's seat the table waits for, or None (the game is over)."""
        if self.forfeit is not None:
            return None
        actor = self.game.state.to_act
        return actor if actor >= 0 and self.players[actor] is PERSON else None

    def may_act(self, seat: int) -> bool:
        """Whether the person at ``seat`` may act now: the table waits for it, or it is an
        opponent still entitled to the open muggins decision (which it may take before its turn:
        the first call wins)."""
        return (
            self.waiting_for is not None
            and type(seat) is int
            and seat in self._since
            and self.game.state.may_act(seat)
        )

    @property
    def recent(self) -> list[Step]:
        """The steps since a person last acted, that action's first (all of them before that;
        those kept, once every person's seat went to a computer: :meth:`reseat`)."""
        return self._steps[max(self._last_person - self._first, 0) :]

    def recent_for(self, seat: int) -> list[Step]:
        """The steps since the person at ``seat`` last acted, that action's first (all of them
        before that): what happened since the seat's previous decision, other people's included.

        Raises:
            CribbageError: ``seat`` is not a person's.
        """
        since = self._since.get(seat) if type(seat) is int else None
        if since is None:
            raise CribbageError(f"seat {seat!r} is not a person's")
        return self._steps[since - self._first :]

    def winner(self) -> int | None:
        """The winning side: the result's, or on a forfeit the best other side; None while playing."""
        result = self.game.state.result
        if result is not None:
            return result.winner
        if self.forfeit is None:
            return None
        rules, scores = self.rules, self.game.state.scores
        loser = rules.side_of(self.forfeit.seat)
        return max((s for s in range(rules.sides) if s != loser), key=lambda s: (scores[s], -s))

    def stats(self, seed: int) -> GameStats:
        """What a bot match counts of the game (over, or forfeited); ``seed`` is its chance seed."""
        state = self.game.state
        dealer, winner, result, forfeit = state.first_dealer, self.winner(), state.result, self.forfeit
        assert dealer is not None and winner is not None, "the game is not over"
        return GameStats(
            seed=seed,
            first_dealer=dealer,
            winner=winner,
            skunk=0 if result is None else result.skunk,
            scores=tuple(state.scores),
            points=tuple((p[0], p[1], p[2], p[3]) for p in self.tally.points),
            hands=state.hand_number,
            forfeit=None if forfeit is None else forfeit.seat,
            error="" if forfeit is None else forfeit.error,
        )

    # ------------------------------------------------------------------ driving

    def run(self) -> list[Step]:
        """Play chance steps, forced steps and the computers until a person must act or the game ends."""
        game = self.game
        state = game.state
        players = self.players
        steps: list[Step] = []
        while self.forfeit is None:
            actor = state.to_act
            if actor == TERMINAL:
                break
            if actor == CHANCE:
                action: Action | None = state.sample_chance(game.rng)
            else:
                player = players[actor]
                if player is None:
                    break  # a person decides, even a forced step: it is theirs to take
                action = state.forced_action()
                if action is None:
                    try:
                        action = player.choose(state.view(actor))
                    except BotError as exc:
                        self.forfeit = Forfeit(actor, str(exc))
                        break
            assert action is not None
            steps += self._apply(action)
        self.trim()  # what the computers memoized for these decisions: not kept between turns
        return steps

    def act(self, action: Action) -> list[Step]:
        """A person's action: applied, then the table runs on until a person must act again.

        Raises:
            CribbageError: the action is not the waiting person's (nor a muggins call or pass of
                another person entitled to it, nor the discard of a person still to discard), or
                the engine refuses it; nothing changed.
        """
        waiting = self.waiting_for
        if waiting is None:
            raise IllegalActionError("the game is over" if self.over else "it is not a person's turn")
        seat = getattr(action, "seat", None)
        # Any person's muggins call or pass goes to the engine, which says whether that seat may
        # decide now (every opponent of the counter may, until the first call) and why not; so
        # does a person's discard (every seat still to discard may, at the same time).
        early = (
            type(seat) is int
            and seat in self._since
            and (
                isinstance(action, (Muggins, Pass))
                or (isinstance(action, Discard) and self.game.state.phase is Phase.DISCARD)
            )
        )
        if seat != waiting and not early:
            raise IllegalActionError(f"it is seat {waiting}'s turn, not {seat!r}'s")
        assert type(seat) is int
        start = self.tally.count
        steps = self._apply(action)
        self._acted(seat, start)
        return steps + self.run()

    def _apply(self, action: Action) -> list[Step]:
        events = self.game.apply(action)
        if any(event.kind is Kind.HAND_OVER for event in events):
            self._tell_hand_over()
        return self._keep(self.tally.feed(self._shown(events)))

    def _replayed(self, action: Action, events: list[Event]) -> None:
        """A recorded action and its events, as :meth:`act` and :meth:`run` would have seen them."""
        if any(event.kind is Kind.HAND_OVER for event in events):
            self._tell_hand_over()
        start = self.tally.count
        self._keep(self.tally.feed(self._shown(events)))
        seat = getattr(action, "seat", None)
        if type(seat) is int and self.players[seat] is PERSON:
            self._acted(seat, start)

    def _shown(self, events: list[Event]) -> list[Event]:
        """The events of an action that may be shown now.  An action that states a count
        awaiting the muggins decision shows what comes before the stated points (the card
        played); the rest, and every event while the decision stays open, waits for it to close
        and then comes first, in order: the game's order, each event once."""
        held = self._held
        if self.game.state.pending is None:
            self._held = None
            return events if held is None else held + events
        if held is None:  # this action stated the count
            cut = next((i for i, event in enumerate(events) if _tells_count(event)), len(events))
            self._held = events[cut:]
            return events[:cut]
        held += events
        return []

    def _acted(self, seat: int, start: int) -> None:
        """The person at ``seat`` acted, its action's steps beginning at ``start``: its steps (and
        :attr:`recent`) begin again there, and the steps every person has acted past are dropped."""
        self._since[seat] = self._last_person = start
        self._drop_acted_past()

    def _drop_acted_past(self) -> None:
        """Drop the steps every person has acted past (none when no person sits here)."""
        first = min(self._since.values(), default=self._first)
        if first > self._first:
            del self._steps[: first - self._first]
            self._first = first

    def _keep(self, steps: list[Step]) -> list[Step]:
        self._steps += steps
        return steps

    def _tell_hand_over(self) -> None:
        """Show each player that wants it (``observe``) its seat's view of the hand just over."""
        state = self.game.state
        for seat, player in enumerate(self.players):
            observe = getattr(player, "observe", None)
            if callable(observe):
                observe(state.view(seat))

    # ------------------------------------------------------------------ seating

    def reseat(self, seat: int, player: SeatRecord, name: str | None = None) -> None:
        """Seat the computer ``player`` (a player's name and seed) at ``seat`` of the game in
        progress, in place of a person who left or of another computer, without replaying the
        record: the record's seats (and with ``name`` its names) say so from now on, so a replay
        of the record gives this table.

        The new player is shown its seat's view at the end of each hand over so far, as a replay
        shows it (the game's actions applied again to a bare state, without the other players,
        the tally or the record's checks).  It plays from the next :meth:`run` on, at once if
        the table waited for the seat.  A person's seat loses its steps (:meth:`recent_for`) and
        :attr:`recent` starts at the last action of the people still seated, as in a replay
        (once no person is seated, a replay keeps every step; this table the steps it kept).

        Raises:
            CribbageError: no such seat, ``player`` is not a computer player's record (a person
                cannot be seated in a game in progress) or names an unknown player, the record
                does not say who sits at the table, or ``name`` is given and the record names
                nobody.
            IllegalActionError: the game is over.
            Nothing is changed when it raises.
        """
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise CribbageError(f"no seat {seat!r} at a table of {n}")
        if not isinstance(player, SeatRecord):
            raise CribbageError(f"a seat in a game in progress goes to a computer player, not {player!r}")
        if self.over:
            raise IllegalActionError("the game is over")
        game = self.game
        if len(game.seats) != n:
            raise CribbageError("the record does not say who sits at the table")
        if name is not None and len(game.names) != n:
            raise CribbageError("the record names nobody at the table")
        computer = make_player(player.player, player.seed)
        _show_hands_over(computer, seat, game)
        self.players[seat] = computer
        game.seats = tuple(player if s == seat else record for s, record in enumerate(game.seats))
        if name is not None:
            game.names = tuple(name if s == seat else old for s, old in enumerate(game.names))
        if self._since.pop(seat, None) is not None:
            self._last_person = max(self._since.values(), default=0)
            self._drop_acted_past()

    # ------------------------------------------------------------------ starting and stopping

    def start(self) -> None:
        """Call each player's optional ``start()`` (external bots start their program)."""
        for player in self.players:
            start = getattr(player, "start", None)
            if callable(start):
                start()

    def stop(self) -> None:
        """Call each player's optional ``stop()``."""
        for player in self.players:
            stop = getattr(player, "stop", None)
            if callable(stop):
                stop()

    def trim(self) -> None:
        """Call each player's optional ``trim()``: drop what it memoized for its decisions and
        can compute again, so a table kept between turns holds what it learned and no more
        (:meth:`run` does it whenever it stops)."""
        for player in self.players:
            trim = getattr(player, "trim", None)
            if callable(trim):
                trim()


def _show_hands_over(player: Player, seat: int, game: Game) -> None:
    """Show ``player`` (if it has ``observe``) the view of ``seat`` at the end of each hand of
    ``game`` over so far, as a replay of its record shows it: its actions applied again to a
    bare state."""
    observe = getattr(player, "observe", None)
    if not callable(observe):
        return
    state = GameState(game.rules, dealer=game.first_dealer, explain=False)
    for action in game.actions:
        if any(event.kind is Kind.HAND_OVER for event in state.apply(action)):
            observe(state.view(seat))


def _tells_count(event: Event) -> bool:
    """Whether the event tells what a stated count is worth: the count itself (it bears the
    claim) or the penalty of an over-count."""
    return event.claim is not None or (event.kind is Kind.PENALTY and event.detail == "over-count")


def seats(players: Sequence[str | None], seeds: Sequence[int | None] = ()) -> tuple[SeatRecord | None, ...]:
    """Who sits where, for a new game's record: :data:`PERSON` or a computer player's name per seat.

    Each computer gets the seed given for its seat, or one drawn from the system; the table
    builds the players from the record (:class:`Table` with no players), so a game restored
    anywhere has the same players.

    >>> seats([None, "strong"], [None, 9])
    (None, SeatRecord(player='strong', seed=9))
    """
    given = list(seeds) + [None] * (len(players) - len(seeds))
    return tuple(
        None if name is None else SeatRecord(name, new_seed() if seed is None else seed)
        for name, seed in zip(players, given, strict=True)
    )
