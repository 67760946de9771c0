"""The GameRules adapter: setup, moves, draws, resignation, JSON, words, bots, replay."""

from __future__ import annotations

import json

import pytest

from zanzibar.engine.errors import CorruptDataError, IllegalActionError, NotYourTurnError
from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games import get_rules
from zanzibar.games.chess.easy_bot import EasyBot
from zanzibar.games.chess.rules import ChessRules, ChessState
from zanzibar.games.chess.zanzibar_s import RULES

NAMES = ["Anna", "Bob"]


def quick_state() -> ChessState:
    return RULES.new_state(2, RULES.options.resolve("quick"))


def play(state: ChessState, *moves: str) -> ChessState:
    for text in moves:
        seat = RULES.to_act(state)
        assert seat is not None
        state = RULES.apply(
            state, seat, RULES.action_from_json({"type": "move", "move": text})
        ).state
    return state


def test_registry_serves_every_shipped_variant() -> None:
    for name in ("zanzibar-s", "chess", "shako", "metamachy"):
        rules = get_rules(name)
        assert isinstance(rules, ChessRules) and rules.name == name


def test_setup_phase_black_chooses_then_white_moves() -> None:
    state = RULES.new_state(2, RULES.options.resolve())
    assert state.phase == "setup" and RULES.to_act(state) == 1
    assert len(RULES.legal_actions(state)) == 48
    with pytest.raises(NotYourTurnError):
        RULES.apply(state, 0, RULES.action_from_json({"type": "setup", "arrangement": 0}))
    with pytest.raises(IllegalActionError):
        RULES.apply(state, 1, RULES.action_from_json({"type": "move", "move": "f2f4"}))
    transition = RULES.apply(state, 1, RULES.action_from_json({"type": "setup", "arrangement": 5}))
    new = transition.state
    assert new.phase == "play" and new.arrangement == 5 and RULES.to_act(new) == 0
    (event,) = transition.events
    assert event.kind == "setup"
    text = RULES.render_event(event, "en", None, NAMES)
    assert text.startswith("Bob (Black) chose arrangement 5: King on f12")
    assert "White mirrors it." in text
    assert "Les Blancs la copient en miroir." in RULES.render_event(event, "fr", None, NAMES)


def test_moves_in_either_notation_and_events() -> None:
    state = quick_state()
    assert RULES.to_act(state) == 0
    transition = RULES.apply(state, 0, RULES.action_from_json({"type": "move", "move": "Nd4"}))
    (event,) = transition.events
    assert event.kind == "move" and event.get("move") == "c2d4"
    assert RULES.render_event(event, "en", 1, NAMES) == "White Knight from c2 to d4."
    assert transition.state.moves == ("c2d4",)
    assert RULES.to_act(transition.state) == 1


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "move"},
        {"type": "move", "move": ""},
        {"type": "move", "move": "x" * 40},
        {"type": "setup", "arrangement": 99},
        {"type": "setup", "arrangement": "KKKK UF"},
        {"type": "setup"},
    ],
)
def test_malformed_actions_are_refused(bad: object) -> None:
    with pytest.raises(IllegalActionError):
        RULES.action_from_json(bad)


def test_illegal_move_changes_nothing() -> None:
    state = quick_state()
    before = RULES.state_to_json(state)
    with pytest.raises(IllegalActionError):
        RULES.apply(state, 0, RULES.action_from_json({"type": "move", "move": "f2f9"}))
    assert RULES.state_to_json(state) == before


def test_resignation_and_draw_agreement() -> None:
    state = quick_state()
    over = RULES.apply(state, 0, RULES.action_from_json({"type": "resign"})).state
    assert RULES.is_over(over) and RULES.outcome(over).winners == (1,)
    offered = RULES.apply(state, 0, RULES.action_from_json({"type": "draw"}))
    assert offered.events[0].kind == "draw_offered"
    assert RULES.action_from_json({"type": "draw"}) not in RULES.legal_actions(offered.state)
    with pytest.raises(IllegalActionError):
        RULES.apply(offered.state, 0, RULES.action_from_json({"type": "draw"}))
    state2 = play(offered.state, "c2d4")
    agreed = RULES.apply(state2, 1, RULES.action_from_json({"type": "draw"}))
    assert RULES.outcome(agreed.state).draw and agreed.state.reason == "agreement"
    assert RULES.render_event(agreed.events[-1], "fr", None, NAMES) == "Nulle par accord."


def test_moving_declines_a_draw_offer() -> None:
    state = RULES.apply(quick_state(), 0, RULES.action_from_json({"type": "draw"})).state
    state = play(state, "c2d4")
    transition = RULES.apply(state, 1, RULES.action_from_json({"type": "move", "move": "c11d9"}))
    assert [e.kind for e in transition.events] == ["draw_declined", "move"]
    assert transition.state.draw_offer == -1


def test_repetition_ends_the_game_and_is_an_option() -> None:
    shuffle = ("c2b4", "c11b9", "b4c2", "b9c11") * 2
    state = play(quick_state(), *shuffle)
    assert RULES.is_over(state) and state.reason == "repetition"
    off = RULES.new_state(2, RULES.options.resolve("quick", {"repetition": 0}))
    assert not RULES.is_over(play(off, *shuffle))


def test_checkmate_outcome_in_orthodox_chess() -> None:
    chess_rules = get_rules("chess")
    state = chess_rules.new_state(2, chess_rules.options.resolve())
    for text in ("f3", "e5", "g4", "Qh4"):
        seat = chess_rules.to_act(state)
        transition = chess_rules.apply(
            state, seat, chess_rules.action_from_json({"type": "move", "move": text})
        )
        state = transition.state
    assert chess_rules.outcome(state).winners == (1,)
    assert state.reason == "checkmate"
    assert (
        chess_rules.render_event(transition.events[-1], "en", None, NAMES)
        == "Checkmate: Black (Bob) wins."
    )
    assert transition.events[-2].get("san") == "Qh4#"


def test_state_json_round_trip_and_corruption() -> None:
    state = play(quick_state(), "c2d4", "c11d9")
    data = json.loads(json.dumps(RULES.state_to_json(state)))
    assert RULES.state_from_json(data) == state
    for key, value in (("moves", ["c2d4", "zz"]), ("phase", "dancing"), ("variant", "chess")):
        with pytest.raises(CorruptDataError):
            RULES.state_from_json({**data, key: value})
    with pytest.raises(CorruptDataError):
        RULES.state_from_json({"start_fen": "x"})
    setup = RULES.state_to_json(RULES.new_state(2, RULES.options.resolve()))
    assert RULES.state_from_json(setup).phase == "setup"
    with pytest.raises(CorruptDataError):
        RULES.state_from_json({**setup, "moves": ["c2d4"]})


def test_describe_topics() -> None:
    state = play(quick_state(), "c2d4")
    board = RULES.describe(state, "board", "en", 0, NAMES)
    assert board.splitlines()[0].startswith("Rank 12: a12 Black Cannon, b12 Black Camel")
    assert "Rank 5: a5 to l5 empty." in board
    assert "d4 White Knight" in board
    assert RULES.describe(state, "square:d4", "fr", 0, NAMES) == "d4\u00a0: Cavalier blanc."
    assert RULES.describe(state, "square:e5", "en", 0, NAMES) == "e5: empty."
    assert RULES.describe(state, "turn", "en", 0, NAMES) == "Black to move (Bob)."
    status = RULES.describe(state, "status", "en", 0, NAMES)
    assert "No check." in status and "Last move: White Knight from c2 to d4." in status
    assert RULES.describe(state, "scores", "en", 0, NAMES).startswith("Material: White")
    assert "Nb9" in RULES.describe(state, "moves", "en", 1, NAMES)
    assert RULES.describe(state, "history", "en", 0, NAMES) == "Moves so far: 1. Nd4."
    assert "Unknown topic" in RULES.describe(state, "weather", "en", 0, NAMES)
    setup = RULES.new_state(2, RULES.options.resolve())
    assert "e12 to h12 empty" in RULES.describe(setup, "board", "en", 1, NAMES)


def test_help_and_rules_texts_in_both_languages_without_sources() -> None:
    """Players hear the rules in short sentences; sources stay in the docs and variant files."""
    for lang in ("en", "fr"):
        assert "f2h4" in RULES.help_text(lang) and "O-O" not in RULES.help_text(lang)
        text = RULES.rules_text(lang, RULES.options.resolve())
        assert "chessvariants.com" not in text and ".htm" not in text
        assert "Cazaux" in text and "KNAD" in text
        assert max(len(line) for line in text.splitlines()) <= 200
    assert "Gigachess" in RULES.rules_text("en", RULES.options.resolve("seed"))
    assert "Gigachess" not in RULES.rules_text("en", RULES.options.resolve())
    assert "Betza" in get_rules("shako").rules_text("fr", get_rules("shako").options.resolve())


def test_view_has_fen_and_legal_moves_for_the_player_to_act() -> None:
    state = quick_state()
    view = RULES.view(state, 0, "fr")
    assert view["fen"] == RULES.variant.start_fen and view["pieces"]["G"] == "Aigle"
    assert {"type": "move", "move": "c2d4"} in view["legal"]
    assert RULES.view(state, 1, "en")["legal"] == []


@pytest.mark.parametrize("name", ["zanzibar-s", "chess", "metamachy"])
def test_easy_bots_play_legal_games_that_replay(name: str) -> None:
    """The core's one-ply bot (the search levels are tested with the search)."""
    rules = get_rules(name)
    for seed in range(2):
        match = Match(rules, 2, seed=seed)
        bots = {0: EasyBot(rules, seed), 1: EasyBot(rules, seed + 7)}
        for _ in range(120):
            seat = match.to_act
            if seat is None:
                break
            action = bots[seat].choose(match.state)
            assert action in rules.legal_actions(match.state)
            match.act(seat, action)
        record = MatchRecord.from_json(json.loads(json.dumps(match.record().to_json())))
        again = Match.from_record(rules, record)
        assert again.state == match.state


def test_easy_bot_takes_a_mate_in_one() -> None:
    chess_rules = get_rules("chess")
    bot = EasyBot(chess_rules, 3)
    state = chess_rules.new_state(2, chess_rules.options.resolve())
    for text in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"):
        seat = chess_rules.to_act(state)
        state = chess_rules.apply(
            state, seat, chess_rules.action_from_json({"type": "move", "move": text})
        ).state
    assert chess_rules.action_to_json(bot.choose(state)) == {"type": "move", "move": "h5f7"}


def test_the_actor_hears_you_and_the_others_hear_the_name() -> None:
    from zanzibar.engine.events import Event
    from zanzibar.games.chess.zanzibar_s import RULES as ZS

    names = ["Anna", "Bruno"]
    resign = Event("resign", 1, {})
    assert ZS.render_event(resign, "fr", 1, names) == "Vous (Noirs) abandonnez."
    assert ZS.render_event(resign, "fr", 0, names) == "Bruno (Noirs) abandonne."
    assert ZS.render_event(resign, "en", 1, names) == "You (Black) resign."
    assert ZS.render_event(resign, "en", None, names) == "Bruno (Black) resigns."
