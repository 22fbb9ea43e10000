"""Service errors: each has a stable ``code`` (the wire's error code) and an HTTP status.

Engine errors (:class:`app.engine.EngineError`) pass through the services unchanged; the API
maps both families with :func:`http_status`.
"""

from __future__ import annotations

from app.engine import EngineError


class ServiceError(Exception):
    """Base class: ``code`` for machines, ``message`` for people, ``status`` for HTTP."""

    code = "error"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ValidationFailed(ServiceError):
    """A well-typed request whose content is not acceptable (bad name, bad option)."""

    code, status = "validation_error", 422


class Unauthorized(ServiceError):
    """No token, or a token whose signature does not verify."""

    code, status = "unauthorized", 401


class Forbidden(ServiceError):
    """Authenticated but not allowed (host-only operation, private match without its code)."""

    code, status = "forbidden", 403


class NotFound(ServiceError):
    """No such lobby, match or player."""

    code, status = "not_found", 404


class Conflict(ServiceError):
    """The request does not fit the current state (lobby full, colour taken, already started)."""

    code, status = "conflict", 409


class StaleVersion(ServiceError):
    """The action was made against an older version of the match."""

    code, status = "stale_version", 409

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


class NotSeated(ServiceError):
    """The sender holds no seat in this match (a spectator, or another match's player)."""

    code, status = "not_seated", 403


class RateLimited(ServiceError):
    """Too many requests from one token."""

    code, status = "rate_limited", 429


_ENGINE_STATUS = {
    "invalid_action": 422,
    "invalid_options": 422,
}


def http_status(exc: ServiceError | EngineError) -> int:
    """The HTTP status of a service or engine error (engine: 422 malformed, else 409)."""
    if isinstance(exc, ServiceError):
        return exc.status
    return _ENGINE_STATUS.get(exc.code, 409)
