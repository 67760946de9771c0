"""``zanzibar uci``: the chess bots behind the Universal Chess Interface.

Chess GUIs, ``cutechess-cli``, ``lichess-bot`` and python-chess's ``chess.engine``
drive the engine through standard input and output. Besides the standard
commands (``uci``, ``isready``, ``ucinewgame``, ``position startpos|fen ...
moves ...``, ``go``, ``stop``, ``quit``) it offers these options:

* ``UCI_Variant`` (combo): ``chess``, ``shako``, ``metamachy``, ``zanzibar-s``
  (the names Fairy-Stockfish uses where it knows the variant; moves are in
  coordinates, ``e11e12q`` on the 12 x 12 board).
* ``Level`` (combo): the bot levels ``easy``, ``casual``, ``medium``, ``hard``.
  Under a clock, ``medium`` and ``hard`` think at most their level's time per
  move; ``easy`` and ``casual`` play as they do at a table.
* ``UCI_LimitStrength`` / ``UCI_Elo``: when on, the level whose measured
  strength is nearest the requested Elo plays (see :data:`LEVEL_ELO`).
* ``Threads`` (accepted for compatibility; the search is single-threaded) and
  ``Hash`` (accepted; the table is bounded by entries).

``go`` takes ``wtime btime winc binc movestogo movetime depth nodes infinite``
(times in milliseconds). The search runs in a thread so that ``stop`` and
``isready`` are answered at once; ``info`` lines report each finished depth.
Bad input is answered by an ``info string`` line and changes nothing.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from zanzibar.engine.errors import ZanzibarError
from zanzibar.games.chess.bots import LEVELS, ChessBot
from zanzibar.games.chess.help import LEVEL_STRENGTH
from zanzibar.games.chess.notation import format_coordinate, parse_coordinate
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import (
    MATE,
    Searcher,
    SearchLimits,
    SearchResult,
    clock_limits,
    is_mate_score,
    mate_in,
)
from zanzibar.games.chess.variant import Variant, load_variant

ENGINE_NAME = "Zanzibar"
ENGINE_AUTHOR = "the Zanzibar project"

#: UCI variant names (as Fairy-Stockfish spells them) -> our variant files.
UCI_VARIANTS: dict[str, str] = {
    "chess": "chess",
    "shako": "shako",
    "metamachy": "metamachy",
    "zanzibar-s": "zanzibar-s",
}

#: Measured orthodox-chess strength of each level (bench/strength.py, README),
#: used to map ``UCI_Elo`` to a level.
LEVEL_ELO: dict[str, int] = {name: est for name, (est, _low, _high) in LEVEL_STRENGTH.items()}
ELO_MIN, ELO_MAX = 500, 2500


class UciEngine:
    """The protocol state: options, position, and the search thread.

    ``write`` receives every output line (without newline); it must be safe
    to call from the search thread.
    """

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.variant_name = "chess"
        self.variant: Variant = load_variant("chess")
        self.level = "hard"
        self.limit_strength = False
        self.elo = 1500
        self.pos = Position(self.variant)
        self.searcher = Searcher(self.variant)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- commands ------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Execute one command line; ``False`` once ``quit`` is read."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "uci":
                self._uci()
            elif command == "isready":
                self.write("readyok")
            elif command == "ucinewgame":
                self._wait()
                self.searcher = Searcher(self.variant)
                self.pos = Position(self.variant)
            elif command == "setoption":
                self._wait()
                self._setoption(args)
            elif command == "position":
                self._wait()
                self._position(args)
            elif command == "go":
                self._wait()
                self._go(args)
            elif command == "stop":
                self._wait(stop=True)
            elif command == "quit":
                self._wait(stop=True)
                return False
            elif command == "d":
                self.write(f"info string fen {self.pos.fen()}")
            else:
                self.write(f"info string unknown command {command!r}")
        except (ZanzibarError, ValueError) as exc:
            message = getattr(exc, "message", None) or str(exc)
            self.write(f"info string error: {message}")
        return True

    def _uci(self) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        variants = " ".join(f"var {name}" for name in UCI_VARIANTS)
        self.write(f"option name UCI_Variant type combo default chess {variants}")
        levels = " ".join(f"var {name}" for name in LEVELS)
        self.write(f"option name Level type combo default hard {levels}")
        self.write("option name Threads type spin default 1 min 1 max 512")
        self.write("option name Hash type spin default 16 min 1 max 33554432")
        self.write("option name Ponder type check default false")
        self.write("option name UCI_LimitStrength type check default false")
        self.write(f"option name UCI_Elo type spin default 1500 min {ELO_MIN} max {ELO_MAX}")
        self.write("uciok")

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise ValueError("expected: setoption name NAME [value VALUE]")
        rest = args[1:]
        if "value" in rest:
            at = rest.index("value")
            name, value = " ".join(rest[:at]), " ".join(rest[at + 1 :])
        else:
            name, value = " ".join(rest), ""
        key = name.lower()
        if key == "uci_variant":
            wanted = value.lower()
            if wanted not in UCI_VARIANTS:
                raise ValueError(f"unknown variant {value!r} (known: {', '.join(UCI_VARIANTS)})")
            self.variant_name = wanted
            self.variant = load_variant(UCI_VARIANTS[wanted])
            self.pos = Position(self.variant)
            self.searcher = Searcher(self.variant)
        elif key == "level":
            if value.lower() not in LEVELS:
                raise ValueError(f"unknown level {value!r} (levels: {', '.join(LEVELS)})")
            self.level = value.lower()
        elif key == "uci_limitstrength":
            self.limit_strength = _parse_bool(value)
        elif key == "uci_elo":
            elo = int(value)
            if not ELO_MIN <= elo <= ELO_MAX:
                raise ValueError(f"UCI_Elo must be between {ELO_MIN} and {ELO_MAX}")
            self.elo = elo
        elif key in ("threads", "hash"):
            if int(value) < 1:
                raise ValueError(f"{name} must be 1 or more")
        elif key == "ponder":
            _parse_bool(value)
        else:
            raise ValueError(f"unknown option {name!r}")

    def _position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected: position startpos|fen FEN [moves ...]")
        if "moves" in args:
            at = args.index("moves")
            head, moves = args[:at], args[at + 1 :]
        else:
            head, moves = args, []
        if head[0] == "startpos" and len(head) == 1:
            pos = Position(self.variant)
        elif head[0] == "fen" and len(head) > 1:
            pos = Position(self.variant, " ".join(head[1:]))
        else:
            raise ValueError("expected: position startpos|fen FEN [moves ...]")
        for text in moves:
            pos.push(parse_coordinate(pos, text))
        self.pos = pos  # only once every move was legal: bad input changes nothing

    def effective_level(self) -> str:
        """The level in force: from ``UCI_Elo`` when strength is limited."""
        if not self.limit_strength:
            return self.level
        return min(LEVEL_ELO, key=lambda name: (abs(LEVEL_ELO[name] - self.elo), name))

    def _go(self, args: list[str]) -> None:
        params = _parse_go(args)
        pos = self.pos.copy()
        level = self.effective_level()
        if not pos.legal_moves():
            self.write("bestmove (none)")
            return
        if level in ("easy", "casual"):
            bot = ChessBot(self.variant, level, seed=random.getrandbits(32))
            move = bot.choose_move(pos)
            self.write(f"bestmove {format_coordinate(pos, move)}")
            return
        limits = self._limits(params, pos.turn, LEVELS[level].seconds)
        self.searcher.stop_requested = False
        self.searcher.on_depth = lambda result: self._info(pos, result)
        thread = threading.Thread(target=self._search, args=(pos, limits), daemon=True)
        with self._lock:
            self._thread = thread
        thread.start()

    def _limits(self, params: dict[str, int], turn: int, level_seconds: float) -> SearchLimits:
        depth = params.get("depth")
        max_depth = min(depth, SearchLimits().max_depth) if depth else SearchLimits().max_depth
        if "infinite" in params:
            return SearchLimits(max_depth=max_depth)
        if "nodes" in params:
            return SearchLimits(max_depth=max_depth, node_limit=max(params["nodes"], 1))
        if "movetime" in params:
            seconds = max(params["movetime"], 1) / 1000
            return SearchLimits(max_depth=max_depth, time_limit=seconds)
        clock = params.get("wtime" if turn > 0 else "btime")
        if clock is not None:
            increment = params.get("winc" if turn > 0 else "binc", 0)
            limits = clock_limits(
                clock / 1000, increment / 1000, params.get("movestogo"), cap=level_seconds
            )
            return SearchLimits(
                max_depth=max_depth,
                time_limit=limits.time_limit,
                soft_time_limit=limits.soft_time_limit,
            )
        if depth:
            return SearchLimits(max_depth=max_depth)
        return SearchLimits(
            max_depth=max_depth, time_limit=level_seconds, soft_time_limit=level_seconds / 2
        )

    def _search(self, pos: Position, limits: SearchLimits) -> None:
        result = self.searcher.search(pos, limits)
        self._info(pos, result)
        self.write(f"bestmove {format_coordinate(pos, result.move)}")

    def _info(self, pos: Position, result: SearchResult) -> None:
        if is_mate_score(result.score):
            score = f"mate {mate_in(result.score)}"
        else:
            score = f"cp {max(min(result.score, MATE), -MATE)}"
        millis = max(int(result.seconds * 1000), 0)
        line = (
            f"info depth {max(result.depth, 1)} score {score} nodes {result.nodes} "
            f"nps {int(result.nodes_per_second)} time {millis}"
        )
        pv = _pv_text(pos, result.pv)
        if pv:
            line += f" pv {pv}"
        self.write(line)

    def _wait(self, stop: bool = False) -> None:
        """Let a running search finish (or stop it first); its bestmove is written."""
        with self._lock:
            thread = self._thread
            self._thread = None
        if thread is None:
            return
        if stop:
            self.searcher.stop_requested = True
        thread.join()


def _pv_text(pos: Position, pv: tuple[int, ...]) -> str:
    """The principal variation in coordinates (stops at the first move not legal)."""
    copy = pos.copy()
    words = []
    for move in pv:
        if move not in copy.legal_moves():
            break
        words.append(format_coordinate(copy, move))
        copy.push(move)
    return " ".join(words)


_GO_INTEGERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes")


def _parse_go(args: list[str]) -> dict[str, int]:
    """``go`` parameters; ``infinite`` and ``ponder`` map to 1. ValueError on bad input."""
    params: dict[str, int] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("infinite", "ponder"):
            params[word] = 1
            i += 1
        elif word in _GO_INTEGERS:
            if i + 1 >= len(args):
                raise ValueError(f"go: {word} needs a number")
            value = int(args[i + 1])
            if word in ("depth", "nodes", "movestogo", "movetime") and value < 0:
                raise ValueError(f"go: {word} must not be negative")
            params[word] = value
            i += 2
        elif word == "searchmoves":
            raise ValueError("go: searchmoves is not supported")
        else:
            raise ValueError(f"go: unknown parameter {word!r}")
    return params


def _parse_bool(value: str) -> bool:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"expected true or false, not {value!r}")


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Read commands until ``quit`` or the end of input."""
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            stdout.write(line + "\n")
            stdout.flush()

    engine = UciEngine(write)
    for line in stdin:
        if not engine.handle(line):
            break
    else:
        engine.handle("quit")
    return 0


def main(argv: list[str]) -> int:
    """``zanzibar uci``: speak UCI on standard input and output."""
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv:
        print(f"zanzibar uci: takes no arguments (got {' '.join(argv)!r})", file=sys.stderr)
        return 2
    return serve(sys.stdin, sys.stdout)
