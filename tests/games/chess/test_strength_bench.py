"""bench/strength.py --pool: the games of earlier runs' logs, read back and pooled."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from _bench_module import load_bench


def _strength() -> ModuleType:
    return load_bench("strength")


LOG_A = """load average at start: 5.0 2.0 0.8
orthodox chess against Stockfish 15.1 (UCI_LimitStrength), clock 60 s + 0.5 s
    medium (White) vs 1800: won checkmate; running estimate inf (1800 to inf) after 1 games
      1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6
    medium (Black) vs 2000: lost checkmate; running estimate 1900 (1500 to 2300) after 2 games
  medium  vs Stockfish 1800: 1/1 (won checkmate 1)
medium  Elo estimate 1900 (95 % interval 1500 to 2300), 2 games
"""
LOG_B = """    medium (White) vs 2000: drew threefold_repetition; running estimate 2000 (1 to 2)
    hard (Black) vs medium, opening 6001: won checkmate; running 1/1 (95 % 1.00 to 1.00)
    hard (White) vs medium, opening 6001: lost unfinished; running 1/2 (95 % 0.00 to 1.00)
"""


def test_the_games_of_several_logs_are_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    strength = _strength()
    (tmp_path / "a.log").write_text(LOG_A, encoding="utf-8")
    (tmp_path / "b.log").write_text(LOG_B, encoding="utf-8")
    stockfish, ladder = strength.pool_logs((LOG_A + LOG_B).splitlines())
    assert stockfish == {
        "medium": [
            (1800.0, 1.0, "checkmate"),
            (2000.0, 0.0, "checkmate"),
            (2000.0, 0.5, "threefold_repetition"),
        ]
    }
    assert ladder == {("hard", "medium"): [(1.0, "checkmate"), (0.0, "unfinished")]}
    strength.run_pool([str(tmp_path / "a.log"), str(tmp_path / "b.log")])
    out = capsys.readouterr().out
    est, low, high = strength.elo_estimate([(1800, 1.0), (2000, 0.0), (2000, 0.5)])
    assert f"medium  Elo estimate {est:.0f} (95 % interval {low:.0f} to {high:.0f}), 3 games" in out
    assert "medium  vs Stockfish 2000: 0.5/2" in out
    assert "hard    vs medium : 1/2 = 0.50" in out
    assert "ended by mate 1 of 2, unfinished 1 (lost unfinished 1, won checkmate 1)" in out


def test_a_clean_sweep_still_gets_an_interval() -> None:
    """Two wins of two: the games' spread is zero, but two games do not settle 1.00-1.00."""
    strength = _strength()
    mean, low, high = strength.score_interval([1.0, 1.0])
    assert mean == high == 1.0
    assert 0.3 < low < 0.4  # Wilson's interval: 2 / (2 + 1.96 ** 2)
    mean, low, high = strength.score_interval([0.0] * 12)
    assert mean == low == 0.0 and 0.2 < high < 0.3
    # with a spread, the normal interval as before
    mean, low, high = strength.score_interval([1.0, 0.0, 1.0, 0.5])
    assert (round(low, 2), high) == (0.16, 1.0)


def test_a_selfplay_game_stopped_at_the_cap_prints_its_position_and_material(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game stopped at --max-moves counts as a draw: the log gives its last position and
    who was ahead in material, so a reader can tell a bot that could not finish a won game."""
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.variant import load_variant

    strength = _strength()
    args = strength.argparse.Namespace(
        levels=["easy", "casual"], pairs=1, seed=4242, scale=0.1, nps=1000, max_moves=1
    )
    strength.run_selfplay(args)
    out = capsys.readouterr().out
    lines = out.splitlines()
    capped = [i for i, line in enumerate(lines) if "unfinished;" in line]
    assert len(capped) == 2  # one move each cannot end a game
    for index in capped:
        final = lines[index + 1].strip()
        assert final.startswith("final position ")
        fen = final.removeprefix("final position ").split(";")[0]
        pos = Position(load_variant("zanzibar-s"), fen)
        assert pos.fullmove == 3 and pos.turn == 1  # two random plies, then one move each
        white = int(final.split("material White ")[1].split(",")[0])
        black = int(final.split(", Black ")[1].split(" ")[0])
        assert white == black  # no capture yet in four plies from the start
        assert "(level)" in final
    # the log stays readable by --pool: the extra lines are skipped
    _sf, ladder = strength.pool_logs(lines)
    assert [how for _score, how in ladder[("casual", "easy")]] == ["unfinished"] * 2


def test_every_selfplay_game_prints_its_moves_and_a_draw_its_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each game's moves follow its line (a draw's after its final position), and they
    replay from the start to that position: a game the stronger side failed to finish can
    be looked at, whether it ended at the cap or by a repetition."""
    from zanzibar.games.chess.notation import parse_move
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.variant import load_variant

    strength = _strength()
    args = strength.argparse.Namespace(
        levels=["easy", "casual"], pairs=1, seed=4243, scale=0.1, nps=1000, max_moves=2
    )
    strength.run_selfplay(args)
    lines = capsys.readouterr().out.splitlines()
    games = [i for i, line in enumerate(lines) if ", opening 4243: " in line]
    assert len(games) == 2
    for index in games:
        fen = lines[index + 1].strip().removeprefix("final position ").split(";")[0]
        moves = lines[index + 2].split()
        assert moves[::3] == ["1.", "2.", "3."] and len(moves) == 9  # 2 random plies + 2 x 2
        board = Position(load_variant("zanzibar-s"))
        for word in moves:
            if not word.endswith("."):
                board.push(parse_move(board, word))
        assert board.fen() == fen
    _sf, ladder = strength.pool_logs(lines)
    assert len(ladder[("casual", "easy")]) == 2


def test_a_mated_game_prints_its_moves_without_a_final_position() -> None:
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.variant import load_variant

    strength = _strength()
    pos = Position(load_variant("chess"))
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        pos.push(pos.parse_uci(uci))
    assert strength.game_moves(pos) == "1. f3 e5 2. g4 Qh4#"


def test_final_position_says_who_is_ahead() -> None:
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.variant import load_variant

    strength = _strength()
    pos = Position(load_variant("chess"), "4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1")
    text = strength.final_position(pos)
    assert text == (
        "final position 4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1; material White 700, Black 0 "
        "centipawns (White 7.00 pawns ahead)"
    )


def test_games_rebuilt_without_colour_are_pooled() -> None:
    """Earlier runs known only by their points per setting: lines without a colour."""
    strength = _strength()
    sf, _ladder = strength.pool_logs(
        [
            "    hard vs 2000: lost rebuilt; colour and moves not kept",
            "    hard (White) vs 2100: won checkmate; running estimate inf (2100 to inf)",
        ]
    )
    assert sf == {"hard": [(2000.0, 0.0, "rebuilt"), (2100.0, 1.0, "checkmate")]}


class _FakeEngine:
    """Stands for ``zanzibar uci``: records each move's limit, plays the first legal move
    and says White is far ahead, so that a game is adjudicated after a few plies."""

    def __init__(self) -> None:
        self.limits: list[Any] = []
        self.quit_called = False

    def play(self, board: object, limit: object, **_kwargs: object) -> object:
        import chess
        import chess.engine

        assert isinstance(board, chess.Board)
        self.limits.append(limit)
        move = sorted(board.legal_moves, key=lambda m: m.uci())[0]
        score = chess.engine.PovScore(chess.engine.Cp(900), chess.WHITE)
        return chess.engine.PlayResult(move, None, info={"score": score})

    def quit(self) -> None:
        self.quit_called = True


def _run_versus_with_fakes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], **options: object
) -> tuple[list[_FakeEngine], str]:
    import contextlib

    strength = _strength()
    engines: list[_FakeEngine] = []

    def fake_engine(_src: object) -> _FakeEngine:
        engines.append(_FakeEngine())
        return engines[-1]

    monkeypatch.setattr(strength, "_uci_engine", fake_engine)
    monkeypatch.setattr(strength, "reference_tree", lambda _ref: contextlib.nullcontext(None))
    args = strength.argparse.Namespace(
        versus="REF", games=2, random_plies=0, seed=1, max_moves=100, nodes=4000, **options
    )
    strength.run_versus(args)
    return engines, capsys.readouterr().out


def test_versus_at_equal_time_gives_both_engines_the_same_movetime(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--versus --movetime S: every move of either engine is searched for S seconds
    (``go movetime``), with no node budget, and the log says so."""
    engines, out = _run_versus_with_fakes(monkeypatch, capsys, movetime=0.25)
    assert "this tree against REF at 0.25 s a move" in out
    assert "this tree vs REF: 1/2" in out  # White adjudicated the winner, once each
    assert len(engines) == 2 and all(engine.quit_called for engine in engines)
    for engine in engines:
        assert engine.limits  # both engines moved
        for limit in engine.limits:
            assert (limit.time, limit.nodes, limit.depth) == (0.25, None, None)


def test_versus_at_equal_nodes_is_unchanged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    engines, out = _run_versus_with_fakes(monkeypatch, capsys, movetime=0.0)
    assert "this tree against REF at 4000 nodes a move" in out
    limits = [limit for engine in engines for limit in engine.limits]
    assert limits and all((lim.time, lim.nodes) == (None, 4000) for lim in limits)
