"""Carcassonne: Wheel of Fortune (RULES.md §6) as an expansion of the engine.

:data:`WHEEL_OF_FORTUNE` answers the base game's hook points (:mod:`.expansion`); the rules
themselves (the pig, the six segments, crown spaces, the Plague) are in :mod:`.rules`, the
state, phase, action and events in :mod:`.model`, segment data in :mod:`.data`, the record
entries in :mod:`.record`. The base game reaches it only through the registry
(:mod:`app.engine.expansions`).
"""

from app.engine.expansions.wheel_of_fortune.data import (
    CROWNS,
    PLAGUE_SEGMENT,
    SEGMENT_NAMES,
)
from app.engine.expansions.wheel_of_fortune.expansion import WHEEL_OF_FORTUNE, WheelOfFortune
from app.engine.expansions.wheel_of_fortune.model import (
    PLAGUE,
    CrownPlaced,
    CrownReturned,
    PigMoved,
    RemoveFollower,
    WheelState,
    wheel_state,
)
from app.engine.expansions.wheel_of_fortune.rules import crown_points, plague_choices, tax_points

__all__ = [
    "CROWNS",
    "PLAGUE",
    "PLAGUE_SEGMENT",
    "SEGMENT_NAMES",
    "WHEEL_OF_FORTUNE",
    "CrownPlaced",
    "CrownReturned",
    "PigMoved",
    "RemoveFollower",
    "WheelOfFortune",
    "WheelState",
    "crown_points",
    "plague_choices",
    "tax_points",
    "wheel_state",
]
