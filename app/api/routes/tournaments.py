"""Tournament REST endpoints (docs/API.md § Tournaments): create, list, read, register, check
in, withdraw, computer entrants, start, pause, adjudicate, standings export.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from app.api.deps import CurrentPlayer, OptionalPlayer, RuntimeDep
from app.api.responses import errors
from app.api.schemas_tournaments import (
    Adjudication,
    NewComputerEntrant,
    NewTournament,
    NoShow,
    NoticeIn,
    PauseBody,
    SeedsIn,
)
from app.services.community.model import NoticeJson
from app.services.tournaments import organiser, reads, rounds, seeding, starting, tournaments
from app.services.tournaments import pause as pausing
from app.services.tournaments.model import TournamentJson, TournamentSettings
from app.services.tournaments.organiser import RefereeJson
from app.services.tournaments.reads import SummaryJson

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

TournamentId = Annotated[str, Path(pattern=r"^[0-9a-f]{12}$", description="the tournament's id")]
GameId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a pairing's id")]


@router.post(
    "", status_code=201, response_model=TournamentJson, responses=errors(401, 404, 413, 422, 429)
)
async def create(body: NewTournament, rt: RuntimeDep, player: CurrentPlayer) -> TournamentJson:
    """Create a tournament in registration; the caller organises it (and plays only if they
    register). Counted with table creation (429 past ``LOBBY_BURST``).
    """
    await rt.limits.lobbies.hit(player)
    settings = TournamentSettings(
        name=body.name,
        rounds=body.rounds,
        cycles=body.cycles,
        preset=body.preset,
        time_control=body.time_control,
        private=body.private,
        rated=body.rated,
        seats=body.seats,
        duration_minutes=body.duration_minutes,
        starts_at=body.starts_at,
        spectator_delay=body.spectator_delay,
    )
    if body.seed_from is not None:
        return await seeding.create_seeded_knockout(
            rt, player, body.seed_from, body.qualifiers, format=body.format, **settings
        )
    return await tournaments.create(rt, player, format=body.format, **settings)


@router.get("", response_model=list[SummaryJson])
async def listing(rt: RuntimeDep) -> list[SummaryJson]:
    """Public tournaments, those not finished first (no auth)."""
    return await reads.listing(rt)


@router.get("/{tid}", response_model=TournamentJson, responses=errors(401, 404))
async def read(tid: TournamentId, rt: RuntimeDep, player: OptionalPlayer) -> TournamentJson:
    """The tournament: entrants, standings, every round's pairings (``me``: the caller's entry)."""
    return await reads.view(rt, tid, player)


@router.get("/{tid}/standings", responses=errors(404, 422))
async def standings(
    tid: TournamentId,
    rt: RuntimeDep,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
) -> Response:
    """The standings with their tie-breaks as JSON or CSV (a download)."""
    data = await reads.view(rt, tid)
    lines = data["standings"]
    if format == "json":
        return Response(
            content=json.dumps({"id": tid, "name": data["name"], "standings": lines}),
            media_type="application/json",
        )
    out = io.StringIO()
    fields = ["rank", "number", "name", "points", "buchholz", "sonneborn_berger", "wins"]
    fields += ["games", "byes", "score_total"]
    writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(lines)
    return Response(
        content=out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="standings-{tid}.csv"'},
    )


@router.post("/{tid}/entrants", response_model=TournamentJson, responses=errors(401, 404, 409))
async def register(tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer) -> TournamentJson:
    """Register the caller (while registration is open)."""
    return await tournaments.register(rt, tid, player)


@router.post("/{tid}/check-in", response_model=TournamentJson, responses=errors(401, 404, 409))
async def check_in(tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer) -> TournamentJson:
    """Confirm the caller plays; only checked-in entrants are paired at the start."""
    return await tournaments.check_in(rt, tid, player)


@router.post("/{tid}/withdraw", response_model=TournamentJson, responses=errors(401, 404, 409))
async def withdraw(tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer) -> TournamentJson:
    """Leave: not paired again (a live game plays on and counts)."""
    return await tournaments.withdraw(rt, tid, player)


@router.post(
    "/{tid}/computers", response_model=TournamentJson, responses=errors(401, 403, 404, 409, 422)
)
async def add_computer(
    tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer, body: NewComputerEntrant | None = None
) -> TournamentJson:
    """Organiser: enter a computer player (checked in at once; not in rated tournaments)."""
    return await tournaments.add_computer(rt, tid, player, (body or NewComputerEntrant()).level)


@router.post("/{tid}/start", response_model=TournamentJson, responses=errors(401, 403, 404, 409))
async def start(tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer) -> TournamentJson:
    """Organiser: close registration, drop no-shows, pair round 1."""
    return await starting.start(rt, tid, player)


@router.post("/{tid}/pause", response_model=TournamentJson, responses=errors(401, 403, 404, 409))
async def pause(
    tid: TournamentId, body: PauseBody, rt: RuntimeDep, player: CurrentPlayer
) -> TournamentJson:
    """Organiser: hold every clock of the tournament's live matches, or release them."""
    return await pausing.set_paused(rt, tid, player, body.paused)


@router.post(
    "/{tid}/games/{game_id}/result",
    response_model=TournamentJson,
    responses=errors(401, 403, 404, 409, 422),
)
async def adjudicate(
    tid: TournamentId, game_id: GameId, body: Adjudication, rt: RuntimeDep, player: CurrentPlayer
) -> TournamentJson:
    """Organiser: set a game's result (places by seat) with a reason."""
    return await rounds.adjudicate(rt, tid, player, game_id, body.places, body.reason)


@router.post(
    "/{tid}/games/{game_id}/replace",
    response_model=TournamentJson,
    responses=errors(401, 403, 404, 409, 422),
)
async def replace_no_show(
    tid: TournamentId, game_id: GameId, body: NoShow, rt: RuntimeDep, player: CurrentPlayer
) -> TournamentJson:
    """Organiser: a no-show at a game loses by forfeit, or the computer takes their seat."""
    return await organiser.replace_no_show(rt, tid, player, game_id, body.entrant, body.by)


@router.post(
    "/{tid}/messages",
    status_code=201,
    response_model=NoticeJson,
    responses=errors(401, 403, 404, 422, 429),
)
async def message_all(
    tid: TournamentId, body: NoticeIn, rt: RuntimeDep, player: CurrentPlayer
) -> NoticeJson:
    """Organiser: a message to every player (the tournament page and each live match's chat)."""
    return await organiser.message_all(rt, tid, player, body.text)


@router.get("/{tid}/referee", response_model=RefereeJson, responses=errors(401, 403, 404))
async def referee(tid: TournamentId, rt: RuntimeDep, player: CurrentPlayer) -> RefereeJson:
    """Organiser: every live table's clocks, turn and scores (watch each as a spectator)."""
    return await organiser.referee(rt, tid, player)


@router.post(
    "/{tid}/seeds", response_model=TournamentJson, responses=errors(401, 403, 404, 409, 422)
)
async def set_seeds(
    tid: TournamentId, body: SeedsIn, rt: RuntimeDep, player: CurrentPlayer
) -> TournamentJson:
    """Organiser, before the start: a knock-out's seeded list (top seed first)."""
    return await seeding.set_seeds(rt, tid, player, body.order)
