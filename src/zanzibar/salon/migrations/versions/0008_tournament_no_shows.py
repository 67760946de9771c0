"""Tournament no-show deadlines stored with their board (``tournament_games.no_show_at``).

Revision ID: 0008
Revises: 0005
Create Date: 2026-11-26

The instant after which a seated person who has not come to a tournament table is
played for by a bot was a timer in the runner's memory: lost with its node. Stored
with the board, it is armed again by whichever node runs the table. Boards opened
before this revision have none (their timers were in memory and are gone).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_games") as batch:
        batch.add_column(sa.Column("no_show_at", sa.Float, nullable=True))
    # every node's tick looks for the deadlines set (only open boards keep one)
    op.create_index("ix_tournament_games_no_show", "tournament_games", ["no_show_at"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_no_show", "tournament_games")
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("no_show_at")
