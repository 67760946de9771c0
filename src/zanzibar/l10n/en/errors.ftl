# Refusals: the engine's, the games' and the salon's. The English text is also how
# a refusal raised as plain English is matched back to its message (l10n/legacy.py).

error-too-many-chance-steps-in = too many chance steps in a row: rules bug
error-bot-game-did-finish = bot game did not finish
error-played-by-players = { $name } is played by { $low } to { $high } players, not { $seats }
error-option = option '{ $name }': { $why }
error-unknown-option-known = unknown option '{ $name }' (known: { $known })
error-unknown-preset-known = unknown preset '{ $name }' (known: { $known })
error-form-name-value = '{ $item }' is not of the form NAME=VALUE
error-game-over = the game is over
error-game-waiting-for-dice-for = the game is waiting for dice, not for a player
error-it-seat-turn-seat = it is seat { $to_act }'s turn, not seat { $seat }'s
error-unknown-game-games = unknown game '{ $name }' (games: { $games })
error-game-available = game '{ $name }' is not available
error-unknown-bot-level-levels = unknown bot level '{ $name }' (levels: { $known })
error-no-legal-move-game-over = no legal move: the game is over
error-this-variant-has-no-setup = this variant has no setup choice
error-this-bot-was-made-without = this bot was made without the game's rules
error-no-setup-choice-open = no setup choice is open
error-legal-move-here = '{ $text }' is not a legal move here
error-no-move-given = no move given
error-ambiguous = '{ $text }' is ambiguous: { $options }
error-that-move-legal-here = that move is not legal here
error-possible-now-move-resign-or = '{ $kind }' is not possible now (move, resign or draw)
error-chess-has-no-dice = chess has no dice
error-unknown-action-type-move-setup = unknown action type '{ $kind }' (move, setup, resign, draw)
error-pieces-are-all-placed-yet = the pieces are not all placed yet
error-action-object-with-type = an action is an object with a "type"
error-first-choose-arrangement-setup-n = first choose the arrangement (setup N or setup KQGL UF)
error-you-have-already-offered-draw = you have already offered a draw
error-move-action-needs-move-f2h4 = a move action needs "move": "f2h4" or "Zxe4"
error-valid-layout-place = '{ $text }' is not a valid layout (place { $groups })
error-arrangement-must-0 = arrangement must be 0 to { $options }, not { $index }
error-arrangement-number-or-layout-like = an arrangement is a number or a layout like 'KQGL UF'
error-setup-square-empty-in-base = setup square { $target } is not empty in the base position
error-unknown-421-bot-level-levels = unknown 421 bot level '{ $level }' (levels: { $levels })
error-421-played-by-2-10 = 421 is played by 2 to 10 players, not { $seats }
error-game-not-over = the game is not over
error-nobody-may-act-now = nobody may act now
error-421-action = not a 421 action: '{ $action }'
error-reroll-one-two-or-three = reroll one, two or three of the dice 1, 2, 3
error-first-roll-throws-all-three = the first roll throws all three dice
error-no-rolls-left-limit = no rolls left: the limit is { $limit }
error-expected-dice-from-1-6 = expected { $count } dice from 1 to 6, got '{ $outcome }'
error-roll-at-least-once-before = roll at least once before stopping
error-no-dice-are-expected-now = no dice are expected now
error-action-json-object = an action is a JSON object, not '{ $obj }'
error-unknown-action-type-expected-roll = unknown action type '{ $kind }' (expected 'roll' or 'stop')
error-dice-must-non-empty-list = 'dice' must be a non-empty list of die positions 0, 1, 2
error-die-position-0-1-or = die position '{ $die }' is not 0, 1 or 2
error-die-position-named-twice = die position { $die } is named twice
error-unknown-zilch-bot-level-levels = unknown Zilch bot level '{ $level }' (levels: { $levels })
error-there-are-no-dice-set = there are no dice to set aside now
error-set-aside-at-least-one = set aside at least one scoring die
error-die-cannot-set-aside-twice = a die cannot be set aside twice
error-do-all-score-only-scoring = { $chosen } do not all score: only scoring dice may be set aside
error-zilch-action = not a Zilch action: '{ $action }'
error-no-action-possible-now = no action is possible now
error-no-dice-are-awaited = no dice are awaited
error-there-no-die-dice-were = there is no die { $i }: { $roll } dice were rolled
error-turn-starts-by-rolling-six = a turn starts by rolling the six dice
error-two-player-solver-does-handle = the two-player solver does not handle the three-zilch penalty (its state would need each player's zilch streak)
error-action-object-like-type-roll = an action is an object like {"{"}'type': 'roll'{"}"}, not '{ $obj }'
error-action-type-must-roll-or = action type must be 'roll' or 'bank', not '{ $kind }'
error-keep-must-list-die-positions = 'keep' must be a list of die positions, not '{ $keep }'
error-unknown-action-fields = unknown action fields: { $extra }
error-name-must-text = a name must be text
error-name-needs-1-characters = a name needs 1 to { $name_max } characters
error-name-may-hold-control-characters = a name may not hold control characters
error-language-must-one = language must be one of { $languages }
error-password-needs-characters = a password needs { $password_min } to { $password_max } characters
error-wrong-name-or-password = wrong name or password
error-name-taken = the name { $clean } is taken
error-account-could-stored = the account could not be stored
error-session-could-stored = the session could not be stored
error-chat-line-must-text = a chat line must be text
error-chat-line-at-most-characters = a chat line is at most { $max_length } characters
error-chat-line-cannot-empty = a chat line cannot be empty
error-at-most-messages-every-seconds = at most { $count } messages every { $window } seconds; wait a moment
error-must-whole-number = { $key } must be a whole number
error-must-true-or-false = { $key } must be true or false
error-since-cannot-negative = since cannot be negative
error-required = { $key } is required
error-say-hello-with-your-session = say hello with your session token first
error-there-no-table = there is no table { $table_id }
error-unknown-or-expired-session-token = unknown or expired session token
error-this-connection-already-belongs-another = this connection already belongs to another user
error-only-host-may-do-that = only the host may do that
error-while-game-running = not while a game is running
error-host-sent-you-away-from = the host sent you away from this table
error-preset-must-name = the preset must be a name
error-options-must-object-name-value = options must be an object of name: value
error-say-which-game-table-for = say which game the table is for
error-game-action-needs-action = game.action needs an action
error-say-what-ask-about = say what to ask about
error-join-or-watch-table-first = join or watch the table first
error-no-game-has-been-played = no game has been played at this table yet
error-say-whom-message-for = say whom the message is for
error-nobody-called = nobody is called { $to }
error-channel-one = channel is one of { $channels }
error-message-must-json-object = a message must be a JSON object
error-this-salon-speaks-protocol = this salon speaks protocol { $protocol }
error-message-needs-type = a message needs a type
error-unknown-message-type = unknown message type '{ $kind }'
error-change-could-stored-nothing-was = the change could not be stored; nothing was changed
error-this-table-private-invitation-code = this table is private: an invitation code is needed
error-option-names-are-text = option names are text
error-you-are-at-this-table = you are not at this table
error-people-or-bots-sit-in = people or bots sit in the seats to remove
error-bot-levels = bot levels: { $levels }
error-no-bot-sits-at-seat = no bot sits at seat { $seat }
error-you-cannot-send-yourself-away = you cannot send yourself away
error-that-user-at-this-table = that user is not at this table
error-new-host-must-another-player = the new host must be another player seated here
error-turn-clock-runs-seconds = a turn clock runs { $clock_min } to { $clock_max } seconds
error-needs-players-are-seated = { $name } needs { $low } to { $high } players; { $players } are seated
error-you-do-sit-at-this = you do not sit at this table
error-you-may-only-act-for = you may only act for your own seat
error-no-game-running-at-this = no game is running at this table
error-game-paused-between-rounds = the game is paused between rounds
error-you-left-this-game-join = you left this game; join the table again to play
error-game-has-moved-on-log = the game has moved on: { $log } log entries, not { $seq }
error-it-your-turn = it is not your turn
error-that-action-could-applied = that action could not be applied
error-no-answer-about = no answer about '{ $topic }'
error-join-or-watch-table-talk = join or watch the table to talk there
error-game-has-started-watch-it = the game has started: watch it, or wait for the next one
error-table-full = the table is full
error-there-no-seat = there is no seat { $wanted }
error-seat-taken = seat { $wanted } is taken
error-that-action-this-game = that is not an action of this game
error-salon-failed-nothing-was-changed = the salon failed; nothing was changed
error-true-or-false = '{ $value }' is not true or false
error-whole-number = '{ $value }' is not a whole number
error-below-minimum = { $value } is below the minimum { $minimum }
error-above-maximum = { $value } is above the maximum { $maximum }
error-option-not-one-of = '{ $value }' is not one of: { $allowed }
error-square = '{ $text }' is not a square
error-on-x-board = { $text } is not on the { $files }x{ $ranks } board
error-banking-needs-at-least-points = banking needs at least { $needed } points in the turn; you would have { $total }
error-banking-needs-at-least-points-2 = banking needs at least { $needed } points in the turn for a first bank; you would have { $total }
error-after-hot-dice-you-must = after hot dice you must roll all six dice again

## Issue 10's refusals: names, free text, quotas, rate limits, sessions, transport.

# What a free text is ("{ $what } must be text"): matched inside a refusal, said alone.
error-what-name = a name
error-what-chat-line = a chat line
error-text-not-text = { $what } must be text
error-text-too-long = { $what } is at most { $max } characters
error-text-surrogate = { $what } must be valid Unicode text (a lone surrogate was sent)
error-text-controls = { $what } may not hold control, bidi or invisible formatting characters
error-text-empty = { $what } cannot be empty or only invisible characters
error-name-letter = a name needs at least one letter or digit
error-name-reserved = the name { $name } is reserved for the salon; choose another
error-sign-in-busy = the salon is busy signing people in; try again in a few seconds
error-name-exhausted = too many people are called { $base }; choose another name
error-limits-unavailable = the salon cannot check its limits just now; try again in a few seconds
error-guest-no-password = a guest has no password; register an account instead
error-password-wrong = the current password is wrong
error-session-expired = your session has expired; sign in again
error-session-unknown = unknown, expired or signed-out session; sign in again
error-connections-per-account = at most { $n } connections per account; close another tab or window first
error-connections-per-address = at most { $n } connections from one address; close one first
error-lobby-limit = limit is a number from 1 to { $max }
error-lobby-cursor = cursor cannot be negative
error-tables-hosted = you already host { $n } tables, the most allowed; leave one before opening another
error-tables-per-address = { $n } tables are already open from your address, the most allowed; close one before opening another
error-message-surrogate = the message holds text that is not valid Unicode (a lone surrogate)
error-message-not-stored = the message could not be stored; nothing was sent
# Rate limits: what was counted, the limits in force, the wait.
error-many-new-accounts = new accounts
error-many-sign-in-attempts = sign-in attempts
error-many-messages = messages
error-many-new-tables = new tables
error-many-tables = tables
error-rate = { $count ->
    [one] { $n } per { $unit ->
        [second] second
        [minute] minute
        [hour] hour
       *[day] day
    }
   *[other] { $n } per { $count } { $unit ->
        [second] seconds
        [minute] minutes
        [hour] hours
       *[day] days
    }
}
error-rate-limited = too many { $what }: at most { $limits }; try again in { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}
error-rate-limited-wait = too many { $what }: at most { $limits }; wait a moment
# The WebSocket protocol's refusals of a frame.
error-frame-too-large = message of { $size } bytes; the limit is { $limit }
error-frame-not-json = the message is not valid JSON
error-frame-not-object = the message must be a JSON object
error-frame-version = protocol version { $version } is not supported (use 1)
error-frame-invalid = invalid { $kind }: { $why }
# HTTP refusals.
error-body-not-json = the body is not valid JSON
error-body-invalid = the body is not as expected at { $where }: { $why }
error-bearer-missing = send your session token as a bearer token
error-bearer-form = send the session token as 'Bearer <token>'
error-query-whole-number = { $name } must be a whole number
error-query-limit-min = limit must be at least 1
error-no-game = no game { $id }
error-no-player = no player named '{ $name }'
error-request-too-large = The request is too large: { $limit } bytes at most.
error-request-body-timeout = The request took too long to arrive: more than { $seconds } seconds.
error-request-bad-length = The request's Content-Length header is not one valid number.
error-no-hello = No hello within { $seconds } seconds: the connection is closed.
error-headers-timeout = the request headers did not arrive within { $seconds } s
error-headers-too-large = the request headers are larger than { $max } bytes
error-internal = internal error; nothing was changed

# The command line's own refusals (zanzibar play, replay, sim): matched from their English text.
error-cli-unreachable = cannot reach { $server }: { $reason }
error-cli-connection-lost = the connection to the salon is lost
error-cli-no-answer = the server did not answer in time
error-cli-idle = nothing happened for too long; leaving
error-cli-keeps-dropping = the connection keeps dropping
error-cli-not-sent = the action could not be sent
error-cli-no-view = no fresh view of the game after reconnecting
error-cli-no-table = the server did not describe table { $table }
error-cli-not-filled = the table did not fill up
error-cli-bot-level = unknown bot level '{ $level }' (levels: { $levels })
error-cli-bots-range = --bots must be between { $low } and { $high } for { $name }
error-cli-script = cannot read the script { $path }: { $reason }
error-cli-no-game-on = there is no game { $game } on { $server }
error-cli-server-answered = { $server } answered { $status }: { $body }
error-cli-database = cannot read the salon's database ({ $kind }); check --db or --data-dir
error-cli-no-game-here = there is no game { $game } in this database
error-cli-no-database = no salon database at { $path }
error-cli-throw = '{ $text }' is not a throw of three dice, e.g. 4-2-1
error-cli-replay = this is a replay
error-cli-driver = the database driver '{ $driver }' is not installed for { $url } (PostgreSQL needs the 'postgres' extra: pip install 'zanzibar[postgres]')
error-cli-players-range = --players must be between { $low } and { $high }
error-cli-games-min = --games must be at least { $n }
error-cli-two-players = the win-probability solver handles two players; use --turn for any number
error-cli-dice-range = --dice must be between { $low } and { $high }

## Issue 14: friends lists and private messages kept for someone away.
error-friends-name = write the name of an account
error-friends-guest = guests have no friends list; register an account to keep one
error-friends-self = you cannot add yourself to your friends list
error-friends-not-account = { $name } is a guest; only accounts can be in a friends list
error-friends-already = { $name } is already in your friends list
error-friends-not-friend = { $name } is not in your friends list
error-friends-full = a friends list holds at most { $max } names; remove one first
error-friends-not-stored = the friends list could not be stored; nothing was changed
error-pm-guest-gone = { $name } was a guest and has left; messages are kept only for accounts
error-pm-guest-sender = { $name } is away and a guest cannot leave messages; register an account to leave one
error-pm-mailbox-full = { $max ->
    [one] { $max } message already waits
   *[other] { $max } messages already wait
} for { $name }; try again once { $max ->
    [one] it has
   *[other] they have
} been read
error-pm-pair-full = you already left { $max ->
    [one] { $max } message
   *[other] { $max } messages
} waiting for { $name }; wait until { $max ->
    [one] it has
   *[other] they have
} been read
error-many-friends-list-changes = changes to the friends list
## standing (ratings, leaderboards, profiles)
error-rated-flag = rated is true or false
error-rated-table-guest = this table is rated: guests may not play at it; create an account to play rated games
error-no-family = no rating family '{ $family }' (families: { $known })
error-page = cursor is a count of players from 0 and limit a number from 1 to { $largest }
error-no-profile = no profile of '{ $name }'
error-profile-sign-in = sign in to see players' profiles
error-profile-guest = a guest has no profile; create an account
error-hidden-flag = send {"{"}"hidden": true{"}"} or {"{"}"hidden": false{"}"}
error-cli-standing-unreachable = the salon did not answer about ratings: { $why }

# the table actors (salon/actor.py, salon/router.py)
error-table-moved = this table is now run by another process; nothing was changed
error-table-unreachable = the node running this table does not answer; try again
error-no-such-table = there is no such table
error-table-elsewhere = table { $table } is run by node { $node }, which this node cannot reach; nothing was changed
error-table-not-claimed = the new table could not be claimed; nothing was changed
# Swiss tournaments' refusals (salon/tournaments.py).
error-there-no-tournament = there is no tournament { $id }
error-tournament-rounds-range = a tournament has 1 to { $most } rounds
error-tournament-players-range = a tournament takes 2 to { $most } players
error-tournament-rematch = with that many rounds some players would meet twice
error-tournament-within-week = a tournament starts within a week
error-tournament-name-text = the name is text
error-tournament-host-quota = you already host { $most } open tournaments, the most allowed
error-tournament-closed = registration is closed: the tournament has started
error-tournament-entry-race = another entry was made at once: try again
error-tournament-already = you are already registered
error-tournament-full = the tournament is full
error-tournament-not-registered = you are not registered
error-tournament-two = a tournament needs at least two players
error-tournament-other-game = tournament { $id } is a game of { $game }, not { $name }
