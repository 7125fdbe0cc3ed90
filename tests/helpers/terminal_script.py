"""The terminal game (``cribbage play``) played in-process by scripted input: an :class:`Answerer`
as standard input answers each prompt from the engine's state, so whole games are played
whatever the cards (tests/cli's terminal tests, tests/core's review of a terminal game)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from cribbage.engine.actions import Count, Discard, Pass, Play
from cribbage.engine.scoring import score_show
from cribbage.tui.session import Terminal, TerminalGame, TerminalOptions, prepare

SEED = 5


class Answerer(io.TextIOBase):
    """Standard input that answers every prompt from the game's state.

    Lines in ``queue`` are given first (each answers one prompt); after that, each prompt gets
    the first legal move, by position in the hand as shown (sorted).  ``count`` decides what to
    state for a hand (default: its true count) and ``mug`` what to call on a computer's count
    (default: pass).  Every answer given is kept in ``script``.  With ``tty``, it passes for a
    keyboard: answers are echoed to the output, and "(more: press Enter)" gets an Enter.
    """

    def __init__(
        self,
        queue: Iterable[str] = (),
        count: Callable[[int], int] = lambda true: true,
        mug: Callable[[int, int], str] = lambda claim, true: "",
        stop_after: int | None = None,
        again: Iterable[str] = (),
        tty: bool = False,
    ) -> None:
        self.session: TerminalGame | None = None
        self.queue = list(queue)
        self.count = count
        self.mug = mug
        self.stop_after = stop_after
        self.again = list(again)
        self.tty = tty
        self.script: list[str] = []
        self.out: io.StringIO | None = None
        """The output, at a keyboard: the answers are echoed to it, as a terminal does."""
        self.screens: list[str] = []
        """With ``out``, what was shown before each answer (since the one before)."""
        self.shown = 0
        self.pauses = 0

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def echo(self, answer: str) -> str:
        if self.out is not None:
            self.screens.append(self.out.getvalue()[self.shown :])
            if self.tty:
                self.out.write(answer)
            self.shown = len(self.out.getvalue())
        return answer

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.session is not None and self.session.term.pausing:  # "(more: press Enter)"
            self.pauses += 1
            return self.echo("\n")
        return self.echo(self.answer())

    def answer(self) -> str:
        if self.stop_after is not None and len(self.script) >= self.stop_after:
            return ""
        answer = self.queue.pop(0) if self.queue else self.decide()
        self.script.append(answer)
        return answer + "\n"

    def decide(self) -> str:
        assert self.session is not None
        game = self.session.game
        state = game.state
        if state.is_terminal:  # "Another game?"
            return self.again.pop(0)
        view = state.view(0)
        hand = sorted(view.hand)
        first = view.legal[0]
        if isinstance(first, Pass):
            _, what, cards = view.shown[-1]
            last = game.actions[-1]
            assert isinstance(last, Count) and state.starter is not None
            return self.mug(last.points, score_show(cards, state.starter, crib=what == "crib").total)
        if isinstance(first, Discard):
            return " ".join(str(hand.index(c) + 1) for c in first.cards)
        if isinstance(first, Play):
            return str(hand.index(first.card) + 1)
        _, what = state.show_order()[state.show_step]
        cards = tuple(state.crib) if what == "crib" else view.kept
        assert state.starter is not None
        return str(self.count(score_show(cards, state.starter, crib=what == "crib").total))


def run_session(
    options: TerminalOptions, answerer: Answerer, size: tuple[int, int] | None = None
) -> tuple[int, str]:
    """Play a session in-process (on a screen of ``size`` columns and rows, if given); returns
    the exit status and everything shown (standard output and error, as on a terminal)."""
    out = io.StringIO()
    session = prepare(options, Terminal(answerer, out, ascii=options.ascii, size=size, stderr=out))
    answerer.session = session
    answerer.out = out
    return session.run(), out.getvalue()


def options(**changes: Any) -> TerminalOptions:
    return TerminalOptions(**{"level": "random", "seed": SEED, "target": 61, "ascii": True, **changes})
