"""``zanzibar uci``: driven through python-chess's ``chess.engine`` like any UCI engine,
and the protocol state machine directly for the variants python-chess cannot board."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from zanzibar.cli.uci import UciEngine, _parse_go

ENGINE = [sys.executable, "-m", "zanzibar.cli.main", "uci"]


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    eng = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    try:
        yield eng
    finally:
        eng.quit()


def test_identifies_itself_and_its_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "Zanzibar"
    options = engine.options
    assert set(options["UCI_Variant"].var) == {"chess", "shako", "metamachy", "zanzibar-s"}
    assert set(options["Level"].var) == {"easy", "casual", "medium", "hard"}
    for name in ("Threads", "UCI_LimitStrength", "UCI_Elo"):
        assert name in options


def test_plays_a_legal_move_by_movetime_nodes_depth_and_clock(
    engine: chess.engine.SimpleEngine,
) -> None:
    board = chess.Board()
    board.push_uci("e2e4")
    for limit in (
        chess.engine.Limit(time=0.2),
        chess.engine.Limit(nodes=300),
        chess.engine.Limit(depth=2),
        chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1),
    ):
        result = engine.play(board, limit)
        assert result.move is not None and result.move in board.legal_moves


def test_finds_a_mate_in_two_and_reports_it(engine: chess.engine.SimpleEngine) -> None:
    # King and Rook against King: 1. Kc7 (or Kb6) and 2. Rh8# whatever Black does.
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    score = info["score"].white()
    assert score.is_mate() and score.mate() == 2
    result = engine.play(board, chess.engine.Limit(depth=4))
    assert result.move is not None and result.move.uci() in ("c6c7", "c6b6")
    board.push(result.move)
    for reply in list(board.legal_moves):
        board.push(reply)
        final = engine.play(board, chess.engine.Limit(depth=2))
        assert final.move is not None
        board.push(final.move)
        assert board.is_checkmate()
        board.pop()
        board.pop()


def test_infinite_search_stops_on_request(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board(), chess.engine.Limit()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_limit_strength_and_level_options(engine: chess.engine.SimpleEngine) -> None:
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 800, "Threads": 2})
    result = engine.play(chess.Board(), chess.engine.Limit(time=0.1))
    assert result.move in chess.Board().legal_moves
    engine.configure({"UCI_LimitStrength": False, "Level": "medium"})
    result = engine.play(chess.Board(), chess.engine.Limit(time=0.1))
    assert result.move in chess.Board().legal_moves


def _engine() -> tuple[UciEngine, list[str]]:
    lines: list[str] = []
    return UciEngine(lines.append), lines


def test_zanzibar_s_variant_plays_coordinates_on_twelve_ranks() -> None:
    eng, lines = _engine()
    eng.handle("setoption name UCI_Variant value zanzibar-s")
    eng.handle("position startpos moves e2e4")
    eng.handle("go nodes 400")
    eng.handle("isready")  # waits for nothing: the answer comes at once
    eng.handle("quit")
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1
    move = best[0].split()[1]
    assert move[0] in "abcdefghijkl" and move != "(none)"
    assert "readyok" in lines


def test_bad_input_is_reported_and_changes_nothing() -> None:
    eng, lines = _engine()
    eng.handle("position startpos moves e2e4")
    fen = eng.pos.fen()
    for bad in (
        "position startpos moves e7e5 e2e4",  # the second move is not legal
        "position fen not a fen",
        "setoption name UCI_Variant value crazyhouse",
        "setoption name UCI_Elo value 99999",
        "setoption name Level value grandmaster",
        "go wtime",
        "go depth -1",
        "frobnicate",
    ):
        lines.clear()
        assert eng.handle(bad)
        assert lines and lines[0].startswith("info string"), bad
        assert eng.pos.fen() == fen
    assert eng.variant_name == "chess"


def test_elo_picks_the_nearest_level() -> None:
    eng, _lines = _engine()
    eng.handle("setoption name UCI_LimitStrength value true")
    eng.handle("setoption name UCI_Elo value 500")
    assert eng.effective_level() == "easy"
    eng.handle("setoption name UCI_Elo value 2500")
    assert eng.effective_level() == "hard"


def test_go_parameters_are_parsed() -> None:
    params = _parse_go(
        ["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20", "movestogo", "5"]
    )
    assert params == {"wtime": 1000, "btime": 2000, "winc": 10, "binc": 20, "movestogo": 5}
    assert _parse_go(["infinite"]) == {"infinite": 1}
    with pytest.raises(ValueError):
        _parse_go(["nodes", "x"])


def test_no_legal_move_answers_none() -> None:
    eng, lines = _engine()
    eng.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    eng.handle("go depth 1")
    assert lines[-1] == "bestmove (none)"
