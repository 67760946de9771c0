"""``zanzibar replay ID``: replay a saved game in the terminal, one sentence per line.

The game comes from a running salon (``--server URL``, through
``GET /api/games/{id}``) or straight from its database (``--db URL`` or
``--data-dir D``, default ``./data``). Its action log is replayed with
:meth:`Match.from_record`, which checks every logged action and die against
the rules, and each event is printed as the game's own sentence, as a
spectator would hear it.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import CorruptDataError, ZanzibarError
from zanzibar.engine.i18n import LANGUAGES, join_words
from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games import get_rules
from zanzibar.server.settings import default_data_dir, sqlite_url

_TEXT = {
    "en": {
        "header": "Game {id}: {title}, {players}.",
        "started": "Started {when}.",
        "unfinished": "This game is not finished; replaying its first {count} steps.",
        "winners": "Won by {names}.",
        "draw": "A draw.",
        "end": "End of the replay.",
    },
    "fr": {
        "header": "Partie {id} : {title}, {players}.",
        "started": "Commencée le {when}.",
        "unfinished": "Cette partie n'est pas finie ; voici ses {count} premières étapes.",
        "winners": "Gagnée par {names}.",
        "draw": "Match nul.",
        "end": "Fin de la rediffusion.",
    },
}


def _say(lang: str, key: str, **values: Any) -> str:
    return _TEXT.get(lang, _TEXT["en"])[key].format(**values)


def replay_lines(game: Mapping[str, Any], lang: str = "en") -> Iterator[str]:
    """The sentences of a saved game (the JSON of ``GET /api/games/{id}``), in order.

    Raises :class:`CorruptDataError` if the record does not replay.
    """
    raw = game.get("record")
    if isinstance(raw, Mapping) and raw.get("seed") is None:
        # A running game's seed is withheld; the dice come from the log anyway.
        raw = {**raw, "seed": 0}
    record = MatchRecord.from_json(raw)
    rules = get_rules(record.game)
    match = Match.from_record(rules, record)
    names = [str(n) if n else f"#{i + 1}" for i, n in enumerate(game.get("seats") or [])]
    names += [f"#{i + 1}" for i in range(len(names), record.seats)]
    title = rules.title.get(lang) or rules.title.get("en") or rules.name
    yield _say(lang, "header", id=game.get("id", "?"), title=title, players=join_words(names, lang))
    if game.get("started"):
        yield _say(lang, "started", when=game["started"])
    if not match.is_over:
        yield _say(lang, "unfinished", count=len(record.log))
    for _, event in match.events:
        yield rules.render_event(event, lang, None, names)
    if match.is_over:
        outcome = rules.outcome(match.state)
        if outcome.draw:
            yield _say(lang, "draw")
        elif outcome.winners:
            yield _say(lang, "winners", names=join_words([names[s] for s in outcome.winners], lang))
    yield _say(lang, "end")


def fetch_from_server(server: str, game_id: int) -> dict[str, Any]:
    """``GET /api/games/{id}`` from a running salon."""
    import httpx

    url = server.rstrip("/") + f"/api/games/{game_id}"
    try:
        response = httpx.get(url, timeout=30)
    except httpx.HTTPError as exc:
        raise ZanzibarError(f"cannot reach {server}: {exc}") from None
    if response.status_code == 404:
        raise ZanzibarError(f"there is no game {game_id} on {server}")
    if response.status_code != 200:
        raise ZanzibarError(f"{server} answered {response.status_code}: {response.text[:200]}")
    data: dict[str, Any] = response.json()
    return data


def fetch_from_database(db_url: str, game_id: int) -> dict[str, Any]:
    """Read a game straight from the salon's database (no server needed, nothing written)."""
    from zanzibar.salon import read_game_record

    try:
        data: dict[str, Any] | None = asyncio.run(read_game_record(db_url, game_id))
    except Exception as exc:  # the driver's message may hold the URL and its password
        raise ZanzibarError(
            f"cannot read the salon's database ({type(exc).__name__}); check --db or --data-dir"
        ) from None
    if data is None:
        raise ZanzibarError(f"there is no game {game_id} in this database")
    return data


def play_lines(
    lines: Sequence[str] | Iterator[str], delay: float, output: Callable[[str], None]
) -> None:
    """Print each line, pausing ``delay`` seconds between lines."""
    for index, line in enumerate(lines):
        if index and delay > 0:
            time.sleep(delay)
        output(line)


def main(argv: list[str]) -> int:
    """Replay a saved game, one sentence per line."""
    parser = make_parser("replay", "Replay a saved game in the terminal, one sentence per line.")
    parser.add_argument("game_id", type=int, metavar="ID", help="the game's number")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--server", metavar="URL", help="a running salon, e.g. http://127.0.0.1:8421"
    )
    source.add_argument("--db", metavar="URL", help="the salon's database URL")
    source.add_argument("--data-dir", type=Path, metavar="D", help="the salon's data directory")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument(
        "--delay", type=float, default=0.0, metavar="S", help="seconds between lines"
    )
    args = parser.parse_args(argv)
    if args.delay < 0:
        parser.error("the delay cannot be negative")
    if args.server:
        game = fetch_from_server(args.server, args.game_id)
    else:
        db_url = args.db or sqlite_url(args.data_dir or default_data_dir())
        if not args.db:
            path = Path(db_url.split(":///", 1)[1])
            if not path.exists():
                raise ZanzibarError(f"no salon database at {path}")
        game = fetch_from_database(db_url, args.game_id)
    try:
        lines = list(replay_lines(game, args.lang))
    except CorruptDataError as exc:
        print(f"error: game {args.game_id} does not replay: {exc.message}", file=sys.stderr)
        return 1
    if sys.stdin.isatty() and sys.stdout.isatty():
        # in a terminal: the game frame, so S, T, I, the arrows and Q work while it plays back
        return replay_in_frame(game, args.lang, args.delay, lines[0])
    play_lines(lines, args.delay, lambda line: print(line, flush=True))
    return 0


def replay_driver(game: Mapping[str, Any]) -> tuple[Any, Any]:
    """The rules and a :class:`ReplayDriver` of a saved game (its JSON)."""
    from zanzibar.cli.frame.drivers import ReplayDriver

    record = MatchRecord.from_json(game.get("record"))
    rules = get_rules(record.game)
    names = [str(n) if n else f"#{i + 1}" for i, n in enumerate(game.get("seats") or [])]
    names += [f"#{i + 1}" for i in range(len(names), record.seats)]
    return rules, ReplayDriver(rules, record, names)


def replay_in_frame(game: Mapping[str, Any], lang: str, delay: float, header: str) -> int:
    """Play a saved game back through the terminal frame (keys answer while it plays)."""
    from zanzibar.cli.frame.inputs import TerminalKeys, cbreak
    from zanzibar.cli.frame.loop import Frame
    from zanzibar.cli.play import plugin_for

    rules, driver = replay_driver(game)
    frame = Frame(driver, plugin_for(rules), lang=lang, delay=delay)
    frame.output(header)

    async def run() -> int:
        fd = sys.stdin.fileno()
        with cbreak(fd):
            return await frame.run(TerminalKeys(fd))

    return asyncio.run(run())
