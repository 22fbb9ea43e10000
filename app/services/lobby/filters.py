"""The Tables page's filters of open tables (``GET /api/lobbies`` query; docs/API.md § Lobbies)."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.lobby.model import LobbyRow


@dataclass(frozen=True)
class TableFilters:
    """What the Tables page's filters ask of an open table (None: any): its rule ``preset``
    (``"custom"``: none), number of ``seats``, clock ``kind`` (``untimed``, ``per_turn``,
    ``fischer``, ``correspondence``), ``rated`` or casual, and host ``language``.
    """

    preset: str | None = None
    seats: int | None = None
    clock: str | None = None
    rated: bool | None = None
    language: str | None = None

    @property
    def empty(self) -> bool:
        """Whether no filter is set."""
        return self == TableFilters()

    def admits(self, row: LobbyRow) -> bool:
        """Whether the lobby row passes every filter set."""
        kind = (row.time_control or {}).get("kind", "untimed") if row.time_control else "untimed"
        checks = (
            (self.preset, row.preset or "custom"),
            (self.seats, row.max_seats),
            (self.clock, kind),
            (self.rated, bool(row.rated)),
            (self.language, row.language),
        )
        return all(want is None or want == have for want, have in checks)
