"""Sentences of Zilch for screen readers, in English and French.

Each event kind has a "you" form (the viewer caused it) and a "name" form.
"""

from __future__ import annotations

from collections.abc import Sequence

from zanzibar.engine.i18n import Catalogue, join_words, seat_name, translate

CATALOGUE: Catalogue = {
    "en": {
        "turn.you": "your turn",
        "turn.other": "{name}'s turn",
        "turn.final.you": "your last turn",
        "turn.final.other": "{name}'s last turn",
        "turn.tiebreak.you": "your tie-break turn",
        "turn.tiebreak.other": "{name}'s tie-break turn",
        "roll.you": "you rolled {dice}",
        "roll.other": "{name} rolled {dice}",
        "zilch.you": "zilch! you lose {lost} points",
        "zilch.other": "zilch! {name} loses {lost} points",
        "zilch.nothing.you": "zilch! your turn ends",
        "zilch.nothing.other": "zilch! {name}'s turn ends",
        "set_aside.you": "you set aside {dice} for {points}, {turn} this turn",
        "set_aside.other": "{name} sets aside {dice} for {points}, {turn} this turn",
        "hot_dice.you": "hot dice! you roll all six again with {turn} points",
        "hot_dice.other": "hot dice! {name} rolls all six again with {turn} points",
        "bank.you": "you bank {points}, total {total}",
        "bank.other": "{name} banks {points}, total {total}",
        "penalty.you": "three zilches in a row: you lose {points}, total {total}",
        "penalty.other": "three zilches in a row: {name} loses {points}, total {total}",
        "final_round.you": "you reached {score}: everyone else has one last turn",
        "final_round.other": "{name} reached {score}: everyone else has one last turn",
        "tie_break": "tie at {score} between {names}: each takes another turn",
        "game_over.you": "you win with {score}",
        "game_over.other": "{name} wins with {score}",
        "event.unknown": "{kind}",
        # describe()
        "scores.entry": "{name} {score}",
        "scores.not_entered": "{name} {score} (not entered)",
        "turn.describe.start.other": "{name} is about to roll the six dice",
        "turn.describe.start.you": "your turn: roll the six dice",
        "turn.describe.rolling.you": "you are rolling {dice} dice with {points} points this turn",
        "turn.describe.rolling.other": "{name} is rolling {dice} dice with {points} points this turn",
        "turn.describe.choose.you": "you have {points} points this turn and must choose among {dice}",
        "turn.describe.choose.other": "{name} has {points} points this turn and must choose among {dice}",
        "turn.describe.kept": "set aside: {dice}",
        "turn.describe.threshold": "banking needs {needed} in the turn",
        "turn.describe.over": "the game is over",
        "status.main.other": "first to {target} starts the last round; {name} to play",
        "status.main.you": "first to {target} starts the last round; your turn",
        "separator": "; ",
        "status.final": "last round: {trigger} reached {score}; still to play: {queue}",
        "status.final.none": "last round: {trigger} reached {score}",
        "status.tiebreak": "tie-break between {names}",
        "status.over": "game over: {winners} won with {score}",
        "dice.roll": "dice: {dice}",
        "dice.none": "no dice to choose from",
        "dice.kept": "set aside: {dice}",
        "nobody": "nobody",
        "unknown_topic": "no answer about {topic} (topics: scores, turn, status, dice)",
    },
    "fr": {
        "turn.you": "à vous",
        "turn.other": "au tour de {name}",
        "turn.final.you": "votre dernier tour",
        "turn.final.other": "dernier tour de {name}",
        "turn.tiebreak.you": "votre tour de départage",
        "turn.tiebreak.other": "tour de départage de {name}",
        "roll.you": "vous avez lancé {dice}",
        "roll.other": "{name} a lancé {dice}",
        "zilch.you": "zilch ! vous perdez {lost} points",
        "zilch.other": "zilch ! {name} perd {lost} points",
        "zilch.nothing.you": "zilch ! votre tour s'arrête",
        "zilch.nothing.other": "zilch ! le tour de {name} s'arrête",
        "set_aside.you": "vous mettez de côté {dice} pour {points}, {turn} ce tour-ci",
        "set_aside.other": "{name} met de côté {dice} pour {points}, {turn} ce tour-ci",
        "hot_dice.you": "dés brûlants ! vous relancez les six dés avec {turn} points",
        "hot_dice.other": "dés brûlants ! {name} relance les six dés avec {turn} points",
        "bank.you": "vous marquez {points}, total {total}",
        "bank.other": "{name} marque {points}, total {total}",
        "penalty.you": "trois zilchs de suite : vous perdez {points}, total {total}",
        "penalty.other": "trois zilchs de suite : {name} perd {points}, total {total}",
        "final_round.you": "vous atteignez {score} : chacun des autres joue un dernier tour",
        "final_round.other": "{name} atteint {score} : chacun des autres joue un dernier tour",
        "tie_break": "égalité à {score} entre {names} : chacun rejoue un tour",
        "game_over.you": "vous gagnez avec {score}",
        "game_over.other": "{name} gagne avec {score}",
        "event.unknown": "{kind}",
        "scores.entry": "{name} {score}",
        "scores.not_entered": "{name} {score} (pas encore entré)",
        "turn.describe.start.other": "{name} va lancer les six dés",
        "turn.describe.start.you": "à vous : lancez les six dés",
        "turn.describe.rolling.you": "vous lancez {dice} dés avec {points} points ce tour-ci",
        "turn.describe.rolling.other": "{name} lance {dice} dés avec {points} points ce tour-ci",
        "turn.describe.choose.you": "vous avez {points} points ce tour-ci et devez choisir parmi {dice}",
        "turn.describe.choose.other": "{name} a {points} points ce tour-ci et doit choisir parmi {dice}",
        "turn.describe.kept": "mis de côté : {dice}",
        "turn.describe.threshold": "pour marquer il faut {needed} dans le tour",
        "turn.describe.over": "la partie est finie",
        "status.main.other": "le premier à {target} lance le dernier tour ; {name} joue",
        "status.main.you": "le premier à {target} lance le dernier tour ; à vous",
        "separator": " ; ",
        "status.final": "dernier tour : {trigger} a atteint {score} ; restent à jouer : {queue}",
        "status.final.none": "dernier tour : {trigger} a atteint {score}",
        "status.tiebreak": "départage entre {names}",
        "status.over": "partie finie : {winners} gagne avec {score}",
        "dice.roll": "dés : {dice}",
        "dice.none": "aucun dé à choisir",
        "dice.kept": "mis de côté : {dice}",
        "nobody": "personne",
        "unknown_topic": "pas de réponse sur {topic} (sujets : scores, turn, status, dice)",
    },
}


def say(lang: str, key: str, **values: object) -> str:
    """One sentence of the catalogue."""
    return translate(CATALOGUE, lang, key, **values)


def personal(
    lang: str,
    key: str,
    seat: int | None,
    viewer: int | None,
    names: Sequence[str],
    **values: object,
) -> str:
    """The "you" form of ``key`` for the viewer's own events, else the "name" form."""
    if seat is not None and seat == viewer:
        return say(lang, f"{key}.you", **values)
    name = seat_name(names, seat) if seat is not None else ""
    return say(lang, f"{key}.other", name=name, **values)


def dice_words(dice: Sequence[int]) -> str:
    """Dice as a screen reader reads them: ``"1 5 3"``."""
    return " ".join(str(d) for d in dice)


def names_of(seats: Sequence[int], names: Sequence[str], lang: str) -> str:
    """Several seats' names joined as a sentence does."""
    if not seats:
        return say(lang, "nobody")
    return join_words([seat_name(names, s) for s in seats], lang)
