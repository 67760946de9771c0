"""Table actors: the fence (epoch, version), stored deadlines, applied commands, members.

``tables.epoch`` grows each time a process claims a table; ``tables.version``
counts its committed changes. Every write of a table is fenced on both
(``UPDATE tables SET version = v + 1 ... WHERE id = t AND epoch = e AND
version = v``): an owner that lost the table cannot apply anything. The
deadlines a table waits for are stored with it (``clock_seat``,
``clock_deadline``, ``pause_until``, ``dropped`` = {seat: instant}) so a
restart arms the same instants. ``applied_commands`` keeps the reply of each
forwarded command, so a command resent after a failover is applied once.
``table_members`` says who sits at or watches which open table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("clock_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.Float, nullable=True))
        batch.add_column(sa.Column("pause_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("dropped", sa.JSON, nullable=True))
    op.create_table(
        "applied_commands",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("cmd_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reply", sa.JSON, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_applied_commands_created", "applied_commands", ["created"])
    op.create_table(
        "table_members",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_table_members_table", "table_members", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_members_table", table_name="table_members")
    op.drop_table("table_members")
    op.drop_index("ix_applied_commands_created", table_name="applied_commands")
    op.drop_table("applied_commands")
    with op.batch_alter_table("tables") as batch:
        for column in (
            "dropped",
            "pause_until",
            "clock_deadline",
            "clock_seat",
            "version",
            "epoch",
        ):
            batch.drop_column(column)
