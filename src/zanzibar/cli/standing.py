"""``zanzibar ratings rebuild``: recompute every rating from the stored games.

Rates first whatever finished game is not rated yet (as the salon does at
start), then replays the rated games in the order they were rated and rewrites
the ratings and their history: the same numbers as the live updates
(:func:`zanzibar.salon.rating_processor.rebuild`). Safe to run at any time; the salon
may keep running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from zanzibar.cli.frame.plugin import Binding, CommandSpec, Reply
from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n import Msg, Voice
from zanzibar.salon.persistence import Store
from zanzibar.salon.rating_processor import RatingProcessor, rebuild
from zanzibar.salon.ratings import family_of
from zanzibar.server.settings import default_data_dir, sqlite_url


async def rebuild_database(db_url: str) -> dict[str, int]:
    """Migrate the database if needed, rate pending games, rebuild; the counts."""
    store = Store(db_url)
    await store.start()
    try:
        pending = await RatingProcessor(store).process()
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


# -- online play: a key and commands that read one's standing ----------------------------


class StandingPlugin:
    """A game's terminal plugin plus L (``rating``) and ``leaderboard``, for online play.

    Everything else is the game's own plugin. The answers come from the salon's
    HTTP API with the session's token (``GET /api/leaderboard/{family}``), for
    the family of the table's game.
    """

    def __init__(
        self,
        inner: Any,
        server: str,
        token: str,
        game: str,
        options: Any,
        user_name: Any = lambda: "",
    ) -> None:
        self.inner = inner
        self.user_name = user_name
        self.server = server.rstrip("/") + "/"
        self.token = token
        self.game = inner.game
        self.line_first = inner.line_first
        self._rules_game = game
        self._options = options

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def keys(self) -> Sequence[Binding]:
        """The game's keys, then L for one's rating."""
        return [*self.inner.keys(), Binding(("l",), "rating", "cli-help-rating")]

    def commands(self) -> Sequence[CommandSpec]:
        """The game's commands, then ``rating`` and ``leaderboard``."""
        return [
            *self.inner.commands(),
            CommandSpec("rating"),
            CommandSpec("leaderboard"),
            CommandSpec("profile", "[name]"),
        ]

    def run(self, name: str, args: list[str], ctx: Any) -> Reply | None:
        """``rating``/``leaderboard`` here; anything else is the game's."""
        if name not in {"rating", "leaderboard", "profile"}:
            reply: Reply | None = self.inner.run(name, args, ctx)
            return reply
        if name == "profile":
            try:
                return Reply(
                    profile_lines(self._get(f"api/profile/{self._who(args)}", ctx.lang), ctx.lang)
                )
            except ZanzibarError as exc:
                return Reply([exc.text(ctx.lang)])
        options = self._options() if callable(self._options) else self._options
        family = family_of(self._rules_game, dict(options or {}))
        voice = Voice(ctx.lang)
        if family is None:
            return Reply([voice.say(Msg("cli-standing-unrated"))])
        try:
            board = self._board(family, ctx.lang, 5 if name == "leaderboard" else 1)
        except ZanzibarError as exc:
            return Reply([exc.text(ctx.lang)])
        return Reply(standing_lines(board, name, ctx.lang))

    def _who(self, args: list[str]) -> str:
        """The name asked for (``profile Anna``), else one's own."""
        from urllib.parse import quote

        name = " ".join(args).strip() or str(self.user_name())
        return quote(name[:64], safe="")

    def _board(self, family: str, lang: str, limit: int) -> dict[str, Any]:
        return self._get(f"api/leaderboard/{family}", lang, {"limit": limit})

    def _get(self, path: str, lang: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        import httpx

        try:
            response = httpx.get(
                f"{self.server}{path}",
                params={**(params or {}), "lang": lang},
                headers={"Authorization": f"Bearer {self.token}"},
                timeout=10.0,
            )
            body: dict[str, Any] = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise ZanzibarError(Msg("error-cli-standing-unreachable", why=str(exc))) from None
        if response.status_code != 200:
            raise ZanzibarError(str(body.get("message", response.status_code)))
        return body


def standing_lines(board: Mapping[str, Any], command: str, lang: str) -> list[str]:
    """What ``rating`` (one's own line) or ``leaderboard`` (the top, then one's own) says."""
    voice = Voice(lang)
    title = str(board.get("title", board.get("family", "")))
    you = board.get("you")
    if you is None:
        mine = voice.say(Msg("cli-standing-none", family=title))
    else:
        mine = voice.say(
            Msg(
                "cli-standing-you",
                family=title,
                rating=str(you["rating"]),
                rank=you["rank"],
                total=board.get("total", 0),
                games=you["games"],
                provisional="yes" if you["provisional"] else "no",
            )
        )
    if command == "rating":
        return [mine]
    lines = [voice.say(Msg("cli-standing-top", family=title, total=board.get("total", 0)))]
    for player in board.get("players", []):
        lines.append(
            voice.say(
                Msg(
                    "cli-standing-line",
                    rank=player["rank"],
                    name=player["name"],
                    rating=str(player["rating"]),
                    games=player["games"],
                    provisional="yes" if player["provisional"] else "no",
                )
            )
        )
    return [*lines, mine]


def profile_lines(profile: Mapping[str, Any], lang: str) -> list[str]:
    """A profile said line by line: ratings, the last five games (how to replay them), statistics."""
    voice = Voice(lang)
    lines = [voice.say(Msg("cli-standing-profile", name=profile["user"]))]
    if not profile.get("ratings"):
        lines.append(voice.say(Msg("cli-standing-profile-unrated", name=profile["user"])))
    for rating in profile.get("ratings", []):
        history = rating.get("history") or []
        lines.append(
            voice.say(
                Msg(
                    "cli-standing-profile-rating",
                    family=rating.get("title", rating["family"]),
                    rating=str(rating["rating"]),
                    rank=rating["rank"],
                    games=rating["games"],
                    provisional="yes" if rating["provisional"] else "no",
                    change=_signed(history[-1]["change"]) if history else "0",
                )
            )
        )
    for game in profile.get("games", [])[:5]:
        change = game.get("change")
        lines.append(
            voice.say(
                Msg(
                    "cli-standing-profile-game",
                    id=str(game["id"]),
                    game=game["game"],
                    result=game.get("result") or "none",
                    change="none" if change is None else _signed(change),
                )
            )
        )
    for game, totals in sorted(profile.get("stats", {}).items()):
        lines.append(
            voice.say(
                Msg(
                    "cli-standing-profile-stats",
                    game=game,
                    played=totals.get("played", 0),
                    won=totals.get("won", 0),
                    lost=totals.get("lost", 0),
                )
            )
        )
    return lines


def _signed(change: int) -> str:
    """+12, -7, 0.

    >>> _signed(12), _signed(-7), _signed(0)
    ('+12', '-7', '0')
    """
    return f"+{change}" if change > 0 else str(change)


def with_standing(plugin: Any, driver: Any) -> Any:
    """The online frame's plugin: the game's, plus reading one's standing."""
    client = driver.client
    return StandingPlugin(
        plugin,
        client.server,
        client.token,
        driver.rules.name,
        lambda: getattr(driver, "table_options", None) or driver.options,
        lambda: client.user.get("name", ""),
    )
