"""Rules of play: setting aside, thresholds, hot dice, zilch, final round and tie-break."""

from __future__ import annotations

from typing import Any

import pytest

from zanzibar.engine.errors import CorruptDataError, IllegalActionError, NotYourTurnError
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.games.zilch.rules import RULES
from zanzibar.games.zilch.state import ZilchAction, ZilchState

NAMES = ["Anna", "Bob", "Chloé"]


def choosing(
    roll: tuple[int, ...],
    *,
    seats: int = 2,
    preset: str | None = None,
    scores: tuple[int, ...] | None = None,
    entered: tuple[bool, ...] | None = None,
    turn_points: int = 0,
    current: int = 0,
    **options: Any,
) -> ZilchState:
    """A state in which ``current`` must choose among ``roll``."""
    state = RULES.new_state(seats, RULES.options.resolve(preset, options))
    scores = scores or (0,) * seats
    return state.with_changes(
        phase="choose",
        roll=roll,
        kept=(1,) * (6 - len(roll)),
        scores=scores,
        entered=entered if entered is not None else tuple(s > 0 for s in scores),
        turn_points=turn_points,
        current=current,
    )


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]


def test_registry_finds_zilch() -> None:
    assert get_rules("zilch") is RULES
    assert get_rules("farkle") is RULES


def test_game_starts_with_a_roll_of_six() -> None:
    match = Match(RULES, 2, seed=5)
    assert match.to_act == 0 and match.state.phase == "start"
    assert match.legal_actions() == [ZilchAction("roll")]
    events = match.act(0, ZilchAction("roll"))
    assert events[0].kind == "turn" and events[1].kind == "roll"
    assert len(events[1].get("dice")) == 6


def test_turn_must_start_with_a_plain_roll() -> None:
    state = RULES.new_state(2, RULES.options.resolve())
    with pytest.raises(IllegalActionError, match="starts by rolling"):
        RULES.apply_action(state, ZilchAction("bank"))
    with pytest.raises(NotYourTurnError):
        RULES.apply(state, 1, ZilchAction("roll"))


def test_only_scoring_dice_may_be_set_aside() -> None:
    state = choosing((1, 2, 3, 4, 6, 6))
    with pytest.raises(IllegalActionError, match="only scoring dice"):
        RULES.apply_action(state, ZilchAction("roll", (0, 1)))
    with pytest.raises(IllegalActionError, match="at least one"):
        RULES.apply_action(state, ZilchAction("roll", ()))
    with pytest.raises(IllegalActionError, match="no die 7"):
        RULES.apply_action(state, ZilchAction("roll", (6,)))
    result = RULES.apply_action(state, ZilchAction("roll", (0,)))
    assert result.state.turn_points == 100 and result.state.dice_left == 5
    assert result.state.phase == "rolling"


def test_legal_actions_are_exactly_the_scoring_selections() -> None:
    state = choosing((1, 5, 2, 2, 2, 3), scores=(1000, 0), turn_points=300)
    legal = RULES.legal_actions(state)
    rolls = {a.keep for a in legal if a.type == "roll"}
    # 1, 5, the three 2s, in every combination (2^3 - 1 = 7 subsets), nothing with the 3.
    assert rolls == {(0,), (1,), (0, 1), (2, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4), (0, 1, 2, 3, 4)}
    banks = {a.keep for a in legal if a.type == "bank"}
    # 300 + 50 = 350 reaches the 350 minimum: every selection may bank.
    assert banks == rolls
    for action in legal:
        RULES.apply_action(state, action)  # every listed action is accepted


def test_entry_threshold_500_then_minimum_350() -> None:
    fresh = choosing((1, 2, 3, 4, 6, 6), turn_points=350)
    with pytest.raises(IllegalActionError, match="at least 500"):
        RULES.apply_action(fresh, ZilchAction("bank", (0,)))  # 450 < 500
    ok = RULES.apply_action(
        choosing((1, 2, 3, 4, 6, 6), turn_points=400), ZilchAction("bank", (0,))
    )
    assert ok.state.scores[0] == 500 and ok.state.entered[0]
    entered = choosing((5, 2, 3, 4, 6, 6), scores=(1000, 0), turn_points=250)
    with pytest.raises(IllegalActionError, match="at least 350"):
        RULES.apply_action(entered, ZilchAction("bank", (0,)))  # 300 < 350
    ok = RULES.apply_action(
        choosing((5, 2, 3, 4, 6, 6), scores=(1000, 0), turn_points=300), ZilchAction("bank", (0,))
    )
    assert ok.state.scores == (1350, 0)
    assert kinds(ok.events) == ["set_aside", "bank"]
    assert ok.state.current == 1 and ok.state.phase == "start"


def test_hot_dice_roll_six_again_and_a_zilch_loses_them() -> None:
    state = choosing((1, 1, 1, 5, 5, 5), turn_points=200)
    hot = RULES.apply_action(state, ZilchAction("roll", (0, 1, 2, 3, 4, 5)))
    assert kinds(hot.events) == ["set_aside", "hot_dice"]
    assert hot.state.turn_points == 1700 and hot.state.dice_left == 6 and hot.state.kept == ()
    lost = RULES.apply_chance(hot.state, (2, 2, 3, 3, 4, 6))
    assert kinds(lost.events) == ["roll", "zilch"]
    assert lost.events[1].get("lost") == 1700
    assert lost.state.scores == (0, 0) and lost.state.current == 1


def test_hot_dice_may_bank_unless_compulsory() -> None:
    state = choosing((1, 1, 1, 5, 5, 5))
    assert RULES.apply_action(state, ZilchAction("bank", tuple(range(6)))).state.scores[0] == 1500
    strict = choosing((1, 1, 1, 5, 5, 5), hot_dice_compulsory=True)
    with pytest.raises(IllegalActionError, match="must roll"):
        RULES.apply_action(strict, ZilchAction("bank", tuple(range(6))))


def test_zilch_ends_the_turn_and_keeps_the_score() -> None:
    state = choosing((1, 2, 3, 4, 6, 6), scores=(900, 400), turn_points=0)
    rolled = RULES.apply_action(state, ZilchAction("roll", (0,))).state
    result = RULES.apply_chance(rolled, (2, 3, 4, 6, 6))
    assert result.state.scores == (900, 400)
    assert result.state.turn_points == 0 and result.state.current == 1
    assert result.state.streaks == (1, 0)


def test_three_zilches_penalty_in_online_preset() -> None:
    state = RULES.new_state(2, RULES.options.resolve("zilch_online"))
    state = state.with_changes(
        scores=(1000, 0), entered=(True, False), streaks=(2, 0), phase="rolling", dice_left=3
    )
    result = RULES.apply_chance(state, (2, 3, 4))
    assert kinds(result.events) == ["roll", "zilch", "penalty"]
    assert result.state.scores == (500, 0) and result.state.streaks == (0, 0)


def test_no_penalty_in_seed() -> None:
    state = RULES.new_state(2, RULES.options.resolve())
    state = state.with_changes(streaks=(2, 0), phase="rolling", dice_left=3)
    result = RULES.apply_chance(state, (2, 3, 4))
    assert "penalty" not in kinds(result.events)
    assert result.state.streaks == (3, 0)


def play_zilch(state: ZilchState) -> ZilchState:
    """The current player starts a turn and zilches at once."""
    state = RULES.apply_action(state, ZilchAction("roll")).state
    return RULES.apply_chance(state, (2, 2, 3, 3, 4, 6)).state


def test_final_round_everyone_else_gets_one_last_turn() -> None:
    state = choosing((1, 1, 1, 2, 3, 4), seats=3, scores=(4800, 1000, 2000))
    result = RULES.apply_action(state, ZilchAction("bank", (0, 1, 2)))
    assert kinds(result.events) == ["set_aside", "bank", "final_round"]
    after = result.state
    assert after.scores[0] == 5800 and after.stage == "final" and after.trigger == 0
    assert after.current == 1 and after.queue == (2,)
    after = play_zilch(after)
    assert after.current == 2 and not RULES.is_over(after)
    after = play_zilch(after)
    assert RULES.is_over(after) and after.winners == (0,)
    assert RULES.outcome(after).winners == (0,)


def test_final_round_can_be_won_by_a_later_player() -> None:
    state = choosing((1, 1, 1, 2, 3, 4), scores=(4800, 4700))
    after = RULES.apply_action(state, ZilchAction("bank", (0, 1, 2))).state  # 5800
    after = RULES.apply_action(after, ZilchAction("roll")).state
    after = RULES.apply_chance(after, (1, 1, 1, 1, 5, 5)).state  # 1200
    result = RULES.apply_action(after, ZilchAction("bank", tuple(range(6))))
    assert result.state.scores == (5800, 5900)
    assert result.state.winners == (1,)
    assert result.events[-1].kind == "game_over"


def test_tie_break_until_the_tie_breaks() -> None:
    state = choosing((5, 5, 5, 2, 3, 4), scores=(4500, 4650))
    after = RULES.apply_action(state, ZilchAction("bank", (0, 1, 2))).state  # Anna 5000
    after = RULES.apply_action(after, ZilchAction("roll")).state
    # Bob (4650) needs 350 to tie: he builds exactly 350 from single dice.
    after = RULES.apply_chance(after, (1, 5, 5, 5, 2, 3)).state
    result = RULES.apply_action(after, ZilchAction("roll", (0,)))  # 100
    after = RULES.apply_chance(result.state, (5, 2, 3, 4, 6)).state  # 50 -> 150
    after = RULES.apply_action(after, ZilchAction("roll", (0,))).state
    after = RULES.apply_chance(after, (1, 2, 3, 4)).state  # +100 -> 250
    after = RULES.apply_action(after, ZilchAction("roll", (0,))).state
    after = RULES.apply_chance(after, (1, 2, 3)).state  # +100 -> 350
    tie = RULES.apply_action(after, ZilchAction("bank", (0,)))
    assert tie.state.scores == (5000, 5000)
    assert kinds(tie.events)[-1] == "tie_break"
    assert tie.state.stage == "tiebreak" and tie.state.current == 0 and tie.state.queue == (1,)
    # Both zilch: still tied, another round in the same order.
    again = play_zilch(play_zilch(tie.state))
    assert again.stage == "tiebreak" and again.current == 0 and not RULES.is_over(again)
    # Anna banks 400 (entered: 350 suffices), Bob zilches: Anna wins.
    after = RULES.apply_action(again, ZilchAction("roll")).state
    after = RULES.apply_chance(after, (4, 4, 4, 2, 3, 6)).state
    after = RULES.apply_action(after, ZilchAction("bank", (0, 1, 2))).state
    assert after.current == 1
    over = play_zilch(after)
    assert RULES.is_over(over) and over.winners == (0,) and over.scores == (5400, 5000)


def test_immediate_end_wins_at_once() -> None:
    state = choosing((1, 1, 1, 2, 3, 4), preset="farkle_busche", scores=(9000, 9500))
    result = RULES.apply_action(state, ZilchAction("bank", (0, 1, 2)))
    assert RULES.is_over(result.state) and result.state.winners == (0,)


def test_action_json() -> None:
    action = RULES.action_from_json({"type": "bank", "keep": [3, 0]})
    assert action == ZilchAction("bank", (0, 3))
    assert RULES.action_to_json(action) == {"type": "bank", "keep": [0, 3]}
    for bad in [
        None,
        [],
        {"type": "pass"},
        {"type": "roll", "keep": "1"},
        {"type": "roll", "keep": [1, 1]},
        {"type": "roll", "keep": [True]},
        {"type": "roll", "extra": 1},
    ]:
        with pytest.raises(IllegalActionError):
            RULES.action_from_json(bad)


def test_state_json_round_trip_and_corruption() -> None:
    match = Match(RULES, 3, seed=11)
    bots = {s: RULES.make_bot("simple", match.options) for s in range(3)}
    for _ in range(40):
        if match.is_over:
            break
        seat = match.to_act
        assert seat is not None
        match.act(seat, bots[seat].choose(match.state))
        data = RULES.state_to_json(match.state)
        assert RULES.state_from_json(data) == match.state
    good = RULES.state_to_json(match.state)
    for field, value in [
        ("scores", "x"),
        ("phase", "dancing"),
        ("current", 9),
        ("entered", [1, 0, 0]),
        ("roll", [7]),
        ("options", {"target": "lots"}),
        ("stage", None),
    ]:
        bad = dict(good)
        bad[field] = value
        with pytest.raises(CorruptDataError):
            RULES.state_from_json(bad)
    with pytest.raises(CorruptDataError):
        RULES.state_from_json({"scores": [0, 0]})
    with pytest.raises(CorruptDataError):
        RULES.state_from_json("garbage")


def test_illegal_action_changes_nothing_in_a_match() -> None:
    match = Match(RULES, 2, seed=3)
    match.act(0, ZilchAction("roll"))
    before = (match.state, len(match.log), match.rng.getstate())
    with pytest.raises(IllegalActionError):
        match.act(0, ZilchAction("bank", (0, 1, 2, 3, 4, 5, 6)))
    assert (match.state, len(match.log), match.rng.getstate()) == before


EN_FR = [
    (
        Event("roll", 0, {"dice": [1, 5, 3, 3, 4, 6]}),
        "you rolled 1 5 3 3 4 6",
        "Anna a lancé 1 5 3 3 4 6",
    ),
    (Event("roll", 1, {"dice": [2, 2]}), "Bob rolled 2 2", "vous avez lancé 2 2"),
    (
        Event("zilch", 0, {"lost": 450}),
        "zilch! you lose 450 points",
        "zilch\u202f! Anna perd 450 points",
    ),
    (Event("zilch", 1, {"lost": 0}), "zilch! Bob's turn ends", "zilch\u202f! votre tour s'arrête"),
    (
        Event("bank", 1, {"points": 450, "total": 1300}),
        "Bob banks 450, total 1,300",
        "vous marquez 450, total 1\u202f300",
    ),
    (
        Event("set_aside", 0, {"dice": [1, 5], "points": 150, "turn": 650}),
        "you set aside 1 5 for 150, 650 this turn",
        "Anna met de côté 1 5 pour 150, 650 ce tour-ci",
    ),
    (
        Event("hot_dice", 1, {"turn": 1500}),
        "hot dice! Bob rolls all six again with 1,500 points",
        "dés brûlants\u202f! vous relancez les six dés avec 1\u202f500 points",
    ),
    (
        Event("final_round", 0, {"score": 5100}),
        "you reached 5,100: everyone else has one last turn",
        "Anna atteint 5\u202f100\u00a0: chacun des autres joue un dernier tour",
    ),
    (
        Event("tie_break", None, {"seats": [0, 1], "score": 5000}),
        "tie at 5,000 between you and Bob: each takes another turn",
        "égalité à 5\u202f000 entre Anna et vous\u00a0: chacun rejoue un tour",
    ),
    (
        Event("game_over", None, {"winners": [1], "score": 5200}),
        "Bob wins with 5,200",
        "vous gagnez avec 5\u202f200",
    ),
    (
        Event("penalty", 0, {"points": 500, "total": -200}),
        "three zilches in a row: you lose 500, total -200",
        "trois zilchs de suite\u00a0: Anna perd 500, total -200",
    ),
    (Event("turn", 1, {"stage": "final"}), "Bob's last turn", "votre dernier tour"),
]


@pytest.mark.parametrize(("event", "english", "french"), EN_FR)
def test_render_event(event: Event, english: str, french: str) -> None:
    assert RULES.render_event(event, "en", 0, NAMES) == english
    assert RULES.render_event(event, "fr", 1, NAMES) == french


def test_describe_topics() -> None:
    state = choosing((1, 5, 3, 3), scores=(1300, 0), turn_points=250)
    assert (
        RULES.describe(state, "scores", "en", 1, NAMES)
        == "Anna: 1,300 points, Bob: 0 points (not entered yet)"
    )
    assert RULES.describe(state, "scores", "fr", 1, NAMES) == (
        "Anna\u00a0: 1\u202f300 points, Bob\u00a0: 0 point (pas encore entré)"
    )
    turn = RULES.describe(state, "turn", "en", 1, NAMES)
    assert (
        turn
        == "Anna has 250 points this turn and must choose among 1 5 3 3; set aside: 1 1; banking needs 350 points in the turn"
    )
    assert RULES.describe(state, "turn", "en", 0, NAMES).startswith("you have 250 points")
    assert RULES.describe(state, "dice", "en", 0, NAMES) == "dice: 1 5 3 3; set aside: 1 1"
    assert (
        RULES.describe(state, "status", "en", 1, NAMES)
        == "first to 5,000 starts the last round; Anna to play"
    )
    assert "topics" in RULES.describe(state, "weather", "en", 0, NAMES)


def test_help_and_rules_texts_are_short_sentences_without_sources() -> None:
    for lang in ("en", "fr"):
        assert "Shift" in RULES.help_text(lang) or "Maj" in RULES.help_text(lang)
        text = RULES.rules_text(lang, RULES.options.resolve())
        assert "500" in text and "350" in text
        assert ("5\u202f000" in text) if lang == "fr" else ("5,000" in text)
        assert "seed" not in text and "graine" not in text and "(" not in text
        assert max(len(line) for line in text.splitlines()) <= 160
    seed_en = RULES.rules_text("en", RULES.options.resolve())
    assert "Extra 1s and 5s score as single" in seed_en
    farkle_fr = RULES.rules_text("fr", RULES.options.resolve("farkle10000"))
    assert "Trois paires différentes en un lancer valent 1\u202f500." in farkle_fr


def test_every_option_has_two_languages_and_a_source() -> None:
    for spec in RULES.options.specs:
        assert spec.description["en"] and spec.description["fr"] and spec.source
    for preset in RULES.options.presets:
        assert preset.description["en"] and preset.description["fr"] and preset.source
        RULES.options.resolve(preset.name)
    assert RULES.options.default_preset == "zilch5000"
    assert RULES.options.resolve() == RULES.options.resolve("zilch5000")


def test_option_checks() -> None:
    from zanzibar.engine.errors import OptionError

    with pytest.raises(OptionError, match="multiple of 50"):
        RULES.options.resolve(None, {"target": 5010})
    with pytest.raises(OptionError, match="below the target"):
        RULES.options.resolve(None, {"target": 500})


@pytest.mark.parametrize("preset", [p.name for p in RULES.options.presets])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rules_text_of_every_preset(preset: str, lang: str) -> None:
    options = RULES.options.resolve(preset)
    text = RULES.rules_text(lang, options)
    assert preset in text
    target = options["target"]
    assert (f"{target:,}" if lang == "en" else f"{target:,}".replace(",", "\u202f")) in text
    if options["zilch_penalty"]:
        assert "500" in text and ("zilches" in text or "zilchs" in text)
