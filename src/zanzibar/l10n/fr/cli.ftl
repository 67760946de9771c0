# Le cadre du terminal (cli/frame) et les modules des jeux (cli/games). Ids en « cli- ».

## Noms des touches

cli-key-shift = Maj
cli-key-ctrl = Ctrl
cli-key-alt = Alt
cli-key-space = Espace
cli-key-enter = Entrée
cli-key-escape = Échap
cli-key-backspace = Retour arrière
cli-key-tab = Tab
cli-key-up = Flèche haut
cli-key-down = Flèche bas
cli-key-left = Flèche gauche
cli-key-right = Flèche droite
cli-key-home = Début
cli-key-end = Fin
cli-key-insert = Inser
cli-key-delete = Suppr
cli-key-pageup = Page précédente
cli-key-pagedown = Page suivante
cli-key-unknown = cette touche
cli-keys-digits = 1 à 6
cli-keys-shift-digits = Maj+1 à 6
cli-keys-or = { $count ->
    [one] { $last }
   *[other] { $first } ou { $last }
}
cli-key-does = { $keys } { $what }
cli-list-separator = {"\u202F; "}
cli-list-end = { $items }.

## Le cadre

cli-key-nothing = La touche { $key } ne fait rien ici ; F1 pour l'aide.
cli-not-your-turn = Ce n'est pas votre tour.
cli-confirm-quit = Appuyez sur O pour quitter, sur une autre touche pour continuer.
cli-stay = Vous restez dans la partie.
cli-bye = Vous avez quitté la partie.
cli-input-ended = L'entrée s'est terminée avant la partie.
cli-over = La partie est terminée.
cli-unknown-command = Commande inconnue « { $command } ». Tapez aide pour la liste.
cli-line-prompt = Commande :{" "}
cli-line-cancelled = Commande annulée.
cli-layout-switched = Clavier AZERTY détecté : les touches des chiffres marchent désormais sans Maj.
cli-intro = { $game } : { $players }. F1 pour l'aide.
cli-intro-seed = Partie numéro { $seed } : le même numéro rejoue la même partie.

## Aide (F1) : six lignes courtes au plus

cli-help-game-keys = Touches : { $keys }
cli-help-frame-keys = Toujours : { $keys }
cli-help-commands = Commandes tapées : appuyez sur deux-points, puis tapez aide pour la liste.
cli-help-layout-qwerty = Clavier : QWERTY (un AZERTY est détecté à sa touche 1 sans Maj).
cli-help-layout-azerty = Clavier : AZERTY, touches des chiffres sans Maj.
cli-help-help = aide
cli-help-rules = les règles
cli-help-scores = scores
cli-help-turn = à qui le tour
cli-help-status = état de la partie
cli-help-line = une commande (aide les liste)
cli-help-quit = quitter
cli-commands-intro = Commandes tapées (les mots anglais marchent aussi) :
cli-command-line = { $command } : { $what }

## Mots des commandes (valeur : le mot ; .also : d'autres mots ; .help : ce qu'il fait)

cli-cmd-help = aide
    .also = ?
    .help = touches et commandes
cli-cmd-rules = règles
    .also = regles
    .help = les règles en vigueur
cli-cmd-scores = scores
    .help = le score de chacun
cli-cmd-turn = tour
    .help = à qui est le tour
cli-cmd-status = état
    .also = etat
    .help = l'état de la partie
cli-cmd-quit = quitter
    .help = quitter la partie
cli-cmd-roll = lancer
    .help = lancer les dés choisis (tous si aucun)
cli-cmd-stop = garder
    .help = garder son jet et finir son tour
cli-cmd-select = choisir
    .help = choisir le dé N
cli-cmd-unselect = retirer
    .help = retirer le dé N du choix
cli-cmd-selection = choix
    .help = dire les dés choisis
cli-cmd-dice = dés
    .also = des
    .help = répéter le dernier lancer
cli-cmd-bank = marquer
    .help = mettre le choix de côté et marquer le tour
cli-cmd-keep = prendre
    .help = choisir exactement ces dés
cli-cmd-all = meilleurs
    .help = choisir les dés qui marquent le plus

## Choix des dés (421 et Zilch)

cli-dice-no-die = Il n'y a pas de dé { $n } : les dés vont de 1 à { $count }.
cli-dice-not-a-number = « { $word } » n'est pas un numéro de dé de 1 à { $count }.

## 421

cli-421-help-select = choisir un dé à relancer
cli-421-help-unselect = le reprendre
cli-421-help-selection = le choix
cli-421-help-roll = lancer
cli-421-help-stop = garder son jet
cli-421-help-dice = dernier lancer
cli-421-not-yours = Ce n'est pas votre tour : ces dés ne sont pas à vous.
cli-421-no-dice-yet = Lancez d'abord : il n'y a pas encore de dés à choisir.
cli-421-no-roll = Personne n'a encore lancé.
cli-421-roll-first = Lancez au moins une fois avant de vous arrêter.
cli-421-none-selected = Aucun dé choisi : lancer relance les trois.
cli-421-selected = Relancer { $count ->
    [3] les trois
   *[other] { $rerolled }
} ; garder { $kept_count ->
    [0] rien
   *[other] { $kept }
}.

## Zilch

cli-zilch-help-select = choisir un dé
cli-zilch-help-unselect = le reprendre
cli-zilch-help-selection = le choix
cli-zilch-help-all = les meilleurs
cli-zilch-help-roll = lancer
cli-zilch-help-bank = marquer
cli-zilch-help-dice = dernier lancer
cli-zilch-nothing-to-choose = Il n'y a pas de dés à choisir maintenant.
cli-zilch-no-roll = Personne n'a encore lancé.
cli-zilch-last-roll = Dernier lancer : { $dice }.
cli-zilch-none-selected = Aucun dé choisi.
cli-zilch-selected = { $count ->
    [one] Choisi : { $dice } (dé { $positions }), vaut { $value }.
   *[other] Choisis : { $dice } (dés { $positions }), valent { $value }.
}
cli-zilch-selected-bad = { $count ->
    [one] Choisi : { $dice } (dé { $positions }) ; il ne marque pas.
   *[other] Choisis : { $dice } (dés { $positions }) ; ils ne marquent pas tous.
}
cli-help-commands-typed = Tapez un coup ou une commande, puis Entrée ; tapez aide pour la liste.

## Échecs

cli-chess-help-moves = Coups : { $examples }, puis Entrée ; une case seule y avance un Pion, ou la décrit.
cli-chess-your-move = À vous de jouer, vous avez les { $colour }.
cli-chess-white = Blancs
cli-chess-black = Noirs
cli-chess-empty-one = { $square } vide
cli-chess-empty-run = { $first } à { $last } vides
cli-chess-rank = Rangée { $rank } : { $content }.
cli-chess-file = Colonne { $file } : { $content }.
cli-chess-no-rank = Il n'y a pas de rangée { $rank } : elles vont de 1 à { $last }.
cli-chess-no-file = Il n'y a pas de colonne { $file } : elles vont de a à { $last }.
cli-chess-choose = Choisissez la disposition de vos pièces centrales : tapez son numéro, de 0 à { $last }.
cli-chess-arrangement = { $number } : { $placements }.
cli-chess-piece-on = { $piece } en { $square }
cli-chess-not-setup = La disposition est déjà choisie.
cli-chess-in-setup = Choisissez d'abord la disposition : tapez un numéro, ou dispositions pour les entendre.
cli-chess-last = Dernier coup : { $move }.
cli-chess-no-last = Aucun coup joué pour l'instant.
cli-chess-stopped = Arrêt après { $moves } coups, comme demandé.
cli-chess-letter-king = R
cli-chess-letter-queen = D
cli-chess-letter-rook = T
cli-chess-letter-bishop = F
cli-chess-letter-knight = C
cli-chess-letter-pawn = P
cli-chess-letter-buffalo = B
cli-chess-letter-cannon = N
cli-chess-letter-eagle = G
cli-chess-letter-rhinoceros = U
cli-chess-letter-lion = L
cli-chess-letter-crocodile = V
cli-chess-letter-giraffe = Z
cli-chess-letter-camel = M
cli-chess-letter-elephant = E
cli-chess-letter-machine = W
cli-chess-letter-prince = I
cli-cmd-board = échiquier
    .also = echiquier
    .help = tout l'échiquier, rangée par rangée, de votre côté
cli-cmd-rank = rangée
    .also = rangee
    .help = une rangée
cli-cmd-file = colonne
    .help = une colonne
cli-cmd-square = case
    .help = une case (ou ? puis la case)
cli-cmd-moves = coups
    .help = vos coups légaux
cli-cmd-arrangements = dispositions
    .help = les dispositions de départ, numérotées
cli-cmd-setup = disposition
    .help = choisir une disposition (ou juste son numéro)
cli-cmd-history = historique
    .help = les coups joués
cli-cmd-last = dernier
    .help = le dernier coup
cli-cmd-fen = fen
    .help = la position en FEN
cli-cmd-resign = abandonner
    .also = abandon
    .help = abandonner la partie
cli-cmd-draw = nulle
    .help = proposer la nulle, ou accepter celle qui est proposée
cli-you = Vous
cli-player = Joueur { $n }

## Jeu en ligne

cli-online-created = La table { $table } est ouverte sur { $server }. Pour la rejoindre : zanzibar play { $game } --server { $server } --table { $table }{ $invite }
cli-online-waiting = { $count ->
    [one] En attente d'un joueur de plus ; la partie commence quand la table est pleine.
   *[other] En attente de { $count } joueurs de plus ; la partie commence quand la table est pleine.
}
cli-online-joined = Vous êtes à la place { $seat } de la table { $table }.
cli-online-left = Vous avez quitté la table.
cli-online-guest = Joueur

## Relire ce qui a été dit (flèches haut et bas)

cli-keys-arrows = Flèche haut ou bas
cli-help-review = relire
cli-review-empty = Rien n'a encore été dit.

## Rediffusions

cli-replay-end = Fin de la rediffusion.
# The one line of an error, with where to look for help.
cli-error-line = zanzibar : { $message } (voir « { $hint } »)
cli-parser-error = { $prog } : { $message } (voir « { $hint } »)

## zanzibar ratings rebuild
cli-ratings-rebuilt = Cotes recalculées à partir { $games ->
        [one] d'une partie classée
       *[other] de { $games } parties classées
    } : { $players ->
        [one] une cote
       *[other] { $players } cotes
    }, { $history } entrées d'historique ({ $pending ->
        [one] { $pending } partie nouvellement classée
       *[other] { $pending } parties nouvellement classées
    }).

## jeu en ligne : son classement (cli/standing.py)
cli-help-rating = votre cote et votre rang dans la famille de ce jeu
cli-cmd-rating = cote
    .help = votre cote et votre rang dans la famille de ce jeu
cli-cmd-leaderboard = classement
    .help = les cinq premiers de la famille de ce jeu, puis vous
cli-standing-unrated = Le jeu de cette table ne compte pour aucune cote : ses règles ne correspondent à aucune famille classée.
cli-standing-none = Vous n'avez pas encore de cote en { $family } : jouez une partie classée (avec un compte, sans invité à la table).
cli-standing-you = Votre cote en { $family } est de { $rating }{ $provisional ->
        [yes] , provisoire
       *[no] {""}
    } : rang { $rank } sur { $total }, après { $games ->
        [one] une partie
       *[other] { $games } parties
    }.
cli-standing-top = Classement { VOWEL($family) ->
        [yes] d'{ $family }
       *[no] de { $family }
    }, { $total ->
        [one] un joueur classé
       *[other] { $total } joueurs classés
    } :
cli-standing-line = { $rank }. { $name }, { $rating }{ $provisional ->
        [yes] {" "}(provisoire)
       *[no] {""}
    }, { $games ->
        [one] une partie
       *[other] { $games } parties
    }.
cli-cmd-profile = profil
    .help = le profil d'un joueur (le vôtre sans nom) : cotes, dernières parties, statistiques
cli-standing-profile = Profil { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }.
cli-standing-profile-unrated = { $name } n'a pas encore de cote.
cli-standing-profile-rating = { $family } : { $rating }{ $provisional ->
        [yes] , provisoire
       *[no] {""}
    }, rang { $rank }, { $games ->
        [one] une partie
       *[other] { $games } parties
    }, dernier écart { $change }.
cli-standing-profile-game = Partie { $id } ({ $game }) : { $result ->
        [won] gagnée
        [lost] perdue
        [draw] nulle
       *[none] ni gagnée ni perdue
    }, { $change ->
        [none] non classée
       *[other] cote { $change }
    }. Revoir : zanzibar replay { $id }
cli-standing-profile-stats = { $game } : { $played ->
        [one] { $played } jouée
       *[other] { $played } jouées
    }, { $won ->
        [one] { $won } gagnée
       *[other] { $won } gagnées
    }, { $lost ->
        [one] { $lost } perdue
       *[other] { $lost } perdues
    }.
# Tournois suisses en jeu en ligne (cli/online.py).
cli-online-no-tournaments = Aucun tournoi dans ce salon pour l’instant.
cli-online-tournament-line = Tournoi { $id }{"\u00a0"}: { $name }, { $game }, { $players } sur { $most } joueurs, ronde { $round } sur { $rounds }, { $state ->
    [registering] inscriptions ouvertes{"\u00a0"}: zanzibar play JEU --server URL --tournament { $id }
    [running] en cours
    [finished] fini
   *[other] annulé
}.
cli-online-tournament-registered = Vous êtes inscrit à { $name }{"\u00a0"}; votre table vous sera donnée à chaque ronde.
cli-online-tournament-closed = Les inscriptions à { $name } sont closes.
cli-online-tournament-no-standings = Aucune ronde du tournoi { $name } n’a encore été jouée.
