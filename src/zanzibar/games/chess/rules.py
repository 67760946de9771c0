"""The chess games behind the salon's GameRules interface, for any TOML variant.

State: a frozen :class:`ChessState` holding the start FEN and the moves played
since (coordinates), so the position, the repetition history and the whole
game replay exactly; plus the phase (setup, play, over), the result and a
pending draw offer. Seat 0 plays White, seat 1 Black.

Actions (JSON):

* ``{"type": "move", "move": "f2h4"}`` (coordinates or algebraic, ``"Zxe4"``)
* ``{"type": "setup", "arrangement": 12}`` or ``{"type": "setup", "arrangement": "KQGL UF"}``
* ``{"type": "resign"}``, ``{"type": "draw"}`` (offer a draw, or accept the one offered)

Events: ``setup``, ``move`` (details from :func:`notation.move_details`),
``resign``, ``draw_offered``, ``draw_declined``, ``game_over``.

>>> from zanzibar.games.chess.zanzibar_s import RULES
>>> state = RULES.new_state(2, RULES.options.resolve())
>>> RULES.to_act(state), len(RULES.legal_actions(state))
(1, 48)
>>> state = RULES.apply(state, 1, RULES.action_from_json({"type": "setup", "arrangement": "QKLG FU"})).state
>>> state.start_fen == RULES.variant.start_fen, RULES.to_act(state)
(True, 0)
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from zanzibar.engine.errors import CorruptDataError, IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.engine.options import OptionSchema, OptionSpec, Preset
from zanzibar.engine.rules import Bot, GameRules, Outcome, Transition
from zanzibar.games.chess import bots as chess_bots
from zanzibar.games.chess import help as chess_help
from zanzibar.games.chess.fen import parse_square, square_name
from zanzibar.games.chess.notation import (
    format_coordinate,
    format_san,
    move_details,
    move_msg,
    parse_coordinate,
    parse_move,
    piece_msg,
)
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.setup import (
    arrangement_index,
    arrangements,
    layout,
    placements,
    setup_fen,
)
from zanzibar.games.chess.variant import Promotion, Variant
from zanzibar.l10n import Listener, Msg, Seat, Texts, Voice

PHASES = ("setup", "play", "over")
F = TypeVar("F", bound=Callable[..., Any])


def _locked(method: F) -> F:
    """Run a method under the rules' lock: cached positions are shared and briefly mutated."""

    @functools.wraps(method)
    def wrapper(self: ChessRules, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


_CACHE_SIZE = 256


@dataclass(frozen=True)
class ChessState:
    """A whole game as a value.

    ``start_fen`` is the base position during the setup phase and the start
    position afterwards; ``moves`` are the coordinate moves since then.
    ``winner`` is the winning seat (0 White, 1 Black), -1 for a draw or a game
    in progress; ``reason`` says how it ended ("" while it goes on).
    """

    start_fen: str
    moves: tuple[str, ...] = ()
    phase: str = "play"
    arrangement: int = -1
    winner: int = -1
    reason: str = ""
    draw_offer: int = -1
    repetition: int = 3
    move_rule: int = 50
    seed_promotions: bool = False


@dataclass(frozen=True)
class ChessAction:
    """``kind`` is "move", "setup", "resign" or "draw"; ``move`` is the typed move text."""

    kind: str
    move: str = ""
    arrangement: int = -1


def _seat_of(colour: int) -> int:
    return 0 if colour > 0 else 1


def _colour(seat: int) -> Msg:
    return Msg("chess-colour", colour="white" if seat == 0 else "black")


#: Topics a French player may type, mapped to the ones :meth:`ChessRules.describe` knows.
_TOPIC_ALIASES = {
    "plateau": "board",
    "échiquier": "board",
    "case": "square",
    "tour": "turn",
    "trait": "turn",
    "état": "status",
    "etat": "status",
    "matériel": "scores",
    "materiel": "scores",
    "coups": "moves",
    "historique": "history",
}


class ChessRules(GameRules[ChessState, ChessAction]):
    """GameRules for one variant; ``extra_promotions`` adds the seed-text option."""

    def __init__(
        self,
        variant: Variant,
        extra_promotions: Mapping[str, Promotion] | None = None,
        extra_promotions_source: str = "",
    ) -> None:
        self.variant = variant
        self.name = variant.name
        self.title = Texts(Msg(f"games-title-{variant.name}"))
        self._seed_variant = (
            variant.with_extra_promotions(extra_promotions) if extra_promotions else None
        )
        self._cache: OrderedDict[tuple[bool, str, tuple[str, ...]], Position] = OrderedDict()
        self._lock = threading.RLock()  # the salon may ask from a worker thread
        self.options = self._schema(extra_promotions_source)

    # -- options -------------------------------------------------------------------

    def _schema(self, seed_source: str) -> OptionSchema:
        v = self.variant
        specs = [
            OptionSpec(
                "repetition",
                "int",
                v.repetition_count,
                Texts(Msg("options-chess-option-repetition")),
                minimum=0,
                maximum=5,
                source="FIDE Laws of Chess, article 9.2 (inherited from orthodox chess)",
            ),
            OptionSpec(
                "move_rule",
                "int",
                v.move_rule,
                Texts(
                    Msg(
                        "options-chess-option-move-rule",
                        piece1=piece_msg(v, v.move_rule_resets[0]),
                        piece2=piece_msg(v, v.move_rule_resets[1])
                        if len(v.move_rule_resets) > 1
                        else "none",
                    )
                ),
                minimum=0,
                maximum=200,
                source="FIDE Laws of Chess, article 9.3 (inherited from orthodox chess)",
            ),
        ]
        presets = [Preset("standard", Texts(Msg("options-chess-preset-standard")), {})]
        if v.setup.kind == "mirror-choice":
            specs.append(
                OptionSpec(
                    "setup",
                    "choice",
                    "choose",
                    Texts(Msg("options-chess-option-setup")),
                    choices=("choose", "default"),
                    source=v.sources[0] if v.sources else "",
                    choice_labels={
                        "choose": Texts(Msg("options-chess-option-setup-choose")),
                        "default": Texts(Msg("options-chess-option-setup-default")),
                    },
                )
            )
            presets.append(
                Preset(
                    "quick",
                    Texts(Msg("options-chess-preset-quick")),
                    {"setup": "default"},
                )
            )
        if self._seed_variant is not None:
            specs.append(
                OptionSpec(
                    "seed_promotions",
                    "bool",
                    False,
                    Texts(Msg("options-chess-option-seed-promotions")),
                    source=seed_source,
                )
            )
            presets.append(
                Preset(
                    "seed",
                    Texts(Msg("options-chess-preset-seed")),
                    {"seed_promotions": True},
                    source=seed_source,
                )
            )
        return OptionSchema(tuple(specs), tuple(presets))

    # -- positions -----------------------------------------------------------------

    def variant_for(self, state: ChessState) -> Variant:
        """The variant in force (with the seed promotions if that option is on)."""
        if state.seed_promotions and self._seed_variant is not None:
            return self._seed_variant
        return self.variant

    def _pos(self, state: ChessState) -> Position:
        """The cached position of a play-phase state (read-only: push/pop must balance).

        Callers in other threads must use :meth:`position` (a private copy).
        """
        with self._lock:
            return self._pos_locked(state)

    def _pos_locked(self, state: ChessState) -> Position:
        key = (state.seed_promotions, state.start_fen, state.moves)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        parent_key = (state.seed_promotions, state.start_fen, state.moves[:-1])
        parent = self._cache.get(parent_key) if state.moves else None
        if parent is not None:
            pos = parent.copy()
            pos.push(parse_coordinate(pos, state.moves[-1]))
        else:
            pos = Position(self.variant_for(state), state.start_fen)
            for text in state.moves:
                pos.push(parse_coordinate(pos, text))
        self._cache[key] = pos
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return pos

    def position(self, state: ChessState) -> Position:
        """A fresh, independent :class:`Position` of the state (safe to push on)."""
        if state.phase == "setup":
            raise IllegalActionError("the pieces are not all placed yet")
        with self._lock:
            return self._pos_locked(state).copy()

    def move_action(self, pos: Position, move: int) -> ChessAction:
        """The action that plays ``move`` (an int from ``pos.legal_moves()``)."""
        return ChessAction("move", format_coordinate(pos, move))

    # -- setting up ----------------------------------------------------------------

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Always two players."""
        return (2, 2)

    def new_state(self, seats: int, options: Mapping[str, Any]) -> ChessState:
        """Before the setup (if Black chooses) or at the start position."""
        values = self.options.validate(dict(options))
        common = {
            "repetition": values["repetition"],
            "move_rule": values["move_rule"],
            "seed_promotions": bool(values.get("seed_promotions", False)),
        }
        if self.variant.setup.kind == "mirror-choice" and values.get("setup") == "choose":
            return ChessState(self.variant.setup.base_fen, phase="setup", **common)
        return ChessState(self.variant.start_fen, phase="play", **common)

    # -- whose move ----------------------------------------------------------------

    @_locked
    def to_act(self, state: ChessState) -> int | None:
        """Black's seat during the setup, then the side to move; None once over."""
        if state.phase == "over":
            return None
        if state.phase == "setup":
            return 0 if self.variant.setup.chooser == "white" else 1
        return _seat_of(self._pos(state).turn)

    def chance_request(self, state: ChessState) -> None:
        """Chess has no dice."""
        return None

    def is_over(self, state: ChessState) -> bool:
        """True once mate, a draw rule, resignation or agreement ended the game."""
        return state.phase == "over"

    def outcome(self, state: ChessState) -> Outcome:
        """Winner and loser seats, or a draw, with the reason in the summary."""
        summary = {"reason": state.reason, "moves": len(state.moves)}
        if state.winner in (0, 1):
            return Outcome((state.winner,), (1 - state.winner,), False, summary)
        return Outcome((), (), True, summary)

    # -- moving --------------------------------------------------------------------

    @_locked
    def legal_actions(self, state: ChessState) -> Sequence[ChessAction]:
        """Setup choices, or every legal move plus resign and draw."""
        if state.phase == "over":
            return []
        if state.phase == "setup":
            return [
                ChessAction("setup", arrangement=i) for i in range(len(arrangements(self.variant)))
            ]
        pos = self._pos(state)
        actions = [ChessAction("move", format_coordinate(pos, m)) for m in pos.legal_moves()]
        extras = [ChessAction("resign")]
        if state.draw_offer != _seat_of(pos.turn):  # no second offer from the same seat
            extras.append(ChessAction("draw"))
        return [*actions, *extras]

    @_locked
    def apply_action(self, state: ChessState, action: ChessAction) -> Transition[ChessState]:
        """Apply a legal action; IllegalActionError (state unchanged) otherwise."""
        if state.phase == "over":
            raise IllegalActionError("the game is over")
        seat = self.to_act(state)
        assert seat is not None
        if state.phase == "setup":
            if action.kind != "setup":
                raise IllegalActionError("first choose the arrangement (setup N or setup KQGL UF)")
            return self._apply_setup(state, seat, action)
        if action.kind == "move":
            return self._apply_move(state, seat, action)
        if action.kind == "resign":
            new = replace(state, phase="over", winner=1 - seat, reason="resignation", draw_offer=-1)
            return Transition(new, (Event("resign", seat, {}), self._over_event(new)))
        if action.kind == "draw":
            if state.draw_offer == 1 - seat:
                new = replace(state, phase="over", winner=-1, reason="agreement", draw_offer=-1)
                return Transition(new, (self._over_event(new),))
            if state.draw_offer == seat:
                raise IllegalActionError("you have already offered a draw")
            new = replace(state, draw_offer=seat)
            return Transition(new, (Event("draw_offered", seat, {}),))
        raise IllegalActionError(f"{action.kind!r} is not possible now (move, resign or draw)")

    def _apply_setup(
        self, state: ChessState, seat: int, action: ChessAction
    ) -> Transition[ChessState]:
        index = arrangement_index(self.variant, action.arrangement)
        fen = setup_fen(self.variant, index)
        new = replace(state, start_fen=fen, moves=(), phase="play", arrangement=index)
        data = {
            "arrangement": index,
            "layout": layout(self.variant, index),
            "placements": [list(p) for p in placements(self.variant, index)],
        }
        return Transition(new, (Event("setup", seat, data),))

    def _apply_move(
        self, state: ChessState, seat: int, action: ChessAction
    ) -> Transition[ChessState]:
        pos = self._pos(state)
        move = parse_move(pos, action.move)
        details = move_details(pos, move)
        coordinate = details["move"]
        events: list[Event] = []
        offer = state.draw_offer
        if offer == 1 - seat:
            events.append(Event("draw_declined", seat, {}))
            offer = -1
        new = replace(state, moves=(*state.moves, coordinate), draw_offer=offer)
        events.append(Event("move", seat, details))
        after = self._pos(new)
        result = after.outcome(new.repetition, new.move_rule)
        if result is not None:
            winner = _seat_of(result.winner) if result.winner else -1
            new = replace(new, phase="over", winner=winner, reason=result.reason, draw_offer=-1)
            self._cache[(new.seed_promotions, new.start_fen, new.moves)] = after
            events.append(self._over_event(new))
        return Transition(new, tuple(events))

    def _over_event(self, state: ChessState) -> Event:
        return Event("game_over", None, {"winner": state.winner, "reason": state.reason})

    def apply_chance(self, state: ChessState, outcome: tuple[int, ...]) -> Transition[ChessState]:
        """Never called: chess has no chance nodes."""
        raise IllegalActionError("chess has no dice")

    # -- serialising ---------------------------------------------------------------

    def action_to_json(self, action: ChessAction) -> Any:
        """``{"type": ..., ...}``."""
        if action.kind == "move":
            return {"type": "move", "move": action.move}
        if action.kind == "setup":
            return {"type": "setup", "arrangement": action.arrangement}
        return {"type": action.kind}

    def action_from_json(self, obj: Any) -> ChessAction:
        """Parse an action; IllegalActionError if malformed."""
        if not isinstance(obj, Mapping) or not isinstance(obj.get("type"), str):
            raise IllegalActionError('an action is an object with a "type"')
        kind = obj["type"]
        if kind == "move":
            text = obj.get("move")
            if not isinstance(text, str) or not text.strip() or len(text) > 32:
                raise IllegalActionError('a move action needs "move": "f2h4" or "Zxe4"')
            return ChessAction("move", text.strip())
        if kind == "setup":
            index = arrangement_index(self.variant, obj.get("arrangement"))  # type: ignore[arg-type]
            return ChessAction("setup", arrangement=index)
        if kind in ("resign", "draw"):
            return ChessAction(kind)
        raise IllegalActionError(f"unknown action type {kind!r} (move, setup, resign, draw)")

    def state_to_json(self, state: ChessState) -> dict[str, Any]:
        """Lossless JSON of the state."""
        return {
            "variant": self.name,
            "start_fen": state.start_fen,
            "moves": list(state.moves),
            "phase": state.phase,
            "arrangement": state.arrangement,
            "winner": state.winner,
            "reason": state.reason,
            "draw_offer": state.draw_offer,
            "repetition": state.repetition,
            "move_rule": state.move_rule,
            "seed_promotions": state.seed_promotions,
        }

    @_locked
    def state_from_json(self, obj: Any) -> ChessState:
        """Inverse of state_to_json; CorruptDataError if it does not replay."""
        try:
            if obj["variant"] != self.name:
                raise CorruptDataError(f"state is for {obj['variant']!r}, not {self.name!r}")
            state = ChessState(
                start_fen=str(obj["start_fen"]),
                moves=tuple(str(m) for m in obj["moves"]),
                phase=str(obj["phase"]),
                arrangement=int(obj["arrangement"]),
                winner=int(obj["winner"]),
                reason=str(obj["reason"]),
                draw_offer=int(obj["draw_offer"]),
                repetition=int(obj["repetition"]),
                move_rule=int(obj["move_rule"]),
                seed_promotions=bool(obj["seed_promotions"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptDataError(f"bad chess state: {exc}") from None
        if state.phase not in PHASES or state.winner not in (-1, 0, 1):
            raise CorruptDataError("bad chess state: phase or winner out of range")
        if state.phase == "setup" and (
            state.start_fen != self.variant.setup.base_fen or state.moves
        ):
            raise CorruptDataError("bad chess state: the setup phase starts from the base position")
        if state.seed_promotions and self._seed_variant is None:
            raise CorruptDataError("bad chess state: this game has no seed promotions option")
        if state.phase != "setup":
            try:
                self._pos(state)
            except (IllegalActionError, CorruptDataError) as exc:
                raise CorruptDataError(f"bad chess state: {exc.message}") from None
        return state

    @_locked
    def view(self, state: ChessState, viewer: int | None, lang: str) -> dict[str, Any]:
        """The default view plus the FEN, check, last move and the piece names."""
        out = super().view(state, viewer, lang)
        v = self.variant_for(state)
        out["variant"] = self.name
        out["files"], out["ranks"] = v.files, v.ranks
        out["pieces"] = {p.letter: p.name.get(lang, p.name["en"]) for p in v.pieces}
        if state.phase == "setup":
            out["fen"] = state.start_fen
            out["setup_choices"] = [layout(v, i) for i in range(len(arrangements(v)))]
            return out
        pos = self._pos(state)
        out["fen"] = pos.fen()
        out["in_check"] = pos.is_check()
        out["last_move"] = state.moves[-1] if state.moves else None
        return out

    # -- words ---------------------------------------------------------------------

    def message_of(self, event: Event) -> Msg:
        """One message per event (words in l10n/<lang>/chess.ftl)."""
        v = self.variant
        seat = event.seat if event.seat is not None else 0
        if event.kind == "move":
            return move_msg(v, event.details)
        if event.kind == "setup":
            parts = tuple(
                Msg("chess-placement", piece=piece_msg(v, letter), square=square)
                for letter, square in event.get("placements", ())
            )
            return Msg(
                "chess-setup",
                name=Seat(seat),
                colour=_colour(seat),
                number=event.get("arrangement"),
                placements=parts,
                other=_colour(1 - seat),
            )
        if event.kind == "resign":
            return Msg("chess-resign", name=Seat(seat), colour=_colour(seat))
        if event.kind == "draw_offered":
            return Msg("chess-draw-offered", name=Seat(seat), colour=_colour(seat))
        if event.kind == "draw_declined":
            return Msg("chess-draw-declined")
        if event.kind == "game_over":
            return self._result(int(event.get("winner")), str(event.get("reason")))
        return Msg("engine-event-unknown", kind=event.kind)

    def _result(self, winner: int, reason: str) -> Msg:
        if reason == "agreement":
            return Msg("chess-draw-agreed")
        moves = self.variant.move_rule
        if winner in (0, 1):
            return Msg(
                "chess-won",
                reason=reason,
                moves=moves,
                colour=_colour(winner),
                name=Msg("voice-seat-name", name=Seat(winner)),
            )
        return Msg("chess-drawn", reason=reason, moves=moves)

    @_locked
    def describe(
        self, state: ChessState, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        """Answer "board", "square:e4", "turn", "status", "scores", "moves", "history"."""
        voice, listener = Voice(lang), Listener(viewer, tuple(names))
        topic = topic.strip().lower()
        head, sep, rest = topic.partition(":")
        topic = _TOPIC_ALIASES.get(head, head) + sep + rest
        board_pos = None if state.phase == "setup" else self._pos(state)
        if topic == "board":
            return self._describe_board(state, board_pos, voice, viewer)
        if topic.startswith("square"):
            name = topic.partition(":")[2].strip() or topic[6:].strip()
            return self._describe_square(state, board_pos, name, voice)
        if topic == "turn":
            return voice.say(self._turn(state), listener)
        if topic == "status":
            return self._describe_status(state, board_pos, voice, listener)
        if topic == "scores":
            return self._describe_scores(state, board_pos, voice)
        if topic == "moves" and board_pos is not None:
            legal = board_pos.legal_moves()
            texts = [format_san(board_pos, m, legal) for m in legal]
            if not texts:
                return voice.say("chess-no-legal-moves")
            return voice.say(Msg("chess-legal-moves", moves=", ".join(texts)))
        if topic == "moves":
            return ", ".join(
                layout(self.variant, i) for i in range(len(arrangements(self.variant)))
            )
        if topic == "history":
            return self._describe_history(state, voice)
        return voice.say(Msg("chess-unknown-topic", topic=topic))

    def _turn(self, state: ChessState) -> Msg:
        seat = self.to_act(state)
        if seat is None:
            return Msg("chess-over")
        key = "chess-turn-setup" if state.phase == "setup" else "chess-turn"
        return Msg(key, colour=_colour(seat), name=Msg("voice-seat-name", name=Seat(seat)))

    def _board_codes(self, state: ChessState, pos: Position | None) -> list[int]:
        if pos is not None:
            return pos.board
        from zanzibar.games.chess.fen import parse_fen

        return parse_fen(self.variant, state.start_fen, allow_missing_royal=True).board

    def _square_content(self, code: int) -> Msg:
        if not code:
            return Msg("chess-empty")
        letter = self.variant.pieces[abs(code) - 1].letter
        return piece_msg(self.variant, letter, "white" if code > 0 else "black")

    def _describe_board(
        self, state: ChessState, pos: Position | None, voice: Voice, viewer: int | None
    ) -> str:
        v = self.variant
        board = self._board_codes(state, pos)
        ranks = range(v.ranks - 1, -1, -1) if viewer != 1 else range(v.ranks)
        lines = []
        for rank in ranks:
            parts: list[str] = []
            run: list[int] = []
            for file in range(v.files):
                square = rank * v.files + file
                if board[square] == 0:
                    run.append(square)
                    continue
                parts.extend(self._empty_run(run, voice))
                run = []
                content = self._square_content(board[square])
                parts.append(
                    voice.say(
                        Msg("chess-square-content", square=square_name(v, square), content=content)
                    )
                )
            parts.extend(self._empty_run(run, voice))
            lines.append(voice.say(Msg("chess-rank", rank=rank + 1, content=", ".join(parts))))
        return "\n".join(lines)

    def _empty_run(self, run: list[int], voice: Voice) -> list[str]:
        v = self.variant
        if not run:
            return []
        if len(run) == 1:
            empty = Msg("chess-empty")
            return [
                voice.say(Msg("chess-square-content", square=square_name(v, run[0]), content=empty))
            ]
        first, last = square_name(v, run[0]), square_name(v, run[-1])
        return [voice.say(Msg("chess-run-empty", first=first, last=last))]

    def _describe_square(
        self, state: ChessState, pos: Position | None, name: str, voice: Voice
    ) -> str:
        try:
            square = parse_square(self.variant, name)
        except CorruptDataError as exc:
            return exc.text(voice.lang)
        board = self._board_codes(state, pos)
        return voice.say(
            Msg(
                "chess-square",
                square=square_name(self.variant, square),
                content=self._square_content(board[square]),
            )
        )

    def _describe_status(
        self, state: ChessState, pos: Position | None, voice: Voice, listener: Listener
    ) -> str:
        parts: list[Msg] = []
        if state.phase == "over":
            parts.append(self._result(state.winner, state.reason))
        elif pos is None:
            parts.append(self._turn(state))
        else:
            parts.append(Msg("chess-moves-count", number=pos.fullmove))
            parts.append(self._turn(state))
            if pos.is_check():
                parts.append(Msg("chess-check", colour=_colour(_seat_of(pos.turn))))
            else:
                parts.append(Msg("chess-no-check"))
        if state.draw_offer in (0, 1):
            parts.append(
                Msg(
                    "chess-draw-offer-pending",
                    name=Msg("voice-seat-name", name=Seat(state.draw_offer)),
                    colour=_colour(state.draw_offer),
                )
            )
        last = self._last_move(state)
        if last is not None:
            parts.append(Msg("chess-last-move", sentence=last))
        return " ".join(voice.say(m, listener) for m in parts)

    def _last_move(self, state: ChessState) -> Msg | None:
        if not state.moves:
            return None
        before = replace(state, moves=state.moves[:-1], phase="play")
        pos = self._pos(before)
        return move_msg(self.variant, move_details(pos, parse_coordinate(pos, state.moves[-1])))

    def _describe_scores(self, state: ChessState, pos: Position | None, voice: Voice) -> str:
        board = self._board_codes(state, pos)
        totals = {1: 0, -1: 0}
        for code in board:
            if code:
                totals[1 if code > 0 else -1] += self.variant.pieces[abs(code) - 1].value
        text = voice.say(
            Msg(
                "chess-material",
                white=round(totals[1] / 100, 1),
                black=round(totals[-1] / 100, 1),
            )
        )
        if pos is not None and pos.is_check():
            text += " " + voice.say(Msg("chess-check", colour=_colour(_seat_of(pos.turn))))
        return text

    def _describe_history(self, state: ChessState, voice: Voice) -> str:
        if not state.moves:
            return voice.say("chess-no-moves-yet")
        pos = Position(self.variant_for(state), state.start_fen)
        texts = []
        for i, text in enumerate(state.moves):
            move = parse_coordinate(pos, text)
            san = format_san(pos, move)
            texts.append(f"{i // 2 + 1}. {san}" if pos.turn > 0 else san)
            pos.push(move)
        return voice.say(Msg("chess-history", moves=" ".join(texts)))

    def help_text(self, lang: str) -> str:
        """Keys and commands."""
        return Voice(lang).say("help-chess-keys")

    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        """The rules in force, with sources."""
        return chess_help.rules_text(self.variant, lang, options)

    # -- bots ----------------------------------------------------------------------

    def bot_levels(self) -> Sequence[str]:
        """Bot levels, default first (the search bots of :mod:`bots`)."""
        return chess_bots.bot_levels()

    def make_bot(
        self, level: str, options: Mapping[str, Any], seed: int = 0
    ) -> Bot[ChessState, ChessAction]:
        """A bot of that level (IllegalActionError for an unknown level)."""
        bot: Bot[ChessState, ChessAction] = chess_bots.make_bot(self, level, options, seed)
        return bot
