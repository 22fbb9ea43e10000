"""HTTP statuses of the service and engine errors: the API's side of the stable error codes.

The services raise errors that say *what* went wrong (:mod:`app.services.errors`, each with a
stable ``code``); how that reads in HTTP is decided here. Engine errors
(:class:`app.engine.EngineError`) are malformed input (422) or a move the game refuses (409).
"""

from __future__ import annotations

from typing import Any

from app.engine import EngineError
from app.services.errors import (
    Conflict,
    Forbidden,
    NotFound,
    NotSeated,
    RateLimited,
    ServiceError,
    StaleVersion,
    Unauthorized,
    ValidationFailed,
)

#: Status by service error class (a subclass takes its nearest listed ancestor's).
SERVICE_STATUS: dict[type[ServiceError], int] = {
    ValidationFailed: 422,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    StaleVersion: 409,
    NotSeated: 403,
    RateLimited: 429,
}

#: Status by engine error code; any other engine error is 409 (the game refuses the move).
ENGINE_STATUS = {
    "invalid_action": 422,
    "invalid_options": 422,
    "invalid_record": 422,
}


def http_status(exc: ServiceError | EngineError) -> int:
    """The HTTP status for ``exc``.

    Service errors: by class (:data:`SERVICE_STATUS`); an error class not listed there may
    carry its own ``status`` attribute, else 400. Engine errors: 422 for malformed input,
    409 otherwise.
    """
    if isinstance(exc, ServiceError):
        for cls in type(exc).__mro__:
            status = SERVICE_STATUS.get(cls)
            if status is not None:
                return status
        own = getattr(exc, "status", None)
        return own if isinstance(own, int) else 400
    return ENGINE_STATUS.get(exc.code, 409)


def error_detail(code: str, message: str, exc: Exception | None = None) -> dict[str, Any]:
    """An error body's ``{"code", "message", "reason"?, "params"?}``: ``reason`` and ``params``
    when ``exc`` (a service or engine error) carries a reason (docs/API.md § Limits and every
    error), so bodies without one keep their old shape.
    """
    detail: dict[str, Any] = {"code": code, "message": message}
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        detail["reason"] = reason
        detail["params"] = getattr(exc, "params", None) or {}
    return detail
