"""The tile catalogue and the rule presets (static for the life of the process)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.engine import PRESETS, catalogue_json

router = APIRouter(prefix="/api", tags=["catalogue"])

_CATALOGUE: dict[str, Any] = {"tiles": catalogue_json()}


_PRESETS: dict[str, Any] = {"presets": {k: v.to_json() for k, v in PRESETS.items()}}


@router.get("/catalogue")
async def catalogue() -> dict[str, Any]:
    """Every tile type in catalogue orientation (the client draws tiles from this)."""
    return _CATALOGUE


@router.get("/presets")
async def presets() -> dict[str, Any]:
    """The lobby presets (RULES.md §4.6) and their rules."""
    return _PRESETS
