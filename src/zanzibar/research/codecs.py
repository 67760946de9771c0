"""How each game's actions and states become numbers: action indices and observation arrays.

A learning agent sees a fixed-size action space (``Discrete(size)``) and a
fixed-shape ``float32`` observation. A :class:`Codec` maps a game's actions to
and from indices and draws the observation of a state *from one seat's point
of view* (that seat first, the others following in turn order, so a policy
can be shared by every seat). The legal-action mask comes from the rules'
own ``legal_actions``: the environment never guesses what is legal.

Actions:

* **421** (8): index 0 stops; 1..7 roll the dice of a mask (bit i: die i, on the
  throw highest die first); 7 rolls all three, which is also the first roll.
* **Zilch** (128): ``2 * mask + kind``, ``mask`` the dice set aside (bit i: die i
  of the roll), ``kind`` 0 to roll the rest, 1 to bank; index 0 (nothing set
  aside, roll) starts a turn.
* **Chess** (orthodox and Zanzibar-S): ``(promotion * S + from) * S + to`` for
  a move, ``S`` the number of squares and ``promotion`` 0 or 1 + the index of
  the piece promoted to in the variant's piece list; then one index per setup
  arrangement (Zanzibar-S's Black chooses its pieces' order first). Resigning
  and offering a draw are not in the space: a game ends by the rules (mate,
  stalemate, repetition, the move rule) or by the environment's move limit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.fen import parse_fen, parse_square
from zanzibar.games.chess.rules import ChessAction, ChessRules, ChessState
from zanzibar.games.chess.setup import arrangements
from zanzibar.games.dice421.bots import ROLL_BY_MASK
from zanzibar.games.dice421.combos import strength
from zanzibar.games.dice421.state import Roll, Stop
from zanzibar.games.dice421.state import State as State421
from zanzibar.games.zilch.state import ZilchAction, ZilchState

Observation = npt.NDArray[np.float32]


class Codec(Protocol):
    """Numbers for one game with a given number of seats."""

    size: int
    shape: tuple[int, ...]

    def encode(self, state: Any, action: Any) -> int | None:
        """The index of a legal action (``None`` if the space leaves it out)."""
        ...

    def observe(self, state: Any, seat: int) -> Observation:
        """The state as ``seat`` sees it, in ``shape``."""
        ...


def _rotated(values: Sequence[float], seat: int) -> list[float]:
    """``values`` by seat, starting from ``seat`` (the observer first)."""
    n = len(values)
    return [float(values[(seat + i) % n]) for i in range(n)]


def _one_hot(size: int, index: int | None) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


class Dice421Codec:
    """421: eight actions; the observation is ``26 + 7 * seats`` numbers in [0, 1]."""

    PHASES = ("draw", "charge", "decharge", "over")

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        self.seats = seats
        self.size = len(ROLL_BY_MASK)
        self.shape: tuple[int, ...] = (26 + 7 * seats,)
        self.tokens = int(options["tokens"])
        self.rounds = int(options["rounds_to_lose"])
        self.power = strength(str(options["fiche_order"]))
        self.index = {action: i for i, action in enumerate(ROLL_BY_MASK)}

    def encode(self, state: State421, action: Roll | Stop) -> int | None:
        """Index 0 stops, 1..7 roll a mask of dice."""
        return self.index.get(action)

    def observe(self, state: State421, seat: int) -> Observation:
        """Phase, pot, tokens, losses, who is in and who rolls, the dice, the throws so far."""
        n = self.seats
        relative = {s: (s - seat) % n for s in range(n)}
        current = state.current
        features = _one_hot(4, self.PHASES.index(state.phase))
        features.append(state.pot / self.tokens)
        features += [t / self.tokens for t in _rotated(state.tokens, seat)]
        features += [x / self.rounds for x in _rotated(state.losses, seat)]
        active = set(state.in_play)
        features += _rotated([1.0 if s in active else 0.0 for s in range(n)], seat)
        features += _one_hot(n, None if current is None else relative[current])
        for i in range(3):
            features += _one_hot(6, state.dice[i] - 1 if i < len(state.dice) else None)
        features += [state.rolls / 3, state.limit / 3]
        throws = [[0.0, 0.0, 0.0] for _ in range(n)]
        for who, throw, rolls in state.done:
            throws[relative[who]] = [1.0, self.power[throw] / 55, rolls / 3]
        for row in throws:
            features += row
        features.append(1.0 if state.playoff else 0.0)
        return np.array(features, dtype=np.float32)


class ZilchCodec:
    """Zilch: 128 actions; the observation is ``45 + 4 * seats`` numbers in [0, 1]."""

    PHASES = ("start", "rolling", "choose", "over")
    STAGES = ("main", "final", "tiebreak")

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        self.seats = seats
        self.size = 128
        self.shape: tuple[int, ...] = (45 + 4 * seats,)
        self.target = float(options["target"])

    def encode(self, state: ZilchState, action: ZilchAction) -> int | None:
        """``2 * mask + (1 if bank else 0)``, the mask of dice set aside."""
        mask = 0
        for i in action.keep:
            mask |= 1 << i
        return 2 * mask + (1 if action.type == "bank" else 0)

    def observe(self, state: ZilchState, seat: int) -> Observation:
        """Phase, stage, scores, entries, zilch streaks, who plays, the turn, the roll."""
        n = self.seats
        features = _one_hot(4, self.PHASES.index(state.phase))
        features += _one_hot(3, self.STAGES.index(state.stage))
        # Scores can pass the target in the last round: clipped to keep the bounds.
        features += [min(s / self.target, 2.0) / 2.0 for s in _rotated(state.scores, seat)]
        features += _rotated([1.0 if e else 0.0 for e in state.entered], seat)
        features += [min(s, 3) / 3 for s in _rotated(state.streaks, seat)]
        playing = None if state.phase == "over" else (state.current - seat) % n
        features += _one_hot(n, playing)
        features.append(min(state.turn_points / self.target, 2.0) / 2.0)
        features.append(state.dice_left / 6)
        for i in range(6):
            features += _one_hot(6, state.roll[i] - 1 if i < len(state.roll) else None)
        return np.array(features, dtype=np.float32)


_MOVE = re.compile(r"([a-p]\d{1,2})([a-p]\d{1,2})([a-z]?)")


class ChessCodec:
    """Chess of any variant: moves, promotions and setup choices; board planes."""

    def __init__(self, rules: ChessRules) -> None:
        self.rules = rules
        variant = rules.variant
        self.variant = variant
        self.squares = variant.files * variant.ranks
        self.letters = {p.letter.lower(): i for i, p in enumerate(variant.pieces)}
        self.kinds = len(variant.pieces)
        self.moves = (self.kinds + 1) * self.squares * self.squares
        choices = arrangements(variant) if variant.setup.kind == "mirror-choice" else ()
        self.size = self.moves + len(choices)
        # Planes: White's pieces by kind, Black's by kind, "you play White", "setup phase".
        self.shape: tuple[int, ...] = (variant.ranks, variant.files, 2 * self.kinds + 2)

    def encode(self, state: ChessState, action: ChessAction) -> int | None:
        """Moves and setup choices; resign and draw offers are left out (``None``)."""
        if action.kind == "setup":
            return self.moves + action.arrangement
        if action.kind != "move":
            return None
        found = _MOVE.fullmatch(action.move)
        if found is None:
            raise IllegalActionError(f"unexpected move text {action.move!r}")
        origin = parse_square(self.variant, found.group(1))
        target = parse_square(self.variant, found.group(2))
        promotion = self.letters[found.group(3)] + 1 if found.group(3) else 0
        return (promotion * self.squares + origin) * self.squares + target

    def observe(self, state: ChessState, seat: int) -> Observation:
        """One plane per piece kind and colour, and two planes of flags."""
        if state.phase == "setup":
            board = parse_fen(self.variant, state.start_fen, allow_missing_royal=True).board
        else:
            board = self.rules.position(state).board
        planes = np.zeros(self.shape, dtype=np.float32)
        files = self.variant.files
        for square, code in enumerate(board):
            if code:
                plane = abs(code) - 1 + (0 if code > 0 else self.kinds)
                planes[square // files, square % files, plane] = 1.0
        planes[:, :, 2 * self.kinds] = 1.0 if seat == 0 else 0.0
        planes[:, :, 2 * self.kinds + 1] = 1.0 if state.phase == "setup" else 0.0
        return planes
