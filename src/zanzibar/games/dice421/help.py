"""Help and rules texts of 421, in English and French, each rule with its source.

``rules_text(lang, options)`` describes the rules *in force*: it follows the
options of the table, so a bar table reads the bar rules. Sources: seeds
000/001 (the Salon's rules, English and French), seed 002 (bar rules), the
research notes on 421 (regional orders, French Wikipedia "421 (jeu)").

>>> "[seed 002]" in rules_text("en", {"ties": "rampo"})
True
>>> "Maj+1-6" in help_text("fr")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.dice421.options import OPTIONS, Config

_HELP = {
    "en": """421 keys (seed 000), in a terminal or on the web table:
  1-6: select die 1, 2 or 3 for the next reroll (dice are counted highest first)
  Shift+1-6: unselect a die
  Space: say which dice are selected and which are kept
  D: repeat the last roll
  S: say every player's tokens
  T: say whose turn it is
  R or Enter: roll (the selected dice; all three if none is selected)
  K: keep your throw and stop rolling
  I: the state of play (phase, pot, roll limit, rolls used, dice)
  F1 or ?: this help; Ctrl+F1: the rules in force
Typed commands (when input is not a terminal, one per line):
  roll [1 2 3]   roll the dice named (all three without numbers)
  stop           keep your throw
  select N / unselect N / selection / dice / scores / turn / status / help / rules / quit""",
    "fr": """Touches du 421 (graine 001), au terminal ou sur la table web :
  1-6 : sélectionner le dé 1, 2 ou 3 à relancer (les dés sont comptés du plus fort au plus faible)
  Maj+1-6 : désélectionner un dé
  Espace : répéter les dés sélectionnés et gardés
  D : répéter le dernier jet
  S : annoncer les jetons de chacun
  T : annoncer à qui est le tour
  R ou Entrée : lancer (les dés sélectionnés ; les trois si aucun)
  K : garder son jet et s'arrêter
  I : l'état de la partie (phase, pot, limite de lancers, lancers faits, dés)
  F1 ou ? : cette aide ; Ctrl+F1 : les règles en vigueur
Commandes tapées (quand l'entrée n'est pas un terminal, une par ligne) :
  roll [1 2 3]   lancer les dés nommés (les trois sans numéro)
  stop           garder son jet
  select N / unselect N / selection / dice / scores / turn / status / help / rules / quit""",
}


def help_text(lang: str) -> str:
    """Keys and typed commands."""
    return _HELP.get(lang) or _HELP["en"]


def _order_line(config: Config, fr: bool) -> str:
    if config.fiche_order == "salon":
        return (
            "À valeur égale le brelan bat la fiche, mais une fiche bat un brelan plus petit : "
            "666 > 611 > 555 > 511 > ... > 222 > 211. [graines 000/001]"
            if fr
            else "At equal value the baraque beats the fiche, but a fiche beats a lower baraque: "
            "666 > 611 > 555 > 511 > ... > 222 > 211. [seeds 000/001]"
        )
    if config.fiche_order == "fiche_first":
        return (
            "À valeur égale la fiche bat le brelan : 611 > 666 > 511 > 555 > ... "
            "[Wikipédia « 421 (jeu) »]"
            if fr
            else "At equal value the fiche beats the baraque: 611 > 666 > 511 > 555 > ... "
            "[French Wikipedia '421 (jeu)']"
        )
    return (
        "Toutes les fiches avant tous les brelans : 611 > 511 > ... > 211 > 666 > ... > 222. "
        "[variante régionale, notes de recherche]"
        if fr
        else "Every fiche above every baraque: 611 > 511 > ... > 211 > 666 > ... > 222. "
        "[regional variant, research notes]"
    )


def _rules_en(c: Config) -> list[str]:
    lines = [
        "421 / Zanzibar, three dice. The goal is to get rid of your tokens; the last player "
        "holding tokens loses. [seed 000]",
        f"Tokens: {c.tokens} in the pot. [seed 000: 21 usual, any number; seed 002: 21]",
        "Two phases: in the charge the turn losers take tokens from the pot; when the pot is "
        "empty the décharge begins, where the turn winner gives tokens to the turn loser. "
        "[seed 000]",
        f"Each player in turn rolls at most {c.max_rolls} times, rerolling one, two or three "
        "dice, and may stop earlier; nobody may roll more times than the player before in the "
        "turn, so an early stop binds everyone after. [seed 000]",
    ]
    if c.zero_after_charge == "out":
        lines.append(
            "Players with no tokens at the end of the charge are out: they won. [seed 000]"
        )
    else:
        lines.append(
            "Players with no tokens at the end of the charge are no winners yet: they play the "
            "décharge and can be given tokens; a player goes out, safe, on winning a turn with "
            "no tokens left. [seed 002]"
        )
    if c.dry_charge:
        lines.append(
            "Dry charge: one roll each per turn during the charge. [seed 000 variant; seed 002]"
        )
    else:
        lines.append("Rerolls are allowed in the charge too. [seed 000, the default]")
    nenette = "4" if c.nenette == "value4" else "2, as a penalty (see below)"
    lines += [
        "Combinations, strongest first [seed 000]: 421 (10 tokens); three aces (7); "
        "baraques x-x-x and fiches 1-1-x, worth x; straights 654 > 543 > 432 > 321 (2); "
        "every other throw (1), by highest die, then second, then third (621 beats 554); "
        f"the nénette 2-2-1 is the weakest of all and worth {nenette}.",
        _order_line(c, False),
    ]
    if c.ties == "later_wins":
        lines.append(
            "Exactly equal throws: the later player's is stronger (a new 421 beats an older "
            "421). [seed 000]"
        )
    else:
        lines.append(
            "Exactly equal throws deciding the loser (or the giver in the décharge): rampo, "
            "the tied players roll once each, the last one to have played first, until one "
            "is lower (higher); but a new nénette beats an older one. [seed 002]"
        )
    if c.fewer_rolls_win:
        lines.append(
            "At equal combination, the one made in fewer rolls wins. [seed 002: rampo only "
            "with the same number of rolls]"
        )
    if c.token_amount == "strongest":
        lines.append(
            "The turn loser takes as many tokens as the strongest throw of the turn is worth. "
            "[seed 000]"
        )
    else:
        lines.append(
            "In the charge the turn loser takes the value of its own throw; in the décharge "
            "the best player gives the value of its throw. [seed 002]"
        )
    if c.nenette == "penalty2":
        lines.append(
            "Nénette: the player who loses with it takes 2 more tokens, added to the best "
            "value in the décharge (best 6 + nénette = 8). [seed 002]"
        )
    lines += [
        "Nobody takes more than exists: the pot caps the charge, the giver's tokens cap the "
        "décharge. [seed 000] The loser of a turn starts the next. [seed 000]",
    ]
    if c.first_player == "lowest_throw":
        lines.append(
            "Who starts: everyone rolls once, the lowest throw starts (ties roll again). [seed 002]"
        )
    else:
        lines.append("Who starts: the first seat. [seed 000 does not say; our choice]")
    if c.rounds_to_lose > 1:
        lines.append(
            f"Rounds: the player left with every token loses the round and a new charge "
            f"starts, begun by that player; the first to lose {c.rounds_to_lose} rounds loses "
            "the game. [seed 002]"
        )
    else:
        lines.append("One round: the player left with every token loses the game. [seed 000]")
    return lines


def _rules_fr(c: Config) -> list[str]:
    lines = [
        "421 / Zanzibar, trois dés. Le but est de se débarrasser de ses jetons ; le dernier "
        "à en avoir perd. [graine 001]",
        f"Jetons : {c.tokens} au pot. [graine 001 : 21 le plus souvent ; graine 002 : 21]",
        "Deux phases : à la charge, les perdants de tour prennent des jetons au pot ; quand "
        "le pot est vide vient la décharge, où le gagnant du tour donne des jetons au perdant. "
        "[graine 001]",
        f"Chacun à son tour lance au plus {c.max_rolls} fois, en relançant un, deux ou trois "
        "dés, et peut s'arrêter avant ; personne ne lance plus de fois que le joueur précédent "
        "dans le tour. [graine 001]",
    ]
    if c.zero_after_charge == "out":
        lines.append("Qui n'a plus de jetons à la fin de la charge sort : il a gagné. [graine 001]")
    else:
        lines.append(
            "Qui n'a pas de jeton à la fin de la charge n'a pas encore gagné : il joue la "
            "décharge et peut en recevoir ; on sort, gagnant, en remportant un tour sans jeton. "
            "[graine 002]"
        )
    if c.dry_charge:
        lines.append(
            "Charge sèche : un seul lancer chacun par tour pendant la charge. "
            "[variante graine 001 ; graine 002]"
        )
    else:
        lines.append("On peut relancer pendant la charge aussi. [graine 001, par défaut]")
    nenette = "4" if c.nenette == "value4" else "2, en pénalité (voir plus bas)"
    lines += [
        "Combinaisons, de la plus forte à la plus faible [graine 001] : 421 (10 jetons) ; "
        "brelan d'as (7) ; brelans x-x-x et fiches 1-1-x, valant x ; suites 654 > 543 > 432 > "
        "321 (2) ; toute autre combinaison (1), par le plus grand dé, puis le second, puis le "
        f"troisième (621 bat 554) ; la nénette 2-2-1 est la plus faible et vaut {nenette}.",
        _order_line(c, True),
    ]
    if c.ties == "later_wins":
        lines.append(
            "À combinaison strictement égale, celle du dernier joueur l'emporte (un nouveau "
            "421 bat un autre 421). [graine 001]"
        )
    else:
        lines.append(
            "À combinaison strictement égale pour la perte (ou pour donner, à la décharge) : "
            "rampo, les joueurs à égalité relancent une fois chacun, à commencer par le dernier "
            "à avoir joué ; mais une nouvelle nénette bat la précédente. [graine 002]"
        )
    if c.fewer_rolls_win:
        lines.append(
            "À combinaison égale, celle faite en moins de coups l'emporte. [graine 002 : rampo "
            "seulement avec le même nombre de coups]"
        )
    if c.token_amount == "strongest":
        lines.append(
            "Le perdant du tour prend autant de jetons que vaut la meilleure combinaison du "
            "tour. [graine 001]"
        )
    else:
        lines.append(
            "À la charge, le perdant prend la valeur de sa propre combinaison ; à la décharge, "
            "le meilleur donne la valeur de la sienne. [graine 002]"
        )
    if c.nenette == "penalty2":
        lines.append(
            "Nénette : qui perd avec elle prend 2 jetons de plus, ajoutés à la meilleure "
            "valeur à la décharge (brelan de 6 + nénette = 8). [graine 002]"
        )
    lines += [
        "On ne prend pas plus de jetons qu'il n'y en a : le pot limite la charge, les jetons "
        "du donneur limitent la décharge. Le perdant d'un tour commence le suivant. [graine 001]",
    ]
    if c.first_player == "lowest_throw":
        lines.append(
            "Qui commence : chacun lance une fois, le plus petit lancer commence (on relance "
            "en cas d'égalité). [graine 002]"
        )
    else:
        lines.append("Qui commence : le premier siège. [graine 001 : non précisé ; notre choix]")
    if c.rounds_to_lose > 1:
        lines.append(
            f"Manches : qui garde tous les jetons perd la manche, et une nouvelle charge "
            f"commence, par lui ; le premier à perdre {c.rounds_to_lose} manches perd la "
            "partie. [graine 002]"
        )
    else:
        lines.append("Une seule manche : qui garde tous les jetons perd la partie. [graine 001]")
    return lines


def rules_text(lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force with these options, one rule per line, each with its source."""
    config = Config.from_options(options)
    preset = OPTIONS.matching_preset(config.to_options())
    fr = lang == "fr"
    if preset:
        head = f"Règles « {preset} »." if fr else f"Rules: preset '{preset}'."
    else:
        head = "Règles personnalisées." if fr else "Custom rules."
    lines = _rules_fr(config) if fr else _rules_en(config)
    return "\n".join([head, *(f"- {line}" for line in lines)])
