"""Typed errors of the rules engine, each with a stable machine-readable ``code``.

Clients switch on ``code``; the message is for people. *Invalid* means malformed input, *illegal*
means well-formed but not allowed now (the python-chess split).
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class: ``code`` is stable, ``message`` readable. Nothing changes when one is raised.

    ``reason``: an optional finer stable code (e.g. ``occupied``) and ``params`` the values its
    sentence needs, so a client can word the error in its reader's language.
    """

    code = "engine_error"

    def __init__(
        self, message: str, *, reason: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.params: dict[str, Any] = params or {}


class InvalidAction(EngineError):
    """The action is malformed: unknown type, bad rotation, unknown follower spot name."""

    code = "invalid_action"


class InvalidOptions(EngineError):
    """Game options, players or a draw order that no game can have."""

    code = "invalid_options"


class NotYourTurn(EngineError):
    """The acting seat is not the seat whose decision the game is waiting for."""

    code = "not_your_turn"


class WrongPhase(EngineError):
    """The action does not belong to the current phase (e.g. a follower before the tile)."""

    code = "wrong_phase"


class IllegalPlacement(EngineError):
    """The tile cannot go there in that rotation (RULES.md §3.2b, §5.2)."""

    code = "illegal_placement"


class IllegalFollower(EngineError):
    """The follower cannot be deployed there (RULES.md §3.2d)."""

    code = "illegal_follower"


class GameOver(EngineError):
    """The game has ended; no further actions are accepted."""

    code = "game_over"


class RecordError(EngineError):
    """A game record is malformed or illegal; ``move`` is the 1-based move number (0: header).

    ``params`` always holds ``move`` (the wire's ``params.move``).
    """

    code = "invalid_record"

    def __init__(
        self,
        message: str,
        move: int = 0,
        *,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            f"move {move}: {message}" if move else message,
            reason=reason,
            params={"move": move, **(params or {})},
        )
        self.move = move
