"""A table's spectator delay: how far behind its spectators see a live match.

The host (in the lobby) chooses ``{"moves": N}`` — spectators see the position N actions
before the latest (an action is one entry of the match's log: a tile placed, a follower placed
or a pass; the match's ``version`` counts them) — or ``{"seconds": M}`` — spectators see the
latest position committed at least M seconds ago. Players see the match live; once the match
has ended, everyone sees all of it.

Whatever the kind, a delay is one *cutoff time* ``T``: spectators see the actions committed
before ``T`` and the chat posted before ``T``, nothing later (app/services/match/spectating/delay.py
applies it to every path). This module is pure: the value type, its parsing and the cutoff
arithmetic; it imports no feature and does no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.services.errors import ValidationFailed

#: The bounds a host may choose (moves: actions in the log; seconds: wall-clock seconds).
MOVES = (1, 60)
SECONDS = (5, 1800)


@dataclass(frozen=True)
class SpectatorDelay:
    """``moves`` actions or ``seconds`` seconds behind (exactly one is non-zero)."""

    moves: int = 0
    seconds: int = 0

    def to_json(self) -> dict[str, int]:
        """``{"moves": N}`` or ``{"seconds": M}`` (the stored and wire form)."""
        return {"moves": self.moves} if self.moves else {"seconds": self.seconds}

    @staticmethod
    def from_json(data: object) -> SpectatorDelay | None:
        """The stored JSON back (None, ``{}`` or anything unreadable: no delay)."""
        if not isinstance(data, dict):
            return None
        moves, seconds = data.get("moves"), data.get("seconds")
        if isinstance(moves, int) and moves > 0:
            return SpectatorDelay(moves=moves)
        if isinstance(seconds, int) and seconds > 0:
            return SpectatorDelay(seconds=seconds)
        return None

    def cutoff(
        self, now: datetime, latest: int, times: dict[int, datetime]
    ) -> tuple[int, datetime | None]:
        """``(visible version, cutoff time)`` for a live match at version ``latest``.

        ``times``: the commit time of log entries (``seq`` → time, UTC), at least every entry
        after the visible version (the caller reads the last :func:`window` entries). The
        cutoff time is None when nothing is held back (the match has fewer than N actions
        still hidden and no chat is to wait: spectators are level with the latest).
        """
        if self.moves:
            shown = max(0, latest - self.moves)
            if shown >= latest:
                return latest, None
            first_hidden = times.get(shown + 1)
            return shown, first_hidden if first_hidden is not None else now
        cutoff = now - timedelta(seconds=self.seconds)
        shown = latest
        while shown > 0 and shown in times and times[shown] > cutoff:
            shown -= 1
        return shown, cutoff

    def window(self) -> int:
        """How many of the latest log entries :meth:`cutoff` may need the times of (a seconds
        delay reads back at most this far: a match does not commit more within it).
        """
        return self.moves + 1 if self.moves else 400

    def due(self, next_hidden: datetime | None) -> datetime | None:
        """When the first hidden log entry (committed at ``next_hidden``) becomes visible
        (None: it waits for more moves, not for time).
        """
        if self.moves or next_hidden is None:
            return None
        return next_hidden + timedelta(seconds=self.seconds)


def parse_spectator_delay(data: object) -> dict[str, int] | None:
    """A lobby's spectator delay from a request: None or ``{}`` (live), ``{"moves": N}``
    (1–60) or ``{"seconds": M}`` (5–1800). Returns the stored JSON (None: live).

    Raises :class:`ValidationFailed` (reason ``spectator_delay``) naming the field.
    """
    if data is None or data == {}:
        return None
    if not isinstance(data, dict) or len(data) != 1:
        raise ValidationFailed(
            "spectator_delay is {} or one of {moves: N} or {seconds: M}",
            reason="spectator_delay",
            params={},
        )
    ((kind, value),) = data.items()
    bounds = {"moves": MOVES, "seconds": SECONDS}.get(kind)
    if (
        bounds is None
        or not isinstance(value, int)
        or isinstance(value, bool)
        or not bounds[0] <= value <= bounds[1]
    ):
        low, high = bounds or MOVES
        raise ValidationFailed(
            f"spectator_delay.{kind} must be a whole number from {low} to {high}",
            reason="spectator_delay",
            params={"kind": kind, "min": low, "max": high},
        )
    return {kind: value}
