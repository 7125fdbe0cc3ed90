"""The terminal game: a person in seat 0 against the computer, one prompt at a time.

:func:`play` sets up a :class:`TerminalGame` from :class:`TerminalOptions` (or from a saved record) and runs
it.  The session only translates: the person's text becomes an engine action (the engine says
whether it is legal), and the engine's events become lines of text.  The computer players are
:mod:`cribbage.players` chosen by level.

Every prompt reads one line, so a game can be scripted: with standard input not a terminal,
answers are read line by line and echoed after their prompt, and the end of the input ends the
game with a message (exit status 1 when the game was not finished).  Only at a keyboard is the
person asked, once a game is over, whether to review it and whether to play another.  ``quit``,
Ctrl-C and Ctrl-D leave at once without a question or a traceback (Ctrl-C with exit status 130,
Ctrl-D as the end of the input), saying whether the game is saved: it is saved only by
``save FILE``.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Generic, Literal, TextIO, TypeVar

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ..engine.actions import MAX_CLAIM, Action, Count, Deal, Discard, Muggins, Pass, Play
from ..engine.cards import Card
from ..engine.errors import CribbageError
from ..engine.events import Kind
from ..engine.record import Game, Match
from ..engine.rules import Rules
from ..engine.view import SeatView
from ..players import PLAYERS
from ..table.seating import DEFAULT_LEVEL, HUMAN, LEVELS, GameOptions
from ..table.table import Step, Table
from .hints import discard_hint, play_hint
from .look import Look, supports_fancy
from .narrate import Narrator, SeatNames
from .parse import Command, InputError, parse_command, parse_number, pick_cards, yes

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Terminal",
    "TerminalGame",
    "TerminalOptions",
    "level_of",
    "play",
    "prepare",
]


HELP: Final = (
    "Answer each question with cards or a number.  Cards by name: 5h, 10d, TD, QS",
    "(rank A 2-10 J Q K, suit C D H S), or by position in your hand: {positions}.",
    "{discard}  At any question you may also type:",
    "  hint        the computer's advice for this discard or play, with its values",
    "  score       the scores",
    "  board       the board and your cards",
    "  save FILE   save the game; continue it with: cribbage play --resume FILE",
    "  help        this list",
    "  quit        leave at once, as Ctrl-C and Ctrl-D do: save first to keep it",
)

MORE: Final = "(more: press Enter)"
"""The question between two screens of a long output."""

_LEVEL_IN_NAME: Final = re.compile(r"\(([\w-]+)\)\s*$")
_PASS_WORDS: Final = ("", "0", "pass", "p", "no", "n")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TerminalOptions:
    """The choices of ``cribbage play`` (see :mod:`cribbage.cli.play`): the game's
    (:class:`~cribbage.table.seating.GameOptions`) and the terminal's."""

    level: str | None = None
    """The computer's level; ``None``: the saved game's, or :data:`DEFAULT_LEVEL`."""
    variant: str = "standard"
    target: int | None = None
    manual: bool = False
    muggins: bool = False
    seed: int | None = None
    ascii: bool = False
    resume: str | None = None

    def game(self, seed: int) -> GameOptions:
        """The options of a new game with ``seed``."""
        return GameOptions(
            level=self.level or DEFAULT_LEVEL,
            variant=self.variant,
            target=self.target,
            manual=self.manual,
            muggins=self.muggins,
            seed=seed,
        )


# --------------------------------------------------------------------------- the terminal


class Terminal:
    """Where the game is shown and the answers are read.

    Output goes through a :class:`rich.console.Console`, in colour with suit symbols when
    ``stdout`` can show them (see :func:`~cribbage.tui.look.supports_fancy`) unless ``ascii``.
    ``interactive`` is whether a person types the answers (``stdin`` is a terminal).  The words
    said on leaving (:meth:`farewell`) are not the game's output: they go to ``stderr``.

    On a screen (``stdout`` is a terminal, or a ``size`` is given) lines are wrapped at word ends
    to its width (but a :meth:`whole` line, a command to copy); into a file or a pipe they are
    never cut.  When a person reads the game on a screen (``stdin`` is a terminal too), what is
    shown between two questions is paged: before a line would push the first one shown since the
    last answer off the screen, :data:`MORE` waits for Enter.  A long show (seven-card cribbage)
    is read a screen at a time.
    """

    def __init__(
        self,
        stdin: TextIO,
        stdout: TextIO,
        *,
        ascii: bool = False,
        env: Mapping[str, str] | None = None,
        size: tuple[int, int] | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        env = os.environ if env is None else env
        fancy = not ascii and supports_fancy(stdout, env)
        self.look = Look(fancy)
        self.stdin = stdin
        self.interactive = _isatty(stdin)

        def console(file: TextIO) -> Console:
            screen = size is not None or _isatty(file)
            return Console(
                file=file,
                force_terminal=True if fancy else None,
                color_system=_colours(env) if fancy else None,
                no_color=not fancy,
                markup=False,
                emoji=False,
                highlight=False,
                soft_wrap=not screen,  # into a file or a pipe a line stays whole
                width=None if size is None else size[0],
                height=None if size is None else size[1],
            )

        self.console = console(stdout)
        self.err_console = console(sys.stderr if stderr is None else stderr)
        self.paged = self.interactive and (size is not None or _isatty(stdout))
        """Whether output is paged (see above)."""
        self.rows = 0
        """Screen rows written since the person last answered."""
        self.pausing = False
        """Whether the question asked is :data:`MORE`."""

    def say(self, *lines: Text | str) -> None:
        """Print lines, a screen at a time when paged: lines printed together (a hand, the
        board) stay together on a screen when they fit on one."""
        rows = [self._rows(line) for line in lines]
        if self.paged and self.rows and self.rows + sum(rows) >= self.console.height > sum(rows):
            self.pause()
        for line, height in zip(lines, rows, strict=True):
            if self.paged and self.rows and self.rows + height >= self.console.height:
                self.pause()
            self.console.print(line, soft_wrap=_whole(line) or None)
            self.rows += height

    @staticmethod
    def whole(text: str) -> Text:
        """A line never wrapped, left to the screen (a command to copy stays on one line)."""
        return Text(text, no_wrap=True)

    def _rows(self, line: Text | str) -> int:
        """The screen rows ``line`` takes (long lines wrap at word ends, a whole one anywhere)."""
        text = line if isinstance(line, Text) else Text(line)
        width = max(1, self.console.width)
        if _whole(line):
            return sum(max(1, -(-cell_len(part) // width)) for part in text.plain.split("\n"))
        return len(text.wrap(self.console, width))

    def pause(self) -> None:
        """Wait for Enter before the next screen (Ctrl-C and Ctrl-D leave, as at any question)."""
        self.pausing = True
        try:
            self.ask(MORE)
        finally:
            self.pausing = False

    def farewell(self, *lines: Text | str) -> None:
        """Print the words said on leaving on standard error, never paged (leaving from the
        question between two screens leaves at once)."""
        self.paged = False
        for line in lines:
            self.err_console.print(line, soft_wrap=_whole(line) or None)

    def error(self, message: str) -> None:
        """Print a short explanation of a wrong answer."""
        self.say(self.look.styled(message, "bold red"))

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line (without its end).

        Raises:
            EOFError: at the end of the input.
            KeyboardInterrupt: on Ctrl-C.
        """
        styled = self.look.bold(prompt)
        if self.interactive:
            stream = None if self.stdin is sys.stdin else self.stdin
            try:
                answer = self.console.input(styled, stream=stream)
                if stream is not None and not answer:
                    raise EOFError
            except (EOFError, KeyboardInterrupt):
                self.console.print()  # the message that follows starts on a line of its own
                raise
            self.rows = 0
            return answer.rstrip("\r\n")
        self.console.print(styled, end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        answer = line.rstrip("\r\n")
        self.console.print(Text(answer))  # echoed, so that a transcript reads like a session
        return answer


def _colours(env: Mapping[str, str]) -> Literal["standard", "256", "truecolor"]:
    """The colour system of a terminal that can show colour, from its environment."""
    if env.get("COLORTERM") in ("truecolor", "24bit"):
        return "truecolor"
    return "256" if "256" in env.get("TERM", "") else "standard"


def _whole(line: Text | str) -> bool:
    return isinstance(line, Text) and bool(line.no_wrap)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --------------------------------------------------------------------------- questions


def _nothing() -> None:
    """Shows nothing."""


@dataclass(frozen=True, slots=True)
class Question(Generic[T]):
    """One question to the person: its prompt and how an answer becomes a result.

    ``answer`` raises a :class:`~cribbage.engine.errors.CribbageError` for an answer it cannot take;
    the person is told why and asked again.  ``show`` displays the situation (again, for the
    ``board`` command); ``hint`` gives the advice lines, if there is any advice.
    """

    prompt: str
    answer: Callable[[str], T]
    show: Callable[[], None] = field(default=_nothing)
    hint: Callable[[], list[Text]] | None = None
    held: int = 0
    """How many cards the person holds, for the help (cards by position)."""
    no_hint: str = "No hint for this question: answer y or n."
    """What ``hint`` says where there is no advice."""


class _Leave(Exception):
    """The person leaves; ``status`` is the exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


# --------------------------------------------------------------------------- the session


class TerminalGame:
    """A sitting at the table: games against the computer until the person leaves.

    Args:
        terminal: where to show the game and read answers.
        match: the match, whose last game is played (new games are added to it).
        table: the table of the match's last game (the computers sit at it).
        level: the computer's level, for messages.
    """

    def __init__(self, terminal: Terminal, match: Match, table: Table, level: str) -> None:
        self.term = terminal
        self.look = terminal.look
        self.match = match
        self.table = table
        self.level = level
        rules = self.game.rules
        self.seating = SeatNames.for_players(rules.players, rules.partnerships)
        self.narrator = Narrator(self.look, self.seating)
        self.saved = len(self.game.actions)
        """How many actions the last save (or the loaded record) holds."""
        self.saved_to: str | None = None
        """The file of the last save, or of the record resumed."""
        self.starter = self.game.state.starter
        """The starter of the hand being told (the state may have dealt the next one already)."""
        self.board_at: int | None = None
        """How many actions the game had when the board was last shown (not again unchanged)."""

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def say(self, *lines: Text | str) -> None:
        self.term.say(*lines)

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the game ends (and, at a keyboard, until no other game is wanted).

        Returns the exit status: 0 after a finished game or ``quit``, 1 when the input ended
        before the game did, 130 after Ctrl-C.
        """
        try:
            while True:
                self.play_game()
                self.show_result()
                if not self.term.interactive:  # a script is never asked what it did not plan
                    return 0
                if self.game.result is not None and self.ask(self._yes_no("Review this game? (y/n) ")):
                    self.review()
                if not self.ask(self._yes_no("Another game? (y/n) ")):
                    return 0
                self.next_game()
        except _Leave as leave:
            return leave.status
        except EOFError:
            return self.leave("End of input.", 0 if self.game.state.is_terminal else 1)
        except KeyboardInterrupt:
            return self.leave("Interrupted.", 130)

    def play_game(self) -> None:
        """Play the current game to its end."""
        self.introduce()
        table = self.table
        self.announce(table.run())
        while (seat := table.waiting_for) is not None:
            self.announce(self.ask(self.pose(table.state.view(seat))))

    def next_game(self) -> None:
        game = self.match.new_game()
        game.names = self.game.names
        self.table = Table(game)
        self.saved = 0
        self.saved_to = None

    def ask(self, question: Question[T]) -> T:
        """Ask until the answer is taken; commands are done on the way."""
        while True:
            text = self.term.ask(question.prompt)
            command = parse_command(text)
            if command is not None:
                self.command(command, question)
                continue
            try:
                return question.answer(text)
            except CribbageError as exc:  # the engine's words too, written as a sentence
                message = str(exc)
                self.term.error(message[:1].upper() + message[1:] + ("" if message.endswith(".") else "."))

    # ------------------------------------------------------------------ telling what happens

    def introduce(self) -> None:
        rules, game = self.rules, self.game
        number = len(self.match.games)
        self.say(self.look.heading("Cribbage" if number == 1 else f"Game {number}"))
        what = "cribbage" if rules.name == "standard" else f"{rules.name} cribbage"
        line = f"{what[0].upper()}{what[1:]} to {rules.target} against the computer ({self.level})"
        self.say(line + ("." if game.seed is None else f", seed {game.seed}."))
        if rules.partnerships:
            self.say("Your partner sits across the table; Left and Right play against you both.")
        if rules.lowball:
            self.say("Lowball: the first side to reach the target loses.")
        if rules.manual_count:
            self.say(*self.counting_rules())
        if number > 1:
            self.say(self.games_won())
        self.say(self.look.dim("Type help for the commands."))
        if game.actions:
            self.say(f"Resuming the game at hand {game.state.hand_number}.")
            self.show_board()

    def counting_rules(self) -> list[str]:
        """How counting works in this game (manual counting, muggins, the over-count penalty)."""
        rules = self.rules
        if not rules.manual_count:
            return []
        lines = ["You count your own hands and crib: points you miss are lost to you."]
        if rules.muggins:
            lines.append("Muggins: the opponent may take the points a count missed (and you the computer's).")
        if rules.overcount_penalty:
            lines.append("A count stated too high is corrected, and the excess goes to the opponent.")
        else:
            lines.append("A count stated too high is corrected.")
        return lines

    def announce(self, steps: list[Step]) -> None:
        """Tell the events of the table's steps, each score with the side's total after it."""
        state = self.game.state
        # A count awaiting the muggins decision comes in the steps once the decision is taken.
        hand = state.hand_number - sum(1 for step in steps if step.event.kind is Kind.DEAL)
        index = 0
        while index < len(steps):
            step, after = steps[index], None
            event = step.event
            index += 1
            if event.kind is Kind.PLAY and index < len(steps) and steps[index].event.detail == "play":
                after = steps[index].event  # the card and what it scored are told in one line
                step = steps[index]
                index += 1
            scored = after or event
            total = None if scored.side is None else step.scores[scored.side]
            if event.kind is Kind.DEAL:
                hand += 1
                crib = self.seating.possessive(event.seat)
                self.say("", self.look.heading(f"Hand {hand}: {crib} crib"))
                if self.rules.crib_from_deck:
                    self.say(self._from_the_pack())
            elif event.kind is Kind.RESET and event.detail:
                if self.rules.one_count:
                    self.say(*self._unplayed(hand))
                self.say(self.look.heading("The show"))
            if event.kind is Kind.STARTER:
                self.starter = event.cards[0]
            lines = self.narrator.describe(event, total, after, starter=self.starter)
            if event.kind is Kind.SHOW and event.detail == "crib" and self.rules.crib_from_deck:
                lines.append(self._from_the_pack(self._deal(hand).crib))
            self.say(*lines)

    def _deal(self, hand: int) -> Deal:
        """The deal of hand number ``hand`` (1 for the first), from the record."""
        deals = [a for a in self.game.actions if isinstance(a, Deal)]
        return deals[hand - 1]

    def _hand_actions(self, hand: int) -> list[Action]:
        """The actions of hand number ``hand``, from its deal to the next deal."""
        actions = self.game.actions
        starts = [i for i, a in enumerate(actions) if isinstance(a, Deal)] + [len(actions)]
        return actions[starts[hand - 1] : starts[hand]]

    def _from_the_pack(self, cards: Sequence[Card] = ()) -> Text:
        """At the deal, that the crib has cards dealt from the pack; at its show, which."""
        number = self.rules.crib_from_deck
        if not cards:
            many = "one card" if number == 1 else f"{number} cards"
            return self.look.dim(f"The crib also gets {many} from the pack, face down.")
        verb = "was" if len(cards) == 1 else "were"
        return (
            self.look.dim("    ")
            + self.look.cards(sorted(cards))
            + self.look.dim(f" {verb} dealt from the pack.")
        )

    def _unplayed(self, hand: int) -> list[Text]:
        """After the single count of five-card cribbage, the cards left in the hands (they count
        in the show all the same)."""
        actions = self._hand_actions(hand)
        deal = actions[0]
        assert isinstance(deal, Deal)
        gone = {c for a in actions if isinstance(a, Discard) for c in a.cards}
        gone |= {a.card for a in actions if isinstance(a, Play)}
        left = [(seat, [c for c in cards if c not in gone]) for seat, cards in enumerate(deal.hands)]
        left = [(seat, cards) for seat, cards in left if cards]
        if not left:
            return []
        line = Text("The play ends after its one count: ")
        for number, (seat, cards) in enumerate(left):
            if number:
                line.append(" and " if number == len(left) - 1 else ", ")
            line.append_text(self.narrator.name(seat, self.seating.possessive(seat)) + Text(" "))
            line.append_text(self.look.cards(sorted(cards)))
        many = sum(len(cards) for _, cards in left) > 1
        line.append(f" {'are' if many else 'is'} not played (they count in the show).")
        return [line]

    def scores_line(self) -> Text:
        state = self.game.state
        view = state.view(HUMAN)  # a count awaiting the muggins decision is not pegged in it yet
        line = self.look.scores(self.seating.sides, view.scores, view.previous_scores, self.rules.target)
        if state.dealer is not None and not state.is_terminal:
            line.append_text(self.look.dim(f", {self.seating.possessive(state.dealer)} crib"))
        return line

    def show_board(self) -> None:
        """The scores and the board."""
        view = self.game.state.view(HUMAN)
        self.board_at = len(self.game.actions)
        self.say(self.scores_line())
        self.say(*self.look.board(self.seating.sides, view.scores, view.previous_scores, self.rules.target))

    def show_result(self) -> None:
        result = self.game.result
        if result is None:
            return
        self.say("", self.look.heading("Game over"))
        self.show_board()
        sides = self.seating.sides
        if self.rules.partnerships:
            names: tuple[str, ...] = ("You and Partner", "Left and Right")
            winner = f"{names[result.winner]} win"
        else:
            names = sides
            winner = self.seating.verb(result.winner, "win")
        self.say(self.look.bold(f"{winner}!"))
        if self.rules.lowball:
            self.say(f"{names[result.loser]} reached {self.rules.target} first.")
        if result.skunk:
            skunk = "double skunked" if result.skunk == 2 else "skunked"
            plural = result.loser == HUMAN or self.rules.partnerships
            points = result.game_points
            self.say(f"{names[result.loser]} {'are' if plural else 'is'} {skunk}: {points} game points.")
        self.say(self.games_won())
        if len(self.match.games) > 1:
            won = self.match.game_points
            self.say("Game points so far: " + ", ".join(f"{sides[s]} {won[s]}" for s in range(len(sides))))

    def review(self) -> None:
        """The review of the game just played: each of the person's decisions against the
        computer's best (:mod:`cribbage.study.review`), hand by hand, in
        :data:`~cribbage.study.review_text.WIDTH` columns."""
        from ..study.review import review_game  # the advice is loaded only when a review is asked for
        from ..study.review_text import WIDTH, review_lines

        self.say(self.look.heading("Review"), self.look.dim("Judging each of your decisions..."))
        review = review_game(self.game, [HUMAN])
        width = min(WIDTH, self.term.console.width)
        self.say(*review_lines(review, width=width, pretty=self.look.fancy))

    def games_won(self) -> Text:
        """The running tally of the sitting: ``Games won: You 1 – Computer 0``."""
        won = [0] * len(self.seating.sides)
        for game in self.match.games:
            if game.result is not None:
                won[game.result.winner] += 1
        dash = " – " if self.look.fancy else " - "
        tally = [
            self.look.side(name, side) + Text(f" {won[side]}") for side, name in enumerate(self.seating.sides)
        ]
        return Text("Games won: ") + Text(dash).join(tally)

    # ------------------------------------------------------------------ the person's decisions

    def pose(self, view: SeatView) -> Question[list[Step]]:
        """Show the situation of the person's decision and return the question for it."""
        if any(isinstance(a, Pass) for a in view.legal):
            question = self._pose_muggins(view)
        elif any(isinstance(a, Discard) for a in view.legal):
            if self.board_at != len(self.game.actions):  # as on resuming: shown already
                self.show_board()
            question = self._pose_discard(view)
        elif any(isinstance(a, Play) for a in view.legal):
            question = self._pose_play(view)
        else:
            question = self._pose_count(view)
        question.show()
        return question

    def _pose_discard(self, view: SeatView) -> Question[list[Step]]:
        hand = sorted(view.hand)
        number = self.rules.discard
        crib = self.seating.possessive(view.dealer)

        def show() -> None:
            self.say("Your cards:", *self.look.hand(hand))

        def answer(text: str) -> list[Step]:
            cards = pick_cards(text, hand, number)
            events = self.table.act(Discard(HUMAN, cards))
            self.say(Text("You throw ") + self.look.cards(cards) + Text(f" to {crib} crib."))
            return events

        prompt = f"Throw {number} card{'s' if number > 1 else ''} to {crib} crib: "
        return Question(prompt, answer, show, lambda: discard_hint(view, hand, self.look), len(hand))

    def _pose_play(self, view: SeatView) -> Question[list[Step]]:
        hand = sorted(view.hand)
        playable = {a.card for a in view.legal if isinstance(a, Play)}

        def show() -> None:
            line = Text("Starter ")
            if view.starter is not None:
                line.append_text(self.look.card(view.starter))
            line.append(f"   Count {view.count}")
            if view.sequence:
                line.append(": ")
                line.append_text(self.look.cards(view.sequence))
            held = [f"{self.seating.name(s)} {n}" for s, n in enumerate(view.held) if s != HUMAN]
            line.append_text(self.look.dim("   cards left: " + ", ".join(held)))
            self.say(line, *self.look.hand(hand, playable))

        def answer(text: str) -> list[Step]:
            if text.strip().lower() == "go":
                raise InputError("A card of yours fits the count, so you must play it (go is said for you).")
            return self.table.act(Play(HUMAN, pick_cards(text, hand, 1)[0]))

        return Question("Your card: ", answer, show, lambda: play_hint(view, hand, self.look), len(hand))

    def _pose_count(self, view: SeatView) -> Question[list[Step]]:
        state = self.game.state
        _, what = state.show_order()[state.show_step]
        cards = tuple(state.crib) if what == "crib" else view.kept

        def show() -> None:
            self.say(self.narrator.shown(HUMAN, what, cards, view.starter))

        def answer(text: str) -> list[Step]:
            return self.table.act(Count(HUMAN, parse_number(text, f"the points of your {what}", MAX_CLAIM)))

        return Question(
            f"Count your {what}: ", answer, show, no_hint="No hint for counting: that is up to you."
        )

    def _pose_muggins(self, view: SeatView) -> Question[list[Step]]:
        assert view.claim is not None
        seat, what, claim = view.claim
        cards = view.shown[-1][2]  # the count's cards and the claim: its points come after the call
        name = self.seating.name(seat)

        def show() -> None:
            line = self.narrator.shown(seat, what, cards, view.starter)
            line.append(f": {name} counts {claim}.")
            self.say(line)

        def answer(text: str) -> list[Step]:
            if text.strip().lower() in _PASS_WORDS:
                action: Muggins | Pass = Pass(HUMAN)
            else:
                missed = parse_number(text, "the points missed", MAX_CLAIM, ", or press Enter to pass")
                action = Muggins(HUMAN, missed)
            return self.table.act(action)  # the count comes in its steps, then the decision

        prompt = f"Muggins? Points {name} missed (Enter to pass): "
        return Question(prompt, answer, show, no_hint="No hint for muggins: calling it is up to you.")

    # ------------------------------------------------------------------ commands

    def command(self, command: Command, question: Question[T]) -> None:
        name = command.name
        if name == "help":
            self.help(question.held)
        elif name == "score":
            self.say(self.scores_line())
        elif name == "board":
            self.show_board()
            question.show()
        elif name == "hint":
            self.hint(question)
        elif name == "save":
            self.save(command.argument)
        else:
            self.quit()

    def help(self, held: int) -> None:
        """The commands, how to name cards (positions 1 to the cards held) and how counting works."""
        positions = "1 for the first card" if held == 0 else "1" if held == 1 else f"1 to {held}"
        discard = "A discard is one card: '5h' or '2'." if self.rules.discard == 1 else ""
        discard = discard or "A discard takes two cards: '5h jd' or '1 4'."
        lines = (line.format(positions=positions, discard=discard) for line in HELP)
        self.say(*lines, *self.counting_rules())

    def hint(self, question: Question[T]) -> None:
        if question.hint is None:
            self.say(question.no_hint)
            return
        try:
            self.say(*question.hint())
        except Exception as exc:  # advice is optional: a failing adviser must not end the game
            self.term.error(f"No hint: the advice failed ({exc}).")

    def save(self, text: str) -> bool:
        """``save FILE``: the rest of the line names the file, in quotes or not (``save my
        game.json``, ``save 'my game.json'``, as the resume command prints it); a file that is
        not this game's own is replaced only when the person says so."""
        path = text.strip()
        if len(path) >= 2 and path[0] == path[-1] and path[0] in "'\"":
            path = path[1:-1]
        if not path.strip():
            self.term.error("Name the file: save FILE")
            return False
        where = Path(path).expanduser()
        own = self.saved_to is not None and Path(self.saved_to).expanduser() == where
        replace = self._yes_no(f"{path} exists: replace it? (y/n) ")
        if where.exists() and not where.is_dir() and not own and not self.ask(replace):
            self.say("Not saved.")
            return False
        try:
            self.game.save(where)
        except OSError as exc:
            self.term.error(f"Could not save to {path}: {exc.strerror or exc}.")
            return False
        self.saved = len(self.game.actions)
        self.saved_to = str(where)
        self.say(self.term.whole(f"Saved to {path}.  Continue with: {self._resume_command()}"))
        return True

    def _resume_command(self) -> str:
        """``cribbage play --resume FILE``, the file quoted for the shell when it needs it."""
        return f"cribbage play --resume {shlex.quote(self.saved_to or 'FILE')}"

    def quit(self) -> None:
        self.term.farewell(*self.unsaved(), "Goodbye.")
        raise _Leave(0)

    def leave(self, message: str, status: int) -> int:
        """End the session at once after Ctrl-C or Ctrl-D (or the end of a script's input).

        Both keys do the same, without a question: like ``quit``, they say whether the game is
        saved (a game is saved only by ``save FILE``).
        """
        unfinished = not self.game.state.is_terminal
        self.term.farewell(message + (" The game is not finished." if unfinished else ""), *self.unsaved())
        return status

    def unsaved(self) -> list[Text | str]:
        """Before leaving an unfinished game: whether it is saved, and how to keep a game."""
        if self.game.state.is_terminal:
            return []
        if self.saved == len(self.game.actions) and self.saved_to is not None:
            return [self.term.whole(f"It is saved: continue with {self._resume_command()}")]
        if self.saved_to is not None:
            return [f"The moves since it was saved to {self.saved_to} are not saved."]
        if self.game.actions:
            return ["It is not saved: to keep a game, type save FILE before you leave."]
        return []

    def _yes_no(self, prompt: str) -> Question[bool]:
        def answer(text: str) -> bool:
            result = yes(text)
            if result is None:
                raise InputError("Answer y or n.")
            return result

        return Question(prompt, answer)


# --------------------------------------------------------------------------- setting up


def level_of(names: Sequence[str]) -> str | None:
    """The computer level kept in a record's names (``Computer (strong)``), if any.

    >>> level_of(["You", "Computer (strong)"])
    'strong'
    """
    for name in names[1:]:
        match = _LEVEL_IN_NAME.search(name)
        if match and (match.group(1) in LEVELS or match.group(1) in PLAYERS):
            return match.group(1)
    return None


def prepare(options: TerminalOptions, terminal: Terminal) -> TerminalGame:
    """A session for ``options``: a new game, or the saved one of ``options.resume``.

    Raises:
        CribbageError: for bad options or a record that cannot be resumed.
    """
    if options.resume is not None:
        game, entries, result = Game.parse(Game.read(options.resume))
        level = options.level or level_of(game.names) or DEFAULT_LEVEL
        if options.level or not game.seats:  # a record from before seats were kept, or a new level
            if level not in PLAYERS:
                known = ", ".join(PLAYERS)
                raise CribbageError(f"unknown level {level!r} (known: {known})")
            game.seats = GameOptions(level=level, seed=game.seed).seats(game.rules.players)
        table = Table(game)
        table.replay(entries, result)
        match = Match(game.rules, seed=game.seed or 0, games=[game], seats=game.seats)
    else:
        seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 31)
        settings = options.game(seed)
        rules = settings.rules()
        level = settings.level
        if level not in PLAYERS:
            raise CribbageError(f"unknown level {level!r} (known: {', '.join(PLAYERS)})")
        match = Match(rules, seed=seed, seats=settings.seats(rules.players))
        game = match.new_game()
        seating = SeatNames.for_players(rules.players, rules.partnerships)
        game.names = ("You", *(f"{name} ({level})" for name in seating.names[1:]))
        table = Table(game)
    if game.rules.muggins_play:
        raise CribbageError("cribbage play does not support muggins in the play (muggins_play)")
    session = TerminalGame(terminal, match, table, level)
    session.saved_to = options.resume
    return session


def play(
    options: TerminalOptions,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Play ``cribbage play`` with ``options`` on the given streams; returns the exit status.

    Raises:
        CribbageError: for bad options or a record that cannot be resumed.
    """
    terminal = Terminal(stdin or sys.stdin, stdout or sys.stdout, ascii=options.ascii, env=env, stderr=stderr)
    return prepare(options, terminal).run()
