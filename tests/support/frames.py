"""The client side of ``events`` frames in Python: keep a match view current from the socket's
frames the way the browser does (``frontend/js/match/sync.js``), for tests.
"""

from __future__ import annotations

import copy
from typing import Any


def apply_delta(state: dict[str, Any], events: list[dict[str, Any]], delta: dict[str, Any]) -> None:
    """Bring ``state`` (a view) forward by one batch: its ``events`` and ``delta``."""
    for e in events:
        if e.get("type") == "TilePlaced":
            state["board"].append(
                {"at": list(e["at"]), "tile": e["tile"], "rotation": e["rotation"]}
            )
    for key, value in delta.items():
        if key == "remaining":
            for tile, count in value.items():
                if count:
                    state["remaining"][tile] = count
                else:
                    state["remaining"].pop(tile, None)
        elif key == "wheel":
            state["wheel"].update(value)
        else:
            state[key] = value


class Follower:
    """A view kept current from the frames of one socket (``state`` None until a snapshot).

    ``feed(frame)`` returns the view after the frame, or None when the frame leaves it
    incomplete (a catch-up batch without state) or is not about the position.
    """

    def __init__(self, state: dict[str, Any] | None = None, version: int = -1) -> None:
        self.state = copy.deepcopy(state) if state is not None else None
        self.version = version
        self.complete = state is not None

    def feed(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """Apply one server frame (snapshot or events); the view after it, or None."""
        if frame.get("t") == "snapshot":
            self.state = copy.deepcopy(frame["d"]["state"])
            self.version = frame["v"]
            self.complete = True
            return self.state
        if frame.get("t") != "events":
            return None
        d = frame["d"]
        if frame["v"] <= self.version:
            return self.state if self.complete else None
        self.version = frame["v"]
        if d.get("state") is not None:
            self.state = copy.deepcopy(d["state"])
            self.complete = True
        elif d.get("delta") is not None and self.state is not None:
            apply_delta(self.state, d.get("events") or [], d["delta"])
        else:
            if self.state is not None:
                apply_delta(self.state, d.get("events") or [], {})
            self.complete = False
        return self.state if self.complete else None


def seen(frame: dict[str, Any]) -> dict[str, Any]:
    """What an ``events`` frame tells of the position after it: the whole view (a catch-up's
    last batch) or the delta (a live batch) — either has ``phase``, ``seat``, ``turn``,
    ``scores`` and the legal moves of the seat to act.
    """
    d = frame["d"]
    found = d.get("state") if d.get("state") is not None else d.get("delta")
    assert found is not None, f"batch {frame.get('v')} carries no position"
    return dict(found)
