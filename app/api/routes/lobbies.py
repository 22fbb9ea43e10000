"""Lobby REST endpoints (docs/API.md § Lobbies, § Chat): everything under
``/api/lobbies/{code}``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request

from app.api.deps import (
    CurrentPlayer,
    OptionalPlayer,
    RuntimeDep,
)
from app.api.responses import errors
from app.api.schemas import (
    CODE_PATTERN,
    BotChoice,
    ChatOut,
    ColourChoice,
    LobbyList,
    LobbyOut,
    LobbyPatch,
    MuteIn,
    NewLobby,
    SeatChoice,
    Started,
)
from app.services.community import chat
from app.services.community.chat import ChatHistory
from app.services.lobby import dealing, lobby, seats
from app.services.lobby.filters import TableFilters
from app.services.lobby.model import LobbyJson, LobbyListJson
from app.services.match.spectating import delay

router = APIRouter(prefix="/api/lobbies", tags=["lobbies"])

Code = Annotated[str, Path(pattern=CODE_PATTERN, description="the lobby's invite code")]


@router.post("", status_code=201, response_model=LobbyOut, responses=errors(401, 413, 429))
async def create(body: NewLobby, rt: RuntimeDep, player: CurrentPlayer) -> LobbyJson:
    """Create a lobby; the creator takes seat 0 and is host."""
    await rt.limits.lobbies.hit(player)
    return await lobby.create_lobby(
        rt,
        player,
        name=body.name,
        preset=body.preset,
        rules=body.rules.model_dump(exclude_unset=True, exclude_none=True) if body.rules else None,
        seats=body.seats,
        private=body.private,
        rated=body.rated,
        time_control=body.time_control,
        timeout_policy=body.timeout_policy,
        language=body.language,
        best_of=body.best_of,
        aids=body.aids.model_dump(exclude_none=True) if body.aids else None,
        spectator_delay=body.spectator_delay,
    )


@router.get("", response_model=LobbyList)
async def list_lobbies(
    rt: RuntimeDep,
    preset: Annotated[str | None, Query(max_length=32, description='"custom": no preset')] = None,
    seats: Annotated[int | None, Query(ge=2, le=5)] = None,
    clock: Annotated[
        Literal["untimed", "per_turn", "fischer", "correspondence"] | None, Query()
    ] = None,
    rated: bool | None = None,
    language: Annotated[Literal["en", "de", "fr"] | None, Query()] = None,
) -> LobbyListJson:
    """Public open lobbies and live public matches (private ones are never listed); the
    query narrows the open lobbies: rule ``preset``, ``seats``, ``clock`` kind, ``rated``,
    host ``language``.
    """
    filters = TableFilters(preset, seats, clock, rated, language)
    listed = await lobby.list_open(rt, filters=filters)
    # A public list: a delayed match shows everyone its visible turn (docs/API.md § Spectator
    # delay), its players included (they watch their own match live on its page).
    await delay.withhold_in_list(rt, listed["matches"], None)
    return listed


@router.get("/{code}", response_model=LobbyOut, responses=errors(404))
async def get(code: Code, rt: RuntimeDep) -> LobbyJson:
    """A lobby by its invite code."""
    return await lobby.get_lobby(rt, code)


@router.patch("/{code}", response_model=LobbyOut, responses=errors(401, 403, 404, 409, 413))
async def patch(code: Code, body: LobbyPatch, rt: RuntimeDep, player: CurrentPlayer) -> LobbyJson:
    """Host only: change rules or preset, privacy, name, number of seats, time control,
    time-out policy, aid policy or spectator delay (``{}``: live again).
    """
    return await lobby.update_options(
        rt,
        code,
        player,
        rules=body.rules.model_dump(exclude_unset=True, exclude_none=True) if body.rules else None,
        preset=body.preset,
        private=body.private,
        name=body.name,
        max_seats=body.max_seats,
        time_control=body.time_control,
        timeout_policy=body.timeout_policy,
        best_of=body.best_of,
        aids=body.aids.model_dump(exclude_none=True) if body.aids else None,
        spectator_delay=body.spectator_delay,
    )


@router.post("/{code}/join", response_model=LobbyOut, responses=errors(401, 404, 409))
async def join(code: Code, rt: RuntimeDep, player: CurrentPlayer) -> LobbyJson:
    """Take the first free seat (idempotent)."""
    return await seats.join(rt, code, player)


@router.post("/{code}/leave", response_model=LobbyOut, responses=errors(401, 404, 409))
async def leave(code: Code, rt: RuntimeDep, player: CurrentPlayer) -> LobbyJson:
    """Give up one's seat (a leaving host hands over)."""
    return await seats.leave(rt, code, player)


@router.post("/{code}/colour", response_model=LobbyOut, responses=errors(401, 404, 409, 413))
async def colour(
    code: Code, body: ColourChoice, rt: RuntimeDep, player: CurrentPlayer
) -> LobbyJson:
    """Pick a free colour."""
    return await seats.pick_colour(rt, code, player, body.colour)


@router.post("/{code}/kick", response_model=LobbyOut, responses=errors(401, 403, 404, 409, 413))
async def kick(code: Code, body: SeatChoice, rt: RuntimeDep, player: CurrentPlayer) -> LobbyJson:
    """Host only: empty a seat."""
    return await seats.kick(rt, code, player, body.seat)


@router.post("/{code}/bots", response_model=LobbyOut, responses=errors(401, 403, 404, 409))
async def add_bot(
    code: Code, rt: RuntimeDep, player: CurrentPlayer, body: BotChoice | None = None
) -> LobbyJson:
    """Host only: a bot (level easy, normal — the default — or strong) takes the first free
    seat.
    """
    return await seats.add_bot(rt, code, player, (body or BotChoice()).level)


@router.post(
    "/{code}/seats/{seat}/level", response_model=LobbyOut, responses=errors(401, 403, 404, 409, 413)
)
async def set_level(
    code: Code,
    seat: Annotated[int, Path(ge=0, le=4)],
    body: BotChoice,
    rt: RuntimeDep,
    player: CurrentPlayer,
) -> LobbyJson:
    """Host only: a bot's level; on a person's seat, the computer's level if they leave."""
    return await seats.set_level(rt, code, player, seat, body.level)


@router.delete("/{code}/bots/{seat}", response_model=LobbyOut, responses=errors(401, 403, 404, 409))
async def remove_bot(
    code: Code, seat: Annotated[int, Path(ge=0, le=4)], rt: RuntimeDep, player: CurrentPlayer
) -> LobbyJson:
    """Host only: remove the bot in ``seat``."""
    return await seats.remove_bot(rt, code, player, seat)


@router.post("/{code}/start", response_model=Started, responses=errors(401, 403, 404, 409, 429))
async def start(
    code: Code, rt: RuntimeDep, player: CurrentPlayer, request: Request
) -> dict[str, Any]:
    """Host only: deal the filled seats into a match. A match with computer players is refused
    (429) past ``BOT_MATCHES_PER_ADDRESS`` live ones from the caller's address, or
    ``BOT_MATCHES_PER_INSTANCE`` per running instance.
    """
    address = request.client.host if request.client else "unknown"
    return {"match_id": await dealing.start(rt, code, player, address)}


@router.get("/{code}/chat", response_model=ChatOut, responses=errors(401, 403, 404))
async def lobby_chat(code: Code, rt: RuntimeDep, player: OptionalPlayer) -> ChatHistory:
    """The waiting room's last messages, oldest first, and who is muted."""
    return await chat.history(rt, "lobby", code, player)


@router.post("/{code}/mute", response_model=ChatOut, responses=errors(401, 403, 404, 409, 413))
async def mute(code: Code, body: MuteIn, rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """Host only: mute (or unmute) a person at this table's chats."""
    muted = await chat.set_muted(rt, code, player, body.player, body.muted)
    return {"messages": [], "muted": muted}
