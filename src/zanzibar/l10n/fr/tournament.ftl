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
