"""The data export (docs/API.md § Export): a player's finished matches as NDJSON, one match's
exported record. For programs: an API token with the ``read`` scope (or a session token);
the request quota is the player's, whatever token it sends (``EXPORT_REQUESTS_PER_PLAYER``),
and for guests the client address's too (``EXPORT_REQUESTS_PER_ADDRESS``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import StreamingResponse

from app.api.deps import RuntimeDep, client_address
from app.api.responses import errors
from app.api.schemas import CODE_PATTERN
from app.api.scopes import Reader
from app.engine import PRESETS
from app.services.errors import ValidationFailed
from app.services.platform import export, export_zip
from app.services.platform.export_queries import ExportFilter
from app.services.runtime import Runtime

router = APIRouter(prefix="/api/export", tags=["export"])

NDJSON = "application/x-ndjson"
ZIP = "application/zip"
PresetName = Annotated[
    str | None,
    Query(description="a preset name (GET /api/presets), or custom for explicit rules"),
]


def _moment(value: str | None, name: str) -> datetime | None:
    """An ISO 8601 date/time or epoch milliseconds, as UTC; raises ValidationFailed."""
    if value is None or value == "":
        return None
    try:
        if value.isdigit():
            return datetime.fromtimestamp(int(value) / 1000, tz=UTC)
        # A "+" of an offset left unescaped in a query string arrives as a space.
        when = datetime.fromisoformat(value.replace(" ", "+").replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):
        raise ValidationFailed(
            f"{name}: an ISO 8601 date/time or epoch milliseconds", reason="export_time"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


async def _started(lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``lines`` after its first (empty) item, which the route awaited before answering."""
    async for line in lines:
        yield line


async def _export(
    rt: Runtime,
    who_id: str,
    request: Request,
    max_records: int | None,
    pieces: Callable[[int], AsyncIterator[bytes]],
    *,
    media_type: str,
    headers: dict[str, str] | None = None,
) -> StreamingResponse:
    """The streamed answer of an export route: the request counted against the quotas
    (raises RateLimited), at most ``max_records`` records (the ``EXPORT_MAX_RECORDS`` cap
    whatever is asked), and the stream's first, empty, item awaited before the 200 so that
    its NotFound (an unknown player or tournament) is the answer instead.
    """
    await export.count_request(rt, who_id, client_address(request))
    cap = rt.settings.export_max_records
    lines = pieces(min(max_records or cap, cap))
    await lines.__anext__()
    return StreamingResponse(_started(lines), media_type=media_type, headers=headers)


@router.get(
    "/players/{player_id}/matches",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}}, **errors(401, 403, 404, 422, 429)},
)
async def player_matches(
    rt: RuntimeDep,
    who: Reader,
    request: Request,
    player_id: Annotated[str, Path(pattern=CODE_PATTERN)],
    *,
    since: Annotated[str | None, Query(description="finished at or after (ISO 8601 / ms)")] = None,
    until: Annotated[str | None, Query(description="finished before (ISO 8601 / ms)")] = None,
    preset: PresetName = None,
    rated: Annotated[bool | None, Query(description="rated (and counted) or not")] = None,
    max: Annotated[int | None, Query(ge=1, description="at most this many records")] = None,
) -> StreamingResponse:
    """The player's finished matches, newest first, as NDJSON: one exported record per line
    (docs/API.md § Export). Private matches only for the player themself.
    """
    if preset is not None and preset != "custom" and preset not in PRESETS:
        raise ValidationFailed(f"preset: one of {', '.join([*PRESETS, 'custom'])}")
    f = ExportFilter(
        player_id=player_id,
        since=_moment(since, "since"),
        until=_moment(until, "until"),
        preset=preset,
        rated=rated,
        with_private=who.player_id == player_id,
    )
    return await _export(
        rt,
        who.player_id,
        request,
        max,
        lambda limit: export.stream(rt, f, limit),
        media_type=NDJSON,
    )


@router.get(
    "/tournaments/{tournament_id}/matches",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}}, **errors(401, 403, 404, 422, 429)},
)
async def tournament_matches(
    rt: RuntimeDep,
    who: Reader,
    request: Request,
    tournament_id: Annotated[str, Path(pattern=CODE_PATTERN)],
    max: Annotated[int | None, Query(ge=1, description="at most this many records")] = None,
) -> StreamingResponse:
    """A tournament's finished matches in playing order (round, then table) as NDJSON: one
    exported record per line, with ``"tournament": {"id", "round", "table"}`` (docs/API.md §
    Export). A private match only for its players and the tournament's host.
    """
    return await _export(
        rt,
        who.player_id,
        request,
        max,
        lambda limit: export.tournament_stream(rt, tournament_id, who.player_id, limit),
        media_type=NDJSON,
    )


@router.get(
    "/tournaments/{tournament_id}/records.zip",
    response_class=StreamingResponse,
    responses={200: {"content": {ZIP: {}}}, **errors(401, 403, 404, 422, 429)},
)
async def tournament_records_zip(
    rt: RuntimeDep,
    who: Reader,
    request: Request,
    tournament_id: Annotated[str, Path(pattern=CODE_PATTERN)],
    max: Annotated[int | None, Query(ge=1, description="at most this many records")] = None,
) -> StreamingResponse:
    """A tournament's finished matches as a zip of exported records, one JSON file per match
    (``round-01-table-02-<match id>.json``), the same records and rules as the NDJSON export.
    """
    name = f"tournament-{tournament_id}-records.zip"
    return await _export(
        rt,
        who.player_id,
        request,
        max,
        lambda limit: export_zip.tournament_zip(rt, tournament_id, who.player_id, limit),
        media_type=ZIP,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/matches/{match_id}", responses=errors(401, 403, 404, 429))
async def one_match(
    rt: RuntimeDep,
    who: Reader,
    request: Request,
    match_id: Annotated[str, Path(pattern=CODE_PATTERN)],
) -> dict[str, Any]:
    """One finished match's exported record (docs/API.md § Export). A private match needs a
    seat in it.
    """
    await export.count_request(rt, who.player_id, client_address(request))
    return await export.one(rt, match_id, who.player_id)
