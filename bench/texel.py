"""Texel tuning of the evaluation weights on self-play games.

1. Plays ``--games`` quick games of a variant between two seeded bots (level
   ``--level`` with a node budget, a few random opening plies for variety)
   and keeps the positions with the game's result; the quiet ones (side to
   move not in check, no capture winning material by static exchange) are tuned on.
2. Fits the scale ``K`` of the logistic ``1 / (1 + 10^(-K * eval / 400))``
   that maps the current evaluation to an expected score.
3. Coordinate descent on the evaluation's weights (the module constants of
   :mod:`zanzibar.games.chess.evaluation`) and on the piece values: each in
   turn is nudged up and down while the mean squared error between result
   and expected score falls.

It prints the error before and after and the weights it found; applying them
(in ``evaluation.py`` or the variant files) is a decision for a human, after
checking them in play (``bench/strength.py``).

Usage: ``.venv/bin/python bench/texel.py [--variant chess] [--games 40] [--rounds 2]``;
``--samples FILE`` keeps the positions for another run (``.gz``: compressed), ``--only A,B``
tunes those weights alone (a quicker run for new terms).

``bench/data/texel_chess.txt.gz`` holds the positions of the runs behind today's weights
(11,843 positions with their games' results: the 8,031 positions kept of 80 orthodox games
at 800 nodes a move, seed 1, and all 3,812 of 40 games at 300 nodes, seed 5000, played by the
bots of 2026-11-25 and 2026-11-26; see the comment above the weights in ``evaluation.py``).
"""

from __future__ import annotations

import argparse
import gzip
import math
import random
import time
from pathlib import Path

from zanzibar.games.chess import evaluation
from zanzibar.games.chess.bots import ChessBot
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import Variant, load_variant

#: Module weights tuned, with their step (every name of ``evaluation.WEIGHT_NAMES``).
WEIGHTS: dict[str, float] = {
    "MOBILITY_WEIGHT": 1,
    "PLACEMENT_CAP": 10,
    "PROMOTION_SHARE_EG": 0.05,
    "PROMOTION_SHARE_MG": 0.03,
    "CENTRE_PAWN_BONUS": 5,
    "SHELTER_BONUS": 3,
    "KING_ADVANCE_PENALTY": 5,
    "KING_CENTRE_FILE_MG": 5,
    "KING_CENTRE_WEIGHT": 2,
    "MOP_UP_EDGE": 3,
    "MOP_UP_CLOSE": 2,
    "MOP_UP_BOX": 3,
    "WINNING_LEAD": 50,
    "SIMPLIFY_SHARE": 0.05,
    "DOUBLED_MG": 5,
    "DOUBLED_EG": 5,
    "ISOLATED_MG": 4,
    "ISOLATED_EG": 4,
    "PASSED_MG": 10,
    "PASSED_EG": 20,
    "SHIELD_BONUS": 4,
    "KING_ATTACK": 2,
    "LIVE_MOBILITY_MG": 1,
    "LIVE_MOBILITY_EG": 1,
    "PAIR_MG": 5,
    "PAIR_EG": 5,
    "OPEN_FILE_MG": 5,
    "OPEN_FILE_EG": 5,
    "HALF_OPEN_FILE_MG": 4,
    "HALF_OPEN_FILE_EG": 4,
    "THREAT_BY_PAWN_MG": 5,
    "THREAT_BY_PAWN_EG": 5,
    "CASTLING_RIGHT_MG": 4,
    "UNCASTLED_MG": 10,
    "KING_OPEN_FILE_MG": 5,
    "KING_STORM_MG": 3,
    "SORTIE_MG": 10,
    "LIVE_MOBILITY_SCALING": 0.25,
}
#: Step of the piece values, in centipawns.
VALUE_STEP = 25


def play_games(
    variant: Variant, games: int, level: str, nodes: int, seed: int
) -> list[tuple[Position, float]]:
    """Quiet positions of seeded games with White's score in each game."""
    samples: list[tuple[Position, float]] = []
    for game in range(games):
        rng = random.Random(seed + game)
        pos = Position(variant)
        for _ in range(4):
            pos.push(rng.choice(sorted(pos.legal_moves())))
        bots = {1: ChessBot(variant, level, seed + game, node_limit=nodes)}
        bots[-1] = ChessBot(variant, level, seed + game + 7919, node_limit=nodes)
        seen: list[str] = []
        result = None
        for _ in range(300):
            result = pos.outcome()
            if result is not None:
                break
            if len(pos.move_stack) > 10 and not pos.is_check():
                seen.append(pos.fen())
            pos.push(bots[pos.turn].choose_move(pos))
        score = 0.5 if result is None else (1 + result.winner) / 2
        samples.extend((Position(variant, fen), score) for fen in seen)
    return samples


def is_quiet(pos: Position, value: list[int]) -> bool:
    """Not in check and no capture that wins material by static exchange: the static
    evaluation is what a search would say (no exchange is pending)."""
    if pos.is_check():
        return False
    return all(pos.see(move, value) <= 0 for move in pos.captures())


def save_samples(samples: list[tuple[Position, float]], path: Path) -> None:
    """One "FEN;score" line per position (gzip-compressed when the name ends in ``.gz``)."""
    text = "".join(f"{pos.fen()};{score}\n" for pos, score in samples)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")


def load_samples(variant: Variant, path: Path) -> list[tuple[Position, float]]:
    """The positions written by :func:`save_samples`."""
    out = []
    raw = path.read_bytes()
    text = gzip.decompress(raw) if path.suffix == ".gz" else raw
    for line in text.decode("utf-8").splitlines():
        fen, _, score = line.rpartition(";")
        out.append((Position(variant, fen), float(score)))
    return out


def mean_error(samples: list[tuple[Position, float]], ev: evaluation.Evaluator, k: float) -> float:
    """Mean squared error of the logistic of White's evaluation against the results."""
    total = 0.0
    for pos, score in samples:
        white = ev.evaluate(pos) * pos.turn
        total += (score - 1 / (1 + 10 ** (-k * white / 400))) ** 2
    return total / len(samples)


def fit_k(samples: list[tuple[Position, float]], ev: evaluation.Evaluator) -> float:
    """The logistic scale that fits the current evaluation best (golden-section search)."""
    lo, hi = 0.05, 3.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(30):
        a = hi - ratio * (hi - lo)
        b = lo + ratio * (hi - lo)
        if mean_error(samples, ev, a) < mean_error(samples, ev, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def main() -> None:
    """Play, fit, tune, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--level", default="casual")
    parser.add_argument("--nodes", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        help="comma-separated weight names: tune those alone (and no piece values)",
    )
    parser.add_argument(
        "--samples", type=Path, help="read the positions from this file if it exists, else save"
    )
    args = parser.parse_args()
    tuned = WEIGHTS
    if args.only:
        names = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in names if name not in WEIGHTS]
        if unknown:
            parser.error(f"unknown weights: {', '.join(unknown)} (known: {', '.join(WEIGHTS)})")
        tuned = {name: WEIGHTS[name] for name in names}
    variant = load_variant(args.variant)
    start = time.perf_counter()
    if args.samples and args.samples.exists():
        samples = load_samples(variant, args.samples)
    else:
        samples = play_games(variant, args.games, args.level, args.nodes, args.seed)
        if args.samples:
            save_samples(samples, args.samples)
    value = evaluation.evaluator_for(variant).value_by_code
    quiet = [(pos, score) for pos, score in samples if is_quiet(pos, value)]
    print(
        f"{args.variant}: {len(quiet)} quiet positions of {len(samples)} from {args.games} "
        f"games ({time.perf_counter() - start:.0f} s)"
    )
    samples = quiet
    values = {p.letter: evaluation.evaluator_for(variant).values[p.letter] for p in variant.pieces}
    values = {k: v for k, v in values.items() if v > 0}
    ev = evaluation.build_evaluator(variant, values)
    k = fit_k(samples, ev)
    best = mean_error(samples, ev, k)
    print(f"K = {k:.3f}; error before: {best:.5f}")
    for _ in range(args.rounds):
        for name, step in tuned.items():
            for direction in (1, -1):
                old = getattr(evaluation, name)
                setattr(evaluation, name, type(old)(old + direction * step))
                trial = mean_error(samples, evaluation.build_evaluator(variant, values), k)
                if trial < best:
                    best = trial
                    break
                setattr(evaluation, name, old)
        for letter in [] if args.only else list(values):
            for direction in (1, -1):
                old_value = values[letter]
                values[letter] = old_value + direction * VALUE_STEP
                trial = mean_error(samples, evaluation.build_evaluator(variant, values), k)
                if trial < best:
                    best = trial
                    break
                values[letter] = old_value
        print(f"after a round: error {best:.5f}")
    print("weights:", ", ".join(f"{name}={getattr(evaluation, name):g}" for name in tuned))
    print("values:", ", ".join(f"{letter}={v}" for letter, v in values.items()))


if __name__ == "__main__":
    main()
