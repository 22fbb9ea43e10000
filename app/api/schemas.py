"""Wire models of the REST API (request bodies and the main responses).

Separate from the table models: these are what clients send and get (docs/API.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Invite codes and match ids in paths.
CODE_PATTERN = r"^[A-Za-z0-9_\-]{1,32}$"
#: Client action ids: short, printable, no spaces.
ACTION_ID_PATTERN = r"^[A-Za-z0-9_.:\-]{1,64}$"

Colour = Literal["red", "blue", "green", "yellow", "black"]
Preset = Annotated[str, Field(max_length=32, description="a key of GET /api/presets")]


class Strict(BaseModel):
    """Bodies reject unknown keys."""

    model_config = ConfigDict(extra="forbid")


class ErrorDetail(BaseModel):
    """``{"code", "message"}``."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every 4xx: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


class NewPlayer(Strict):
    """``POST /api/players``."""

    name: Annotated[str, Field(min_length=1, max_length=64)]


class PlayerOut(BaseModel):
    """A player: ``{"id", "name"}``."""

    id: str
    name: str


class PlayerCreated(BaseModel):
    """``{"player": {"id", "name"}, "token"}``."""

    player: PlayerOut
    token: str


#: A table's name: the one its host gave, or null when none was given (docs/API.md § Lobbies).
TableName = Annotated[str | None, Field(description="the name the host gave; null: none")]
#: The host's name, from which a client words the default "{host}'s table" in its reader's
#: language when ``name`` is null (null only for matches from before names were optional).
HostName = Annotated[str | None, Field(description="the host's name, for a null name's default")]


class MySeat(BaseModel):
    """A seat of one of the caller's ongoing matches."""

    seat: int
    name: str
    colour: str
    bot: bool


class MyMatch(BaseModel):
    """One of the caller's ongoing matches (``GET /api/me/matches``)."""

    id: str
    name: TableName
    host_name: HostName = None
    private: bool
    seat: int = Field(description="the caller's seat")
    to_act: int | None = Field(description="the seat whose move (or decision) the match waits for")
    your_turn: bool = Field(description="the match waits for the caller (not for the computer)")
    turn: int
    seats: list[MySeat]
    time_control: dict[str, Any]
    time_label: str
    correspondence: bool
    remaining: int | None = Field(description="the caller's time left (ms) as of server_now")
    deadline: int | None = Field(description="when the caller's running time runs out (epoch ms)")
    auto: bool = Field(description="the computer holds the caller's seat")
    updated_at: str | None


class MyMatches(BaseModel):
    """``GET /api/me/matches``: "your turn" first (nearest deadline first), then the rest."""

    server_now: int
    matches: list[MyMatch]


class Rules(Strict):
    """Game options (RULES.md §4.6); missing keys take the defaults. The expansions played come
    from ``expansions`` (their ids), from ``tileset``/``river`` as before, or both (which must
    agree: the engine's ``Options.from_json`` checks, a 422 ``invalid_options`` names it).
    """

    expansions: (
        Annotated[list[Annotated[str, Field(max_length=32)]], Field(max_length=8)] | None
    ) = None
    tileset: Annotated[str, Field(max_length=32)] = "base"
    river: bool = False
    farm_scoring: Literal["modern", "original"] = "modern"
    small_city_two_points: bool = False


#: A time control (docs/API.md § Clocks): ``{"kind": "untimed"}``, ``{"kind": "per_turn",
#: "seconds": 60}``, ``{"kind": "fischer", "bank": 300, "increment": 10}``, ``{"kind":
#: "correspondence", "days": 1}``; checked by the service, whose 422 names the field.
TimeControlIn = Annotated[dict[str, Any], Field(description="a time control (docs/API.md)")]
#: What happens at zero (docs/API.md § Clocks): ``{"kind": "computer"}`` (default), ``{"kind":
#: "skip"}``, ``{"kind": "handover", "after": 1..5}``; checked by the service (422 names the field).
TimeoutPolicyIn = Annotated[
    dict[str, Any], Field(description="a time-out policy (docs/API.md § Clocks)")
]

#: How far behind spectators see the match (docs/API.md § Spectator delay): ``{}`` (live),
#: ``{"moves": 1..60}`` or ``{"seconds": 5..1800}``; checked by the service (422, reason
#: ``spectator_delay``).
SpectatorDelayIn = Annotated[
    dict[str, Any], Field(description="a spectator delay (docs/API.md § Spectator delay)")
]


#: The languages a table can be marked with (the client's languages).
Language = Literal["en", "de", "fr"]

#: A player aid a table may grant (docs/API.md § Aids).
Aid = Literal[
    "legal_placements",
    "remaining_tiles",
    "impossible_holes",
    "projected_scores",
    "feature_highlight",
]


class AidPolicyIn(Strict):
    """A table's aid policy: ``off`` (none), ``learning`` (every aid for everyone) or
    ``custom`` (the ``players``' and the ``spectators``' aids as listed).
    """

    mode: Literal["off", "learning", "custom"] = "custom"
    players: list[Aid] | None = Field(None, max_length=5)
    spectators: list[Aid] | None = Field(None, max_length=5)


class AidPolicyOut(BaseModel):
    """A table's aid policy as shown (the lists filled in for ``off`` and ``learning``)."""

    mode: Literal["off", "learning", "custom"]
    players: list[Aid]
    spectators: list[Aid]


BestOf = Literal[1, 3, 5]


class SeriesPlayer(BaseModel):
    """A seat of a series (its seat in game 1)."""

    seat: int
    name: str
    colour: str
    player: str | None
    bot: bool


class SeriesGame(BaseModel):
    """One game of a series: its match, the series seat that started, its points."""

    match: str
    first: int
    points: list[float] | None


class SeriesOut(BaseModel):
    """``GET /api/matches/{id}/series`` (docs/API.md § Series)."""

    best_of: int
    status: Literal["playing", "decided"]
    game: int = Field(description="this match's number in the series, from 1")
    games: list[SeriesGame]
    players: list[SeriesPlayer]
    score: list[float] = Field(description="points by series seat (a won game: 1, shared)")
    winners: list[int] | None = Field(description="series seats that won it, once decided")
    next_match: str | None = Field(description="the game after this one, once dealt")


class NewLobby(Strict):
    """``POST /api/lobbies``: a preset or explicit rules (rules win when both are given)."""

    name: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    preset: Preset | None = None
    rules: Rules | None = None
    seats: Annotated[int, Field(ge=2, le=5)] = 2
    private: bool = False
    rated: bool = Field(False, description="accounts only, a standard preset, no computers")
    time_control: TimeControlIn | None = None
    timeout_policy: TimeoutPolicyIn | None = None
    language: Language | None = Field(None, description="the language the host plays in")
    best_of: BestOf | None = Field(None, description="a series of 1, 3 or 5 games (default 1)")
    aids: AidPolicyIn | None = Field(
        None, description="the aid policy (default: off when rated, else legal placements)"
    )
    spectator_delay: SpectatorDelayIn | None = None


class LobbyPatch(Strict):
    """``PATCH /api/lobbies/{code}`` (host only)."""

    rules: Rules | None = None
    preset: Preset | None = None
    private: bool | None = None
    name: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    max_seats: Annotated[int, Field(ge=2, le=5)] | None = None
    time_control: TimeControlIn | None = None
    timeout_policy: TimeoutPolicyIn | None = None
    best_of: BestOf | None = None
    aids: AidPolicyIn | None = None
    spectator_delay: SpectatorDelayIn | None = None


Level = Literal["easy", "normal", "strong"]


class ColourChoice(Strict):
    """``POST /api/lobbies/{code}/colour``."""

    colour: Colour


class SeatChoice(Strict):
    """``POST /api/lobbies/{code}/kick``."""

    seat: Annotated[int, Field(ge=0, le=4)]


class Seat(BaseModel):
    """One lobby seat. ``level``: a bot's level; on a person's seat, the level the computer
    plays at for them if they leave (absent: Normal). ``bot_account``: a bot account (a
    program, docs/BOT_API.md) holds the seat; ``bot``: the server's computer player.
    """

    seat: int
    player: str | None
    name: str | None
    colour: str | None
    bot: bool
    bot_account: bool = False
    connected: bool
    level: Level | None = None


class BotChoice(Strict):
    """``POST /api/lobbies/{code}/bots`` (optional body) and ``…/seats/{seat}/level``."""

    level: Level = "normal"


class LobbyOut(BaseModel):
    """Lobby JSON (docs/API.md)."""

    code: str
    name: TableName
    host_name: HostName = None
    private: bool
    host: str
    preset: str | None
    rules: dict[str, Any]
    seats: list[Seat]
    max_seats: int
    status: Literal["open", "started", "closed"]
    match_id: str | None
    version: int
    rated: bool = False
    time_control: dict[str, Any]
    time_label: str
    timeout_policy: dict[str, Any] = Field(
        default_factory=lambda: {"kind": "computer"}, description="what happens at zero"
    )
    at_zero: str
    language: str | None = None
    best_of: int = Field(1, description="games of the series at this table (1: one game)")
    aids: AidPolicyOut = Field(
        default_factory=lambda: AidPolicyOut(mode="off", players=[], spectators=[]),
        description="the table's aid policy",
    )
    spectator_delay: dict[str, int] | None = Field(
        None, description='{"moves": N} or {"seconds": M}; null: spectators see it live'
    )


class LiveMatchOut(BaseModel):
    """A live public match in the lobby list."""

    id: str
    name: TableName
    host_name: HostName = None
    players: list[str]
    turn: int
    spectators: int
    time_control: dict[str, Any] | None = None
    time_label: str = "untimed"


class LobbyList(BaseModel):
    """``GET /api/lobbies``."""

    lobbies: list[LobbyOut]
    matches: list[LiveMatchOut]


class NewSeek(Strict):
    """``POST /api/seeks``: the pool to wait in ("Play now")."""

    players: Annotated[int, Field(ge=2, le=5)] = 2
    preset: Preset = "standard"
    rated: bool = Field(False, description="accounts only; paired within a widening range")
    time_control: TimeControlIn | None = None


class RatingRange(BaseModel):
    """The ratings a waiting rated seek accepts now (it widens while waiting)."""

    low: int
    high: int


class SeekOut(BaseModel):
    """A seek, as its holder sees it when polling ``GET /api/seeks/{id}``."""

    id: str
    status: Literal["open", "matched", "cancelled", "expired"]
    players: int
    preset: str
    rated: bool
    time_control: dict[str, Any]
    time_label: str
    rating: int | None
    range: RatingRange | None
    waiting: int = Field(description="open seeks in this pool now (this one included)")
    match_id: str | None
    poll_within: float = Field(description="seconds: a seek not polled that long expires")


class SeekPool(BaseModel):
    """One pool of ``GET /api/seeks``."""

    players: int
    preset: str
    rated: bool
    time_control: dict[str, Any]
    time_label: str
    waiting: int


class SeekQueue(BaseModel):
    """``GET /api/seeks``: the pools with someone waiting, the fullest first."""

    pools: list[SeekPool]
    poll_within: float


class Started(BaseModel):
    """``POST /api/lobbies/{code}/start`` → ``{"match_id"}``."""

    match_id: str


class AnalysisOut(BaseModel):
    """``GET``/``POST /api/matches/{id}/analysis``: the Strong computer player's analysis of a
    finished match (docs/API.md § Analysis). ``analysis`` is the ``carcassonne-analysis/1``
    JSON once ``status`` is ``done``.
    """

    match_id: str
    status: Literal["none", "queued", "running", "done", "failed"]
    requested_at: str | None
    finished_at: str | None
    seconds: float | None = Field(None, description="seconds the analysis took")
    error: str | None
    analysis: dict[str, Any] | None


class RematchOut(BaseModel):
    """``POST /api/matches/{id}/rematch`` → ``{"code"}``."""

    code: str


class VoteIn(Strict):
    """``POST /api/matches/{id}/vote``: what to do about a player who left."""

    choice: Literal["wait", "computer", "end"]


class SwitchIn(Strict):
    """``POST /api/matches/{id}/switch``: ``accept`` false proposes, true accepts."""

    accept: bool = False


class ActionIn(Strict):
    """``POST /api/matches/{id}/actions``: the version acted on, a client action id, and the
    engine action without ``seat`` (``{"type": "place_tile", "at": [x, y], "rotation": 90}``,
    ``{"type": "place_follower", "spot": "city:N"}``, ``{"type": "pass"}``, Wheel of Fortune
    ``{"type": "plague", "at": [x, y], "spot": "road:N"}``).
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    v: Annotated[int, Field(ge=0, le=1_000_000)]
    id: Annotated[str, Field(pattern=ACTION_ID_PATTERN)] | None = None
    d: dict[str, Any]


class ActionOut(BaseModel):
    """``{"version", "events"}`` after an applied action."""

    version: int
    events: list[dict[str, Any]]


class Batch(BaseModel):
    """One applied action's events."""

    v: int
    seat: int
    action_id: str | None
    events: list[dict[str, Any]]
    #: ``"computer"`` when the computer chose this action for a person's seat.
    by: str | None = None


class EventsOut(BaseModel):
    """``GET /api/matches/{id}/events?since=v``."""

    version: int
    batches: list[Batch]
    #: With ``since=0``: the setup's events (the first draw; the Wheel of Fortune pig's move).
    opening: list[dict[str, Any]] | None = None


class MuteIn(BaseModel):
    """``{"player": id, "muted": true}`` — the host mutes (or unmutes) one person."""

    model_config = ConfigDict(extra="forbid")
    player: str = Field(pattern=CODE_PATTERN, description="the player id to (un)mute")
    muted: bool = True


class ChatOut(BaseModel):
    """``{"messages": [Message], "muted": [player id]}`` (Message: community/chat.py)."""

    messages: list[dict[str, Any]]
    muted: list[str]
