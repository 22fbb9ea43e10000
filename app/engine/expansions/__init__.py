"""Expansions: the rules a game adds to the base game, each behind the fixed hook points of
:class:`~app.engine.expansions.base.Expansion` (in the manner of scalachess's ``variant/``).

Every expansion the engine knows is in :data:`EXPANSIONS`, in the fixed order views list them;
:func:`active` gives a game's. The base game's modules (``game``, ``legal``, ``view``,
``record``, ``notation``) reach an expansion only through this registry, never by name.

Adding one: write a subclass of :class:`Expansion` in a module or package of this folder that
overrides the hooks it needs (its state as an immutable value in ``GameState.expansion_state``,
its own phases, actions and events), and add its instance to :data:`EXPANSIONS` (with the rule
option that turns it on in :class:`~app.engine.options.Options`).
"""

from __future__ import annotations

from functools import cache

from app.engine.expansions.base import Expansion, RecordExport, RecordReplay, Resume
from app.engine.expansions.river import RIVER
from app.engine.expansions.wheel_of_fortune import WHEEL_OF_FORTUNE
from app.engine.options import Options

#: Every expansion the engine knows, in the fixed order views list them.
EXPANSIONS: tuple[Expansion, ...] = (RIVER, WHEEL_OF_FORTUNE)


@cache
def _active(options: Options) -> tuple[Expansion, ...]:
    return tuple(x for x in EXPANSIONS if x.is_active(options))


#: ``id(options)`` → ``(options, its active expansions)``: the base game asks several times per
#: action, and hashing a frozen dataclass costs more than the lookup. Holding ``options`` keeps
#: its id from being reused while the entry lives; the memo only ever gives what
#: :func:`_active` gives.
_BY_IDENTITY: dict[int, tuple[Options, tuple[Expansion, ...]]] = {}


def active(options: Options) -> tuple[Expansion, ...]:
    """The expansions a game with ``options`` plays, in :data:`EXPANSIONS` order."""
    hit = _BY_IDENTITY.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    found = _active(options)
    if len(_BY_IDENTITY) >= 1024:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(options)] = (options, found)
    return found


__all__ = [
    "EXPANSIONS",
    "Expansion",
    "RecordExport",
    "RecordReplay",
    "Resume",
    "active",
]
