# Variantes d'échecs : pièces, coups, évènements et réponses. $colour vaut « white » ou « black » ;
# $piece est le nom anglais d'une pièce en minuscules (sa clé dans les fichiers de variantes).

chess-piece = { $piece ->
        [king] Roi
        [queen] Dame
        [rook] Tour
        [bishop] Fou
        [knight] Cavalier
        [pawn] Pion
        [eagle] Aigle
        [lion] Lion
        [cannon] Canon
        [camel] Chameau
        [elephant] Éléphant
        [prince] Prince
        [rhinoceros] Rhinocéros
        [buffalo] Buffle
        [crocodile] Crocodile
        [giraffe] Girafe
        [machine] Machine
       *[other] { $fallback }
    }
chess-piece-the = { $piece ->
        [king] le Roi
        [queen] la Dame
        [rook] la Tour
        [bishop] le Fou
        [knight] le Cavalier
        [pawn] le Pion
        [eagle] l'Aigle
        [lion] le Lion
        [cannon] le Canon
        [camel] le Chameau
        [elephant] l'Éléphant
        [prince] le Prince
        [rhinoceros] le Rhinocéros
        [buffalo] le Buffle
        [crocodile] le Crocodile
        [giraffe] la Girafe
        [machine] la Machine
       *[other] { $fallback }
    }
chess-piece-white = { $piece ->
        [king] Roi blanc
        [queen] Dame blanche
        [rook] Tour blanche
        [bishop] Fou blanc
        [knight] Cavalier blanc
        [pawn] Pion blanc
        [eagle] Aigle blanc
        [lion] Lion blanc
        [cannon] Canon blanc
        [camel] Chameau blanc
        [elephant] Éléphant blanc
        [prince] Prince blanc
        [rhinoceros] Rhinocéros blanc
        [buffalo] Buffle blanc
        [crocodile] Crocodile blanc
        [giraffe] Girafe blanche
        [machine] Machine blanche
       *[other] { $fallback } blanc
    }
chess-piece-black = { $piece ->
        [king] Roi noir
        [queen] Dame noire
        [rook] Tour noire
        [bishop] Fou noir
        [knight] Cavalier noir
        [pawn] Pion noir
        [eagle] Aigle noir
        [lion] Lion noir
        [cannon] Canon noir
        [camel] Chameau noir
        [elephant] Éléphant noir
        [prince] Prince noir
        [rhinoceros] Rhinocéros noir
        [buffalo] Buffle noir
        [crocodile] Crocodile noir
        [giraffe] Girafe noire
        [machine] Machine noire
       *[other] { $fallback } noir
    }

chess-colour = { $colour ->
    [white] Blancs
   *[black] Noirs
}
chess-move = { $special ->
    [castle_kingside] { $colour ->
        [white] Les Blancs
       *[black] Les Noirs
    } roquent côté roi : Roi de { $from } à { $to }
    [castle_queenside] { $colour ->
        [white] Les Blancs
       *[black] Les Noirs
    } roquent côté dame : Roi de { $from } à { $to }
    [king_jump] { $mover } saute de { $from } à { $to }
   *[other] { $mover } de { $from } à { $to }
}{ $captured ->
    [none] {""}
   *[other] , prend { $victim }{ $special ->
        [en_passant] {" "}en passant
       *[other] {""}
    }
}{ $promotion ->
    [none] {""}
   *[other] , promu en { $promoted }
}.{ $check ->
    [mate] {" "}Échec et mat.
    [check] {" "}Échec.
   *[none] {""}
}
chess-placement = { $piece } en { $square }
chess-setup = { $who ->
    [you] Vous ({ $colour }) avez choisi
   *[name] { $name } ({ $colour }) a choisi
} la disposition { $number } : { $placements }. Les { $other } la copient en miroir.
chess-resign = { $who ->
    [you] Vous ({ $colour }) abandonnez.
   *[name] { $name } ({ $colour }) abandonne.
}
chess-draw-offered = { $who ->
    [you] Vous ({ $colour }) proposez la nulle.
   *[name] { $name } ({ $colour }) propose la nulle.
}
chess-draw-declined = La proposition de nulle tombe.
chess-draw-agreed = Nulle par accord.
chess-won = { $reason ->
    [checkmate] Échec et mat
    [stalemate] Pat
    [resignation] Abandon
    [repetition] Répétition
    [move_rule] Règle des { $moves } coups
   *[other] { $reason }
} : les { $colour } ({ $name }) gagnent.
chess-drawn = Nulle par { $reason ->
    [stalemate] pat
    [repetition] répétition
    [move_rule] la règle des { $moves } coups
    [agreement] accord
   *[other] { $reason }
}.

chess-empty = vide
chess-rank = Rangée { $rank } : { $content }.
chess-square-content = { $square } { $content }
chess-run-empty = { $first } à { $last } vides
chess-square = { $square } : { $content }.
chess-turn = Aux { $colour } de jouer ({ $name }).
chess-turn-setup = { $name } ({ $colour }) choisit la disposition des pièces centrales.
chess-over = La partie est terminée.
chess-check = Les { $colour } sont en échec.
chess-no-check = Pas d'échec.
chess-last-move = Dernier coup : { $sentence }
chess-no-moves-yet = Aucun coup joué pour l'instant.
chess-material = Matériel : Blancs { $white }, Noirs { $black } (Pion = 1).
chess-moves-count = Coup { $number }.
chess-legal-moves = Coups légaux : { $moves }.
chess-no-legal-moves = Aucun coup légal.
chess-history = Coups joués : { $moves }.
chess-draw-offer-pending = { $name } ({ $colour }) propose la nulle.
chess-unknown-topic = Sujet inconnu « { $topic } » ; essayez plateau, case:e4, tour, état, matériel, coups, historique.
