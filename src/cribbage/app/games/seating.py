"""Who sits where: a new table, joining it by invitation, leaving it, and a computer taking a
person's seat (the creator's choice, or the table's ``takeover`` level when a person leaves)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from ...engine.errors import CribbageError
from ...engine.record import SeatRecord
from ...players import PLAYERS, make_player, new_seed
from ...storage import Conflict, StoredGame
from ...table.seating import HUMAN, LEVELS, seat_seed
from ..errors import AppError
from .clocks import Clocks
from .live_game import LiveGame
from .options import (
    ARRIVAL_SECONDS,
    CODE_ALPHABET,
    CODE_LENGTH,
    CORRESPONDENCE,
    Options,
    SeatSpec,
    computer_name,
    display_name,
    given_names,
    hash_token,
    new_code,
)
from .rating_policy import RatingPolicy
from .repository import Repository
from .results import CreatedGame, JoinedSeat, LeftSeat, State
from .round import ConnectedSeats

__all__ = ["Seating"]


class Seating:
    """Creates tables and changes who sits at them."""

    def __init__(
        self,
        repository: Repository,
        clocks: Clocks,
        presence: ConnectedSeats,
        policy: RatingPolicy | None = None,
    ) -> None:
        self.repository = repository
        self.policy = policy or RatingPolicy(repository.storage)
        """Told when a person takes a seat without accepting a rated game, and before a person's
        seat is left or given to a computer (an abort before everyone acted)."""
        self.storage = repository.storage
        self.clocks = clocks
        self.presence = presence
        self.players = repository.players

    def create(
        self,
        options: Options,
        layout: Sequence[SeatSpec | dict[str, Any]] | None = None,
        *,
        accounts_names: bool = False,
    ) -> CreatedGame:
        """A new game: its id, the creator's token (seat 0), its ``STATE`` and the open seats'
        invitations (the state's ``invites``).

        ``layout`` is one :class:`SeatSpec` (or its JSON) per seat; by default seat 0 is the
        creator and every other seat a computer of ``options.level``.  The given names are
        checked by the rule of every name (``bad_name``), unless they are ``accounts_names``
        (Play now's: each checked when its account was made, under the rule of that day).
        """
        specs = (
            None
            if layout is None
            else [s if isinstance(s, SeatSpec) else SeatSpec.from_json(s) for s in layout]
        )
        if not accounts_names:
            options = replace(options, names=given_names(options.names))
        token = secrets.token_urlsafe(32)
        live = LiveGame.new(secrets.token_urlsafe(24), hash_token(token), options, specs, self.players)
        for attempt in range(5):
            try:
                self.storage.games.insert(
                    StoredGame(
                        id=live.id,
                        token_hash=hash_token(token),
                        options={**asdict(options), "names": list(options.names)},
                        record=live.game.to_json(),
                        version=live.version,
                        over=live.over,
                    ),
                    live.seats,
                    listed=options.public,
                )
                break
            except Conflict:  # an invitation code drawn twice: draw the codes again
                if attempt == 4:
                    raise
                live.set_seats(
                    [seat if seat.code is None else replace(seat, code=new_code()) for seat in live.seats]
                )
        if not live.waiting:
            self.clocks.start(live)
        self.repository.remember(live)
        state = live.to_json(HUMAN)
        return {"id": live.id, "token": token, "state": state, "invites": state["invites"]}

    def join(
        self, code: str, name: str, *, account_name: bool = False, accept_rating: bool = False
    ) -> JoinedSeat:
        """Take the open seat of an invitation ``code`` under a display ``name`` (checked by the
        rule of every name, unless it is an ``account_name``, checked when the account was made);
        at a table asking to be rated, ``accept_rating`` says the joiner (an account) accepts:
        without it the game is played unrated (:meth:`RatingPolicy.decline`).

        Returns ``{"id", "token", "seat", "state"}``: the game, the seat's own token, its
        number and its ``STATE``.

        Raises:
            AppError: ``bad_name`` for a bad name, ``no_invitation`` for an unknown code,
                ``seat_taken`` for a seat taken already.
        """
        name = name if account_name else display_name(name)
        code = code.strip().upper() if isinstance(code, str) else ""
        if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
            raise AppError("no_invitation", "no table has this invitation code")
        token = secrets.token_urlsafe(32)
        joined = self.storage.seats.take(code, hash_token(token), name)
        if joined is None:
            raise AppError("no_invitation", "no table has this invitation code")
        if not joined.won:
            raise AppError(
                "seat_taken", f"seat {joined.seat} of this table is taken already", seat=joined.seat
            )
        connected = self.presence(joined.game_id)
        with self.repository.held(joined.game_id) as live:
            if not accept_rating:
                self.policy.decline(live)
            if not live.waiting and live.deadline is None:
                self.clocks.start(live)  # the last seat taken: the first turn's clock runs
            state = live.to_json(joined.seat, connected)
        return {"id": joined.game_id, "token": token, "seat": joined.seat, "state": state}

    def leave(self, game_id: str, token: str | None) -> LeftSeat:
        """The token's person leaves the table: their token is void from now on.

        With the game's ``takeover`` level a computer of that level takes the seat at once (and
        plays it if it is its turn); without it the seat is open again, its invitation valid,
        and the table waits until someone takes it (or the creator gives it to a computer,
        :meth:`seat_computer`).  Returns ``{"seat", "computer"}``: the seat left and the level
        of the computer now in it (None: the seat is open).

        Raises:
            AppError: ``unauthorized`` without a right token, ``game_over`` once the game is
                over, ``stale`` when another request changed the table first; nothing changed.
        """
        with self.repository.seated(game_id, token) as (live, seat):
            assert token is not None
            if live.over:
                raise AppError("game_over", "the game is over: there is no table to leave")
            level = live.options.takeover
            held = live.seats[seat].token_hash
            self.policy.absent(live)  # the seat's own: the token sent may be an extra key
            if level is not None:
                self.takeover(live, seat, level, holder=held)
                return {"seat": seat, "computer": level}
            old = live.seats[seat]
            opened = replace(
                old,
                name=f"Player {seat + 1}",
                token_hash=None,
                keys=(),
                code=old.code or new_code(),
                taken=False,
            )
            generation = self.storage.games.reseat(game_id, opened, holder=held)
            if generation is None:  # nothing changed here: the next request reads the stored game
                raise AppError(
                    "stale",
                    "the table was changed by another request: read it again",
                    version=live.version,
                )
            live.set_seats([opened if s.seat == seat else s for s in live.seats])
            live.generation = generation
            if live.options.clock is not None:  # the table waits: no turn runs
                live.deadline, live.away = None, live.away - {seat}
                self.storage.clocks.set(game_id, live.version, None, live.away - {seat})
            return {"seat": seat, "computer": None}

    def seat_computer(self, game_id: str, token: str | None, seat: object, level: object) -> State:
        """The creator (seat 0) gives a person's seat to a computer of ``level``, which plays it
        from now on: an open seat, or one whose person is offline (no live socket open, see
        :attr:`presence`), whose token then acts no more; returns the creator's ``STATE``.

        Raises:
            AppError: ``unauthorized``/``forbidden`` for a token not the creator's, ``invalid``
                for a bad seat or level, ``seat_taken`` for the creator's own seat or a
                computer's, ``seat_online`` for one whose person is online, ``seat_arriving`` for
                a rematch's person who may still be on the way from the game before (within
                :data:`~.options.ARRIVAL_SECONDS` of its making), ``seat_not_away`` at
                a correspondence table for a person whose clock has not run out (they are offline
                between moves), ``game_over`` once the game is over.
        """
        connected = self.presence(game_id)
        with self.repository.seated(game_id, token) as (live, mine):
            if mine != HUMAN:
                raise AppError(
                    "forbidden",
                    f"only the table's creator (seat 0) may seat a computer, not seat {mine}",
                    seat=mine,
                )
            if not isinstance(level, str) or level not in LEVELS:
                known = ", ".join(LEVELS)
                raise AppError("invalid", f"unknown level {level!r} (known: {known})", field="level")
            if type(seat) is not int or not 0 <= seat < len(live.seats):
                raise AppError(
                    "invalid", f"no seat {seat!r} at this table of {len(live.seats)}", field="seat"
                )
            target = live.seats[seat]
            if target.kind != "human":
                raise AppError("seat_taken", f"seat {seat} is a computer's already", seat=seat)
            if seat == HUMAN:
                raise AppError("seat_taken", "seat 0 is your own: leave the table to give it up", seat=seat)
            if target.taken and seat in connected:
                raise AppError(
                    "seat_online",
                    f"seat {seat}'s person is online: only an open or offline seat goes to a computer",
                )
            if target.taken and live.arrival is not None and self.clocks.now() < live.arrival:
                raise AppError(  # a rematch's people follow from the game before: not there yet
                    "seat_arriving",
                    f"seat {seat}'s person may still be on the way from the game before: a"
                    f" rematch's seat goes to a computer only {ARRIVAL_SECONDS} s after it was made",
                    seat=seat,
                    until=live.arrival,
                )
            clock = live.options.clock
            if target.taken and clock is not None and clock >= CORRESPONDENCE and seat not in live.away:
                raise AppError(  # a correspondence game's people are offline between their moves
                    "seat_not_away",
                    f"seat {seat}'s person has time to move: at a correspondence table, a seat goes"
                    " to a computer only once its clock ran out",
                    seat=seat,
                )
            if live.over:
                raise AppError("game_over", "the game is over")
            self.policy.absent(live)
            self.takeover(live, seat, level, holder=target.token_hash if target.taken else None)
            return live.to_json(HUMAN, connected)

    def takeover(self, live: LiveGame, seat: int, level: str, holder: str | None) -> None:
        """A computer of ``level`` takes ``seat`` (its person leaving, ``holder`` their token's
        hash, or an open seat): seated at the table in progress (:meth:`Table.reseat`, no
        replay) and recorded among the record's seats with its seed, so a replay of the record
        gives the same table; it plays at once if it is its turn.  All is stored together, or
        nothing (``stale``; the changed copy is retired).

        Called with the game held (:meth:`Repository.held`).
        """
        if level not in PLAYERS:
            raise AppError(
                "computer_unavailable", f"the {level!r} computer player is not available", level=level
            )
        options = live.options
        seed = new_seed() if options.seed is None else seat_seed(options.seed, seat)
        name = computer_name(seat, len(live.seats))
        seated = [
            replace(
                s, kind="computer", level=level, name=name, token_hash=None, keys=(), code=None, taken=True
            )
            if s.seat == seat
            else s
            for s in live.seats
        ]
        before = live.version
        try:
            live.table.reseat(seat, SeatRecord(level, seed), name)
            if self.players is not make_player:  # the factory's player, not the level's own
                live.table.players[seat] = self.players(level, seed)
            live.table.run()  # as at a table's creation, computers play up to a person's turn
            generation = self.storage.games.reseat(
                live.id,
                seated[seat],
                holder=holder,
                record=live.game.to_json(),
                version=live.version,
                over=live.over,
                expected=before,
            )
        except BaseException as exc:
            self.repository.retire(live)
            if isinstance(exc, CribbageError):
                raise RuntimeError(f"a computer player failed: {exc}") from exc
            raise
        if generation is None:
            self.repository.retire(live)
            raise AppError("stale", "the table was changed by another request: read it again")
        live.set_seats(seated)
        live.generation = generation
        live.away -= {seat}
        if not live.waiting:
            self.clocks.start(live)
