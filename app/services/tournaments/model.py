"""The tournaments package's values: frozen rows as :mod:`app.services.tournaments.queries`
reads them (built only there) and the column sets it writes. No SQL and no I/O here; times are
UTC (naive on SQLite: read them through :func:`app.db.session.as_utc`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from typing_extensions import TypedDict

from app.json_types import JsonObject
from app.services.community.model import NoticeJson
from app.services.tournaments.formats.knockout import BracketTable

#: Statuses of an entrant still in the tournament.
ACTIVE = ("registered", "checked_in")


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament row (:class:`app.db.tournaments.Tournament` documents each column):
    ``rules``, ``time_control`` and ``spectator_delay`` are the stored JSON (the last two
    None when unset), ``seeds`` the organiser's seeded starting numbers (None: by number).
    """

    id: str
    name: str
    host_id: str
    private: bool
    format: str
    cycles: int
    rounds: int
    seats: int
    preset: str
    rules: JsonObject
    time_control: JsonObject | None
    spectator_delay: JsonObject | None
    rated: bool
    status: str
    round: int
    starts_at: datetime | None
    paused_at: datetime | None
    duration_minutes: int | None
    ends_at: datetime | None
    seeds: tuple[int, ...] | None
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Listed:
    """A tournament of the public list with its ``entrants`` still in it."""

    tournament: Tournament
    entrants: int


@dataclass(frozen=True, slots=True)
class Entry:
    """A tournament a player entered: their starting ``number`` and entrant ``status``."""

    tournament: Tournament
    number: int
    status: str


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant row: ``number`` the starting number (1-based), ``player_id`` None for a
    computer (``bot``, at ``level``); ``status`` ``registered``, ``checked_in``,
    ``withdrawn`` or ``dropped``.
    """

    tournament_id: str
    number: int
    player_id: str | None
    name: str
    bot: bool
    level: str | None
    status: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a round: ``entrants`` (starting numbers by seat; one alone: a bye), its
    ``match_id`` (None for a bye or a forfeit), and once decided ``points`` (tournament
    points by seat), ``scores`` (in-game points by seat, None when not played out),
    ``source`` (``played``, ``bye``, ``forfeit``, ``adjudicated``) and ``reason``.
    ``points`` holds the numbers as stored (a stored ``1`` stays an int).
    """

    id: int
    tournament_id: str
    round: int
    table_number: int
    entrants: tuple[int, ...]
    match_id: str | None
    points: tuple[float, ...] | None
    scores: tuple[int, ...] | None
    source: str | None
    reason: str | None
    decided_at: datetime | None


@dataclass(frozen=True, slots=True)
class MatchState:
    """What the tournament reads of one of its matches: ``status`` and the stored ``clock``
    (None for an untimed match without one).
    """

    id: str
    status: str
    clock: JsonObject | None


@dataclass(frozen=True, slots=True)
class LiveTable:
    """A match as the referee view shows it: its clock, ``turn``, ``seat_to_act`` (None when
    nobody is to act), ``scores`` by seat and ``version``.
    """

    id: str
    status: str
    clock: JsonObject | None
    turn: int
    seat_to_act: int | None
    scores: tuple[int, ...]
    version: int


class NewTournament(TypedDict):
    """Every column of a new tournament row (:func:`insert_tournament`)."""

    id: str
    name: str
    host_id: str
    private: bool
    format: str
    cycles: int
    rounds: int
    seats: int
    duration_minutes: int | None
    ends_at: datetime | None
    preset: str
    rules: JsonObject
    time_control: JsonObject
    spectator_delay: dict[str, int] | None
    rated: bool
    status: str
    round: int
    starts_at: datetime | None
    paused_at: datetime | None
    version: int
    created_at: datetime
    updated_at: datetime


class TournamentChange(TypedDict, total=False):
    """The columns :func:`update_tournament` may set (those given are set)."""

    status: str
    round: int
    rounds: int
    starts_at: datetime
    ends_at: datetime
    paused_at: datetime | None
    seeds: list[int]
    updated_at: datetime


class NewEntrant(TypedDict):
    """Every column of a new entrant row (:func:`insert_entrant`)."""

    tournament_id: str
    number: int
    player_id: str | None
    name: str
    bot: bool
    level: str | None
    status: str
    created_at: datetime


class NewGame(TypedDict):
    """Every column of a new game row but its generated ``id`` (:func:`insert_game`)."""

    tournament_id: str
    round: int
    table_number: int
    entrants: list[int]
    match_id: str | None
    points: list[float] | None
    scores: list[int] | None
    source: str | None
    reason: str | None
    decided_at: datetime | None


class Decision(TypedDict, total=False):
    """A game's result as :func:`decide` sets it (``scores`` left as they are when absent)."""

    points: list[float]
    scores: list[int]
    source: str
    reason: str
    decided_at: datetime


class TournamentSettings(TypedDict):
    """What an organiser chooses for a new tournament beyond its format (the keyword
    arguments of :func:`app.services.tournaments.tournaments.create`).
    """

    name: str
    rounds: int | None
    cycles: int
    preset: str
    time_control: JsonObject | None
    private: bool
    rated: bool
    seats: int
    duration_minutes: int | None
    starts_at: datetime | None
    spectator_delay: JsonObject | None


class EntrantJson(TypedDict):
    """An entrant in Tournament JSON: ``number`` the starting number (the seed), ``player``
    null for a computer (at ``level``); ``status`` ``registered``, ``checked_in``,
    ``withdrawn`` or ``dropped``.
    """

    number: int
    name: str
    player: str | None
    bot: bool
    level: str | None
    status: str


class StandingLine(TypedDict):
    """A line of the standings (starting ``number``; ``rank`` 1-based, shared on a tie) with
    the format's tie-breaks.
    """

    number: int
    rank: int
    points: float
    games: int
    wins: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    score_total: int


class StandingJson(TypedDict):
    """A standings line in Tournament JSON: a :class:`StandingLine` with the entrant's
    ``name`` and ``bot``. Tie-breaks: ``buchholz`` the sum of the opponents' points (2-player
    formats), ``sonneborn_berger`` the sum of beaten opponents' points (half for draws),
    ``score_total`` the in-game points over all games. Keys in the order they are sent.
    """

    number: int
    name: str
    bot: bool
    rank: int
    points: float
    games: int
    wins: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    score_total: int


class PairingJson(TypedDict):
    """A table of a round in Tournament JSON: ``entrants`` by starting number in seat order
    (seat 0 starts; one alone is a bye), ``match_status`` its match's (null for none),
    ``points`` and ``scores`` by seat once decided, ``source`` how the result was decided
    (``played``, ``bye``, ``forfeit``, ``adjudicated``; null: not yet) and its ``reason``.
    """

    id: int
    round: int
    table: int
    entrants: list[int]
    match_id: str | None
    match_status: str | None
    points: list[float] | None
    scores: list[int] | None
    source: str | None
    reason: str | None


class TournamentJson(TypedDict):
    """Tournament JSON (docs/API.md "Tournaments"), a tournament as every reader sees it; the
    REST answers send its keys in this order. ``format`` ``swiss``, ``round_robin``, ``arena``
    or ``knockout``; ``status`` ``registering``, ``running``, ``finished`` or ``cancelled``.
    ``ends_at``: an arena's end (ISO 8601), once started; ``starts_at``: the start time set
    (ISO 8601), once started when it started. ``time_control``, ``time_label``,
    ``timeout_policy`` and ``at_zero`` are a lobby's
    (:func:`app.services.clock.table_options.lobby_fields`); ``messages`` the organiser's last
    messages to every player (:func:`app.services.community.chat.notices`); ``seeds`` a
    knock-out's seed order (starting numbers, top seed first) and ``bracket`` its bracket by
    round (both null for other formats); ``me`` the viewer's entry.
    """

    id: str
    name: str
    host: str
    is_host: bool
    private: bool
    format: str
    cycles: int
    seats: int
    duration_minutes: int | None
    ends_at: str | None
    starts_at: str | None
    rounds: int
    preset: str
    rated: bool
    time_control: JsonObject
    time_label: str
    timeout_policy: JsonObject
    at_zero: str
    spectator_delay: JsonObject | None
    status: str
    round: int
    paused: bool
    version: int
    entrants: list[EntrantJson]
    standings: list[StandingJson]
    pairings: list[PairingJson]
    messages: list[NoticeJson]
    seeds: list[int] | None
    bracket: list[list[BracketTable]] | None
    me: EntrantJson | None
