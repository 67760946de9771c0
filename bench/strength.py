"""Playing strength of the chess bot levels, measured against outside and inside opponents.

Two parts, each optional:

* ``--stockfish``: orthodox chess, ``zanzibar uci`` driven through python-chess's
  ``chess.engine`` against Debian's Stockfish (``apt-get install stockfish``;
  ``/usr/games/stockfish``) limited by ``UCI_LimitStrength`` and ``UCI_Elo``.
  Every level plays every Elo setting from each opening of :data:`OPENINGS`
  with both colours. Both engines get the same clock (``--clock`` seconds plus
  ``--inc`` per move); our levels also keep their own cap per move (easy and
  casual play as at a table). The estimate of each level is the maximum-
  likelihood Elo over all its games (a logistic model with the opponents'
  nominal ratings), with a 95 % interval from the likelihood's curvature.
  ``--sf-nodes N`` plays ours at N nodes a move instead (its clock is not
  charged; Stockfish keeps its clock): a figure for a node budget that the
  machine's load cannot lower (Stockfish itself still feels the load).
  ``--sf-depth D`` gives Stockfish a fixed depth a move instead of its clock: a
  limited Stockfish picks its weakened move once its search reaches depth
  ``1 + skill level`` (the level it derives from ``UCI_Elo``, :func:`skill_depth`),
  and searching on does not change that choice, so a depth past it plays as the
  clock does, without a clock a busy machine can make it lose on time (with
  ``--sf-nodes``, neither side then depends on the load).
* ``--selfplay``: Zanzibar-S, each level against the one below it, from short
  random openings (the same opening with both colours), with the levels' own
  time per move scaled by ``--scale`` (or, with ``--nps N``, that time turned
  into a node budget at N nodes a second, so that a busy machine changes
  nothing: the timed levels otherwise get what the load leaves them, and on a
  machine with a load of 15 they could not be told apart). Games end by mate, stalemate,
  repetition or the move rule; a game still running after ``--max-moves`` is
  counted apart (it would mean a bot that is ahead cannot finish; it counts as a draw).
  A game that did not end by mate (the cap, a repetition, the move rule) has its line
  followed by its final position (FEN) and the material of each side, so that the log
  says who was ahead, and every game by its moves from the start (the random opening
  included), so that it can be replayed. Prints the
  score of the stronger level with a 95 % interval and the Elo difference.
* ``--pool LOG ...``: no games; the games printed in these logs of earlier runs (of
  ``--stockfish`` and ``--selfplay``, e.g. one process per opening or per pairing, or a
  run cut short), pooled: each level's Elo estimate over all its games against
  Stockfish, and each self-play pairing's score, with their intervals. A game line
  without a colour (``hard vs 2000: lost rebuilt; ...``) is read too: games rebuilt from
  the README's points per setting where the logs were not kept (the maximum-likelihood
  estimate depends only on the points against each setting).
* ``--versus REF``: orthodox chess, this tree's search against the one of the git
  commit ``REF`` (extracted to a temporary directory at run time), both through
  ``zanzibar uci`` at a fixed node budget per move (``--nodes``): a change of the
  search is judged by the games it wins at the same budget, whatever the
  machine's load. Each opening of :data:`OPENINGS`, lengthened by
  ``--random-plies`` random moves (seeded), is played with both colours. A game
  is adjudicated when both engines agree for ``ADJUDICATE_PLIES`` plies in a row
  that one side is ``ADJUDICATE_SCORE`` centipawns ahead, or drawn at
  ``--max-moves``. Prints the score with a 95 % interval and the Elo difference.
  ``--movetime S`` gives both engines the same time instead, S seconds a move
  (``go movetime``): a change that makes nodes cheaper but the tree different (a
  lazier evaluation, say) is judged by what it does with equal time, which equal
  nodes cannot tell. Equal time is load-sensitive: what a second buys depends on the
  share of a core the engine gets. Both engines are children of the bench's process,
  in its session and process group (its autogroup), and they move in turn, one
  searching while the other waits, so each feels the same load as the other from
  move to move (run the bench in a low-weight session as the README says, and keep
  it alone in that session); a load that changes during a game still adds noise,
  which the games' number must outweigh, and the figure holds for the machine it
  was measured on.

Usage (small and quick; the figures in the README say what size they used; these are
the runs behind the README's and the help's figures, each level or group of levels in
its own process so that they ran side by side)::

    .venv/bin/python bench/strength.py --stockfish --levels medium --elos 1500 1800 2100 \\
        --openings 2 --clock 60 --inc 0.6
    .venv/bin/python bench/strength.py --stockfish --levels hard --elos 1700 2000 2300 \\
        --openings 2 --first-opening 2 --clock 60 --inc 0.6
    .venv/bin/python bench/strength.py --stockfish --levels easy casual --elos 1350 1700 \\
        --openings 2 --first-opening 4 --clock 60 --inc 0.6
    .venv/bin/python bench/strength.py --selfplay --pairs 3 --scale 0.25 --max-moves 120
    .venv/bin/python bench/strength.py --versus HEAD --nodes 4000 --games 32
    .venv/bin/python bench/strength.py --versus HEAD --movetime 0.5 --games 32
    .venv/bin/python bench/strength.py --stockfish --levels hard --sf-nodes 40000 \\
        --elos 1500 1800 --openings 2
    .venv/bin/python bench/strength.py --stockfish --levels medium --sf-nodes 30000 \\
        --sf-depth 12 --elos 1700 2000 --openings 8
    # the night of 2026-11-26: one opening at a time, medium and hard in turn, then pooled
    .venv/bin/python bench/strength.py --stockfish --levels medium --sf-nodes 30000 \\
        --sf-depth 12 --elos 1800 2000 --openings 1 --first-opening 0
    .venv/bin/python bench/strength.py --stockfish --levels hard --sf-nodes 100000 \\
        --sf-depth 12 --elos 1900 2100 --openings 1 --first-opening 0
    .venv/bin/python bench/strength.py --selfplay --levels medium hard --nps 30000 \\
        --scale 0.5 --max-moves 150 --pairs 1 --seed 6000
    .venv/bin/python bench/strength.py --pool sf.log ladder.log
    # the morning of 2026-11-27: hard on the openings it had not played (4; then 5 and 6
    # against 2300 2100), the ladder's top pair from --seed 7000; --pool gives their part
    .venv/bin/python bench/strength.py --stockfish --levels hard --sf-nodes 100000 \\
        --sf-depth 12 --elos 1900 2100 --openings 1 --first-opening 4
    .venv/bin/python bench/strength.py --selfplay --levels medium hard --nps 30000 \\
        --scale 0.5 --max-moves 150 --pairs 4 --seed 7000
    .venv/bin/python bench/strength.py --pool bench/data/strength-2026-11-27/*.log
    # the night of 2026-11-27 (engine of 8e43756): the upper pairs, one chain per seed in
    # low-weight sessions, stopped at 22:45 UTC, then pooled (the rebuilt log holds the
    # earlier rounds' games whose logs were not kept)
    .venv/bin/python bench/strength.py --selfplay --levels casual medium --nps 30000 \\
        --scale 0.5 --max-moves 150 --pairs 40 --seed 8000
    .venv/bin/python bench/strength.py --selfplay --levels medium hard --nps 30000 \\
        --scale 0.5 --max-moves 150 --pairs 30 --seed 9000   # and --seed 9500
    .venv/bin/python bench/strength.py --pool bench/data/ladder-2026-11-27e/[hm]*.log
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

#: Short, balanced openings (UCI moves from the start); each is played with both colours.
OPENINGS: list[str] = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",  # Ruy Lopez
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",  # Queen's Gambit Declined
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",  # Sicilian
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",  # King's Indian
    "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4",  # French, Winawer
    "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5",  # English
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",  # Caro-Kann, advance
    "g1f3 d7d5 g2g3 g8f6 f1g2 c7c6",  # Reti
]

STOCKFISH = "/usr/games/stockfish"
LEVELS = ("easy", "casual", "medium", "hard")


def skill_depth(elo: int) -> int:
    """The depth at which Stockfish 15.1 limited to ``elo`` picks its weakened move.

    Its skill level is ``((elo - 1346.6) / 143.4) ** (1 / 0.806)`` (clamped to 0..20),
    and the pick happens when the iteration of depth ``1 + level`` ends.

    >>> skill_depth(1700), skill_depth(2000), skill_depth(2300)
    (4, 7, 11)
    """
    level = min(max(((max(elo, 1347) - 1346.6) / 143.4) ** (1 / 0.806), 0.0), 20.0)
    return 1 + int(level)


def elo_estimate(games: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """Maximum-likelihood rating from (opponent rating, score 0 / 0.5 / 1) pairs.

    Returns (estimate, low, high) of a 95 % interval; a bound is infinite when
    every game was won (or lost), where the likelihood has no maximum.

    >>> round(elo_estimate([(1500, 1.0), (1500, 0.0)])[0])
    1500
    """
    if not games:
        return math.nan, -math.inf, math.inf
    total = sum(score for _, score in games)
    if total == 0:
        return -math.inf, -math.inf, min(r for r, _ in games)
    if total == len(games):
        return math.inf, max(r for r, _ in games), math.inf
    k = math.log(10) / 400

    def expected(r: float, opp: float) -> float:
        return 1 / (1 + 10 ** ((opp - r) / 400))

    r = sum(opp for opp, _ in games) / len(games)
    for _ in range(100):  # Newton's method on the log-likelihood
        grad = sum(k * (score - expected(r, opp)) for opp, score in games)
        info = sum(k * k * expected(r, opp) * (1 - expected(r, opp)) for opp, _ in games)
        step = grad / info
        r += max(min(step, 400), -400)
        if abs(step) < 0.01:
            break
    info = sum(k * k * expected(r, opp) * (1 - expected(r, opp)) for opp, _ in games)
    half = 1.96 / math.sqrt(info)
    return r, r - half, r + half


def score_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """Mean score with a 95 % normal interval (draws count a half).

    When every game scored the same (all won, say), the games' spread is zero and the
    normal interval would shrink to the point: Wilson's interval of a proportion is
    given instead, which says how little a few games settle.

    >>> [round(x, 2) for x in score_interval([1.0, 1.0])]
    [1.0, 0.34, 1.0]
    >>> [round(x, 2) for x in score_interval([1.0, 0.0, 1.0, 0.5])]
    [0.62, 0.16, 1.0]
    """
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    if n > 1 and var == 0:
        z2 = 1.96**2
        centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
        half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return mean, max(centre - half, 0.0), min(centre + half, 1.0)
    half = 1.96 * math.sqrt(var / n) if n > 1 else 0.5
    return mean, max(mean - half, 0.0), min(mean + half, 1.0)


def _verdict(score: float) -> str:
    """How a game went for the side scored: won, drew or lost."""
    return {1.0: "won", 0.5: "drew", 0.0: "lost"}[score]


def elo_difference(score: float) -> float:
    """Elo difference that a score fraction means (infinite at 0 or 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


# -- orthodox chess against Stockfish ---------------------------------------------


def play_stockfish_game(
    level: str,
    elo: int,
    opening: str,
    ours_white: bool,
    clock: float,
    inc: float,
    nodes: int = 0,
    record: list[str] | None = None,
    sf_depth: int = 0,
) -> tuple[float, str]:
    """One game; returns our score and how it ended. With ``nodes``, ours plays at that
    many nodes a move (its clock is not charged), Stockfish on its clock as before, or
    with ``sf_depth`` at that depth a move (its clock is not charged either).
    ``record`` receives the game's moves in algebraic notation (to see how it was lost)."""
    import chess
    import chess.engine

    ours = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zanzibar.cli.main", "uci"], timeout=ENGINE_START_TIMEOUT
    )
    theirs = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=ENGINE_START_TIMEOUT)
    board = chess.Board()
    try:
        ours.configure({"Level": level})
        theirs.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
        for move in opening.split():
            board.push_uci(move)
        remaining = {chess.WHITE: clock, chess.BLACK: clock}
        while not board.is_game_over(claim_draw=True):
            engine = ours if (board.turn == chess.WHITE) == ours_white else theirs
            limit = chess.engine.Limit(
                white_clock=remaining[chess.WHITE],
                black_clock=remaining[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            if nodes and engine is ours:
                limit = chess.engine.Limit(nodes=nodes)
            if sf_depth and engine is theirs:
                limit = chess.engine.Limit(depth=sf_depth)
            start = time.perf_counter()
            result = engine.play(board, limit)
            timed = limit.nodes is None and limit.depth is None
            spent = time.perf_counter() - start if timed else 0.0
            remaining[board.turn] += inc - spent
            if remaining[board.turn] < 0:
                loser_is_ours = engine is ours
                return (0.0 if loser_is_ours else 1.0), "time"
            assert result.move is not None
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        assert outcome is not None
        if outcome.winner is None:
            return 0.5, outcome.termination.name.lower()
        won = outcome.winner == (chess.WHITE if ours_white else chess.BLACK)
        return (1.0 if won else 0.0), outcome.termination.name.lower()
    finally:
        if record is not None:
            record.append(chess.Board().variation_san(board.move_stack))
        ours.quit()
        theirs.quit()


def run_stockfish(args: argparse.Namespace) -> None:
    """Every level against every Elo setting, each opening with both colours."""
    if not Path(STOCKFISH).exists():
        print(f"{STOCKFISH} not found: apt-get install stockfish", file=sys.stderr)
        raise SystemExit(2)
    openings = OPENINGS[args.first_opening : args.first_opening + args.openings]
    print(
        f"orthodox chess against Stockfish 15.1 (UCI_LimitStrength), clock {args.clock:g} s "
        f"+ {args.inc:g} s, {len(openings)} openings x 2 colours per Elo setting"
        + (f"; ours at {args.sf_nodes} nodes a move" if args.sf_nodes else "")
        + (f"; Stockfish at depth {args.sf_depth} a move" if args.sf_depth else "")
    )
    if args.sf_depth:
        for elo in args.elos:
            if skill_depth(elo) >= args.sf_depth:
                print(
                    f"  warning: at UCI_Elo {elo} Stockfish picks its move at depth "
                    f"{skill_depth(elo)}: --sf-depth {args.sf_depth} is too shallow for it"
                )
    for level in args.levels:
        games: list[tuple[float, float]] = []
        scores: dict[int, list[float]] = {elo: [] for elo in args.elos}
        endings: dict[int, dict[str, int]] = {elo: {} for elo in args.elos}
        # Every Elo setting in turn for each opening and colour, so that a run cut short
        # (a busy machine) still has games against each setting; a running estimate follows
        # every game.
        for opening in openings:
            for ours_white in (True, False):
                for elo in args.elos:
                    record: list[str] = []
                    score, how = play_stockfish_game(
                        level,
                        elo,
                        opening,
                        ours_white,
                        args.clock,
                        args.inc,
                        args.sf_nodes,
                        record,
                        args.sf_depth,
                    )
                    scores[elo].append(score)
                    key = f"{_verdict(score)} {how}"
                    endings[elo][key] = endings[elo].get(key, 0) + 1
                    games.append((elo, score))
                    est, low, high = elo_estimate(games)
                    colour = "White" if ours_white else "Black"
                    print(
                        f"    {level} ({colour}) vs {elo}: {key}; running estimate {est:.0f} "
                        f"({low:.0f} to {high:.0f}) after {len(games)} games",
                        flush=True,
                    )
                    print(f"      {record[0] if record else ''}", flush=True)
        for elo in args.elos:
            ends = ", ".join(f"{k} {v}" for k, v in sorted(endings[elo].items()))
            print(
                f"  {level:7} vs Stockfish {elo}: {sum(scores[elo]):g}/{len(scores[elo])} ({ends})"
            )
        est, low, high = elo_estimate(games)
        print(
            f"{level:7} Elo estimate {est:.0f} (95 % interval {low:.0f} to {high:.0f}), "
            f"{len(games)} games",
            flush=True,
        )


# -- Zanzibar-S self-play ----------------------------------------------------------


def play_selfplay_game(
    strong: str,
    weak: str,
    seed: int,
    strong_white: bool,
    scale: float,
    max_moves: int,
    nps: int = 0,
) -> tuple[float, str, Any]:
    """One Zanzibar-S game from a random two-ply opening: the stronger level's score, how
    the game ended and its last position."""
    from zanzibar.games.chess.bots import LEVELS as LEVEL_TABLE
    from zanzibar.games.chess.bots import ChessBot
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.variant import load_variant

    variant = load_variant("zanzibar-s")
    pos = Position(variant)
    rng = random.Random(seed)
    for _ in range(2):
        pos.push(rng.choice(sorted(pos.legal_moves())))
    bots = {}
    for colour, level in (
        (1, strong if strong_white else weak),
        (-1, weak if strong_white else strong),
    ):
        seconds = LEVEL_TABLE[level].seconds * scale
        if nps:
            # Machine-independent: the level's time as nodes at a stated rate (the node
            # caps of easy and casual still apply), so a busy machine changes nothing.
            budget = LEVEL_TABLE[level].nodes or round(seconds * nps)
            bots[colour] = ChessBot(variant, level, seed=seed, node_limit=budget)
        else:
            bots[colour] = ChessBot(variant, level, seed=seed, time_limit=seconds or None)
    strong_colour = 1 if strong_white else -1
    for _ in range(2 * max_moves):
        result = pos.outcome()
        if result is not None:
            if result.winner == 0:
                return 0.5, result.reason, pos
            return (1.0 if result.winner == strong_colour else 0.0), result.reason, pos
        pos.push(bots[pos.turn].choose_move(pos))
    return 0.5, "unfinished", pos


def final_position(pos: Any) -> str:
    """The FEN of a game's last position and its material balance, for a game stopped at
    ``--max-moves``: counted a draw, so the log must say who was ahead and by how much.

    Material is the sum of the variant's piece values (the evaluator's, the King left out).
    """
    from zanzibar.games.chess.evaluation import evaluator_for

    value = evaluator_for(pos.variant).value_by_code
    royal = pos.variant.royal_index + 1
    material = {1: 0, -1: 0}
    for code in pos.board:
        if code and abs(code) != royal:
            material[1 if code > 0 else -1] += value[code]
    lead = material[1] - material[-1]
    ahead = (
        "level"
        if not lead
        else f"{'White' if lead > 0 else 'Black'} {abs(lead) / 100:.2f} pawns ahead"
    )
    return (
        f"final position {pos.fen()}; material White {material[1]}, Black {material[-1]} "
        f"centipawns ({ahead})"
    )


def game_moves(pos: Any) -> str:
    """The moves of a game played from the variant's start to ``pos``, in numbered
    algebraic notation (the random opening included), so that a game can be replayed."""
    from zanzibar.games.chess.notation import format_san
    from zanzibar.games.chess.position import Position

    board = Position(pos.variant)
    words = []
    for ply, move in enumerate(pos.move_stack):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(format_san(board, move))
        board.push(move)
    return " ".join(words)


def run_selfplay(args: argparse.Namespace) -> None:
    """Each level against the one below it."""
    print(
        f"Zanzibar-S self-play, levels' time per move x {args.scale:g}"
        + (f" as nodes at {args.nps} nodes/s, " if args.nps else ", ")
        + f"{args.pairs} openings x 2 colours per pairing, unfinished after {args.max_moves} moves"
    )
    for weak, strong in itertools.pairwise(LEVELS):
        if strong not in args.levels or weak not in args.levels:
            continue
        scores = []
        endings: dict[str, int] = {}
        for pair in range(args.pairs):
            for strong_white in (True, False):
                score, how, last = play_selfplay_game(
                    strong,
                    weak,
                    args.seed + pair,
                    strong_white,
                    args.scale,
                    args.max_moves,
                    args.nps,
                )
                scores.append(score)
                key = f"{_verdict(score)} {how}"
                endings[key] = endings.get(key, 0) + 1
                colour = "White" if strong_white else "Black"
                mean, low, high = score_interval(scores)
                print(
                    f"    {strong} ({colour}) vs {weak}, opening {args.seed + pair}: {key}; "
                    f"running {sum(scores):g}/{len(scores)} (95 % {low:.2f} to {high:.2f})",
                    flush=True,
                )
                if how != "checkmate":
                    # a draw (the cap, a repetition, the move rule): who was ahead?
                    print(f"      {final_position(last)}", flush=True)
                print(f"      {game_moves(last)}", flush=True)
        mean, low, high = score_interval(scores)
        ends = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
        mates = sum(n for key, n in endings.items() if key.endswith("checkmate"))
        capped = sum(n for key, n in endings.items() if key.endswith("unfinished"))
        print(
            f"{strong:7} vs {weak:7}: {sum(scores):g}/{len(scores)} = {mean:.2f} "
            f"(95 % {low:.2f} to {high:.2f}; Elo {elo_difference(mean):+.0f}, "
            f"{elo_difference(low):+.0f} to {elo_difference(high):+.0f}); {ends}; "
            f"ended by mate {mates} of {len(scores)}, at the {args.max_moves}-move cap {capped}"
        )
        sys.stdout.flush()


# -- this tree against a reference commit ------------------------------------------

#: Adjudication: a game is decided when both engines see one side this far ahead...
ADJUDICATE_SCORE = 700
#: ... for this many plies in a row.
ADJUDICATE_PLIES = 6


@contextlib.contextmanager
def reference_tree(commit: str) -> Iterator[Path]:
    """The ``src`` directory of ``commit``, extracted into a temporary directory."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="zanzibar-ref-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", commit, "src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        yield Path(tmp) / "src"


#: Seconds an engine may take to start and answer ``uci`` (``--stockfish``, ``--versus``). Games run in a
#: low-weight session so that they yield the shared machine to others; at a load of 15-20
#: such a session got under 1 % of a core (2026-11-27) and a start took over the 60 s that
#: python-chess allows by default, which ended the match before its first game.
ENGINE_START_TIMEOUT = 900


def _uci_engine(src: Path | None) -> Any:
    """``zanzibar uci`` of this tree (``src`` None) or of an extracted one."""
    import chess.engine

    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zanzibar.cli.main", "uci"],
        timeout=ENGINE_START_TIMEOUT,
        env=env,
        cwd=str(src.parent) if src is not None else None,
    )


def versus_openings(count: int, random_plies: int, seed: int) -> list[list[str]]:
    """``count`` openings: those of :data:`OPENINGS` in turn, each lengthened by random plies."""
    import chess

    rng = random.Random(seed)
    lines = []
    for index in range(count):
        board = chess.Board()
        for move in OPENINGS[index % len(OPENINGS)].split():
            board.push_uci(move)
        for _ in range(random_plies):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            board.push(rng.choice(moves))
        lines.append([m.uci() for m in board.move_stack])
    return lines


def play_versus_game(
    engines: dict[bool, Any],
    opening: list[str],
    new_white: bool,
    nodes: int,
    max_moves: int,
    movetime: float = 0.0,
) -> tuple[float, str]:
    """One game; ``engines[True]`` is this tree's, playing White if ``new_white``.

    Each move at ``nodes`` nodes, or with ``movetime`` at that many seconds (both engines
    alike). Returns this tree's score and how the game ended.
    """
    import chess
    import chess.engine

    limit = chess.engine.Limit(time=movetime) if movetime else chess.engine.Limit(nodes=nodes)
    board = chess.Board()
    for move in opening:
        board.push_uci(move)
    game = object()  # a new game for both engines (python-chess sends ucinewgame)
    ahead_side: bool | None = None
    ahead_streak = 0
    new_colour = chess.WHITE if new_white else chess.BLACK
    while not board.is_game_over(claim_draw=True):
        if board.fullmove_number > max_moves:
            return 0.5, "move cap"
        result = engines[board.turn == new_colour].play(
            board, limit, game=game, info=chess.engine.INFO_SCORE
        )
        score = result.info.get("score")
        leader = None
        if score is not None:
            white_cp = score.white().score(mate_score=100_000)
            if white_cp is not None and abs(white_cp) >= ADJUDICATE_SCORE:
                leader = white_cp > 0
        if leader is not None and leader == ahead_side:
            ahead_streak += 1
        else:
            ahead_side, ahead_streak = leader, (1 if leader is not None else 0)
        assert result.move is not None
        board.push(result.move)
        if ahead_side is not None and ahead_streak >= ADJUDICATE_PLIES:
            return (1.0 if ahead_side == new_colour else 0.0), "adjudicated"
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    if outcome.winner is None:
        return 0.5, outcome.termination.name.lower()
    return (1.0 if outcome.winner == new_colour else 0.0), outcome.termination.name.lower()


def run_versus(args: argparse.Namespace) -> None:
    """This tree against ``args.versus`` at a fixed node budget (or, with ``args.movetime``,
    the same time a move for both), each opening with both colours."""
    openings = versus_openings(max(args.games // 2, 1), args.random_plies, args.seed)
    movetime = args.movetime
    budget = f"{movetime:g} s" if movetime else f"{args.nodes} nodes"
    print(
        f"orthodox chess, this tree against {args.versus} at {budget} a move, "
        f"{len(openings)} openings x 2 colours, drawn at move {args.max_moves}"
    )
    scores: list[float] = []
    endings: dict[str, int] = {}
    with reference_tree(args.versus) as src:
        engines = {True: _uci_engine(None), False: _uci_engine(src)}
        try:
            for opening in openings:
                for new_white in (True, False):
                    score, how = play_versus_game(
                        engines, opening, new_white, args.nodes, args.max_moves, movetime
                    )
                    scores.append(score)
                    key = f"{_verdict(score)} {how}"
                    endings[key] = endings.get(key, 0) + 1
                    mean = sum(scores) / len(scores)
                    print(f"  game {len(scores)}: {key}; running score {mean:.3f}", flush=True)
        finally:
            for engine in engines.values():
                engine.quit()
    mean, low, high = score_interval(scores)
    ends = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
    print(
        f"this tree vs {args.versus}: {sum(scores):g}/{len(scores)} = {mean:.3f} "
        f"(95 % {low:.3f} to {high:.3f}; Elo {elo_difference(mean):+.0f}, "
        f"{elo_difference(low):+.0f} to {elo_difference(high):+.0f}); {ends}"
    )


# -- pooling the games of earlier runs ----------------------------------------------

_SCORES = {"won": 1.0, "drew": 0.5, "lost": 0.0}


def pool_logs(
    lines: Sequence[str],
) -> tuple[
    dict[str, list[tuple[float, float, str]]], dict[tuple[str, str], list[tuple[float, str]]]
]:
    """The games printed by ``--stockfish`` and ``--selfplay`` runs, read back.

    Returns ``(stockfish, ladder)``: by level, its (Stockfish Elo, score, ending) games;
    by (stronger, weaker) pairing, its (score, ending) games. Other lines are skipped.

    >>> sf, ladder = pool_logs([
    ...     "    hard (White) vs 2100: won checkmate; running estimate inf (2100 to inf)",
    ...     "      1. e4 e5 2. Nf3",
    ...     "    hard (Black) vs 1900: drew threefold_repetition; running estimate 2300",
    ...     "    medium (Black) vs casual, opening 6001: lost unfinished; running 0/1",
    ...     "    hard vs 2000: lost rebuilt; colour and moves not kept",
    ... ])
    >>> sf
    {'hard': [(2100.0, 1.0, 'checkmate'), (1900.0, 0.5, 'threefold_repetition'), (2000.0, 0.0, 'rebuilt')]}
    >>> ladder
    {('medium', 'casual'): [(0.0, 'unfinished')]}
    """
    stockfish: dict[str, list[tuple[float, float, str]]] = {}
    ladder: dict[tuple[str, str], list[tuple[float, str]]] = {}
    levels = "|".join(LEVELS)
    # the colour may be missing: games rebuilt from a table's points per setting
    sf_line = re.compile(
        rf"^\s+({levels})(?: \((?:White|Black)\))? vs (\d+): (won|drew|lost) (\w+);"
    )
    pair_line = re.compile(
        rf"^\s+({levels})(?: \((?:White|Black)\))? vs ({levels}), opening \d+: "
        r"(won|drew|lost) (\w+);"
    )
    for line in lines:
        if match := sf_line.match(line):
            level, elo, verdict, how = match.groups()
            stockfish.setdefault(level, []).append((float(elo), _SCORES[verdict], how))
        elif match := pair_line.match(line):
            strong, weak, verdict, how = match.groups()
            ladder.setdefault((strong, weak), []).append((_SCORES[verdict], how))
    return stockfish, ladder


def run_pool(paths: Sequence[str]) -> None:
    """Print the pooled estimates of the games in the logs at ``paths``."""
    lines: list[str] = []
    for path in paths:
        lines += Path(path).read_text(encoding="utf-8").splitlines()
    stockfish, ladder = pool_logs(lines)
    for level in LEVELS:
        games = stockfish.get(level)
        if not games:
            continue
        for elo in sorted({elo for elo, _, _ in games}):
            scores = [score for e, score, _ in games if e == elo]
            print(f"  {level:7} vs Stockfish {elo:.0f}: {sum(scores):g}/{len(scores)}")
        ends: dict[str, int] = {}
        for _, _, how in games:
            ends[how] = ends.get(how, 0) + 1
        est, low, high = elo_estimate([(elo, score) for elo, score, _ in games])
        print(
            f"{level:7} Elo estimate {est:.0f} (95 % interval {low:.0f} to {high:.0f}), "
            f"{len(games)} games ({', '.join(f'{k} {v}' for k, v in sorted(ends.items()))})"
        )
    for (strong, weak), played in ladder.items():
        scores = [score for score, _ in played]
        mean, low, high = score_interval(scores)
        mates = sum(1 for _, how in played if how == "checkmate")
        capped = sum(1 for _, how in played if how == "unfinished")
        ends: dict[str, int] = {}
        for score, how in played:
            key = f"{_verdict(score)} {how}"
            ends[key] = ends.get(key, 0) + 1
        print(
            f"{strong:7} vs {weak:7}: {sum(scores):g}/{len(scores)} = {mean:.2f} "
            f"(95 % {low:.2f} to {high:.2f}; Elo {elo_difference(mean):+.0f}, "
            f"{elo_difference(low):+.0f} to {elo_difference(high):+.0f}); "
            f"ended by mate {mates} of {len(scores)}, unfinished {capped} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(ends.items()))})"
        )


def main() -> None:
    """Parse the options and run the parts asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stockfish", action="store_true", help="orthodox chess vs Stockfish")
    parser.add_argument("--selfplay", action="store_true", help="Zanzibar-S ladder")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--elos", nargs="+", type=int, default=[1350, 1600, 1900, 2200])
    parser.add_argument("--openings", type=int, default=4, help=f"1 to {len(OPENINGS)}")
    parser.add_argument("--first-opening", type=int, default=0, help="index of the first one")
    parser.add_argument("--clock", type=float, default=60.0, help="seconds per side")
    parser.add_argument("--inc", type=float, default=0.5, help="seconds added per move")
    parser.add_argument("--pairs", type=int, default=4, help="self-play openings per pairing")
    parser.add_argument("--seed", type=int, default=1000, help="first self-play opening seed")
    parser.add_argument("--scale", type=float, default=1.0, help="self-play time scale")
    parser.add_argument(
        "--nps",
        type=int,
        default=0,
        help="self-play on node budgets: the levels' scaled time at this many nodes a second",
    )
    parser.add_argument("--max-moves", type=int, default=150)
    parser.add_argument(
        "--sf-nodes",
        type=int,
        default=0,
        help="--stockfish: ours at this many nodes a move (machine-independent) instead of its clock",
    )
    parser.add_argument(
        "--sf-depth",
        type=int,
        default=0,
        help="--stockfish: Stockfish at this depth a move instead of its clock "
        "(past 1 + its skill level, where a limited Stockfish picks its move)",
    )
    parser.add_argument(
        "--pool", nargs="+", metavar="LOG", help="no games: pool the games of these logs"
    )
    parser.add_argument("--versus", metavar="REF", help="this tree against git commit REF")
    parser.add_argument("--nodes", type=int, default=4000, help="--versus: nodes per move")
    parser.add_argument(
        "--movetime",
        type=float,
        default=0.0,
        metavar="S",
        help="--versus: both engines at S seconds a move instead of --nodes (load-sensitive)",
    )
    parser.add_argument("--games", type=int, default=32, help="--versus: games (even)")
    parser.add_argument(
        "--random-plies", type=int, default=2, help="--versus: random plies after each opening"
    )
    args = parser.parse_args()
    if not args.openings >= 1 or args.first_opening < 0:
        parser.error("--openings must be 1 or more and --first-opening 0 or more")
    if args.first_opening + args.openings > len(OPENINGS):
        parser.error(f"there are {len(OPENINGS)} openings")
    if args.pool:
        run_pool(args.pool)
        return
    if not (args.stockfish or args.selfplay or args.versus):
        parser.error("choose --stockfish, --selfplay, --versus REF, --pool LOG or several")
    if args.nodes < 1 or args.games < 2 or args.sf_nodes < 0 or args.sf_depth < 0:
        parser.error(
            "--nodes must be 1 or more, --games 2 or more, --sf-nodes and --sf-depth 0 or more"
        )
    if args.movetime < 0:
        parser.error("--movetime must be 0 (nodes) or more")
    print("load average at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    if args.stockfish:
        run_stockfish(args)
    if args.selfplay:
        run_selfplay(args)
    if args.versus:
        run_versus(args)
    print("load average at the end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
