"""The tables of tournaments (issue 44): ``tournaments``, ``tournament_entrants`` and
``tournament_tables``, on the games database's :data:`~.tables.metadata` (migrations 0017, 0018, 0020)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from .tables import metadata

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column(
        "director_id",
        String(32),
        ForeignKey("accounts.id", name="fk_tournaments_director_id", ondelete="SET NULL"),
    ),
    Column("settings", Text, nullable=False),
    Column("stage", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("starts", DateTime(timezone=True)),
    Index("ix_tournaments_stage_created", "stage", "created"),
    Index("ix_tournaments_starts", "starts"),
)
"""A tournament (issue 44, docs/tournaments.md): its ``name``, the account that directs it
(``director_id``; null once that account is deleted), its ``settings`` as JSON (variant, games,
pairing, playoffs, consolation, clock, start, entry limit, rated, venue) and its ``stage``:
``registration``, ``running`` or ``finished``; ``starts``, the time its automatic start is due
(migration 0018): set from the settings' start time, cleared once the start is made or tried
(null: none due, the director starts it).  Every change of a tournament is made with its row
locked (:meth:`.tournaments.TournamentRows.locked`): one process at a time decides it."""

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", name="fk_tournament_entrants_account_id", ondelete="SET NULL"),
    ),
    Column("name", String(64), nullable=False),
    Column("checked_in", Boolean, nullable=False, server_default=false()),
    Column("withdrawn", Boolean, nullable=False, server_default=false()),
    Column("registered", DateTime(timezone=True), nullable=False),
    Column(
        "partner_id",
        String(32),
        ForeignKey("accounts.id", name="fk_tournament_entrants_partner_id", ondelete="SET NULL"),
    ),
    Column("partner_name", String(64)),
    Column("partner_accepted", Boolean, nullable=False, server_default=false()),
    UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entrants_account"),
    UniqueConstraint("tournament_id", "partner_id", name="uq_tournament_entrants_partner"),
    Index("ix_tournament_entrants_account_id", "account_id"),
    Index("ix_tournament_entrants_partner_id", "partner_id"),
)
"""An entrant of a tournament, by its ``number`` in entry order (from 1: the entrant's id in
:mod:`cribbage.tournament`): the account that registered (null: a guest the director entered by
name, or an account since deleted), the ``name`` shown, whether it checked in (only those
checked in when the tournament starts play) and whether it withdrew since.  In a team event
(migration 0020) the entrant is a partnership: ``partner_id`` the second account (null: a
guest's partner, by ``partner_name``, or an account since deleted), ``partner_accepted`` whether
the partner agreed to play (a team checks in only once it has)."""

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("stage", String(16), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("first", Integer, nullable=False),
    Column("second", Integer),
    Column(
        "game_id",
        String(64),
        ForeignKey("games.id", name="fk_tournament_tables_game_id", ondelete="SET NULL"),
        unique=True,
    ),
    Column("outcome", Text),
    Column("entries", Text),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""A table of a tournament's round (:class:`cribbage.tournament.event.Table`): stage, round,
number and game (a playoff match's games one after another), the entrants at it by number
(``second`` null: ``first``'s bye), the online game played there (null: a club's game at a real
board, or not made yet), its ``outcome`` as JSON once decided (winner, loser, points, forfeit)
and the results the players entered (``entries``, JSON by entrant number: a club's scorecards,
counted once both agree)."""
