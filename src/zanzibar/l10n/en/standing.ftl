### Standing: ratings, leaderboards and profiles (salon/standing.py, server/standing_api.py,
### cli/standing.py, static/js/standing.js).

## refusals
error-rated-flag = rated is true or false
error-rated-table-guest = this table is rated: guests may not play at it; create an account to play rated games
error-no-family = no rating family '{ $family }' (families: { $known })
error-page = cursor is a count of players from 0 and limit a number from 1 to { $largest }
error-no-profile = no profile of '{ $name }'
error-profile-sign-in = sign in to see players' profiles
error-profile-guest = a guest has no profile; create an account
error-hidden-flag = send {"{"}"hidden": true{"}"} or {"{"}"hidden": false{"}"}
