# Annonces du salon (messages système), « à vous », noms des robots et de leurs niveaux.

salon-joined = { $name } s'assoit à la place { $seat }.
salon-left = { $name } quitte la table.
salon-watching = { $name } regarde la partie.
salon-stopped_watching = { $name } ne regarde plus la partie.
salon-host = { $name } est maintenant l'hôte.
salon-bot_added = { $name } s'assoit à la place { $seat }.
salon-bot_removed = { $name } quitte la place { $seat }.
salon-kicked = { $name } a été renvoyé par l'hôte.
salon-takeover = { $name } est absent ; un robot joue à sa place.
salon-returned = { $name } est de retour et reprend la main.
salon-game_started = La partie { VOWEL($game) ->
    [yes] d'{ $game }
   *[no] de { $game }
} commence : { $players }.
salon-game_over = La partie est finie. { $count ->
    [one] Gagnant
   *[other] Gagnants
} : { $winners }.
salon-game_draw = La partie est finie : match nul.
salon-game_abandoned = La partie a été abandonnée.
salon-round_pause = Fin de la manche. La manche suivante commence dans { $seconds } { $seconds ->
    [one] seconde
   *[other] secondes
}.
salon-round_hold = Fin de la manche. L'hôte prolonge la pause.
salon-held = L'hôte prolonge la pause entre les manches.
salon-released = L'hôte ne prolonge plus la pause.
salon-round_resume = La manche suivante commence.
salon-clock_timeout = Temps écoulé pour { $name } ; un robot joue ce tour.
salon-clock_set = Pendule : { $seconds } { $seconds ->
    [one] seconde
   *[other] secondes
} par tour.
salon-clock_off = La pendule est arrêtée.
salon-options_changed = L'hôte a changé les options : { $options }.
salon-nobody = personne
salon-bot-name = Robot { $seat } ({ $level })
salon-bot-level = { $level ->
    [easy] facile
    [casual] détendu
    [medium] moyen
    [hard] difficile
    [expert] expert
    [simple] simple
    [random] au hasard
    [expected] espérance de points
    [optimal] optimal
   *[other] { $level }
}
salon-your-turn = À vous de jouer.
salon-your-turn-clock = À vous de jouer. { $seconds } { $seconds ->
    [one] seconde
   *[other] secondes
}.
salon-option-change = { $option } : { $value }
salon-option-preset = le jeu de règles « { $preset } »
salon-option-yes = oui
salon-option-no = non

# Tournois suisses (salon/tournaments.py).
salon-tournament_table = Table du tournoi { $tournament }, ronde { $round }.
