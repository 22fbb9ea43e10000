"""The error answers of each REST route, for the OpenAPI schema (``responses=`` on a route).

Every error body is ``{"error": {"code", "message"}}`` (:class:`app.api.schemas.ErrorBody`);
the codes behind each status are those of docs/API.md. A route lists every status it can
answer besides 2xx (FastAPI adds 422 itself for routes with parameters or a body).
"""

from __future__ import annotations

from typing import Any

from app.api.schemas import ErrorBody

#: What each status means here, and the error codes that come with it.
ERRORS: dict[int, str] = {
    401: "`unauthorized`: no token, or a token that is invalid or expired",
    403: "`forbidden` (host only, private without its code) or `not_seated`",
    404: "`not_found`: no such lobby, match or player",
    409: "`conflict`, `stale_version` or an engine refusal (`not_your_turn`, `wrong_phase`, "
    "`illegal_placement`, `illegal_follower`, `game_over`)",
    413: "`validation_error`: the request body is over MAX_BODY_BYTES",
    422: "`validation_error` (or `invalid_action`, `invalid_options`): malformed request",
    429: "`rate_limited`: too many requests from this token or address; retry later (after "
    "`Retry-After` seconds when the answer has that header)",
    502: "`push_failed`: no push service took the test alert (reason `push_undelivered`)",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route answering these error statuses."""
    return {status: {"model": ErrorBody, "description": ERRORS[status]} for status in statuses}
