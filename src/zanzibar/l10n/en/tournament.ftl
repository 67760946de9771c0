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
