# Mots du moteur de rendu : listes, le « vous » de l'auditeur.

voice-you = vous
voice-list-separator = {", "}
voice-list-and = { $head } et { $last }
voice-list-or = { $head } ou { $last }
voice-list-none = personne

voice-test-tokens = { $n ->
    [one] { $n } jeton
   *[other] { $n } jetons
}
voice-test-turn = { $who ->
    [you] À vous.
   *[name] Au tour { VOWEL($name) ->
        [yes] d'{ $name }
       *[no] de { $name }
    }.
}

engine-event-unknown = Évènement : { $kind }.

# A seat by its name even for its own player (lists of players in a status).
voice-seat-name = { $name }
