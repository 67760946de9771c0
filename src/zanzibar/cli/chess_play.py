"""``zanzibar play zanzibar-s|chess|shako|metamachy``: chess in the terminal, line by line.

Built for screen readers: everything is a typed command on one line and every
answer and every move is one printed sentence, so the game reads the same in
a terminal, through a pipe (tests) or a braille display. It runs on the
generic :mod:`zanzibar.cli.terminal` client (a local Match, bots on their
seats) with the chess GameRules; this module adds the chess commands:

* ``board``: the whole board, rank by rank, from your side, in words;
  ``rank 3``: one rank; ``file e``: one file; ``square e4`` or just ``e4``:
  one square (a bare square always *reads* the square; to move a Pawn there,
  type ``e2e4`` or ``Pe4``).
* a move in coordinates (``f2h4``, ``e11e12q``, also ``f2 h4``) or algebraic notation
  (``Zxe4``, ``exd5``, ``e12=G``, ``O-O``; capital letters are pieces).
* during the setup (Zanzibar-S, Metamachy), the player choosing sees every
  arrangement in words and types its number (``12``, or ``setup 12``, or the
  layout ``setup KQGL UF``); ``arrangements`` lists them again.
* ``moves`` (legal moves), ``history``, ``last``, ``fen``, ``resign``,
  ``draw`` (offer; bots never accept), and the generic ``help``, ``rules``,
  ``scores``, ``turn``, ``status``, ``quit``.

Options: ``--bots 0|1|2`` (0: two players take turns at one keyboard; 2: watch
two bots), ``--level``, ``--seed``, ``--lang en|fr``, ``--color white|black``,
``--nodes N`` (bots search N nodes per move instead of a time: same game on
any machine), ``--default-setup`` (skip the setup choice), ``--max-moves N``
(stop after N moves, for watching bots), ``--variant-file FILE``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from zanzibar.cli.main import make_parser
from zanzibar.cli.terminal import Driver, LocalDriver, Reply, Session, TerminalClient
from zanzibar.engine.errors import CorruptDataError, IllegalActionError, ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.i18n import LANGUAGES, Catalogue, join_words, translate
from zanzibar.engine.match import Match
from zanzibar.engine.rules import Bot
from zanzibar.games import get_rules
from zanzibar.games.chess.bots import bot_levels, make_bot
from zanzibar.games.chess.fen import parse_square, square_name
from zanzibar.games.chess.notation import colour_piece, format_san, piece_name
from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.setup import arrangements, placements
from zanzibar.games.chess.variant import Variant, load_variant_file

_TEXT: Catalogue = {
    "en": {
        "you": "You",
        "bot": "Bot",
        "player": "Player {n}",
        "empty": "empty",
        "rank": "Rank {rank}: {content}.",
        "file": "File {file}: {content}.",
        "run": "{first} to {last} empty",
        "no_rank": "There is no rank {rank}: ranks go from 1 to {last}.",
        "no_file": "There is no file {file}: files go from a to {last}.",
        "choose": "Choose the arrangement of your central pieces: type its number (0 to {last}).",
        "arrangement": "{number}: {placements}.",
        "your_move": "Your move, {colour}.",
        "white": "White",
        "black": "Black",
        "not_setup": "The arrangement is already chosen.",
        "in_setup": "First choose the arrangement (type a number, or arrangements to hear them).",
        "last": "Last move: {move}",
        "no_last": "No move played yet.",
        "stopped": "Stopped after {moves} moves, as asked.",
        "input_ended": "Input ended before the game did.",
        "h_board": "the whole board, rank by rank, from your side",
        "h_rank": "one rank: rank 3",
        "h_file": "one file: file e",
        "h_square": "one square: square e4, or just e4",
        "h_move": "play a move: f2h4, e11e12q, Zxe4, Pe4, e12=G, O-O",
        "h_moves": "your legal moves",
        "h_arrangements": "the setup arrangements, numbered (setup phase)",
        "h_setup": "choose an arrangement: 12, setup 12, setup KQGL UF",
        "h_history": "the moves so far",
        "h_last": "the last move",
        "h_fen": "the position as FEN",
        "h_resign": "resign the game",
        "h_draw": "offer a draw, or accept the one offered",
        "help_game": "Chess commands (one per line):",
    },
    "fr": {
        "you": "Vous",
        "bot": "Robot",
        "player": "Joueur {n}",
        "empty": "vide",
        "rank": "Rangée {rank} : {content}.",
        "file": "Colonne {file} : {content}.",
        "run": "{first} à {last} vides",
        "no_rank": "Il n'y a pas de rangée {rank} : elles vont de 1 à {last}.",
        "no_file": "Il n'y a pas de colonne {file} : elles vont de a à {last}.",
        "choose": "Choisissez la disposition de vos pièces centrales : tapez son numéro (0 à {last}).",
        "arrangement": "{number} : {placements}.",
        "your_move": "À vous de jouer, {colour}.",
        "white": "Blancs",
        "black": "Noirs",
        "not_setup": "La disposition est déjà choisie.",
        "in_setup": "Choisissez d'abord la disposition (tapez un numéro, ou arrangements pour les entendre).",
        "last": "Dernier coup : {move}",
        "no_last": "Aucun coup joué pour l'instant.",
        "stopped": "Arrêt après {moves} coups, comme demandé.",
        "input_ended": "L'entrée s'est terminée avant la partie.",
        "h_board": "tout l'échiquier, rangée par rangée, de votre côté",
        "h_rank": "une rangée : rank 3",
        "h_file": "une colonne : file e",
        "h_square": "une case : square e4, ou simplement e4",
        "h_move": "jouer un coup : f2h4, e11e12q, Zxe4, Pe4, e12=G, O-O",
        "h_moves": "vos coups légaux",
        "h_arrangements": "les dispositions de départ, numérotées (phase de placement)",
        "h_setup": "choisir une disposition : 12, setup 12, setup KQGL UF",
        "h_history": "les coups joués",
        "h_last": "le dernier coup",
        "h_fen": "la position en FEN",
        "h_resign": "abandonner la partie",
        "h_draw": "proposer la nulle, ou accepter celle qui est proposée",
        "help_game": "Commandes des échecs (une par ligne) :",
    },
}

#: The chess commands and their help keys, in the order help lists them.
_COMMANDS: tuple[tuple[str, str], ...] = (
    ("board", "h_board"),
    ("rank N", "h_rank"),
    ("file X", "h_file"),
    ("square XN", "h_square"),
    ("MOVE", "h_move"),
    ("moves", "h_moves"),
    ("arrangements", "h_arrangements"),
    ("setup N", "h_setup"),
    ("history", "h_history"),
    ("last", "h_last"),
    ("fen", "h_fen"),
    ("resign", "h_resign"),
    ("draw", "h_draw"),
)


def _t(lang: str, key: str, **values: Any) -> str:
    return translate(_TEXT, lang, key, **values)


# -- reading the board in words ------------------------------------------------------------


def _content(variant: Variant, code: int, lang: str) -> str:
    if not code:
        return _t(lang, "empty")
    letter = variant.pieces[abs(code) - 1].letter
    return colour_piece(variant, "white" if code > 0 else "black", letter, lang)


def _line_words(variant: Variant, board: Sequence[int], squares: Sequence[int], lang: str) -> str:
    """Squares in order, runs of empty squares merged ("c3 to h3 empty")."""
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) == 1:
            parts.append(f"{square_name(variant, run[0])} {_t(lang, 'empty')}")
        elif run:
            first, last = square_name(variant, run[0]), square_name(variant, run[-1])
            parts.append(_t(lang, "run", first=first, last=last))
        run.clear()

    for square in squares:
        if board[square]:
            flush()
            parts.append(f"{square_name(variant, square)} {_content(variant, board[square], lang)}")
        else:
            run.append(square)
    flush()
    return ", ".join(parts)


def describe_rank(variant: Variant, board: Sequence[int], rank: int, lang: str) -> str:
    """One rank in words (``rank`` counted from 1).

    >>> from zanzibar.games.chess.variant import load_variant
    >>> from zanzibar.games.chess.position import Position
    >>> v = load_variant("chess")
    >>> describe_rank(v, Position(v).board, 2, "en")[:45]
    'Rank 2: a2 White Pawn, b2 White Pawn, c2 Whit'
    >>> describe_rank(v, Position(v).board, 4, "fr")
    'Rangée 4 : a4 à h4 vides.'
    """
    if not 1 <= rank <= variant.ranks:
        raise IllegalActionError(_t(lang, "no_rank", rank=rank, last=variant.ranks))
    squares = [(rank - 1) * variant.files + f for f in range(variant.files)]
    return _t(lang, "rank", rank=rank, content=_line_words(variant, board, squares, lang))


def describe_file(variant: Variant, board: Sequence[int], file: str, lang: str) -> str:
    """One file in words, from rank 1 upwards."""
    index = ord(file.lower()) - ord("a") if len(file) == 1 else -1
    if not 0 <= index < variant.files:
        raise IllegalActionError(
            _t(lang, "no_file", file=file, last=chr(ord("a") + variant.files - 1))
        )
    squares = [r * variant.files + index for r in range(variant.ranks)]
    return _t(lang, "file", file=file.lower(), content=_line_words(variant, board, squares, lang))


def describe_arrangement(variant: Variant, index: int, lang: str) -> str:
    """``12: King on f12, Queen on g12, ...`` in words."""
    parts = [
        f"{piece_name(variant, letter, lang)} {'en' if lang == 'fr' else 'on'} {square}"
        for letter, square in placements(variant, index)
    ]
    return _t(lang, "arrangement", number=index, placements=join_words(parts, lang))


# -- the commands -----------------------------------------------------------------------------


class ChessCommands:
    """The chess commands for :class:`~zanzibar.cli.terminal.TerminalClient`."""

    def __init__(self, rules: ChessRules) -> None:
        self.rules = rules

    def bindings(self) -> Sequence[Any]:
        """No single keys: chess is played with typed commands only."""
        return ()

    def command_help(self) -> Sequence[tuple[str, Mapping[str, str]]]:
        """Every chess command with one line of help per language."""
        return [(name, {lang: _t(lang, key) for lang in LANGUAGES}) for name, key in _COMMANDS]

    def on_events(self, events: Sequence[Event], session: Session) -> None:
        """Nothing to reset between events."""

    def _board(self, state: Any) -> list[int]:
        if state.phase == "setup":
            from zanzibar.games.chess.fen import parse_fen

            return parse_fen(self.rules.variant, state.start_fen, allow_missing_royal=True).board
        return self.rules.position(state).board

    def run(self, command: str, args: list[str], session: Session) -> Reply | None:
        """Handle one chess command (``None`` when the words are not a command)."""
        rules, lang, state = self.rules, session.lang, session.state
        variant = rules.variant_for(state)
        if command == "board":
            return Reply(tuple(session.describe("board").splitlines()))
        if command == "rank" and len(args) == 1:
            if not args[0].isdigit():
                raise IllegalActionError(_t(lang, "no_rank", rank=args[0], last=variant.ranks))
            return Reply((describe_rank(variant, self._board(state), int(args[0]), lang),))
        if command == "file" and len(args) == 1:
            return Reply((describe_file(variant, self._board(state), args[0], lang),))
        if command == "square" and len(args) == 1:
            return Reply((session.describe(f"square:{args[0]}"),))
        if not args and _is_square(variant, command):
            return Reply((session.describe(f"square:{command}"),))
        if command in ("arrangements", "setup") or (command.isdigit() and not args):
            return self._setup(command, args, session)
        if state.phase == "setup" and command in ("moves", "history", "last", "fen"):
            return Reply((_t(lang, "in_setup"),))
        if command in ("moves", "history") and not args:
            return Reply((session.describe(command),))
        if command == "last" and not args:
            return Reply((self._last(state, lang),))
        if command == "fen" and not args:
            return Reply((rules.position(state).fen(),))
        if command in ("resign", "draw") and not args:
            return Reply(action=rules.action_from_json({"type": command}))
        return None

    def _setup(self, command: str, args: list[str], session: Session) -> Reply:
        rules, lang, state = self.rules, session.lang, session.state
        if state.phase != "setup":
            raise IllegalActionError(_t(lang, "not_setup"))
        if command == "arrangements":
            return Reply(tuple(arrangement_lines(rules.variant, lang)))
        choice = " ".join(args) if command == "setup" else command
        if not choice:
            return Reply(tuple(arrangement_lines(rules.variant, lang)))
        return Reply(action=rules.action_from_json({"type": "setup", "arrangement": choice}))

    def _last(self, state: Any, lang: str) -> str:
        if not state.moves:
            return _t(lang, "no_last")
        pos = self.rules.position(state)
        move = pos.pop()
        return _t(lang, "last", move=format_san(pos, move))

    def move_action(self, text: str) -> Any:
        """The action of a typed move (checked when the rules apply it)."""
        return self.rules.action_from_json({"type": "move", "move": text})


def arrangement_lines(variant: Variant, lang: str) -> list[str]:
    """The prompt and every setup arrangement in words, one per line."""
    count = len(arrangements(variant))
    lines = [_t(lang, "choose", last=count - 1)]
    lines.extend(describe_arrangement(variant, i, lang) for i in range(count))
    return lines


def _is_square(variant: Variant, text: str) -> bool:
    try:
        parse_square(variant, text)
    except CorruptDataError:
        return False
    return True


# -- the client ---------------------------------------------------------------------------------


class ChessClient(TerminalClient):
    """The generic client, with chess words: moves keep their case, prompts after each turn."""

    def __init__(
        self,
        driver: Driver,
        commands: ChessCommands,
        lang: str = "en",
        max_moves: int | None = None,
    ) -> None:
        super().__init__(driver, commands, lang=lang, interactive=False)
        self.chess = commands
        self.max_moves = max_moves

    def help_lines(self) -> list[str]:
        """The game's own help text, then every typed command."""
        lines = self.driver.rules.help_text(self.lang).rstrip("\n").splitlines()
        lines.append(_t(self.lang, "help_game"))
        for name, help_ in (*self.commands.command_help(), *_generic_help()):
            lines.append(f"  {name}: {help_.get(self.lang) or help_.get('en', '')}")
        return lines

    def execute(self, line: str) -> bool:
        """Commands first; any other line is a move, typed with its capitals kept."""
        words = line.strip().split()
        if not words:
            return True
        known = {"help", "?", "aide", "rules", "regles", "règles", "scores", "turn", "status"}
        known |= {"quit", "exit"}
        try:
            reply = None
            if words[0].lower() not in known:
                reply = self.chess.run(words[0].lower(), words[1:], self.session)
        except ZanzibarError as exc:
            self._output(exc.message)
            return True
        if reply is None and words[0].lower() not in known:
            if self.session.state.phase == "setup":
                self._output(_t(self.lang, "in_setup"))
                return True
            try:
                action = self.chess.move_action("".join(words))  # "e2 e4" is e2e4
            except ZanzibarError as exc:
                self._output(exc.message)
                return True
            self._submit_and_prompt(action)
            return True
        if reply is not None:
            for text in reply.lines:
                self._output(text)
            if reply.action is not None:
                self._submit_and_prompt(reply.action)
            return True
        return super().execute(line)

    def _submit_and_prompt(self, action: Any) -> None:
        before = self.session.state
        self._submit(action)
        if self.session.state != before:
            self._prompt()

    def _prompt(self) -> None:
        """Tell the human it is their turn (and what to choose in the setup)."""
        if self.driver.is_over() or not self.session.my_turn:
            return
        state = self.session.state
        if state.phase == "setup":
            for text in arrangement_lines(self.chess.rules.variant, self.lang):
                self._output(text)
            return
        colour = "white" if self.chess.rules.position(state).turn > 0 else "black"
        self._output(_t(self.lang, "your_move", colour=_t(self.lang, colour)))

    def _stopped(self) -> bool:
        state = self.session.state
        return self.max_moves is not None and len(state.moves) >= self.max_moves

    def run(self, lines: Iterable[str] | None = None) -> int:
        """Play until the game ends or stops at ``max_moves`` (0), or the player quits or input ends (1)."""
        self.show_events(self.driver.advance())
        if self.driver.is_over():
            return self._finish()
        if self._stopped():
            self._output(_t(self.lang, "stopped", moves=len(self.session.state.moves)))
            return 0
        self._prompt()
        source = iter(lines) if lines is not None else iter(sys.stdin)
        for line in source:
            if not self.execute(line):
                return 1
            if self.driver.is_over():
                return self._finish()
            if self._stopped():
                self._output(_t(self.lang, "stopped", moves=len(self.session.state.moves)))
                return 0
        self._output(_t(self.lang, "input_ended"))
        return 1


class CappedDriver(LocalDriver):
    """A local driver whose bots stop once ``max_moves`` moves have been played."""

    def __init__(
        self,
        match: Match[Any, Any],
        bots: Mapping[int, Bot[Any, Any]],
        seat: int,
        names: Sequence[str],
        max_moves: int | None = None,
    ) -> None:
        super().__init__(match, bots, seat, names)
        self.max_moves = max_moves

    def advance(self) -> list[Event]:
        """Bots play until the human must act, the game ends or the cap is reached."""
        events = self._fresh_events()
        while not self.match.is_over:
            if self.max_moves is not None and len(self.match.state.moves) >= self.max_moves:
                break
            seat = self.match.to_act
            if seat is None or seat not in self.bots:
                break
            self.match.act(seat, self.bots[seat].choose(self.match.state))
            events.extend(self._fresh_events())
        return events


class HotSeatCappedDriver(CappedDriver):
    """Two people at one keyboard: the human seat is whoever must act."""

    @property
    def seat(self) -> int:
        """The seat to act (White's once the game is over)."""
        to_act = self.match.to_act
        return to_act if to_act is not None else 0

    @seat.setter
    def seat(self, value: int) -> None:
        """The seat follows the turn; nothing to store."""


def _generic_help() -> list[tuple[str, Mapping[str, str]]]:
    return [
        ("help", {"en": "this list", "fr": "cette liste"}),
        ("rules", {"en": "the rules in force", "fr": "les règles en vigueur"}),
        ("scores", {"en": "material on each side", "fr": "le matériel de chaque camp"}),
        ("turn", {"en": "whose turn it is", "fr": "à qui est le tour"}),
        ("status", {"en": "check, last move, draw offer", "fr": "échec, dernier coup, nulle"}),
        ("quit", {"en": "leave the game", "fr": "quitter la partie"}),
    ]


# -- the command ------------------------------------------------------------------------------


def _parser(variant_name: str) -> argparse.ArgumentParser:
    parser = make_parser(
        f"play {variant_name}", "Play chess variants in the terminal, one line per event."
    )
    parser.add_argument("variant")
    parser.add_argument(
        "--bots", type=int, choices=(0, 1, 2), default=1, help="bot players (0: two humans)"
    )
    parser.add_argument("--level", default=None, help=f"bot level ({', '.join(bot_levels())})")
    parser.add_argument("--seed", type=int, default=0, help="bot seed (replayable games)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--color", "--colour", choices=("white", "black"), default="white")
    parser.add_argument("--nodes", type=int, default=None, help="bot node budget per move")
    parser.add_argument("--default-setup", action="store_true", help="skip the setup choice")
    parser.add_argument("--max-moves", type=int, default=None, help="stop after N moves")
    parser.add_argument("--variant-file", default=None, help="a variant's TOML file")
    parser.add_argument("--name", default=None, help="your name")
    return parser


def _rules(args: argparse.Namespace) -> ChessRules:
    if args.variant_file:
        return ChessRules(load_variant_file(args.variant_file))
    rules = get_rules(args.variant)
    if not isinstance(rules, ChessRules):
        raise ZanzibarError(f"{args.variant} is not a chess variant")
    return rules


def play(argv: list[str]) -> int:
    """``zanzibar play VARIANT ...``: play chess in the terminal; the exit status."""
    args = _parser(argv[0] if argv else "chess").parse_args(argv)
    rules = _rules(args)
    level = args.level or bot_levels()[0]
    if level not in bot_levels():
        raise ZanzibarError(f"unknown level {level!r} (levels: {', '.join(bot_levels())})")
    overrides = (
        {"setup": "default"} if args.default_setup and "setup" in _option_names(rules) else {}
    )
    options = rules.options.resolve(overrides=overrides)
    match: Match[Any, Any] = Match(rules, 2, options, seed=args.seed)
    human = 0 if args.color == "white" else 1
    lang = args.lang
    if args.bots == 0:
        names = [_t(lang, "player", n=1), _t(lang, "player", n=2)]
        bot_seats: list[int] = []
    elif args.bots == 1:
        names = ["", ""]
        names[human] = args.name or _t(lang, "you")
        names[1 - human] = _t(lang, "bot")
        bot_seats = [1 - human]
    else:
        names = [f"{_t(lang, 'bot')} 1", f"{_t(lang, 'bot')} 2"]
        bot_seats = [0, 1]
    bots: dict[int, Bot[Any, Any]] = {
        seat: make_bot(rules, level, options, args.seed + seat, node_limit=args.nodes)
        for seat in bot_seats
    }
    driver_class = HotSeatCappedDriver if args.bots == 0 else CappedDriver
    driver = driver_class(match, bots, human, names, max_moves=args.max_moves)
    client = ChessClient(cast(Driver, driver), ChessCommands(rules), lang, args.max_moves)
    return client.run()


def _option_names(rules: ChessRules) -> set[str]:
    return {spec.name for spec in rules.options.specs}
