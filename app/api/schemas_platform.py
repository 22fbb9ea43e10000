"""Wire models of the open platform: API tokens, bot accounts, challenges (docs/BOT_API.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from app.api.schemas import Strict


class NewApiToken(Strict):
    """``POST /api/me/tokens``: a name to recognise it by and its scopes."""

    name: Annotated[str, Field(min_length=1, max_length=64)]
    scopes: Annotated[list[Literal["play", "read"]], Field(min_length=1, max_length=2)]


class ApiTokenOut(BaseModel):
    """One API token as listed (never the token itself)."""

    id: str
    name: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None
    revoked: bool


class ApiTokenCreated(BaseModel):
    """The new token (shown this once) and its listing entry."""

    token: str
    api_token: ApiTokenOut


class ApiTokenList(BaseModel):
    """``GET /api/me/tokens``."""

    tokens: list[ApiTokenOut]


class NewChallenge(Strict):
    """``POST /api/bots/{id}/challenge``: the rules preset, rated or not, the time control and
    the time-out policy (as for a lobby).
    """

    preset: str = "standard"
    rated: bool = False
    time_control: dict[str, Any] | None = None
    timeout_policy: dict[str, Any] | None = None


class ChallengeOut(BaseModel):
    """A challenge to a bot (docs/BOT_API.md § Challenges)."""

    id: str
    bot: dict[str, Any]
    challenger: dict[str, Any]
    lobby_code: str | None
    preset: str
    rated: bool
    time_control: dict[str, Any] | None
    timeout_policy: dict[str, Any] | None = None
    status: str
    match_id: str | None
