# Swiss tournaments (salon/tournaments.py): announcements to the registered players.

tournament-started = The tournament begins with { $count } players, { $rounds } { $rounds ->
    [one] round
   *[other] rounds
}.
tournament-round = Round { $round } of { $rounds } begins.
tournament-bye = You have the bye in round { $round }: one point without playing.
tournament-cancelled = The tournament is cancelled.
tournament-go-to-table = { $name }, round { $round }: your table is number { $table }, against { $opponents }.
tournament-finished = The tournament { $name } is over. { $count ->
    [one] Winner
   *[other] Winners
}: { $winners }.
tournament-result-bye = { $name } had the bye.
tournament-result-part = { $name } { $points } { $points ->
    [one] point
   *[other] points
}
tournament-result = Board { $board }: { $parts }.
tournament-standings = Standings after round { $round } of { $rounds }:
tournament-standing-line = { $rank }. { $name }, { $points } { $points ->
    [one] point
   *[other] points
}, Buchholz { $buchholz }.
salon-tournament_table = Table of the tournament { $tournament }, round { $round }.

error-there-no-tournament = there is no tournament { $id }
error-tournament-rounds-range = a tournament has 1 to { $most } rounds
error-tournament-players-range = a tournament takes 2 to { $most } players
error-tournament-rematch = with that many rounds some players would meet twice
error-tournament-within-week = a tournament starts within a week
error-tournament-name-text = the name is text
error-tournament-host-quota = you already host { $most } open tournaments, the most allowed
error-tournament-closed = registration is closed: the tournament has started
error-tournament-already = you are already registered
error-tournament-full = the tournament is full
error-tournament-not-registered = you are not registered
error-tournament-two = a tournament needs at least two players
