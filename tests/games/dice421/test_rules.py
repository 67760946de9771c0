"""421 rules in scenarios with chosen dice: roll limit, caps, presets, rampo, rounds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zanzibar.engine.errors import IllegalActionError, NotYourTurnError, OptionError
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.games.dice421 import flow
from zanzibar.games.dice421.options import Config
from zanzibar.games.dice421.rules import RULES
from zanzibar.games.dice421.state import ROLL_ALL, STOP, Roll, State

from .conftest import Table


def test_registry_finds_the_game() -> None:
    assert get_rules("421") is RULES
    assert get_rules("zanzibar") is RULES
    assert RULES.seat_range({}) == (2, 10)


def test_two_to_ten_players() -> None:
    with pytest.raises(OptionError):
        RULES.new_state(1, RULES.options.resolve())
    with pytest.raises(OptionError):
        RULES.new_state(11, RULES.options.resolve())
    assert RULES.new_state(10, RULES.options.resolve()).order == tuple(range(10))


def test_first_roll_throws_all_dice_and_stop_needs_a_roll(table: type[Table]) -> None:
    t = table()
    assert RULES.legal_actions(t.state) == (ROLL_ALL,)
    with pytest.raises(IllegalActionError):
        RULES.apply(t.state, 0, STOP)
    with pytest.raises(IllegalActionError):
        RULES.apply(t.state, 0, Roll(frozenset({0})))
    with pytest.raises(NotYourTurnError):
        RULES.apply(t.state, 1, ROLL_ALL)
    before = t.state
    t.act(ROLL_ALL)
    assert RULES.to_act(t.state) is None and RULES.chance_request(t.state).count == 3
    with pytest.raises(IllegalActionError):
        RULES.apply_chance(t.state, (7, 1, 1))
    t.dice(1, 2, 4)
    assert t.state.dice == (4, 2, 1)  # dice are kept highest first
    assert len(RULES.legal_actions(t.state)) == 8  # seven rerolls and stop
    assert before.rolls == 0


def test_roll_limit_binds_later_players(table: type[Table]) -> None:
    """Seed 000: nobody rolls more times than the player before; an early stop binds."""
    t = table(seats=3)
    t.play((6, 5, 3), ([1, 2], (6, 2)))  # A: 2 rolls, stops at 6 6 6
    assert t.last("next").get("limit") == 2
    t.play((5, 3, 2))  # B stops after one roll
    assert t.state.limit == 1
    assert t.last("next").get("limit") == 1
    t.act(ROLL_ALL)  # C may roll once: the go ends by itself
    t.dice(3, 3, 2)
    assert t.state.done == () and t.last("turn_end").seat == 2


def test_full_limit_ends_the_go_without_stop(table: type[Table]) -> None:
    t = table()
    t.play((6, 5, 3), ([0], (2,)), ([0], (3,)), stop=False)
    assert t.state.done == ((0, (3, 3, 2), 3),)  # 6 5 3 -> 5 3 2 -> 3 3 2
    assert RULES.to_act(t.state) == 1 and t.state.limit == 3


def test_salon_charge_strongest_value(table: type[Table]) -> None:
    t = table()
    t.play((4, 2, 1))  # A stops at once on 421: B gets one roll
    t.play((6, 5, 3))
    end = t.last("turn_end")
    assert (end.seat, end.get("winner"), end.get("amount")) == (1, 0, 10)
    assert t.state.tokens == (0, 10) and t.state.pot == 11
    assert t.last("turn_start").seat == 1  # the loser starts the next turn


def test_bar_charge_loser_takes_its_own_value(table: type[Table]) -> None:
    t = table(preset="bar", first_player="seat_order")
    assert t.state.limit == 1  # dry charge
    t.play((6, 6, 6))
    t.play((5, 3, 2))
    assert t.last("turn_end").get("amount") == 1
    assert t.state.tokens == (0, 1)


def test_same_dice_salon_gives_the_strongest_value(table: type[Table]) -> None:
    t = table(dry_charge=True)
    t.play((6, 6, 6))
    t.play((5, 3, 2))
    assert t.state.tokens == (0, 6)


def test_later_player_wins_exact_ties(table: type[Table]) -> None:
    """Seed 000: a new 421 beats another 421."""
    t = table()
    t.play((4, 2, 1))
    t.play((4, 2, 1))
    assert t.last("turn_end").seat == 0
    assert t.state.tokens == (10, 0)


def test_salon_nenette_worth_4_only_as_strongest(table: type[Table]) -> None:
    t = table(dry_charge=True)
    t.play((6, 6, 6))
    t.play((2, 2, 1))
    assert t.state.tokens == (0, 6)  # nénette loses, takes the strongest value
    t.play((2, 2, 1))  # B starts now
    t.play((2, 2, 1))  # A's newer nénette beats B's
    assert t.last("turn_end").seat == 1 and t.last("turn_end").get("amount") == 4


def test_bar_nenette_in_the_charge_costs_two(table: type[Table]) -> None:
    t = table(preset="bar", first_player="seat_order")
    t.play((6, 6, 6))
    t.play((2, 2, 1))
    assert t.state.tokens == (0, 2)


def _decharge(
    config: Config, tokens: tuple[int, ...], starter: int = 0, active: tuple[int, ...] = ()
) -> State:
    active = active or tuple(s for s, n in enumerate(tokens) if n > 0)
    state = State(config, len(tokens), "decharge", 0, tokens, (0,) * len(tokens), active=active)
    return flow.start_turn(state, starter, [])


def test_bar_nenette_penalty_adds_to_the_best_value_in_the_decharge(table: type[Table]) -> None:
    t = table()
    t.state = _decharge(Config.from_options(RULES.options.resolve("bar")), (10, 11))
    t.play((6, 6, 6))
    t.play((2, 2, 1), stop=False)  # limit 1 after A's one roll
    end = t.last("turn_end")
    assert (end.seat, end.get("amount")) == (1, 8)  # best 6 + nénette 2
    assert t.state.tokens == (2, 19)


def test_decharge_capped_by_the_givers_tokens_and_giver_leaves(table: type[Table]) -> None:
    t = table()
    t.state = _decharge(Config(), (3, 18))
    t.play((4, 2, 1))
    t.play((6, 5, 3))
    end = t.last("turn_end")
    assert end.get("amount") == 3 and end.get("wanted") == 10
    assert t.kinds()[-3:] == ["out", "round_lost", "game_over"]
    assert RULES.is_over(t.state)
    outcome = RULES.outcome(t.state)
    assert outcome.losers == (1,) and outcome.winners == (0,)


def test_pot_caps_the_charge_and_a_full_holder_loses(table: type[Table]) -> None:
    t = table(tokens=5)
    t.play((4, 2, 1))
    t.play((6, 5, 3))
    end = t.last("turn_end")
    assert end.get("amount") == 5 and end.get("wanted") == 10 and end.get("pot") == 0
    assert t.kinds()[-5:] == ["turn_end", "charge_over", "out", "round_lost", "game_over"]
    assert t.state.loser == 1


def test_end_of_charge_players_at_zero_leave_and_decharge_starts(table: type[Table]) -> None:
    t = table(seats=3, tokens=4, dry_charge=True)
    t.play((6, 6, 6))
    t.play((5, 5, 5))
    t.play((3, 2, 2))  # C takes 4: the pot is empty
    outs = [e.seat for e in t.events if e.kind == "out"]
    assert outs == [0, 1]
    # C holds every token: C lost.
    assert t.state.loser == 2

    t = table(seats=3, tokens=8, dry_charge=True)
    t.play((6, 6, 6))
    t.play((5, 5, 5))
    t.play((3, 2, 2))  # C takes 6, 2 left
    t.play((6, 6, 5))  # C starts
    t.play((4, 2, 1))
    t.play((3, 2, 2))  # B? order is C, A, B: B loses, takes the last 2
    assert t.state.phase == "decharge"
    assert [e.seat for e in t.events if e.kind == "out"] == [0]
    assert t.state.order == (1, 2)  # the loser B starts; A is out


def test_rampo_replays_the_tied_worst_in_the_charge(table: type[Table]) -> None:
    t = table(preset="bar", first_player="seat_order")
    t.play((6, 5, 3))
    t.play((6, 5, 3))
    rampo = t.last("rampo")
    assert rampo.get("seats") == (1, 0) and rampo.get("for") == "worst"  # last to play first
    assert RULES.to_act(t.state) is None and RULES.chance_request(t.state).count == 3
    t.dice(4, 4, 1)  # B
    t.dice(4, 4, 1)  # A: tied again
    assert t.last("rampo").get("seats") == (0, 1)
    t.dice(3, 2, 2)  # A
    t.dice(6, 6, 6)  # B
    end = t.last("turn_end")
    assert end.seat == 0 and end.get("amount") == 1  # own value of the tied throw 6 5 3
    assert t.state.tokens == (1, 0)


def test_rampo_for_the_giver_in_the_decharge(table: type[Table]) -> None:
    t = table()
    config = Config.from_options(RULES.options.resolve("bar"))
    t.state = _decharge(config, (5, 5, 11))
    t.play((6, 6, 6))
    t.play((6, 6, 6), stop=False)
    t.play((5, 3, 2), stop=False)
    rampo = t.last("rampo")
    assert rampo.get("for") == "best" and rampo.get("seats") == (1, 0)
    t.dice(6, 5, 4)  # B
    t.dice(6, 5, 3)  # A: B rolled higher and gives
    end = t.last("turn_end")
    assert (end.seat, end.get("winner"), end.get("amount")) == (2, 1, 5)
    assert t.state.tokens == (5, 0, 16)


def test_fewer_rolls_win_equal_throws(table: type[Table]) -> None:
    t = table()
    config = Config.from_options(RULES.options.resolve("bar"))
    t.state = _decharge(config, (10, 11))
    t.play((6, 5, 3), ([1, 2], (6, 6)))  # A: 6 6 6 in two rolls
    t.play((6, 6, 6))  # B: 6 6 6 in one roll wins
    end = t.last("turn_end")
    assert end.seat == 0 and end.get("winner") == 1


def test_fiche_order_option_decides(table: type[Table]) -> None:
    for order, loser in (("salon", 0), ("fiche_first", 1), ("fiches_above", 1)):
        t = table(dry_charge=True, fiche_order=order)
        t.play((6, 1, 1))
        t.play((6, 6, 6))
        assert t.last("turn_end").seat == loser, order


def test_lowest_throw_starts_with_redraw_on_ties(table: type[Table]) -> None:
    t = table(seats=3, preset="bar")
    assert t.state.phase == "draw"
    t.dice(3, 2, 2)
    t.dice(6, 6, 6)
    t.dice(2, 3, 2)
    assert t.last("redraw").get("seats") == (0, 2)
    t.dice(4, 2, 1)
    t.dice(5, 3, 2)
    assert t.last("starter").seat == 2
    assert t.state.phase == "charge" and t.state.order == (2, 0, 1)


def test_rounds_first_to_lose_two_pays(table: type[Table]) -> None:
    t = table(preset="bar", first_player="seat_order", tokens=2)
    t.play((6, 6, 6))
    t.play((5, 3, 2))  # B takes 1
    t.play((5, 3, 2))  # B starts
    t.play((6, 6, 6))  # B takes 1 more: the pot is empty, B holds all
    assert [e.kind for e in t.events][-3:] == ["round_lost", "round_start", "turn_start"]
    assert t.state.losses == (0, 1) and t.state.round == 2
    assert t.state.pot == 2 and t.state.tokens == (0, 0) and t.state.phase == "charge"
    assert t.state.order == (1, 0)  # the round's loser starts
    for _ in range(2):
        t.play((5, 3, 2))
        t.play((6, 6, 6))
    assert t.state.phase == "over" and t.state.loser == 1 and t.state.losses == (0, 2)


def test_seat_order_start_and_salon_single_round(table: type[Table]) -> None:
    t = table()
    assert t.state.phase == "charge" and t.state.order == (0, 1)
    assert t.state.config.rounds_to_lose == 1


def test_refused_action_changes_nothing() -> None:
    match = Match(RULES, 2, seed=3)
    before = (match.state, len(match.log))
    with pytest.raises(IllegalActionError):
        match.act(0, STOP)
    with pytest.raises(IllegalActionError):
        match.act_json(0, {"type": "dance"})
    assert (match.state, len(match.log)) == before


def test_no_action_during_a_playoff() -> None:
    state = replace(
        RULES.new_state(2, RULES.options.resolve("bar")),
    )
    assert RULES.to_act(state) is None
    assert RULES.legal_actions(state) == ()
    with pytest.raises(IllegalActionError):
        RULES.apply_action(state, ROLL_ALL)


def test_invalid_option_values_name_the_option() -> None:
    with pytest.raises(OptionError, match="ties"):
        RULES.options.resolve("salon", {"ties": "coin_toss"})
    with pytest.raises(OptionError, match="max_rolls"):
        RULES.options.resolve("salon", {"max_rolls": 4})
    with pytest.raises(OptionError, match="preset"):
        RULES.options.resolve("pub")


@pytest.mark.parametrize("level", ["expert", "simple", "random"])
@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_quick_play_is_the_same_game_as_a_match(level: str, preset: str) -> None:
    from zanzibar.games.dice421.quick import play_quick

    options = RULES.options.resolve(preset)
    for seed in range(3):
        bots = {s: RULES.make_bot(level, options, seed=s) for s in range(3)}
        match = Match(RULES, 3, options, seed=seed)
        match.play_bots(bots)
        bots = {s: RULES.make_bot(level, options, seed=s) for s in range(3)}
        state, actions, throws = play_quick(3, options, bots, seed)
        assert state == match.state
        assert actions == sum(entry.kind == "action" for entry in match.log)
        assert throws == sum(entry.kind == "chance" for entry in match.log)


def test_bar_players_without_tokens_stay_for_the_decharge(table: type[Table]) -> None:
    """Seed 002: a player who collected nothing in the charge is no winner yet."""
    for rule, expected_active in (("out", (1, 2)), ("stay", (0, 1, 2))):
        t = table(seats=3, tokens=8, dry_charge=True, zero_after_charge=rule)
        t.play((6, 6, 6))
        t.play((5, 5, 5))
        t.play((3, 2, 2))  # C takes 6, 2 left
        t.play((6, 6, 5))  # C starts
        t.play((4, 2, 1))
        t.play((5, 3, 2))  # B takes the last 2 (the 10 wanted is capped)
        assert t.state.phase == "decharge" and t.state.tokens == (0, 2, 6)
        assert t.state.active == expected_active, rule
        assert ("out" in t.kinds()) == (rule == "out")
        assert t.state.order[0] == 1
    # Under "stay", A (no tokens) can be given some: B, C, A play; A loses.
    t.play((6, 6, 6))  # B
    t.play((5, 5, 5))  # C
    t.play((3, 2, 2))  # A
    end = t.last("turn_end")
    assert (end.seat, end.get("winner"), end.get("amount")) == (0, 1, 2)
    assert t.state.tokens == (2, 0, 6)
    assert t.state.active == (0, 2) and t.last("out").seat == 1
    # And a tokenless winner goes out, safe.
    t.state = _decharge(Config(zero_after_charge="stay"), (0, 3, 5), active=(0, 1, 2))
    t.play((4, 2, 1))  # A wins with nothing to give
    t.play((6, 6, 6))
    t.play((5, 3, 2))
    assert t.last("out").seat == 0 and t.last("turn_end").get("amount") == 0
    assert t.state.active == (1, 2)


def test_a_new_nenette_beats_an_older_one_even_with_rampo(table: type[Table]) -> None:
    """Seed 002: "if another player makes a nénette, it beats the previous one"."""
    t = table(preset="bar", first_player="seat_order")
    t.play((2, 2, 1))
    t.play((2, 2, 1))
    assert "rampo" not in t.kinds()
    end = t.last("turn_end")
    assert end.seat == 0 and end.get("amount") == 2  # A's older nénette loses, own value 2
    # Other equal throws still go to a rampo.
    t.play((6, 5, 3))  # A starts
    t.play((6, 5, 3))
    assert t.last("rampo").get("seats") == (1, 0)


@pytest.mark.parametrize(
    "bad", [(True, 2, 3), (1, 2), (0, 1, 2), (7, 1, 1), (1.0, 2, 3), ("1", 2, 3)]
)
def test_malformed_dice_are_refused(bad: tuple[object, ...]) -> None:
    state = RULES.apply_action(RULES.new_state(2, RULES.options.resolve()), ROLL_ALL).state
    with pytest.raises(IllegalActionError):
        RULES.apply_chance(state, bad)  # type: ignore[arg-type]
