"""Game options (RULES.md §4.6) and the presets a lobby offers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.errors import InvalidOptions

TILESETS = ("base", "wheel_of_fortune")
FARM_SCORINGS = ("modern", "original")
#: Tilesets the engine can play.
SUPPORTED_TILESETS = ("base", "wheel_of_fortune")


@dataclass(frozen=True, slots=True)
class Options:
    """The rules a match is played with.

    ``tileset``: ``base`` (72 tiles, start tile D) or ``wheel_of_fortune``; ``river``: add the
    River (§5, base only); ``farm_scoring``: ``modern`` (3 per completed city per farm, §4.3) or
    ``original`` (4 per city to the farmer majority over all its farms, §4.4);
    ``small_city_two_points``: a completed two-tile city gives 2 instead of 4 (§4.5).
    """

    tileset: str = "base"
    river: bool = False
    farm_scoring: str = "modern"
    small_city_two_points: bool = False

    def __post_init__(self) -> None:
        """Check the options at construction; raises :class:`InvalidOptions`."""
        if self.tileset not in TILESETS:
            raise InvalidOptions(f"unknown tileset {self.tileset!r}")
        if self.tileset not in SUPPORTED_TILESETS:
            raise InvalidOptions(f"tileset {self.tileset!r} is not available yet")
        if self.farm_scoring not in FARM_SCORINGS:
            raise InvalidOptions(f"farm_scoring must be one of {', '.join(FARM_SCORINGS)}")
        if not isinstance(self.river, bool) or not isinstance(self.small_city_two_points, bool):
            raise InvalidOptions("river and small_city_two_points must be true or false")
        if self.river and self.tileset != "base":
            raise InvalidOptions("the River is played with the base tileset only")

    def to_json(self) -> dict[str, Any]:
        """``{"tileset", "river", "farm_scoring", "small_city_two_points"}``."""
        return {
            "tileset": self.tileset,
            "river": self.river,
            "farm_scoring": self.farm_scoring,
            "small_city_two_points": self.small_city_two_points,
        }

    @classmethod
    def from_json(cls, data: Any) -> Options:
        """Build from JSON; missing keys take defaults; raises InvalidOptions on bad values."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidOptions("rules must be a JSON object")
        unknown = set(data) - {"tileset", "river", "farm_scoring", "small_city_two_points"}
        if unknown:
            raise InvalidOptions(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(
            tileset=data.get("tileset", "base"),
            river=data.get("river", False),
            farm_scoring=data.get("farm_scoring", "modern"),
            small_city_two_points=data.get("small_city_two_points", False),
        )


#: Lobby presets (RULES.md §4.6).
PRESETS: dict[str, Options] = {
    "standard": Options(),
    "first_edition": Options(farm_scoring="original", small_city_two_points=True),
    "river": Options(river=True),
    "wheel_of_fortune": Options(tileset="wheel_of_fortune"),
}
