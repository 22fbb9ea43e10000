"""Computer players that choose actions through the engine API (no I/O)."""

from app.bots.heuristic import choose_action

__all__ = ["choose_action"]
