"""The ``zanzibar`` command: one entry point, subcommands dispatched by game.

``zanzibar COMMAND [GAME] [ARGS...]``. Game-specific commands (play, sim,
solve, perft) live in one module per game under ``zanzibar.cli`` and are
imported only when used, so ``zanzibar --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from zanzibar.engine.errors import ZanzibarError
from zanzibar.games import canonical_name

#: (command, game) -> "module:function"; the function takes the remaining argv.
_GAME_COMMANDS: dict[tuple[str, str], str] = {
    ("sim", "421"): "zanzibar.cli.dice421:sim",
    ("solve", "421"): "zanzibar.cli.dice421:solve",
    ("sim", "zilch"): "zanzibar.cli.zilch:sim",
    ("solve", "zilch"): "zanzibar.cli.zilch:solve",
}

#: Commands that take no game argument -> "module:function".
_PLAIN_COMMANDS: dict[str, str] = {
    "serve": "zanzibar.cli.serve:main",
    "replay": "zanzibar.cli.replay:main",
    "ratings": "zanzibar.cli.standing:main",
    "rules": "zanzibar.cli.rules:main",
    "perft": "zanzibar.cli.chess:perft",
    "uci": "zanzibar.cli.uci:main",
}

_USAGE = """\
usage: zanzibar COMMAND ...

commands:
  serve  [--host H] [--port P] [--db URL] [--data-dir D]   start the salon
  play   GAME [options]      play in the terminal (GAME: 421, zilch, zanzibar-s,
                             chess, shako, metamachy)
         GAME --server URL   ... at a table of a running salon
  sim    GAME [options]      simulate all-bot games (421, zilch)
  solve  GAME [options]      exact solvers (421, zilch)
  perft  VARIANT [options]   count chess move-tree nodes
  uci                        chess engine for GUIs (Universal Chess Interface)
  rules  GAME [--preset P] [--lang en|fr]   print a game's rules
  replay ID [--server URL]   replay a finished game
  ratings rebuild [--db URL] [--data-dir D]   recompute every rating from the games

'zanzibar COMMAND --help' shows the options of a command.
"""

#: Games each game command knows (for one-line errors that name them).
_GAMES_OF = {
    "play": ("421", "zilch", "zanzibar-s", "chess", "shako", "metamachy"),
    "sim": ("421", "zilch"),
    "solve": ("421", "zilch"),
}


def _load(target: str) -> Callable[[list[str]], int]:
    module_name, _, function = target.partition(":")
    function_obj: Callable[[list[str]], int] = getattr(
        importlib.import_module(module_name), function
    )
    return function_obj


def dispatch(argv: Sequence[str]) -> int:
    """Run one command; return its exit status."""
    args = list(argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print(_USAGE, end="")
        return 0
    command, rest = args[0], args[1:]
    if command in _PLAIN_COMMANDS:
        return _load(_PLAIN_COMMANDS[command])(rest)
    if command in _GAMES_OF:
        games = ", ".join(_GAMES_OF[command])
        if rest and rest[0] in {"-h", "--help"}:
            return _game_help(command)
        if not rest or rest[0].startswith("-"):
            print(
                f"zanzibar {command}: name a game first ({games}), e.g. 'zanzibar {command} 421'",
                file=sys.stderr,
            )
            return 2
        game = canonical_name(rest[0])
        if command == "play" and game in _GAMES_OF["play"]:
            return _load("zanzibar.cli.play:play")([game, *rest[1:]])
        target = _GAME_COMMANDS.get((command, game))
        if target is None:
            print(
                f"zanzibar {command}: there is no game '{rest[0]}' here; the games are {games}"
                f" (see 'zanzibar {command} --help')",
                file=sys.stderr,
            )
            return 2
        return _load(target)([game, *rest[1:]])
    print(
        f"zanzibar: unknown command '{command}'; the commands are "
        f"{', '.join(['play', 'sim', 'solve', *_PLAIN_COMMANDS])} (see 'zanzibar --help')",
        file=sys.stderr,
    )
    return 2


def _game_help(command: str) -> int:
    """``zanzibar play --help``: the options every game takes; ``sim``/``solve``: which games."""
    if command == "play":
        from zanzibar.cli.play import parser_for

        parser_for("").print_help()
        return 0
    games = ", ".join(_GAMES_OF[command])
    print(f"usage: zanzibar {command} GAME [options]\n\ngames: {games}\n")
    print(f"'zanzibar {command} GAME --help' shows the options of each game.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point."""
    try:
        return dispatch(sys.argv[1:] if argv is None else argv)
    except ZanzibarError as exc:
        words = list(argv if argv is not None else sys.argv[1:])
        command = " ".join(words[: 2 if words[:1] and words[0] in _GAMES_OF else 1])
        hint = f"zanzibar {command} --help" if command else "zanzibar --help"
        print(error_line(exc, hint, lang_of(words)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def lang_of(words: Sequence[str]) -> str:
    """The language asked on the command line (``--lang fr`` or ``--lang=fr``), else English.

    >>> lang_of(["play", "zilch", "--lang", "fr"]), lang_of(["sim", "--lang=fr"]), lang_of([])
    ('fr', 'fr', 'en')
    """
    for i, word in enumerate(words):
        if word == "--lang" and i + 1 < len(words):
            return words[i + 1] if words[i + 1] in ("en", "fr") else "en"
        if word.startswith("--lang="):
            value = word.split("=", 1)[1]
            return value if value in ("en", "fr") else "en"
    return "en"


def error_line(exc: ZanzibarError, hint: str, lang: str) -> str:
    """The one line of a refusal, in ``lang``, with the command whose help to read."""
    from zanzibar.l10n import Msg, Voice

    return Voice(lang).say(Msg("cli-error-line", message=exc.text(lang), hint=hint))


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line with a hint, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        """Print ``zanzibar CMD: MESSAGE (see 'zanzibar CMD --help')`` and exit 2.

        The frame is said in the language of ``--lang`` (argparse's own messages stay English).
        """
        from zanzibar.l10n import Msg, Voice

        line = Voice(lang_of(sys.argv[1:])).say(
            Msg("cli-parser-error", prog=self.prog, message=message, hint=f"{self.prog} --help")
        )
        self.exit(2, line + "\n")


def make_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """A parser for a subcommand, with a uniform program name and one-line errors."""
    return OneLineParser(prog=f"zanzibar {prog}", description=description)


if __name__ == "__main__":
    sys.exit(main())
