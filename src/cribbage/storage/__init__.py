"""Where the server keeps its games (two SQL tables) and its accounts (two more), through SQLAlchemy.

Each game is one row of ``games``: its JSON record (:meth:`cribbage.engine.record.Game.to_json`,
replayed on load), the options it was created with, the hash of the creator's token, a version
(the number of actions in the record), whether it is over, and timestamps.  The record is written
before every answer, so a server stopped at any moment, even by ``kill -9``, loses no game.

The row also says when the game was listed in the public lobby, its watch code, its seating
generation, the game it is the rematch of and its turn clock (:data:`games`).  Who sits where is
in ``seats``, one row per seat of a game: a person or a computer (with its level), the display
name, the hash of the seat's token once someone has taken it, and the seat's invitation code (a
person's seat that is open at creation).  Taking a seat is one ``UPDATE ... WHERE taken =
false``: of two joins with one code, exactly one wins.  A game without seat rows (made before
seats were stored) is one person (seat 0, the token of ``games``) against computers.

An account (``accounts``: a name, its unique key, its password's hash) has sessions
(``account_sessions``, by the hash of their token) and the seats it played (``seats.account_id``);
once it is deleted its seats are ``erased``: their name is :data:`ERASED_NAME` wherever it is read.
An account may open its own seat in another browser: the seat gets an extra key (``seat_keys``,
the SHA-256 of each), read with the seats (:attr:`StoredSeat.keys`) and accepted as its token is.

Opening a database brings its schema to the newest revision (:mod:`cribbage.storage.migrations`).

Any SQLAlchemy URL works; the default is an SQLite file in the user's data folder
(:func:`default_url`).  SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed action
survives the process being killed (only a power cut may lose the last ones), and writes take a
fraction of a millisecond.

The package's modules: :mod:`.tables` (the schema), :mod:`.rows` (the values and errors),
:mod:`.urls`, :mod:`.database` (the engines and the clock the repositories share), :mod:`.store`
(:class:`Storage`, which holds the repositories), and a repository each: :mod:`.games`
(``storage.games``: the games' rows, lobby, watch codes, rematches), :mod:`.seating`
(``storage.seats``: seats, invitations, their extra keys of :mod:`.seat_keys`, the accounts
behind them), :mod:`.clocks` (``storage.clocks``: turn clocks), :mod:`.chat` (``storage.chat``:
the chat at the tables, ``chat_messages`` and ``chat_reports``), :mod:`.accounts`
(``storage.accounts``: accounts, their sessions and the seats they played), :mod:`.passkeys`
(``storage.passkeys``: accounts' passkeys and the WebAuthn ceremonies begun), :mod:`.push`
(``storage.push``: the server's keys, Web Push opt-ins), :mod:`.ratings` (``storage.ratings``:
recording rated games, the leaderboard, profiles; with :mod:`.rating_record` and
:mod:`.rating_values`), :mod:`.rated_tables` (``storage.rated_tables``) and :mod:`.pruning`
(``storage.pruning``).

>>> store = Storage("sqlite://")
>>> store.games.insert(StoredGame("g1", "0" * 64, {"level": "weak"}, {"actions": []}, 0, False))
>>> store.games.update("g1", {"actions": [1]}, version=1, over=False, expected=0)
True
>>> store.games.update("g1", {"actions": [2]}, version=1, over=False, expected=0)  # someone else won
False
>>> store.games.load("g1").record
{'actions': [1]}
>>> store.games.insert(StoredGame("g2", "1" * 64, {}, {"actions": []}, 0, False),
...              [StoredSeat(0, "human", None, "Aiko", "1" * 64, None, True),
...               StoredSeat(1, "human", None, "Player 2", None, "K7QX2M", False)])
>>> store.seats.take("K7QX2M", "2" * 64, "Boris")
Joined(game_id='g2', seat=1, won=True)
>>> store.seats.take("K7QX2M", "3" * 64, "Chen")  # the seat is taken already
Joined(game_id='g2', seat=1, won=False)
>>> [(seat.name, seat.taken) for seat in store.seats.load("g2")]
[('Aiko', True), ('Boris', True)]
"""

from .accounts import AccountSeat, Claimed, NameTaken, StoredAccount
from .chat import ChatMessage, ChatReport
from .passkeys import Ceremony, StoredPasskey
from .push import Subscription
from .rating_values import (
    GamePlay,
    GameRating,
    PlayTotals,
    RatingRecordError,
    Rerate,
    Standing,
    StoredHistoryPoint,
    StoredRating,
)
from .rows import (
    ERASED_NAME,
    Conflict,
    Joined,
    Listed,
    Pruned,
    StorageError,
    StoredClock,
    StoredGame,
    StoredSeat,
)
from .rows import _dumps as _dumps  # the storage tests compare it with the JSON written
from .store import Storage
from .tables import account_sessions, accounts, games, metadata, seats
from .tournament_push import TournamentSubscription
from .urls import database_url, default_url, safe_url

__all__ = [
    "ERASED_NAME",
    "AccountSeat",
    "Ceremony",
    "ChatMessage",
    "ChatReport",
    "Claimed",
    "Conflict",
    "GamePlay",
    "GameRating",
    "Joined",
    "Listed",
    "NameTaken",
    "PlayTotals",
    "Pruned",
    "RatingRecordError",
    "Rerate",
    "Standing",
    "Storage",
    "StorageError",
    "StoredAccount",
    "StoredClock",
    "StoredGame",
    "StoredHistoryPoint",
    "StoredPasskey",
    "StoredRating",
    "StoredSeat",
    "Subscription",
    "TournamentSubscription",
    "account_sessions",
    "accounts",
    "database_url",
    "default_url",
    "games",
    "metadata",
    "safe_url",
    "seats",
]
