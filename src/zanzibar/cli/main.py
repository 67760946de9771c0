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

from zanzibar.engine.errors import ZanzibarError
from zanzibar.games import canonical_name

#: (command, game) -> "module:function"; the function takes the remaining argv.
_GAME_COMMANDS: dict[tuple[str, str], str] = {
    ("play", "421"): "zanzibar.cli.dice421:play",
    ("sim", "421"): "zanzibar.cli.dice421:sim",
    ("solve", "421"): "zanzibar.cli.dice421:solve",
    ("play", "zilch"): "zanzibar.cli.zilch:play",
    ("sim", "zilch"): "zanzibar.cli.zilch:sim",
    ("solve", "zilch"): "zanzibar.cli.zilch:solve",
    ("play", "zanzibar-s"): "zanzibar.cli.chess_play:play",
    ("play", "chess"): "zanzibar.cli.chess_play:play",
    ("play", "shako"): "zanzibar.cli.chess_play:play",
    ("play", "metamachy"): "zanzibar.cli.chess_play:play",
}

#: Commands that take no game argument -> "module:function".
_PLAIN_COMMANDS: dict[str, str] = {
    "serve": "zanzibar.cli.serve:main",
    "replay": "zanzibar.cli.replay:main",
    "rules": "zanzibar.cli.rules:main",
    "perft": "zanzibar.cli.chess:perft",
    "uci": "zanzibar.cli.uci:main",
}

_USAGE = """\
usage: zanzibar COMMAND ...

commands:
  serve  [--host H] [--port P] [--db URL] [--data-dir D]   start the salon
  play   GAME [options]      play in the terminal (GAME: 421, zilch, zanzibar-s)
         GAME --server URL   ... at a table of a running salon
  sim    GAME [options]      simulate all-bot games
  solve  GAME [options]      exact solvers (421, zilch)
  perft  VARIANT [options]   count chess move-tree nodes
  uci                        chess engine for GUIs (Universal Chess Interface)
  rules  GAME [--preset P] [--lang en|fr]   print a game's rules
  replay ID [--server URL]   replay a finished game

'zanzibar COMMAND GAME --help' shows the options of a command.
"""


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
    if command in {"play", "sim", "solve"}:
        if not rest or rest[0].startswith("-"):
            print(
                f"zanzibar {command}: name a game first, e.g. 'zanzibar {command} 421'",
                file=sys.stderr,
            )
            return 2
        game = canonical_name(rest[0])
        if command == "play" and any(a == "--server" or a.startswith("--server=") for a in rest):
            # online play: the same terminal client, with a driver talking to a salon
            return _load("zanzibar.cli.online:play")([game, *rest[1:]])
        target = _GAME_COMMANDS.get((command, game))
        if target is None:
            print(f"zanzibar {command}: no such command for game '{rest[0]}'", file=sys.stderr)
            return 2
        return _load(target)([game, *rest[1:]])
    print(f"zanzibar: unknown command '{command}'\n\n{_USAGE}", file=sys.stderr, end="")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point."""
    try:
        return dispatch(sys.argv[1:] if argv is None else argv)
    except ZanzibarError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def make_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """A parser for a subcommand, with a uniform program name."""
    return argparse.ArgumentParser(prog=f"zanzibar {prog}", description=description)


if __name__ == "__main__":
    sys.exit(main())
