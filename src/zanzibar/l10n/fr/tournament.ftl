# Tournois suisses (salon/tournaments.py) : annonces aux joueurs inscrits.

tournament-started = Le tournoi commence avec { $count } joueurs, en { $rounds } { $rounds ->
    [one] ronde
   *[other] rondes
}.
tournament-round = La ronde { $round } sur { $rounds } commence.
tournament-bye = Vous êtes exempt à la ronde { $round } : un point sans jouer.
tournament-cancelled = Le tournoi est annulé.
tournament-go-to-table = { $name }, ronde { $round } : votre table est la numéro { $table }, contre { $opponents }.
tournament-finished = Le tournoi { $name } est fini. { $count ->
    [one] Gagnant
   *[other] Gagnants
} : { $winners }.
tournament-result-bye = { $name } était exempt.
tournament-result-part = { $name } { $points } { $points ->
    [one] point
   *[other] points
}
tournament-result = Table { $board } : { $parts }.
tournament-standings = Classement après la ronde { $round } sur { $rounds } :
tournament-standing-line = { $rank }. { $name }, { $points } { $points ->
    [one] point
   *[other] points
}, Buchholz { $buchholz }.
salon-tournament_table = Table du tournoi { $tournament }, ronde { $round }.

error-there-no-tournament = il n’y a pas de tournoi { $id }
error-tournament-rounds-range = un tournoi a de 1 à { $most } rondes
error-tournament-players-range = un tournoi accueille de 2 à { $most } joueurs
error-tournament-rematch = avec autant de rondes, des joueurs se rencontreraient deux fois
error-tournament-within-week = un tournoi commence dans la semaine
error-tournament-name-text = le nom est un texte
error-tournament-host-quota = vous organisez déjà { $most } tournois ouverts, le maximum permis
error-tournament-closed = les inscriptions sont closes : le tournoi a commencé
error-tournament-already = vous êtes déjà inscrit
error-tournament-full = le tournoi est complet
error-tournament-not-registered = vous n’êtes pas inscrit
error-tournament-two = un tournoi demande au moins deux joueurs
