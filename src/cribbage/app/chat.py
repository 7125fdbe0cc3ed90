"""Chat at the table: what the people seated at a table say to each other, and their reports.

Only at a table between people (two seats or more kept for people; ``chat.computer_table``
elsewhere) and only from a seat (a spectator reads but never writes: ``chat.spectator``, said by
the edge, which alone knows a spectator).  A message is plain text, stored and sent as typed
(after trimming): at most :data:`MAX_TEXT` characters (``chat.too_long``), not empty
(``chat.empty``), without control characters or the invisible ones that turn text around
(``chat.bad_text``); markup is only text, which every client shows as text.  Or it is a quick
phrase, sent as its code (:data:`PHRASES`) and worded by each reader in their own language
(``chat.bad_phrase`` for another code).  A seat may report a message of its table
(``chat.no_message`` for another): a row for an operator (``cribbage admin reports``).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Final

from ..storage import ChatMessage, Storage
from .errors import AppError
from .repository import Repository

__all__ = ["HISTORY", "MAX_TEXT", "PHRASES", "Chat", "clean_text"]

MAX_TEXT: Final = 200
"""The longest message, in characters after trimming."""

HISTORY: Final = 50
"""How many of a table's last messages a socket is sent when it opens."""

PHRASES: Final = ("hello", "gg", "nice_hand", "well_played", "thanks")
"""The quick phrases' codes ("Hello", "Good game", "Nice hand", "Well played", "Thanks")."""

_INVISIBLE: Final = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The marks that turn text around (bidirectional overrides and isolates): refused like controls."""


def clean_text(text: object) -> str:
    """A message's text as stored: trimmed, checked.

    >>> clean_text("  <b>gg</b> ")
    '<b>gg</b>'
    >>> clean_text("a\\x07b")
    Traceback (most recent call last):
    cribbage.app.errors.AppError: a message may not hold control characters

    Raises:
        AppError: ``chat.bad_message`` (not text), ``chat.empty``, ``chat.too_long``, ``chat.bad_text``.
    """
    if not isinstance(text, str):
        raise AppError("chat.bad_message", "'text' must be a string")
    text = text.strip()
    if not text:
        raise AppError("chat.empty", "a message may not be empty")
    if len(text) > MAX_TEXT:
        raise AppError("chat.too_long", f"a message is at most {MAX_TEXT} characters", max=MAX_TEXT)
    if any(unicodedata.category(char) in ("Cc", "Cs") or char in _INVISIBLE for char in text):
        raise AppError("chat.bad_text", "a message may not hold control characters")
    return text


class Chat:
    """The chat of the tables (thread-safe: every call is a read or a write of the storage)."""

    def __init__(self, repository: Repository) -> None:
        self.repository = repository
        self.storage: Storage = repository.storage

    def _seat(self, game_id: str, token: str | None) -> int:
        """The token's seat at a table between people (read at the stored seats)."""
        with self.repository.seated(game_id, token) as (session, seat):
            people = sum(1 for stored in session.seats if stored.kind == "human")
        if people < 2:
            raise AppError("chat.computer_table", "chat is only at tables between people")
        return seat

    def say(
        self, game_id: str, token: str | None, *, text: object = None, phrase: object = None
    ) -> dict[str, Any]:
        """Store what the token's seat says (``text``, or a ``phrase``'s code): the message as
        every socket of the table is sent it (:meth:`ChatMessage.to_json`).

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
        stored = self.storage.add_chat(game_id, seat, text=said, phrase=None if said else str(phrase))
        return stored.to_json()

    def history(self, game_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The table's last messages, oldest first."""
        return [message.to_json() for message in self.storage.chat_history(game_id, limit)]

    def report(self, game_id: str, token: str | None, message_id: object) -> dict[str, Any]:
        """Store the token's seat's report of a message of its table: ``{"report", "message"}``.

        Raises:
            AppError: ``unauthorized``, ``not_found``, ``chat.computer_table``,
                ``chat.no_message`` (no such message at this table).
        """
        if type(message_id) is not int or not 0 < message_id < 2**62:
            raise AppError("chat.no_message", "no such message at this table")
        seat = self._seat(game_id, token)
        found: ChatMessage | None = self.storage.chat_message(game_id, message_id)
        if found is None:
            raise AppError("chat.no_message", "no such message at this table")
        return {"report": self.storage.add_report(game_id, message_id, seat), "message": message_id}
