# Chess variants: pieces, moves, events and read-outs. $colour is "white" or "black";
# $piece is a piece's English name in lower case (its key in the variants' files).

chess-piece = { $piece ->
        [king] King
        [queen] Queen
        [rook] Rook
        [bishop] Bishop
        [knight] Knight
        [pawn] Pawn
        [eagle] Eagle
        [lion] Lion
        [cannon] Cannon
        [camel] Camel
        [elephant] Elephant
        [prince] Prince
        [rhinoceros] Rhinoceros
        [buffalo] Buffalo
        [crocodile] Crocodile
        [giraffe] Giraffe
        [machine] Machine
       *[other] { $fallback }
    }
chess-piece-the = { $piece ->
        [king] the King
        [queen] the Queen
        [rook] the Rook
        [bishop] the Bishop
        [knight] the Knight
        [pawn] the Pawn
        [eagle] the Eagle
        [lion] the Lion
        [cannon] the Cannon
        [camel] the Camel
        [elephant] the Elephant
        [prince] the Prince
        [rhinoceros] the Rhinoceros
        [buffalo] the Buffalo
        [crocodile] the Crocodile
        [giraffe] the Giraffe
        [machine] the Machine
       *[other] the { $fallback }
    }
chess-piece-white = { $piece ->
        [king] White King
        [queen] White Queen
        [rook] White Rook
        [bishop] White Bishop
        [knight] White Knight
        [pawn] White Pawn
        [eagle] White Eagle
        [lion] White Lion
        [cannon] White Cannon
        [camel] White Camel
        [elephant] White Elephant
        [prince] White Prince
        [rhinoceros] White Rhinoceros
        [buffalo] White Buffalo
        [crocodile] White Crocodile
        [giraffe] White Giraffe
        [machine] White Machine
       *[other] White { $fallback }
    }
chess-piece-black = { $piece ->
        [king] Black King
        [queen] Black Queen
        [rook] Black Rook
        [bishop] Black Bishop
        [knight] Black Knight
        [pawn] Black Pawn
        [eagle] Black Eagle
        [lion] Black Lion
        [cannon] Black Cannon
        [camel] Black Camel
        [elephant] Black Elephant
        [prince] Black Prince
        [rhinoceros] Black Rhinoceros
        [buffalo] Black Buffalo
        [crocodile] Black Crocodile
        [giraffe] Black Giraffe
        [machine] Black Machine
       *[other] Black { $fallback }
    }

chess-colour = { $colour ->
    [white] White
   *[black] Black
}
chess-move = { $special ->
    [castle_kingside] { $colour ->
        [white] White
       *[black] Black
    } castles kingside: King from { $from } to { $to }
    [castle_queenside] { $colour ->
        [white] White
       *[black] Black
    } castles queenside: King from { $from } to { $to }
    [king_jump] { $mover } jumps from { $from } to { $to }
   *[other] { $mover } from { $from } to { $to }
}{ $captured ->
    [none] {""}
   *[other] , takes { $victim }{ $special ->
        [en_passant] {" "}en passant
       *[other] {""}
    }
}{ $promotion ->
    [none] {""}
   *[other] , promotes to { $promoted }
}.{ $check ->
    [mate] {" "}Checkmate.
    [check] {" "}Check.
   *[none] {""}
}
chess-placement = { $piece } on { $square }
chess-setup = { $who ->
    [you] You ({ $colour }) chose
   *[name] { $name } ({ $colour }) chose
} arrangement { $number }: { $placements }. { $other } mirrors it.
chess-resign = { $who ->
    [you] You ({ $colour }) resign.
   *[name] { $name } ({ $colour }) resigns.
}
chess-draw-offered = { $who ->
    [you] You ({ $colour }) offer a draw.
   *[name] { $name } ({ $colour }) offers a draw.
}
chess-draw-declined = The draw offer lapses.
chess-draw-agreed = Draw agreed.
chess-won = { $reason ->
    [checkmate] Checkmate
    [stalemate] Stalemate
    [resignation] Resignation
    [repetition] Repetition
    [move_rule] The { $moves }-move rule
   *[other] { $reason }
}: { $colour } ({ $name }) wins.
chess-drawn = Draw by { $reason ->
    [stalemate] stalemate
    [repetition] repetition
    [move_rule] the { $moves }-move rule
    [agreement] agreement
   *[other] { $reason }
}.

# Read-outs.
chess-empty = empty
chess-rank = Rank { $rank }: { $content }.
chess-square-content = { $square } { $content }
chess-run-empty = { $first } to { $last } empty
chess-square = { $square }: { $content }.
chess-turn = { $colour } to move ({ $name }).
chess-turn-setup = { $name } ({ $colour }) chooses the arrangement of the central pieces.
chess-over = The game is over.
chess-check = { $colour } is in check.
chess-no-check = No check.
chess-last-move = Last move: { $sentence }
chess-no-moves-yet = No move played yet.
chess-material = Material: White { $white }, Black { $black } (Pawn = 1).
chess-moves-count = Move { $number }.
chess-legal-moves = Legal moves: { $moves }.
chess-no-legal-moves = No legal move.
chess-history = Moves so far: { $moves }.
chess-draw-offer-pending = { $name } ({ $colour }) offers a draw.
chess-unknown-topic = Unknown topic “{ $topic }”; try board, square:e4, turn, status, scores, moves, history.
