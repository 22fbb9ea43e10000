"""Match clocks: the pure rules of time controls, leaving and votes (:mod:`.rules`,
:mod:`.votes`), their use cases (:mod:`.clocks`, :mod:`.requests`) and outage credit.
Imports neither the lobby nor the match package: they call into it.
"""
