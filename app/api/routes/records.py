"""Record files (docs/API.md § History and replays, § Fair bag): any ``carcassonne-record/1``
cut into replay steps, and a finished record's shuffle checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request

from app.api.deps import (
    RuntimeDep,
    client_address,
)
from app.api.responses import errors
from app.api.schemas_community import Verdict
from app.bots.pool import Busy
from app.services.errors import RateLimited, ValidationFailed
from app.services.records import replays
from app.services.runtime import Runtime

router = APIRouter(prefix="/api", tags=["records"])


async def _offloaded(rt: Runtime, fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``fn(*args)`` in a worker process; a busy pool is a 429 with a time to retry."""
    try:
        return await rt.workers.bots.offload(fn, *args)
    except Busy as exc:
        raise RateLimited(str(exc), retry_after=5) from None


def _record_body(record: Any) -> Any:
    if not isinstance(record, dict):
        raise ValidationFailed("body: a carcassonne-record/1 JSON object")
    return record


@router.post("/replay", responses=errors(413, 429))
async def replay_file(
    rt: RuntimeDep, record: Annotated[Any, Body()], request: Request
) -> dict[str, Any]:
    """Any ``carcassonne-record/1`` cut into steps. An invalid record: 422 ``invalid_record``
    naming the move and the reason. Replayed off the event loop; limited per client address.
    """
    await rt.limits.accounts.replay(client_address(request))
    out = await _offloaded(rt, replays.steps, _record_body(record))
    out["record"] = record
    return out


@router.post("/verify", response_model=Verdict, responses=errors(413, 429))
async def verify(
    rt: RuntimeDep,
    record: Annotated[Any, Body()],
    request: Request,
    commitment: Annotated[str | None, Query(pattern=r"^[0-9a-f]{64}$")] = None,
) -> dict[str, Any]:
    """Check a finished record's shuffle: the commitment, every drawn tile against the
    committed deck, and every move. ``commitment``: the one you saw published, if you kept it.
    Checked off the event loop; limited per client address.
    """
    await rt.limits.accounts.replay(client_address(request))
    return await _offloaded(rt, replays.verify, _record_body(record), commitment)
