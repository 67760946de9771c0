# Listes d'amis et messages privés gardés pour une personne absente (salon/friends.py, salon/mailbox.py).

friends-away = Pendant votre absence, { $name } a écrit : { $text }
friends-away-me = Pendant votre absence : * { $name } { $text }
friends-kept = { $name } n'est pas en ligne : votre message est gardé et lui sera remis à sa prochaine connexion.
friends-offline = { $name } est hors ligne.
friends-in-lobby = { $name } est en ligne, à aucune table.
friends-at = { $name } est en ligne : { $places }.
friends-place-seat = table { $table } ({ $game }), place { $seat }
friends-place-watching = table { $table } ({ $game }), en spectateur
friends-place-private = une table privée
friends-came-online = Connexion { VOWEL($name) ->
    [yes] d'{ $name }
   *[no] de { $name }
}, de votre liste d'amis.
friends-went-offline = Déconnexion { VOWEL($name) ->
    [yes] d'{ $name }
   *[no] de { $name }
}, de votre liste d'amis.
friends-added = { $name } est maintenant dans votre liste d'amis.
friends-removed = { $name } n'est plus dans votre liste d'amis.
friends-alerts-on = Les connexions et déconnexions de vos amis vous seront annoncées.
friends-alerts-off = Les connexions et déconnexions de vos amis ne vous seront plus annoncées.
friends-empty = Votre liste d'amis est vide.
friends-count = { $count ->
    [one] Un ami, { $online } en ligne.
   *[other] { $count } amis, { $online } en ligne.
}
# Le client terminal (zanzibar play --server) : commandes tapées et leurs réponses.
friends-cli-usage = Commandes : /amis donne la liste de vos amis ; /ami NOM en ajoute un ; /plusami NOM en retire un ; /msg NOM TEXTE envoie un message privé.
friends-cli-sent = Message envoyé à { $name }.
friends-cli-private = { $name } vous écrit : { $text }
friends-cli-private-me = (privé) * { $name } { $text }
