"""The games as PettingZoo environments, for reinforcement-learning and game-theory research.

Install with the ``research`` extra (``pip install 'zanzibar[research]'``): it
brings PettingZoo and Gymnasium, which the rest of Zanzibar does not need.

>>> from zanzibar.research import env  # doctest: +SKIP
>>> game = env("421", players=4)  # doctest: +SKIP

See :mod:`zanzibar.research.envs` for the environments and
:mod:`zanzibar.research.codecs` for how actions and observations are numbered.
"""

from __future__ import annotations

from zanzibar.research.envs import GAMES, ZanzibarEnv, bot_policy, env, random_policy

__all__ = ["GAMES", "ZanzibarEnv", "bot_policy", "env", "random_policy"]
