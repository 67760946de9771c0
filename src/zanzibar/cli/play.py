"""``zanzibar play GAME``: every game through the one terminal frame, offline or online.

The same options for every game (``--seed --bots --level --lang --name
--delay --layout``), the game's own (rules for the dice games, colour and
node budget for chess), and ``--server`` to play at a salon's table. Input:
single keys in a terminal, one typed command a line from a pipe, or a
script (``--script FILE``: keys, typed lines and ``tick`` for one bot step,
the bots moving only on ``tick``; the golden transcripts use it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zanzibar.cli.frame.drivers import HotSeatDriver, LocalDriver
from zanzibar.cli.frame.loop import Frame
from zanzibar.cli.frame.plugin import GamePlugin
from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.i18n import LANGUAGES
from zanzibar.engine.match import Match
from zanzibar.engine.rules import Bot, GameRules
from zanzibar.games import get_rules
from zanzibar.l10n import Voice

#: The games ``play`` knows, as typed on the command line.
DICE_GAMES = ("421", "zilch")
CHESS_GAMES = ("zanzibar-s", "chess", "shako", "metamachy")
#: Bots: (fewest, most, default) per game family.
_BOTS = {"421": (1, 9, 2), "zilch": (1, 7, 1), "chess": (0, 2, 1)}


def family(game: str) -> str:
    """``421``, ``zilch`` or ``chess``."""
    return game if game in DICE_GAMES else "chess"


def parser_for(game: str) -> argparse.ArgumentParser:
    """The options of ``zanzibar play GAME`` (``GAME`` empty: the options of every game)."""
    from zanzibar.cli.online import add_online_arguments

    kind = family(game) if game else ""
    title = f"play {game}" if game else "play"
    parser = make_parser(
        f"{title} GAME" if not game else title,
        "Play in the terminal against bots, or at a salon's table with --server. "
        "One line per event; F1 for the keys. Games: " + ", ".join(DICE_GAMES + CHESS_GAMES) + ".",
    )
    parser.add_argument("game", help="the game: " + ", ".join(DICE_GAMES + CHESS_GAMES))
    if kind:
        low, high, default = _BOTS[kind]
        bots_help = f"bot players ({low}-{high}, default {default})"
    else:
        bots_help = "bot players (421: 1-9, zilch: 1-7, chess: 0-2; online: 0-9)"
    parser.add_argument("--bots", type=int, default=None, help=bots_help)
    parser.add_argument(
        "--level", default=None, help="the bots' level (default: the game's usual one)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="dice and bots seed: a replayable game"
    )
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language (en or fr)")
    parser.add_argument("--delay", type=float, default=0.4, help="seconds between bot steps")
    parser.add_argument(
        "--layout",
        choices=("auto", "qwerty", "azerty"),
        default="auto",
        help="keyboard layout for the digit keys (auto: AZERTY from the first é or &)",
    )
    parser.add_argument(
        "--script", metavar="FILE", help="inputs from FILE: keys, typed lines, 'tick' (bot steps)"
    )
    if kind in ("", "421", "zilch"):
        parser.add_argument("--preset", default=None, help="rule preset (421, zilch)")
        parser.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE", help="change one rule"
        )
    if kind in ("", "chess"):
        parser.add_argument(
            "--color", "--colour", choices=("white", "black"), default="white", help="your side"
        )
        parser.add_argument("--nodes", type=int, default=None, help="bot node budget per move")
        parser.add_argument("--default-setup", action="store_true", help="skip the setup choice")
        parser.add_argument("--max-moves", type=int, default=None, help="stop after N moves")
        parser.add_argument("--variant-file", default=None, help="a chess variant's TOML file")
    add_online_arguments(parser)
    return parser


@dataclass
class Game:
    """A local game ready for the frame."""

    driver: LocalDriver
    plugin: GamePlugin
    title: str
    seed: int | None


#: First names for the bots: names, not words, the same in every language.
BOT_NAMES = ("Anna", "Bruno", "Chloé", "David", "Emma", "Félix", "Gaby", "Hugo", "Inès")


def bot_names(lang: str, count: int, human: str) -> list[str]:
    """First names for bots (never the human's)."""
    return [n for n in BOT_NAMES if n != human][:count]


def _options(rules: GameRules[Any, Any], args: argparse.Namespace) -> dict[str, Any]:
    overrides = rules.options.parse_assignments(getattr(args, "option", []) or [])
    if getattr(args, "default_setup", False) and any(
        spec.name == "setup" for spec in rules.options.specs
    ):
        overrides["setup"] = "default"
    resolved: dict[str, Any] = rules.options.resolve(getattr(args, "preset", None), overrides)
    return resolved


def _level(rules: GameRules[Any, Any], level: str | None) -> str:
    levels = list(rules.bot_levels())
    chosen = level or levels[0]
    if chosen not in levels:
        raise ZanzibarError(f"unknown bot level '{chosen}' (levels: {', '.join(levels)})")
    return chosen


def local_game(game: str, args: argparse.Namespace) -> Game:
    """Build the match, the bots and the plugin of a local game."""
    kind = family(game)
    low, high, default = _BOTS[kind]
    bots_count = default if args.bots is None else args.bots
    if not low <= bots_count <= high:
        raise ZanzibarError(f"--bots must be between {low} and {high} for {game}")
    rules: GameRules[Any, Any]
    if kind == "chess" and args.variant_file:
        from zanzibar.games.chess.rules import ChessRules
        from zanzibar.games.chess.variant import load_variant_file

        rules = ChessRules(load_variant_file(args.variant_file))
    else:
        rules = get_rules(game)
    options = _options(rules, args)
    level = _level(rules, args.level)
    lang = args.lang
    you = args.name or Voice(lang).text("cli-you")
    title = rules.title.get(lang) or rules.title.get("en") or rules.name
    if kind == "chess":
        return _chess_game(rules, options, level, bots_count, args, you, title)
    match: Match[Any, Any] = Match(rules, bots_count + 1, options, args.seed)
    seed = match.rng.seed
    names = [you, *bot_names(lang, bots_count, you)]
    bots = {s: _make_bot(rules, level, options, seed + s, None) for s in range(1, bots_count + 1)}
    return Game(LocalDriver(match, bots, 0, names), plugin_for(rules), title, args.seed)


def _make_bot(
    rules: GameRules[Any, Any], level: str, options: Any, seed: int, nodes: int | None
) -> Bot[Any, Any]:
    if nodes is not None:
        from zanzibar.games.chess.bots import make_bot

        bot: Bot[Any, Any] = make_bot(rules, level, options, seed, node_limit=nodes)
        return bot
    return rules.make_bot(level, options, seed=seed)


def _chess_game(
    rules: GameRules[Any, Any],
    options: dict[str, Any],
    level: str,
    bots_count: int,
    args: argparse.Namespace,
    you: str,
    title: str,
) -> Game:
    from zanzibar.cli.games.chess import ChessPlugin

    seed = args.seed if args.seed is not None else 0
    match: Match[Any, Any] = Match(rules, 2, options, seed=seed)
    human = 0 if args.color == "white" else 1
    voice = Voice(args.lang)
    if bots_count == 0:
        names = [voice.text("cli-player", n=1), voice.text("cli-player", n=2)]
        bot_seats: list[int] = []
    elif bots_count == 1:
        names = ["", ""]
        names[human] = you
        names[1 - human] = bot_names(args.lang, 1, you)[0]
        bot_seats = [1 - human]
    else:
        names = bot_names(args.lang, 2, you)
        bot_seats = [0, 1]
    bots = {s: _make_bot(rules, level, options, seed + s, args.nodes) for s in bot_seats}
    driver_class = HotSeatDriver if bots_count == 0 else LocalDriver
    driver = driver_class(match, bots, human, names, max_moves=args.max_moves)
    from typing import cast

    from zanzibar.games.chess.rules import ChessRules

    return Game(driver, ChessPlugin(cast(ChessRules, rules)), title, args.seed)


def intro_lines(game: Game, lang: str) -> list[str]:
    """The first lines: the game and its players, and the seed when one was given."""
    voice = Voice(lang)
    lines = [voice.text("cli-intro", game=game.title, players=voice.join(list(game.driver.names)))]
    if game.seed is not None:
        lines.append(voice.text("cli-intro-seed", seed=str(game.seed)))
    return lines


def plugin_for(rules: GameRules[Any, Any]) -> GamePlugin:
    """The terminal plugin of a game."""
    if rules.name == "421":
        from zanzibar.cli.games.dice421 import Dice421Plugin

        return Dice421Plugin()
    if rules.name == "zilch":
        from zanzibar.cli.games.zilch import ZilchPlugin

        return ZilchPlugin()
    from typing import cast

    from zanzibar.cli.games.chess import ChessPlugin
    from zanzibar.games.chess.rules import ChessRules

    return ChessPlugin(cast(ChessRules, rules))


def run_frame(
    frame: Frame,
    script: Sequence[str] | None = None,
    stdin: Any = None,
    lines: Sequence[str] | None = None,
) -> int:
    """Run the frame on a script (manual clock), typed lines, a terminal (keys) or a pipe."""
    from zanzibar.cli.frame.inputs import PipeLines, Script, TerminalKeys, cbreak

    async def main() -> int:
        if script is not None:
            return await frame.run(Script(script, echo=frame.output), auto_bots=False)
        if lines is not None:
            return await frame.run(Script(lines), wait_idle=True)
        stream = stdin or sys.stdin
        if stream.isatty():
            fd = stream.fileno()
            with cbreak(fd):
                return await frame.run(TerminalKeys(fd))
        frame.delay = 0.0
        return await frame.run(PipeLines(stream), wait_idle=True)

    return asyncio.run(main())


def play(argv: list[str], output: Callable[[str], None] | None = None) -> int:
    """``zanzibar play GAME [options]``: the exit status (0: the game ended)."""
    game = argv[0] if argv and not argv[0].startswith("-") else ""
    parser = parser_for(game)
    args = parser.parse_args(argv)
    if args.server:
        from zanzibar.cli.online import play_online

        if args.bots is not None and not 0 <= args.bots <= 9:
            parser.error("--bots must be between 0 and 9 at a salon's table")
        return play_online(get_rules(args.game), args)
    try:
        built = local_game(args.game, args)
    except ZanzibarError as exc:  # a bad option or level: one line, with the hint
        parser.error(exc.text(args.lang))
    say_line = output or (lambda line: print(line, flush=True))
    frame = Frame(
        built.driver,
        built.plugin,
        lang=args.lang,
        output=say_line,
        layout=args.layout,
        delay=args.delay,
        echo=_echo if not args.script and sys.stdin.isatty() else None,
    )
    script = None
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as handle:
                script = handle.read().splitlines()
        except OSError as exc:
            raise ZanzibarError(f"cannot read the script {args.script}: {exc.strerror}") from None
    try:
        for line in intro_lines(built, args.lang):
            say_line(line)
        return run_frame(frame, script)
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, as command-line tools do
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces a dead stream
        return 1


def _echo(text: str) -> None:
    """Show what the player types on a command line (the terminal does not echo in cbreak)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def unknown_game_line(game: str) -> str:
    """One line naming the games (for ``zanzibar play 422``)."""
    games = ", ".join(DICE_GAMES + CHESS_GAMES)
    return f"zanzibar play: there is no game '{game}'; the games are {games} (see 'zanzibar play --help')"
