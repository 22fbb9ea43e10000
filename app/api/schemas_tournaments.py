"""Request bodies of the tournament endpoints (docs/API.md § Tournaments).

Their response bodies are declared once, as the services' ``TypedDict`` s, and given to FastAPI
as they are (``response_model``): pydantic validates, serialises and documents them (the
OpenAPI components ``TournamentJson``, ``SummaryJson``, ``EnteredJson``, ``NoticeJson``,
``RefereeJson`` and those they hold), each component described by its class's docstring. So a
key added to Tournament JSON is added in :mod:`app.services.tournaments.model` alone, and the
answers send the keys in the order declared there.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AwareDatetime, Field

from app.api.schemas import Preset, SpectatorDelayIn, Strict, TimeControlIn


class NewTournament(Strict):
    """``POST /api/tournaments``: a tournament in registration, hosted by the caller."""

    name: Annotated[str, Field(min_length=1, max_length=64)]
    format: Literal["swiss", "round_robin", "arena", "knockout"] = "swiss"
    seed_from: Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")] | None = Field(
        None, description="knock-out: seed from this finished tournament's final standings"
    )
    qualifiers: Annotated[int, Field(ge=2, le=64)] | None = Field(
        None, description="knock-out seeded from a tournament: its top N (default all)"
    )
    rounds: Annotated[int, Field(ge=1, le=15)] | None = Field(
        None, description="Swiss: the rounds to play (a round-robin's follow from its field)"
    )
    cycles: Literal[1, 2] = Field(1, description="round-robin: 1 single, 2 double")
    seats: Annotated[int, Field(ge=2, le=5)] = Field(2, description="arena: players per table")
    duration_minutes: Annotated[int, Field(ge=1, le=1440)] | None = Field(
        None, description="arena: how long it pairs"
    )
    preset: Preset = "standard"
    time_control: TimeControlIn | None = None
    starts_at: AwareDatetime | None = Field(
        None, description="when it starts by itself (ISO 8601 with a zone); null: by hand"
    )
    spectator_delay: SpectatorDelayIn | None = None
    private: bool = Field(False, description="not listed; reachable by its link")
    rated: bool = Field(False, description="accounts only, no computer entrants")


class NewComputerEntrant(Strict):
    """``POST /api/tournaments/{id}/computers``: the organiser enters a computer player."""

    level: Literal["easy", "normal", "strong"] = "normal"


class Adjudication(Strict):
    """``POST /api/tournaments/{id}/games/{game}/result``: the organiser sets a result."""

    places: Annotated[list[Annotated[int, Field(ge=1, le=5)]], Field(min_length=2, max_length=5)]
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class NoShow(Strict):
    """``POST /api/tournaments/{id}/games/{game}/replace``: a no-show at that game."""

    entrant: Annotated[int, Field(ge=1, le=10_000)] = Field(description="its starting number")
    by: Literal["forfeit", "computer"]


class SeedsIn(Strict):
    """``POST /api/tournaments/{id}/seeds``: a knock-out's seeded list."""

    order: Annotated[list[Annotated[int, Field(ge=1, le=10_000)]], Field(max_length=64)] = Field(
        description="starting numbers, top seed first (the others follow by number)"
    )


class NoticeIn(Strict):
    """``POST /api/tournaments/{id}/messages``: the organiser's message to every player."""

    text: Annotated[str, Field(min_length=1, max_length=2000)]


class PauseBody(Strict):
    """``POST /api/tournaments/{id}/pause``: hold (true) or release (false) every clock."""

    paused: bool
