# 421 / Zanzibar: events and read-outs. $who is "you" for the listener's own seat.

dice421-tokens = { $n ->
    [one] { $n } token
   *[other] { $n } tokens
}
dice421-rolls = { $n ->
    [one] { $n } roll
   *[other] { $n } rolls
}
# A throw with the name of its combination: "4 2 1, a 421", "6 6 6, three 6s", "5 3 2".
dice421-throw = { $dice }{ $kind ->
    [top] , a 421
    [aces] , three aces
    [baraque] , three { $x }s
    [fiche] , a pure { $x }
    [straight] , a straight
    [nenette] , a nénette
   *[other] {""}
}
dice421-phase = { $phase ->
    [charge] charge
    [decharge] décharge
    [draw] draw
   *[over] over
}

dice421-roll = { $who ->
    [you] You rolled
   *[name] { $name } rolled
} { $throw }{ $limit ->
    [1] .
   *[other] {" "}(roll { $roll } of { $limit }).
}
dice421-stop = { $who ->
    [you] You stop
   *[name] { $name } stops
} at { $dice } after { $rolls }.
dice421-next = { $who ->
    [you] Your turn
   *[name] { $name }'s turn
}: up to { $rolls }.
dice421-turn-start = Turn { $turn }, { $phase }{ $pot ->
    [none] {""}
   *[other] , { $pot } in the pot
}: { $who ->
    [you] you start
   *[name] { $name } starts
}, up to { $rolls }.
dice421-rampo = Rampo between { $seats } for the { $for ->
    [worst] worst
   *[best] best
} throw: one roll each.
dice421-redraw = Tie for the lowest throw: { $seats } roll again.
dice421-starter = { $who ->
    [you] You have the lowest throw and start.
   *[name] { $name } has the lowest throw and starts.
}
dice421-turn-end-charge = { $who ->
    [you] You lose the turn with { $loser_dice } and take
   *[name] { $name } loses the turn with { $loser_dice } and takes
} { $tokens } from the pot{ $capped ->
    [1] {" "}(all that was left)
   *[0] {""}
}; { $pot } left.
dice421-turn-end-decharge = { $who ->
    [you] You lose
   *[name] { $name } loses
} the turn with { $loser_dice }; { $winner_who ->
    [you] you give
   *[name] { $winner } gives
} { $who ->
    [you] you
   *[name] { $name }
} { $tokens }{ $capped ->
    [1] {" "}(all that was left)
   *[0] {""}
} with { $winner_dice }.
dice421-charge-over = The charge is over: the décharge begins.
dice421-out = { $who ->
    [you] You have no more tokens: you are out, and safe!
   *[name] { $name } has no more tokens and is out, safe.
}
dice421-round-lost = { $needed ->
    [1] { $who ->
        [you] You hold all the tokens.
       *[name] { $name } holds all the tokens.
    }
   *[other] { $who ->
        [you] You hold all the tokens and lose the round ({ $losses } of { $needed }).
       *[name] { $name } holds all the tokens and loses the round ({ $losses } of { $needed }).
    }
}
dice421-round-start = Round { $round }: a new charge, { $who ->
    [you] you start.
   *[name] { $name } starts.
}
dice421-game-over = { $who ->
    [you] You have lost the game and pay the round of drinks!
   *[name] { $name } has lost the game and pays the round of drinks!
}

# Read-outs (keys S, T, I, D).
dice421-separator = {"; "}
dice421-score = { $who ->
    [you] You
   *[name] { $name }
}: { $tokens }{ $out ->
    [1] {" "}(out)
   *[0] {""}
}{ $lost ->
    [0] {""}
    [one] , { $lost } round lost
   *[other] , { $lost } rounds lost
}
dice421-scores = { $entries }{ $pot ->
    [none] .
   *[other] ; pot { $pot }.
}
dice421-turn-over = The game is over: { $who ->
    [you] you lost.
   *[name] { $name } lost.
}
dice421-turn-playoff = { $kind ->
    [draw] Draw for who starts
   *[rampo] Rampo
}: { $who ->
    [you] you
   *[name] { $name }
} to roll.
dice421-turn = { $who ->
    [you] Your turn
   *[name] { $name }'s turn
}: roll { $roll } of up to { $limit }.
dice421-status-round = round { $round }
dice421-status-pot = pot { $pot }
dice421-status-turn = turn { $turn }
dice421-status-limit = limit { $rolls }
dice421-status-head = { $parts }.
dice421-status-played = Played: { $entries }.
dice421-status-played-entry = { $who ->
    [you] You
   *[name] { $name }
} { $dice } ({ $rolls })
dice421-dice-current = { $who ->
    [you] You have
   *[name] { $name } has
} { $throw } after { $rolls }.
dice421-dice-last = Last throw: { $who ->
    [you] you
   *[name] { $name }
} { $throw }.
dice421-dice-none = No dice rolled yet this turn.
dice421-unknown-topic = Unknown topic “{ $topic }”; topics: scores, turn, status, dice.
dice421-status-phase = { $phase ->
    [charge] Charge
    [decharge] Décharge
    [draw] Draw for who starts
   *[over] Game over
}
