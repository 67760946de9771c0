### Standing: ratings, leaderboards and profiles (salon/standing.py, server/standing_api.py,
### cli/standing.py, static/js/standing.js).

## rating families (leaderboards, profiles, the terminal)
standing-family-421-salon = 421, salon rules
standing-family-421-bar = 421, bar rules
standing-family-zilch = Zilch 5000
standing-family-zanzibar-s = Zanzibar-S
standing-family-chess = Chess
