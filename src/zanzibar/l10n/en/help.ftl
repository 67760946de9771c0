# Help (keys and typed commands) and rules of each game, one short sentence a line.
# Players hear rules, never our sources: those are in docs/rules-*.md.

## 421 / Zanzibar

help-dice421-keys =
    421 keys, in a terminal or on the web table:
    1 to 6: select die 1, 2 or 3 for the next reroll. Dice are counted highest first.
    Shift+1 to 6: unselect a die.
    Space: say which dice are selected and which are kept.
    D: repeat the last roll.
    S: every player's tokens. T: whose turn it is.
    R or Enter: roll the selected dice, or all three if none is selected.
    K: keep your throw and stop rolling.
    I: the state of play: phase, pot, roll limit, rolls used, dice.
    F1 or question mark: this help. Ctrl+F1: the rules in force.
    Typed commands, one a line: “roll 1 2” rolls the dice named, “roll” all three; “stop” keeps your throw.
    Also “select N”, “unselect N”, “selection”, “dice”, “scores”, “turn”, “status”, “help”, “rules”, “quit”.
help-dice421-head = { $preset ->
    [custom] Custom rules.
   *[other] Rules “{ $preset }”.
}
help-dice421-goal = 421 / Zanzibar is played with three dice. The goal is to get rid of your tokens. The last player holding tokens loses.
help-dice421-tokens = { $tokens } tokens in the pot at the start.
help-dice421-phases = The game has two phases. In the charge, the turn losers take tokens from the pot. When the pot is empty, the décharge begins: the turn winner gives tokens to the turn loser.
help-dice421-rolls = Each player in turn rolls at most { $rolls } times, rerolling one, two or three dice, and may stop earlier. Nobody may roll more times than the player before them in the turn.
help-dice421-out = Players with no tokens at the end of the charge are out: they won.
help-dice421-stay = Players with no tokens at the end of the charge play the décharge too and can be given tokens. A player goes out, safe, on winning a turn with no tokens left.
help-dice421-dry = Dry charge: one roll each per turn during the charge.
help-dice421-rerolls = Rerolls are allowed in the charge too.
help-dice421-combos = Combinations, strongest first: 421 is worth 10 tokens. Three aces are worth 7. Baraques x-x-x and fiches 1-1-x are worth x. Straights 654, 543, 432 and 321 are worth 2.
help-dice421-others = Every other throw is worth 1, compared by the highest die, then the second, then the third: 621 beats 554. The nénette 2-2-1 is the weakest of all and worth { $nenette ->
    [value4] 4.
   *[penalty2] 2, plus a penalty (see below).
}
help-dice421-order-salon = At equal value the baraque beats the fiche, but a fiche beats a lower baraque: 666, 611, 555, 511, and so on down to 222, 211.
help-dice421-order-fiche-first = At equal value the fiche beats the baraque: 611, 666, 511, 555, and so on.
help-dice421-order-fiches-above = Every fiche is above every baraque: 611, 511, down to 211, then 666 down to 222.
help-dice421-later-wins = Exactly equal throws: the later player's is stronger. A new 421 beats an older one.
help-dice421-rampo = Exactly equal throws that decide the loser, or the giver in the décharge, are settled by rampo. The tied players roll once each, the last one to have played first. A new nénette still beats an older one.
help-dice421-fewer-rolls = At equal combination, the one made in fewer rolls wins.
help-dice421-strongest = The turn loser takes as many tokens as the strongest throw of the turn is worth.
help-dice421-own = In the charge the turn loser takes the value of their own throw. In the décharge the best player gives the value of their throw.
help-dice421-penalty = Nénette: the player who loses with it takes 2 more tokens, added to the best value in the décharge. Best 6 plus nénette makes 8.
help-dice421-caps = Nobody takes more tokens than exist: the pot caps the charge, the giver's tokens cap the décharge. The loser of a turn starts the next.
help-dice421-starts-lowest = Who starts: everyone rolls once, and the lowest throw starts. Ties roll again.
help-dice421-starts-seat = Who starts: the first seat.
help-dice421-rounds = { $rounds ->
    [1] One round: the player left with every token loses the game.
   *[other] The player left with every token loses the round, and starts a new charge. The first to lose { $rounds } rounds loses the game.
}

help-dice421-places = In a rated game every player gets a place. Fewer rounds lost ranks first. Then, in the last round, whoever went out first. Those who went out on the same throw share a place; those never out come next. The loser is last. A player who leaves a rated game before its end loses it.

## Zilch 5000

help-zilch-keys =
    Zilch keys, in a terminal or on the web table:
    1 to 6: select that die of the roll to set aside. Shift+1 to 6: unselect it.
    A: select every scoring die, for the best score of the roll.
    Space: say the selection and what it scores.
    R or Enter: set the selected dice aside and roll the others. It also starts your turn.
    B: set the selected dice aside and bank the turn.
    D: repeat the last roll. S: scores. T: the turn so far. I: the state of the game.
    F1 or question mark: this help. Ctrl+F1 or slash: the rules in force. Q: quit.
    Typed commands, one a line: “roll 1 4”, “bank 1 4”, “keep 1 4”, “sel”, “dice”, “scores”, “turn”, “status”, “help”, “rules”, “quit”.
    Dice are numbered 1 to 6 in the order they were rolled.
help-zilch-head = { $preset ->
    [custom] Zilch 5000, custom rules.
   *[other] Zilch 5000, rules “{ $preset }”.
}
help-zilch-dice = Six dice. On your turn you roll all six.
help-zilch-scoring = Scoring within one roll: a 1 is worth 100, a 5 is worth 50. Three 1s are worth { $three_ones }. Three 2s are worth 200, three 3s 300, three 4s 400, three 5s 500, three 6s 600. Combinations count only within a single roll.
help-zilch-straight = A straight 1-2-3-4-5-6 in one roll is worth { $points }.
help-zilch-kinds = { $kinds ->
    [doubling] Each matching die past three doubles the triple: four 2s make 400, five 2s 800, six 2s 1,600.
    [fixed] Four of a kind is worth 1,000, five of a kind 2,000, six of a kind 3,000.
   *[seed] Four or five of a kind: only the triple scores. Extra 1s and 5s score as single 1s and 5s, so four 1s make 1,100. Other extra dice score nothing and cannot be set aside. Six of a kind is two triples.
}
help-zilch-three-pairs = Three different pairs in one roll are worth { $points }.
help-zilch-no-three-pairs = Three pairs do not score.
help-zilch-four-and-pair = Four of a kind with a pair is worth { $points }.
help-zilch-two-triplets = Two triples in one roll are worth { $points }.
help-zilch-nothing = Six dice of which none scores are worth { $points }, and all six are rolled again.
help-zilch-set-aside = After a scoring roll you set aside at least one scoring die, and only scoring dice. Then you roll the others or bank the turn. Dice set aside are not rolled again.
help-zilch-zilch = A roll with no scoring die is a zilch: the turn's points are lost and the dice pass on.
help-zilch-hot-dice = Hot dice: when all six dice have scored, you keep the points and roll all six again. A zilch then loses the whole turn. { $compulsory ->
    [1] Rolling again is compulsory.
   *[0] You may also bank.
}
help-zilch-entry = Your first bank needs at least { $points } points in one turn.
help-zilch-minimum = After that, each bank needs at least { $points } points in the turn.
help-zilch-penalty = Three zilches in a row cost { $points } points. A score may go below zero.
help-zilch-last-turn = The first player to reach { $target } warns the others, who each take one last turn. The highest score wins. Tied players each take another turn until the tie breaks.
help-zilch-immediate = The first player to bank { $target } points wins at once.

## Chess variants

help-chess-keys =
    Chess keys and commands.
    Type a move in coordinates, from-square then to-square and a promotion letter: “f2h4”, “e11e12q”.
    Or in algebraic notation: “Zxe4”, “exd5”, “e12=G”. Capital letters are pieces, small letters are files.
    “board”: the board rank by rank, from your side. “square e4”: what is on e4.
    “turn”, “status”: check, last move and draw offers. “scores”: the material. “moves”: your legal moves. “history”: the moves so far.
    In Zanzibar-S, Black first chooses one of the 48 arrangements with “setup N” or “setup KQGL UF”, and White copies it.
    “resign” gives up. “draw” offers a draw, or accepts the one offered to you.
    Every move is announced as a sentence: “White Giraffe from c1 to e4, takes the Camel.”

help-chess-title = { $title }.
help-chess-board = Board of { $files } by { $ranks } squares. The pieces, with their Betza notation:
help-chess-piece = { $name } ({ $letter }): “{ $betza }”.{ $royal ->
    [1] {" "}It is royal.
   *[0] {""}
}{ $promotes ->
    [none] {""}
   *[other] {" "}It promotes to { $promotes }.
}{ $en_passant ->
    [1] {" "}It may be taken en passant.
   *[0] {""}
}
help-chess-king-jump = The King may jump two squares on its first move, when not in check, over an unattacked square.
help-chess-castling = Castling is allowed.
help-chess-stalemate = { $stalemate ->
    [win] The stalemated side wins.
    [loss] The stalemated side loses.
   *[draw] Stalemate is a draw.
}
help-chess-repetition = { $times ->
    [0] No draw by repetition.
   *[other] The same position occurring { $times } times, with the same side to move, is a draw.
}
help-chess-move-rule = { $moves ->
    [0] No move-count rule.
   *[other] { $moves } { $moves ->
        [one] move
       *[other] moves
    } by each side without a capture or a { $piece2 ->
        [none] { $piece1 }
       *[other] { $piece1 } or { $piece2 }
    } move make a draw.
}

help-zanzibar-s-intro =
    Zanzibar-S, by Jean-Louis Cazaux.
    The board has 12 by 12 squares, files a to l, ranks 1 to 12.
    Each side has 36 pieces: King, Queen, Eagle, Lion, Rhinoceros, Buffalo, and two each of Prince, Bishop, Knight, Camel, Rook, Cannon, Elephant, Giraffe, Crocodile and Machine, plus 10 Pawns.
    The goal is to checkmate the opposing King.
    Setup: Black places King, Queen, Eagle and Lion on f12, g12, f11 and g11 in any order, and Rhinoceros and Buffalo on e12 and h12.
    That makes 48 arrangements, 24 up to mirror symmetry.
    White copies the arrangement file for file: Black King on f12 means White King on f1.
    Then White moves first.
    The moves, with their Betza notation:
    King (K): one step in any direction. There is no castling.
    On its first move only, a King that is not in check may instead jump to an empty square two squares away: straight, diagonal or like a Knight.
    It never captures with the jump.
    The square jumped over may be occupied but must not be attacked.
    For a knight-wise jump, at least one of the two in-between squares must be unattacked.
    The target must not be attacked either. From f2 the jumps are d1 d2 d3 d4 e4 f4 g4 h4 h3 h2 h1.
    Queen (Q), Rook (R), Bishop (B) and Knight (N) move as in chess.
    Eagle (G, FyafsF): one diagonal step, then it may continue outward along either orthogonal.
    It never jumps, and may stop or capture on the first square.
    Rhinoceros (U, WyafsW): one orthogonal step, then it may continue outward along either diagonal. It never jumps.
    Lion (L, KNAD): leaps to any of the 24 squares within two King steps.
    Buffalo (F, NCZ): leaps like a Knight (1,2), a Camel (1,3) or a Giraffe (2,3).
    Giraffe (Z): a (2,3) leaper. Camel (M, C): a (1,3) leaper.
    Elephant (E, FA): one diagonal step, or a jump to the second diagonal square.
    Machine (W, WD): one orthogonal step, or a jump to the second orthogonal square.
    Cannon (C, mRcpR): moves like a Rook without capturing, and captures by jumping exactly one piece of either side along a rank or file.
    Crocodile (V, mBcpB): the same along diagonals.
    Prince (I, KfmnnD): a King that is not royal, so check does not concern it. It also has a non-capturing double step straight forward from any rank over an empty square.
    Pawn (P, fmWfceFfmnnD): one step forward, captures one step diagonally forward, plus a non-capturing double step from any rank over an empty square.
    En passant: after any double step of a Pawn or a Prince, an enemy Pawn that attacks the square passed over may capture en passant on the very next move.
    Princes never capture en passant. A double step that ends in promotion leaves nothing to take.
    Promotion: a Pawn or Prince reaching the last rank must promote to Queen, Eagle, Lion, Rhinoceros or Buffalo.
help-zanzibar-s-promotions = { $extra ->
    [1] With the table option “original text's promotions”, a Knight or Camel reaching the last rank becomes a Buffalo, and an Elephant or Machine becomes a Lion. These promotions come from the author's larger game Gigachess.
   *[0] No other piece promotes.
}
help-zanzibar-s-end = Checkmate wins. Stalemate is a draw. A bare King is not a loss.
help-zanzibar-s-inherited = The repetition and move-count rules are not written for Zanzibar-S: they come from orthodox chess and are table options.

help-chess-king-jump-checked = A King checked earlier keeps its jump: only being in check forbids it, as the inventor, Jean-Louis Cazaux, wrote in 2019.
help-chess-bot-levels = Bots: the levels differ by how far they look. Easy looks two half-moves ahead plus captures, casual three, medium 1 second a move, hard 4 seconds a move.
help-chess-bot-strength = Measured in orthodox chess against Stockfish limited in strength, in few games on a busy shared machine, pooled over the bot's versions of the last days. Elo with a 95% interval: { $levels }.
help-chess-bot-strength-level = { $level } { $elo } ({ $low }–{ $high }, { $games } games)
help-chess-bot-ladder = In Zanzibar-S, each level played the one below it, pooled over the bot's versions of the last days; a game still running at the move cap counts as a draw.
help-chess-bot-ladder-pair = The { $strong } level scored { $points } out of { $games } against the { $weak } level ({ $low }–{ $high }% of the points with 95% confidence), { $mates } { $mates ->
    [one] game ending
   *[other] games ending
} in checkmate, games capped at { $cap } moves.
