"""One game at a table, cached: its seats, its state, and what each seat and a spectator are shown.

A :class:`LiveGame` is one game at a :class:`~cribbage.table.table.Table` (the recorded game and
who sits where), its seats (:class:`~cribbage.storage.StoredSeat`: a person or a computer,
the display name, the hash of the seat's token, the invitation code) and what each seat is
shown (:meth:`LiveGame.to_json`, the ``STATE`` of ``docs/api.md``, in the two parts of
:mod:`.state`).  The table plays the computers until a person must act or the game is over.  A
seat only ever receives its own :class:`~cribbage.engine.view.SeatView`, its legal actions (as
templates) and the public events since its own previous action, each with the scores after it.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Collection, Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.errors import CribbageError
from ...engine.record import Game
from ...engine.templates import templates
from ...engine.view import SeatView
from ...players import PLAYERS, make_player
from ...storage import StoredGame, StoredSeat
from ...table.seating import HUMAN, seat_seed
from ...table.table import PERSON, Table, seats
from ..errors import AppError
from .options import ARRIVAL_SECONDS, DEALERS, Options, SeatSpec, new_code, seat_layout
from .replay import Players, first_seats, replayed, seat_players
from .results import ClockShown, RunningClock, SeatInvite, State
from .state import merged, own_view, public_view, seats_json, unseen

__all__ = ["LiveGame"]


class LiveGame:
    """One game in progress (or over): its table, its seats and what each seat is shown."""

    def __init__(
        self,
        game_id: str,
        options: Options,
        table: Table,
        seated: Sequence[StoredSeat],
        players: Players = make_player,
    ) -> None:
        self.id = game_id
        self.options = options
        self._options_json: dict[str, Any] | None = None
        self._steps_json: tuple[Table | None, dict[int, dict[str, Any]]] = (None, {})
        """The JSON of the steps of the last push, by index, and the table they are of: a push
        makes only its new steps' (a step never changes; shared, never changed)."""
        self.players = players
        """The factory of its computer players (whenever the table is replayed)."""
        self.table = self.seat_table(table)
        self.seats: tuple[StoredSeat, ...] = ()
        self.lock = threading.Lock()
        self.generation = 0
        """The seating generation this copy holds (see :meth:`.storage.games.GameRows.position`)."""
        self.retired = False
        """This copy may hold what was never stored (a change whose save was refused or failed)
        and has left the cache: whoever waited for its lock loads the stored game instead
        (:meth:`~cribbage.app.games.repository.Repository.held`)."""
        self.deadline: float | None = None
        """When the turn clock of the person to act runs out (seconds since the epoch), or None."""
        self.away: frozenset[int] = frozenset()
        """The seats a computer moved for when their clock ran out, until their person acts."""
        self.rematch: str | None = None
        """The game its people went on to once it was over ("play again"), once there is one."""
        self.rating: str | None = "pending" if options.rated else None
        """Whether the game is rated, as its state shows it (:meth:`RatingPolicy.status
        <cribbage.app.games.rating_policy.RatingPolicy.status>`, read again whenever the game is
        held): None (not asked), ``pending``, ``counted``, or why not (``aborted``...)."""
        self.rating_change: dict[str, Any] | None = None
        """Once the finished game's ratings are recorded, what they did: ``{"pool", "seats":
        [{"seat", "shown", "change"}...]}`` (:func:`cribbage.app.games.rated.rating_change`); None
        before (or when the game is not rated)."""
        self.arrival: float | None = None
        """A rematch's (a match's next game's too): until when its people are given to arrive
        from the game before (seconds since the epoch; :data:`~.options.ARRIVAL_SECONDS` after
        it was made), None for any other game."""
        self.rematch_watch: str | None = None
        """The watch code of :attr:`rematch`, once a spectator asked for this game after it
        (:meth:`GameService.watch`): where the spectators go next."""
        self.set_seats(seated)

    @staticmethod
    def seat_table(table: Table) -> Table:
        if table.game.seed is None:
            # An unseeded game draws its cards from the operating system: nothing to predict.
            table.game.rng = secrets.SystemRandom()
        return table

    def set_seats(self, seated: Sequence[StoredSeat]) -> None:
        """Take the seats as stored (a person may have taken one): the record's names follow."""
        self.seats = tuple(seated)
        self.table.game.names = tuple(seat.name for seat in self.seats)

    def rebuild(self, record: dict[str, Any], *, catch_up: bool = True) -> None:
        """Bring the game to the stored one, of JSON ``record`` (another process moved it on).

        With ``catch_up`` (the same players sit at the table), when the stored record continues
        this game, only the actions it added are applied, as if played here (the players see the
        hands that ended): one action or a few, where replaying the whole record would cost the
        whole game's.  Otherwise, or if applying them fails, the game is replayed from its record.
        """
        if not (catch_up and self._caught_up(record)):
            self.table = self.seat_table(replayed(record, self.options, self.players))
        self.table.game.names = tuple(seat.name for seat in self.seats)

    def _caught_up(self, record: dict[str, Any]) -> bool:
        """Apply the actions ``record`` has past this game's, if it continues this game."""
        done = self.game.actions
        actions = record.get("actions")
        if (
            self.table.forfeit is not None
            or not isinstance(actions, list)
            or len(actions) < len(done)
            or record.get("seed") != self.game.seed
            or (done and actions[len(done) - 1] != done[-1].to_json())  # records only grow
        ):
            return False
        try:
            self.table.replay(actions[len(done) :], record.get("result"))
        except CribbageError:
            return False  # the table is replayed whole instead
        return True

    @classmethod
    def new(
        cls,
        game_id: str,
        token_hash: str,
        options: Options,
        layout: Sequence[SeatSpec] | None = None,
        players: Players = make_player,
    ) -> LiveGame:
        """A new game, played up to the first person's decision.

        ``layout`` says who sits where (seat 0 is the creator, a person); by default the
        creator against computers of the game's level.  Each other person's seat gets an
        invitation code.  ``players`` makes the computer players of the levels.
        """
        rules = options.rules()
        specs = seat_layout(options, rules.players, layout)
        for spec in specs:
            if spec.kind == "computer" and spec.level not in PLAYERS:
                level = spec.level
                raise AppError(
                    "computer_unavailable", f"the {level!r} computer player is not available", level=level
                )
        if layout is None:
            names = options.seat_names(rules.players)
        else:
            names = options.table_names([spec.kind for spec in specs])
        seeds = [None if options.seed is None else seat_seed(options.seed, s) for s in range(rules.players)]
        game = Game(
            rules,
            seed=options.seed,
            dealer=DEALERS[options.dealer],
            names=names,
            seats=seats([PERSON if spec.kind == "human" else spec.level for spec in specs], seeds),
        )
        seated = [
            StoredSeat(
                seat=s,
                kind=spec.kind,
                level=spec.level,
                name=names[s],
                token_hash=token_hash if s == HUMAN else None,
                code=new_code() if spec.kind == "human" and s != HUMAN else None,
                taken=spec.kind == "computer" or s == HUMAN,
            )
            for s, spec in enumerate(specs)
        ]
        live = cls(game_id, options, Table(game, seat_players(game, players)), seated, players)
        live.table.run()
        return live

    @classmethod
    def restore(
        cls, stored: StoredGame, seated: Sequence[StoredSeat], players: Players = make_player
    ) -> LiveGame:
        """A stored game, rebuilt from its record (replayed once, its computers with it).  A
        game stored without seat rows is one person at seat 0 against computers."""
        options = Options.from_json(stored.options)
        table = replayed(stored.record, options, players)
        if not seated:
            seated = first_seats(stored.token_hash, table, options.level)
        live = cls(stored.id, options, table, seated, players)
        if stored.rematch_of is not None:
            live.arrival = stored.created.timestamp() + ARRIVAL_SECONDS
        return live

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def version(self) -> int:
        """The number of actions in the record: it changes with every step of the game."""
        return len(self.table.game.actions)

    @property
    def over(self) -> bool:
        return self.table.over

    @property
    def between_people(self) -> bool:
        """Whether the table is between people: two seats or more kept for people (taken or
        not).  Only there is chat, the table's history sent to a socket, and the page's table
        of people (``STATE``'s ``people``)."""
        return sum(1 for seat in self.seats if seat.kind == "human") >= 2

    @property
    def waiting(self) -> list[int]:
        """The people's seats nobody has taken yet: the game waits for them."""
        return [seat.seat for seat in self.seats if not seat.taken]

    def seat_of(self, token_hash: str) -> int | None:
        """The seat whose token, or one of whose extra keys (its account opened it in another
        browser: :attr:`StoredSeat.keys`), has this hash, or None."""
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, token_hash):
                found = seat.seat
            for key in seat.keys:
                if hmac.compare_digest(key, token_hash):
                    found = seat.seat
        return found

    def invites(self) -> list[SeatInvite]:
        """The open seats' invitations: ``{"seat", "code", "url"}``."""
        return [
            {"seat": seat.seat, "code": seat.code, "url": f"/join/{seat.code}"}
            for seat in self.seats
            if not seat.taken and seat.code is not None
        ]

    def act(self, action: Action) -> None:
        """Apply a person's action, then the computers' until a person must act again.

        Raises:
            CribbageError: the action is not the waiting person's, or the engine refuses it;
                nothing changed.
        """
        self.table.act(action)  # it drops the players' memos, which the memory estimate leaves out

    def to_json(self, seat: int = HUMAN, connected: Collection[int] = ()) -> State:
        """The ``STATE`` that ``seat`` may see; ``connected`` are the people's seats with a live
        socket open now (:attr:`GameService.presence`): its :meth:`public_json` and
        :meth:`private_json`, :func:`~.state.merged`."""
        view = self.table.state.view(seat)
        return merged(self.public_json(connected, view), self.private_json(seat, view))

    def watch_json(self, connected: Collection[int] = ()) -> State:
        """The ``STATE`` a spectator may see: only what every seat sees, the public part with the
        spectator's own (:meth:`spectator_json`)."""
        return merged(self.public_json(connected), self.spectator_json())

    def public_json(self, connected: Collection[int] = (), view: SeatView | None = None) -> dict[str, Any]:
        """The public part of the ``STATE``: what every seat and every spectator is shown alike
        at this version (no key of :meth:`private_json` but those of :data:`~.state.PRIVATE`, whose
        fields there are a spectator's: the view has no seat, hand, kept cards nor discards, the
        options no seed).  ``view`` is any seat's (by default seat 0's): only its own fields
        differ from another seat's, and they are left out."""
        table = self.table
        state = table.state
        shown = public_view(state.view(HUMAN) if view is None else view)
        result = state.result
        names = [s.name for s in self.seats]
        options = self.options_json()
        options.update(names=names, seed=None)
        return {
            "id": self.id,
            "version": self.version,
            "names": names,
            "options": options,
            "view": shown,
            "score_history": table.tally.history_json(),
            "breakdown": table.tally.by_side(),
            "over": state.is_terminal,
            "result": None if result is None else result.to_json(),
            "seats": seats_json(self.seats),
            "people": self.between_people,
            "waiting_for": self.waiting,
            "connected": sorted(s.seat for s in self.seats if s.kind == "human" and s.seat in connected),
            "arrival": self.arrival,
            "match": self.match_json(),
            "rating": self.rating,
            "rating_change": self.rating_change,
            **self.clock_json(),
        }

    def private_json(
        self, seat: int, view: SeatView | None = None, events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The part of the ``STATE`` that is ``seat``'s own: its seat, its view's own fields
        (:data:`~.state.PRIVATE_VIEW`: its hand, kept cards and discards), the options' seed, its
        actions (as templates), the public events since its own previous action (``events``,
        when the caller made them already), its invitations and the rematch.  ``view`` is the
        seat's, when the caller has it."""
        table = self.table
        view = table.state.view(seat) if view is None else view
        # The seat to act's; while a count awaits the muggins decision also every other opponent's
        # entitled to it, who may call first, and in the discard every seat's still to discard
        # (the view says which seats may act now).
        legal = view.legal if not self.waiting and table.waiting_for is not None else ()
        return {
            "seat": seat,
            "view": own_view(view),
            "options": {"seed": self.options.seed},
            "actions": templates(legal),  # what the seat may send, as a few templates
            "events": [step.to_json() for step in table.recent_for(seat)] if events is None else events,
            # The creator's; every person's while the creator's seat is open (its creator left).
            "invites": self.invites() if seat == HUMAN or not self.seats[HUMAN].taken else [],
            "rematch": self.rematch,
        }

    def spectator_json(self, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """A spectator's own part of the ``STATE``: no seat (the view's own fields empty), no
        seed, no actions nor invitations, the public events since a person last acted.
        ``rematch`` is null (the new game's id is the seats'); once the people played again,
        ``rematch_watch`` is the new game's watch code instead."""
        return {
            "seat": None,
            "spectator": True,
            "view": unseen(),
            "options": {"seed": None},
            "actions": [],
            "events": [step.to_json() for step in self.table.recent] if events is None else events,
            "invites": [],
            "rematch": None,
            "rematch_watch": self.rematch_watch,
        }

    def fanout_json(
        self, seats: Collection[int], connected: Collection[int] = (), spectators: bool = False
    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]], dict[str, Any] | None]:
        """What a change shows at once: the public part, the private part of each of ``seats``
        and, with ``spectators``, the spectators' (else None).  The events are made once: each
        seat's are the last of the table's kept steps (:meth:`Table.recent_for`)."""
        table = self.table
        lists = {seat: table.recent_for(seat) for seat in seats}
        if spectators:
            lists[-1] = table.recent
        longest = max(lists.values(), key=len, default=[])
        of, kept = self._steps_json
        if of is not table:
            kept = {}
        made = [kept.get(step.index) or step.to_json() for step in longest]
        self._steps_json = (table, {step.index: data for step, data in zip(longest, made, strict=True)})
        events = {who: made[len(made) - len(steps) :] for who, steps in lists.items()}
        views = {seat: table.state.view(seat) for seat in seats}
        public = self.public_json(connected, next(iter(views.values()), None))
        private = {seat: self.private_json(seat, views[seat], events[seat]) for seat in seats}
        spectator = self.spectator_json(events[-1]) if spectators else None
        return public, private, spectator

    def options_json(self) -> dict[str, Any]:
        """:meth:`Options.to_json`, made once (the options never change): a new top-level dict
        each time, whose values are shared and never changed."""
        if self._options_json is None:
            self._options_json = self.options.to_json(self.table.rules)
        return dict(self._options_json)

    def match_json(self) -> dict[str, Any] | None:
        """The match of "Play now" this game is part of, its score counting this game once it is
        over (:meth:`Series.view`), or None: a game on its own."""
        series = self.options.match
        if series is None:
            return None
        return series.view(self.table.rules, self.table.state.result, self.absent_seats())

    def absent_seats(self) -> frozenset[int]:
        """The seats whose person is not playing them: a computer's (one took the seat over), an
        open one, or away (their turn clock ran out and they have not acted since).  A game
        finished with such a seat is its side's loss, in the rating as in a match."""
        return frozenset(
            seat.seat
            for seat in self.seats
            if seat.kind != "human" or not seat.taken or seat.seat in self.away
        )

    def clock_json(self) -> ClockShown:
        """``turn_clock`` (whose turn runs out when) and ``away``, as every seat sees them."""
        seat, deadline = self.table.waiting_for, self.deadline
        running: RunningClock | None = None
        if deadline is not None and seat is not None and not self.waiting:
            running = {"seat": seat, "deadline": deadline}
        return {"turn_clock": running, "away": sorted(self.away)}
