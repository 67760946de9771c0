# Refus : ceux du moteur, des jeux et du salon.

error-too-many-chance-steps-in = trop de lancers de dés d'affilée : erreur dans les règles
error-bot-game-did-finish = la partie des robots ne s'est pas terminée
error-played-by-players = { $name } se joue de { $low } à { $high } joueurs, pas { $seats }
error-option = option « { $name } » : { $why }
error-unknown-option-known = option inconnue « { $name } » (connues : { $known })
error-unknown-preset-known = jeu de règles inconnu « { $name } » (connus : { $known })
error-form-name-value = « { $item } » n'a pas la forme NOM=VALEUR
error-game-over = la partie est finie
error-game-waiting-for-dice-for = la partie attend les dés, pas un joueur
error-it-seat-turn-seat = c'est au tour de la place { $to_act }, pas de la place { $seat }
error-unknown-game-games = jeu inconnu « { $name } » (jeux : { $games })
error-game-available = le jeu « { $name } » n'est pas disponible
error-unknown-bot-level-levels = niveau de robot inconnu « { $name } » (niveaux : { $known })
error-no-legal-move-game-over = aucun coup légal : la partie est finie
error-this-variant-has-no-setup = cette variante n'a pas de choix de disposition
error-this-bot-was-made-without = ce robot a été créé sans les règles du jeu
error-no-setup-choice-open = aucun choix de disposition n'est ouvert
error-legal-move-here = « { $text } » n'est pas un coup légal ici
error-no-move-given = aucun coup donné
error-ambiguous = « { $text } » est ambigu : { $options }
error-that-move-legal-here = ce coup n'est pas légal ici
error-possible-now-move-resign-or = « { $kind } » n'est pas possible maintenant (coup, abandon ou nulle)
error-chess-has-no-dice = les échecs se jouent sans dés
error-unknown-action-type-move-setup = type d'action inconnu « { $kind } » (« move », « setup », « resign », « draw »)
error-pieces-are-all-placed-yet = les pièces ne sont pas encore toutes placées
error-action-object-with-type = une action est un objet avec un « type »
error-first-choose-arrangement-setup-n = choisissez d'abord la disposition (« setup N » ou « setup KQGL UF »)
error-you-have-already-offered-draw = vous avez déjà proposé la nulle
error-move-action-needs-move-f2h4 = une action de coup demande « move » : « f2h4 » ou « Zxe4 »
error-valid-layout-place = « { $text } » n'est pas une disposition valable (placez { $groups })
error-arrangement-must-0 = la disposition va de 0 à { $options }, pas { $index }
error-arrangement-number-or-layout-like = une disposition est un nombre ou un placement comme « KQGL UF »
error-setup-square-empty-in-base = la case { $target } n'est pas vide dans la position de base
error-unknown-421-bot-level-levels = niveau de robot du 421 inconnu « { $level } » (niveaux : { $levels })
error-421-played-by-2-10 = le 421 se joue de 2 à 10 joueurs, pas { $seats }
error-game-not-over = la partie n'est pas finie
error-nobody-may-act-now = personne ne peut jouer maintenant
error-421-action = ce n'est pas une action du 421 : « { $action } »
error-reroll-one-two-or-three = relancez un, deux ou trois des dés 1, 2, 3
error-first-roll-throws-all-three = le premier lancer jette les trois dés
error-no-rolls-left-limit = plus de lancer : la limite est { $limit }
error-expected-dice-from-1-6 = { $count } dés de 1 à 6 attendus, reçu « { $outcome } »
error-roll-at-least-once-before = lancez au moins une fois avant de vous arrêter
error-no-dice-are-expected-now = aucun dé n'est attendu maintenant
error-action-json-object = une action est un objet JSON, pas « { $obj } »
error-unknown-action-type-expected-roll = type d'action inconnu « { $kind } » (« roll » ou « stop » attendu)
error-dice-must-non-empty-list = « dice » doit être une liste non vide de positions de dés 0, 1, 2
error-die-position-0-1-or = la position de dé « { $die } » n'est pas 0, 1 ou 2
error-die-position-named-twice = la position de dé { $die } est donnée deux fois
error-unknown-zilch-bot-level-levels = niveau de robot du Zilch inconnu « { $level } » (niveaux : { $levels })
error-there-are-no-dice-set = aucun dé à mettre de côté maintenant
error-set-aside-at-least-one = mettez de côté au moins un dé qui marque
error-die-cannot-set-aside-twice = un dé ne peut pas être mis de côté deux fois
error-do-all-score-only-scoring = { $chosen } ne marquent pas tous : seuls les dés qui marquent se mettent de côté
error-zilch-action = ce n'est pas une action du Zilch : « { $action } »
error-no-action-possible-now = aucune action n'est possible maintenant
error-no-dice-are-awaited = aucun dé n'est attendu
error-there-no-die-dice-were = il n'y a pas de dé { $i } : { $roll } { $roll ->
    [one] dé a été lancé
   *[other] dés ont été lancés
}
error-turn-starts-by-rolling-six = un tour commence en lançant les six dés
error-two-player-solver-does-handle = le solveur à deux joueurs ne gère pas la pénalité des trois zilchs (son état devrait suivre la série de zilchs de chaque joueur)
error-action-object-like-type-roll = une action est un objet comme {"{"}'type': 'roll'{"}"}, pas « { $obj } »
error-action-type-must-roll-or = le type d'action est « roll » ou « bank », pas « { $kind } »
error-keep-must-list-die-positions = « keep » doit être une liste de positions de dés, pas « { $keep } »
error-unknown-action-fields = champs d'action inconnus : { $extra }
error-name-must-text = un nom doit être du texte
error-name-needs-1-characters = un nom a de 1 à { $name_max } caractères
error-name-may-hold-control-characters = un nom ne peut pas contenir de caractères de contrôle
error-language-must-one = la langue est l'une de : { $languages }
error-password-needs-characters = un mot de passe a de { $password_min } à { $password_max } caractères
error-wrong-name-or-password = nom ou mot de passe incorrect
error-name-taken = le nom { $clean } est déjà pris
error-account-could-stored = le compte n'a pas pu être enregistré
error-session-could-stored = la session n'a pas pu être enregistrée
error-chat-line-must-text = une ligne de discussion doit être du texte
error-chat-line-at-most-characters = une ligne de discussion a au plus { $max_length } caractères
error-chat-line-cannot-empty = une ligne de discussion ne peut pas être vide
error-at-most-messages-every-seconds = au plus { $count } messages toutes les { $window } secondes ; patientez un instant
error-must-whole-number = { $key } doit être un nombre entier
error-must-true-or-false = { $key } doit être vrai ou faux
error-since-cannot-negative = « since » ne peut pas être négatif
error-required = { $key } est obligatoire
error-say-hello-with-your-session = dites d'abord bonjour avec votre jeton de session
error-there-no-table = il n'y a pas de table { $table_id }
error-unknown-or-expired-session-token = jeton de session inconnu ou expiré
error-this-connection-already-belongs-another = cette connexion appartient déjà à un autre utilisateur
error-only-host-may-do-that = seul l'hôte peut faire cela
error-while-game-running = pas pendant une partie
error-host-sent-you-away-from = l'hôte vous a renvoyé de cette table
error-preset-must-name = le jeu de règles doit être un nom
error-options-must-object-name-value = les options sont un objet nom : valeur
error-say-which-game-table-for = dites à quel jeu la table est destinée
error-game-action-needs-action = « game.action » demande une action
error-say-what-ask-about = dites sur quoi porte la question
error-join-or-watch-table-first = rejoignez ou regardez d'abord la table
error-no-game-has-been-played = aucune partie n'a encore été jouée à cette table
error-say-whom-message-for = dites à qui le message est destiné
error-nobody-called = personne ne s'appelle { $to }
error-channel-one = le canal est l'un de : { $channels }
error-message-must-json-object = un message doit être un objet JSON
error-this-salon-speaks-protocol = ce salon parle le protocole { $protocol }
error-message-needs-type = un message a besoin d'un type
error-unknown-message-type = type de message inconnu « { $kind } »
error-change-could-stored-nothing-was = la modification n'a pas pu être enregistrée ; rien n'a changé
error-this-table-private-invitation-code = cette table est privée : il faut un code d'invitation
error-option-names-are-text = les noms d'options sont du texte
error-you-are-at-this-table = vous n'êtes pas à cette table
error-people-or-bots-sit-in = des joueurs ou des robots occupent les places à retirer
error-bot-levels = niveaux de robot : { $levels }
error-no-bot-sits-at-seat = aucun robot n'occupe la place { $seat }
error-you-cannot-send-yourself-away = vous ne pouvez pas vous renvoyer vous-même
error-that-user-at-this-table = cet utilisateur n'est pas à cette table
error-new-host-must-another-player = le nouvel hôte doit être un autre joueur assis ici
error-turn-clock-runs-seconds = la pendule va de { $clock_min } à { $clock_max } secondes
error-needs-players-are-seated = { $name } demande de { $low } à { $high } joueurs ; { $players } { $players ->
    [one] est assis
   *[other] sont assis
}
error-you-do-sit-at-this = vous n'êtes pas assis à cette table
error-you-may-only-act-for = vous ne pouvez jouer que pour votre place
error-no-game-running-at-this = aucune partie n'est en cours à cette table
error-game-paused-between-rounds = la partie est en pause entre deux manches
error-you-left-this-game-join = vous avez quitté cette partie ; rejoignez la table pour rejouer
error-game-has-moved-on-log = la partie a avancé : { $log } entrées au journal, pas { $seq }
error-it-your-turn = ce n'est pas votre tour
error-that-action-could-applied = cette action n'a pas pu être appliquée
error-no-answer-about = pas de réponse sur « { $topic } »
error-join-or-watch-table-talk = rejoignez ou regardez la table pour y parler
error-game-has-started-watch-it = la partie a commencé : regardez-la, ou attendez la suivante
error-table-full = la table est complète
error-there-no-seat = il n'y a pas de place { $wanted }
error-seat-taken = la place { $wanted } est prise
error-that-action-this-game = ce n'est pas une action de ce jeu
error-salon-failed-nothing-was-changed = le salon a échoué ; rien n'a changé
error-true-or-false = « { $value } » n'est ni vrai ni faux
error-whole-number = « { $value } » n'est pas un nombre entier
error-below-minimum = { $value } est sous le minimum { $minimum }
error-above-maximum = { $value } dépasse le maximum { $maximum }
error-option-not-one-of = « { $value } » n'est pas l'un de : { $allowed }
error-square = « { $text } » n'est pas une case
error-on-x-board = { $text } n'est pas sur l'échiquier de { $files } × { $ranks }
error-banking-needs-at-least-points = pour marquer il faut au moins { $needed } points dans le tour ; vous auriez { $total }
error-banking-needs-at-least-points-2 = pour marquer une première fois il faut au moins { $needed } points dans le tour ; vous auriez { $total }
error-after-hot-dice-you-must = après des dés brûlants, il faut relancer les six dés

## Refus de l'issue 10 : noms, textes libres, quotas, limites de débit, sessions, transport.

error-what-name = un nom
error-what-chat-line = une ligne de discussion
error-text-not-text = { $what } doit être du texte
error-text-too-long = { $what } fait au plus { $max } caractères
error-text-surrogate = { $what } doit être du texte Unicode valide (un demi-codet isolé a été envoyé)
error-text-controls = { $what } ne peut contenir ni caractère de contrôle, ni marque de direction, ni caractère de mise en forme invisible
error-text-empty = { $what } ne peut pas être vide ni fait seulement de caractères invisibles
error-name-letter = un nom doit contenir au moins une lettre ou un chiffre
error-name-reserved = le nom « { $name } » est réservé au salon ; choisissez-en un autre
error-sign-in-busy = le salon est occupé à connecter d'autres personnes ; réessayez dans quelques secondes
error-name-exhausted = trop de personnes s'appellent { $base } ; choisissez un autre nom
error-limits-unavailable = le salon ne peut pas vérifier ses limites pour l'instant ; réessayez dans quelques secondes
error-guest-no-password = un invité n'a pas de mot de passe ; créez plutôt un compte
error-password-wrong = le mot de passe actuel est faux
error-session-expired = votre session a expiré ; reconnectez-vous
error-session-unknown = session inconnue, expirée ou fermée ; reconnectez-vous
error-connections-per-account = au plus { $n } connexions par compte ; fermez d'abord un autre onglet ou une autre fenêtre
error-connections-per-address = au plus { $n } connexions depuis une même adresse ; fermez-en une d'abord
error-lobby-limit = « limit » est un nombre de 1 à { $max }
error-lobby-cursor = « cursor » ne peut pas être négatif
error-tables-hosted = vous êtes déjà l'hôte de { $n } tables, le maximum permis ; quittez-en une avant d'en ouvrir une autre
error-tables-per-address = { $n } tables sont déjà ouvertes depuis votre adresse, le maximum permis ; fermez-en une avant d'en ouvrir une autre
error-message-surrogate = le message contient du texte qui n'est pas de l'Unicode valide (un demi-codet isolé)
error-message-not-stored = le message n'a pas pu être enregistré ; rien n'a été envoyé
error-many-new-accounts = nouveaux comptes
error-many-sign-in-attempts = tentatives de connexion
error-many-messages = messages
error-many-new-tables = nouvelles tables
error-many-tables = tables
error-rate = { $count ->
    [one] { $n } par { $unit ->
        [second] seconde
        [minute] minute
        [hour] heure
       *[day] jour
    }
   *[other] { $unit ->
        [second] { $n } toutes les { $count } secondes
        [minute] { $n } toutes les { $count } minutes
        [hour] { $n } toutes les { $count } heures
       *[day] { $n } tous les { $count } jours
    }
}
error-rate-limited = trop de { $what } : au plus { $limits } ; réessayez dans { $seconds ->
    [one] { $seconds } seconde
   *[other] { $seconds } secondes
}
error-rate-limited-wait = trop de { $what } : au plus { $limits } ; patientez un instant
error-frame-too-large = message de { $size } octets ; la limite est { $limit }
error-frame-not-json = le message n'est pas du JSON valide
error-frame-not-object = le message doit être un objet JSON
error-frame-version = la version { $version } du protocole n'est pas prise en charge (utilisez 1)
error-frame-invalid = « { $kind } » invalide : { $why }
error-body-not-json = le corps de la requête n'est pas du JSON valide
error-body-invalid = le corps de la requête est inattendu en { $where } : { $why }
error-bearer-missing = envoyez votre jeton de session comme jeton « Bearer »
error-bearer-form = envoyez le jeton de session sous la forme « Bearer <jeton> »
error-query-whole-number = « { $name } » doit être un nombre entier
error-query-limit-min = « limit » doit valoir au moins 1
error-no-game = aucune partie { $id }
error-no-player = aucun joueur nommé « { $name } »
error-request-too-large = La requête est trop grande : { $limit } octets au plus.
error-request-body-timeout = La requête a mis trop de temps à arriver : plus de { $seconds } secondes.
error-request-bad-length = L'en-tête Content-Length de la requête n'est pas un nombre valide.
error-no-hello = Pas de « hello » en { $seconds } secondes : la connexion est fermée.
error-headers-timeout = les en-têtes de la requête ne sont pas arrivés en { $seconds } s
error-headers-too-large = les en-têtes de la requête dépassent { $max } octets
error-internal = erreur interne ; rien n'a été changé

# The command line's own refusals (zanzibar play, replay, sim): matched from their English text.
error-cli-unreachable = impossible de joindre { $server } : { $reason }
error-cli-connection-lost = la connexion au salon est perdue
error-cli-no-answer = le serveur n'a pas répondu à temps
error-cli-idle = rien ne s'est passé depuis trop longtemps ; vous quittez la table
error-cli-keeps-dropping = la connexion ne cesse de tomber
error-cli-not-sent = l'action n'a pas pu être envoyée
error-cli-no-view = pas de vue à jour de la partie après la reconnexion
error-cli-no-table = le serveur n'a pas décrit la table { $table }
error-cli-not-filled = la table ne s'est pas remplie
error-cli-bot-level = niveau de robot inconnu « { $level } » (niveaux : { $levels })
error-cli-bots-range = il faut entre { $low } et { $high } robots pour { $name }
error-cli-script = impossible de lire le script { $path } : { $reason }
error-cli-no-game-on = il n'y a pas de partie { $game } sur { $server }
error-cli-server-answered = { $server } a répondu { $status } : { $body }
error-cli-database = impossible de lire la base du salon ({ $kind }) ; vérifiez --db ou --data-dir
error-cli-no-game-here = il n'y a pas de partie { $game } dans cette base
error-cli-no-database = pas de base du salon en { $path }
error-cli-throw = « { $text } » n'est pas un jet de trois dés, par exemple 4-2-1
error-cli-replay = c'est la relecture d'une partie jouée
error-cli-driver = le pilote de base de données « { $driver } » n'est pas installé pour { $url } (PostgreSQL demande l'extra « postgres » : « pip install 'zanzibar[postgres]' »)
error-cli-players-range = il faut entre { $low } et { $high } joueurs
error-cli-games-min = il faut au moins { $n } { $n ->
    [one] partie
   *[other] parties
}
error-cli-two-players = le calcul des chances de gagner ne traite que deux joueurs ; « --turn » traite tout nombre de joueurs
error-cli-dice-range = il faut entre { $low } et { $high } dés

## Issue 14 : listes d'amis et messages privés gardés pour une personne absente.
error-friends-name = écrivez le nom d'un compte
error-friends-guest = un invité n'a pas de liste d'amis ; créez un compte pour en garder une
error-friends-self = vous ne pouvez pas vous ajouter à votre propre liste d'amis
error-friends-not-account = { $name } est un compte invité ; seuls les comptes peuvent figurer dans une liste d'amis
error-friends-already = { $name } est déjà dans votre liste d'amis
error-friends-not-friend = { $name } n'est pas dans votre liste d'amis
error-friends-full = une liste d'amis compte au plus { $max } noms ; retirez-en un d'abord
error-friends-not-stored = la liste d'amis n'a pas pu être enregistrée ; rien n'a changé
error-pm-guest-gone = { $name } n'est plus là (c'était un compte invité) ; les messages ne sont gardés que pour les comptes
error-pm-guest-sender = { $name } n'est pas en ligne et un invité ne peut pas laisser de message ; créez un compte pour en laisser un
error-pm-mailbox-full = { $max ->
    [one] { $max } message attend déjà
   *[other] { $max } messages attendent déjà
} { $name } ; réessayez quand { $max ->
    [one] il aura été lu
   *[other] ils auront été lus
}
error-pm-pair-full = vous avez déjà laissé { $max ->
    [one] { $max } message
   *[other] { $max } messages
} en attente pour { $name } ; attendez { $max ->
    [one] qu'il soit lu
   *[other] qu'ils soient lus
}
error-many-friends-list-changes = modifications de la liste d'amis
## classement (cotes, classements, profils)
error-rated-flag = « rated » vaut true ou false
error-rated-table-guest = cette table est classée : les invités ne peuvent pas y jouer ; créez un compte pour jouer des parties classées
error-no-family = aucune famille de cote « { $family } » (familles : { $known })
error-page = le curseur compte les joueurs à partir de 0 et la limite va de 1 à { $largest }
error-no-profile = aucun profil de « { $name } »
error-profile-sign-in = connectez-vous pour voir les profils des joueurs
error-profile-guest = un invité n'a pas de profil ; créez un compte
error-hidden-flag = envoyez {"{"}"hidden": true{"}"} ou {"{"}"hidden": false{"}"}
error-cli-standing-unreachable = le salon n'a pas répondu au sujet des cotes : { $why }

# the table actors (salon/actor.py, salon/router.py)
error-table-moved = cette table est désormais tenue par un autre processus ; rien n'a été changé
error-table-unreachable = le nœud qui tient cette table ne répond pas ; réessayez
error-no-such-table = cette table n'existe pas
error-table-elsewhere = la table { $table } est tenue par le nœud { $node }, que ce nœud ne peut pas joindre ; rien n'a été changé
error-table-not-claimed = la nouvelle table n'a pas pu être prise en charge ; rien n'a été changé
# Refus des tournois suisses (salon/tournaments.py).
error-there-no-tournament = il n’y a pas de tournoi { $id }
error-tournament-rounds-range = un tournoi a de 1 à { $most } rondes
error-tournament-players-range = un tournoi accueille de 2 à { $most } joueurs
error-tournament-rematch = avec autant de rondes, des joueurs se rencontreraient deux fois
error-tournament-within-week = un tournoi commence dans la semaine
error-tournament-name-text = le nom est un texte
error-tournament-host-quota = vous organisez déjà { $most } tournois ouverts, le maximum permis
error-tournament-closed = les inscriptions sont closes : le tournoi a commencé
error-tournament-entry-race = une autre inscription a été faite au même instant : réessayez
error-tournament-already = vous êtes déjà inscrit
error-tournament-full = le tournoi est complet
error-tournament-not-registered = vous n’êtes pas inscrit
error-tournament-two = un tournoi demande au moins deux joueurs
error-tournament-other-game = le tournoi { $id } se joue à { $game }, pas à { $name }
