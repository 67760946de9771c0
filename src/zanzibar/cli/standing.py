"""``zanzibar ratings rebuild``: recompute every rating from the stored games.

Rates first whatever finished game is not rated yet (as the salon does at
start), then replays the rated games in the order they were rated and rewrites
the ratings and their history: the same numbers as the live updates
(:func:`zanzibar.salon.standing.rebuild`). Safe to run at any time; the salon
may keep running.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n import Msg, Voice
from zanzibar.salon.persistence import Store
from zanzibar.salon.standing import Standing, rebuild
from zanzibar.server.settings import default_data_dir, sqlite_url


async def rebuild_database(db_url: str) -> dict[str, int]:
    """Migrate the database if needed, rate pending games, rebuild; the counts."""
    store = Store(db_url)
    await store.start()
    try:
        pending = await Standing(store).process()
        counts = await rebuild(store)
    finally:
        await store.stop()
    return {**counts, "pending": pending}


def main(argv: list[str]) -> int:
    """``zanzibar ratings rebuild [--db URL | --data-dir D] [--lang en|fr]``."""
    parser = make_parser("ratings", "Ratings of the salon's players.")
    parser.add_argument("action", choices=["rebuild"], help="rebuild: recompute from the games")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--db", metavar="URL", help="the salon's database URL")
    source.add_argument("--data-dir", type=Path, metavar="D", help="the salon's data directory")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    args = parser.parse_args(argv)
    db_url = args.db or sqlite_url(args.data_dir or default_data_dir())
    if not args.db:
        path = Path(db_url.split(":///", 1)[1])
        if not path.exists():
            raise ZanzibarError(Msg("error-cli-no-database", path=str(path)))
    counts = asyncio.run(rebuild_database(db_url))
    print(Voice(args.lang).say(Msg("cli-ratings-rebuilt", **counts)))
    return 0
