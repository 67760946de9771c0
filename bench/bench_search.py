"""Search speed: today's engine (a pristine copy of the reference commit) beside this one.

For each position (Zanzibar-S and orthodox chess start positions, plus
middlegames) the bot's search runs to a budget of ``--nodes`` (default 30,000), once
with the engine of ``REFERENCE_COMMIT`` (the search before the speed work,
extracted with ``git archive`` into a temporary directory at run time) and
once with the working tree's, each in its own fresh interpreter, alternately,
``--repeat`` times; the best run of each is kept (the machine may be shared).
It prints the depth completed, and the nodes per second of each, and the
ratio new / old of the node rates. Time is the process's CPU time, so that
other programs on a shared machine slow neither side.

A node is one position visited by the search (inner or quiescence), counted
the same way by both engines.

``--instructions`` counts, instead of timing, the machine instructions per node
under cachegrind (valgrind): a search of ``--nodes`` less a search of one node
(interpreter start, imports, tables), each position on its own, with a fixed hash
seed. The count does not depend on the machine's load, so a change's gain shows
even on a busy shared machine where CPU times drift by several per cent.

``--machinery`` splits the speed into the search's own machinery and its evaluation:
each tree's searches are run once recording every static score the search asks for
(by position hash), then timed as usual and timed again with those scores read back
from the record instead of evaluated (a dictionary look-up; the same tree, which the
bench checks: a score missing from the record stops it). It prints both node rates and
the evaluation's cost per node of each tree. The reference's evaluation was material,
piece-square tables and a King shelter count; today's adds mobility, pawn structure,
King safety and file and pair terms (issue 15's strength work), so the two rates answer
two questions: how much faster the engine is as a whole, and how much faster its move
generation, make/unmake, ordering and table are.

Usage: ``.venv/bin/python bench/bench_search.py [--nodes 30000] [--repeat 3]
[--reference COMMIT ...] [--instructions | --machinery]``; ``--reference`` (repeatable) compares
with other commits instead, all in the same run (for instance the main branch
before a change, to see that change's own gain, beside 52f7176).

Figures of 2026-11-27 (21:56-22:11 UTC, load average 8-10; quiet moves generated alone, the
check tests reading one square's lines at a time and a lone ray in place, flag tables for their
bit tests: the same trees). ``--instructions`` (3,000 nodes less a 1-node run), main 8e43756 /
this tree: Zanzibar-S start 187.3 k / 179.9 k, crowded middlegame 187.3 k / 173.0 k, chess start
144.1 k / 138.7 k, Italian middlegame 166.7 k / 160.2 k, Kiwipete 152.8 k / 146.3 k: 1.049x
fewer. ``--repeat 5 --reference 8e43756 --reference 52f7176`` (nodes per CPU second, one step
short of this tree): 1.03x against main on each position, **1.34x against 52f7176** (geometric
mean; 1.47x at main on a quiet machine, 1.28-1.35x on loaded ones). The issue's 4x is not
reached (docs/benchmarks.md).

Figures of 2026-11-27 (08:06-08:25 UTC, load average 6-13; four small cuts on the node's path,
the same trees: the Kings' safety and the pair term without per-piece tests and dicts, a
static exchange nobody answers returned at once, the quiet moves' tuples made by ``zip``).
``--instructions --nodes 3000 --reference c31ed9e --reference 52f7176``, instructions per node
of c31ed9e / 52f7176 / this tree: Zanzibar-S start 182 k / 176 k / 182 k, crowded Zanzibar-S
middlegame 185 k / 799 k / 185 k, chess start 134 k / 199 k / 133 k, Italian middlegame 161 k /
173 k / 160 k, Kiwipete 154 k / 241 k / 152 k: geometric means 1.01x fewer than c31ed9e and
1.61x fewer than 52f7176 (at 3,000 nodes the tables filled on first sight weigh more than at
10,000, where 52f7176 took 1.99x more). ``--machinery --repeat 2`` with the same references in
the same window (nodes per CPU second with the evaluation | with the scores replayed, c31ed9e /
52f7176 / this tree): Zanzibar-S start 17.2 k / 10.9 k / 13.8 k | 26.2 k / 11.5 k / 21.8 k, crowded
middlegame 19.4 k / 5.5 k / 13.6 k | 21.4 k / 5.3 k / 17.4 k, chess start 26.2 k / 17.9 k /
20.8 k | 33.1 k / 26.0 k / 31.2 k, Italian 20.6 k / 18.5 k / 19.4 k | 26.1 k / 25.7 k / 25.0 k,
Kiwipete 23.2 k / 17.9 k / 20.4 k | 27.7 k / 19.6 k / 35.0 k: geometric means 1.34x with the
evaluation and 1.67x without it against 52f7176; 0.82x and 0.95x against c31ed9e, which is this
load's noise, not a loss (the same trees and 0.7 % fewer instructions; three alternating pairs
of c31ed9e's engine and this one, 30,000 nodes on the five positions, CPU seconds 9.42 / 8.27,
9.16 / 8.81, 8.05 / 7.72: 1.07x). Two more cuts after this run (the SEE's cheapest worth kept, no
captured-square term in a quiet push): the five positions at 5,000 nodes less a 1-node run, 163.1 k
instructions per node at 28794ee, 161.7 k now (0.9 % fewer in all). The issue's 4x is not reached
(README, Benchmarks).

Figures of 2026-11-27 (04:52-05:05 UTC, load average 17-20), ``--machinery --repeat 2
--reference 52f7176 --reference 5958dc6``, nodes per CPU second of 52f7176 / 5958dc6 / this
tree with the evaluation | with the static scores replayed: Zanzibar-S start 11.8 k / 13.2 k /
14.1 k | 13.3 k / 26.4 k / 27.1 k, crowded Zanzibar-S middlegame 6.2 k / 13.6 k / 14.5 k | 6.6 k
/ 19.9 k / 23.9 k, chess start 20.5 k / 22.7 k / 21.4 k | 26.0 k / 33.2 k / 37.3 k, Italian
middlegame 18.8 k / 18.8 k / 18.2 k | 30.1 k / 26.2 k / 34.4 k, Kiwipete 16.6 k / 21.7 k / 23.2 k
| 23.6 k / 28.5 k / 32.7 k: geometric means 1.32x with the evaluation against 52f7176 (1.02x
against 5958dc6) and 1.76x without it (1.16x against 5958dc6: this load's noise, the instruction
count below says 2 %). Instructions per node, the five positions at 3,000 nodes less a 1-node
run under cachegrind: 5958dc6 165.5 k, this tree 162.2 k (1.02x; the check tests' quick pass).

Earlier figures (2026-11-26 14:54-14:59 UTC, issue 15, two shared cores at load average
13-18), ``--machinery --repeat 3``, nodes per CPU second of 52f7176 / this tree, with the
evaluation and (after the bar) with the static scores replayed: Zanzibar-S start 19.7 k /
28.3 k | 26.2 k / 44.9 k, crowded Zanzibar-S middlegame 9.3 k / 29.2 k | 12.4 k / 40.7 k,
chess start 43.6 k / 46.4 k | 55.9 k / 67.2 k, Italian middlegame 40.3 k / 38.4 k | 49.2 k
/ 56.0 k, Kiwipete 37.2 k / 36.3 k | 37.2 k / 61.5 k: geometric means 1.35x with the
evaluation and 1.66x without it (an earlier run at load 11-15: 1.28x and 1.65x). The
evaluation costs 7-13 us a node today against 4-5 us on orthodox chess for 52f7176's
(noisy: a difference of two CPU times). Instructions per node (``--instructions --nodes
10000``, same source, 12:19 UTC), 52f7176 / 21dcb99 / this tree: 357.1 k / 176.8 k /
168.5 k, 761.7 k / 203.9 k / 195.7 k, 171.7 k / 139.0 k / 129.3 k, 199.0 k / 157.2 k /
146.8 k, 286.9 k / 142.9 k / 136.0 k: 1.99x fewer than 52f7176 (geometric mean). The
issue's 4x is not reached (README, Benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

#: The engine as it was before the speed work (main, 2026-11-25).
REFERENCE_COMMIT = "52f7176d6847a8a397a923d600b56309f2416289"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

#: A crowded Zanzibar-S middlegame from a bot game (Black to move, many captures about).
ZANZIBAR_MIDDLEGAME = (
    "cmz3kuv1mc/1rnbw1gw1r1e/p1pi2zipbp1/9pn1/1p1p1pp4p/e2f8/7Q4/4IPL5/2E1Z1I2E2/"
    "PPPPN1P1PPPP/1R4WWBNR1/CM1V2KUV1MC b Kk - 1 26"
)

#: An orthodox middlegame (Italian game, both sides castled).
CHESS_MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7"

POSITIONS = [
    ("zanzibar-s", None, "Zanzibar-S start"),
    ("zanzibar-s", ZANZIBAR_MIDDLEGAME, "Zanzibar-S crowded middlegame"),
    ("chess", None, "chess start"),
    ("chess", CHESS_MIDDLEGAME, "chess middlegame (Italian)"),
    ("chess", KIWIPETE, "chess Kiwipete"),
]

ROOT = Path(__file__).resolve().parent.parent


def worker(nodes: int, only: int | None = None, mode: str = "time", book: str = "") -> None:
    """Search every position (or position ``only``) once with the engine first on
    ``sys.path``; print JSON.

    ``mode`` "record" writes every static score the search asks for (by position hash)
    to the file ``book``; "replay" reads them back from it instead of evaluating, so that
    the same tree is searched with the evaluation reduced to a dictionary look-up (the
    search's own machinery timed alone; each row then also carries the look-ups missed).
    """
    import time

    from zanzibar.games.chess.evaluation import Evaluator
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.search import Searcher, SearchLimits
    from zanzibar.games.chess.variant import load_variant

    evaluate = Evaluator.evaluate
    books: list[dict[int, int]] = []
    if mode == "replay":
        with open(book) as handle:
            books = [{int(k): v for k, v in part.items()} for part in json.load(handle)]
    rows: list[list[float]] = []
    for index, (variant_name, fen, _label) in enumerate(POSITIONS):
        if only is not None and index != only:
            continue
        scores: dict[int, int] = books[len(rows)] if mode == "replay" else {}
        missed = [0]

        def recording(self: Evaluator, pos: Position, scores: dict[int, int] = scores) -> int:
            score = evaluate(self, pos)
            scores[pos.hash] = score
            return score

        def replaying(
            self: Evaluator,
            pos: Position,
            get: Callable[[int], int | None] = scores.get,
            missed: list[int] = missed,
        ) -> int:
            score = get(pos.hash)
            if score is None:
                missed[0] += 1
                return evaluate(self, pos)
            return score

        if mode != "time":
            setattr(Evaluator, "evaluate", recording if mode == "record" else replaying)  # noqa: B010
        variant = load_variant(variant_name)
        pos = Position(variant, fen)
        start = time.process_time()
        result = Searcher(variant).search(pos, SearchLimits(node_limit=nodes))
        row = [result.depth, result.nodes, time.process_time() - start]
        if mode == "replay":
            row.append(missed[0])
        rows.append(row)
        if mode == "record":
            books.append(scores)
    setattr(Evaluator, "evaluate", evaluate)  # noqa: B010
    if mode == "record":
        with open(book, "w") as handle:
            json.dump(books, handle)
    print(json.dumps(rows))


def reference_tree(directory: Path, commit: str = REFERENCE_COMMIT) -> Path:
    """Extract ``commit``'s ``src`` into ``directory``; return that ``src``."""
    archive = directory / "reference.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(directory, filter="data")
    return directory / "src"


def run(
    src: Path,
    nodes: int,
    only: int | None = None,
    prefix: tuple[str, ...] = (),
    mode: str = "time",
    book: str = "",
) -> str:
    """One worker run with the engine found in ``src``; its standard output and error."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    extra = ["--only", str(only)] if only is not None else []
    if mode != "time":
        extra += ["--mode", mode, "--book", book]
    out = subprocess.run(
        [*prefix, sys.executable, __file__, "--worker", "--nodes", str(nodes), *extra],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=src.parent,
    )
    return out.stdout + "\n" + out.stderr if prefix else out.stdout


def timed(src: Path, nodes: int) -> list[tuple[int, int, float]]:
    """(depth, nodes, CPU seconds) of each position, one worker run."""
    return [tuple(row) for row in json.loads(run(src, nodes))]


def _rate(row: tuple[int, int, float]) -> float:
    return row[1] / row[2] if row[2] else 0.0


#: cachegrind counting instructions only (no cache simulation: faster, the same count).
CACHEGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def instructions(src: Path, index: int, nodes: int) -> tuple[int, float]:
    """(nodes searched, machine instructions per node) of position ``index`` under
    cachegrind: a run of ``nodes`` less a run of one node (interpreter start, imports,
    tables), so that only the search's own work is counted. Exact and repeatable: a
    shared machine's load does not change it."""
    counts = []
    for budget in (1, nodes):
        text = run(src, budget, index, CACHEGRIND)
        searched = json.loads(text.split("\n", 1)[0])[0][1]
        match = re.search(r"I\s+refs:\s+([\d,]+)", text)
        if match is None:
            raise RuntimeError("no instruction count in cachegrind's output:\n" + text)
        counts.append((searched, int(match.group(1).replace(",", ""))))
    (n1, i1), (n2, i2) = counts
    return n2, (i2 - i1) / max(n2 - n1, 1)


def main() -> None:
    """Print one line per position: each reference's and this tree's depth and node rate
    (or instructions per node), and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=30_000)
    parser.add_argument("--repeat", type=int, default=3, help="keep the best of N runs each")
    parser.add_argument(
        "--reference",
        action="append",
        help=f"a commit to compare with (repeatable; default {REFERENCE_COMMIT[:7]})",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count machine instructions per node under cachegrind instead of timing",
    )
    parser.add_argument(
        "--machinery",
        action="store_true",
        help="also time the same trees with every static score read from a record "
        "(the search without its evaluation)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="time", help=argparse.SUPPRESS)
    parser.add_argument("--book", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.nodes, args.only, args.mode, args.book)
        return
    references = args.reference or [REFERENCE_COMMIT]
    with tempfile.TemporaryDirectory() as tmp:
        trees = []
        for i, commit in enumerate(references):
            directory = Path(tmp) / str(i)
            directory.mkdir()
            trees.append((commit[:7], reference_tree(directory, commit)))
        trees.append(("new", ROOT / "src"))
        if args.instructions:
            report_instructions(trees, args.nodes)
        elif args.machinery:
            report_machinery(trees, args.nodes, args.repeat, Path(tmp))
        else:
            report_times(trees, args.nodes, args.repeat)


def report_instructions(trees: list[tuple[str, Path]], nodes: int) -> None:
    """Instructions per node of each tree, position by position, and the ratios."""
    print(f"cachegrind, {nodes} nodes per search less a 1-node run; instructions per node")
    names = [name for name, _ in trees]
    print(f"{'position':31} " + " ".join(f"{n:>8}" for n in names) + "  ratios old/new")
    products = [1.0] * (len(trees) - 1)
    for index, (_v, _f, label) in enumerate(POSITIONS):
        per_node = [instructions(src, index, nodes)[1] for _, src in trees]
        ratios = [old / per_node[-1] for old in per_node[:-1]]
        products = [p * r for p, r in zip(products, ratios, strict=True)]
        cells = " ".join(f"{v / 1000:>7.0f}k" for v in per_node)
        print(f"{label:31} {cells}  " + " ".join(f"{r:.2f}x" for r in ratios), flush=True)
    means = " ".join(f"{p ** (1 / len(POSITIONS)):.2f}x" for p in products)
    print(f"geometric mean of the ratios (against {', '.join(names[:-1])}): {means}")


def _keep_best(kept: list[tuple[int, int, float]], rows: list[tuple[int, int, float]]) -> None:
    """Keep, position by position, the faster of the row already kept and the new one."""
    if not kept:
        kept.extend(rows)
        return
    for i, row in enumerate(rows):
        if _rate(row) > _rate(kept[i]):
            kept[i] = row


def report_times(trees: list[tuple[str, Path]], nodes: int, repeat: int) -> None:
    """Node rates (CPU time) of each tree, runs alternated, the best of ``repeat`` kept."""
    best: list[list[tuple[int, int, float]]] = [[] for _ in trees]
    for _ in range(repeat):
        for kept, (_name, src) in zip(best, trees, strict=True):
            _keep_best(kept, timed(src, nodes))
    names = [name for name, _ in trees]
    print(f"budget {nodes} nodes per search, CPU time, best of {repeat}; depth and nodes/s")
    head = " ".join(f"{n + ' d':>9} {n + ' n/s':>11}" for n in names)
    print(f"{'position':31} {head}  ratios new/old")
    products = [1.0] * (len(trees) - 1)
    for index, (_v, _f, label) in enumerate(POSITIONS):
        rows = [kept[index] for kept in best]
        rates = [_rate(row) for row in rows]
        ratios = [rates[-1] / old if old else 0.0 for old in rates[:-1]]
        products = [p * r for p, r in zip(products, ratios, strict=True)]
        cells = " ".join(
            f"{row[0]:>9} {rate:>11.0f}" for row, rate in zip(rows, rates, strict=True)
        )
        print(f"{label:31} {cells}  " + " ".join(f"{r:.2f}x" for r in ratios))
    means = " ".join(f"{p ** (1 / len(POSITIONS)):.2f}x" for p in products)
    print(f"geometric mean of the ratios (against {', '.join(names[:-1])}): {means}")


def report_machinery(trees: list[tuple[str, Path]], nodes: int, repeat: int, tmp: Path) -> None:
    """Each tree's node rate with its evaluation and without it (every static score read
    from a record of the same search), the runs alternated, the best of ``repeat`` kept;
    and the evaluation's cost per node. Splits a change of speed into the search's own
    machinery (move generation, make/unmake, ordering, table) and the evaluation, whose
    knowledge may have grown on purpose."""
    books = []
    for index, (_name, src) in enumerate(trees):
        book = tmp / f"book{index}.json"
        run(src, nodes, mode="record", book=str(book))
        books.append(str(book))
    full: list[list[tuple[int, int, float]]] = [[] for _ in trees]
    bare: list[list[tuple[int, int, float]]] = [[] for _ in trees]
    for _ in range(repeat):
        for t, (_name, src) in enumerate(trees):
            for kept, mode in ((full[t], "time"), (bare[t], "replay")):
                out = json.loads(run(src, nodes, mode=mode, book=books[t]))
                if mode == "replay" and any(row[3] for row in out):
                    raise RuntimeError("the replayed search left the recorded tree")
                _keep_best(kept, [(r[0], r[1], r[2]) for r in out])
    names = [name for name, _ in trees]
    print(f"budget {nodes} nodes per search, CPU time, best of {repeat}")
    print("nodes/s with the evaluation | without it (scores replayed) | evaluation us per node")
    products = [[1.0] * (len(trees) - 1), [1.0] * (len(trees) - 1)]
    for index, (_v, _f, label) in enumerate(POSITIONS):
        cells = []
        for t, name in enumerate(names):
            with_eval, without = full[t][index], bare[t][index]
            per_node = (with_eval[2] / with_eval[1] - without[2] / without[1]) * 1e6
            cells.append(
                f"{name} {_rate(with_eval):>6.0f} | {_rate(without):>6.0f} | {per_node:4.1f}"
            )
        for k, runs in enumerate((full, bare)):
            rates = [_rate(runs[t][index]) for t in range(len(trees))]
            products[k] = [
                p * (rates[-1] / old if old else 0.0)
                for p, old in zip(products[k], rates[:-1], strict=True)
            ]
        print(f"{label:31} " + "   ".join(cells))
    count = len(POSITIONS)
    for k, what in enumerate(("with the evaluation", "without it")):
        means = " ".join(f"{p ** (1 / count):.2f}x" for p in products[k])
        print(f"geometric mean new/old {what} (against {', '.join(names[:-1])}): {means}")


if __name__ == "__main__":
    main()
