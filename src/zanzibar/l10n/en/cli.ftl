# The terminal frame (cli/frame) and the game plugins (cli/games). Ids start with "cli-".

## Key names

cli-key-shift = Shift
cli-key-ctrl = Ctrl
cli-key-alt = Alt
cli-key-space = Space
cli-key-enter = Enter
cli-key-escape = Escape
cli-key-backspace = Backspace
cli-key-tab = Tab
cli-key-up = Up arrow
cli-key-down = Down arrow
cli-key-left = Left arrow
cli-key-right = Right arrow
cli-key-home = Home
cli-key-end = End
cli-key-insert = Insert
cli-key-delete = Delete
cli-key-pageup = Page up
cli-key-pagedown = Page down
cli-key-unknown = this key
cli-keys-digits = 1 to 6
cli-keys-shift-digits = Shift+1 to 6
cli-keys-or = { $count ->
    [one] { $last }
   *[other] { $first } or { $last }
}
cli-key-does = { $keys } { $what }
cli-list-separator = {"; "}
cli-list-end = { $items }.

## The frame

cli-key-nothing = Key { $key } does nothing here; F1 for help.
cli-not-your-turn = It is not your turn.
cli-confirm-quit = Press Y to quit, any other key to go on.
cli-stay = You stay in the game.
cli-bye = You left the game.
cli-input-ended = Input ended before the game did.
cli-over = The game is over.
cli-unknown-command = Unknown command “{ $command }”. Type help for the list.
cli-line-prompt = Command:{" "}
cli-line-cancelled = Command cancelled.
cli-layout-switched = AZERTY keyboard detected: the digit keys now work without Shift.
cli-intro = { $game }: { $players }. Press F1 for help.
cli-intro-seed = Game number { $seed }: the same number replays the same game.

## Help (F1): at most six short lines

cli-help-game-keys = Keys: { $keys }
cli-help-frame-keys = Always: { $keys }
cli-help-commands = Typed commands: press the colon, then type help for the list.
cli-help-layout-qwerty = Keyboard: QWERTY (an AZERTY one is detected at its 1 key without Shift).
cli-help-layout-azerty = Keyboard: AZERTY, digit keys without Shift.
cli-help-help = help
cli-help-rules = the rules
cli-help-scores = scores
cli-help-turn = whose turn
cli-help-status = state of play
cli-help-line = a command (help lists them)
cli-help-quit = quit
cli-commands-intro = Typed commands (the French words work too):
cli-command-line = { $command }: { $what }

## Command words (value: the word; .also: more words; .help: what it does)

cli-cmd-help = help
    .also = ?
    .help = keys and commands
cli-cmd-rules = rules
    .help = the rules in force
cli-cmd-scores = scores
    .help = everyone's score
cli-cmd-turn = turn
    .help = whose turn it is
cli-cmd-status = status
    .help = the state of play
cli-cmd-quit = quit
    .also = exit
    .help = leave the game
cli-cmd-roll = roll
    .help = roll the chosen dice (all if none)
cli-cmd-stop = stop
    .help = keep your throw and end your turn
cli-cmd-select = select
    .help = choose die N
cli-cmd-unselect = unselect
    .help = take die N out of the choice
cli-cmd-selection = selection
    .also = sel
    .help = say the dice chosen
cli-cmd-dice = dice
    .help = repeat the last roll
cli-cmd-bank = bank
    .help = set the choice aside and bank the turn
cli-cmd-keep = keep
    .help = choose exactly these dice
cli-cmd-all = all
    .help = choose the best-scoring dice

## Dice choice (421 and Zilch)

cli-dice-no-die = There is no die { $n }: the dice go from 1 to { $count }.
cli-dice-not-a-number = “{ $word }” is not a die number from 1 to { $count }.

## 421

cli-421-help-select = choose a die to reroll
cli-421-help-unselect = take it back
cli-421-help-selection = the choice
cli-421-help-roll = roll
cli-421-help-stop = keep your throw
cli-421-help-dice = last roll
cli-421-not-yours = It is not your turn: these dice are not yours to choose.
cli-421-no-dice-yet = Roll first: there are no dice to choose yet.
cli-421-no-roll = Nobody has rolled yet.
cli-421-roll-first = Roll at least once before stopping.
cli-421-none-selected = No die chosen: rolling rerolls all three.
cli-421-selected = Reroll { $count ->
    [3] all three
   *[other] { $rerolled }
}; keep { $kept_count ->
    [0] nothing
   *[other] { $kept }
}.

## Zilch

cli-zilch-help-select = choose a die
cli-zilch-help-unselect = take it back
cli-zilch-help-selection = the choice
cli-zilch-help-all = the best
cli-zilch-help-roll = roll
cli-zilch-help-bank = bank
cli-zilch-help-dice = last roll
cli-zilch-nothing-to-choose = There are no dice to choose from now.
cli-zilch-no-roll = Nobody has rolled yet.
cli-zilch-last-roll = Last roll: { $dice }.
cli-zilch-none-selected = No die chosen.
cli-zilch-selected = { $count ->
    [one] Chosen: { $dice } (die { $positions }), worth { $value }.
   *[other] Chosen: { $dice } (dice { $positions }), worth { $value }.
}
cli-zilch-selected-bad = { $count ->
    [one] Chosen: { $dice } (die { $positions }); it does not score.
   *[other] Chosen: { $dice } (dice { $positions }); they do not all score.
}
cli-help-commands-typed = Type a move or a command, then Enter; type help for the list.

## Chess

cli-chess-help-moves = Moves: { $examples }, then Enter; a square alone moves a Pawn there, or reads it.
cli-chess-your-move = Your move, { $colour }.
cli-chess-white = White
cli-chess-black = Black
cli-chess-empty-one = { $square } empty
cli-chess-empty-run = { $first } to { $last } empty
cli-chess-rank = Rank { $rank }: { $content }.
cli-chess-file = File { $file }: { $content }.
cli-chess-no-rank = There is no rank { $rank }: ranks go from 1 to { $last }.
cli-chess-no-file = There is no file { $file }: files go from a to { $last }.
cli-chess-choose = Choose the arrangement of your central pieces: type its number, 0 to { $last }.
cli-chess-arrangement = { $number }: { $placements }.
cli-chess-piece-on = { $piece } on { $square }
cli-chess-not-setup = The arrangement is already chosen.
cli-chess-in-setup = First choose the arrangement: type a number, or arrangements to hear them.
cli-chess-last = Last move: { $move }.
cli-chess-no-last = No move played yet.
cli-chess-stopped = Stopped after { $moves } moves, as asked.
cli-chess-letter-king = K
cli-chess-letter-queen = Q
cli-chess-letter-rook = R
cli-chess-letter-bishop = B
cli-chess-letter-knight = N
cli-chess-letter-pawn = P
cli-chess-letter-buffalo = F
cli-chess-letter-cannon = C
cli-chess-letter-eagle = G
cli-chess-letter-rhinoceros = U
cli-chess-letter-lion = L
cli-chess-letter-crocodile = V
cli-chess-letter-giraffe = Z
cli-chess-letter-camel = M
cli-chess-letter-elephant = E
cli-chess-letter-machine = W
cli-chess-letter-prince = I
cli-cmd-board = board
    .help = the whole board, rank by rank, from your side
cli-cmd-rank = rank
    .help = one rank
cli-cmd-file = file
    .help = one file
cli-cmd-square = square
    .help = one square (or ? then the square)
cli-cmd-moves = moves
    .help = your legal moves
cli-cmd-arrangements = arrangements
    .help = the setup arrangements, numbered
cli-cmd-setup = setup
    .help = choose an arrangement (or just its number)
cli-cmd-history = history
    .help = the moves so far
cli-cmd-last = last
    .help = the last move
cli-cmd-fen = fen
    .help = the position as FEN
cli-cmd-resign = resign
    .help = resign the game
cli-cmd-draw = draw
    .help = offer a draw, or accept the one offered
cli-you = You
cli-player = Player { $n }

## Online play

cli-online-created = Table { $table } is open at { $server }. Others join with: zanzibar play { $game } --server { $server } --table { $table }{ $invite }
cli-online-waiting = { $count ->
    [one] Waiting for one more player to join; the game starts when the table is full.
   *[other] Waiting for { $count } more players to join; the game starts when the table is full.
}
cli-online-joined = You sit at seat { $seat } of table { $table }.
cli-online-left = You left the table.
cli-online-guest = Player

## Reviewing what was said (Up and Down arrows)

cli-keys-arrows = Up or Down arrow
cli-help-review = review
cli-review-empty = Nothing has been said yet.

## Replays

cli-replay-end = End of the replay.
# The one line of an error, with where to look for help.
cli-error-line = zanzibar: { $message } (see '{ $hint }')
cli-parser-error = { $prog }: { $message } (see '{ $hint }')

## zanzibar ratings rebuild
cli-ratings-rebuilt = Ratings rebuilt from { $games ->
        [one] one rated game
       *[other] { $games } rated games
    }: { $players ->
        [one] one rating
       *[other] { $players } ratings
    }, { $history } history entries ({ $pending } newly rated).

## online play: one's standing (cli/standing.py)
cli-help-rating = your rating and rank in this game's family
cli-cmd-rating = rating
    .help = your rating and rank in this game's family
cli-cmd-leaderboard = leaderboard
    .also = top
    .help = the top five of this game's family, then you
cli-standing-unrated = This table's game counts for no rating: its rules match no rated family.
cli-standing-none = You have no { $family } rating yet: play a rated game (an account, no guest at the table).
cli-standing-you = Your { $family } rating is { $rating }{ $provisional ->
        [yes] , provisional
       *[no] {""}
    }: rank { $rank } of { $total }, after { $games ->
        [one] one game
       *[other] { $games } games
    }.
cli-standing-top = Leaderboard of { $family }, { $total ->
        [one] one rated player
       *[other] { $total } rated players
    }:
cli-standing-line = { $rank }. { $name }, { $rating }{ $provisional ->
        [yes] {" "}(provisional)
       *[no] {""}
    }, { $games ->
        [one] one game
       *[other] { $games } games
    }.
cli-cmd-profile = profile
    .help = a player's profile (yours without a name): ratings, last games, statistics
cli-standing-profile = Profile of { $name }.
cli-standing-profile-unrated = { $name } has no rating yet.
cli-standing-profile-rating = { $family }: { $rating }{ $provisional ->
        [yes] , provisional
       *[no] {""}
    }, rank { $rank }, { $games ->
        [one] one game
       *[other] { $games } games
    }, last change { $change }.
cli-standing-profile-game = Game { $id } ({ $game }): { $result ->
        [won] won
        [lost] lost
        [draw] draw
       *[none] neither won nor lost
    }, { $change ->
        [none] not rated
       *[other] rating { $change }
    }. Replay: zanzibar replay { $id }
cli-standing-profile-stats = { $game }: { $played } played, { $won } won, { $lost } lost.
# Swiss tournaments in online play (cli/online.py).
cli-online-no-tournaments = No tournament at this salon yet.
cli-online-tournament-line = Tournament { $id }: { $name }, { $game }, { $players } of { $most } players, round { $round } of { $rounds }, { $state ->
    [registering] registration open: zanzibar play GAME --server URL --tournament { $id }
    [running] being played
    [finished] finished
   *[other] cancelled
}.
cli-online-tournament-registered = You are registered for { $name }; your table will be given at each round.
cli-online-tournament-closed = Registration for { $name } is closed.
cli-online-tournament-no-standings = No round of { $name } has been played yet.
