"""The tables of the games database (games, seats, accounts and their sessions, the chat, the ratings), and
the statements every request runs, built once."""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    bindparam,
    case,
    false,
    null,
    or_,
    select,
    true,
)

DB_NAME: Final = "games.db"

metadata = MetaData()
"""The tables at the newest schema revision (:mod:`cribbage.storage.migrations` brings a database there)."""

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("generation", Integer, nullable=False, server_default="0"),
    Column("listed", DateTime(timezone=True)),
    Column("watch_code", String(16)),
    Column("rematch_of", String(64)),
    Column("clock_version", Integer),
    Column("clock_deadline", Float),
    Column("clock_away", String(32)),
    Column("rating_settled", DateTime(timezone=True)),
    UniqueConstraint("watch_code", name="uq_games_watch_code"),
    UniqueConstraint("rematch_of", name="uq_games_rematch_of"),
    ForeignKeyConstraint(["rematch_of"], ["games.id"], name="fk_games_rematch_of", ondelete="SET NULL"),
    Index("ix_games_listed", "listed"),
    Index("ix_games_clock_deadline", "clock_deadline"),
)
"""One row a game.  Besides its record: ``generation``, how many times its seats changed after
its start (a person left, a computer took a seat: every process compares it, with the version,
with the copy it holds in memory); ``listed``, when it was listed in the public lobby (None: it
is not); ``watch_code``, its watch link's code; ``rematch_of``, the finished game whose rematch
("play again") it is; and its turn clock, if it has one: the ``clock_version`` the clock belongs
to (None: no clock), by when the seat to act then must act (``clock_deadline``, seconds since
the epoch, None while nobody's turn runs: the game waits for people, or is over) and the seats
marked away (a computer moved for them; ``clock_away``, comma-separated).  ``rating_settled``:
when its rating was settled (recorded, or found not rated; :mod:`.ratings`): a game over
without it is the ratings' outbox, which any process finishes (docs/ratings.md)."""

RATING_DUE: Final = and_(games.c.over == true(), games.c.rating_settled.is_(None))
"""A game whose rating is due: over, its rating not settled (:meth:`.ratings.RatingRows.due`)."""

Index("ix_games_rating_due", games.c.updated, sqlite_where=RATING_DUE, postgresql_where=RATING_DUE)
"""The games due, by their last change: a partial index, empty but for the few games due, which
an action's save does not write to."""

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(16)),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("code", String(16), unique=True),
    Column("taken", Boolean, nullable=False),
    Column(
        "account_id", String(32), ForeignKey("accounts.id", name="fk_seats_account_id", ondelete="SET NULL")
    ),
    Column("erased", Boolean, nullable=False, server_default=false()),
    Column("left_by", String(32), ForeignKey("accounts.id", name="fk_seats_left_by", ondelete="SET NULL")),
    Index("ix_seats_account_id", "account_id"),
    Index("ix_seats_token_hash", "token_hash"),  # a seat by its token: claims, a signed-in seat
)
"""Who sits where: ``kind`` is ``human`` or ``computer`` (with its ``level``); ``token_hash`` and
the joiner's ``name`` are set when a person takes the seat; ``code`` is the seat's invitation;
``account_id`` the account of the person playing it, if they were signed in (or claimed it);
``erased``: that account was deleted, and the seat's name is ``deleted player`` for good;
``left_by``: the account of the person who left the seat open (a table without ``takeover``),
whose loss the game is when it is rated (docs/ratings.md)."""

seat_keys = Table(
    "seat_keys",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("token_hash", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(
        ["game_id", "seat"], ["seats.game_id", "seats.seat"], name="fk_seat_keys_seat", ondelete="CASCADE"
    ),
    Index("ix_seat_keys_seat", "game_id", "seat", "created"),
)
"""A seat's extra keys: the SHA-256 of each token an account minted for its own seat in another
browser (``POST /api/accounts/games/{id}/open``), accepted wherever the seat's own token is; void
with the seat's token when its person leaves (:meth:`.games.GameRows.reseat`), gone with the game."""

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=False),
    Column("password_hash", String(256)),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("name_skeleton", String(256)),
    Index("ix_accounts_name_key", "name_key", unique=True),
    Index("ix_accounts_name_skeleton", "name_skeleton", unique=True),
)
"""A person who plays online under one name: ``name`` as they wrote it, ``name_key`` the form
two names are the same by (NFKC, casefolded: unique), ``name_skeleton`` the form two names look
alike by (Unicode TS #39's skeleton of the key: unique; null for an account whose name looked
like an older one's before names were checked so, kept but blocking no one), the argon2id hash of
the password (null: an account made with a passkey, which no password signs in to)."""

held_names = Table(
    "held_names",
    metadata,
    Column("skeleton", String(256), primary_key=True),
    Column("until", DateTime(timezone=True), nullable=False),
)
"""The names of deleted accounts, by their skeleton: no new account takes one (nor a look-alike)
until ``until``; pruned after."""

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", name="fk_account_sessions_account_id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("last_seen", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_account_sessions_account_id", "account_id"),
)
"""A signed-in browser: the SHA-256 of its session token (never the token), and until when it holds."""

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", Text),
    Column("phrase", String(32)),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_messages_game_id", "game_id", "id"),
)
"""What the people at a table said (:mod:`cribbage.app.chat`): the ``seat`` that said it, and its
plain ``text`` or the code of a quick ``phrase`` (one of the two), at ``at``."""

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("message_id", Integer, ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_reports_at", "at"),
    Index("uq_chat_reports_message_seat", "message_id", "seat", unique=True),
)
"""A chat message a seat reported (``cribbage admin reports`` lists them for an operator); a seat
reports a message once (``uq_chat_reports_message_seat``)."""


ratings = Table(
    "ratings",
    metadata,
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", name="fk_ratings_account_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("pool", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_pool_ordinal", "pool", "ordinal", "account_id"),
)
"""Each account's rating in each pool it played (:mod:`cribbage.app.people.ratings`): the estimate
``mu`` and its uncertainty ``sigma``, ``ordinal`` (the conservative shown number, the
leaderboard's order: its index answers the top and an account's place by scanning it), and the
games and wins it rests on.  An account's ratings go with it (``ON DELETE CASCADE``)."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", name="fk_rating_history_account_id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("pool", String(16), nullable=False),
    Column("game_id", String(64), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("deals", Integer, nullable=True),
    Column("pegging", Integer, nullable=True),
    Column("hand", Integer, nullable=True),
    Column("crib", Integer, nullable=True),
    Column("skunk", Integer, nullable=True),
    Column("won", Boolean, nullable=True),
    UniqueConstraint("game_id", "account_id", name="uq_rating_history_game_account"),
    Index("ix_rating_history_account_pool", "account_id", "pool", "id"),
)
"""An account's rating after each rated game: the points of its profile's graph, in the order
of ``id``; with what the account did in it (null for games recorded before migration 0009): the
deals played, its seat's points by source, and the skunk (``+n`` given, ``-n`` taken, 0 none);
``won``, whether its side alone came first (as its rating's ``wins`` counts; null for games
recorded before migration 0016).  A game is recorded once (``game_id`` and ``account_id`` are
unique together); the rows stay when the game's own row is pruned, so ``game_id`` has no foreign
key."""
rated_tables = Table(
    "rated_tables",
    metadata,
    Column(
        "game_id",
        String(64),
        ForeignKey("games.id", name="fk_rated_tables_game_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("status", String(16), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_rated_tables_at", "at"),
)
"""What was settled about the rating of a game that asked to be rated (its ``rated`` option;
:mod:`cribbage.app.games.rating_policy`), once, at ``at``: ``counted`` (every person acted in the
first deal: rated when it ends), ``aborted`` (a person was absent before that), ``declined`` (a
joiner did not accept a rated game) or ``pair_limit`` (its accounts played enough rated games
together that day).  No row: nothing is settled yet.  Gone with its game."""

server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""The keys a server makes on its first start and keeps (``vapid``: the Web Push key pair, its
private key as PEM), shared by every process: the first to insert one wins, the others read it."""

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("notified", Boolean, nullable=False, server_default=false()),
    Column("failures", Integer, nullable=False, server_default="0"),
)
"""A seat's opt-in to Web Push (one browser a seat: the last to opt in): the push service's
``endpoint`` and the browser's keys (``p256dh``, ``auth``, base64url); ``notified``: the seat was
told it is its turn, and has not been told again until another seat's turn came between;
``failures``: the notices in a row its push service did not take (too many drop it)."""

passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", name="fk_passkeys_account_id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("public_key", String(2048), nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(256), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("used", DateTime(timezone=True)),
    Index("ix_passkeys_account_id", "account_id"),
)
"""An account's passkeys (WebAuthn credentials): the credential's id and its COSE public key
(base64url), the authenticator's signature counter as last seen, the transports its browser
named (comma-separated), when it was added and last signed in with."""

passkey_ceremonies = Table(
    "passkey_ceremonies",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("challenge", String(128), nullable=False),
    Column("account_id", String(32), nullable=False),
    Column("name", String(64)),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_passkey_ceremonies_expires", "expires"),
)
"""A passkey ceremony begun (``kind``: ``signup``, ``add`` or ``signin``): its challenge
(base64url), the account it is for (a new one's id at ``signup``, with its ``name``; none at
``signin``: empty), until when it may be finished; taken (deleted) when it is finished."""


_POSITION: Final = select(games.c.version, games.c.generation).where(games.c.id == bindparam("game"))
_LOAD: Final = games.select().where(games.c.id == bindparam("game"))
_MOVED: Final = select(
    games.c.version,
    games.c.generation,
    case(
        (
            or_(games.c.version != bindparam("version"), games.c.generation != bindparam("generation")),
            games.c.record,
        ),
        else_=null(),
    ),
).where(games.c.id == bindparam("game"))


_VERSION: Final = select(games.c.version).where(games.c.id == bindparam("game"))
_TAKE: Final = (
    seats.update()
    .where(seats.c.code == bindparam("the_code"), seats.c.taken == false())
    .values(taken=True, token_hash=bindparam("the_hash"), name=bindparam("the_name"))
)
_UPDATE: Final = (
    games.update()
    .where(games.c.id == bindparam("game"), games.c.version == bindparam("expected"))
    .values(
        record=bindparam("record"),
        version=bindparam("version"),
        over=bindparam("over"),
        updated=bindparam("updated"),
    )
)
_UPDATE_SEATED: Final = _UPDATE.where(games.c.generation == bindparam("seating"))
"""The statements of every request, built once."""
