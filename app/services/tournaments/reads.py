"""Lists of tournaments: the public list and the tournaments one player entered (their
profile). Reads only.
"""

from __future__ import annotations

from typing import Any

from app.db.session import as_utc
from app.services.clock import table_options
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.tournaments import ACTIVE, standings_of


async def listing(rt: Runtime, limit: int = 50) -> list[dict[str, Any]]:
    """Public tournaments (``{"id", "name", "format", "rounds", "status", "round",
    "entrants", "preset", "time_control", "time_label", "rated"}``), those not finished first.
    """
    async with rt.db.reading() as conn:
        rows = await sql.listed(conn, limit)
    return [
        {
            "id": r.id,
            "name": r.name,
            "format": r.format,
            "rounds": r.rounds,
            "status": sql.public_status(r),
            "round": r.round,
            "entrants": int(r.entrants),
            "preset": r.preset,
            "rated": bool(r.rated),
            "ends_at": None if r.ends_at is None else as_utc(r.ends_at).isoformat(),
            "time_control": table_options.lobby_fields(r.time_control)["time_control"],
            "time_label": table_options.lobby_fields(r.time_control)["time_label"],
        }
        for r in rows
    ]


async def player_history(
    rt: Runtime, player_id: str, viewer: str | None = None, limit: int = 20
) -> list[dict[str, Any]]:
    """The tournaments ``player_id`` entered, newest first (private ones only to the player):
    ``[{"id", "name", "format", "status", "round", "rounds", "entrants", "rank", "points",
    "entry"}]`` (``rank``/``points``: the player's place in the standings now; ``entry``: their
    entrant status).
    """
    out = []
    async with rt.db.reading() as conn:
        rows = await sql.entries_of(conn, player_id, limit)
        for r in rows:
            if r.private and viewer != player_id:
                continue
            people = await sql.entrants(conn, r.id)
            games = await sql.games(conn, r.id)
            mine = next(
                (s for s in standings_of(r, people, games) if s["number"] == r.entrant_number),
                None,
            )
            out.append(
                {
                    "id": r.id,
                    "name": r.name,
                    "format": r.format,
                    "status": sql.public_status(r),
                    "round": r.round,
                    "rounds": r.rounds,
                    "entrants": sum(1 for e in people if e.status in ACTIVE),
                    "rank": None if mine is None or r.status == "registering" else mine["rank"],
                    "points": None if mine is None else mine["points"],
                    "entry": r.entrant_status,
                    "ends_at": None if r.ends_at is None else as_utc(r.ends_at).isoformat(),
                }
            )
    return out
