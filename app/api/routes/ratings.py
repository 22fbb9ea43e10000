"""Rating REST endpoints (docs/API.md § Ratings): a preset's leaderboard, a few players'
ratings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from app.api.deps import (
    RuntimeDep,
)
from app.api.responses import errors
from app.api.schemas import CODE_PATTERN
from app.services.records import ratings

router = APIRouter(prefix="/api", tags=["ratings"])

_PLAYER_ID = re.compile(CODE_PATTERN)


PresetName = Annotated[
    str, Path(max_length=32, description="a key of GET /api/presets, or bots:<preset>")
]


@router.get("/leaderboard/{preset}", responses=errors(404))
async def leaderboard(
    preset: PresetName,
    rt: RuntimeDep,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Mapping[str, Any]:
    """Rated players of one preset, best first: ``{"preset", "total", "players": [...]}``."""
    return await ratings.leaderboard(rt, preset, per_page, (page - 1) * per_page)


@router.get("/ratings")
async def ratings_of(
    rt: RuntimeDep,
    preset: Annotated[str, Query(max_length=32)],
    players: Annotated[str, Query(max_length=200, description="ids, comma-separated")],
) -> dict[str, Any]:
    """``{"preset", "ratings": {player_id: rating}}`` for seats and lobby cards (at most 5)."""
    ratings.require_preset(preset)
    ids = [p for p in players.split(",") if _PLAYER_ID.fullmatch(p)][:5]
    return {"preset": preset, "ratings": await ratings.of_players(rt, ids, preset)}
