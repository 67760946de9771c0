# Aide (touches et commandes tapées) et règles de chaque jeu, une phrase courte par ligne.
# Les joueurs entendent les règles, jamais nos sources : elles sont dans docs/rules-*.md.

## 421 / Zanzibar

help-dice421-keys =
    Touches du 421, au terminal ou sur la table web :
    1 à 6 : sélectionner le dé 1, 2 ou 3 à relancer. Les dés sont comptés du plus fort au plus faible.
    Maj+1 à 6 : désélectionner un dé.
    Espace : dire les dés sélectionnés et les dés gardés.
    D : répéter le dernier jet.
    S : les jetons de chacun. T : à qui est le tour.
    R ou Entrée : lancer les dés sélectionnés, ou les trois si aucun n'est sélectionné.
    K : garder son jet et s'arrêter.
    I : l'état de la partie : phase, pot, limite de lancers, lancers faits, dés.
    F1 ou point d'interrogation : cette aide. Ctrl+F1 : les règles en vigueur.
    Commandes tapées, une par ligne : « roll 1 2 » relance les dés nommés, « roll » les trois ; « stop » garde votre jet.
    Aussi « select N », « unselect N », « selection », « dice », « scores », « turn », « status », « help », « rules », « quit ».
help-dice421-head = { $preset ->
    [custom] Règles personnalisées.
   *[other] Règles « { $preset } ».
}
help-dice421-goal = Le 421 se joue avec trois dés. Le but est de se débarrasser de ses jetons. Le dernier à en avoir perd.
help-dice421-tokens = { $tokens } jetons au pot au départ.
help-dice421-phases = La partie a deux phases. À la charge, les perdants de tour prennent des jetons au pot. Quand le pot est vide vient la décharge : le gagnant du tour donne des jetons au perdant.
help-dice421-rolls = Chacun à son tour lance au plus { $rolls } fois, en relançant un, deux ou trois dés, et peut s'arrêter avant. Personne ne lance plus de fois que le joueur précédent dans le tour.
help-dice421-out = Qui n'a plus de jetons à la fin de la charge sort : il a gagné.
help-dice421-stay = Qui n'a plus de jetons à la fin de la charge joue aussi la décharge et peut en recevoir. On sort, gagnant, en remportant un tour sans jeton.
help-dice421-dry = Charge sèche : un seul lancer chacun par tour pendant la charge.
help-dice421-rerolls = On peut relancer pendant la charge aussi.
help-dice421-combos = Combinaisons, de la plus forte à la plus faible : le 421 vaut 10 jetons. Le brelan d'as vaut 7. Les brelans x-x-x et les fiches 1-1-x valent x. Les suites 654, 543, 432 et 321 valent 2.
help-dice421-others = Toute autre combinaison vaut 1 et se compare par le plus grand dé, puis le second, puis le troisième : 621 bat 554. La nénette 2-2-1 est la plus faible et vaut { $nenette ->
    [value4] 4.
   *[penalty2] 2, plus une pénalité (voir plus bas).
}
help-dice421-order-salon = À valeur égale le brelan bat la fiche, mais une fiche bat un brelan plus petit : 666, 611, 555, 511, et ainsi de suite jusqu'à 222, 211.
help-dice421-order-fiche-first = À valeur égale la fiche bat le brelan : 611, 666, 511, 555, et ainsi de suite.
help-dice421-order-fiches-above = Toutes les fiches passent avant tous les brelans : 611, 511, jusqu'à 211, puis 666 jusqu'à 222.
help-dice421-later-wins = À combinaison strictement égale, celle du dernier joueur l'emporte. Un nouveau 421 bat un autre 421.
help-dice421-rampo = À combinaison strictement égale pour la perte, ou pour donner à la décharge, on joue le rampo. Les joueurs à égalité relancent une fois chacun, à commencer par le dernier à avoir joué. Une nouvelle nénette bat toujours la précédente.
help-dice421-fewer-rolls = À combinaison égale, celle faite en moins de lancers l'emporte.
help-dice421-strongest = Le perdant du tour prend autant de jetons que vaut la meilleure combinaison du tour.
help-dice421-own = À la charge, le perdant prend la valeur de sa propre combinaison. À la décharge, le meilleur donne la valeur de la sienne.
help-dice421-penalty = Nénette : qui perd avec elle prend 2 jetons de plus, ajoutés à la meilleure valeur à la décharge. Brelan de 6 plus nénette font 8.
help-dice421-caps = On ne prend pas plus de jetons qu'il n'y en a : le pot limite la charge, les jetons du donneur limitent la décharge. Le perdant d'un tour commence le suivant.
help-dice421-starts-lowest = Qui commence : chacun lance une fois, et le plus petit lancer commence. On relance en cas d'égalité.
help-dice421-starts-seat = Qui commence : le premier siège.
help-dice421-rounds = { $rounds ->
    [1] Une seule manche : qui garde tous les jetons perd la partie.
   *[other] Qui garde tous les jetons perd la manche et commence une nouvelle charge. Le premier à perdre { $rounds } { $rounds ->
        [one] manche
       *[other] manches
    } perd la partie.
}

help-dice421-places = Dans une partie classée, chaque joueur reçoit une place. Le moins de manches perdues passe devant. Puis, dans la dernière manche, le premier sorti. Ceux sortis sur le même jet partagent une place ; ceux jamais sortis viennent ensuite. Le perdant est dernier. Un joueur qui quitte une partie classée avant la fin la perd.

## Zilch 5000

help-zilch-keys =
    Touches du Zilch, au terminal ou sur la table web :
    1 à 6 : choisir ce dé du lancer à mettre de côté. Maj+1 à 6 : le retirer du choix.
    A : choisir tous les dés qui marquent, pour le meilleur score du lancer.
    Espace : dire le choix et ce qu'il rapporte.
    R ou Entrée : mettre de côté les dés choisis et relancer les autres. Commence aussi votre tour.
    B : mettre de côté les dés choisis et marquer le tour.
    D : répéter le dernier lancer. S : les scores. T : le tour en cours. I : l'état de la partie.
    F1 ou point d'interrogation : cette aide. Ctrl+F1 ou barre oblique : les règles en vigueur. Q : quitter.
    Commandes tapées, une par ligne : « roll 1 4 », « bank 1 4 », « keep 1 4 », « sel », « dice », « scores », « turn », « status », « help », « rules », « quit ».
    Les dés sont numérotés de 1 à 6 dans l'ordre du lancer.
help-zilch-head = { $preset ->
    [custom] Zilch 5000, règles personnalisées.
   *[other] Zilch 5000, règles « { $preset } ».
}
help-zilch-dice = Six dés. À son tour on lance les six dés.
help-zilch-scoring = Points d'un lancer : un 1 vaut 100, un 5 vaut 50. Trois 1 valent { $three_ones }. Trois 2 valent 200, trois 3 300, trois 4 400, trois 5 500, trois 6 600. Les combinaisons ne comptent qu'à l'intérieur d'un même lancer.
help-zilch-straight = Une suite 1-2-3-4-5-6 en un lancer vaut { $points }.
help-zilch-kinds = { $kinds ->
    [doubling] Chaque dé pareil au-delà de trois double le brelan : quatre 2 font 400, cinq 2 800, six 2 1 600.
    [fixed] Un carré vaut 1 000, cinq dés pareils 2 000, six dés pareils 3 000.
   *[seed] Quatre ou cinq dés pareils : seul le brelan compte. Les 1 et les 5 en plus comptent comme des 1 et des 5 seuls : quatre 1 font 1 100. Les autres dés en plus ne marquent pas et ne peuvent pas être mis de côté. Six dés pareils font deux brelans.
}
help-zilch-three-pairs = Trois paires différentes en un lancer valent { $points }.
help-zilch-no-three-pairs = Trois paires ne marquent pas.
help-zilch-four-and-pair = Un carré et une paire valent { $points }.
help-zilch-two-triplets = Deux brelans en un lancer valent { $points }.
help-zilch-nothing = Six dés dont aucun ne marque valent { $points }, et on relance les six.
help-zilch-set-aside = Après un lancer qui marque, on met de côté au moins un dé qui marque, et seulement des dés qui marquent. Puis on relance les autres ou on marque le tour. Les dés mis de côté ne sont plus relancés.
help-zilch-zilch = Un lancer sans aucun dé qui marque est un zilch : les points du tour sont perdus et la main passe.
help-zilch-hot-dice = Dés brûlants : si les six dés ont marqué, on garde les points et on relance les six. Un zilch ensuite fait perdre tout le tour. { $compulsory ->
    [1] La relance est obligatoire.
   *[0] On peut aussi marquer.
}
help-zilch-entry = Pour marquer la première fois, il faut au moins { $points } points en un tour.
help-zilch-minimum = Ensuite, il faut au moins { $points } points par tour pour marquer.
help-zilch-penalty = Trois zilchs de suite coûtent { $points } points. Un score peut devenir négatif.
help-zilch-last-turn = Le premier à atteindre { $target } prévient les autres, qui jouent chacun un dernier tour. Le plus haut score gagne. En cas d'égalité, les ex æquo rejouent chacun un tour jusqu'à ce que l'égalité soit rompue.
help-zilch-immediate = Le premier à marquer { $target } points gagne aussitôt.

## Variantes d'échecs

help-chess-keys =
    Touches et commandes des échecs.
    Tapez un coup en coordonnées, case de départ puis case d'arrivée et lettre de promotion : « f2h4 », « e11e12q ».
    Ou en notation algébrique : « Zxe4 », « exd5 », « e12=G ». Les majuscules sont les pièces, les minuscules les colonnes.
    « board » : l'échiquier rangée par rangée, de votre côté. « square e4 » : ce qui se trouve en e4.
    « turn », « status » : échec, dernier coup et propositions de nulle. « scores » : le matériel. « moves » : vos coups légaux. « history » : les coups joués.
    Au Zanzibar-S, les Noirs choisissent d'abord l'une des 48 dispositions avec « setup N » ou « setup KQGL UF », et les Blancs la copient.
    « resign » abandonne. « draw » propose la nulle, ou accepte celle qu'on vous propose.
    Chaque coup est annoncé par une phrase : « Girafe blanche de c1 à e4, prend le Chameau. »

help-chess-title = { $title }.
help-chess-board = Échiquier de { $files } cases sur { $ranks }. Les pièces, avec leur notation de Betza :
help-chess-piece = { $name } ({ $letter }) : « { $betza } ».{ $royal ->
    [1] {" "}Pièce royale.
   *[0] {""}
}{ $promotes ->
    [none] {""}
   *[other] {" "}Se promeut en { $promotes }.
}{ $en_passant ->
    [1] {" "}Peut être pris en passant.
   *[0] {""}
}
help-chess-king-jump = Le Roi peut sauter à deux cases à son premier coup, hors échec, sans traverser de case attaquée.
help-chess-castling = Le roque est permis.
help-chess-stalemate = { $stalemate ->
    [win] Le camp pat gagne.
    [loss] Le camp pat perd.
   *[draw] Le pat est nul.
}
help-chess-repetition = { $times ->
    [0] Pas de nulle par répétition.
   *[other] La même position répétée { $times } fois, avec le même camp au trait, est nulle.
}
help-chess-move-rule = { $moves ->
    [0] Pas de règle du nombre de coups.
   *[other] { $moves } { $moves ->
        [one] coup
       *[other] coups
    } de chaque camp sans prise ni coup de { $piece2 ->
        [none] { $piece1 }
       *[other] { $piece1 } ou de { $piece2 }
    } font nulle.
}

help-zanzibar-s-intro =
    Zanzibar-S, de Jean-Louis Cazaux.
    L'échiquier a 12 cases sur 12, colonnes a à l, rangées 1 à 12.
    Chaque camp a 36 pièces : Roi, Dame, Aigle, Lion, Rhinocéros, Buffle, et deux de chaque : Prince, Fou, Cavalier, Chameau, Tour, Canon, Éléphant, Girafe, Crocodile et Machine, plus 10 Pions.
    Le but est de mater le Roi adverse.
    Mise en place : les Noirs placent Roi, Dame, Aigle et Lion en f12, g12, f11 et g11 dans l'ordre de leur choix, puis Rhinocéros et Buffle en e12 et h12.
    Cela fait 48 dispositions, 24 à la symétrie près.
    Les Blancs copient la disposition colonne par colonne : Roi noir en f12, Roi blanc en f1.
    Puis les Blancs jouent le premier coup.
    Les marches, avec leur notation de Betza :
    Roi (K) : un pas dans toutes les directions. Il n'y a pas de roque.
    À son premier coup seulement, un Roi qui n'est pas en échec peut sauter sur une case vide à deux cases de distance : en ligne, en diagonale ou comme un Cavalier.
    Il ne prend jamais par ce saut.
    La case sautée peut être occupée mais ne doit pas être attaquée.
    Pour un saut de Cavalier, au moins une des deux cases intermédiaires doit être libre d'attaque.
    La case d'arrivée ne doit pas être attaquée non plus. De f2, les sauts vont en d1 d2 d3 d4 e4 f4 g4 h4 h3 h2 h1.
    Dame (Q), Tour (R), Fou (B) et Cavalier (N) marchent comme aux échecs.
    Aigle (G, FyafsF) : un pas en diagonale, puis il peut continuer en s'éloignant le long d'une des deux orthogonales.
    Il ne saute jamais, et peut s'arrêter ou prendre sur la première case.
    Rhinocéros (U, WyafsW) : un pas orthogonal, puis il peut continuer en s'éloignant le long d'une des deux diagonales. Il ne saute jamais.
    Lion (L, KNAD) : saute sur l'une des 24 cases à au plus deux pas de Roi.
    Buffle (F, NCZ) : saute comme un Cavalier (1,2), un Chameau (1,3) ou une Girafe (2,3).
    Girafe (Z) : sauteur (2,3). Chameau (M, C) : sauteur (1,3).
    Éléphant (E, FA) : un pas en diagonale, ou un saut sur la deuxième case diagonale.
    Machine (W, WD) : un pas orthogonal, ou un saut sur la deuxième case orthogonale.
    Canon (C, mRcpR) : se déplace comme une Tour sans prendre, et prend en sautant exactement une pièce de l'un ou l'autre camp le long d'une rangée ou d'une colonne.
    Crocodile (V, mBcpB) : la même chose en diagonale.
    Prince (I, KfmnnD) : un Roi non royal, que l'échec ne concerne donc pas. Il a aussi un pas double droit devant, sans prendre, depuis n'importe quelle rangée, par-dessus une case vide.
    Pion (P, fmWfceFfmnnD) : un pas en avant, prend d'un pas en diagonale avant, plus un pas double sans prendre depuis n'importe quelle rangée, par-dessus une case vide.
    Prise en passant : après tout pas double d'un Pion ou d'un Prince, un Pion adverse qui attaque la case franchie peut le prendre en passant au coup suivant seulement.
    Les Princes ne prennent jamais en passant. Un pas double qui finit en promotion ne laisse rien à prendre.
    Promotion : un Pion ou un Prince qui atteint la dernière rangée doit se promouvoir en Dame, Aigle, Lion, Rhinocéros ou Buffle.
help-zanzibar-s-promotions = { $extra ->
    [1] Avec l'option de table « promotions du texte d'origine », un Cavalier ou un Chameau qui atteint la dernière rangée devient Buffle, et un Éléphant ou une Machine devient Lion. Ces promotions viennent du grand jeu Gigachess du même auteur.
   *[0] Aucune autre pièce ne se promeut.
}
help-zanzibar-s-end = Le mat gagne. Le pat est nul. Un Roi dépouillé ne perd pas.
help-zanzibar-s-inherited = Les règles de répétition et du nombre de coups ne sont pas écrites pour le Zanzibar-S : elles viennent des échecs orthodoxes et sont des options de table.

help-chess-king-jump-checked = Un Roi déjà mis en échec garde son saut : seul l'échec en cours l'interdit, comme l'a écrit l'inventeur, Jean-Louis Cazaux, en 2019.
help-chess-bot-levels = Robots : les niveaux diffèrent par la profondeur de calcul. Facile voit deux demi-coups plus les prises, détendu trois, moyen 1 seconde par coup, difficile 4 secondes par coup.
help-chess-bot-strength = Force mesurée aux échecs orthodoxes contre Stockfish bridé, en peu de parties sur une machine partagée et chargée, en cumulant les versions du robot des derniers jours. Elo avec un intervalle à 95 % : { $levels }.
help-chess-bot-strength-level = { $level } { $elo } ({ $low }–{ $high }, { $games } parties)
help-chess-bot-ladder = Au Zanzibar-S, chaque niveau a joué contre celui du dessous, en cumulant les versions du robot des derniers jours ; une partie encore en cours à la limite de coups compte nulle.
help-chess-bot-ladder-pair = Le niveau { $strong } a marqué { $points } sur { $games } contre le niveau { $weak } ({ $low } à { $high } % des points, intervalle à 95 %), { $mates } { $mates ->
    [one] partie finie
   *[other] parties finies
} par un mat, parties limitées à { $cap } coups.
