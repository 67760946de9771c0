"""Friends lists and offline private messages: ``friends``, ``friend_settings``, ``delivered``.

A private message now records when it reached its recipient (``delivered``,
null while it waits for them to sign in). Messages stored before this
revision were either delivered live or lost by the old salon: they are all
marked delivered (at their ``created`` time), so nobody receives a backlog
of old lines at their next sign-in.

Revision ID: 0007
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("private_messages") as batch:
        batch.add_column(sa.Column("delivered", sa.Float, nullable=True))
    op.execute("UPDATE private_messages SET delivered = created")
    op.create_index(
        "ix_private_messages_waiting", "private_messages", ["recipient_id", "delivered"]
    )
    op.create_table(
        "friends",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, autoincrement=False
        ),
        sa.Column(
            "friend_id",
            sa.Integer,
            sa.ForeignKey("users.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_friends_friend", "friends", ["friend_id"])
    op.create_table(
        "friend_settings",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, autoincrement=False
        ),
        sa.Column("alerts", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("friend_settings")
    op.drop_index("ix_friends_friend", table_name="friends")
    op.drop_table("friends")
    op.drop_index("ix_private_messages_waiting", table_name="private_messages")
    with op.batch_alter_table("private_messages") as batch:
        batch.drop_column("delivered")
