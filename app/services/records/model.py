"""The records feature's types: what its queries read (frozen dataclasses, built from rows only
in :mod:`app.services.records.queries`) and the JSON it answers with (``TypedDict``).

Ratings are OpenSkill's ``(mu, sigma)`` per rule preset (docs/RATINGS.md); a displayed rating
is :func:`app.services.records.ratings.display` of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NotRequired, TypedDict

from app.json_types import JsonObject


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one preset (a ``ratings`` row); ``games``: rated matches played."""

    player_id: str
    preset: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated match did to one seat's rating (a ``rating_changes`` row)."""

    match_id: str
    seat: int
    player_id: str
    preset: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class RankedRating:
    """A leaderboard line: a rating with its account's display ``name`` and ``username``."""

    rating: Rating
    name: str
    username: str | None


@dataclass(frozen=True, slots=True)
class Fairness:
    """A match's shuffle commitment (a ``match_fairness`` row) and its match's ``status``.

    ``seed`` (decimal text) and ``salt`` are secret until the match is finished.
    """

    scheme: str
    commitment: str
    seed: str
    salt: str
    status: str


class RatingJson(TypedDict):
    """A rating as the API shows it: ``rating`` is the displayed number."""

    rating: int
    mu: float
    sigma: float
    games: int


class RatingChangeJson(TypedDict):
    """One seat's change of a rated match: displayed ratings ``before`` and ``after``."""

    seat: int
    player: str
    preset: str
    before: int
    after: int
    delta: int


class LeaderboardLine(RatingJson):
    """One ranked account (``rank`` 1-based over the whole preset)."""

    rank: int
    id: str
    name: str
    username: str | None


class LeaderboardJson(TypedDict):
    """A page of a preset's leaderboard; ``total``: rated accounts in the preset."""

    preset: str
    total: int
    players: list[LeaderboardLine]


class FairnessJson(TypedDict):
    """A match's shuffle commitment; ``seed`` and ``salt`` only once ``revealed``."""

    scheme: str
    commitment: str
    revealed: bool
    seed: NotRequired[str]
    salt: NotRequired[str]


# ---------------------------------------------------------------------- history rows


@dataclass(frozen=True, slots=True)
class HistorySeat:
    """One seat's history row (``match_players``): who sat there (``player_id`` None for a
    guest-less bot seat), the rules ``preset`` and whether the table was ``rated`` (``unrated``:
    why a rated table's match ended unrated), whether the seat ``left`` (``left_at``: the
    record move it first did not play), and its result once settled (``score``, ``place``,
    ``finished_at``; None before). Times are UTC.
    """

    match_id: str
    seat: int
    player_id: str | None
    bot: bool
    preset: str | None
    rated: bool
    unrated: str | None
    left: bool
    left_at: int | None
    score: int | None
    place: int | None
    started_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class SettledSeat:
    """A seat's result as it is written when its match is settled."""

    score: int
    place: int
    left: bool
    left_at: int | None
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What settling reads of a match: its ``status``, ``scores`` by seat, ``seats`` (the
    match's seat JSON), ``finished_at`` and its ``snapshot`` (the engine's state JSON).
    """

    status: str
    scores: list[int]
    seats: list[JsonObject]
    finished_at: datetime | None
    snapshot: JsonObject


@dataclass(frozen=True, slots=True)
class PlayerHeader:
    """A player as history shows them: ``username`` None for a guest."""

    id: str
    name: str
    username: str | None
    bot_account: bool


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A player's history row (``mine``) with its match: ``id``, ``name``, ``status``,
    ``seats`` (seat JSON), ``scores`` by seat, ``private`` and ``clock`` (the clock JSON, None
    untimed and from before clocks).
    """

    mine: HistorySeat
    id: str
    name: str | None
    status: str
    seats: list[JsonObject]
    scores: list[int]
    private: bool
    clock: JsonObject | None


@dataclass(frozen=True, slots=True)
class FinishedSnapshot:
    """A finished match's id, engine state JSON and end time (a records zip)."""

    id: str
    snapshot: JsonObject
    finished_at: datetime | None


# ---------------------------------------------------------------------- statistics


class SeatStatistics(TypedDict):
    """What one seat did in a match (``match_players.statistics``): ``points`` by feature
    (``road city cloister farm other``), the tiles of the ``longest_road`` and the
    ``biggest_city`` it scored (0 when none).
    """

    points: dict[str, int]
    longest_road: int
    biggest_city: int


@dataclass(frozen=True, slots=True)
class SettledRow:
    """A settled history row as profile statistics read it (``statistics`` None for a row
    settled before statistics were kept).
    """

    match_id: str
    seat: int
    place: int | None
    left: bool
    score: int | None
    statistics: SeatStatistics | None


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One rated match of a player, in time order: the preset, ``(mu, sigma)`` before and
    after, and when the match finished (UTC).
    """

    preset: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    finished_at: datetime | None
