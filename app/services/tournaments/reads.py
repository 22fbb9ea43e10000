"""Lists of tournaments: the public list and the tournaments one player entered (their
profile). Reads only.
"""

from __future__ import annotations

from typing import TypedDict

from app.db.session import as_utc
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.tournaments import ACTIVE, standings_of


class SummaryJson(TypedDict):
    """A tournament of the public list (``ends_at``: an arena's end, ISO 8601, or null)."""

    id: str
    name: str
    format: str
    rounds: int
    status: str
    round: int
    entrants: int
    preset: str
    rated: bool
    ends_at: str | None
    time_control: JsonObject
    time_label: str


class EnteredJson(TypedDict):
    """A tournament a player entered: ``rank``/``points`` their place in the standings now
    (``rank`` null before the start, both null without a line), ``entry`` their entrant status.
    """

    id: str
    name: str
    format: str
    status: str
    round: int
    rounds: int
    entrants: int
    rank: int | None
    points: float | None
    entry: str
    ends_at: str | None


async def listing(rt: Runtime, limit: int = 50) -> list[SummaryJson]:
    """Public tournaments (``{"id", "name", "format", "rounds", "status", "round",
    "entrants", "preset", "time_control", "time_label", "rated"}``), those not finished first.
    """
    async with rt.db.reading() as conn:
        rows = await sql.listed(conn, limit)
    return [
        {
            "id": r.tournament.id,
            "name": r.tournament.name,
            "format": r.tournament.format,
            "rounds": r.tournament.rounds,
            "status": sql.public_status(r.tournament),
            "round": r.tournament.round,
            "entrants": r.entrants,
            "preset": r.tournament.preset,
            "rated": r.tournament.rated,
            "ends_at": None
            if r.tournament.ends_at is None
            else as_utc(r.tournament.ends_at).isoformat(),
            "time_control": table_options.lobby_fields(r.tournament.time_control)["time_control"],
            "time_label": table_options.lobby_fields(r.tournament.time_control)["time_label"],
        }
        for r in rows
    ]


async def player_history(
    rt: Runtime, player_id: str, viewer: str | None = None, limit: int = 20
) -> list[EnteredJson]:
    """The tournaments ``player_id`` entered, newest first (private ones only to the player):
    ``[{"id", "name", "format", "status", "round", "rounds", "entrants", "rank", "points",
    "entry"}]`` (``rank``/``points``: the player's place in the standings now; ``entry``: their
    entrant status).
    """
    out: list[EnteredJson] = []
    async with rt.db.reading() as conn:
        entries = await sql.entries_of(conn, player_id, limit)
        for entry in entries:
            r = entry.tournament
            if r.private and viewer != player_id:
                continue
            people = await sql.entrants(conn, r.id)
            games = await sql.games(conn, r.id)
            mine = next(
                (s for s in standings_of(r, people, games) if s["number"] == entry.number),
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
                    "entry": entry.status,
                    "ends_at": None if r.ends_at is None else as_utc(r.ends_at).isoformat(),
                }
            )
    return out
