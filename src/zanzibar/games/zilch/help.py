"""Help (keys and commands) and rules texts of Zilch, in English and French.

The rules text is built from the options in force, so a table playing the
Farkle preset reads the Farkle rules; every line names its source (seed 004,
or the rule sets digested in research/zilch.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.zilch.options import SCHEMA

HELP = {
    "en": """\
Zilch keys (in a terminal; the same words work as typed commands from a pipe):
  1 to 6           select die 1 to 6 of the roll to set aside (typed: 1 ... 6, or "keep 1 4")
  Shift+1 to 6     unselect that die (typed: -1 ... -6)
  A                select every scoring die (the best score of the roll)
  Space            say the selection and what it scores (typed: sel)
  R or Enter       set the selected dice aside and roll the others; starts your turn (typed: roll [1 4])
  B                set the selected dice aside and bank the turn (typed: bank [1 4])
  D                repeat the last roll (typed: dice)
  S                scores (typed: scores)
  T                the turn: points so far, dice set aside, what banking needs (typed: turn)
  I                game status: target, last round, tie-break (typed: status)
  F1 or ?          this help (typed: help)
  Ctrl+F1 or /     the rules in force (typed: rules)
  Q                quit (typed: quit)
Dice are numbered 1 to 6 in the order they were rolled.""",
    "fr": """\
Touches du Zilch (dans un terminal ; les mêmes mots servent de commandes tapées depuis un tube) :
  1 à 6            choisir le dé 1 à 6 du lancer à mettre de côté (tapé : 1 ... 6, ou « keep 1 4 »)
  Maj+1 à 6        retirer ce dé du choix (tapé : -1 ... -6)
  A                choisir tous les dés qui marquent (le meilleur score du lancer)
  Espace           dire le choix et ce qu'il rapporte (tapé : sel)
  R ou Entrée      mettre de côté les dés choisis et relancer les autres ; commence votre tour (tapé : roll [1 4])
  B                mettre de côté les dés choisis et marquer le tour (tapé : bank [1 4])
  D                répéter le dernier lancer (tapé : dice)
  S                les scores (tapé : scores)
  T                le tour : points acquis, dés mis de côté, seuil pour marquer (tapé : turn)
  I                état de la partie : but, dernier tour, départage (tapé : status)
  F1 ou ?          cette aide (tapé : help)
  Ctrl+F1 ou /     les règles en vigueur (tapé : rules)
  Q                quitter (tapé : quit)
Les dés sont numérotés de 1 à 6 dans l'ordre du lancer.""",
}


def help_text(lang: str) -> str:
    """Keys and typed commands."""
    return HELP.get(lang, HELP["en"])


def _kinds_line(lang: str, mode: str, three_ones: int) -> str:
    if lang == "fr":
        lines = {
            "seed": "Quatre ou cinq dés pareils : seul le brelan compte ; les 1 et les 5 en plus comptent "
            "comme des 1 et des 5 seuls (4 × 1 = 1100), les autres dés en plus ne marquent pas et ne "
            "peuvent donc pas être mis de côté ; six dés pareils font deux brelans. La graine 004 ne "
            "dit rien des carrés : c'est sa propre table qui s'applique.",
            "doubling": "Chaque dé pareil au-delà de trois double le brelan (quatre 2 = 400, cinq 2 = 800, "
            "six 2 = 1600). Source : Zilch en ligne (playr) et Farkle des réseaux sociaux.",
            "fixed": "Carré 1000, cinq dés pareils 2000, six dés pareils 3000. Source : Farkle du web "
            "(cardgames) et Farkle en boîte (Patch).",
        }
    else:
        lines = {
            "seed": "Four or five of a kind: only the triple scores; extra 1s and 5s score as single 1s and "
            "5s (four 1s = 1100), other extra dice score nothing and so cannot be set aside; six of a "
            "kind is two triples. Seed 004 says nothing of four of a kind: its own table applies.",
            "doubling": "Each matching die past three doubles the triple (four 2s = 400, five 2s = 800, "
            "six 2s = 1600). Source: online Zilch (playr) and social-network Farkle.",
            "fixed": "Four of a kind 1000, five 2000, six 3000. Source: web Farkle (cardgames) and boxed "
            "Farkle (Patch).",
        }
    return lines[mode]


def rules_text(lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force with these (validated) options, with their sources."""
    o = dict(options)
    preset = SCHEMA.matching_preset(o)
    fr = lang == "fr"
    lines: list[str] = []
    title = "Zilch 5000 — règles en vigueur" if fr else "Zilch 5000 — rules in force"
    if preset:
        title += f" ({'préréglage' if fr else 'preset'} {preset})"
    lines.append(title)
    if fr:
        lines += [
            "Six dés. À son tour on lance les six dés (graine 004).",
            f"Points d'un lancer : un 1 = 100, un 5 = 50, trois 1 = {o['three_ones']}, trois 2 = 200, "
            "trois 3 = 300, trois 4 = 400, trois 5 = 500, trois 6 = 600 (graine 004"
            + (", trois 1 = 300 selon Patch" if o["three_ones"] != 1000 else "")
            + "). Les combinaisons ne comptent qu'à l'intérieur d'un même lancer.",
        ]
        if o["straight"]:
            lines.append(f"Suite 1-2-3-4-5-6 en un lancer : {o['straight']} (graine 004 : 1500).")
        lines.append(_kinds_line(lang, o["kinds"], o["three_ones"]))
        if o["three_pairs"]:
            lines.append(
                f"Trois paires différentes en un lancer : {o['three_pairs']} (research/zilch.md)."
            )
        else:
            lines.append("Trois paires ne marquent pas (graine 004).")
        if o["four_and_pair"]:
            lines.append(f"Carré et paire : {o['four_and_pair']} (Patch).")
        if o["two_triplets"]:
            lines.append(f"Deux brelans en un lancer : {o['two_triplets']} (Patch).")
        if o["nothing"]:
            lines.append(
                f"Six dés dont aucun ne marque : {o['nothing']} et on relance les six (playr)."
            )
        lines += [
            "Après un lancer qui marque, on met de côté au moins un dé qui marque — seulement des dés "
            "qui marquent — puis on relance les autres ou on marque le tour. Les dés mis de côté ne "
            "sont plus relancés (graine 004).",
            "Un lancer sans aucun dé qui marque est un zilch : les points du tour sont perdus et la main "
            "passe (graine 004).",
            "Dés brûlants : si les six dés ont marqué, on garde les points et on relance les six ; "
            "un zilch ensuite fait perdre tout le tour (graine 004)."
            + (
                " La relance est obligatoire (variante)."
                if o["hot_dice_compulsory"]
                else " On peut aussi marquer."
            ),
        ]
        if o["entry"]:
            lines.append(
                f"Pour marquer la première fois il faut au moins {o['entry']} points en un tour (graine 004 : 500)."
            )
        if o["minimum"]:
            lines.append(
                f"Ensuite il faut au moins {o['minimum']} points par tour pour marquer (graine 004 : 350)."
            )
        if o["zilch_penalty"]:
            lines.append(
                f"Trois zilchs de suite coûtent {o['zilch_penalty']} points ; un score peut devenir négatif "
                "(playr, Farkle des réseaux sociaux)."
            )
        if o["end"] == "last_turn":
            lines.append(
                f"Le premier à atteindre {o['target']} prévient les autres, qui jouent chacun un dernier "
                "tour ; le plus haut score gagne ; en cas d'égalité, les ex æquo rejouent chacun un tour "
                "jusqu'à ce que l'égalité soit rompue (graine 004, qui dit « un lancer » : nous le lisons "
                "comme un tour, ainsi que la plupart des règles de la famille)."
            )
        else:
            lines.append(
                f"Le premier à marquer {o['target']} points gagne aussitôt (Busche et Neller)."
            )
    else:
        lines += [
            "Six dice. On your turn you roll all six (seed 004).",
            f"Scoring within one roll: a 1 = 100, a 5 = 50, three 1s = {o['three_ones']}, three 2s = 200, "
            "three 3s = 300, three 4s = 400, three 5s = 500, three 6s = 600 (seed 004"
            + (", three 1s = 300 in boxed Farkle (Patch)" if o["three_ones"] != 1000 else "")
            + "). Combinations count only within a single roll.",
        ]
        if o["straight"]:
            lines.append(f"A straight 1-2-3-4-5-6 in one roll: {o['straight']} (seed 004: 1500).")
        lines.append(_kinds_line(lang, o["kinds"], o["three_ones"]))
        if o["three_pairs"]:
            lines.append(
                f"Three different pairs in one roll: {o['three_pairs']} (research/zilch.md)."
            )
        else:
            lines.append("Three pairs do not score (seed 004).")
        if o["four_and_pair"]:
            lines.append(f"Four of a kind with a pair: {o['four_and_pair']} (Patch).")
        if o["two_triplets"]:
            lines.append(f"Two triples in one roll: {o['two_triplets']} (Patch).")
        if o["nothing"]:
            lines.append(
                f"Six dice of which none scores: {o['nothing']}, and all six are rolled again (playr)."
            )
        lines += [
            "After a scoring roll you set aside at least one scoring die — only scoring dice — then roll "
            "the others or bank the turn. Dice set aside are not rolled again (seed 004).",
            "A roll with no scoring die is a zilch: the turn's points are lost and the dice pass on (seed 004).",
            "Hot dice: when all six dice have scored you keep the points and roll all six again; a zilch "
            "then loses the whole turn (seed 004)."
            + (
                " Rolling again is compulsory (variant)."
                if o["hot_dice_compulsory"]
                else " You may also bank."
            ),
        ]
        if o["entry"]:
            lines.append(
                f"Your first bank needs at least {o['entry']} points in one turn (seed 004: 500)."
            )
        if o["minimum"]:
            lines.append(
                f"After that, each bank needs at least {o['minimum']} points in the turn (seed 004: 350)."
            )
        if o["zilch_penalty"]:
            lines.append(
                f"Three zilches in a row cost {o['zilch_penalty']} points; a score may go below zero "
                "(playr, social-network Farkle)."
            )
        if o["end"] == "last_turn":
            lines.append(
                f"The first player to reach {o['target']} warns the others, who each take one last turn; "
                "the highest score wins; tied players each take another turn until the tie breaks "
                '(seed 004, which says "one more roll": read as one turn, as in most rule sets of the family).'
            )
        else:
            lines.append(f"The first player to bank {o['target']} wins at once (Busche & Neller).")
    return "\n".join(lines)
