### The web client's own words (static/js/i18n.js reads them as t("key") -> web-key).
### A message on several lines is a list of lines (help texts).

web-app_name = Zanzibar
web-skip_to_main = Aller au contenu principal
web-language = Langue
web-settings = Réglages
web-help = Aide (F1)
web-rules = Règles (Ctrl+F1)
web-close = Fermer
web-sign_out = Se déconnecter
web-signed_in_as = Connecté en tant que { $name }
web-guest = invité
web-signin_title = Zanzibar : connexion
web-signin_intro = Un salon de jeux accessible : 421 / Zanzibar, Zilch 5000 et les échecs Zanzibar-S, contre des personnes ou des robots.
web-guest_heading = Jouer en invité
web-account_heading = Utiliser un compte
web-name = Nom
web-password = Mot de passe
web-play_as_guest = Jouer en invité
web-log_in = Se connecter
web-register = Créer le compte
web-signing_in = Connexion…
web-connecting = Connexion…
web-connected = Connecté.
web-disconnected = Connexion perdue, reconnexion…
web-reconnected = Reconnecté.
web-conn_status = Connexion
web-lobby_title = Salon
web-tables_heading = Tables
web-my_tables = Vos tables
web-back_to_table = Retour à la table { $id }
web-tables_caption = Tables ouvertes
web-no_tables = Aucune table n'est ouverte. Créez-en une ci-dessous.
web-more_tables = Plus de tables
web-more_tables_shown = Tables affichées : { $shown } sur { $total }.
web-col_table = Table
web-col_game = Jeu
web-col_options = Options
web-col_seats = Places
web-col_state = État
web-col_spectators = Spectateurs
web-col_actions = Actions
web-join = Rejoindre
web-join_table = Rejoindre la table { $id }
web-watch = Regarder
web-watch_table = Regarder la table { $id }
web-free_seat = place libre
web-bot_named = robot ({ $level })
web-offline = hors ligne
web-away_bot = absent : un robot joue ({ $level })
web-bot_badge = robot
web-state_waiting = en attente
web-state_playing = en cours
web-state_paused = en pause
web-state_finished = terminée
web-create_heading = Créer une table
web-game = Jeu
web-preset = Règles
web-custom_preset = personnalisées
web-seats = Places
web-seats_hint = de { $min } à { $max } joueurs
web-private_table = Table privée (accessible seulement par son lien d'invitation)
web-create = Créer la table
web-options_heading = Options
web-default_value = par défaut : { $value }
web-range = de { $min } à { $max }
web-yes = oui
web-no = non
web-invite_heading = Rejoindre avec une invitation
web-invite_link = Lien d'invitation
web-invite_hint = Collez un lien comme …#table=12&invite=ABCD
web-invite_bad = Ce n'est pas un lien d'invitation.
web-go = Aller
web-table_title = Table { $id } : { $game }
web-seats_heading = Places
web-seat_n = Place { $n }
web-you_mark = (vous)
web-host_mark = hôte
web-empty_seat = libre
web-sit_here = S'asseoir ici
web-sit_in_seat = S'asseoir à la place { $n }
web-host_heading = Commandes de l'hôte
web-start = Lancer la partie
web-add_bot = Ajouter un robot
web-bot_level = Niveau du robot
web-remove_bot = Retirer le robot
web-remove_bot_seat = Retirer le robot de la place { $n }
web-kick = Exclure
web-kick_user = Exclure { $name }
web-make_host = Nommer hôte
web-make_host_user = Nommer { $name } hôte
web-hold = Prolonger la pause entre les manches
web-save_options = Changer les options
web-leave = Quitter la table
web-back_to_lobby = Retour au salon
web-left_table = Vous n'êtes plus à cette table.
web-invitation = Lien d'invitation
web-copy = Copier
web-copied = Lien copié.
web-spectating = Vous regardez cette table.
web-spectators_list = Spectateurs : { $names }
web-waiting_for_start = En attente du lancement de la partie par l'hôte.
web-paused = Courte pause entre les manches.
web-paused_held = L'hôte prolonge la pause entre les manches.
web-game_heading = Partie
web-game_over = La partie est terminée.
web-your_turn_badge = À vous de jouer
web-turn_of = À { $name } de jouer
web-playing_now = joue maintenant
web-chat_heading = Discussion
web-message = Message
web-send = Envoyer
web-chat_hint = /me salue, ou /msg NOM texte pour un message privé
web-history_heading = Historique
web-channel = Canal
web-channel_all = Tout
web-channel_game = Jeu
web-channel_chat = Discussion
web-channel_system = Système
web-history_empty = Rien pour l'instant.
web-earlier_history = Historique plus ancien
web-earlier_history_shown =
    { $n ->
        [one] { $n } élément plus ancien ajouté en haut de l'historique.
       *[other] { $n } éléments plus anciens ajoutés en haut de l'historique.
    }
web-not_found = Cette table n'existe pas ou vous ne pouvez pas y entrer.
web-dice_heading = Dés
web-die_n = Dé { $n } : { $value }
web-die_selected = sélectionné
web-die_not_rolled = pas encore lancé
web-dice_text = Dés : { $dice }
web-no_dice = Aucun dé lancé pour l'instant.
web-roll = Lancer
web-roll_selected = Lancer les dés sélectionnés
web-roll_all = Lancer les dés
web-stop = S'arrêter
web-bank = Encaisser
web-select_die = Sélectionner le dé { $n }
web-selection_none = Aucun dé sélectionné.
web-selection = Sélectionnés : { $sel }. Non sélectionnés : { $unsel }.
web-nothing = aucun
web-rolls_left = Lancer { $n } sur { $max } au plus
web-pot = Pot : { $n }
web-phase = Phase : { $phase }
web-players_heading = Joueurs
web-tokens =
    { $n ->
        [one] { $n } jeton
       *[other] { $n } jetons
    }
web-score =
    { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
web-turn_points = Points du tour : { $n }
web-say_scores = Scores (S)
web-say_turn = À qui le tour (T)
web-say_status = État de la partie (I)
web-select_all_scoring = Sélectionner tous les dés qui marquent (A)
web-clock = Pendule du tour en secondes (vide : aucune)
web-set_clock = Régler la pendule
web-say_dice = Dernier jet (D)
web-say_selection = Sélection (Espace)
web-board_heading = Échiquier
web-board_label = Échiquier { $game }, { $files } colonnes sur { $ranks } rangées
web-white = Blancs
web-black = Noirs
web-square_empty = { $sq }, vide
web-rank_word = Rangée
web-rank_n = rangée { $n }
web-square_piece = { $sq }, { $piece } des { $color }
web-piece_of = { $piece } des { $color }
web-legal_target = case possible
web-picked = pièce choisie
web-last_move_mark = dernier coup
web-picked_piece = { $piece } en { $sq } : cases possibles { $targets }.
web-no_targets = { $piece } en { $sq } n'a aucun coup légal.
web-pick_cancelled = Annulé.
web-not_your_piece = Choisissez une de vos pièces.
web-last_move = Dernier coup : { $move }
web-check = Échec !
web-type_move = Taper un coup
web-type_move_hint = Par exemple f2f4 ou Nc1e2
web-play_move = Jouer
web-setup_heading = Placement des Noirs
web-setup_intro = Les Noirs choisissent où se placent le Roi, la Dame, l'Aigle, le Lion, le Rhinocéros et le Buffle ; les Blancs copient en miroir.
web-setup_choose = Choisir ce placement
web-setup_label = Disposition
web-setup_waiting = Les Noirs choisissent le placement.
web-say_last_move = Dernier coup (L)
web-say_status_chess = État (S)
web-offer_draw = Proposer la nulle
web-accept_draw = Accepter la nulle
web-resign = Abandonner
web-resign_confirm = Abandonner cette partie ?
web-promotion_heading = Promotion
web-promote_to = Promouvoir en { $piece }
web-cancel = Annuler
web-you_play = Vous jouez les { $color }.
web-to_move = Trait aux { $color }
web-settings_heading = Réglages
web-speech_mode = Lire les annonces avec la synthèse vocale du navigateur (au lieu de la zone annoncée par le lecteur d'écran)
web-sound_on = Sons pour les dés et pour votre tour
web-volume = Volume des sons
web-announce_channels = Annoncer ces canaux
web-sound_channels = Sons de ces canaux (quand les sons sont activés)
web-sound_game = Dés
web-sound_chat = Messages de discussion
web-help_heading = Aide
web-rules_heading = Règles
web-rules_at_table = Les règles complètes en vigueur s'affichent à une table (Ctrl+F1 là-bas). Voici les jeux de règles et les options du jeu choisi dans le formulaire.
web-help_common =
    F1 : cette aide. Ctrl+F1 : les règles du jeu de cette table.
    Tab et Maj+Tab passent d'une commande à l'autre ; chaque raccourci a aussi son bouton.
    Les raccourcis d'une lettre marchent quand le focus n'est pas dans un champ de texte.
    Échap ferme une boîte de dialogue.
web-help_signin = Tapez un nom et appuyez sur Entrée pour jouer en invité, ou utilisez un compte plus bas.
web-help_lobby =
    Le tableau des tables donne pour chacune le jeu, les options, les places et l'état, avec les boutons Rejoindre et Regarder.
    Le formulaire plus bas crée une table : jeu, règles et options ; chaque option dit ce qu'elle fait.
    F mène au panneau Amis : vos amis, qui est en ligne et à quelle table, et les messages privés.
web-help_table =
    La page a des sections : places, partie, discussion et historique, chacune sous un titre de niveau 2.
    Les événements sont lus au fil de l'eau ; « à vous de jouer » est annoncé en priorité.
    C va au champ de discussion, H à l'historique.
web-help_dice =
    1 à 6 (touches de la rangée des chiffres, en AZERTY aussi) : sélectionner le dé 1 à 6.
    Maj+1 à 6 : désélectionner le dé 1 à 6.
    Espace : dire quels dés sont sélectionnés et lesquels ne le sont pas (sur le bouton d'un dé, Espace et Entrée basculent ce dé).
    R ou Entrée : lancer (421 : les dés sélectionnés, les trois si aucun ; Zilch : mettre de côté les dés sélectionnés et relancer les autres).
    K : garder son jet et s'arrêter (421). B : mettre de côté les dés sélectionnés et encaisser (Zilch). A : sélectionner tous les dés qui marquent (Zilch).
    D : répéter le dernier jet. S : jetons ou scores de chacun. T : à qui le tour. I : l'état de la partie. L : les derniers événements.
web-help_chess =
    Les flèches parcourent les cases de l'échiquier ; Début et Fin vont aux bouts d'une rangée.
    Entrée ou Espace choisit la pièce de la case, puis sa destination ; les cases possibles sont annoncées.
    Échap annule le choix. On peut aussi taper un coup dans le champ prévu (M y mène, B ramène à l'échiquier).
    L : dire le dernier coup. T : à qui le tour. S : l'état de la partie.
    V : lire tout l'échiquier. G : vos coups possibles. P : les coups joués.
web-phase_draw = qui commence
web-phase_charge = charge
web-phase_decharge = décharge
web-phase_over = partie finie
web-playoff_draw = Chacun lance une fois pour savoir qui commence
web-playoff_worst = Rampo pour le plus faible jet
web-playoff_best = Rampo pour le plus fort jet
web-round_n = Manche { $n }
web-rolls_n =
    { $n ->
        [one] { $n } lancer
       *[other] { $n } lancers
    }
web-col_tokens = Jetons
web-col_this_turn = Ce tour
web-col_losses = Manches perdues
web-col_score = Score
web-col_entered = Entré
web-out = sorti
web-no_more_rolls = Vous ne pouvez pas lancer maintenant.
web-cannot_roll = Ce lancer n'est pas permis maintenant.
web-cannot_stop = Vous ne pouvez pas vous arrêter maintenant.
web-select_scoring = Sélectionnez d'abord les dés qui marquent à mettre de côté (touches 1 à 6).
web-cannot_bank = Vous ne pouvez pas encaisser : mettez de côté des dés qui marquent et atteignez le minimum.
web-final_round = Dernier tour
web-tiebreak = Départage
web-bank_needs =
    { $n ->
        [one] Pour encaisser il faut { $n } point ce tour
       *[other] Pour encaisser il faut { $n } points ce tour
    }
web-not_scoring = Ces dés ne peuvent pas être mis de côté ensemble : choisissez des dés qui marquent.
web-set_aside_roll = Mettre de côté les dés sélectionnés et relancer les autres
web-set_aside_bank = Mettre de côté les dés sélectionnés et encaisser
web-set_aside = De côté : { $dice }
web-loading = Chargement…
web-error_prefix = Erreur : { $message }
web-list_separator = {", "}
web-list_and = { $head } et { $last }

## Issue 13 (the look and layout): the legend, the read-outs, names in words.
web-die_unselected = non sélectionné
web-help_heading_game = Aide : { $game }
web-say_board = Échiquier (V)
web-say_moves = Coups possibles (G)
web-say_history = Coups joués (P)
web-say_last_events = Derniers événements (L)
web-last_events = Derniers : { $events }
web-theme_dark = Thème sombre
web-legend_heading = Les pièces et leur marche
web-move_k = un pas dans toute direction ; à son premier coup il peut sauter de deux cases (droit, en diagonale ou comme un Cavalier) sur une case vide.
web-move_q = toute distance en ligne droite ou en diagonale.
web-move_g = un pas en diagonale, puis plus loin le long de l'une ou l'autre ligne droite vers l'extérieur.
web-move_u = un pas en ligne droite, puis plus loin le long de l'une ou l'autre diagonale vers l'extérieur.
web-move_l = saute sur toute case à deux pas de Roi au plus.
web-move_f = saute comme un Cavalier, un Chameau ou une Girafe.
web-move_r = toute distance en ligne droite.
web-move_c = se déplace comme une Tour ; prend en sautant exactement une pièce sur sa ligne.
web-move_v = se déplace comme un Fou ; prend en sautant exactement une pièce sur sa diagonale.
web-move_b = toute distance en diagonale.
web-move_n = saute d'une case et deux (en L).
web-move_z = saute de deux cases et trois.
web-move_m = saute d'une case et trois.
web-move_e = un pas en diagonale, ou un saut à la deuxième case en diagonale.
web-move_w = un pas en ligne droite, ou un saut à la deuxième case en ligne droite.
web-move_i = un pas dans toute direction (il n'est pas royal) ; un double pas en avant depuis toute rangée, sans prendre.
web-move_p = un pas en avant, prend d'un pas en diagonale avant ; un double pas en avant depuis toute rangée.
web-bots_field = Robots à asseoir tout de suite
web-bot_seat_name = Robot { $n } ({ $level })
web-bots_hint = Ils prennent les dernières places ; on peut aussi en ajouter ou en retirer à la table.
web-bots_level_field = Niveau des robots
web-players_seated = { $n } places prises sur { $max }
web-seats_free = { $n } libre(s)
web-bot_level_names-expert = expert
web-bot_level_names-simple = simple
web-bot_level_names-random = au hasard
web-bot_level_names-expected = espérance
web-bot_level_names-optimal = optimal
web-bot_level_names-easy = facile
web-bot_level_names-medium = moyen
web-bot_level_names-casual = détendu
web-bot_level_names-hard = difficile
web-bot_level_names-instant = instantané
web-option_names-tokens = Jetons dans le pot
web-option_names-dry_charge = Charge sèche
web-option_names-zero_after_charge = Sans jeton après la charge
web-option_names-token_amount = Jetons pris par le perdant
web-option_names-nenette = Nénette
web-option_names-ties = Égalités
web-option_names-fewer_rolls_win = Moins de lancers gagne les égalités
web-option_names-first_player = Premier joueur
web-option_names-rounds_to_lose = Manches à perdre
web-option_names-fiche_order = Fiches
web-option_names-max_rolls = Lancers par tour
web-option_names-target = But
web-option_names-entry = Points pour entrer
web-option_names-minimum = Minimum pour encaisser
web-option_names-end = Fin de partie
web-option_names-hot_dice_compulsory = Dés brûlants : relance obligatoire
web-option_names-three_ones = Trois 1
web-option_names-kinds = Brelans et plus
web-option_names-straight = Suite
web-option_names-three_pairs = Trois paires
web-option_names-four_and_pair = Carré et paire
web-option_names-two_triplets = Deux brelans
web-option_names-nothing = Rien sur six dés
web-option_names-zilch_penalty = Pénalité après trois zilchs
web-option_names-repetition = Nulle par répétition
web-option_names-move_rule = Nulle après des coups sans prise
web-option_names-setup = Placement
web-option_names-seed_promotions = Promotions du texte d'origine
web-preset_names-salon = Règles du Salon
web-preset_names-bar = Règles de bar
web-preset_names-zilch5000 = Zilch 5000
web-preset_names-farkle10000 = Farkle courant
web-preset_names-farkle_boxed = Farkle en boîte
web-preset_names-zilch_online = Zilch en ligne
web-preset_names-farkle_social = Farkle des réseaux sociaux
web-preset_names-farkle_busche = Farkle (Busche et Neller)
web-preset_names-standard = Règles standard
web-preset_names-quick = Placement par défaut
web-preset_names-seed = Avec les promotions du texte d'origine

# Issue 14 : le panneau Amis du salon (js/friends.js).
web-friends_heading = Amis
web-friends_guest = Un invité n'a pas de liste d'amis ; créez un compte pour en garder une. Vous pouvez toujours écrire aux personnes en ligne.
web-friends_refresh = Actualiser la liste
web-friends_add_label = Nom à ajouter
web-friends_add = Ajouter un ami
web-friends_alerts = Annoncer les connexions et déconnexions de mes amis
web-friends_message = Écrire
web-friends_message_to = Envoyer un message privé à { $name }
web-friends_remove = Retirer
web-friends_remove_named = Retirer { $name } de vos amis
web-friends_go_to = Regarder la table { $id }, où se trouve { $name }
web-friends_private_heading = Messages privés
web-friends_to = Destinataire
web-friends_private_hint = Un ami absent recevra le message à sa prochaine connexion.
web-friends_no_private = Pas encore de message privé.
web-friends_name_needed = Tapez d'abord un nom.
web-friends_sent = Message envoyé à { $name }.
web-friends_kept = Le message est gardé jusqu'à sa prochaine connexion.
web-friends_private_to = À { $to } : { $text }
web-friends_kept_mark = gardé jusqu'à sa prochaine connexion
## classement : classements et profils (static/js/standing.js)
web-standing_button = Classements
web-standing_title = Classements et profils
web-leaderboard_heading = Classement
web-rating_family = Famille de jeu
web-leaderboard_caption = Classement { VOWEL($family) ->
        [yes] d'{ $family }
       *[no] de { $family }
    } : { $total ->
        [one] { $total } joueur classé
       *[other] { $total } joueurs classés
    }, du meilleur au dernier ; une cote est provisoire avant { $n } parties.
web-leaderboard_empty = Personne n'a encore de cote en { $family }.
web-standing_board_loaded = Classement { VOWEL($family) ->
        [yes] d'{ $family }
       *[no] de { $family }
    } : { $total ->
        [0] personne n'est encore classé.
        [one] un joueur classé.
       *[other] { $total } joueurs classés.
    }
web-standing_you = Votre cote en { $family } est de { $rating } : rang { $rank } sur { $total }, après { $games } parties.
web-standing_you_provisional = Votre cote en { $family } est de { $rating }, provisoire : rang { $rank } sur { $total }, après { $games ->
        [one] une partie
       *[other] { $games } parties
    }.
web-standing_you_none = Vous n'avez pas encore de cote en { $family } : jouez une partie classée.
web-col_rank = Rang
web-col_player = Joueur
web-col_rating = Cote
web-col_games = Parties
web-col_match = Partie
web-col_date = Date
web-col_place = Place
web-col_change = Écart
web-col_result = Résultat
web-col_played = Jouées
web-col_won = Gagnées
web-col_lost = Perdues
web-rating_provisional = { $rating } (provisoire)
web-view_profile_of = Profil { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }
web-more_players = Plus de joueurs
web-bots_fixed = Les robots jouent les parties classées avec une cote fixe : { $list }.
web-bot_rating = { $level } { $rating }
web-my_profile = Mon profil
web-profile_heading = Profil { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }
web-profile_hide = Masquer mon profil
web-profile_hide_hint = Un profil masqué n'est visible que de vous ; votre nom et votre cote restent dans les classements.
web-profile_now_hidden = Votre profil est masqué.
web-profile_now_visible = Votre profil est visible des joueurs connectés.
web-profile_loaded = Profil { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }.
web-profile_rating_sentence = { $family } : { $rating }, rang { $rank }, { $games ->
        [one] une partie.
       *[other] { $games } parties.
    }
web-profile_no_ratings = { $name } n'a pas encore de cote.
web-ratings_caption = Cotes { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }
web-history_caption = Historique de la cote, { $family } : la cote après chaque partie classée
web-last_games_caption = Dernières parties (chacune mène à son enregistrement)
web-stats_caption = Statistiques par jeu
web-game_number = Partie { $id }
web-game_of = Partie { $id }, { $game }
web-not_rated = non classée
web-result_won = gagnée
web-result_lost = perdue
web-result_draw = nulle
web-result_none = ni gagnée ni perdue
web-rated_table = Partie classée (compte quand chaque joueur a un compte)
web-rating_after_up = Votre cote en { $family } : { $rating }, en hausse de { $change }.
web-rating_after_down = Votre cote en { $family } : { $rating }, en baisse de { $change }.
web-rating_after_same = Votre cote en { $family } : { $rating }, inchangée.
web-table_rated = Partie classée (comptes seulement)
web-table_unrated = Partie non classée
web-table_rated_accounts = Classée si chaque joueur a un compte
web-help_standing =
    Le bouton Classements de la barre du haut ouvre cette page ; Retour au salon y ramène.
    Choisissez une famille de jeu : son classement est un tableau avec un titre et des en-têtes de colonnes, et votre rang est annoncé.
    Une cote est provisoire avant 10 parties classées. Les robots jouent les parties classées avec une cote fixe.
    Le nom d'un joueur ouvre son profil : cotes, historique de la cote, dernières parties et statistiques.
    Masquer mon profil : les autres ne le voient plus.

# Tournois suisses (static/js/tournaments.js).
web-tournaments_heading = Tournois
web-tournament_none = Aucun tournoi pour l’instant.
web-tournament_facts = { $game }, { $players } sur { $max } joueurs, ronde { $round } sur { $rounds }
web-tournament_state_registering = inscriptions ouvertes
web-tournament_state_running = en cours
web-tournament_state_finished = fini
web-tournament_state_cancelled = annulé
web-tournament_register = S’inscrire
web-tournament_register_named = S’inscrire à { $name }
web-tournament_registered = Vous êtes inscrit à { $name }.
web-tournament_unregister = Se désinscrire
web-tournament_unregister_named = Se désinscrire de { $name }
web-tournament_unregistered = Vous n’êtes plus inscrit à { $name }.
web-tournament_standings = Classement
web-tournament_standings_named = Classement de { $name }
web-tournament_standings_of = Classement de { $name }
web-tournament_standings_caption = { $name }{"\u00a0"}: classement après la ronde { $round } sur { $rounds }
web-tournament_no_standings = Aucune ronde n’a encore été jouée.
web-tournament_col_rank = Rang
web-tournament_col_player = Joueur
web-tournament_col_points = Points
web-tournament_col_buchholz = Buchholz
web-tournament_col_buchholz_cut1 = Buchholz moins 1
web-tournament_col_sb = Sonneborn-Berger
web-tournament_start = Commencer maintenant
web-tournament_create = Créer un tournoi
web-tournament_created = Le tournoi { $name } est ouvert aux inscriptions.
web-tournament_name = Nom
web-tournament_game = Jeu
web-tournament_rounds = Rondes
web-tournament_max = Joueurs au plus (il commence quand il est complet)
web-tournament_seats = Places à chaque table
web-tournament_go = Aller à votre table { $table } (ronde { $round })
