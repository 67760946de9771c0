### Classement : cotes, classements et profils (salon/standing.py, server/standing_api.py,
### cli/standing.py, static/js/standing.js).

## refus
error-rated-flag = « rated » vaut true ou false
error-rated-table-guest = cette table est classée : les invités ne peuvent pas y jouer ; créez un compte pour jouer des parties classées
error-no-family = aucune famille de cote « { $family } » (familles : { $known })
error-page = le curseur compte les joueurs à partir de 0 et la limite va de 1 à { $largest }
error-no-profile = aucun profil de « { $name } »
error-profile-sign-in = connectez-vous pour voir les profils des joueurs
error-profile-guest = un invité n'a pas de profil ; créez un compte
error-hidden-flag = envoyez {"{"}"hidden": true{"}"} ou {"{"}"hidden": false{"}"}
