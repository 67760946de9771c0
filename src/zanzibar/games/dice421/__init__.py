"""421 / Zanzibar: three dice, two phases, the Salon's and the bars' rules.

Modules: :mod:`combos` (the 56 throws, order, values), :mod:`options` (option
schema and presets), :mod:`state` (state and actions), :mod:`flow` (how a game
moves), :mod:`rules` (the GameRules object ``RULES``), :mod:`messages` and
:mod:`help` (words), :mod:`bots` and :mod:`solver` (exact probabilities).
"""
