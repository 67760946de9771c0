"""Can a level finish a won ending? Mates against a bare King from random starts.

Issue 15 asks that "a bot that is ahead must know how to finish". Games from
the opening reach King-and-piece endings too rarely to judge the ending terms
of the evaluation, so this bench plays them directly: for each of ``--starts``
random legal positions (seeded) with White's King and ``--material`` (piece
letters of the variant) against Black's bare King, White to move, the level
plays both sides at a fixed node budget (so the machine's load changes nothing)
until mate, stalemate, the variant's move rule, repetition or ``--plies``.

It prints how many starts ended in mate and the mean plies to mate; with
``--reference COMMIT``, the same starts played by that commit's code (extracted
with ``git archive``, run in a child process), side by side. Node budgets make
both runs exact replays, so one run of each side is enough.

Usage::

    .venv/bin/python bench/bench_endings.py --variant chess --material BN --starts 10
    .venv/bin/python bench/bench_endings.py --variant chess --material BN --level casual \\
        --starts 10 --reference 93ad354
    .venv/bin/python bench/bench_endings.py --variant zanzibar-s --material R --starts 10
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from reference import current_source, discard, extract, run_child


def random_start(variant: Any, material: str, rng: random.Random) -> str:
    """A FEN: White's King and ``material``, Black's bare King, White to move, legal."""
    from zanzibar.games.chess.position import Position

    files, ranks = variant.files, variant.ranks
    letters = ["K", *material.upper(), "k"]
    while True:
        squares = rng.sample(range(files * ranks), len(letters))
        board: dict[int, str] = dict(zip(squares, letters, strict=True))
        rows = []
        for rank in range(ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(files):
                letter = board.get(rank * files + file)
                if letter is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += letter
            rows.append(row + (str(empty) if empty else ""))
        fen = "/".join(rows) + " w - - 0 1"
        try:
            pos = Position(variant, fen)
        except ValueError:
            continue
        kings_apart = max(
            abs(squares[0] % files - squares[-1] % files),
            abs(squares[0] // files - squares[-1] // files),
        )
        if kings_apart < 2 or pos.is_attacked(pos.king_square(-1), 1):
            continue
        if pos.outcome() is None:
            return fen


def play_out(
    variant: Any, fen: str, level: str, nodes: int, plies: int, seed: int
) -> dict[str, Any]:
    """One start played to its end by ``level`` on both sides."""
    from zanzibar.games.chess.bots import ChessBot
    from zanzibar.games.chess.position import Position

    pos = Position(variant, fen)
    bots = {
        1: ChessBot(variant, level, seed, node_limit=nodes),
        -1: ChessBot(variant, level, seed + 1, node_limit=nodes),
    }
    for ply in range(plies):
        result = pos.outcome()
        if result is not None:
            return {"end": result.reason, "winner": result.winner, "plies": ply}
        pos.push(bots[pos.turn].choose_move(pos))
    result = pos.outcome()
    if result is not None:
        return {"end": result.reason, "winner": result.winner, "plies": plies}
    return {"end": "unfinished", "winner": 0, "plies": plies}


def worker(args: argparse.Namespace) -> dict[str, Any]:
    """Every start of the run, with the code on this process's path."""
    from zanzibar.games.chess.variant import load_variant

    variant = load_variant(args.variant)
    rng = random.Random(args.seed)
    starts = [random_start(variant, args.material, rng) for _ in range(args.starts)]
    began = time.process_time()
    games = []
    for index, fen in enumerate(starts):
        game = play_out(variant, fen, args.level, args.nodes, args.plies, args.seed + 2 * index)
        games.append({"fen": fen, **game})
        if args.verbose:
            print(f"  {fen}: {game['end']} after {game['plies']} plies", file=sys.stderr)
    return {"games": games, "cpu": time.process_time() - began}


def summary(games: list[dict[str, Any]]) -> tuple[int, float, dict[str, int]]:
    """(mates by White, mean plies of those mates, count of every ending)."""
    mates = [g["plies"] for g in games if g["end"] == "checkmate" and g["winner"] == 1]
    ends: dict[str, int] = {}
    for game in games:
        ends[game["end"]] = ends.get(game["end"], 0) + 1
    return len(mates), (sum(mates) / len(mates) if mates else 0.0), ends


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--material", default="BN", help="White's pieces besides its King")
    parser.add_argument("--level", default="casual")
    parser.add_argument("--nodes", type=int, default=6_000, help="nodes a move, both sides")
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", default="none", help="commit to compare ('none': skip)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args)))
        return 0
    passed = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--verbose"]
    sides: list[tuple[str, Path]] = [("this tree", current_source())]
    extracted: Path | None = None
    if args.reference != "none":
        extracted = extract(args.reference)
        if extracted is None:
            print(f"(no reference: git cannot give {args.reference})")
        else:
            sides.insert(0, (f"reference {args.reference}", extracted))
    print(
        f"{args.variant}: King and {args.material} against a bare King, {args.starts} random "
        f"starts (seed {args.seed}), {args.level} on both sides at {args.nodes} nodes a move, "
        f"cap {args.plies} plies"
    )
    try:
        for name, source in sides:
            answer = run_child(source, Path(__file__), passed)
            mates, mean, ends = summary(answer["games"])
            detail = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
            print(
                f"  {name:<24} mates {mates}/{args.starts}, mean {mean:.0f} plies to mate "
                f"({detail}); CPU {answer['cpu']:.0f} s"
            )
    finally:
        if extracted is not None:
            discard(extracted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
