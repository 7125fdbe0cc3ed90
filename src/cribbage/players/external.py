"""External bots: any program that speaks the JSON-lines protocol of ``docs/protocol.md``.

For each decision the game writes one line to the bot's standard input::

    {"type": "play", "view": {...}, "legal": [{"play": "7C"}, {"play": "KD"}]}

and reads one line back from its standard output: one of the ``legal`` objects, such as
``{"play": "7C"}``.  The bot is only asked when it has a real choice.  A bot that answers late,
exits, or answers something that is not legal raises :class:`BotError`; the match loop
(:func:`cribbage.table.match.play_game`) then scores the game as lost by that bot and the process is
started again for the next game.

>>> player = ExternalPlayer('python -c "print(1)"')
>>> player.name
'exec:python -c "print(1)"'
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Any, Final

from ..engine.actions import Action, Count, Discard, Muggins, Pass, Play
from ..engine.cards import Card, format_cards, parse_cards
from ..engine.errors import CribbageError
from ..engine.view import SeatView

__all__ = ["DEFAULT_TIMEOUT", "EXEC_PREFIX", "BotError", "ExternalPlayer", "build_request", "parse_answer"]

EXEC_PREFIX: Final = "exec:"
"""Player names that start with this run a program: ``exec:python examples/bot.py``."""

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds a bot may take to answer one request."""

MAX_LINE: Final = 1 << 20
"""The longest answer line accepted (bytes)."""

_QUOTE_LIMIT: Final = 120


class BotError(CribbageError):
    """An external bot failed: it answered late, exited, or sent something that is not legal."""


def _quote(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.strip()
    if len(text) > _QUOTE_LIMIT:
        text = text[:_QUOTE_LIMIT] + "..."
    return repr(text)


# --------------------------------------------------------------------------- requests


def _request_type(action: Action) -> str:
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, Play):
        return "play"
    if isinstance(action, Count):
        return "count"
    if isinstance(action, (Muggins, Pass)):
        return "muggins"
    raise CribbageError(f"no request for a {type(action).__name__} action")


def _answer_json(action: Action) -> dict[str, Any]:
    """The answer line that selects ``action``: what the ``legal`` list of a request holds."""
    if isinstance(action, Discard):
        return {"discard": [str(c) for c in action.cards]}
    if isinstance(action, Play):
        if action.claim is None:
            return {"play": str(action.card)}
        return {"play": str(action.card), "claim": action.claim}
    if isinstance(action, Count):
        return {"count": action.points}
    if isinstance(action, Muggins):
        return {"muggins": action.points}
    if isinstance(action, Pass):
        return {"pass": True}
    raise CribbageError(f"no answer for a {type(action).__name__} action")


def _counting(view: SeatView) -> dict[str, Any] | None:
    """The hand or crib this seat is asked to count now (manual counting), if it can see it."""
    if view.dealer is None:
        return None
    order = view.rules.show_order(view.dealer)
    step = len(view.shown)
    if step >= len(order):
        return None
    seat, what = order[step]
    cards = view.kept if what == "hand" else view.crib
    return {"seat": seat, "what": what, "cards": [str(c) for c in cards]}


def _last_count(view: SeatView) -> dict[str, Any] | None:
    """The stated count a muggins decision is about: who counted what, the cards, the claim."""
    if view.claim is None:
        return None
    seat, what, claim = view.claim
    if what == "play":
        return {"phase": "play", "seat": seat, "cards": [str(view.sequence[-1])], "claim": claim}
    cards = view.shown[-1][2]
    return {"phase": "show", "seat": seat, "what": what, "cards": [str(c) for c in cards], "claim": claim}


def build_request(view: SeatView) -> dict[str, Any]:
    """The request line for a decision: ``{"type", "view", "legal"}`` (see docs/protocol.md)."""
    if not view.legal:
        raise CribbageError(f"seat {view.seat} has no decision to make")
    kind = _request_type(view.legal[0])
    data = view.to_json()  # with "rules": every option and the facts that follow from them
    if kind == "count":
        data["counting"] = _counting(view)
    elif kind == "muggins":
        data["last_count"] = _last_count(view)
    return {"type": kind, "view": data, "legal": [_answer_json(a) for a in view.legal]}


# --------------------------------------------------------------------------- answers


def _int_field(answer: dict[str, Any], key: str) -> int:
    value = answer.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BotError(f"{key!r} must be an integer, not {value!r}")
    return value


def _card_field(answer: dict[str, Any], key: str) -> Card:
    value = answer.get(key)
    if not isinstance(value, str):
        raise BotError(f"{key!r} must be a card like '7C', not {value!r}")
    try:
        return Card.parse(value)
    except CribbageError as exc:
        raise BotError(str(exc)) from None


def parse_answer(line: bytes | str, view: SeatView) -> Action:
    """The action an answer line selects, checked against ``view.legal``.

    Cards may be written in any case and a discard in any order.

    Raises:
        BotError: naming what is wrong (not JSON, wrong field, illegal choice).

    >>> from cribbage.engine.actions import Deal
    >>> from cribbage.engine.rules import get_rules
    >>> from cribbage.engine.state import GameState
    >>> state = GameState(get_rules(), dealer=0)
    >>> _ = state.apply(Deal((parse_cards("AC 2C 3C 4C 5C 6C"), parse_cards("AD 2D 3D 4D 5D 6D"))))
    >>> parse_answer('{"discard": ["6d", "5D"]}', state.view(1))
    Discard(seat=1, cards=(Card.parse('5D'), Card.parse('6D')))
    """
    try:
        answer = json.loads(line)
    except ValueError:
        raise BotError(f"sent a line that is not JSON: {_quote(line)}") from None
    if not isinstance(answer, dict):
        raise BotError(f"sent {_quote(json.dumps(answer))}, not a JSON object")
    kind = _request_type(view.legal[0])
    seat = view.seat
    action: Action
    if kind == "discard":
        cards = answer.get("discard")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BotError(f'a discard is {{"discard": [cards]}}, not {_quote(json.dumps(answer))}')
        try:
            action = Discard(seat, tuple(sorted(parse_cards(cards))))
        except CribbageError as exc:
            raise BotError(f"bad discard: {exc}") from None
        what = f"discard {format_cards(action.cards)}"
    elif kind == "play":
        card = _card_field(answer, "play")
        claim = _int_field(answer, "claim") if view.rules.muggins_play else None
        action = Play(seat, card, claim)
        what = f"play {card} on a count of {view.count}"
    elif kind == "count":
        action = Count(seat, _int_field(answer, "count"))
        what = f"count of {action.points}"
    elif answer.get("pass") is True:
        action = Pass(seat)
        what = "pass"
    else:
        action = Muggins(seat, _int_field(answer, "muggins"))
        what = f"muggins call of {action.points}"
    if action not in view.legal:
        raise BotError(f"illegal {what}: {_quote(line)} (hand {format_cards(view.hand) or '-'})")
    return action


# --------------------------------------------------------------------------- the process


class ExternalPlayer:
    """A :class:`~cribbage.players.Player` that asks a program over JSON lines.

    The process is started by :meth:`start` (or the first :meth:`choose`) and kept for the next
    games; it is killed when it fails and started again by the next :meth:`start`.
    :meth:`close` ends it.  The bot's standard error is kept in a temporary file so that its
    last line can be quoted when it fails.

    Args:
        command: the program and its arguments, split like a shell would (no shell is run), or
            an argument list.
        timeout: seconds allowed for each answer.
        name: how messages name this bot (default ``exec:COMMAND``).
    """

    def __init__(
        self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT, name: str | None = None
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise CribbageError('an external player needs a command: exec:"COMMAND"')
        if timeout <= 0:
            raise CribbageError(f"the timeout must be positive, not {timeout}")
        self.timeout = timeout
        self.name = name or EXEC_PREFIX + (command if isinstance(command, str) else shlex.join(command))
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""

    # -------------------------------------------------------------- lifecycle

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Called before each game: starts the program unless it is still running.

        A program that cannot be started is reported by the next :meth:`choose`.
        """
        if not self.running:
            with contextlib.suppress(BotError):
                self._spawn()

    def stop(self) -> None:
        """Called after each game: the program is kept for the next game."""

    def close(self) -> None:
        """End the program: close its input, give it a moment to exit, then kill it."""
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1.0)
        self._kill()

    def __enter__(self) -> ExternalPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_proc", None) is not None:
            self._kill()

    def _spawn(self) -> None:
        self._kill()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the bot runs
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env
            )
        except OSError as exc:
            self._kill()
            raise BotError(f"cannot be started: {exc}") from None
        self._buffer = b""

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        self._buffer = b""

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - 2000))
        lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        return f"; its last error line: {_quote(lines[-1])}" if lines else ""

    # -------------------------------------------------------------- the protocol

    def choose(self, view: SeatView) -> Action:
        """Send the request for this decision and return the bot's legal answer.

        Raises:
            BotError: the bot did not answer in time, exited, or answered something illegal;
                the process is then killed (the next :meth:`start` starts it again).
        """
        request = build_request(view)
        try:
            if self._proc is None:  # never started, or killed: a program that exited since is a failure
                self._spawn()
            self._send(json.dumps(request, separators=(",", ":")).encode() + b"\n")
            line = self._receive()
            return parse_answer(line, view)
        except BotError as exc:
            message = f"{self.name} (seat {view.seat}) {exc}{self._stderr_tail()}"
            self._kill()
            raise BotError(message) from None

    def _send(self, data: bytes) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        if self._buffer or select.select([proc.stdout], [], [], 0)[0]:
            extra = self._buffer or os.read(proc.stdout.fileno(), MAX_LINE)
            if extra:
                raise BotError(f"wrote a line it was not asked for: {_quote(extra)}")
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except OSError:
            raise BotError(self._exit_message()) from None

    def _receive(self) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise BotError(f"did not answer within {self.timeout:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotError(self._exit_message())
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                raise BotError(f"sent a line longer than {MAX_LINE} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _exit_message(self) -> str:
        proc = self._proc
        assert proc is not None
        try:
            status = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output without answering"
        return f"exited with status {status} without answering"


def check_command(command: str) -> list[str]:
    """Split an ``exec:`` command and check that its program can be found.

    Raises:
        CribbageError: for an empty command or a program that is not found.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CribbageError(f"cannot split the command {command!r}: {exc}") from None
    if not argv:
        raise CribbageError('exec: needs a command, as in exec:"python bot.py"')
    program = argv[0]
    if shutil.which(program) is None:
        raise CribbageError(f"cannot run {program!r}: not found or not executable")
    return argv
