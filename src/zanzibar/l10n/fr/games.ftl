# Titles of the games.

games-title-dice421 = 421 / Zanzibar
games-title-zilch = Zilch 5000
games-title-zanzibar-s = Zanzibar-S
games-title-shako = Shako
games-title-chess = Échecs
games-title-metamachy = Métamachie
