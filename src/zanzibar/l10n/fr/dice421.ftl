# 421 / Zanzibar : évènements et réponses. $who vaut « you » pour la place de l'auditeur.

dice421-tokens = { $n ->
    [one] { $n } jeton
   *[other] { $n } jetons
}
dice421-rolls = { $n ->
    [one] { $n } lancer
   *[other] { $n } lancers
}
dice421-throw = { $dice }{ $kind ->
    [top] , un 421
    [aces] , un brelan d'as
    [baraque] , un brelan de { $x }
    [fiche] , un { $x } pur
    [straight] , une suite
    [nenette] , une nénette
   *[other] {""}
}
dice421-phase = { $phase ->
    [charge] charge
    [decharge] décharge
    [draw] tirage
   *[over] fin
}

dice421-roll = { $who ->
    [you] Vous avez lancé
   *[name] { $name } a lancé
} { $throw }{ $limit ->
    [1] .
   *[other] {" "}(lancer { $roll } sur { $limit }).
}
dice421-stop = { $who ->
    [you] Vous vous arrêtez
   *[name] { $name } s'arrête
} à { $dice } après { $rolls }.
dice421-next = { $who ->
    [you] À vous
   *[name] Au tour { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }
} : { $rolls } au plus.
dice421-turn-start = Tour { $turn }, { $phase }{ $pot ->
    [none] {""}
   *[other] , { $pot } au pot
} : { $who ->
    [you] vous commencez
   *[name] { $name } commence
}, { $rolls } au plus.
dice421-rampo = Rampo entre { $seats } pour { $for ->
    [worst] la plus faible
   *[best] la meilleure
} combinaison : un lancer chacun.
dice421-redraw = Égalité pour le plus petit lancer : { $seats } relancent.
dice421-starter = { $who ->
    [you] Vous avez le plus petit lancer et commencez.
   *[name] { $name } a le plus petit lancer et commence.
}
dice421-turn-end-charge = { $who ->
    [you] Vous perdez le tour avec { $loser_dice } et prenez
   *[name] { $name } perd le tour avec { $loser_dice } et prend
} { $tokens } au pot{ $capped ->
    [1] {" "}(tout ce qui restait)
   *[0] {""}
} ; il en reste { $pot }.
dice421-turn-end-decharge = { $who ->
    [you] Vous perdez
   *[name] { $name } perd
} le tour avec { $loser_dice } ; { $winner_who ->
    [you] vous lui donnez
   *[name] { $winner } { $who ->
        [you] vous
       *[name] lui
    } donne
} { $tokens }{ $capped ->
    [1] {" "}(tout ce qui restait)
   *[0] {""}
} avec { $winner_dice }.
dice421-charge-over = La charge est finie : place à la décharge.
dice421-out = { $who ->
    [you] Vous n'avez plus de jetons : vous sortez, gagné !
   *[name] { $name } n'a plus de jetons et sort : gagné !
}
dice421-round-lost = { $needed ->
    [1] { $who ->
        [you] Vous avez tous les jetons.
       *[name] { $name } a tous les jetons.
    }
   *[other] { $who ->
        [you] Vous avez tous les jetons et perdez la manche ({ $losses } sur { $needed }).
       *[name] { $name } a tous les jetons et perd la manche ({ $losses } sur { $needed }).
    }
}
dice421-round-start = Manche { $round } : nouvelle charge, { $who ->
    [you] vous commencez.
   *[name] { $name } commence.
}
dice421-game-over = { $who ->
    [you] Vous avez perdu la partie et payez la tournée !
   *[name] { $name } a perdu la partie et paie la tournée !
}

dice421-separator = {" ; "}
dice421-score = { $who ->
    [you] Vous
   *[name] { $name }
} : { $tokens }{ $out ->
    [1] {" "}(sorti)
   *[0] {""}
}{ $lost ->
    [0] {""}
    [one] , { $lost } manche perdue
   *[other] , { $lost } manches perdues
}
dice421-scores = { $entries }{ $pot ->
    [none] .
   *[other] {"\u202F"}; { $pot } au pot.
}
dice421-turn-over = La partie est finie : { $who ->
    [you] vous avez perdu.
   *[name] { $name } a perdu.
}
dice421-turn-playoff = { $kind ->
    [draw] Tirage
   *[rampo] Rampo
} : à { $who ->
    [you] vous
   *[name] { $name }
} de lancer.
dice421-turn = { $who ->
    [you] À vous
   *[name] Au tour { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }
} : lancer { $roll } sur { $limit } au plus.
dice421-status-round = manche { $round }
dice421-status-pot = { $pot } au pot
dice421-status-turn = tour { $turn }
dice421-status-limit = limite { $rolls }
dice421-status-head = { $parts }.
dice421-status-played = Joué : { $entries }.
dice421-status-played-entry = { $who ->
    [you] Vous
   *[name] { $name }
} { $dice } ({ $rolls })
dice421-dice-current = { $who ->
    [you] Vous avez
   *[name] { $name } a
} { $throw } après { $rolls }.
dice421-dice-last = Dernier jet : { $who ->
    [you] vous
   *[name] { $name }
} { $throw }.
dice421-dice-none = Pas encore de dés ce tour.
dice421-unknown-topic = Sujet inconnu « { $topic } » ; sujets : scores, tour, état, dés.
dice421-status-phase = { $phase ->
    [charge] Charge
    [decharge] Décharge
    [draw] Tirage
   *[over] Partie finie
}
