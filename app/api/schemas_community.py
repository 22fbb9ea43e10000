"""Wire models of accounts, history, ratings and replays (docs/API.md § Accounts, § History)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.api.schemas import HostName, Strict, TableName

Text = Annotated[str, Field(max_length=256)]


class Credentials(Strict):
    """``POST /api/accounts`` and ``POST /api/accounts/login``."""

    username: Text = Field(description="3–20 letters, digits, '_' or '-' (any case at login)")
    password: Text = Field(description="8–128 characters, not a common one")


class PasswordChange(Strict):
    """``POST /api/accounts/password``."""

    password: Text
    new_password: Text


class PasswordConfirm(Strict):
    """``POST /api/accounts/delete``."""

    password: Text


class AccountOut(BaseModel):
    """``{"id", "name", "username", "bot_account"}`` (``username`` null for a guest;
    ``bot_account``: a program plays it, docs/BOT_API.md).
    """

    id: str
    name: str
    username: str | None
    bot_account: bool = False


class AccountCreated(BaseModel):
    """``{"account", "token"}``: send the token as ``Authorization: Bearer``."""

    account: AccountOut
    token: str


class TokenOut(BaseModel):
    """``{"token"}``: the caller's fresh bearer token (its old ones are revoked)."""

    token: str


class RatingOut(BaseModel):
    """A rating: ``rating`` = round(1000 + 40·(mu − 3σ)), OpenSkill's ``mu`` and ``sigma``."""

    rating: int
    mu: float
    sigma: float
    games: int


class MatchEntry(BaseModel):
    """One match in a player's history."""

    id: str
    name: TableName
    host_name: HostName = None
    status: str
    preset: str | None
    rated: bool
    #: Why a rated table's match ended unrated ("not_played"), else null.
    unrated: str | None = None
    private: bool
    started_at: str
    finished_at: str | None
    seat: int
    score: int | None
    place: int | None
    won: bool
    left: bool
    #: The record move a seat that left first did not play itself (null: stayed, or unknown).
    left_at: int | None = None
    seats: list[dict[str, Any]]
    rating_change: dict[str, int] | None


class MatchPage(BaseModel):
    """``GET /api/players/{id}/matches``: newest first."""

    player: AccountOut
    page: int
    per_page: int
    total: int
    matches: list[MatchEntry]


class Profile(BaseModel):
    """``GET /api/players/{id}/profile``."""

    player: AccountOut
    played: int
    won: int
    total: int
    ratings: dict[str, RatingOut]
    recent: list[MatchEntry]


class Verdict(BaseModel):
    """The shuffle check: ``ok``, the first ``problem`` and every check run."""

    ok: bool
    problem: str | None
    checks: list[dict[str, Any]]
