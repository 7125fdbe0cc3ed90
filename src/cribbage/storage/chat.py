"""The chat at the tables: the messages a seat said, and the messages reported to an operator."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .database import Rows
from .rows import _utc
from .tables import chat_messages, chat_reports


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One row of ``chat_messages``: plain ``text`` or a quick ``phrase``'s code (the other None)."""

    id: int
    game_id: str
    seat: int
    text: str | None
    phrase: str | None
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """``{"id", "seat", "text" | "phrase", "at"}``, as a socket sends it."""
        said = {"text": self.text} if self.text is not None else {"phrase": self.phrase}
        return {"id": self.id, "seat": self.seat, **said, "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class ChatReport:
    """A report of a message: by which seat, when, and the message itself."""

    id: int
    seat: int
    at: datetime
    message: ChatMessage

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.message.game_id,
            "seat": self.seat,
            "at": self.at.isoformat(),
            "message": self.message.to_json(),
        }


def _message(row: Any) -> ChatMessage:
    return ChatMessage(row.id, row.game_id, row.seat, row.text, row.phrase, _utc(row.at))


class ChatRows(Rows):
    """A storage's chat messages and reports (``storage.chat``)."""

    def add(
        self, game_id: str, seat: int, *, text: str | None = None, phrase: str | None = None
    ) -> ChatMessage:
        """Store what ``seat`` said at the game (its text, or a phrase's code) and return it, with its id."""
        at = self.now()
        values = {"game_id": game_id, "seat": seat, "text": text, "phrase": phrase, "at": at}
        with self.engine.begin() as conn:
            new_id = conn.execute(
                chat_messages.insert().values(**values).returning(chat_messages.c.id)
            ).scalar_one()
        return ChatMessage(int(new_id), game_id, seat, text, phrase, _utc(at))

    def history(self, game_id: str, limit: int = 50) -> list[ChatMessage]:
        """The game's last ``limit`` messages, oldest first."""
        query = (
            select(chat_messages)
            .where(chat_messages.c.game_id == game_id)
            .order_by(chat_messages.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [_message(row) for row in reversed(rows)]

    def message(self, game_id: str, message_id: int) -> ChatMessage | None:
        """A message of the game by its id (None: no such message at that game)."""
        query = select(chat_messages).where(
            chat_messages.c.id == message_id, chat_messages.c.game_id == game_id
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _message(row)

    def add_report(self, game_id: str, message_id: int, seat: int) -> int:
        """Store a seat's report of a message of its game; its id.  A seat reports a message
        once: reported again (or by two requests at once), the first report's id."""
        values = {"game_id": game_id, "message_id": message_id, "seat": seat, "at": self.now()}
        mine = select(chat_reports.c.id).where(
            chat_reports.c.message_id == message_id, chat_reports.c.seat == seat
        )
        with self.engine.connect() as conn:
            found = conn.execute(mine).scalar()
        if found is not None:
            return int(found)
        try:
            with self.engine.begin() as conn:
                return int(
                    conn.execute(
                        chat_reports.insert().values(**values).returning(chat_reports.c.id)
                    ).scalar_one()
                )
        except IntegrityError:  # the same report, stored meanwhile by another request
            with self.engine.connect() as conn:
                return int(conn.execute(mine).scalar_one())

    def reports(self, limit: int = 1000) -> list[ChatReport]:
        """The reports, newest first, each with the message it reports."""
        message = chat_messages.alias("message")
        query = (
            select(chat_reports, *(column.label(f"m_{column.name}") for column in message.c))
            .join(message, message.c.id == chat_reports.c.message_id)
            .order_by(chat_reports.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            ChatReport(
                row.id,
                row.seat,
                _utc(row.at),
                ChatMessage(row.m_id, row.m_game_id, row.m_seat, row.m_text, row.m_phrase, _utc(row.m_at)),
            )
            for row in rows
        ]


__all__ = ["ChatMessage", "ChatReport", "ChatRows"]
