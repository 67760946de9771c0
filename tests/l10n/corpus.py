"""Everything the product says in a game, in one language: every event of every game
(from random games and from made-up events that reach every branch), the read-outs
(scores, turn, status, dice, board...), the salon's notices and the option texts.

The l10n tests scan this corpus in French and in the pseudo-locale.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games import game_names, get_rules
from zanzibar.salon.messages import bot_name, system_text, your_turn_text
from zanzibar.salon.tables import Table

NAMES = ("Anna", "Bruno", "Éric", "Hugo")
VIEWERS: tuple[int | None, ...] = (None, 0, 1)
DICE_GAMES = ("421", "zilch")
CHESS_GAMES = tuple(g for g in game_names() if g not in DICE_GAMES)


def _random_match(
    game: str, seed: int, seats: int, preset: str | None, cap: int
) -> Match[Any, Any]:
    rules = get_rules(game)
    options = rules.options.resolve(preset) if preset else rules.options.resolve()
    match: Match[Any, Any] = Match(rules, seats, options, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not match.is_over and steps < cap:
        legal = list(match.legal_actions())
        match.act(match.to_act, rng.choice(legal))  # type: ignore[arg-type]
        steps += 1
    return match


def game_events(game: str) -> tuple[list[Event], list[Any]]:
    """Events of every kind the game emits (a few of each), and states to ask about."""
    rules = get_rules(game)
    events: dict[tuple[str, str], Event] = {}
    states: list[Any] = []
    if game == "421":
        runs = [(seed, 3 + seed % 2, "bar" if seed % 2 else "salon") for seed in range(24)]
        cap = 10_000
    elif game == "zilch":
        presets = list(rules.options.presets)
        runs = [(seed, 2 + seed % 2, presets[seed % len(presets)].name) for seed in range(12)]
        cap = 4_000
    else:
        runs = [(seed, 2, None) for seed in range(3)]
        cap = 30
    for seed, seats, preset in runs:
        match = _random_match(game, seed, seats, preset, cap)
        for _, event in match.events:
            key = (event.kind, repr(sorted(k for k, _ in event.data)))
            bucket = events.setdefault(key, event)
            if bucket is not event and random.Random(seed).random() < 0.02:
                events[(event.kind, f"{seed}-{len(events)}")] = event
        states.append(match.state)
    found = list(events.values())
    if game == "421":
        found.append(Event("redraw", None, {"seats": [0, 2]}))
        found.append(Event("rampo", None, {"seats": [1, 2], "for": "worst"}))
    if game == "zilch":
        found.append(Event("tie_break", None, {"seats": [0, 1], "score": 5000}))
        found.append(Event("game_over", None, {"winners": [0, 2], "score": 5000}))
    if game in CHESS_GAMES:
        found.extend(chess_events(game))
    return found, states


def chess_events(game: str) -> list[Event]:
    """Made-up chess events reaching every branch: each piece, specials, checks, endings."""
    rules = get_rules(game)
    variant = rules.variant  # type: ignore[attr-defined]
    letters = [p.letter for p in variant.pieces]
    out: list[Event] = []
    for i, letter in enumerate(letters):
        victim = letters[(i + 1) % len(letters)]
        for colour, special, check, mate in (
            ("white", "", False, False),
            ("black", "king_jump", True, False),
            ("white", "en_passant", True, True),
        ):
            details = {
                "move": "e2e4",
                "san": "e4",
                "colour": colour,
                "piece": letter,
                "from": "e2",
                "to": "e4",
                "captured": victim if special != "king_jump" else "",
                "promotion": letters[1] if special == "en_passant" else "",
                "special": special,
                "check": check,
                "mate": mate,
            }
            out.append(Event("move", 0 if colour == "white" else 1, details))
    for side in ("castle_kingside", "castle_queenside"):
        out.append(
            Event(
                "move",
                1,
                {
                    "colour": "black",
                    "piece": letters[0],
                    "from": "e8",
                    "to": "g8",
                    "special": side,
                    "captured": "",
                    "promotion": "",
                    "check": False,
                    "mate": False,
                },
            )
        )
    placements = [[letter, f"f{n}"] for n, letter in enumerate(letters[:4], start=1)]
    out.append(Event("setup", 1, {"arrangement": 3, "placements": placements}))
    for kind in ("resign", "draw_offered", "draw_declined"):
        out.extend(Event(kind, seat, {}) for seat in (0, 1))
    for winner, reason in (
        (0, "checkmate"),
        (1, "stalemate"),
        (0, "resignation"),
        (-1, "stalemate"),
        (-1, "repetition"),
        (-1, "move_rule"),
        (-1, "agreement"),
    ):
        out.append(Event("game_over", None, {"winner": winner, "reason": reason}))
    return out


def topics(game: str) -> tuple[str, ...]:
    if game in DICE_GAMES:
        return ("scores", "turn", "status", "dice", "weather")
    return ("board", "square:e4", "square:z99", "turn", "status", "scores", "weather")


SYSTEM_VALUES: dict[str, dict[str, Any]] = {
    "joined": {"name": "Anna", "seat": 1},
    "left": {"name": "Éric"},
    "watching": {"name": "Anna"},
    "stopped_watching": {"name": "Anna"},
    "host": {"name": "Hugo"},
    "bot_added": {"name": "Bot 2 (hard)", "seat": 2},
    "bot_removed": {"name": "Bot 2 (expert)", "seat": 2},
    "kicked": {"name": "Anna"},
    "takeover": {"name": "Anna"},
    "returned": {"name": "Anna"},
    "game_started": {"game": "chess", "players": ["Anna", "Bot 2 (easy)"]},
    "game_over": {"winners": ["Anna"]},
    "game_draw": {},
    "game_abandoned": {},
    "round_pause": {"seconds": 1},
    "round_hold": {},
    "held": {},
    "released": {},
    "round_resume": {},
    "clock_timeout": {"name": "Anna"},
    "clock_set": {"seconds": 1},
    "clock_off": {},
}


def sentences(lang: str) -> Iterator[tuple[str, str]]:
    """(where, sentence) for everything in the corpus, said in ``lang``."""
    for game in game_names():
        rules = get_rules(game)
        events, states = game_events(game)
        for event in events:
            for viewer in VIEWERS:
                text = rules.render_event(event, lang, viewer, NAMES)
                yield f"{game} event {event.kind} {event.details} viewer {viewer}", text
        for state in states[:6]:
            for topic in topics(game):
                for viewer in VIEWERS:
                    text = rules.describe(state, topic, lang, viewer, NAMES)
                    yield f"{game} describe {topic} viewer {viewer}", text
        for spec in rules.options.to_json(lang)["options"]:
            yield f"{game} option {spec['name']}", str(spec.get("description", ""))
            for label in (spec.get("choice_labels") or {}).values():
                yield f"{game} option {spec['name']} choice", str(label.get(lang, ""))
        for preset in rules.options.to_json(lang).get("presets", []):
            yield f"{game} preset {preset['name']}", str(preset.get("description", ""))
        for line in rules.help_text(lang).splitlines():
            yield f"{game} help", line
        for preset in rules.options.presets:
            for line in rules.rules_text(lang, rules.options.resolve(preset.name)).splitlines():
                yield f"{game} rules {preset.name}", line
        for level in rules.bot_levels():
            yield f"{game} bot {level}", bot_name(1, level, lang)
    table = Table(1, get_rules("zilch"), None, {}, 2, [])
    for change in ("target=10000", "hot_dice_compulsory=False", "end=immediate", "farkle10000"):
        said = table._option_change(change, lang)
        yield (
            f"salon options_changed {change}",
            system_text("options_changed", lang, {"options": [said]}),
        )
    for kind, values in SYSTEM_VALUES.items():
        for count_values in (
            values,
            {k: (v[:0] if isinstance(v, list) else v) for k, v in values.items()},
        ):
            yield f"salon {kind}", system_text(kind, lang, count_values)
    for seconds in (None, 0, 1, 2, 30):
        yield f"your turn {seconds}", your_turn_text(lang, seconds)
