# Zilch 5000 : évènements et réponses. $who vaut « you » pour la place de l'auditeur.

zilch-turn = { $stage ->
    [final] { $who ->
        [you] votre dernier tour
       *[name] dernier tour { VOWEL($name) ->
            [yes] d'{ $name }
           *[no] de { $name }
        }
    }
    [tiebreak] { $who ->
        [you] votre tour de départage
       *[name] tour de départage { VOWEL($name) ->
            [yes] d'{ $name }
           *[no] de { $name }
        }
    }
   *[main] { $who ->
        [you] à vous
       *[name] au tour { VOWEL($name) ->
            [yes] d'{ $name }
           *[no] de { $name }
        }
    }
}
zilch-roll = { $who ->
    [you] vous avez lancé { $dice }
   *[name] { $name } a lancé { $dice }
}
zilch-zilch = { $lost ->
    [0] { $who ->
        [you] zilch ! votre tour s'arrête
       *[name] zilch ! le tour { VOWEL($name) ->
            [yes] d'{ $name }
           *[no] de { $name }
        } s'arrête
    }
   *[other] { $who ->
        [you] zilch ! vous perdez { $lost } { $lost ->
            [one] point
           *[other] points
        }
       *[name] zilch ! { $name } perd { $lost } { $lost ->
            [one] point
           *[other] points
        }
    }
}
zilch-set-aside = { $who ->
    [you] vous mettez de côté { $dice } pour { $points }, { $turn } ce tour-ci
   *[name] { $name } met de côté { $dice } pour { $points }, { $turn } ce tour-ci
}
zilch-hot-dice = { $who ->
    [you] dés brûlants ! vous relancez les six dés avec { $turn } points
   *[name] dés brûlants ! { $name } relance les six dés avec { $turn } points
}
zilch-bank = { $who ->
    [you] vous marquez { $points }, total { $total }
   *[name] { $name } marque { $points }, total { $total }
}
zilch-penalty = { $who ->
    [you] trois zilchs de suite : vous perdez { $points }, total { $total }
   *[name] trois zilchs de suite : { $name } perd { $points }, total { $total }
}
zilch-final-round = { $who ->
    [you] vous atteignez { $score } : chacun des autres joue un dernier tour
   *[name] { $name } atteint { $score } : chacun des autres joue un dernier tour
}
zilch-tie-break = égalité à { $score } entre { $names } : chacun rejoue un tour
zilch-game-over = { $who ->
    [you] vous gagnez avec { $score }
   *[name] { $name } gagne avec { $score }
}
zilch-game-over-shared = { $names } gagnent avec { $score }

zilch-separator = {" ; "}
zilch-scores-separator = {", "}
zilch-scores-entry = { $name } : { $score } { $score ->
    [one] point
   *[other] points
}
zilch-scores-not-entered = { $name } : { $score } { $score ->
    [one] point
   *[other] points
} (pas encore entré)
zilch-describe-start = { $who ->
    [you] à vous : lancez les six dés
   *[name] { $name } va lancer les six dés
}
zilch-describe-rolling = { $who ->
    [you] vous lancez { $dice } { $dice ->
        [one] dé
       *[other] dés
    } avec { $points } { $points ->
        [one] point
       *[other] points
    } ce tour-ci
   *[name] { $name } lance { $dice } { $dice ->
        [one] dé
       *[other] dés
    } avec { $points } { $points ->
        [one] point
       *[other] points
    } ce tour-ci
}
zilch-describe-choose = { $who ->
    [you] vous avez { $points } { $points ->
        [one] point
       *[other] points
    } ce tour-ci et devez choisir parmi { $dice }
   *[name] { $name } a { $points } { $points ->
        [one] point
       *[other] points
    } ce tour-ci et doit choisir parmi { $dice }
}
zilch-describe-kept = mis de côté : { $dice }
zilch-describe-threshold = pour marquer il faut { $needed } points dans le tour
zilch-describe-over = la partie est finie
zilch-status-main = { $who ->
    [you] le premier à { $target } lance le dernier tour ; à vous
   *[name] le premier à { $target } lance le dernier tour ; { $name } joue
}
zilch-status-final = dernier tour : { $trigger } a atteint { $score } ; restent à jouer : { $queue }
zilch-status-tiebreak = départage entre { $names }
zilch-status-over = partie finie : victoire { VOWEL($winners) ->
    [yes] d'{ $winners }
   *[no] de { $winners }
} avec { $score }
zilch-dice-roll = dés : { $dice }
zilch-dice-none = aucun dé à choisir
zilch-dice-kept = mis de côté : { $dice }
zilch-unknown-topic = pas de réponse sur « { $topic } » (sujets : scores, tour, état, dés)
