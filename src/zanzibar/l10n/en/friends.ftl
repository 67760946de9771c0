# Friends lists and private messages kept for someone away (salon/friends.py, salon/mailbox.py).

friends-away = While you were away, { $name } wrote: { $text }
friends-away-me = While you were away: * { $name } { $text }
friends-kept = { $name } is away: your message is kept and will be delivered when { $name } signs in.
friends-offline = { $name } is offline.
friends-in-lobby = { $name } is online, not at a table.
friends-at = { $name } is online, at { $places }.
friends-place-seat = table { $table } ({ $game }), seat { $seat }
friends-place-watching = table { $table } ({ $game }), watching
friends-place-private = a private table
friends-came-online = Your friend { $name } is online.
friends-went-offline = Your friend { $name } went offline.
friends-added = { $name } is now in your friends list.
friends-removed = { $name } is no longer in your friends list.
friends-alerts-on = You will hear when a friend comes online or goes offline.
friends-alerts-off = You will no longer hear when friends come online or go offline.
friends-empty = Your friends list is empty.
friends-count = { $count ->
    [one] One friend, { $online } online.
   *[other] { $count } friends, { $online } online.
}
# The terminal client (zanzibar play --server): typed commands and their answers.
friends-cli-usage = Commands: /friends lists your friends; /friend NAME adds one; /unfriend NAME removes one; /msg NAME TEXT sends a private message.
friends-cli-sent = Message sent to { $name }.
friends-cli-private = { $name } to you: { $text }
friends-cli-private-me = (private) * { $name } { $text }
