"""The salon's storage schema (SQLAlchemy 2 Core tables).

The Alembic migrations in ``salon/migrations`` create exactly this schema
(a test compares them). Identifiers are given by the salon itself before it
writes (``cluster/pg_ids.py``: max+1 on SQLite, one process; PostgreSQL
sequences, shared by every process, on PostgreSQL).

JSON columns hold what is naturally a document: a table's options and seats,
one history item, one game log entry, a game's outcome.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    #: ``name`` in NFKC, case-folded: how a name is found (uniqueness is by
    #: confusable skeleton: ``user_names``).
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("lang", String(8), nullable=False),
    Column("guest", Boolean, nullable=False),
    Column("created", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    #: SHA-256 of the token: a stolen database does not yield usable tokens.
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created", Float, nullable=False),
    #: Last use (stored at most every few hours): the expiry slides from here.
    Column("last_used", Float, nullable=True),
    #: When the session was signed out or revoked (a password change); null while live.
    Column("revoked", Float, nullable=True),
)
Index("ix_sessions_user", sessions.c.user_id)

#: Every confusable skeleton of every user's name (``salon.names.name_skeletons``):
#: the primary key makes look-alike names unique in the database itself, so two
#: salon processes cannot both create "Anna" and "\u0410nna".
user_names = Table(
    "user_names",
    metadata,
    Column("skeleton", String(256), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
)
Index("ix_user_names_user", user_names.c.user_id)

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("game", String(32), nullable=False),
    Column("preset", String(64), nullable=True),
    Column("options", JSON, nullable=False),
    Column("capacity", Integer, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("invite", String(32), nullable=True),
    Column("host_id", Integer, nullable=True),
    Column("state", String(16), nullable=False),
    Column("hold", Boolean, nullable=False),
    Column("clock", Integer, nullable=True),
    Column("game_id", Integer, nullable=True),
    #: [{"user": id|null, "name": str|null, "bot": level|null, "away": bool}, ...]
    Column("seats", JSON, nullable=False),
    #: Users sent away by the host, who may not sit again.
    Column("banned", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("closed", Float, nullable=True),
    #: The fence: raised at each claim by a process; the count of committed changes.
    Column("epoch", Integer, nullable=False, server_default="0"),
    Column("version", Integer, nullable=False, server_default="0"),
    #: Stored deadlines (wall-clock instants): the seat a timed-out turn went to a bot
    #: for, when the running turn clock ends, when the pause between rounds ends, and
    #: {seat: instant} of players dropped mid-game.
    Column("clock_seat", Integer, nullable=True),
    Column("clock_deadline", Float, nullable=True),
    Column("pause_until", Float, nullable=True),
    Column("dropped", JSON, nullable=True),
)

history = Table(
    "history",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("channel", String(8), nullable=False),
    #: The item as data: event JSON, chat line or system kind with its values.
    Column("item", JSON, nullable=False),
    Column("created", Float, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("outcome", JSON, nullable=True),
    #: running, finished or abandoned
    Column("status", String(16), nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float, nullable=True),
)

game_log = Table(
    "game_log",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("entry", JSON, nullable=False),
)

game_players = Table(
    "game_players",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("name", String(64), nullable=False),
    Column("bot", String(32), nullable=True),
    #: won, lost, draw, or null while the game runs
    Column("result", String(8), nullable=True),
)
Index("ix_game_players_user", game_players.c.user_id)

private_messages = Table(
    "private_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("sender_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("recipient_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("me", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    #: When it reached the recipient; null while it waits for them to sign in.
    Column("delivered", Float, nullable=True),
)
Index("ix_private_messages_waiting", private_messages.c.recipient_id, private_messages.c.delivered)

#: One-sided friends lists ("follow"): ``user_id`` keeps ``friend_id`` in their list.
friends = Table(
    "friends",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True, autoincrement=False),
    Column("friend_id", Integer, ForeignKey("users.id"), primary_key=True, autoincrement=False),
    Column("created", Float, nullable=False),
)
Index("ix_friends_friend", friends.c.friend_id)

#: Per account: whether friends coming online and going offline are announced.
friend_settings = Table(
    "friend_settings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True, autoincrement=False),
    Column("alerts", Boolean, nullable=False),
)

applied_commands = Table(
    "applied_commands",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    #: The router's id of a forwarded command (resent with the same id after a failover).
    Column("cmd_id", String(64), primary_key=True),
    #: The table's version the command produced.
    Column("version", Integer, nullable=False),
    #: applied, refused or expired
    Column("status", String(16), nullable=False),
    Column("reply", JSON, nullable=True),
    Column("created", Float, nullable=False),
)
Index("ix_applied_commands_created", applied_commands.c.created)

table_members = Table(
    "table_members",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    #: The seat held, or null for a spectator.
    Column("seat", Integer, nullable=True),
)
Index("ix_table_members_table", table_members.c.table_id)

# -- standing: ratings, leaderboards, profiles (migration 0005) ----------------------

table_rated = Table(
    "table_rated",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    #: True: rated (guests may not sit); False: unrated; null: rated when every human
    #: player has an account (the default).
    Column("rated", Boolean, nullable=True),
)

game_standings = Table(
    "game_standings",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    #: Place by seat (1 is best; ties share), leavers already last.
    Column("places", JSON, nullable=False),
    #: Seats whose player left the game before its end.
    Column("left", JSON, nullable=False),
)

rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    #: The order games were rated in (replayed by ``zanzibar ratings rebuild``).
    Column("seq", Integer, nullable=False, unique=True),
    #: The rating family, or null for a game that counts for no rating.
    Column("family", String(32), nullable=True),
    Column("rated", Boolean, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("family", String(32), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    #: The displayed rating (1000 + 40 (mu - 3 sigma)), kept for ordering.
    Column("rating", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("ix_ratings_board", ratings.c.family, ratings.c.rating)

rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("family", String(32), nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Integer, nullable=False),
    Column("before", Integer, nullable=False),
    Column("created", Float, nullable=False),
)
Index("ix_rating_history_user", rating_history.c.user_id, rating_history.c.family)

profile_settings = Table(
    "profile_settings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    #: A hidden profile answers 404 to everyone but its owner.
    Column("hidden", Boolean, nullable=False),
)
# -- Swiss tournaments (salon/tournaments.py) -----------------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("preset", String(64), nullable=True),
    Column("options", JSON, nullable=False),
    #: Seats at each table (2 for chess; 2 or more for the dice games).
    Column("seats", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("max_players", Integer, nullable=False),
    #: Epoch seconds of the start, or null to start when full.
    Column("starts_at", Float, nullable=True),
    #: Bot level that fills empty seats (dice tables) and plays for absent players.
    Column("bot_level", String(32), nullable=False),
    Column("host_id", Integer, ForeignKey("users.id"), nullable=False),
    #: registering, running, finished or cancelled
    Column("state", String(16), nullable=False),
    #: The round being played (0 before the first).
    Column("round", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    #: Why it ended early (no pairing left), or null.
    Column("note", String(64), nullable=True),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    #: The entrant's number in the tournament (registration order; ids, not seeds).
    Column("entrant", Integer, primary_key=True, autoincrement=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("name", String(64), nullable=False),
    #: A bot entrant's level, or null for a person.
    Column("bot", String(32), nullable=True),
    #: Pairing number, given at the start (registration order), null before.
    Column("seed", Integer, nullable=True),
    Column("registered", Float, nullable=False),
)
Index("ix_tournament_players_user", tournament_players.c.user_id)

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    #: Board number from 1; 0 is the bye.
    Column("board", Integer, primary_key=True, autoincrement=False),
    Column("table_id", Integer, nullable=True),
    Column("game_id", Integer, nullable=True),
    #: Entrant numbers in seat order, null for a seat given to a bot.
    Column("seats", JSON, nullable=False),
    #: {entrant: points} once the game is over (the bye's at once), else null.
    Column("result", JSON, nullable=True),
    #: When a seated person who has not come to the table is played for by a bot (wall
    #: clock); null once checked, or with nobody to wait for (migration 0008).
    Column("no_show_at", Float, nullable=True),
)
Index("ix_tournament_games_table", tournament_games.c.table_id)
#: The stored no-show deadlines every node's tick looks for (only open boards have one).
Index("ix_tournament_games_no_show", tournament_games.c.no_show_at)
