"""Standing: rated tables, finishing orders, ratings, their history, profile settings.

Revision ID: 0005
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_rated",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=True),
    )
    op.create_table(
        "game_standings",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("places", sa.JSON, nullable=False),
        sa.Column("left", sa.JSON, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False, unique=True),
        sa.Column("family", sa.String(32), nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["family", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_user", "rating_history", ["user_id", "family"])
    op.create_table(
        "profile_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("profile_settings")
    op.drop_index("ix_rating_history_user", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("rated_games")
    op.drop_table("game_standings")
    op.drop_table("table_rated")
