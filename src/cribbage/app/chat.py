"""Chat at the table: what the people seated at a table say to each other, and their reports.

Only at a table between people (two seats or more kept for people; ``chat.computer_table``
elsewhere) and only from a seat (a spectator reads but never writes: ``chat.spectator``, said by
the edge, which alone knows a spectator).  A message is plain text, stored and sent as typed
(after trimming): at most :data:`MAX_TEXT` user-perceived characters (``chat.too_long``), not
empty (``chat.empty``), one line without control, format or invisible characters (``chat.bad_text``,
by Unicode category and property: :func:`clean_text`), no character stacked with more than
:data:`MAX_MARKS` combining marks (``chat.stacked``), and something that shows
(``chat.invisible``); markup is only text, which every client shows as text.  Or it is a quick
phrase, sent as its code (:data:`PHRASES`) and worded by each reader in their own language
(``chat.bad_phrase`` for another code).  A seat may report a message of its table
(``chat.no_message`` for another): a row for an operator (``cribbage admin reports``).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import regex

from ..storage import ChatMessage, Storage
from .errors import AppError
from .games.repository import Repository

__all__ = ["HISTORY", "MAX_MARKS", "MAX_TEXT", "PHRASES", "Chat", "clean_text", "graphemes"]

MAX_TEXT: Final = 200
"""The longest message, in user-perceived characters (graphemes) after trimming."""

HISTORY: Final = 50
"""How many of a table's last messages a socket is sent when it opens."""

PHRASES: Final = ("hello", "gg", "nice_hand", "well_played", "thanks")
"""The quick phrases' codes ("Hello", "Good game", "Nice hand", "Well played", "Thanks")."""

MAX_MARKS: Final = 4
"""The most combining marks on one character (a grapheme): enough for any script's accents and
for emoji's selectors, too few to stack a tower over the lines around ("Zalgo" text)."""

MAX_CLUSTER: Final = 16
"""The most code points in one character (a grapheme): the longest emoji sequences (a family or a
couple with skin tones) have 11."""

_JOINERS: Final = "\u200c\u200d"
"""Zero-width non-joiner and joiner: invisible, but part of emoji sequences (👨‍👩‍👧) and of
several scripts' spelling, so allowed between two characters that show."""

_REFUSED: Final = regex.compile(
    r"[[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]"
    r"--[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]]",
    regex.V1,
)
"""What a message may not hold, by Unicode category and property (never a list of our own):
controls (Cc), format characters (Cf: zero-width spaces, the byte-order mark, tag characters,
the bidirectional controls, U+061C among them), private use (Co), surrogates (Cs), unassigned
code points (Cn), line and paragraph separators (Zl, Zp: a message is one line), and every
default-ignorable character (which shows as nothing: U+3164 the Hangul filler, U+034F) — except
the joiners (:data:`_JOINERS`) and the variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF),
which only choose how the character before them looks (❤️)."""

_LONE_JOINER: Final = regex.compile(r"(?<!\S)[\u200c\u200d]|[\u200c\u200d](?!\S)|[\u200c\u200d]{2}")
"""A joiner that joins nothing: at an end, beside a space or beside another joiner."""

_GRAPHEME: Final = regex.compile(r"\X")
_MARK: Final = regex.compile(r"\p{M}")
_VISIBLE: Final = regex.compile(r"[\p{L}\p{N}\p{P}\p{S}]")


def graphemes(text: str) -> list[str]:
    """``text``'s user-perceived characters (extended grapheme clusters, Unicode UAX #29).

    >>> len(graphemes("👨‍👩‍👧‍👦" * 3)), len(graphemes("e\u0301")), len("👨‍👩‍👧‍👦" * 3)
    (3, 1, 21)
    """
    return _GRAPHEME.findall(text)


def clean_text(text: object) -> str:
    """A message's text as stored: trimmed, checked.

    >>> clean_text("  <b>gg</b> ")
    '<b>gg</b>'
    >>> clean_text("a\x07b")
    Traceback (most recent call last):
    cribbage.app.errors.AppError: a message may not hold control, format or invisible characters

    Its length is counted in user-perceived characters (:func:`graphemes`): a family emoji is
    one, as ``e`` with an accent is.

    Raises:
        AppError: ``chat.bad_message`` (not text), ``chat.empty``, ``chat.bad_text`` (a
            character of :data:`_REFUSED`, or a joiner that joins nothing), ``chat.too_long``
            (over :data:`MAX_TEXT` characters), ``chat.stacked`` (a character with more than
            :data:`MAX_MARKS` combining marks or :data:`MAX_CLUSTER` code points),
            ``chat.invisible`` (nothing that shows: marks or selectors alone).
    """
    if not isinstance(text, str):
        raise AppError("chat.bad_message", "'text' must be a string")
    text = text.strip()
    if not text:
        raise AppError("chat.empty", "a message may not be empty")
    if _REFUSED.search(text) or _LONE_JOINER.search(text):
        raise AppError("chat.bad_text", "a message may not hold control, format or invisible characters")
    characters = graphemes(text)
    if len(characters) > MAX_TEXT:
        raise AppError("chat.too_long", f"a message is at most {MAX_TEXT} characters", max=MAX_TEXT)
    for character in characters:
        if len(character) > MAX_CLUSTER or len(_MARK.findall(character)) > MAX_MARKS:
            raise AppError(
                "chat.stacked", f"a character may carry at most {MAX_MARKS} combining marks", max=MAX_MARKS
            )
    if not _VISIBLE.search(text):
        raise AppError("chat.invisible", "a message must hold something that shows")
    return text


class Said(Protocol):
    """Where a stored chat message is told (the service's sink, :class:`~.service.Sink`)."""

    def said(self, game_id: str, message: dict[str, Any]) -> None: ...


class Chat:
    """The chat of the tables (thread-safe: every call is a read or a write of the storage)."""

    def __init__(self, repository: Repository, sink: Said) -> None:
        self.repository = repository
        self.storage: Storage = repository.storage
        self.sink = sink

    def _seat(self, game_id: str, token: str | None) -> int:
        """The token's seat at a table between people (read at the stored seats)."""
        with self.repository.seated(game_id, token) as (live, seat):
            people = live.between_people
        if not people:
            raise AppError("chat.computer_table", "chat is only at tables between people")
        return seat

    def say(
        self, game_id: str, token: str | None, *, text: object = None, phrase: object = None
    ) -> dict[str, Any]:
        """Store what the token's seat says (``text``, or a ``phrase``'s code): the message as
        every socket of the table is sent it (:meth:`ChatMessage.to_json`), told to the sink.

        Raises:
            AppError: ``unauthorized``, ``not_found``, ``chat.computer_table``, ``chat.bad_message``
                (both or neither given), ``chat.bad_phrase``, or what :func:`clean_text` raises.
        """
        if (text is None) == (phrase is None):
            raise AppError("chat.bad_message", "a chat message has either 'text' or 'phrase'")
        if phrase is not None and phrase not in PHRASES:
            raise AppError("chat.bad_phrase", "no such quick phrase", phrases=list(PHRASES))
        said = clean_text(text) if text is not None else None
        seat = self._seat(game_id, token)
        stored = self.storage.chat.add(game_id, seat, text=said, phrase=None if said else str(phrase))
        message = stored.to_json()
        self.sink.said(game_id, message)
        return message

    def history(self, game_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The table's last messages, oldest first."""
        return [message.to_json() for message in self.storage.chat.history(game_id, limit)]

    def report(self, game_id: str, token: str | None, message_id: object) -> dict[str, Any]:
        """Store the token's seat's report of a message of its table: ``{"report", "message"}``.

        Raises:
            AppError: ``unauthorized``, ``not_found``, ``chat.computer_table``,
                ``chat.no_message`` (no such message at this table).
        """
        if type(message_id) is not int or not 0 < message_id < 2**62:
            raise AppError("chat.no_message", "no such message at this table")
        seat = self._seat(game_id, token)
        found: ChatMessage | None = self.storage.chat.message(game_id, message_id)
        if found is None:
            raise AppError("chat.no_message", "no such message at this table")
        return {"report": self.storage.chat.add_report(game_id, message_id, seat), "message": message_id}
