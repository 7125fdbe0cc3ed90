"""``cribbage train discard|play``: the trainers in the terminal, one drill after another.

Each drill shows a deal (or a position of a real game), reads the throw (or the card), then shows
every choice ranked with its parts, marks the player's, and says what it gave away; a running
tally is kept over the session and printed at the end.  The drills and their judging are
:mod:`cribbage.study.drills`; this module only makes the English words and reads the answers, through
the terminal game's :class:`~cribbage.tui.session.Terminal` (so a script on standard input
works, its answers echoed).  ``quit`` (or ``q``), Ctrl-C and Ctrl-D end the session with the
tally.  Every line fits :data:`~cribbage.tui.hints.WIDTH` columns.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TextIO

from rich.text import Text

from ..ai.discard import KeepOption
from ..engine.cards import Card
from ..engine.rules import Rules
from ..study.drills import (
    BEST_MARGIN,
    SEED_LIMIT,
    DiscardAnswer,
    PlayAnswer,
    PlayPosition,
    TrainingScore,
    discard_deal,
    drill_seeds,
    judge_discard,
    judge_play,
    play_position,
)
from ..text import reasons_text, win_note
from .hints import WIDTH
from .look import Look
from .parse import InputError, pick_cards
from .session import Terminal

__all__ = ["TrainOptions", "tally_lines", "train"]

QUIT_WORDS: Final = ("q", "quit", "exit")
VALUES: Final = "Each card with the net points it is expected to bring to the end of the play:"


@dataclass(frozen=True, slots=True)
class TrainOptions:
    """The choices of ``cribbage train``."""

    drill: Literal["discard", "play"]
    rules: Rules
    seed: int | None = None
    """The session's seed (drawn from the system when ``None``): the same seed, the same drills."""
    dealer: bool | None = None
    """Discard drill: always the dealer (True), always the pone (False), or either (None)."""
    scores: tuple[int, int] | None = None
    ascii: bool = False


class _Quit(Exception):
    """The player typed quit."""


def _pct(share: float) -> str:
    return f"{share:.1%}"


def tally_lines(tally: TrainingScore) -> list[str]:
    """The tally in words: decisions, best choices and the average losses."""
    if not tally.decisions:
        return ["No drill answered."]
    share = tally.best_share or 0.0
    plural = "s" if tally.decisions != 1 else ""
    lines = [f"{tally.decisions} decision{plural}, {tally.best} best ({share:.0%})"]
    if tally.average_loss is not None:
        lines.append(
            f"average loss {tally.average_loss:.2f} points over {tally.point_decisions} ranked by points"
        )
    if tally.average_win_loss is not None:
        lines.append(
            f"average loss {_pct(tally.average_win_loss)} chance of winning over {tally.win_decisions} "
            "ranked by the chance of winning"
        )
    return lines


class Trainer:
    """A session of drills on a terminal."""

    def __init__(self, options: TrainOptions, terminal: Terminal) -> None:
        self.options = options
        self.term = terminal
        self.look: Look = terminal.look
        self.seed = options.seed if options.seed is not None else random.SystemRandom().randrange(SEED_LIMIT)
        self.seeds = drill_seeds(self.seed)
        self.tally = TrainingScore()
        self.number = 0

    def say(self, *lines: Text | str) -> None:
        self.term.say(*lines)

    def run(self) -> int:
        """Drill until the player quits or the input ends; returns the exit status (0, or 130
        after Ctrl-C)."""
        drill = self.options.drill
        self.say(
            f"{'Discard' if drill == 'discard' else 'Play'} drill, session seed {self.seed}.",
            f"The same drills again: cribbage train {drill} --seed {self.seed}",
            "Cards by name (5h 10d QS) or by position (1 2); quit, Ctrl-D or Ctrl-C to stop.",
        )
        status = 0
        try:
            while True:
                self.number += 1
                seed = self.seeds.randrange(SEED_LIMIT)
                if drill == "discard":
                    self.discard_drill(seed)
                else:
                    self.play_drill(seed)
        except (_Quit, EOFError):
            pass
        except KeyboardInterrupt:
            status = 130
        self.say(self.look.heading("Tally"), *tally_lines(self.tally))
        return status

    def ask(self, prompt: str, answer: Callable[[str], tuple[Card, ...]]) -> tuple[Card, ...]:
        """Ask until the answer is taken; a wrong one is explained and asked again."""
        while True:
            text = self.term.ask(prompt)
            if text.strip().lower() in QUIT_WORDS:
                raise _Quit
            try:
                return answer(text)
            except InputError as exc:
                self.term.error("\n".join(textwrap.wrap(str(exc), WIDTH)))

    # ------------------------------------------------------------------ the discard drill

    def discard_drill(self, seed: int) -> None:
        options = self.options
        rules = options.rules
        deal = discard_deal(seed, rules, options.dealer, options.scores)
        whose = "you deal: the crib is yours" if deal.dealer else "you are the pone: the crib is theirs"
        scores = "" if deal.scores is None else f", scores {deal.scores[0]}-{deal.scores[1]}"
        self.say(
            self.look.heading(f"Drill {self.number}: discard"),
            f"{rules.name}, {whose}{scores}",
            *self.look.hand(deal.hand),
        )
        n = rules.discard
        thrown = self.ask(f"Throw {n} to the crib: ", lambda text: pick_cards(text, deal.hand, n))
        answer = judge_discard(deal, thrown)
        self.say(*self.discard_table(answer))
        self.judged(answer)

    def discard_table(self, answer: DiscardAnswer) -> list[Text]:
        """Every keep, best first, with its parts (the player's points) and the player's marked."""
        deal = answer.deal
        rules = deal.rules
        wins = answer.ranked_by == "win"
        lines: list[Text] = []
        if rules.lowball:
            lines.append(self.look.dim("Lowball: points count against you, so the best brings the fewest."))
        if wins:
            lines.append(self.look.dim(win_note("keeps", rules.target, deal.scores)))
        keep_width = max(4, 4 * rules.hand_size - 1)
        throw_width = max(5, 4 * rules.discard - 1)
        head = f"    {'throw':<{throw_width}}  {'keep':<{keep_width}} "
        head += f"{'hand':>6} {'crib':>6} {'play':>6} {'total':>6}"
        lines.append(self.look.dim(head + ("   wins" if wins else "")))
        for rank, option in enumerate(answer.options, 1):
            crib = option.crib if deal.dealer else -option.crib
            total = option.hand + crib + option.pegging  # the player's points, in lowball too
            line = Text(f"{rank:>2}. ")
            line.append_text(_padded(self.look.cards(option.discard), throw_width))
            line.append("  ")
            line.append_text(_padded(self.look.cards(option.keep), keep_width))
            line.append(f" {option.hand:6.2f} {crib:+6.2f} {option.pegging:+6.2f} {total:6.2f}")
            if option.win is not None:
                line.append(f" {option.win:6.1%}")
            if rank - 1 == answer.chosen:
                line.append_text(self.look.styled("  < you", "bold yellow"))
            lines.append(line)
        return lines

    # ------------------------------------------------------------------ the play drill

    def play_drill(self, seed: int) -> None:
        position = play_position(seed, self.options.rules)
        self.say(self.look.heading(f"Drill {self.number}: play"), *self.position_lines(position))
        view = position.view
        legal = position.legal()

        def answer(text: str) -> tuple[Card, ...]:
            (card,) = pick_cards(text, view.hand, 1)
            if card not in legal:
                raise InputError(
                    f"The {card.name} would pass 31 (count {view.count}): play one of "
                    + ", ".join(self.look.label(c) for c in legal)
                    + "."
                )
            return (card,)

        (card,) = self.ask("Play a card: ", answer)
        result = judge_play(position, card)
        self.say(*self.play_table(result))
        self.judged(result)

    def position_lines(self, position: PlayPosition) -> list[Text]:
        """The position as the seat sees it: scores, starter, cards played, count and hand."""
        view = position.view
        rules = view.rules
        mine, theirs = view.scores[view.side], view.scores[1 - view.side]
        role = "dealer" if view.is_dealer else "pone"
        starter = self.look.card(view.starter) if view.starter is not None else Text("none")
        lines = [
            Text(f"Hand {view.hand_number}, you are the {role}; you {mine}, opponent {theirs}")
            + Text(f" (to {rules.target})"),
            Text("Starter ") + starter + Text(", your throw ") + self.look.cards(view.discards),
        ]
        played = Text("Played this hand: ")
        if view.played:
            played.append_text(
                Text(", ").join(
                    Text("you " if seat == view.seat else "they ") + self.look.card(card)
                    for seat, card in view.played
                )
            )
        else:
            played.append("nothing yet")
        lines.append(played)
        count = Text(f"Count {view.count}")
        if view.sequence:
            count.append(": ")
            count.append_text(self.look.cards(view.sequence))
        lines.append(count)
        lines.append(Text(f"The opponent holds {view.held[1 - view.seat]} card(s)."))
        lines.extend(self.look.hand(view.hand, playable=position.legal()))
        return lines

    def play_table(self, answer: PlayAnswer) -> list[Text]:
        """Every legal card, best first, with its value, reasons, and the player's marked."""
        lines: list[Text] = []
        lowball = answer.position.rules.lowball
        if answer.ranked_by == "win":
            view = answer.position.view
            lines.append(self.look.dim(win_note("cards", view.rules.target, view.scores)))
        lines.append(
            self.look.dim("Each card with the net points it is expected to bring to the end of the play:")
        )
        for rank, option in enumerate(answer.options, 1):
            value = 0.0 - option.value if lowball else option.value
            line = Text(f"{rank:>2}. ") + _padded(self.look.card(option.card), 4)
            line.append(f" {value:+6.2f}")
            if option.win is not None:
                line.append(f"  wins {option.win:6.1%}")
            if rank - 1 == answer.chosen:
                line.append_text(self.look.styled("  < you", "bold yellow"))
            reasons = reasons_text(option.reasons)
            room = WIDTH - line.cell_len - 2
            if reasons and len(reasons) <= room:
                line.append("  " + reasons)
                lines.append(line)
            else:
                lines.append(line)
                if reasons:
                    lines.append(Text("       " + reasons[: WIDTH - 7]))
        return lines

    # ------------------------------------------------------------------ after each drill

    def judged(self, answer: DiscardAnswer | PlayAnswer) -> None:
        self.tally = self.tally.add(answer)
        text = verdict(answer)
        said = self.look.styled(text, "bold green") if text == BEST else Text(text)
        share = self.tally.best_share or 0.0
        self.say(
            said,
            self.look.dim(f"Tally: {self.tally.best} best of {self.tally.decisions} ({share:.0%})"),
        )


BEST: Final = "The best choice."


def verdict(answer: DiscardAnswer | PlayAnswer) -> str:
    """What a drill's answer is worth: the best choice, what it gave away, or, when every choice
    is worth the same (every card loses, say), that the choice makes no difference."""
    what = "throw" if isinstance(answer, DiscardAnswer) else "card"
    if answer.ranked_by == "win":
        values = [o.win or 0.0 for o in answer.options]
    else:
        values = [o.total if isinstance(o, KeepOption) else o.value for o in answer.options]
    if len(values) > 1 and max(values) - min(values) <= BEST_MARGIN:
        if answer.ranked_by == "win":
            chance = values[0]
            if chance <= BEST_MARGIN:
                return f"Every {what} loses: it makes no difference here."
            if chance >= 1 - BEST_MARGIN:
                return f"Every {what} wins: it makes no difference here."
            return f"Every {what} wins {chance:.1%}: it makes no difference here."
        return f"Every {what} is worth the same: it makes no difference here."
    if answer.is_best:
        return BEST
    if answer.ranked_by == "win":
        return f"You gave away {answer.loss:.1%} of the chance of winning."
    return f"You gave away {answer.loss:.2f} points."


def _padded(text: Text, width: int) -> Text:
    return text + Text(" " * max(0, width - text.cell_len))


def train(
    options: TrainOptions,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run a training session on the given streams; returns the exit status."""
    terminal = Terminal(stdin or sys.stdin, stdout or sys.stdout, ascii=options.ascii, env=env)
    return Trainer(options, terminal).run()
