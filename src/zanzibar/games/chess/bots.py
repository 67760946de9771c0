"""Chess bots: levels of the search by time per move, seeded, with a node budget for tests.

Levels (the default first, then from weakest to strongest) differ by their
search budget; all run the same search (with quiescence, so none leaves a
piece en prise for nothing), and among root moves the search finds equal the
seed decides (in the first four moves of a game, among those within a few
centipawns of the best, so that games vary):

* ``medium``: at most 1 second per move (iterative deepening up to depth 8;
  no new depth starts after half the time).
* ``easy``: 2 plies plus captures, at most 1,000 nodes (a few hundredths of a
  second): it never misses a mate in one nor walks into one.
* ``casual``: 3 plies plus captures, at most 6,000 nodes.
* ``hard``: at most 4 seconds per move, no depth cap.

Their measured strengths are in the README's bot section and the help; each round that
measured them is in docs/chess-strength.md.

Determinism: a bot's choice depends only on the position (with its history),
the level, the seed and, for the timed levels, the machine's speed. Give a
``node_limit`` and the time limit is ignored, so the choice is the same on any
machine (tests do this). The transposition table starts empty for every move
for the same reason: a choice never depends on what the bot searched before.

Setup phase (Zanzibar-S, Metamachy): the bot picks an arrangement at random
by the seed among those that keep the King on the back rank, where the
pieces around it shelter it (the rules allow any; a King on the second rank
starts exposed to the enemy's Lion and Eagle).

The bot never resigns nor offers a draw. It accepts a draw offered to it when
its search (levels medium and hard) scores its position at least
``DRAW_ACCEPT_MARGIN`` centipawns down; otherwise it plays on, which
declines the offer.

>>> from zanzibar.games.chess.variant import load_variant
>>> pos = Position(load_variant("chess"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
>>> move = ChessBot(pos.variant, "medium", seed=1, node_limit=2000).choose_move(pos)
>>> pos.square_name(move >> 8 & 0xFF)
'a8'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.notation import parse_coordinate
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import (
    MAX_PLY,
    Searcher,
    SearchLimits,
    SearchResult,
    is_mate_score,
)
from zanzibar.games.chess.setup import arrangements
from zanzibar.games.chess.variant import Variant

#: The searching levels accept a draw offer when they see themselves this far behind.
DRAW_ACCEPT_MARGIN = 150
#: Opening variety: in a game's first VARIETY_MOVES moves the bot picks, by its seed,
#: among the moves that score within VARIETY_MARGIN centipawns of the best at a depth
#: of at most VARIETY_DEPTH (the evaluation is fine-grained, so exact ties are rare).
VARIETY_MOVES = 4
VARIETY_MARGIN = 12
VARIETY_DEPTH = 4


@dataclass(frozen=True)
class Level:
    """How a bot level searches."""

    name: str
    #: Seconds per move (ignored when a node budget is given).
    seconds: float
    #: Deepest iteration.
    max_depth: int
    #: Most nodes per move (0: no cap beyond the time): a machine-independent budget.
    nodes: int = 0


LEVELS: dict[str, Level] = {
    "medium": Level("medium", 1.0, 8),
    "easy": Level("easy", 0.5, 2, nodes=1_000),
    "casual": Level("casual", 0.5, 3, nodes=6_000),
    "hard": Level("hard", 4.0, MAX_PLY // 2),
}


def bot_levels() -> tuple[str, ...]:
    """Names of the levels, the default one first."""
    return tuple(LEVELS)


def level_named(name: str) -> Level:
    """The level called ``name``; IllegalActionError listing the known ones otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        known = ", ".join(LEVELS)
        raise IllegalActionError(f"unknown bot level {name!r} (levels: {known})") from None


class ChessBot:
    """A search bot at one level, with one seed.

    ``choose_move(pos)`` works on a :class:`Position` of any variant;
    ``choose(state)`` works on the chess GameRules' states and actions
    (through ``rules``, which must be given for it).
    """

    def __init__(
        self,
        variant: Variant,
        level: str = "medium",
        seed: int = 0,
        *,
        node_limit: int | None = None,
        time_limit: float | None = None,
        rules: Any = None,
    ) -> None:
        self.variant = variant
        self.level = level_named(level)
        self.seed = seed
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.rules = rules
        #: The last search's result (depth, score, nodes), for tools and tests.
        self.last: SearchResult | None = None

    def limits(self) -> SearchLimits:
        """The budget of one move: nodes if given (machine-independent), else time."""
        cap = self.level.nodes or None
        if self.node_limit is not None:
            nodes = min(self.node_limit, cap) if cap else self.node_limit
            return SearchLimits(max_depth=self.level.max_depth, node_limit=nodes)
        seconds = self.time_limit if self.time_limit is not None else self.level.seconds
        return SearchLimits(
            max_depth=self.level.max_depth,
            time_limit=seconds,
            soft_time_limit=seconds / 2,
            node_limit=cap,
        )

    def _rng(self, pos: Position) -> random.Random:
        return random.Random(f"{self.seed}:{pos.hash}:{len(pos.history)}")

    def choose_move(self, pos: Position, move_rule: int | None = None) -> int:
        """A legal move for the side to move (IllegalActionError if there is none).

        ``move_rule`` overrides the variant's move-count rule (a table option).
        The position is left as it was.
        """
        self.last = None
        pos = canonical(pos)
        moves = pos.legal_moves()
        if not moves:
            raise IllegalActionError("no legal move: the game is over")
        if len(moves) == 1:
            return moves[0]
        rng = self._rng(pos)
        searcher = Searcher(pos.variant, root_order_seed=rng.getrandbits(32), move_rule=move_rule)
        result = searcher.search(pos, self.limits())
        self.last = result
        if pos.fullmove <= VARIETY_MOVES and result.move and not is_mate_score(result.score):
            # Opening variety: any move within a few centipawns of the best, by the seed.
            near = searcher.moves_within(
                pos,
                max(min(result.depth, VARIETY_DEPTH), 1),
                VARIETY_MARGIN,
                SearchLimits(node_limit=max(result.nodes, 1_000)),
            )
            if len(near) > 1:
                return rng.choice(sorted(near))
        return result.move

    def choose_arrangement(self, variant: Variant | None = None) -> int:
        """Number of the setup arrangement this bot picks (see the module notes)."""
        variant = variant or self.variant
        options = arrangements(variant)
        if not options:
            raise IllegalActionError("this variant has no setup choice")
        royal = variant.pieces[variant.royal_index].letter
        sheltered = []
        for index, chosen in enumerate(options):
            for group, letters in zip(variant.setup.groups, chosen, strict=True):
                if royal in letters:
                    square = group.squares[letters.index(royal)]
                    if int(square[1:]) in (1, variant.ranks):
                        sheltered.append(index)
        pool = sheltered or list(range(len(options)))
        return random.Random(f"setup:{self.seed}").choice(pool)

    def choose(self, state: Any) -> Any:
        """An action of the chess GameRules for ``state``: a setup choice or a move."""
        rules = self.rules
        if rules is None:
            raise IllegalActionError("this bot was made without the game's rules")
        if getattr(state, "phase", "play") == "setup":
            index = self.choose_arrangement(rules.variant)
            for action in rules.legal_actions(state):
                if action.kind == "setup" and action.arrangement == index:
                    return action
            raise IllegalActionError("no setup choice is open")
        pos = replay(rules.variant_for(state), state.start_fen, state.moves)
        move = self.choose_move(pos, move_rule=getattr(state, "move_rule", None))
        seat = rules.to_act(state)
        offered = getattr(state, "draw_offer", -1)
        if (
            seat is not None
            and offered == 1 - seat
            and self.last is not None
            and self.last.score <= -DRAW_ACCEPT_MARGIN
        ):
            for action in rules.legal_actions(state):
                if action.kind == "draw":
                    return action  # accept: the search says this game is being lost
        return rules.move_action(pos, move)


def replay(variant: Variant, start_fen: str, moves: Sequence[str]) -> Position:
    """A new position from a start FEN and coordinate moves.

    The bot rebuilds its own position rather than borrowing the rules' cached
    one: the salon runs bots in a worker thread while the rules keep serving
    the table, so the bot touches nothing shared.
    """
    pos = Position(variant, start_fen)
    for text in moves:
        pos.push(parse_coordinate(pos, text))
    return pos


def canonical(pos: Position) -> Position:
    """A fresh copy of ``pos`` rebuilt from its FEN, with the same repetition history.

    A position's move order follows the order its pieces were last moved in
    (make/unmake reorders them), so two equal positions with different pasts
    would be searched in different orders: the bot searches a rebuilt copy to
    choose the same move in the same position every time.
    """
    fresh = Position(pos.variant, pos.fen())
    if fresh.hash == pos.hash:
        fresh.history = list(pos.history)
    return fresh


def make_bot(
    variant_rules: Any,
    level: str,
    options: Mapping[str, Any],
    seed: int = 0,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> ChessBot:
    """A bot for the chess GameRules ``variant_rules`` (``options`` are the table's).

    The variant in force (seed promotions or not) and the move rule are read
    from each state the bot is asked about, so the options need no handling here.
    """
    return ChessBot(
        variant_rules.variant,
        level,
        seed,
        node_limit=node_limit,
        time_limit=time_limit,
        rules=variant_rules,
    )
