"""Swiss tournaments: tournaments, their players and their games (one row a board).

Revision ID: 0006
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("bot_level", sa.String(32), nullable=False),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("note", sa.String(64), nullable=True),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("entrant", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("registered", sa.Float, nullable=False),
    )
    op.create_index("ix_tournament_players_user", "tournament_players", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("board", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.Integer, nullable=True),
        sa.Column("game_id", sa.Integer, nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("ix_tournament_games_table", "tournament_games", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_table", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_user", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
