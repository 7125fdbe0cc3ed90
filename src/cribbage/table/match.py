"""Bot matches: many games between two players, in seat-rotated sets that share their cards.

:func:`play_game` plays one game with the engine and tallies where the points came from;
:func:`run_match` plays a match of many games, on several processes if asked, and returns a
:class:`MatchResult` whose numbers do not depend on the number of processes.

Seats: player ``a`` takes seat 0 (and seat 2 in partnerships), player ``b`` every other seat.
To cut luck, games come in *sets* that share one chance seed (the same cut for deal, the same
deals, the same starters) while the players change seats:

* two players, or partnerships: a set is two games; in the second ``a`` takes the seat(s) that
  ``b`` had, so each player receives exactly the cards the other received;
* three (or four separate) players: a set is one game per seat, ``a`` moving one seat on each
  time, so ``a`` receives every seat's cards once.

The match is rounded up to whole sets.  Player ``a`` wins a game when its side wins; in three
player games ``b`` wins when either of its seats does.

Games between the greedy levels (``weak``, ``normal``) of two players with automatic counting
are played by :mod:`cribbage.table.playout`, which plays exactly the engine's game several times
faster; every other game is played by :func:`play_game`.

>>> from cribbage.engine.rules import get_rules
>>> result = run_match("random", "random", games=4, seed=1, jobs=1, rules=get_rules())
>>> result.games, result.a_wins + result.b_wins
(4, 4)
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any, Final

from ..engine.errors import CribbageError
from ..engine.events import SOURCES
from ..engine.record import Game
from ..engine.rules import Rules
from ..players import PLAYERS, Player, make_player
from ..players.external import DEFAULT_TIMEOUT, EXEC_PREFIX, ExternalPlayer, check_command
from .playout import play_greedy_game, supports
from .table import GameStats, Table

__all__ = [
    "SOURCES",
    "GameStats",
    "MatchError",
    "MatchInterrupted",
    "MatchResult",
    "check_player",
    "play_game",
    "run_match",
    "seat_roles",
    "set_size",
    "wilson_interval",
]

Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

ProgressCallback = Callable[[int, int], None]
"""Called with (games done, games in the match) at the start and after every game."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_match`; ``result`` holds the whole sets played until then."""

    def __init__(self, result: MatchResult, planned: int) -> None:
        super().__init__(f"interrupted after {result.games} of {planned} games")
        self.result = result
        self.planned = planned


# --------------------------------------------------------------------------- one game


def play_game(
    rules: Rules, players: Sequence[Player], seed: int, first_dealer: int | None = None
) -> tuple[Game, GameStats]:
    """Play one game at a :class:`~cribbage.table.table.Table`; players are asked only when they
    have a choice.

    Chance outcomes come from ``random.Random(seed)`` alone, so the same seed deals the same
    cards whatever the players do.  Players may have optional hooks: ``start()`` before the
    game and ``stop()`` after it.  A player that raises
    :class:`~cribbage.players.external.BotError` loses the game on the spot.  Shows are counted
    without listing their combinations (``explain=False``), which is faster.

    Args:
        rules: the variant.
        players: one player per seat.
        seed: seeds the chance generator (cut for deal, deals, starters).
        first_dealer: the first dealer's seat, or None to cut for deal.

    Returns:
        The game (its record and final state) and its :class:`GameStats`.
    """
    table = Table(Game(rules, seed=seed, dealer=first_dealer, explain=False), players)
    table.start()
    try:
        table.run()
    finally:
        table.stop()
    return table.game, table.stats(seed)


# --------------------------------------------------------------------------- seats and seeds


def record_name(number: int) -> str:
    """The file name of the record of the match's game ``number`` (from 0), in play order."""
    return f"game-{number + 1:05d}.json"


def set_size(rules: Rules) -> int:
    """Games in one set of seat rotations: 2 for two players or partnerships, else one per seat."""
    return 2 if rules.partnerships else rules.players


def seat_roles(rules: Rules, rotation: int) -> tuple[str, ...]:
    """Which player, ``"a"`` or ``"b"``, takes each seat in game ``rotation`` of a set.

    >>> from cribbage.engine.rules import get_rules
    >>> seat_roles(get_rules(), 1), seat_roles(get_rules("four-player"), 0)
    (('b', 'a'), ('a', 'b', 'a', 'b'))
    >>> [seat_roles(get_rules("three-player"), r) for r in range(3)]
    [('a', 'b', 'b'), ('b', 'a', 'b'), ('b', 'b', 'a')]
    """
    if rules.partnerships:
        return tuple("a" if seat % 2 == rotation % 2 else "b" for seat in range(rules.players))
    return tuple("a" if seat == rotation % rules.players else "b" for seat in range(rules.players))


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from the parts, the same on every machine and Python version.

    >>> derive_seed(1, 0) == derive_seed(1, 0) != derive_seed(1, 1)
    True
    """
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# --------------------------------------------------------------------------- players


def check_player(name: str) -> None:
    """Check a player name: one of :data:`~cribbage.players.PLAYERS` or ``exec:COMMAND``.

    Raises:
        CribbageError: naming the unknown player or the program that cannot be run.
    """
    if name.startswith(EXEC_PREFIX):
        check_command(name[len(EXEC_PREFIX) :])
        return
    if name not in PLAYERS:
        known = ", ".join(sorted(PLAYERS))
        raise CribbageError(f'unknown player {name!r} (known: {known}, or exec:"COMMAND")')


@dataclass
class _Worker:
    """Plays the match's games; one lives in each process and keeps the external bots running."""

    a: str
    b: str
    rules: Rules
    seed: int
    timeout: float
    playout: bool = True
    records: Path | None = None
    bots: dict[tuple[str, int], ExternalPlayer] = field(default_factory=dict)

    def player(self, role: str, seat: int, seed: int) -> Player:
        name = self.a if role == "a" else self.b
        if not name.startswith(EXEC_PREFIX):
            return make_player(name, seed)
        bot = self.bots.get((role, seat))
        if bot is None:
            bot = ExternalPlayer(name[len(EXEC_PREFIX) :], timeout=self.timeout, name=name)
            self.bots[(role, seat)] = bot
        return bot

    def play(self, task: tuple[int, int]) -> GameStats:
        """Game ``rotation`` of set ``index`` (``task`` is the pair)."""
        index, rotation = task
        roles = seat_roles(self.rules, rotation)
        players = [
            self.player(role, seat, derive_seed(self.seed, index, rotation, seat))
            for seat, role in enumerate(roles)
        ]
        chance_seed = derive_seed(self.seed, index)  # shared by the games of a set
        if self.records is None and self.playout and supports(self.rules, players):
            return play_greedy_game(self.rules, players, chance_seed)  # the same game, faster
        game, stats = play_game(self.rules, players, chance_seed)
        if self.records is not None:
            game.names = tuple(f"{self.a if role == 'a' else self.b} ({role})" for role in roles)
            game.save(self.records / record_name(index * set_size(self.rules) + rotation))
        return stats

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots.clear()


_WORKER: _Worker | None = None


def _init_worker(worker: _Worker) -> None:
    global _WORKER
    # Ctrl-C reaches every process of the terminal's process group: the parent stops the
    # match and ends the workers, which must not die of it on their own (with a traceback each).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = worker
    Finalize(worker, worker.close, exitpriority=10)


def _play(task: tuple[int, int]) -> GameStats:
    assert _WORKER is not None
    return _WORKER.play(task)


# --------------------------------------------------------------------------- results


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class MatchError:
    """A game lost by a failing player: which game, which player and seat, and why."""

    game: int
    player: str
    seat: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "player": self.player, "seat": self.seat, "message": self.message}


@dataclass
class _RoleTally:
    wins: int = 0
    skunks: int = 0
    double_skunks: int = 0
    forfeits: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    first_dealer: list[int] = field(default_factory=lambda: [0, 0, 0])  # games, wins, points
    not_first_dealer: list[int] = field(default_factory=lambda: [0, 0, 0])


def _rate(part: int, whole: int, digits: int = 4) -> float:
    return round(part / whole, digits) if whole else 0.0


@dataclass
class MatchResult:
    """The outcome of :func:`run_match`; :meth:`to_json` is what ``cribbage match --json`` prints."""

    a: str
    b: str
    rules: Rules
    seed: int
    jobs: int = 1
    games: int = 0
    hands: int = 0
    seconds: float = 0.0
    errors: list[MatchError] = field(default_factory=list)
    tally: dict[str, _RoleTally] = field(default_factory=lambda: {"a": _RoleTally(), "b": _RoleTally()})

    def add(self, stats: GameStats, rotation: int) -> MatchError | None:
        """Count one game played with the seats of ``rotation``; returns its error, if any."""
        rules = self.rules
        roles = seat_roles(rules, rotation)
        self.games += 1
        self.hands += stats.hands
        if stats.forfeit is not None:
            winner = "b" if roles[stats.forfeit] == "a" else "a"
        else:
            winner = roles[stats.winner]  # side numbers are seat numbers of the side's first seat
        dealer_role = roles[stats.first_dealer]
        for role in ("a", "b"):
            tally = self.tally[role]
            seats = [s for s, r in enumerate(roles) if r == role]
            total = 0
            for seat in seats:
                for i, p in enumerate(stats.points[seat]):
                    tally.points[i] += p
                    total += p
            won = winner == role
            by_seat = tally.first_dealer if dealer_role == role else tally.not_first_dealer
            by_seat[0] += 1
            by_seat[1] += won
            by_seat[2] += total
            if won:
                tally.wins += 1
                tally.skunks += stats.skunk >= 1
                tally.double_skunks += stats.skunk >= 2
        if stats.forfeit is None:
            return None
        error = MatchError(self.games - 1, roles[stats.forfeit], stats.forfeit, stats.error)
        self.tally[error.player].forfeits += 1
        self.errors.append(error)
        return error

    def sides(self, role: str) -> int:
        """How many separate scores ``role`` keeps in one game (2 for ``b`` with three players)."""
        seats = [s for s, r in enumerate(seat_roles(self.rules, 0)) if r == role]
        return len({self.rules.side_of(s) for s in seats})

    @property
    def a_wins(self) -> int:
        return self.tally["a"].wins

    @property
    def b_wins(self) -> int:
        return self.tally["b"].wins

    @property
    def a_win_rate(self) -> float:
        return self.a_wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.a_wins, self.games)

    def points_per_game(self, role: str) -> float:
        """Points of one side of ``role`` per game."""
        return sum(self.tally[role].points) / (self.games * self.sides(role)) if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        data: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "variant": self.rules.name,
            "seed": self.seed,
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "a_win_rate": _rate(self.a_wins, self.games),
            "ci95": [round(lo, 4), round(hi, 4)],
            "a_points_per_game": round(self.points_per_game("a"), 3),
            "b_points_per_game": round(self.points_per_game("b"), 3),
        }
        for role in ("a", "b"):
            tally = self.tally[role]
            per = self.games * self.sides(role)
            data[f"{role}_points"] = {
                s: round(tally.points[i] / per, 3) if per else 0.0 for i, s in enumerate(SOURCES)
            }
        data["skunks"] = {"a": self.tally["a"].skunks, "b": self.tally["b"].skunks}
        data["double_skunks"] = {"a": self.tally["a"].double_skunks, "b": self.tally["b"].double_skunks}
        data["by_seat"] = {
            role: {
                name: {
                    "games": games,
                    "wins": wins,
                    "win_rate": _rate(wins, games),
                    "points_per_game": round(points / (games * self.sides(role)), 3) if games else 0.0,
                }
                for name, (games, wins, points) in (
                    ("first_dealer", self.tally[role].first_dealer),
                    ("not_first_dealer", self.tally[role].not_first_dealer),
                )
            }
            for role in ("a", "b")
        }
        data["hands_per_game"] = round(self.hands / self.games, 3) if self.games else 0.0
        data["forfeits"] = {"a": self.tally["a"].forfeits, "b": self.tally["b"].forfeits}
        data["errors"] = [e.to_json() for e in self.errors]
        data["jobs"] = self.jobs
        data["seconds"] = round(self.seconds, 3)
        data["games_per_second"] = self.games_per_second
        return data

    @property
    def games_per_second(self) -> float:
        """Games per second, to 0.1 (to two significant digits below 1 game a second).

        >>> from cribbage.engine.rules import get_rules
        >>> slow = MatchResult("a", "b", get_rules(), seed=1, games=20, seconds=70.0)
        >>> slow.games_per_second, MatchResult("a", "b", get_rules(), 1, games=9, seconds=2).games_per_second
        (0.29, 4.5)
        """
        if not self.seconds:
            return 0.0
        rate = self.games / self.seconds
        return round(rate, 1) if rate >= 1 else float(f"{rate:.2g}")


# --------------------------------------------------------------------------- the match


def run_match(
    a: str,
    b: str,
    games: int,
    seed: int,
    jobs: int,
    rules: Rules,
    progress: ProgressCallback | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    on_error: Callable[[MatchError], None] | None = None,
    playout: bool = True,
    records: Path | None = None,
) -> MatchResult:
    """Play ``a`` against ``b`` for ``games`` games (rounded up to whole sets).

    Args:
        a, b: player names from :data:`~cribbage.players.PLAYERS`, or ``exec:COMMAND``.
        games: games wanted; the match plays whole sets (see the module's docstring).
        seed: the match's seed; every game's chance and player seeds are derived from it.
        jobs: processes; the result is the same for any number.
        rules: the variant.
        progress: called with (games done, games in the match) at the start and after every
            game.
        timeout: seconds an external bot may take for one answer.
        on_error: called with each game lost by a failing player, in game order.
        playout: play the games :mod:`cribbage.table.playout` supports (two ``weak`` or ``normal``
            players, automatic counting) with it; False plays every game with the engine.  The
            results are the same either way: only the speed differs.
        records: a folder where each game's record is saved as it ends (``game-00001.json``...,
            in play order; reviewable with ``cribbage review``), or None.

    Raises:
        CribbageError: for an unknown player or bad arguments.
        MatchInterrupted: on Ctrl-C (a :class:`KeyboardInterrupt` with the whole sets played).
    """
    _check_arguments(a, b, games, jobs)
    size = set_size(rules)
    sets = -(-games // size)
    total = sets * size
    result = MatchResult(a, b, rules, seed, jobs=jobs)
    worker = _Worker(a, b, rules, seed, timeout, playout, records)
    tasks = ((index, rotation) for index in range(sets) for rotation in range(size))
    start = time.perf_counter()
    record = _set_recorder(result, size, total, progress, on_error)
    if progress is not None:
        progress(0, total)
    try:
        _play_tasks(worker, tasks, jobs if sets > 1 else 1, total, record)
    except KeyboardInterrupt:
        result.seconds = time.perf_counter() - start
        raise MatchInterrupted(result, total) from None
    result.seconds = time.perf_counter() - start
    return result


def _check_arguments(a: str, b: str, games: int, jobs: int) -> None:
    for name in (a, b):
        check_player(name)
    if games < 1:
        raise CribbageError(f"games must be at least 1, not {games}")
    if jobs < 1:
        raise CribbageError(f"jobs must be at least 1, not {jobs}")


def _set_recorder(
    result: MatchResult,
    size: int,
    total: int,
    progress: ProgressCallback | None,
    on_error: Callable[[MatchError], None] | None,
) -> Callable[[GameStats], None]:
    """What takes each game as it ends: the games of a set are counted together once the set is
    whole, so that a stopped match is fair."""
    done: list[GameStats] = []  # the games of the set in progress

    def record(stats: GameStats) -> None:
        done.append(stats)
        if progress is not None:
            progress(result.games + len(done), total)
        if len(done) == size:  # a whole set: counted together, so that a stopped match is fair
            for rotation, game in enumerate(done):
                error = result.add(game, rotation)
                if error is not None and on_error is not None:
                    on_error(error)
            done.clear()

    return record


def _play_tasks(
    worker: _Worker,
    tasks: Iterator[tuple[int, int]],
    jobs: int,
    total: int,
    record: Callable[[GameStats], None],
) -> None:
    """Play every game (``tasks``: set index and rotation), in this process or in ``jobs``
    processes, and ``record`` each in game order."""
    if jobs == 1:
        try:
            for task in tasks:
                record(worker.play(task))
        finally:
            worker.close()
        return
    chunk = max(1, min(32, total // (jobs * 16)))  # small: progress comes often
    with multiprocessing.get_context().Pool(jobs, _init_worker, (worker,)) as pool:
        # On Ctrl-C, leaving the block terminates the workers (they ignore the signal).
        for stats in pool.imap(_play, tasks, chunksize=chunk):
            record(stats)
        pool.close()
        pool.join()
