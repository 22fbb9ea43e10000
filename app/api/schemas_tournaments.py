"""Request and response bodies of the tournament endpoints (docs/API.md § Tournaments)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, Field

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


class NoticeOut(BaseModel):
    """An organiser's message (the chat's Message, room ``organiser``)."""

    id: int | None
    room: Literal["organiser"]
    player: str
    name: str
    text: str
    at: str


class RefereeTable(BaseModel):
    """One live table as the referee sees it."""

    pairing: int
    round: int
    table: int
    entrants: list[int]
    names: list[str]
    match_id: str
    turn: int
    seat_to_act: int | None
    scores: list[int]
    version: int
    clock: dict[str, Any] | None = Field(description="Clock JSON (docs/API.md § Clocks)")


class RefereeOut(BaseModel):
    """``GET /api/tournaments/{id}/referee`` (organiser)."""

    tables: list[RefereeTable]


class PauseBody(Strict):
    """``POST /api/tournaments/{id}/pause``: hold (true) or release (false) every clock."""

    paused: bool


class EntrantOut(BaseModel):
    """One entrant: ``number`` is the starting number (the seed)."""

    number: int
    name: str
    player: str | None
    bot: bool
    level: str | None
    status: Literal["registered", "checked_in", "withdrawn", "dropped"]


class StandingOut(BaseModel):
    """One line of the standings, with the format's tie-breaks."""

    number: int
    name: str
    bot: bool
    rank: int
    points: float
    games: int
    wins: int
    byes: int
    buchholz: float = Field(description="sum of the opponents' points (2-player formats)")
    sonneborn_berger: float = Field(description="sum of beaten opponents' points, half for draws")
    score_total: int = Field(description="in-game points over all games")


class PairingOut(BaseModel):
    """One table of a round: ``entrants`` by starting number in seat order (seat 0 starts);
    one alone is a bye. ``source``: how the result was decided (null: not yet).
    """

    id: int
    round: int
    table: int
    entrants: list[int]
    match_id: str | None
    match_status: str | None
    points: list[float] | None
    scores: list[int] | None
    source: Literal["played", "bye", "forfeit", "adjudicated"] | None
    reason: str | None


class BracketTable(BaseModel):
    """One table of a knock-out bracket: ``entrants`` by starting number (null: not known
    yet; one alone: a bye), ``winner`` once decided, ``pairing`` once paired.
    """

    table: int
    entrants: list[int | None]
    winner: int | None
    pairing: int | None
    match_id: str | None


class TournamentOut(BaseModel):
    """A tournament as every reader sees it."""

    id: str
    name: str
    host: str
    is_host: bool
    private: bool
    format: Literal["swiss", "round_robin", "arena", "knockout"]
    cycles: int
    seats: int
    duration_minutes: int | None
    ends_at: str | None = Field(description="an arena's end (ISO 8601), once started")
    starts_at: str | None = Field(
        None, description="the start time set (ISO 8601); once started, when it started"
    )
    rounds: int
    preset: str
    rated: bool
    time_control: dict[str, Any]
    time_label: str
    timeout_policy: dict[str, Any] | None = None
    at_zero: str | None = None
    spectator_delay: dict[str, int] | None = None
    status: Literal["registering", "running", "finished", "cancelled"]
    round: int
    paused: bool
    version: int
    entrants: list[EntrantOut]
    standings: list[StandingOut]
    pairings: list[PairingOut]
    messages: list[NoticeOut] = Field(
        default_factory=list, description="the organiser's last messages to every player"
    )
    seeds: list[int] | None = Field(
        None, description="a knock-out's seed order (starting numbers, top seed first)"
    )
    bracket: list[list[BracketTable]] | None = Field(
        None, description="a knock-out's bracket by round (null for other formats)"
    )
    me: EntrantOut | None


class TournamentSummary(BaseModel):
    """A line of ``GET /api/tournaments``."""

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
    time_control: dict[str, Any]
    time_label: str


class TournamentEntry(BaseModel):
    """A line of ``GET /api/players/{id}/tournaments``: a tournament the player entered."""

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
