"""Sessions expire and can be revoked: ``last_used`` and ``revoked`` columns.

Existing sessions get no ``last_used``; their expiry slides from ``created``
until their next use.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_used", sa.Float, nullable=True))
        batch.add_column(sa.Column("revoked", sa.Float, nullable=True))
    op.create_index("ix_sessions_user", "sessions", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_sessions_user", table_name="sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("revoked")
        batch.drop_column("last_used")
