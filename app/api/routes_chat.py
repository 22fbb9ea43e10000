"""Chat REST endpoints: a waiting room's or a match's history, and the host's mute.

Messages themselves are written over the lobby or match websocket (``{"t": "chat"}`` frames,
app/api/routes_ws.py); the rules live in app/services/community/chat.py.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentPlayer, OptionalPlayer, RuntimeDep
from app.api.responses import errors
from app.api.schemas import CODE_PATTERN
from app.services.community import chat

router = APIRouter(tags=["chat"])

Code = Annotated[str, Path(pattern=CODE_PATTERN, description="the lobby's invite code")]
MatchId = Annotated[str, Path(pattern=CODE_PATTERN, description="the match id")]
InviteCode = Annotated[
    str | None, Query(pattern=CODE_PATTERN, description="lobby code of a private match")
]


class MuteIn(BaseModel):
    """``{"player": id, "muted": true}`` — the host mutes (or unmutes) one person."""

    model_config = ConfigDict(extra="forbid")
    player: str = Field(pattern=CODE_PATTERN, description="the player id to (un)mute")
    muted: bool = True


class ChatOut(BaseModel):
    """``{"messages": [Message], "muted": [player id]}`` (Message: community/chat.py)."""

    messages: list[dict[str, Any]]
    muted: list[str]


@router.get("/api/lobbies/{code}/chat", response_model=ChatOut, responses=errors(401, 403, 404))
async def lobby_chat(code: Code, rt: RuntimeDep, player: OptionalPlayer) -> dict[str, Any]:
    """The waiting room's last messages, oldest first, and who is muted."""
    return await chat.history(rt, "lobby", code, player)


@router.get("/api/matches/{match_id}/chat", response_model=ChatOut, responses=errors(401, 403, 404))
async def match_chat(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The match's last messages a reader may see (players see spectators' messages only
    once the match is over).
    """
    return await chat.history(rt, "match", match_id, player, code)


@router.post(
    "/api/lobbies/{code}/mute", response_model=ChatOut, responses=errors(401, 403, 404, 409, 413)
)
async def mute(code: Code, body: MuteIn, rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """Host only: mute (or unmute) a person at this table's chats."""
    muted = await chat.set_muted(rt, code, player, body.player, body.muted)
    return {"messages": [], "muted": muted}
