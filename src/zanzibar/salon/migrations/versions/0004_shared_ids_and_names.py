"""Several salon processes on one database: id sequences and name skeletons in the database.

Two processes used to hand out ids from their own max+1 counters and check
names against their own memory; both clash as soon as a second process
writes to the same database.

* On PostgreSQL, one sequence per kind of id (``zanzibar_user_ids``,
  ``zanzibar_table_ids``, ``zanzibar_game_ids``, ``zanzibar_private_ids``),
  started after the largest id already stored. SQLite has no sequences and
  keeps max+1 counters: a SQLite salon is one process.
* ``user_names``: every confusable skeleton of every user's name (the three
  forms ``salon.names.name_skeletons`` gives), one row each, the skeleton
  as primary key. Creating a user inserts them in the same transaction, so
  "Anna" and a look-alike "Аnna" cannot both be created, whichever process
  creates them. Existing users are filled in by id: if two stored names
  already share a skeleton, the older user keeps it.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: Sequence name -> (table, id column) it numbers.
SEQUENCES = {
    "zanzibar_user_ids": ("users", "id"),
    "zanzibar_table_ids": ("tables", "id"),
    "zanzibar_game_ids": ("games", "id"),
    "zanzibar_private_ids": ("private_messages", "id"),
}


def upgrade() -> None:
    from zanzibar.salon.names import name_skeletons

    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for name, (table, column) in SEQUENCES.items():
            op.execute(f"CREATE SEQUENCE {name} AS BIGINT")
            # is_called = false: the first nextval returns max + 1 itself
            op.execute(
                f"SELECT setval('{name}', COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, "
                "false)"
            )
    user_names = op.create_table(
        "user_names",
        sa.Column("skeleton", sa.String(256), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    )
    op.create_index("ix_user_names_user", "user_names", ["user_id"])
    if context.is_offline_mode():
        # ``alembic upgrade --sql`` cannot read the users to fill the skeletons in
        # (they are computed in Python): apply this revision online on a database with users
        return
    rows = bind.execute(sa.text("SELECT id, name FROM users ORDER BY id")).fetchall()
    taken: set[str] = set()
    filled = []
    for user_id, name in rows:
        for skeleton in sorted(name_skeletons(name) - taken):
            taken.add(skeleton)
            filled.append({"skeleton": skeleton, "user_id": user_id})
    if filled:
        op.bulk_insert(user_names, filled)


def downgrade() -> None:
    op.drop_index("ix_user_names_user", table_name="user_names")
    op.drop_table("user_names")
    if op.get_bind().dialect.name == "postgresql":
        for name in SEQUENCES:
            op.execute(f"DROP SEQUENCE {name}")
