# The salon's notices (system messages), "your turn", bot names and level names.

salon-joined = { $name } sits down at seat { $seat }.
salon-left = { $name } leaves the table.
salon-watching = { $name } is watching.
salon-stopped_watching = { $name } stops watching.
salon-host = { $name } is now the host.
salon-bot_added = { $name } sits down at seat { $seat }.
salon-bot_removed = { $name } leaves seat { $seat }.
salon-kicked = { $name } was sent away by the host.
salon-takeover = { $name } is away; a bot plays for them.
salon-returned = { $name } is back and plays again.
salon-game_started = The game of { $game } begins: { $players }.
salon-game_over = The game is over. { $count ->
    [one] Winner
   *[other] Winners
}: { $winners }.
salon-game_draw = The game is over: a draw.
salon-game_abandoned = The game was abandoned.
salon-round_pause = End of the round. The next round begins in { $seconds } { $seconds ->
    [one] second
   *[other] seconds
}.
salon-round_hold = End of the round. The host holds the pause.
salon-held = The host holds the pause between rounds.
salon-released = The host no longer holds the pause.
salon-round_resume = The next round begins.
salon-clock_timeout = Time is up for { $name }; a bot plays this turn.
salon-clock_set = Turn clock: { $seconds } { $seconds ->
    [one] second
   *[other] seconds
}.
salon-clock_off = The turn clock is off.
salon-options_changed = The host changed the options: { $options }.
salon-nobody = nobody
salon-bot-name = Bot { $seat } ({ $level })
salon-bot-level = { $level ->
    [easy] easy
    [casual] casual
    [medium] medium
    [hard] hard
    [expert] expert
    [simple] simple
    [random] random
    [expected] expected score
    [optimal] optimal
   *[other] { $level }
}
salon-your-turn = Your turn.
salon-your-turn-clock = Your turn. { $seconds } { $seconds ->
    [one] second
   *[other] seconds
}.
salon-option-change = { $option }: { $value }
salon-option-preset = the rule set “{ $preset }”
salon-option-yes = yes
salon-option-no = no

# Swiss tournaments (salon/tournaments.py).
salon-tournament_table = Table of the tournament { $tournament }, round { $round }.
