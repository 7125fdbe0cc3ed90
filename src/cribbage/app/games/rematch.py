"""Play again: the next game of a finished one, with the same people in the same seats."""

from __future__ import annotations

import secrets
from dataclasses import asdict, replace
from datetime import UTC, datetime

from ...engine.dealing import next_dealer
from ...engine.record import Game
from ...storage import Conflict, StoredGame
from ...table.seating import HUMAN, seat_seed
from ...table.table import PERSON, Table, seats
from ..errors import AppError
from .clocks import Clocks
from .live_game import LiveGame
from .options import ARRIVAL_SECONDS, hash_token, new_code
from .replay import seat_players
from .repository import Repository
from .results import Rematched
from .round import ConnectedSeats

__all__ = ["Rematches"]


class Rematches:
    """The rematches of finished games."""

    def __init__(self, repository: Repository, clocks: Clocks, presence: ConnectedSeats) -> None:
        self.repository = repository
        self.storage = repository.storage
        self.clocks = clocks
        self.presence = presence
        self.players = repository.players

    def rematch(self, game_id: str, token: str | None) -> tuple[Rematched, bool]:
        """Play again: once the game is over, a new game with the same people in the same seats
        (their tokens now act in it too), the same computers and options, its first dealer as
        the rules say for a match's next game (``Rules.next_dealer``: the loser, a new cut, or
        the seat after the last first dealer).  One rematch per game: whoever asks first makes
        it, every later call (any seat, any process) gets the same game.

        Returns ``{"id", "seat", "state"}`` (the new game, the token's seat and its ``STATE``)
        and whether this call stored the new game.

        Raises:
            AppError: ``unauthorized`` without a right token, ``not_over`` before the game is over.
        """
        with self.repository.seated(game_id, token) as (live, seat):
            if not live.over:
                raise AppError("not_over", "play again once the game is over")
            created = False
            found = live.rematch
            if found is None:
                found, created = self.new_rematch(live)
            live.rematch = found
        connected = self.presence(found)
        with self.repository.seated(found, token) as (again, seat):
            return {"id": found, "seat": seat, "state": again.to_json(seat, connected)}, created

    def next_in_match(self, game_id: str) -> str | None:
        """Once a game of a match of "Play now" is over and the match is not, its next game
        (:meth:`new_rematch`: the same seats and tokens, the loser dealing first as the rules
        say): its id if this call stored it, else None (not a match's game, not over, the match
        over, or the next game made already, here or by another process)."""
        with self.repository.held(game_id) as live:
            series = live.options.match
            if not live.over or series is None or live.rematch is not None:
                return None
            result = live.game.state.result
            if series.next(live.table.rules, result, live.absent_seats()) is None or not _all_there(live):
                return None
            found, created = self.new_rematch(live)
            live.rematch = found
        return found if created else None

    def new_rematch(self, old: LiveGame) -> tuple[str, bool]:
        """Store the rematch of a finished game (its lock held) and return its id and True, or
        another process's id and False if it stored one first."""
        rules = old.table.rules
        dealer = next_dealer(old.game.state)  # as a match's next game: the loser, a cut, or the next seat
        seed = None if old.options.seed is None else (old.options.seed + 1) % 2**63
        series = old.options.match  # a match's next game, or a game on its own once it is over
        if series is not None and not _all_there(old):
            series = None  # someone left the match: it ends unfinished
        series = None if series is None else series.next(rules, old.game.state.result, old.absent_seats())
        names = tuple(s.name for s in old.seats)
        options = replace(old.options, seed=seed, public=False, names=names, match=series)
        seeds = [None if seed is None else seat_seed(seed, s) for s in range(rules.players)]
        levels = [PERSON if s.kind == "human" else s.level for s in old.seats]
        game = Game(rules, seed=seed, dealer=dealer, names=options.names, seats=seats(levels, seeds))
        seated = [replace(s, code=None if s.taken else new_code()) for s in old.seats]
        table = Table(game, seat_players(game, self.players))
        again = LiveGame(secrets.token_urlsafe(24), options, table, seated, self.players)
        made = self.clocks.now()
        again.arrival = made + ARRIVAL_SECONDS  # its people come from the game before
        again.table.run()
        creator = seated[HUMAN].token_hash or hash_token(secrets.token_urlsafe(32))
        try:
            self.storage.games.insert(
                StoredGame(
                    id=again.id,
                    token_hash=creator,
                    options={**asdict(options), "names": list(options.names)},
                    record=again.game.to_json(),
                    version=again.version,
                    over=again.over,
                    created=datetime.fromtimestamp(made, UTC),  # the arrival of every process's copy
                ),
                seated,
                rematch_of=old.id,
            )
        except Conflict:
            found = self.storage.games.rematch(old.id)
            if found is None:
                raise
            return found, False
        if not again.waiting:
            self.clocks.start(again)
        self.repository.remember(again)
        return again.id, True


def _all_there(live: LiveGame) -> bool:
    """Whether every seat is still its person's: a match goes on only while nobody has left it
    (a seat left open, or given to a computer, ends it)."""
    return all(seat.kind == "human" and seat.taken for seat in live.seats)
