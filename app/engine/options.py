"""Game options (RULES.md §4.6) and the base game's lobby presets.

This module names no expansion. Which expansions a match plays is :attr:`Options.expansions`,
a set of expansion ids; the registry (:mod:`app.engine.expansions`) knows them, checks a set
(unknown names, combinations no expansion allows), and reads and writes their part of the rules
JSON. It installs itself here when imported (:func:`use_registry`), which importing
:mod:`app.engine` always does; until then only the base game (no expansion) is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.engine.errors import InvalidOptions

FARM_SCORINGS = ("modern", "original")
#: The keys of the rules JSON that are not the expansions' (see :meth:`Options.from_json`).
_OWN_KEYS = frozenset({"expansions", "farm_scoring", "small_city_two_points"})


class ExpansionRules(Protocol):
    """What :class:`Options` asks the expansion registry (:mod:`app.engine.expansions`)."""

    #: The keys of the rules JSON from before ``expansions`` (``tileset`` and each flag).
    legacy_keys: frozenset[str]

    def check(self, names: frozenset[str]) -> None:
        """Raise :class:`InvalidOptions` for an unknown name or a combination not allowed."""

    def tileset(self, names: frozenset[str]) -> str:
        """``base``, or the id of the expansion in ``names`` whose tiles replace the base's."""

    def legacy_json(self, names: frozenset[str]) -> dict[str, Any]:
        """The expansions' keys of the rules JSON as releases before ``expansions`` wrote them."""

    def names_from_json(self, data: dict[str, Any]) -> frozenset[str]:
        """The expansions a rules JSON object plays, from ``expansions`` and/or the older keys
        (which must agree); raises :class:`InvalidOptions`.
        """


class _BaseOnly:
    """The registry before :mod:`app.engine.expansions` installs itself: no expansion."""

    legacy_keys: frozenset[str] = frozenset({"tileset"})

    def check(self, names: frozenset[str]) -> None:
        for name in sorted(names):
            raise InvalidOptions(f"unknown expansion {name!r}")

    def tileset(self, names: frozenset[str]) -> str:
        return "base"

    def legacy_json(self, names: frozenset[str]) -> dict[str, Any]:
        return {"tileset": "base"}

    def names_from_json(self, data: dict[str, Any]) -> frozenset[str]:
        if data.get("expansions") or data.get("tileset", "base") != "base":
            raise InvalidOptions("no expansion is known")
        return frozenset()


_registry: ExpansionRules = _BaseOnly()


def use_registry(registry: ExpansionRules) -> None:
    """Let :class:`Options` ask ``registry`` (called once, by :mod:`app.engine.expansions`)."""
    global _registry
    _registry = registry


@dataclass(frozen=True, slots=True)
class Options:
    """The rules a match is played with.

    ``expansions``: the ids of the expansions it plays (RULES.md §5 the River, added to the base
    game; §6 the Wheel of Fortune, a standalone game whose tiles replace the base game's), as
    the registry allows them; ``farm_scoring``: ``modern`` (3 per completed city per farm, §4.3)
    or ``original`` (4 per city to the farmer majority over all its farms, §4.4);
    ``small_city_two_points``: a completed two-tile city gives 2 instead of 4 (§4.5).
    """

    expansions: frozenset[str] = frozenset()
    farm_scoring: str = "modern"
    small_city_two_points: bool = False

    def __post_init__(self) -> None:
        """Check the options at construction; raises :class:`InvalidOptions`."""
        if not isinstance(self.expansions, frozenset) or not all(
            isinstance(name, str) for name in self.expansions
        ):
            raise InvalidOptions("expansions must be a set of expansion names")
        _registry.check(self.expansions)
        if self.farm_scoring not in FARM_SCORINGS:
            raise InvalidOptions(f"farm_scoring must be one of {', '.join(FARM_SCORINGS)}")
        if not isinstance(self.small_city_two_points, bool):
            raise InvalidOptions("small_city_two_points must be true or false")

    @property
    def tileset(self) -> str:
        """The tiles played (read-only, from :attr:`expansions`): ``base``, or the id of the
        expansion whose tiles replace the base game's.
        """
        return _registry.tileset(self.expansions)

    def to_json(self) -> dict[str, Any]:
        """``{"tileset", <each expansion's flag>, "farm_scoring", "small_city_two_points"}``:
        the form every release so far writes and reads (today's ``{"tileset", "river", …}``).

        ``expansions`` is not written yet: a release before this one refuses an unknown key,
        and a rolling upgrade runs it beside this one on the same rows. :meth:`from_json` reads
        it, so the release after this one may write it.
        """
        return {
            **_registry.legacy_json(self.expansions),
            "farm_scoring": self.farm_scoring,
            "small_city_two_points": self.small_city_two_points,
        }

    @classmethod
    def from_json(cls, data: Any) -> Options:
        """Build from JSON; missing keys take defaults; raises InvalidOptions on bad values.

        The expansions come from ``"expansions": [names]``, from the keys of earlier releases
        (``tileset`` and the expansions' flags, e.g. ``"river": true``), or both — which must
        then agree.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidOptions("rules must be a JSON object")
        unknown = set(data) - _OWN_KEYS - _registry.legacy_keys
        if unknown:
            raise InvalidOptions(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(
            expansions=_registry.names_from_json(data),
            farm_scoring=data.get("farm_scoring", "modern"),
            small_city_two_points=data.get("small_city_two_points", False),
        )


#: The base game's lobby presets (RULES.md §4.6); :data:`app.engine.PRESETS` adds one per
#: expansion.
BASE_PRESETS: dict[str, Options] = {
    "standard": Options(),
    "first_edition": Options(farm_scoring="original", small_city_two_points=True),
}
