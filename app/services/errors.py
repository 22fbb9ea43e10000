"""Service errors: each has a stable ``code`` (the wire's error code) and a message.

Engine errors (:class:`app.engine.EngineError`) pass through the services unchanged. Their
HTTP statuses (and the websocket close codes) are the API's business: see
:func:`app.api.errors.http_status`.
"""

from __future__ import annotations

from app.json_types import JsonObject


class ServiceError(Exception):
    """Base class: ``code`` for machines, ``message`` for people.

    ``reason``: an optional finer stable code (snake_case, e.g. ``password_length``) and
    ``params`` the values its sentence needs (e.g. ``{"min": 8, "max": 128}``): the client words
    the error from them in the reader's language (docs/API.md § Limits and every error).
    """

    code = "error"

    def __init__(
        self, message: str, *, reason: str | None = None, params: JsonObject | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.params: JsonObject = params or {}


class ValidationFailed(ServiceError):
    """A well-typed request whose content is not acceptable (bad name, bad option)."""

    code = "validation_error"


class Unauthorized(ServiceError):
    """No token, or a token whose signature does not verify."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """Authenticated but not allowed (host-only operation, private match without its code)."""

    code = "forbidden"


class NotFound(ServiceError):
    """No such lobby, match or player."""

    code = "not_found"


class Conflict(ServiceError):
    """The request does not fit the current state (lobby full, colour taken, already started)."""

    code = "conflict"


class StaleVersion(ServiceError):
    """The action was made against an older version of the match."""

    code = "stale_version"

    def __init__(
        self,
        message: str,
        version: int,
        *,
        reason: str | None = None,
        params: JsonObject | None = None,
    ) -> None:
        super().__init__(message, reason=reason, params=params)
        self.version = version


class NotSeated(ServiceError):
    """The sender holds no seat in this match (a spectator, or another match's player)."""

    code = "not_seated"


class RateLimited(ServiceError):
    """Too many requests (from one token, address, socket or for one account).

    ``retry_after``: seconds until a retry can succeed (HTTP ``Retry-After``); None when
    unknown (a cap on open sockets).
    """

    code = "rate_limited"

    def __init__(
        self,
        message: str,
        retry_after: float | None = None,
        *,
        reason: str | None = None,
        params: JsonObject | None = None,
    ) -> None:
        super().__init__(message, reason=reason, params=params)
        self.retry_after = retry_after


class PushFailed(ServiceError):
    """No push service took a test alert (HTTP 502: the fault is upstream, not the caller's).

    ``reason``: ``push_undelivered``; ``params``: ``{"devices", "dropped"}`` (``dropped``: the
    subscriptions ended because their push service said they are gone or their keys are bad).
    """

    code = "push_failed"
    status = 502
