# Words the renderer itself uses: joining lists, the listener's own name.

voice-you = you
voice-list-separator = {", "}
voice-list-and = { $head } and { $last }
voice-list-or = { $head } or { $last }
voice-list-none = nobody

# Two messages used by the documentation's examples and the l10n tests.
voice-test-tokens = { $n ->
    [one] { $n } token
   *[other] { $n } tokens
}
voice-test-turn = { $who ->
    [you] Your turn.
   *[name] { $name }'s turn.
}

# An event a game has no sentence for (should never be heard: a test renders every event).
engine-event-unknown = Event: { $kind }.

# A seat by its name even for its own player (lists of players in a status).
voice-seat-name = { $name }
