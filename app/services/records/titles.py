"""A table's title on the wire: the name its host gave, or none and the host's name.

A host who gives no name gets no name stored (``name`` null): every client words the default
itself, in its reader's language ("Ann's table", "Tisch von Ann", "Table de Ann"), from the
``host_name`` sent beside it (docs/API.md § Lobbies). Tables from before this kept the English
default they were given ("Ann's table") as their name and are shown as they are.

Pure functions of a row's seats (and, for a match, its clock, which keeps the host's seat);
no database and no other service module here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class KeepsHost(Protocol):
    """A typed match clock as this module reads it
    (``app.services.clock_values.match_clock.MatchClock``, not imported: this module imports no
    other service module): the host's seat, or None.
    """

    @property
    def host(self) -> int | None:
        """The host's seat."""
        ...


class NamedSeat(Protocol):
    """A typed match seat as this module reads it
    (``app.services.seat_values.MatchSeat``, not imported for the same reason): its name.
    """

    @property
    def name(self) -> str | None:
        """The name shown on the seat."""
        ...


def lobby_host_name(seats: Sequence[Mapping[str, object]], host_id: str) -> str | None:
    """The name on the host's seat of a lobby (the host always holds one; None otherwise)."""
    name = next((s["name"] for s in seats if s.get("player") == host_id), None)
    return None if name is None else str(name)


def match_host_name(
    seats: Sequence[Mapping[str, object]] | Sequence[NamedSeat],
    clock: Mapping[str, object] | KeepsHost | None,
) -> str | None:
    """The name on the seat of a match's host (the seat the clock keeps as ``host``), as the
    seats hold it now ("Deleted player" once the host's account is deleted). None for matches
    from before clocks, which all have a name. ``seats``: the stored seat dicts
    (``matches.seats``) or the typed seats; ``clock``: the stored clock dict
    (``matches.clock``) or the typed clock.
    """
    if isinstance(clock, Mapping):
        host: object = clock.get("host")
    else:
        host = None if clock is None else clock.host
    if not isinstance(host, int) or not 0 <= host < len(seats):
        return None
    seat = seats[host]
    name = seat.get("name") if isinstance(seat, Mapping) else seat.name
    return str(name) if name is not None else None
