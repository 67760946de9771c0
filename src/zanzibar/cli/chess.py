"""``zanzibar perft``: count chess move-tree nodes (terminal play lives in ``chess_play``).

``zanzibar perft VARIANT --depth N [--fen FEN] [--divide] [--variant-file FILE]``
prints the number of leaf nodes of the legal move tree (with ``--divide``, the
count under each first move, in coordinates, then the total), and the time
and nodes per second on standard error.
"""

from __future__ import annotations

import sys
import time

from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.notation import format_coordinate
from zanzibar.games.chess.perft import divide
from zanzibar.games.chess.perft import perft as count_perft
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant, load_variant_file, shipped_variants


def perft(argv: list[str]) -> int:
    """Count perft nodes; exit status 2 on bad input (message on standard error)."""
    parser = make_parser("perft", "Count the nodes of the legal move tree of a chess variant.")
    parser.add_argument(
        "variant",
        help=f"shipped variant ({', '.join(shipped_variants())}) or any name with --variant-file",
    )
    parser.add_argument("--depth", type=int, required=True, help="number of plies (1 or more)")
    parser.add_argument("--fen", help="start from this FEN instead of the start position")
    parser.add_argument("--divide", action="store_true", help="print the count under each move")
    parser.add_argument("--variant-file", help="load the variant from this TOML file")
    args = parser.parse_args(argv)
    if args.depth < 1:
        print("zanzibar perft: --depth must be 1 or more", file=sys.stderr)
        return 2
    try:
        variant = (
            load_variant_file(args.variant_file)
            if args.variant_file
            else load_variant(args.variant)
        )
        pos = Position(variant, args.fen)
    except CorruptDataError as exc:
        print(f"zanzibar perft: {exc.message}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.divide:
        total = 0
        for move, count in divide(pos, args.depth):
            print(f"{format_coordinate(pos, move)}: {count}")
            total += count
        print(f"\nNodes searched: {total}")
    else:
        total = count_perft(pos, args.depth)
        print(total)
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    sys.stdout.flush()  # the count first, then the timing, when both go to one terminal
    print(f"{elapsed:.3f} s, {rate:,.0f} nodes/s", file=sys.stderr)
    return 0
