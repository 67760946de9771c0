"""Chess variants in the terminal frame: moves are typed, the board is read in words.

Chess is ``line_first``: any printable key starts a typed line (a move like
``e2e4``, ``Zxe4`` or ``a8``, or a command), except S, T and lowercase q on
an empty line, which act at once as in every game; F1, Ctrl+F1 and the
other function keys are keys, never moves. A bare square is a Pawn's move
when one Pawn can go there (``a8`` promotes to the first piece offered),
and otherwise reads the square; ``?a8`` or ``square a8`` always reads it.
In French, pieces have French letters (R Roi, D Dame, T Tour, F Fou, C
Cavalier, P Pion; a variant's other pieces keep theirs unless one is taken).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from zanzibar.cli.frame.plugin import Binding, CommandSpec, Ctx, Reply
from zanzibar.cli.frame.say import say
from zanzibar.engine.errors import CorruptDataError, IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.games.chess.fen import parse_fen, parse_square, square_name
from zanzibar.games.chess.notation import colour_piece, format_coordinate, format_san, piece_name
from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.setup import arrangements, placements
from zanzibar.games.chess.variant import Variant
from zanzibar.l10n import Msg, Voice

#: Commands that need no argument and read the game.
_READ_COMMANDS = ("moves", "history")


def letters(variant: Variant, lang: str) -> dict[str, str]:
    """The variant's piece letter -> the letter players of ``lang`` type and read.

    From the messages ``cli-chess-letter-<english name>``; a piece without
    one keeps its letter. If two pieces would share a letter, the variant
    keeps its own letters (one letter, one piece).

    >>> from zanzibar.games.chess.variant import load_variant
    >>> sorted(letters(load_variant("chess"), "fr").items())[:3]
    [('B', 'F'), ('K', 'R'), ('N', 'C')]
    """
    voice = Voice(lang)
    bundle = voice.catalogue.bundle(voice.lang)
    table = {}
    for piece in variant.pieces:
        msg_id = f"cli-chess-letter-{piece.name.get('en', '').lower()}"
        table[piece.letter] = voice.text(msg_id) if bundle.has_message(msg_id) else piece.letter
    if len(set(table.values())) != len(table):
        return {p.letter: p.letter for p in variant.pieces}
    return table


def to_variant_letters(text: str, table: dict[str, str]) -> str:
    """A typed move with the player's letters turned into the variant's (``Dxe4`` -> ``Qxe4``).

    Capitals are pieces; a lowercase letter right after a rank number at the
    end is a promotion (``e7e8d``); other lowercase letters are files.

    >>> to_variant_letters("Dxe4", {"Q": "D", "K": "R"}), to_variant_letters("e7e8d", {"Q": "D"})
    ('Qxe4', 'e7e8q')
    """
    back = {mine: theirs for theirs, mine in table.items()}
    if re.fullmatch(r"[Oo0](-?[Oo0]){1,2}", text):
        return text
    out = "".join(back.get(c, c) if c.isupper() else c for c in text)
    match = re.fullmatch(r"(.*\d)([a-z])", out)
    if match and match.group(2).upper() in back:
        out = match.group(1) + back[match.group(2).upper()].lower()
    return out


def to_player_letters(text: str, table: dict[str, str]) -> str:
    """A move in the variant's letters written with the player's (``Qxe4`` -> ``Dxe4``)."""
    if text.startswith("O-O"):
        return text
    return "".join(table.get(c, c) if c.isupper() else c for c in text)


_SAN = re.compile(r"\b([A-Z])(?=[a-p]?\d{0,2}x?[a-p]\d{1,2}\b)")


def in_player_letters(text: str, table: dict[str, str]) -> str:
    """A sentence's moves (``1. a4 Ff9 2. Nd4``) with the player's piece letters.

    >>> in_player_letters("Moves: 1. a4 Ff9 2. Nd4 Ce5", {"F": "B", "N": "C", "C": "N"})
    'Moves: 1. a4 Bf9 2. Cd4 Ne5'
    """
    return _SAN.sub(lambda m: table.get(m.group(1), m.group(1)), text)


class ChessPlugin:
    """The chess part of the terminal: typed moves and the board in words."""

    game = "chess"
    line_first = True

    def __init__(self, rules: ChessRules) -> None:
        self.rules = rules

    # -- keys and commands --------------------------------------------------------------

    def keys(self) -> Sequence[Binding]:
        """No game keys: every other key types a move or a command."""
        return ()

    def commands(self) -> Sequence[CommandSpec]:
        """The typed commands of chess."""
        return (
            CommandSpec("board"),
            CommandSpec("rank", "N"),
            CommandSpec("file", "X"),
            CommandSpec("square", "XN"),
            CommandSpec("moves"),
            CommandSpec("arrangements"),
            CommandSpec("setup", "N"),
            CommandSpec("history"),
            CommandSpec("last"),
            CommandSpec("fen"),
            CommandSpec("resign"),
            CommandSpec("draw"),
        )

    def move_examples(self, lang: str) -> str:
        """Examples of moves for the help, taken from the variant (``O-O`` only if it castles)."""
        from zanzibar.games.chess.position import Position

        variant = self.rules.variant
        try:
            pos = Position(variant)
        except CorruptDataError:
            return ""
        legal = pos.legal_moves()
        table = letters(variant, lang)
        examples: list[str] = []
        pawn = [m for m in legal if format_san(pos, m, legal)[0].islower()]
        piece = [m for m in legal if format_san(pos, m, legal)[0].isupper()]
        if pawn:
            examples += [format_coordinate(pos, pawn[0]), format_san(pos, pawn[0], legal)]
        if piece:
            examples.append(to_player_letters(format_san(pos, piece[0], legal), table))
        if any(variant.castling):
            examples.append("O-O")
        return ", ".join(examples)

    def help_lines(self, lang: str) -> list[str]:
        """The chess lines of F1 (the frame adds its own)."""
        return [say(lang, "cli-chess-help-moves", examples=self.move_examples(lang))]

    def run(self, name: str, args: list[str], ctx: Ctx) -> Reply | None:
        """Run a chess command."""
        state, lang = ctx.state, ctx.lang
        variant = self.rules.variant_for(state)
        if name == "board":
            return Reply(ctx.describe("board").splitlines())
        if name == "rank":
            if len(args) != 1 or not args[0].isdigit():
                raise IllegalActionError(
                    Msg("cli-chess-no-rank", rank=" ".join(args) or "?", last=variant.ranks)
                )
            return Reply([describe_rank(variant, self._board(state), int(args[0]), lang)])
        if name == "file":
            if len(args) != 1:
                raise IllegalActionError(
                    Msg("cli-chess-no-file", file="?", last=chr(ord("a") + variant.files - 1))
                )
            return Reply([describe_file(variant, self._board(state), args[0], lang)])
        if name == "square":
            return Reply([ctx.describe(f"square:{args[0] if args else ''}")])
        if name in ("arrangements", "setup"):
            return self._setup(name, args, ctx)
        if state.phase == "setup" and name in ("moves", "history", "last", "fen"):
            return Reply([say(lang, "cli-chess-in-setup")])
        if name in _READ_COMMANDS:
            return Reply([in_player_letters(ctx.describe(name), letters(variant, lang))])
        if name == "last":
            return Reply([self._last(state, lang)])
        if name == "fen":
            return Reply([self.rules.position(state).fen()])
        if name in ("resign", "draw"):
            return Reply(action=self.rules.action_from_json({"type": name}))
        return None

    def parse_free(self, text: str, ctx: Ctx) -> Reply | None:
        """A move, a square (a Pawn's move there if there is one), or a setup number."""
        state, lang = ctx.state, ctx.lang
        variant = self.rules.variant_for(state)
        if text.startswith("?") and _is_square(variant, text[1:]):
            return Reply([ctx.describe(f"square:{text[1:]}")])
        if state.phase == "setup":
            if text.isdigit() or re.fullmatch(r"[A-Z][A-Z ]*", text):
                return self._setup("setup", [text], ctx)
            return Reply([say(lang, "cli-chess-in-setup")])
        move = "".join(text.split())  # "e2 e4" is e2e4
        if _is_square(variant, move):
            pawn = self._pawn_move_to(ctx, move.lower())
            if pawn is None:
                return Reply([ctx.describe(f"square:{move}")])
            move = pawn
        else:
            move = to_variant_letters(move, letters(variant, lang))
        return Reply(action=self.rules.action_from_json({"type": "move", "move": move}))

    def _pawn_move_to(self, ctx: Ctx, square: str) -> str | None:
        """The coordinates of the one Pawn move to ``square`` (first promotion offered), or None."""
        if not ctx.my_turn or ctx.state.phase == "setup":
            return None
        pos = self.rules.position(ctx.state)
        legal = pos.legal_moves()
        found = [
            format_coordinate(pos, m)
            for m in legal
            if format_san(pos, m, legal).rstrip("+#").split("=")[0] == square
        ]
        return found[0] if found else None

    def _board(self, state: Any) -> list[int]:
        if state.phase == "setup":
            return parse_fen(self.rules.variant, state.start_fen, allow_missing_royal=True).board
        return self.rules.position(state).board

    def _setup(self, name: str, args: list[str], ctx: Ctx) -> Reply:
        state, lang = ctx.state, ctx.lang
        if state.phase != "setup":
            raise IllegalActionError(Msg("cli-chess-not-setup"))
        choice = " ".join(args)
        if name == "arrangements" or not choice:
            return Reply(arrangement_lines(self.rules.variant, lang))
        return Reply(action=self.rules.action_from_json({"type": "setup", "arrangement": choice}))

    def _last(self, state: Any, lang: str) -> str:
        if not state.moves:
            return say(lang, "cli-chess-no-last")
        pos = self.rules.position(state)
        move = pos.pop()
        san = to_player_letters(format_san(pos, move), letters(pos.variant, lang))
        return say(lang, "cli-chess-last", move=san)

    # -- hooks --------------------------------------------------------------------------

    def on_events(self, events: Sequence[Event], ctx: Ctx) -> None:
        """Nothing to clear between moves."""

    def says_turn(self, event: Event, seat: int) -> bool:
        """No chess event says whose move it is."""
        return False

    def your_turn(self, ctx: Ctx) -> list[str]:
        """ "Your move, White." (or the arrangements to choose from, in the setup)."""
        state = ctx.state
        if state.phase == "setup":
            return arrangement_lines(self.rules.variant, ctx.lang)
        white = self.rules.position(state).turn > 0
        colour = say(ctx.lang, "cli-chess-white" if white else "cli-chess-black")
        return [say(ctx.lang, "cli-chess-your-move", colour=colour)]

    def stopped(self, ctx: Ctx) -> str | None:
        """``--max-moves`` reached (watching bots)."""
        capped = getattr(ctx.driver, "capped", None)
        if capped is not None and capped() and not ctx.driver.is_over():
            return say(ctx.lang, "cli-chess-stopped", moves=len(ctx.state.moves))
        return None


# -- the board in words -------------------------------------------------------------------


def _content(variant: Variant, code: int, lang: str) -> str:
    letter = variant.pieces[abs(code) - 1].letter
    return colour_piece(variant, "white" if code > 0 else "black", letter, lang)


def _line_words(variant: Variant, board: Sequence[int], squares: Sequence[int], lang: str) -> str:
    """Squares in order, runs of empty squares merged ("c3 to h3 empty")."""
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) == 1:
            parts.append(say(lang, "cli-chess-empty-one", square=square_name(variant, run[0])))
        elif run:
            first, last = square_name(variant, run[0]), square_name(variant, run[-1])
            parts.append(say(lang, "cli-chess-empty-run", first=first, last=last))
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
    >>> describe_rank(v, Position(v).board, 4, "en")
    'Rank 4: a4 to h4 empty.'
    """
    if not 1 <= rank <= variant.ranks:
        raise IllegalActionError(Msg("cli-chess-no-rank", rank=str(rank), last=variant.ranks))
    squares = [(rank - 1) * variant.files + f for f in range(variant.files)]
    content = _line_words(variant, board, squares, lang)
    return say(lang, "cli-chess-rank", rank=rank, content=content)


def describe_file(variant: Variant, board: Sequence[int], file: str, lang: str) -> str:
    """One file in words, from rank 1 upwards."""
    index = ord(file.lower()) - ord("a") if len(file) == 1 else -1
    if not 0 <= index < variant.files:
        last = chr(ord("a") + variant.files - 1)
        raise IllegalActionError(Msg("cli-chess-no-file", file=file, last=last))
    squares = [r * variant.files + index for r in range(variant.ranks)]
    content = _line_words(variant, board, squares, lang)
    return say(lang, "cli-chess-file", file=file.lower(), content=content)


def describe_arrangement(variant: Variant, index: int, lang: str) -> str:
    """``12: King on f12, Queen on g12, ...`` in words."""
    voice = Voice(lang)
    parts = [
        voice.text("cli-chess-piece-on", piece=piece_name(variant, letter, lang), square=square)
        for letter, square in placements(variant, index)
    ]
    return voice.text("cli-chess-arrangement", number=index, placements=voice.join(parts))


def arrangement_lines(variant: Variant, lang: str) -> list[str]:
    """The prompt and every setup arrangement in words, one a line."""
    count = len(arrangements(variant))
    lines = [say(lang, "cli-chess-choose", last=count - 1)]
    lines.extend(describe_arrangement(variant, i, lang) for i in range(count))
    return lines


def _is_square(variant: Variant, text: str) -> bool:
    try:
        parse_square(variant, text)
    except CorruptDataError:
        return False
    return True
