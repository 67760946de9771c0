### Classement : cotes, classements et profils (salon/standing.py, server/standing_api.py,
### cli/standing.py, static/js/standing.js).

## familles de cote (classements, profils, terminal)
standing-family-421-salon = 421, règles du salon
standing-family-421-bar = 421, règles de bar
standing-family-zilch = Zilch 5000
standing-family-zanzibar-s = Zanzibar-S
standing-family-chess = Échecs
