"""How a 421 game moves: turns, roll limits, play-offs, tokens, rounds.

Pure functions from a state (and dice or an action) to a new state and its
events. Each rule says where it comes from: seeds 000/001 (the Salon), seed
002 (bar rules) or the research notes.

Turn structure (seed 000): each player in turn rolls up to the roll limit,
rerolling any dice, and stops when satisfied; nobody may roll more times than
the player before (so the first player's early stop binds everyone). When all
have played, the weakest throw loses the turn and takes tokens; the loser starts
the next turn.
"""

from __future__ import annotations

from zanzibar.engine.events import Event
from zanzibar.games.dice421.combos import NENETTE, Throw, normalise, strength, value
from zanzibar.games.dice421.options import Config
from zanzibar.games.dice421.state import State, evolve

Events = list[Event]


def _event(kind: str, seat: int | None, **data: object) -> Event:
    """An Event built from already-frozen data (tuples, ints): skips re-freezing.

    Equal to ``Event(kind, seat, {...})`` with lists in place of the tuples.
    """
    return _raw_event(kind, seat, tuple(sorted(data.items())))


def _raw_event(kind: str, seat: int | None, data: tuple[tuple[str, object], ...]) -> Event:
    """``Event(kind, seat, data)`` for data already frozen and sorted by key.

    Skips the frozen dataclass's ``__init__`` (three guarded attribute writes and
    a ``__post_init__`` that would find nothing to do): the hot path of every roll.
    """
    event = _new_event(Event)
    event.__dict__.update(kind=kind, seat=seat, data=data)
    return event


_new_event = object.__new__


def new_state(seats: int, config: Config) -> State:
    """The state before the first roll."""
    empty = (0,) * seats
    state = State(config, seats, "charge", config.tokens, empty, empty)
    if config.first_player == "lowest_throw":
        # Seed 002: everyone rolls once before the game; the lowest throw starts.
        return evolve(state, phase="draw", playoff="draw", contenders=tuple(range(seats)))
    return start_turn(state, 0, [])


# -- turns ------------------------------------------------------------------------------


def _rotate(seats: tuple[int, ...], starter: int) -> tuple[int, ...]:
    index = seats.index(starter)
    return seats[index:] + seats[:index]


def start_turn(state: State, starter: int, events: Events) -> State:
    """Begin a turn: the starter first, then clockwise among those still in play."""
    order = _rotate(state.in_play, starter)
    limit = state.config.rolls_allowed(state.phase)
    # Hot path: the data pairs are written already sorted by key, as Event stores them.
    data = (("limit", limit), ("phase", state.phase), ("pot", state.pot), ("turn", state.turns + 1))
    events.append(_raw_event("turn_start", starter, data))
    return evolve(
        state,
        order=order,
        done=(),
        limit=limit,
        dice=(),
        rolls=0,
        pending=(),
        playoff="",
        contenders=(),
        playoff_throws=(),
        turn_loser=None,
    )


#: The die positions kept by each reroll (positions sorted, as the rules store them).
_KEPT: dict[tuple[int, ...], tuple[int, ...]] = {
    tuple(i for i in range(3) if mask >> i & 1): tuple(i for i in range(3) if not mask >> i & 1)
    for mask in range(1, 8)
}


def roll_dice(state: State, outcome: tuple[int, ...], events: Events) -> State:
    """The dice of the rolling player landed on the pending positions.

    The throw is announced highest die first, so the new throw is simply the kept
    dice with the new faces, sorted.
    """
    seat = state.order[len(state.done)]
    pending = state.pending
    if len(pending) == 3:
        kept: tuple[int, ...] = ()
    else:
        positions = _KEPT.get(pending)
        if positions is None:  # a stored state may list the positions in another order
            positions = tuple(i for i in (0, 1, 2) if i not in pending)
        kept = tuple(map(state.dice.__getitem__, positions))
    a, b, c = sorted(kept + outcome, reverse=True)
    throw = (a, b, c)
    rolls = state.rolls + 1
    # Hot path: the data pairs are written already sorted by key, as Event stores them.
    data = (("dice", throw), ("kept", kept), ("limit", state.limit), ("roll", rolls))
    events.append(_raw_event("roll", seat, data))
    if rolls >= state.limit:
        return _finish(state, seat, throw, rolls, events)
    return evolve(state, dice=throw, rolls=rolls, pending=())


def stop(state: State, events: Events) -> State:
    """The rolling player keeps the throw."""
    seat = state.order[len(state.done)]
    events.append(_raw_event("stop", seat, (("dice", state.dice), ("rolls", state.rolls))))
    a, b, c = state.dice
    return _finish(state, seat, (a, b, c), state.rolls, events)


def _finish(state: State, seat: int, throw: Throw, rolls: int, events: Events) -> State:
    """Record the player's throw; the roll limit becomes the rolls it used (seed 000)."""
    done = (*state.done, (seat, throw, rolls))
    state = evolve(state, done=done, limit=rolls, dice=(), rolls=0, pending=())
    if len(done) < len(state.order):
        events.append(_raw_event("next", state.order[len(done)], (("limit", rolls),)))
        return state
    return _resolve_turn(state, events)


# -- who lost, who won --------------------------------------------------------------------


def _keys(state: State) -> list[tuple[int, int, int]]:
    """Comparison key of each finished throw: bigger is stronger.

    Seed 000: at an exact tie the later player wins. Seed 002: a rampo instead,
    and (read closely) the same combination in fewer rolls wins -- except for the
    nénette, where both seeds say a new nénette beats an older one.
    """
    config = state.config
    power = strength(config.fiche_order)
    later = config.ties == "later_wins"
    fewer = config.fewer_rolls_win
    keys = []
    for position, (_, throw, rolls) in enumerate(state.done):
        if throw == NENETTE:
            keys.append((power[throw], 0, position))
        else:
            keys.append((power[throw], -rolls if fewer else 0, position if later else 0))
    return keys


def _resolve_turn(state: State, events: Events) -> State:
    keys = _keys(state)
    worst = min(keys)
    group = [state.done[i][0] for i, key in enumerate(keys) if key == worst]
    if len(group) > 1:
        return _start_playoff(state, "worst", tuple(reversed(group)), events)
    return _after_loser(state, group[0], events, keys)


def _after_loser(
    state: State, loser: int, events: Events, keys: list[tuple[int, int, int]] | None = None
) -> State:
    """The turn's loser is known; find the winner (a rampo if that matters).

    ``keys``: the throws' comparison keys when the caller has them already.
    """
    if keys is None:
        keys = _keys(state)
    candidates = [
        (key, state.done[i][0]) for i, key in enumerate(keys) if state.done[i][0] != loser
    ]
    best = max(key for key, _ in candidates)
    group = [seat for key, seat in candidates if key == best]
    if len(group) > 1 and state.phase == "decharge":
        # The giver matters in the décharge only: tied best throws play it off.
        state = evolve(state, turn_loser=loser)
        return _start_playoff(state, "best", tuple(reversed(group)), events)
    return _settle(state, loser, group[-1], events)


def _start_playoff(state: State, kind: str, contenders: tuple[int, ...], events: Events) -> State:
    """Rampo (seed 002): the tied players roll once each, the last to have played first."""
    events.append(Event("rampo", None, {"seats": list(contenders), "for": kind}))
    return evolve(state, playoff=kind, contenders=contenders, playoff_throws=())


def playoff_roll(state: State, outcome: tuple[int, ...], events: Events) -> State:
    """One contender of a draw or a rampo rolled its single throw."""
    seat = state.contenders[len(state.playoff_throws)]
    throw = normalise(outcome)
    events.append(Event("roll", seat, {"dice": list(throw), "roll": 1, "limit": 1, "kept": []}))
    throws = (*state.playoff_throws, throw)
    state = evolve(state, playoff_throws=throws)
    if len(throws) < len(state.contenders):
        return state
    power = strength(state.config.fiche_order)
    scores = [power[t] for t in throws]
    pick = max(scores) if state.playoff == "best" else min(scores)
    group = tuple(
        seat for seat, score in zip(state.contenders, scores, strict=True) if score == pick
    )
    if len(group) > 1:
        if state.playoff == "draw":
            events.append(Event("redraw", None, {"seats": list(group)}))
            return evolve(state, contenders=group, playoff_throws=())
        return _start_playoff(state, state.playoff, tuple(reversed(group)), events)
    chosen = group[0]
    if state.playoff == "draw":
        events.append(_event("starter", chosen))
        return start_turn(evolve(state, phase="charge"), chosen, events)
    if state.playoff == "worst":
        return _after_loser(state, chosen, events)
    assert state.turn_loser is not None
    return _settle(state, state.turn_loser, chosen, events)


# -- tokens -------------------------------------------------------------------------------


def _throw_of(state: State, seat: int) -> Throw:
    for who, throw, _ in state.done:
        if who == seat:
            return throw
    raise AssertionError(f"seat {seat} has no throw this turn")


def turn_amount(config: Config, phase: str, winner_throw: Throw, loser_throw: Throw) -> int:
    """Tokens the turn moves before caps.

    Seed 000: the value of the strongest throw, in both phases. Seed 002: in the
    charge the loser takes the value of its own throw; a nénette penalises its
    roller 2 tokens, added to the best value in the décharge.

    >>> from zanzibar.games.dice421.options import Config
    >>> turn_amount(Config(), "charge", (6, 6, 6), (3, 2, 2))
    6
    >>> bar = Config(token_amount="own", nenette="penalty2")
    >>> turn_amount(bar, "charge", (6, 6, 6), (3, 2, 2)), turn_amount(bar, "decharge", (6, 6, 6), (2, 2, 1))
    (1, 8)
    """
    own = phase == "charge" and config.token_amount == "own"
    base = value(loser_throw if own else winner_throw, config.nenette)
    penalty = config.nenette == "penalty2" and loser_throw == NENETTE and not own
    return base + (2 if penalty else 0)


def _settle(state: State, loser: int, winner: int, events: Events) -> State:
    """Move the tokens, with caps (seed 000): the pot in the charge, the giver's holdings after."""
    config = state.config
    loser_throw, winner_throw = _throw_of(state, loser), _throw_of(state, winner)
    wanted = turn_amount(config, state.phase, winner_throw, loser_throw)
    tokens = list(state.tokens)
    pot = state.pot
    if state.phase == "charge":
        amount = min(wanted, pot)
        pot -= amount
    else:
        amount = min(wanted, tokens[winner])
        tokens[winner] -= amount
    tokens[loser] += amount
    data = (
        ("amount", amount),
        ("loser_dice", loser_throw),
        ("phase", state.phase),
        ("pot", pot),
        ("wanted", wanted),
        ("winner", winner),
        ("winner_dice", winner_throw),
    )  # sorted by key, as Event stores them
    events.append(_raw_event("turn_end", loser, data))
    state = evolve(state, tokens=tuple(tokens), pot=pot, turns=state.turns + 1)
    return _after_tokens(state, loser, winner, events)


def _after_tokens(state: State, loser: int, winner: int, events: Events) -> State:
    """End of the charge, players leaving, the end of a round.

    Seed 000: when the charge ends, players without tokens have won and go out;
    seed 002: they are no winners yet and play the décharge (option
    ``zero_after_charge``). In the décharge a turn winner left without tokens
    goes out, safe. A player holding every token loses the round (both seeds).
    """
    if state.phase == "charge":
        if state.pot > 0:
            return start_turn(state, loser, events)
        events.append(Event("charge_over", None, {"tokens": list(state.tokens)}))
        active = tuple(range(state.seats))
        if state.config.zero_after_charge == "out":
            for seat in range(state.seats):
                if state.tokens[seat] == 0:
                    events.append(_event("out", seat))
            active = tuple(s for s in active if state.tokens[s] > 0)
        state = evolve(state, phase="decharge", active=active)
    elif state.tokens[winner] == 0:
        events.append(_event("out", winner))
        state = evolve(state, active=tuple(s for s in state.active if s != winner))
    for seat in range(state.seats):
        if state.tokens[seat] == state.config.tokens:
            return _round_lost(state, seat, events)
    return start_turn(state, loser, events)


def _round_lost(state: State, seat: int, events: Events) -> State:
    """One player holds every token: it loses the round (seed 002: first to lose N pays)."""
    losses = list(state.losses)
    losses[seat] += 1
    needed = state.config.rounds_to_lose
    events.append(Event("round_lost", seat, {"losses": losses[seat], "needed": needed}))
    state = evolve(state, losses=tuple(losses), order=(), done=(), turn_loser=None, active=())
    if losses[seat] >= needed:
        events.append(Event("game_over", seat, {"losses": losses}))
        return evolve(state, phase="over", loser=seat, playoff="", contenders=(), playoff_throws=())
    fresh = evolve(
        state,
        phase="charge",
        pot=state.config.tokens,
        tokens=(0,) * state.seats,
        round=state.round + 1,
    )
    events.append(Event("round_start", seat, {"round": fresh.round}))
    return start_turn(fresh, seat, events)
