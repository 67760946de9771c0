"""A chess variant as data: board size, pieces in Betza notation, special rules.

Variants live in TOML files (``variants/*.toml`` ship with the package; a
player may load their own with ``--variant-file``). Loading validates
everything and raises :class:`~zanzibar.engine.errors.CorruptDataError` with a
message naming the offending field, so a broken file never yields a
half-working game.

File layout (every key is described in ``docs/rules-zanzibar-s.md``)::

    name = "zanzibar-s"
    files = 12
    ranks = 12
    start_fen = "..."
    [title]            en / fr
    [rules]            stalemate, repetition_count, move_rule, move_rule_resets,
                       king_jump, castling_kingside / castling_queenside
    [[pieces]]         letter, betza, royal, en_passant_capturable,
                       initial_ranks, promotion = {ranks, choices, compulsory}, name {en, fr}
    [setup]            kind = "fixed" | "mirror-choice", base_fen, groups, chooser

>>> v = load_variant("chess")
>>> v.files, v.ranks, v.piece_by_letter("N").name["fr"]
(8, 8, 'Cavalier')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.betza import Atom, parse

MAX_SIZE = 16
RESULTS = ("draw", "win", "loss")


@dataclass(frozen=True)
class Promotion:
    """Where a piece type promotes and to what.

    ``ranks`` are counted from the owner's side (1 = own first rank);
    ``choices`` are piece letters (uppercase); ``compulsory`` forbids staying
    unpromoted on those ranks.
    """

    ranks: tuple[int, ...]
    choices: tuple[str, ...]
    compulsory: bool = True


@dataclass(frozen=True)
class PieceType:
    """One kind of piece.

    ``letter`` is its uppercase FEN letter (White; Black uses lowercase).
    ``initial_ranks`` (relative, 1-based) are where its ``i`` moves are allowed;
    ``en_passant_capturable`` means its lame double step may be taken en
    passant (by pieces whose Betza has an ``e`` capture).
    """

    letter: str
    betza: str
    name: Mapping[str, str]
    atoms: tuple[Atom, ...]
    royal: bool = False
    en_passant_capturable: bool = False
    initial_ranks: tuple[int, ...] = ()
    promotion: Promotion | None = None
    value: int = 0


@dataclass(frozen=True)
class SetupGroup:
    """Pieces (letters) that the chooser places, in any order, on ``squares``."""

    pieces: str
    squares: tuple[str, ...]


@dataclass(frozen=True)
class Setup:
    """How the start position is reached.

    ``fixed``: the game starts from ``start_fen``. ``mirror-choice``: the
    ``chooser`` places each group's pieces on its squares (named from the
    chooser's side), the other side copies the arrangement file for file,
    then the game starts from ``base_fen`` filled in (White to move).
    """

    kind: str = "fixed"
    chooser: str = "black"
    base_fen: str = ""
    groups: tuple[SetupGroup, ...] = ()


@dataclass(frozen=True)
class Castling:
    """FSF-style castling: the king moves to ``king_file``, the rook from ``rook_file``."""

    king_file: int
    rook_file: int


@dataclass(frozen=True)
class Variant:
    """Everything the engine needs to play one variant."""

    name: str
    title: Mapping[str, str]
    files: int
    ranks: int
    pieces: tuple[PieceType, ...]
    start_fen: str
    stalemate: str = "draw"
    repetition_count: int = 3
    move_rule: int = 50
    move_rule_resets: tuple[str, ...] = ("P",)
    king_jump: bool = False
    castling: tuple[Castling | None, Castling | None] = (None, None)
    setup: Setup = field(default_factory=Setup)
    sources: tuple[str, ...] = ()

    def piece_by_letter(self, letter: str) -> PieceType:
        """The piece type with this (case-insensitive) letter, or CorruptDataError."""
        for piece in self.pieces:
            if piece.letter == letter.upper():
                return piece
        raise CorruptDataError(f"variant {self.name}: no piece with letter {letter!r}")

    def type_index(self, letter: str) -> int:
        """Index of a piece type in ``pieces`` (codes on the board are index + 1)."""
        return self.pieces.index(self.piece_by_letter(letter))

    @property
    def royal_index(self) -> int:
        """Index of the royal piece type."""
        for i, piece in enumerate(self.pieces):
            if piece.royal:
                return i
        raise CorruptDataError(f"variant {self.name}: no royal piece")

    def with_extra_promotions(self, extra: Mapping[str, Promotion]) -> Variant:
        """A copy where the pieces named in ``extra`` gain (or change) their promotion."""
        pieces = tuple(
            replace(p, promotion=extra[p.letter]) if p.letter in extra else p for p in self.pieces
        )
        return replace(self, pieces=pieces)


# -- loading -------------------------------------------------------------------------


def _need(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise CorruptDataError(f"{where}: missing '{key}'")
    value = table[key]
    if kind is int and isinstance(value, bool):
        raise CorruptDataError(f"{where}: '{key}' must be a whole number")
    if not isinstance(value, kind):
        word = {"int": "whole number", "str": "string"}.get(kind.__name__, kind.__name__)
        raise CorruptDataError(f"{where}: '{key}' must be a {word}")
    return value


def _names(obj: Any, where: str) -> dict[str, str]:
    """English and French names; ``fr_gender`` ("m" or "f") drives French agreement."""
    if not isinstance(obj, Mapping) or not all(
        isinstance(obj.get(lang), str) and obj.get(lang) for lang in ("en", "fr")
    ):
        raise CorruptDataError(f"{where}: needs an English and a French name (en, fr)")
    gender = obj.get("fr_gender", "m")
    if gender not in ("m", "f"):
        raise CorruptDataError(f"{where}: fr_gender must be m or f")
    return {"en": obj["en"], "fr": obj["fr"], "fr_gender": gender}


def _piece(obj: Any, index: int, ranks: int) -> PieceType:
    where = f"piece #{index + 1}"
    if not isinstance(obj, Mapping):
        raise CorruptDataError(f"{where}: must be a table")
    letter = _need(obj, "letter", str, where)
    if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
        raise CorruptDataError(f"{where}: letter {letter!r} must be one uppercase letter")
    where = f"piece {letter}"
    betza = _need(obj, "betza", str, where)
    atoms = tuple(parse(betza))
    initial = tuple(int(r) for r in obj.get("initial_ranks", ()))
    if any(a.initial for a in atoms) and not initial:
        raise CorruptDataError(f"{where}: Betza has 'i' moves but no initial_ranks")
    if any(not 1 <= r <= ranks for r in initial):
        raise CorruptDataError(f"{where}: initial_ranks outside the board")
    promotion = None
    if "promotion" in obj:
        promo = obj["promotion"]
        if not isinstance(promo, Mapping):
            raise CorruptDataError(f"{where}: promotion must be a table")
        promo_ranks = tuple(int(r) for r in promo.get("ranks", (ranks,)))
        if any(not 1 <= r <= ranks for r in promo_ranks):
            raise CorruptDataError(f"{where}: promotion ranks outside the board")
        choices = tuple(str(c).upper() for c in promo.get("choices", ()))
        if not choices:
            raise CorruptDataError(f"{where}: promotion needs at least one choice")
        promotion = Promotion(promo_ranks, choices, bool(promo.get("compulsory", True)))
    value = obj.get("value", 0)
    if not isinstance(value, int):
        raise CorruptDataError(f"{where}: value must be a whole number (centipawns)")
    return PieceType(
        letter=letter,
        betza=betza,
        name=_names(obj.get("name"), where),
        atoms=atoms,
        royal=bool(obj.get("royal", False)),
        en_passant_capturable=bool(obj.get("en_passant_capturable", False)),
        initial_ranks=initial,
        promotion=promotion,
        value=value,
    )


def _file_index(letter: str, files: int, where: str) -> int:
    index = ord(letter) - ord("a") if len(letter) == 1 else -1
    if not 0 <= index < files:
        raise CorruptDataError(f"{where}: {letter!r} is not a file of the board")
    return index


def _castling(rules: Mapping[str, Any], side: str, files: int) -> Castling | None:
    spec = rules.get(f"castling_{side}")
    if spec is None:
        return None
    where = f"rules.castling_{side}"
    if not isinstance(spec, Mapping):
        raise CorruptDataError(f"{where}: must be a table with king_file and rook_file")
    king = _file_index(str(spec.get("king_file", "")), files, where)
    rook = _file_index(str(spec.get("rook_file", "")), files, where)
    return Castling(king, rook)


def _setup(obj: Any) -> Setup:
    if obj is None:
        return Setup()
    if not isinstance(obj, Mapping):
        raise CorruptDataError("setup: must be a table")
    kind = obj.get("kind", "fixed")
    if kind == "fixed":
        return Setup()
    if kind != "mirror-choice":
        raise CorruptDataError(f"setup: unknown kind {kind!r} (fixed, mirror-choice)")
    groups = []
    for g in obj.get("groups", ()):
        pieces = str(g.get("pieces", ""))
        squares = tuple(str(s) for s in g.get("squares", ()))
        if len(pieces) > len(squares) or not pieces:
            raise CorruptDataError(f"setup: group {pieces!r} needs at least as many squares")
        groups.append(SetupGroup(pieces.upper(), squares))
    chooser = obj.get("chooser", "black")
    if chooser not in ("white", "black"):
        raise CorruptDataError("setup: chooser must be white or black")
    return Setup(kind, chooser, _need(obj, "base_fen", str, "setup"), tuple(groups))


def variant_from_dict(data: Mapping[str, Any]) -> Variant:
    """Build and validate a variant from parsed TOML."""
    name = _need(data, "name", str, "variant")
    files = _need(data, "files", int, name)
    ranks = _need(data, "ranks", int, name)
    if not (2 <= files <= MAX_SIZE and 2 <= ranks <= MAX_SIZE):
        raise CorruptDataError(f"{name}: the board must be between 2x2 and 16x16")
    raw_pieces = data.get("pieces")
    if not isinstance(raw_pieces, list) or not raw_pieces:
        raise CorruptDataError(f"{name}: needs a list of [[pieces]]")
    pieces = tuple(_piece(p, i, ranks) for i, p in enumerate(raw_pieces))
    letters = [p.letter for p in pieces]
    if len(set(letters)) != len(letters):
        raise CorruptDataError(f"{name}: two pieces share a letter")
    if sum(p.royal for p in pieces) != 1:
        raise CorruptDataError(f"{name}: exactly one piece type must be royal")
    for p in pieces:
        for c in p.promotion.choices if p.promotion else ():
            if c not in letters:
                raise CorruptDataError(f"{name}: piece {p.letter} promotes to unknown {c!r}")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise CorruptDataError(f"{name}: [rules] must be a table")
    stalemate = rules.get("stalemate", "draw")
    if stalemate not in RESULTS:
        raise CorruptDataError(f"{name}: rules.stalemate must be one of {', '.join(RESULTS)}")
    default_resets = ("P",) if "P" in letters else ()
    resets = tuple(str(x).upper() for x in rules.get("move_rule_resets", default_resets))
    for letter in resets:
        if letter not in letters:
            raise CorruptDataError(f"{name}: move_rule_resets names unknown piece {letter!r}")
    title = data.get("title", {"en": name, "fr": name})
    variant = Variant(
        name=name,
        title={k: v for k, v in _names(title, f"{name}.title").items() if k != "fr_gender"},
        files=files,
        ranks=ranks,
        pieces=pieces,
        start_fen=_need(data, "start_fen", str, name),
        stalemate=stalemate,
        repetition_count=int(rules.get("repetition_count", 3)),
        move_rule=int(rules.get("move_rule", 50)),
        move_rule_resets=resets,
        king_jump=bool(rules.get("king_jump", False)),
        castling=(
            _castling(rules, "kingside", files),
            _castling(rules, "queenside", files),
        ),
        setup=_setup(data.get("setup")),
        sources=tuple(str(s) for s in data.get("sources", ())),
    )
    _check_fens(variant)
    return variant


def _check_fens(variant: Variant) -> None:
    from zanzibar.games.chess.fen import parse_fen  # fen imports this module

    parse_fen(variant, variant.start_fen)
    if variant.setup.kind == "mirror-choice":
        parse_fen(variant, variant.setup.base_fen, allow_missing_royal=True)


def load_variant_text(text: str, origin: str = "variant file") -> Variant:
    """Parse TOML text into a variant; CorruptDataError if it is not valid."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CorruptDataError(f"{origin}: not valid TOML: {exc}") from None
    return variant_from_dict(data)


def load_variant_file(path: str | Path) -> Variant:
    """Load a user's variant file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CorruptDataError(f"cannot read variant file {path}: {exc.strerror}") from None
    return load_variant_text(text, str(path))


def shipped_variants() -> list[str]:
    """Names of the variants shipped with the package."""
    folder = resources.files("zanzibar.games.chess") / "variants"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load_variant(name: str) -> Variant:
    """A shipped variant by name ("chess", "shako", "metamachy", "zanzibar-s")."""
    if name not in shipped_variants():
        known = ", ".join(shipped_variants())
        raise CorruptDataError(f"unknown variant {name!r} (shipped: {known})")
    folder = resources.files("zanzibar.games.chess") / "variants"
    return load_variant_text((folder / f"{name}.toml").read_text(encoding="utf-8"), name)
