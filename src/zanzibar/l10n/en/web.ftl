### The web client's own words (static/js/i18n.js reads them as t("key") -> web-key).
### A message on several lines is a list of lines (help texts).

web-app_name = Zanzibar
web-skip_to_main = Skip to main content
web-language = Language
web-settings = Settings
web-help = Help (F1)
web-rules = Rules (Ctrl+F1)
web-close = Close
web-sign_out = Sign out
web-signed_in_as = Signed in as { $name }
web-guest = guest
web-signin_title = Zanzibar: sign in
web-signin_intro = An accessible game salon: 421 / Zanzibar, Zilch 5000 and Zanzibar-S chess, against people or bots.
web-guest_heading = Play as a guest
web-account_heading = Use an account
web-name = Name
web-password = Password
web-play_as_guest = Play as a guest
web-log_in = Log in
web-register = Create the account
web-signing_in = Signing in…
web-connecting = Connecting…
web-connected = Connected.
web-disconnected = Connection lost, reconnecting…
web-reconnected = Reconnected.
web-conn_status = Connection
web-lobby_title = Lobby
web-tables_heading = Tables
web-my_tables = Your tables
web-back_to_table = Back to table { $id }
web-tables_caption = Open tables
web-no_tables = No table is open. Create one below.
web-more_tables = More tables
web-more_tables_shown = { $shown } of { $total } tables shown.
web-col_table = Table
web-col_game = Game
web-col_options = Options
web-col_seats = Seats
web-col_state = State
web-col_spectators = Spectators
web-col_actions = Actions
web-join = Join
web-join_table = Join table { $id }
web-watch = Watch
web-watch_table = Watch table { $id }
web-free_seat = free seat
web-bot_named = bot ({ $level })
web-offline = offline
web-away_bot = away: a bot plays ({ $level })
web-bot_badge = bot
web-state_waiting = waiting
web-state_playing = playing
web-state_paused = paused
web-state_finished = finished
web-create_heading = Create a table
web-game = Game
web-preset = Rule set
web-custom_preset = custom
web-seats = Seats
web-seats_hint = { $min } to { $max } players
web-private_table = Private table (reached only with its invitation link)
web-create = Create the table
web-options_heading = Options
web-default_value = default: { $value }
web-range = { $min } to { $max }
web-yes = yes
web-no = no
web-invite_heading = Join with an invitation
web-invite_link = Invitation link
web-invite_hint = Paste a link such as …#table=12&invite=ABCD
web-invite_bad = That is not an invitation link.
web-go = Go
web-table_title = Table { $id }: { $game }
web-seats_heading = Seats
web-seat_n = Seat { $n }
web-you_mark = (you)
web-host_mark = host
web-empty_seat = empty
web-sit_here = Sit here
web-sit_in_seat = Sit in seat { $n }
web-host_heading = Host controls
web-start = Start the game
web-add_bot = Add a bot
web-bot_level = Bot level
web-remove_bot = Remove the bot
web-remove_bot_seat = Remove the bot from seat { $n }
web-kick = Kick
web-kick_user = Kick { $name }
web-make_host = Make host
web-make_host_user = Make { $name } host
web-hold = Hold the pause between rounds
web-save_options = Change the options
web-leave = Leave the table
web-back_to_lobby = Back to the lobby
web-left_table = You are no longer at this table.
web-invitation = Invitation link
web-copy = Copy
web-copied = Link copied.
web-spectating = You are watching this table.
web-spectators_list = Spectators: { $names }
web-waiting_for_start = Waiting for the host to start the game.
web-paused = A short pause between rounds.
web-paused_held = The host holds the pause between rounds.
web-game_heading = Game
web-game_over = The game is over.
web-your_turn_badge = Your turn
web-turn_of = { $name } to play
web-playing_now = playing now
web-chat_heading = Chat
web-message = Message
web-send = Send
web-chat_hint = /me waves, or /msg NAME text for a private message
web-history_heading = History
web-channel = Channel
web-channel_all = All
web-channel_game = Game
web-channel_chat = Chat
web-channel_system = System
web-history_empty = Nothing yet.
web-earlier_history = Earlier history
web-earlier_history_shown =
    { $n ->
        [one] { $n } earlier item added at the top of the history.
       *[other] { $n } earlier items added at the top of the history.
    }
web-not_found = That table does not exist or you may not enter it.
web-dice_heading = Dice
web-die_n = Die { $n }: { $value }
web-die_selected = selected
web-die_not_rolled = not rolled yet
web-dice_text = Dice: { $dice }
web-no_dice = No dice rolled yet.
web-roll = Roll
web-roll_selected = Roll the selected dice
web-roll_all = Roll the dice
web-stop = Stop
web-bank = Bank
web-select_die = Select die { $n }
web-selection_none = No die selected.
web-selection = Selected: { $sel }. Not selected: { $unsel }.
web-nothing = none
web-rolls_left = Roll { $n } of at most { $max }
web-pot = Pot: { $n }
web-phase = Phase: { $phase }
web-players_heading = Players
web-tokens =
    { $n ->
        [one] { $n } token
       *[other] { $n } tokens
    }
web-score =
    { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
web-turn_points = Turn points: { $n }
web-say_scores = Scores (S)
web-say_turn = Whose turn (T)
web-say_status = State of play (I)
web-select_all_scoring = Select every scoring die (A)
web-clock = Turn clock in seconds (empty: none)
web-set_clock = Set the clock
web-say_dice = Last roll (D)
web-say_selection = Selection (Space)
web-board_heading = Board
web-board_label = { $game } board, { $files } files by { $ranks } ranks
web-white = White
web-black = Black
web-square_empty = { $sq }, empty
web-rank_word = Rank
web-rank_n = rank { $n }
web-square_piece = { $sq }, { $color } { $piece }
web-piece_of = { $color } { $piece }
web-legal_target = legal target
web-picked = picked
web-last_move_mark = last move
web-picked_piece = { $piece } on { $sq } picked. Legal targets: { $targets }.
web-no_targets = { $piece } on { $sq } has no legal move.
web-pick_cancelled = Cancelled.
web-not_your_piece = Pick one of your own pieces.
web-last_move = Last move: { $move }
web-check = Check!
web-type_move = Type a move
web-type_move_hint = For example f2f4 or Nc1e2
web-play_move = Play
web-setup_heading = Black's setup
web-setup_intro = Black chooses where the King, Queen, Eagle, Lion, Rhinoceros and Buffalo stand; White mirrors it.
web-setup_choose = Choose this setup
web-setup_label = Arrangement
web-setup_waiting = Black is choosing the setup.
web-say_last_move = Last move (L)
web-say_status_chess = Status (S)
web-offer_draw = Offer a draw
web-accept_draw = Accept the draw
web-resign = Resign
web-resign_confirm = Resign this game?
web-promotion_heading = Promotion
web-promote_to = Promote to { $piece }
web-cancel = Cancel
web-you_play = You play { $color }.
web-to_move = { $color } to move
web-settings_heading = Settings
web-speech_mode = Speak announcements with the browser's speech synthesis (instead of the screen reader's live region)
web-sound_on = Sound cues for dice and for your turn
web-volume = Sound volume
web-announce_channels = Announce these channels
web-sound_channels = Sounds of these channels (when sound cues are on)
web-sound_game = Dice
web-sound_chat = Chat messages
web-help_heading = Help
web-rules_heading = Rules
web-rules_at_table = The full rules in force are shown at a table (Ctrl+F1 there). Here are the rule sets and options of the game chosen in the form.
web-help_common =
    F1: this help. Ctrl+F1: the rules of the game at this table.
    Tab and Shift+Tab move between controls; every shortcut also has a button.
    Single-letter shortcuts work whenever the focus is not in a text field.
    Escape closes a dialog.
web-help_signin = Type a name and press Enter to play as a guest, or use an account below.
web-help_lobby =
    The table of tables lists each table's game, options, seats and state, with Join and Watch buttons.
    The form below creates a table: choose a game, a rule set and options; each option says what it does.
    F moves to the Friends panel: your friends, who is online and at which table, and private messages.
web-help_table =
    The page has sections: seats, game, chat and history. Headings level 2 lead to each.
    Events are read as they happen; 'your turn' is announced assertively.
    C moves to the chat field, H to the history.
web-help_dice =
    1 to 6 (the digit keys, with or without AZERTY): select die 1 to 6.
    Shift+1 to 6: unselect die 1 to 6.
    Space: say which dice are selected and which are not (on a die's button, Space and Enter toggle that die).
    R or Enter: roll (421: the selected dice, all three if none is selected; Zilch: set the selected dice aside and roll the others).
    K: keep your throw and stop (421). B: set the selected dice aside and bank (Zilch). A: select every scoring die (Zilch).
    D: repeat the last roll. S: everyone's tokens or scores. T: whose turn it is. I: the state of play. L: the last events.
web-help_chess =
    Arrow keys move over the squares of the board; Home and End go to the ends of a rank.
    Enter or Space picks the piece on the square, then its target; the legal targets are announced.
    Escape cancels a pick. Moves can also be typed in the move field (M goes there, B back to the board).
    L: say the last move. T: whose turn it is. S: the game status.
    V: read the whole board. G: your legal moves. P: the moves played so far.
web-phase_draw = who starts
web-phase_charge = charge
web-phase_decharge = décharge
web-phase_over = game over
web-playoff_draw = Everyone rolls once to decide who starts
web-playoff_worst = Play-off for the weakest throw
web-playoff_best = Play-off for the strongest throw
web-round_n = Round { $n }
web-rolls_n =
    { $n ->
        [one] { $n } roll
       *[other] { $n } rolls
    }
web-col_tokens = Tokens
web-col_this_turn = This turn
web-col_losses = Rounds lost
web-col_score = Score
web-col_entered = Entered
web-out = out
web-no_more_rolls = You cannot roll now.
web-cannot_roll = That roll is not allowed now.
web-cannot_stop = You cannot stop now.
web-select_scoring = Select the scoring dice to set aside first (keys 1 to 6).
web-cannot_bank = You cannot bank now: set aside scoring dice and reach the minimum first.
web-final_round = Final round
web-tiebreak = Tie-break
web-bank_needs =
    { $n ->
        [one] Banking needs { $n } point this turn
       *[other] Banking needs { $n } points this turn
    }
web-not_scoring = Those dice cannot be set aside together: pick scoring dice only.
web-set_aside_roll = Set aside the selected dice and roll the rest
web-set_aside_bank = Set aside the selected dice and bank
web-set_aside = Set aside: { $dice }
web-loading = Loading…
web-error_prefix = Error: { $message }
web-list_separator = {", "}
web-list_and = { $head } and { $last }

## Issue 13 (the look and layout): the legend, the read-outs, names in words.
web-die_unselected = not selected
web-help_heading_game = Help: { $game }
web-say_board = Board (V)
web-say_moves = Legal moves (G)
web-say_history = Moves so far (P)
web-say_last_events = Last events (L)
web-last_events = Last: { $events }
web-theme_dark = Dark theme
web-legend_heading = The pieces and their moves
web-move_k = one step in any direction; on its first move it may jump two squares (straight, diagonal or like a Knight) to an empty square.
web-move_q = any distance straight or diagonally.
web-move_g = one diagonal step, then on outward along either straight line (the Eagle).
web-move_u = one straight step, then on outward along either diagonal.
web-move_l = leaps to any square within two King steps.
web-move_f = leaps like a Knight, a Camel or a Giraffe.
web-move_r = any distance straight.
web-move_c = moves like a Rook; captures by jumping exactly one piece on its line.
web-move_v = moves like a Bishop; captures by jumping exactly one piece on its diagonal.
web-move_b = any distance diagonally.
web-move_n = leaps one square and two (an L).
web-move_z = leaps two squares and three.
web-move_m = leaps one square and three.
web-move_e = one diagonal step, or a leap to the second diagonal square.
web-move_w = one straight step, or a leap to the second square straight.
web-move_i = one step in any direction (not royal); a double step forward from any rank when not capturing.
web-move_p = one step forward, captures one step diagonally forward; a double step forward from any rank.
web-bots_field = Bots to seat now
web-bot_seat_name = Bot { $n } ({ $level })
web-bots_hint = They take the last seats; you can add or remove them at the table too.
web-bots_level_field = Level of the bots
web-players_seated = { $n } of { $max } seats taken
web-seats_free = { $n } free
web-bot_level_names-expert = expert
web-bot_level_names-simple = simple
web-bot_level_names-random = random
web-bot_level_names-expected = expected-value
web-bot_level_names-optimal = optimal
web-bot_level_names-easy = easy
web-bot_level_names-medium = medium
web-bot_level_names-casual = casual
web-bot_level_names-hard = hard
web-bot_level_names-instant = instant
web-option_names-tokens = Tokens in the pot
web-option_names-dry_charge = Dry charge
web-option_names-zero_after_charge = No tokens after the charge
web-option_names-token_amount = Tokens the loser takes
web-option_names-nenette = Nénette
web-option_names-ties = Ties
web-option_names-fewer_rolls_win = Fewer rolls win ties
web-option_names-first_player = First player
web-option_names-rounds_to_lose = Rounds to lose
web-option_names-fiche_order = Fiches
web-option_names-max_rolls = Rolls per turn
web-option_names-target = Target
web-option_names-entry = Points to enter
web-option_names-minimum = Minimum to bank
web-option_names-end = End of the game
web-option_names-hot_dice_compulsory = Hot dice must roll again
web-option_names-three_ones = Three 1s
web-option_names-kinds = Three or more of a kind
web-option_names-straight = Straight
web-option_names-three_pairs = Three pairs
web-option_names-four_and_pair = Four and a pair
web-option_names-two_triplets = Two triples
web-option_names-nothing = Nothing on six dice
web-option_names-zilch_penalty = Penalty after three zilches
web-option_names-repetition = Draw by repetition
web-option_names-move_rule = Draw after moves without capture
web-option_names-setup = Setup
web-option_names-seed_promotions = Promotions of the seed text
web-preset_names-salon = The Salon's rules
web-preset_names-bar = Bar rules
web-preset_names-zilch5000 = Zilch 5000
web-preset_names-farkle10000 = Common Farkle
web-preset_names-farkle_boxed = Boxed Farkle
web-preset_names-zilch_online = Online Zilch
web-preset_names-farkle_social = Social-network Farkle
web-preset_names-farkle_busche = Farkle (Busche & Neller)
web-preset_names-standard = Standard rules
web-preset_names-quick = Default setup
web-preset_names-seed = With the seed text's promotions

# Issue 14: the Friends panel of the lobby (js/friends.js).
web-friends_heading = Friends
web-friends_guest = Guests have no friends list; register an account to keep one. You can still write to people who are online.
web-friends_refresh = Refresh the list
web-friends_add_label = Name to add
web-friends_add = Add a friend
web-friends_alerts = Announce when a friend comes online or goes offline
web-friends_message = Message
web-friends_message_to = Send a private message to { $name }
web-friends_remove = Remove
web-friends_remove_named = Remove { $name } from your friends
web-friends_go_to = Watch table { $id }, where { $name } is
web-friends_private_heading = Private messages
web-friends_to = To
web-friends_private_hint = A friend who is away gets the message at their next sign-in.
web-friends_no_private = No private messages yet.
web-friends_name_needed = Type a name first.
web-friends_sent = Message sent to { $name }.
web-friends_kept = The message is kept until they sign in.
web-friends_private_to = To { $to }: { $text }
web-friends_kept_mark = kept until they sign in
## standing: leaderboards and profiles (static/js/standing.js)
web-standing_button = Leaderboards
web-standing_title = Leaderboards and profiles
web-leaderboard_heading = Leaderboard
web-rating_family = Game family
web-leaderboard_caption = Leaderboard of { $family }: { $total ->
        [one] one rated player
       *[other] { $total } rated players
    }, best first; a rating is provisional before { $n } games.
web-leaderboard_empty = Nobody has a { $family } rating yet.
web-standing_board_loaded = Leaderboard of { $family }: { $total ->
        [0] nobody rated yet.
        [one] one rated player.
       *[other] { $total } rated players.
    }
web-standing_you = Your { $family } rating is { $rating }: rank { $rank } of { $total }, after { $games } games.
web-standing_you_provisional = Your { $family } rating is { $rating }, provisional: rank { $rank } of { $total }, after { $games ->
        [one] one game
       *[other] { $games } games
    }.
web-standing_you_none = You have no { $family } rating yet: play a rated game.
web-col_rank = Rank
web-col_player = Player
web-col_rating = Rating
web-col_games = Games
web-col_match = Game
web-col_date = Date
web-col_place = Place
web-col_change = Change
web-col_result = Result
web-col_played = Played
web-col_won = Won
web-col_lost = Lost
web-rating_provisional = { $rating } (provisional)
web-view_profile_of = Profile of { $name }
web-more_players = More players
web-bots_fixed = Bots play rated games with a fixed rating: { $list }.
web-bot_rating = { $level } { $rating }
web-my_profile = My profile
web-profile_heading = Profile of { $name }
web-profile_hide = Hide my profile
web-profile_hide_hint = A hidden profile is seen by you only; your name and rating stay on the leaderboards.
web-profile_now_hidden = Your profile is hidden.
web-profile_now_visible = Your profile is visible to signed-in players.
web-profile_loaded = Profile of { $name }.
web-profile_rating_sentence = { $family }: { $rating }, rank { $rank }, { $games ->
        [one] one game.
       *[other] { $games } games.
    }
web-profile_no_ratings = { $name } has no rating yet.
web-ratings_caption = Ratings of { $name }
web-history_caption = Rating history, { $family }: the rating after each rated game
web-last_games_caption = Last games (each links to its record)
web-stats_caption = Statistics per game
web-game_number = Game { $id }
web-game_of = Game { $id }, { $game }
web-not_rated = not rated
web-result_won = won
web-result_lost = lost
web-result_draw = draw
web-result_none = neither won nor lost
web-rated_table = Rated game (counts when every player has an account)
web-rating_after_up = Your { $family } rating: { $rating }, up { $change }.
web-rating_after_down = Your { $family } rating: { $rating }, down { $change }.
web-rating_after_same = Your { $family } rating: { $rating }, unchanged.
web-table_rated = Rated game (accounts only)
web-table_unrated = Unrated game
web-table_rated_accounts = Rated when every player has an account
web-help_standing =
    The Leaderboards button of the top bar opens this page; Back to the lobby returns.
    Choose a game family: its leaderboard is a table with a caption and column headers, and your own rank is said.
    A rating is provisional before 10 rated games. Bots play rated games with a fixed rating.
    A player's name opens their profile: ratings, rating history, last games and statistics.
    Hide my profile: others no longer see it.

# Swiss tournaments (static/js/tournaments.js).
web-tournaments_heading = Tournaments
web-tournament_none = No tournament yet.
web-tournament_facts = { $game }, { $players } of { $max } players, round { $round } of { $rounds }
web-tournament_state_registering = registration open
web-tournament_state_running = being played
web-tournament_state_finished = finished
web-tournament_state_cancelled = cancelled
web-tournament_register = Register
web-tournament_register_named = Register for { $name }
web-tournament_registered = You are registered for { $name }.
web-tournament_unregister = Unregister
web-tournament_unregister_named = Unregister from { $name }
web-tournament_unregistered = You are no longer registered for { $name }.
web-tournament_standings = Standings
web-tournament_standings_named = Standings of { $name }
web-tournament_standings_of = Standings of { $name }
web-tournament_standings_caption = { $name }: standings after round { $round } of { $rounds }
web-tournament_no_standings = No round has been played yet.
web-tournament_col_rank = Rank
web-tournament_col_player = Player
web-tournament_col_points = Points
web-tournament_col_buchholz = Buchholz
web-tournament_col_buchholz_cut1 = Buchholz cut 1
web-tournament_col_sb = Sonneborn-Berger
web-tournament_start = Start now
web-tournament_create = Create a tournament
web-tournament_created = The tournament { $name } is open for registration.
web-tournament_name = Name
web-tournament_game = Game
web-tournament_rounds = Rounds
web-tournament_max = Most players (it starts when full)
web-tournament_seats = Seats at each table
web-tournament_go = Go to your table { $table } (round { $round })
