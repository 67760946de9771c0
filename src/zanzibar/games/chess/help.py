"""Help and rules texts of the chess games, English and French, with sources.

The Zanzibar-S rules come from the research notes (the author's pages and
H. G. Muller's diagram); where the seed text differs, the option that
follows the seed says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.chess.variant import Variant

HELP: dict[str, str] = {
    "en": """\
Chess keys and commands
- Type a move in coordinates (f2h4, e11e12q: from-square, to-square, promotion
  letter) or in algebraic notation (Zxe4, exd5, e12=G, O-O). Capital letters are
  pieces, small letters are files.
- board: read the board rank by rank, from your side; square e4: what is on e4.
- turn, status (check, last move, draw offers), scores (material), moves (your
  legal moves), history (the moves so far).
- setup N or setup KQGL UF: in Zanzibar-S, Black chooses one of the 48
  arrangements (King, Queen, Eagle, Lion on f12 g12 f11 g11 in the order given,
  then Rhinoceros and Buffalo on e12 h12); White copies it.
- resign; draw (offer a draw, or accept the one offered to you).
Every move is announced as a sentence: "White Giraffe from c1 to e4, takes the Camel."
""",
    "fr": """\
Touches et commandes des échecs
- Tapez un coup en coordonnées (f2h4, e11e12q : case de départ, case d'arrivée,
  lettre de promotion) ou en notation algébrique (Zxe4, exd5, e12=G, O-O). Les
  majuscules sont les pièces, les minuscules les colonnes.
- board : lire l'échiquier rangée par rangée, de votre côté ; square e4 : ce qui
  se trouve en e4.
- turn, status (échec, dernier coup, proposition de nulle), scores (matériel),
  moves (vos coups légaux), history (les coups joués).
- setup N ou setup KQGL UF : au Zanzibar-S, les Noirs choisissent l'une des 48
  dispositions (Roi, Dame, Aigle, Lion en f12 g12 f11 g11 dans l'ordre donné,
  puis Rhinocéros et Buffle en e12 h12) ; les Blancs la copient.
- resign (abandonner) ; draw (proposer la nulle, ou accepter celle qu'on vous propose).
Chaque coup est annoncé par une phrase : « Girafe blanche de c1 à e4, prend le Chameau. »
""",
}

ZANZIBAR_S_RULES: dict[str, str] = {
    "en": """\
Zanzibar-S (Jean-Louis Cazaux)
Board 12x12, files a to l, ranks 1 to 12. Each side has 36 pieces: King, Queen, Eagle,
Lion, Rhinoceros, Buffalo, and two each of Prince, Bishop, Knight, Camel, Rook, Cannon,
Elephant, Giraffe, Crocodile and Machine, plus 10 Pawns. The goal is to checkmate the
opposing King.

Setup: Black places King, Queen, Eagle and Lion on f12, g12, f11, g11 in any order,
and Rhinoceros and Buffalo on e12 and h12 (48 arrangements; 24 up to mirror symmetry).
White copies the arrangement file for file (Black King on f12 means White King on f1).
Then White moves first.

Moves (Betza notation from H. G. Muller's diagram):
- King (K): one step in any direction; no castling. On its first move only, a King
  that is not in check may instead jump to an empty square two squares away
  (straight, diagonal or like a Knight). It never captures with the jump. The square
  jumped over may be occupied but must not be attacked; for a knight-wise jump, at
  least one of the two in-between squares must be unattacked; the target must not be
  attacked either. From f2 the jumps are d1 d2 d3 d4 e4 f4 g4 h4 h3 h2 h1.
  A King checked earlier keeps its jump (only being in check forbids it), as the
  inventor, Jean-Louis Cazaux, wrote (Metamachy page comments, 2019) and the Game
  Courier preset plays.
- Queen (Q), Rook (R), Bishop (B), Knight (N): as in chess.
- Eagle (G, FyafsF): one diagonal step, then may continue outward along either
  orthogonal; it never jumps and may stop or capture on the first square.
- Rhinoceros (U, WyafsW): one orthogonal step, then may continue outward along either
  diagonal; it never jumps.
- Lion (L, KNAD): leaps to any of the 24 squares within two King steps.
- Buffalo (F, NCZ): leaps like a Knight (1,2), a Camel (1,3) or a Giraffe (2,3).
- Giraffe (Z): (2,3) leaper. Camel (M, C): (1,3) leaper.
- Elephant (E, FA): one diagonal step, or a jump to the second diagonal square.
- Machine (W, WD): one orthogonal step, or a jump to the second orthogonal square.
- Cannon (C, mRcpR): moves like a Rook without capturing; captures by jumping exactly
  one piece (of either side) along a rank or file.
- Crocodile (V, mBcpB): the same along diagonals.
- Prince (I, KfmnnD): a King that is not royal (check does not concern it), plus a
  non-capturing double step straight forward from any rank over an empty square.
- Pawn (P, fmWfceFfmnnD): one step forward, captures one step diagonally forward,
  plus a non-capturing double step from any rank over an empty square.
En passant: after any double step of a Pawn or a Prince, an enemy Pawn that attacks
the square passed over may capture en passant on the very next move. Princes never
capture en passant. (A double step that ends in promotion leaves nothing to take.)
Promotion: a Pawn or Prince reaching the last rank must promote to Queen, Eagle, Lion,
Rhinoceros or Buffalo. No other piece promotes{seed_promotions}.
End: checkmate wins; stalemate is a draw; a bare King is not a loss.{repetition}{move_rule}
These last two rules are not written for Zanzibar-S; they are inherited from orthodox
chess and are table options.

Sources: chessvariants.com rules page "zanzibar-s"; history.chess.free.fr/zanzibar.htm
(the author's site); H. G. Muller's interactive diagram
(history.chess.free.fr/mcmtc/appendix/zanzibars.html); FIDE Laws of Chess for
repetition and the 50-move rule.
""",
    "fr": """\
Zanzibar-S (Jean-Louis Cazaux)
Échiquier de 12x12, colonnes a à l, rangées 1 à 12. Chaque camp a 36 pièces : Roi,
Dame, Aigle, Lion, Rhinocéros, Buffle, et deux de chaque : Prince, Fou, Cavalier,
Chameau, Tour, Canon, Éléphant, Girafe, Crocodile et Machine, plus 10 Pions. Le but est
de mater le Roi adverse.

Mise en place : les Noirs placent Roi, Dame, Aigle et Lion en f12, g12, f11, g11 dans
l'ordre de leur choix, puis Rhinocéros et Buffle en e12 et h12 (48 dispositions, 24 à
la symétrie près). Les Blancs copient la disposition colonne par colonne (Roi noir en
f12, Roi blanc en f1). Puis les Blancs jouent le premier coup.

Marches (notation de Betza, d'après le diagramme de H. G. Muller) :
- Roi (K) : un pas dans toutes les directions ; pas de roque. À son premier coup
  seulement, un Roi qui n'est pas en échec peut sauter sur une case vide à deux cases
  de distance (en ligne, en diagonale ou comme un Cavalier). Il ne prend jamais par ce
  saut. La case sautée peut être occupée mais ne doit pas être attaquée ; pour un saut
  de Cavalier, au moins une des deux cases intermédiaires doit être libre d'attaque ; la
  case d'arrivée ne doit pas être attaquée. De f2, les sauts vont en d1 d2 d3 d4 e4 f4
  g4 h4 h3 h2 h1. Un Roi déjà mis en échec garde son saut (seul l'échec en cours
  l'interdit), comme l'a écrit l'inventeur, Jean-Louis Cazaux (commentaires de la page
  Metamachy, 2019), et comme le joue le preset Game Courier.
- Dame (Q), Tour (R), Fou (B), Cavalier (N) : comme aux échecs.
- Aigle (G, FyafsF) : un pas en diagonale, puis peut continuer en s'éloignant le long
  d'une des deux orthogonales ; il ne saute jamais et peut s'arrêter ou prendre sur la
  première case.
- Rhinocéros (U, WyafsW) : un pas orthogonal, puis peut continuer en s'éloignant le
  long d'une des deux diagonales ; il ne saute jamais.
- Lion (L, KNAD) : saute sur l'une des 24 cases à au plus deux pas de Roi.
- Buffle (F, NCZ) : saute comme un Cavalier (1,2), un Chameau (1,3) ou une Girafe (2,3).
- Girafe (Z) : sauteur (2,3). Chameau (M, C) : sauteur (1,3).
- Éléphant (E, FA) : un pas en diagonale, ou un saut sur la deuxième case diagonale.
- Machine (W, WD) : un pas orthogonal, ou un saut sur la deuxième case orthogonale.
- Canon (C, mRcpR) : se déplace comme une Tour sans prendre ; prend en sautant
  exactement une pièce (de l'un ou l'autre camp) le long d'une rangée ou d'une colonne.
- Crocodile (V, mBcpB) : la même chose en diagonale.
- Prince (I, KfmnnD) : un Roi non royal (l'échec ne le concerne pas), plus un pas
  double droit devant, sans prendre, depuis n'importe quelle rangée, par-dessus une
  case vide.
- Pion (P, fmWfceFfmnnD) : un pas en avant, prend d'un pas en diagonale avant, plus un
  pas double sans prendre depuis n'importe quelle rangée, par-dessus une case vide.
Prise en passant : après tout pas double d'un Pion ou d'un Prince, un Pion adverse qui
attaque la case franchie peut le prendre en passant au coup suivant seulement. Les
Princes ne prennent jamais en passant. (Un pas double qui finit en promotion ne laisse
rien à prendre.)
Promotion : un Pion ou un Prince qui atteint la dernière rangée doit se promouvoir en
Dame, Aigle, Lion, Rhinocéros ou Buffle. Aucune autre pièce ne se promeut{seed_promotions}.
Fin : le mat gagne ; le pat est nul ; un Roi dépouillé ne perd pas.{repetition}{move_rule}
Ces deux dernières règles ne sont pas écrites pour le Zanzibar-S ; elles viennent des
échecs orthodoxes et sont des options de table.

Sources : chessvariants.com, page de règles « zanzibar-s » ; history.chess.free.fr/zanzibar.htm
(site de l'auteur) ; diagramme interactif de H. G. Muller
(history.chess.free.fr/mcmtc/appendix/zanzibars.html) ; Règles du jeu d'échecs de la
FIDE pour la répétition et la règle des 50 coups.
""",
}

_SEED_PROMOTIONS = {
    "en": (
        " (table option 'seed_promotions', from the seed text: a Knight or Camel reaching"
        " the last rank becomes a Buffalo, an Elephant or Machine becomes a Lion; these"
        " promotions come from the author's larger game Gigachess)"
    ),
    "fr": (
        " (option de table « seed_promotions », d'après le texte d'origine : un Cavalier ou"
        " un Chameau qui atteint la dernière rangée devient Buffle, un Éléphant ou une"
        " Machine devient Lion ; ces promotions viennent du grand jeu Gigachess du même auteur)"
    ),
}


def _end_rules(options: Mapping[str, Any], lang: str) -> tuple[str, str]:
    reps = int(options.get("repetition", 3))
    rule = int(options.get("move_rule", 50))
    fr = lang == "fr"
    if reps:
        repetition = (
            f" La même position répétée {reps} fois (même camp au trait) est nulle."
            if fr
            else f" The same position occurring {reps} times (same side to move) is a draw."
        )
    else:
        repetition = " Pas de nulle par répétition." if fr else " No draw by repetition."
    if rule:
        move_rule = (
            f" {rule} coups de chaque camp sans prise ni coup de Pion ou de Prince : nulle."
            if fr
            else f" {rule} moves by each side without a capture or a Pawn or Prince move: draw."
        )
    else:
        move_rule = " Pas de règle des 50 coups." if fr else " No move-count rule."
    return repetition, move_rule


#: The bot levels and their measured strength (bench/strength.py; README's bot section).
BOT_LEVELS = {
    "en": (
        "Bots: the levels differ by how far they look. easy: two half-moves ahead plus "
        "captures; casual: three; medium: 1 second a move; hard: 4 seconds a move. Measured in orthodox "
        "chess against Stockfish limited in strength (small samples, 95 % intervals): "
        "{elo_en}. In Zanzibar-S each level beat the one below it: {ladder_en}."
    ),
    "fr": (
        "Robots : les niveaux diffèrent par la profondeur de calcul. easy : deux demi-coups "
        "plus les prises ; casual : trois ; medium : 1 seconde par coup ; hard : 4 secondes par coup. "
        "Mesurés aux échecs orthodoxes contre Stockfish bridé (petits échantillons, "
        "intervalles à 95 %) : {elo_fr}. En Zanzibar-S chaque niveau a battu le précédent : "
        "{ladder_fr}."
    ),
}
#: Elo estimates by level with their 95 % interval (orthodox chess, against Stockfish 15.1).
LEVEL_STRENGTH = {
    "easy": (1629, 1356, 1903),
    "casual": (1689, 1398, 1979),
    "medium": (1679, 1480, 1877),
    "hard": (1827, 1636, 2019),
}
#: Zanzibar-S self-play: (stronger, weaker, points, games).
LADDER = [("casual", "easy", 5.5, 6), ("medium", "casual", 7.5, 10), ("hard", "medium", 8, 10)]


def bot_levels_text(lang: str) -> str:
    """The paragraph on the bot levels and their measured strength."""
    fr = lang == "fr"
    elo = (" ; " if fr else "; ").join(
        f"{name} {est} ({low}–{high})" for name, (est, low, high) in LEVEL_STRENGTH.items()
    )
    sep = " sur " if fr else "/"
    ladder = ", ".join(
        f"{strong} – {weak} {str(points).replace('.', ',') if fr else points}{sep}{games}"
        for strong, weak, points, games in LADDER
    )
    template = BOT_LEVELS["fr" if fr else "en"]
    return template.format(elo_en=elo, elo_fr=elo, ladder_en=ladder, ladder_fr=ladder)


def rules_text(variant: Variant, lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force for ``variant`` with these table options, then the bot levels."""
    return _rules_only(variant, lang, options) + "\n" + bot_levels_text(lang) + "\n"


def _rules_only(variant: Variant, lang: str, options: Mapping[str, Any]) -> str:
    lang = lang if lang in ("en", "fr") else "en"
    repetition, move_rule = _end_rules(options, lang)
    if variant.name == "zanzibar-s":
        seed = _SEED_PROMOTIONS[lang] if options.get("seed_promotions") else ""
        if not seed:
            seed = (
                " (the seed text's extra promotions are the off-by-default option 'seed_promotions')"
                if lang == "en"
                else " (les promotions supplémentaires du texte d'origine sont l'option 'seed_promotions', désactivée par défaut)"
            )
        return ZANZIBAR_S_RULES[lang].format(
            seed_promotions=seed, repetition=repetition, move_rule=move_rule
        )
    return generic_rules(variant, lang, repetition, move_rule)


def generic_rules(variant: Variant, lang: str, repetition: str, move_rule: str) -> str:
    """Rules of a data-defined variant, written from its definition."""
    fr = lang == "fr"
    lines = [variant.title.get(lang, variant.name)]
    lines.append(
        f"Échiquier de {variant.files}x{variant.ranks}. Pièces (notation de Betza) :"
        if fr
        else f"Board {variant.files}x{variant.ranks}. Pieces (Betza notation):"
    )
    for piece in variant.pieces:
        name = piece.name.get(lang, piece.name["en"])
        extra = []
        if piece.royal:
            extra.append("royal")
        if piece.promotion:
            choices = ", ".join(
                variant.piece_by_letter(c).name.get(lang, c) for c in piece.promotion.choices
            )
            extra.append(("se promeut en " if fr else "promotes to ") + choices)
        if piece.en_passant_capturable:
            extra.append("peut être pris en passant" if fr else "may be taken en passant")
        suffix = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"- {name} ({piece.letter}): {piece.betza}{suffix}")
    if variant.king_jump:
        lines.append(
            "Le Roi peut sauter à deux cases à son premier coup, hors échec, sans traverser de case attaquée."
            if fr
            else "The King may jump two squares on its first move, when not in check, over an unattacked square."
        )
    if any(variant.castling):
        lines.append("Le roque est permis." if fr else "Castling is allowed.")
    stalemate = {
        "draw": ("Le pat est nul.", "Stalemate is a draw."),
        "win": ("Le camp pat gagne.", "The stalemated side wins."),
        "loss": ("Le camp pat perd.", "The stalemated side loses."),
    }[variant.stalemate]
    lines.append((stalemate[0] if fr else stalemate[1]) + repetition + move_rule)
    if variant.sources:
        lines.append(("Sources : " if fr else "Sources: ") + "; ".join(variant.sources))
    return "\n".join(lines) + "\n"
