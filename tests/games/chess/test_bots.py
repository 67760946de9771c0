"""The chess bots: legal moves only, over many seeded games; levels; setup; promotion.

Bots run on node budgets here, so every game is the same on any machine.
"""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games import get_rules
from zanzibar.games.chess.bots import LEVELS, ChessBot, bot_levels, make_bot
from zanzibar.games.chess.moves import promotion
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.setup import placements
from zanzibar.games.chess.variant import load_variant


def _play(pos: Position, bots: list[ChessBot], plies: int) -> list[int]:
    """Let the bots play from ``pos``; every move is checked against the legal moves."""
    played = []
    for ply in range(plies):
        if pos.outcome() is not None:
            break
        legal = pos.legal_moves()
        move = bots[ply % 2].choose_move(pos)
        assert move in legal, f"illegal move {move} in {pos.fen()}"
        pos.push(move)
        played.append(move)
    return played


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_orthodox_games_are_legal(seed: int) -> None:
    variant = load_variant("chess")
    bots = [
        ChessBot(variant, "medium", seed, node_limit=250),
        ChessBot(variant, "casual", seed + 100, node_limit=250),
    ]
    played = _play(Position(variant), bots, 30)
    assert len(played) >= 20


@pytest.mark.parametrize(("seed", "opponent"), [(1, "casual"), (2, "easy")])
def test_zanzibar_s_games_through_the_rules_are_legal(seed: int, opponent: str) -> None:
    """Setup phase included: every action the bots pick is among the legal actions."""
    rules = get_rules("zanzibar-s")
    assert isinstance(rules, ChessRules)
    state = rules.new_state(2, rules.options.resolve())
    bots = [
        make_bot(rules, "medium", {}, seed, node_limit=150),
        make_bot(rules, opponent, {}, seed + 1, node_limit=150),
    ]
    assert state.phase == "setup"
    for _ in range(25):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in rules.legal_actions(state)
        state = rules.apply(state, seat, action).state
    assert state.phase == "over" or len(state.moves) >= 20


@pytest.mark.parametrize("name", ["shako", "metamachy"])
def test_other_variants_play_legally(name: str) -> None:
    variant = load_variant(name)
    bots = [ChessBot(variant, "medium", 5, node_limit=150) for _ in range(2)]
    assert len(_play(Position(variant), bots, 12)) == 12


ENDINGS = [
    # (variant, FEN, winner colour): the bots must finish these games, by mate
    ("chess", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 1),
    ("chess", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", 1),
    ("zanzibar-s", "12/12/12/12/12/5k6/12/12/12/12/12/3QK6R w - - 0 1", 1),
    ("zanzibar-s", "12/12/12/12/12/5k6/12/12/12/12/12/3LK6G w - - 0 1", 1),
]


@pytest.mark.parametrize(("name", "fen", "winner"), ENDINGS)
def test_endgames_run_to_a_legal_end(name: str, fen: str, winner: int) -> None:
    variant = load_variant(name)
    pos = Position(variant, fen)
    bots = [ChessBot(variant, "medium", 7, node_limit=800) for _ in range(2)]
    _play(pos, bots, 100)
    result = pos.outcome()
    assert result is not None, "no end within 100 plies"
    assert (result.winner, result.reason) == (winner, "checkmate")


def test_drawn_ending_ends_by_a_draw_rule() -> None:
    """King and Knight against King: nobody can win; the game still ends, drawn."""
    variant = load_variant("chess")
    pos = Position(variant, "8/8/4k3/8/8/3NK3/8/8 w - - 90 80")
    bots = [ChessBot(variant, "medium", 3, node_limit=200) for _ in range(2)]
    _play(pos, bots, 40)
    result = pos.outcome()
    assert result is not None and result.winner == 0


def test_same_seed_same_game_different_seeds_vary() -> None:
    variant = load_variant("chess")

    def game(seed: int) -> list[int]:
        # casual's own node cap given as the budget: its 0.5 s clock, on a loaded
        # machine, could stop a search early and make the game depend on the machine
        bots = [
            ChessBot(variant, "casual", seed, node_limit=6_000),
            ChessBot(variant, "casual", seed + 1, node_limit=6_000),
        ]
        return _play(Position(variant), bots, 8)

    assert game(11) == game(11)
    assert len({tuple(game(seed)) for seed in range(6)}) > 1


def test_medium_is_reproducible_with_a_node_budget() -> None:
    variant = load_variant("zanzibar-s")
    pos = Position(variant)
    first = ChessBot(variant, "medium", 4, node_limit=600).choose_move(pos)
    # the same position searched before (its pieces reordered by make/unmake) changes nothing
    ChessBot(variant, "medium", 9, node_limit=300).choose_move(pos)
    assert ChessBot(variant, "medium", 4, node_limit=600).choose_move(pos) == first


def test_levels() -> None:
    assert bot_levels()[0] == "medium"
    assert set(bot_levels()) == {"easy", "casual", "medium", "hard"}
    rules = get_rules("chess")
    assert tuple(rules.bot_levels()) == bot_levels()
    with pytest.raises(IllegalActionError):
        rules.make_bot("grandmaster", {}, 0)
    bot = rules.make_bot("hard", {}, 0)
    assert isinstance(bot, ChessBot)
    assert bot.limits().time_limit == 4.0


def test_timed_level_answers_in_time() -> None:
    variant = load_variant("zanzibar-s")
    bot = ChessBot(variant, "medium", 1, time_limit=0.5)
    pos = Position(variant)
    assert bot.choose_move(pos) in pos.legal_moves()
    assert bot.last is not None and bot.last.seconds < 2.0 and bot.last.depth >= 1


@pytest.mark.parametrize("level", ["easy", "casual", "medium"])
def test_every_level_takes_a_mate_in_one(level: str) -> None:
    pos = Position(load_variant("chess"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    move = ChessBot(pos.variant, level, 2, node_limit=2_000).choose_move(pos)
    pos.push(move)
    assert pos.is_check() and not pos.legal_moves()


def test_promotes_to_the_best_piece() -> None:
    variant = load_variant("zanzibar-s")
    pos = Position(variant, "12/2P9/12/12/12/12/12/12/12/12/12/k10K w - - 0 1")
    move = ChessBot(variant, "medium", 1, node_limit=3_000).choose_move(pos)
    assert promotion(move), "the Pawn should promote at once"
    assert variant.pieces[promotion(move) - 1].letter in ("Q", "G")


def test_setup_choice_keeps_the_king_home() -> None:
    variant = load_variant("zanzibar-s")
    for seed in range(10):
        index = ChessBot(variant, "medium", seed).choose_arrangement()
        king_square = dict(placements(variant, index))["K"]
        assert king_square.endswith("12")
    choices = {ChessBot(variant, "casual", seed).choose_arrangement() for seed in range(10)}
    assert len(choices) > 1
    with pytest.raises(IllegalActionError):
        ChessBot(load_variant("chess"), "medium").choose_arrangement()


def test_no_move_in_a_finished_game() -> None:
    pos = Position(load_variant("chess"), "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    with pytest.raises(IllegalActionError):
        ChessBot(pos.variant, "medium", node_limit=100).choose_move(pos)


def test_medium_mates_the_easy_bot() -> None:
    """The levels differ in strength: the searching bot mates the one-ply bot.

    Three games, so that one drawn by repetition in the opening (a shallow search may
    take a draw it sees as fair) or one not finished in 160 plies does not hide the
    difference: no loss, and a mate. At these budgets a game is a lottery that any change
    of the evaluation redraws: over seeds 0-27, `medium` mated in 20 games with the
    evaluation of 8e43756 and in 21 with the sortie term and the riders' mobility shares
    (2026-11-27), whose seeds 0 and 1 (the two games this test played until then) gave a
    bare-King draw and a Rook ending unfinished at +8.
    """
    variant = load_variant("chess")
    results = []
    for seed in (0, 1, 2):
        pos = Position(variant)
        bots = [
            ChessBot(variant, "medium", seed, node_limit=1500),
            # its own cap as a node budget: the time limit would let a busy machine
            # change its moves (this test once failed at load 20)
            ChessBot(variant, "easy", 50 + seed, node_limit=LEVELS["easy"].nodes),
        ]
        _play(pos, bots, 160)
        result = pos.outcome()
        results.append((result.winner, result.reason) if result else (0, "unfinished"))
    assert all(winner >= 0 for winner, _reason in results), results
    assert (1, "checkmate") in results, results


CROWDED = (
    "cmz3kuv1mc/1rnbw1gw1r1e/p1pi2zipbp1/9pn1/1p1p1pp4p/e2f8/7Q4/4IPL5/2E1Z1I2E2/"
    "PPPPN1P1PPPP/1R4WWBNR1/CM1V2KUV1MC b Kk - 1 26"
)


def test_casual_level_keeps_its_budget_in_a_crowded_position() -> None:
    """Capture chains in this Zanzibar-S middlegame once made a 2-ply look take 40 seconds."""
    import time

    variant = load_variant("zanzibar-s")
    pos = Position(variant, CROWDED)
    start = time.perf_counter()
    move = ChessBot(variant, "casual", 1, node_limit=1_500).choose_move(pos)
    assert move in pos.legal_moves()
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("seed", range(6))
def test_many_short_zanzibar_s_games_from_different_setups(seed: int) -> None:
    """Each seed picks another arrangement; the search bot's moves stay legal."""
    from zanzibar.games.chess.setup import setup_fen

    variant = load_variant("zanzibar-s")
    arrangement = ChessBot(variant, "medium", seed).choose_arrangement()
    pos = Position(variant, setup_fen(variant, arrangement))
    bots = [ChessBot(variant, "medium", seed, node_limit=80), ChessBot(variant, "easy", seed)]
    if seed % 2:
        bots.reverse()
    assert len(_play(pos, bots, 16)) >= 10


def test_accepts_a_draw_only_when_losing() -> None:
    from zanzibar.games.chess.rules import ChessState

    rules = get_rules("chess")
    bot = make_bot(rules, "medium", {}, 1, node_limit=1_000)
    # Black (seat 1) to move, a Queen down; White offered a draw.
    losing = ChessState("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", draw_offer=0)
    assert bot.choose(losing).kind == "draw"
    # Black a Queen up: it plays on (a move, which lets the offer lapse).
    winning = ChessState("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", draw_offer=0)
    assert bot.choose(winning).kind == "move"
    # No offer: a move even when losing.
    assert bot.choose(ChessState("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")).kind == "move"
