# Zilch 5000: events and read-outs. $who is "you" for the listener's own seat.


zilch-turn = { $stage ->
    [final] { $who ->
        [you] your last turn
       *[name] { $name }'s last turn
    }
    [tiebreak] { $who ->
        [you] your tie-break turn
       *[name] { $name }'s tie-break turn
    }
   *[main] { $who ->
        [you] your turn
       *[name] { $name }'s turn
    }
}
zilch-roll = { $who ->
    [you] you rolled { $dice }
   *[name] { $name } rolled { $dice }
}
zilch-zilch = { $lost ->
    [0] { $who ->
        [you] zilch! your turn ends
       *[name] zilch! { $name }'s turn ends
    }
   *[other] { $who ->
        [you] zilch! you lose { $lost } points
       *[name] zilch! { $name } loses { $lost } points
    }
}
zilch-set-aside = { $who ->
    [you] you set aside { $dice } for { $points }, { $turn } this turn
   *[name] { $name } sets aside { $dice } for { $points }, { $turn } this turn
}
zilch-hot-dice = { $who ->
    [you] hot dice! you roll all six again with { $turn } points
   *[name] hot dice! { $name } rolls all six again with { $turn } points
}
zilch-bank = { $who ->
    [you] you bank { $points }, total { $total }
   *[name] { $name } banks { $points }, total { $total }
}
zilch-penalty = { $who ->
    [you] three zilches in a row: you lose { $points }, total { $total }
   *[name] three zilches in a row: { $name } loses { $points }, total { $total }
}
zilch-final-round = { $who ->
    [you] you reached { $score }: everyone else has one last turn
   *[name] { $name } reached { $score }: everyone else has one last turn
}
zilch-tie-break = tie at { $score } between { $names }: each takes another turn
zilch-game-over = { $who ->
    [you] you win with { $score }
   *[name] { $name } wins with { $score }
}
zilch-game-over-shared = { $names } win with { $score }

# Read-outs (keys S, T, I, D).
zilch-separator = {"; "}
zilch-scores-separator = {", "}
zilch-scores-entry = { $name }: { $score } { $score ->
    [one] point
   *[other] points
}
zilch-scores-not-entered = { $name }: { $score } { $score ->
    [one] point
   *[other] points
} (not entered yet)
zilch-describe-start = { $who ->
    [you] your turn: roll the six dice
   *[name] { $name } is about to roll the six dice
}
zilch-describe-rolling = { $who ->
    [you] you are rolling { $dice } { $dice ->
        [one] die
       *[other] dice
    } with { $points } points this turn
   *[name] { $name } is rolling { $dice } { $dice ->
        [one] die
       *[other] dice
    } with { $points } points this turn
}
zilch-describe-choose = { $who ->
    [you] you have { $points } points this turn and must choose among { $dice }
   *[name] { $name } has { $points } points this turn and must choose among { $dice }
}
zilch-describe-kept = set aside: { $dice }
zilch-describe-threshold = banking needs { $needed } points in the turn
zilch-describe-over = the game is over
zilch-status-main = { $who ->
    [you] first to { $target } starts the last round; your turn
   *[name] first to { $target } starts the last round; { $name } to play
}
zilch-status-final = last round: { $trigger } reached { $score }; still to play: { $queue }
zilch-status-tiebreak = tie-break between { $names }
zilch-status-over = game over: { $winners } won with { $score }
zilch-dice-roll = dice: { $dice }
zilch-dice-none = no dice to choose from
zilch-dice-kept = set aside: { $dice }
zilch-unknown-topic = no answer about “{ $topic }” (topics: scores, turn, status, dice)
