"""The lobby package's values: the rows it reads (frozen, built only in
:mod:`app.services.lobby.queries` and :mod:`app.services.lobby.series_queries`), the series JSON
stored on a lobby row, and the JSON it hands to routes and sockets.

A seat is open JSON (:data:`app.json_types.JsonObject`): ``{"seat", "player", "name",
"colour", "bot"}`` and, when set, ``"level"`` and ``"bot_account"`` (see
:class:`app.db.models.Lobby`); the clock, ratings and history modules read seats as plain
dicts, so seats stay dicts here. Times are UTC (naive on SQLite).

This module runs no SQL and imports no table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict, TypeVar

from app.json_types import JsonObject
from app.services.clock import table_options

_T = TypeVar("_T")

# ---------------------------------------------------------------------- series JSON


class SeriesGameJson(TypedDict):
    """One game of a series: its ``match`` id, the series seat that started it (``first``)
    and the ``points`` by series seat (None while it is played).
    """

    match: str
    first: int
    points: list[float] | None


class SeriesState(TypedDict):
    """The series stored on a lobby row (``lobbies.series``; :mod:`app.services.lobby.series`):
    ``best_of`` (3 or 5), ``status`` (``playing`` | ``decided``), the series ``seats`` (game
    1's match seats), its ``games``, the ``score`` by series seat, and the ``winners`` (series
    seats) once decided, else None.
    """

    best_of: int
    status: str
    seats: list[JsonObject]
    games: list[SeriesGameJson]
    score: list[float]
    winners: list[int] | None


# ---------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """A lobby (a table being set up) as stored: every column of ``lobbies``.

    ``seats``: ``max_seats`` seat dicts; ``rules``: the engine's ``Options`` JSON;
    ``time_control``: the stored column (time control, time-out policy and aid policy:
    :mod:`app.services.clock.table_options`), None for untimed; ``version`` grows by one on
    every change; ``series``: None before a series' first deal or for one game;
    ``spectator_delay``: ``{"moves": N}`` or ``{"seconds": M}``, None: live.
    """

    code: str
    name: str | None
    host_id: str
    private: bool
    preset: str | None
    rules: JsonObject
    max_seats: int
    seats: list[JsonObject]
    status: str
    match_id: str | None
    version: int
    time_control: JsonObject | None
    created_at: datetime
    updated_at: datetime
    rated: bool
    language: str | None
    best_of: int | None
    series: SeriesState | None
    spectator_delay: dict[str, int] | None
    #: The table's settings, typed: from the ``settings`` column when this release wrote it at
    #: this ``version``, else from the columns above (a row an older release wrote).
    settings: TableSettings


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettings:
    """How a table plays, whichever way it is made (a host creates it, a rematch, Play now, a
    tournament's pairing): what :func:`app.services.lobby.dealing.open_table` stores in a new
    lobby row beside its seats and host, in the row's ``settings`` column (:meth:`to_json`).

    ``rules``: the engine's ``Options`` JSON (``preset`` names the preset it came from, None:
    custom rules); ``time_control``: the time control JSON (``{"kind": "untimed"}`` or a
    timed one, :class:`app.services.clock_values.controls.TimeControl`), None: untimed;
    ``timeout_policy``: the time-out policy JSON, None: ``computer``; ``aids``: the aid policy
    JSON (:class:`app.engine.aids.AidPolicy`), None: the default for ``rated``; ``name``: the
    table's title (None: each client words "{host}'s table"); ``language``: the host's play
    language (``en``/``de``/``fr``, None: any); ``best_of``: 3 or 5 for a series, None for one
    game; ``spectator_delay``: ``{"moves": N}`` or ``{"seconds": M}``, None: live.
    """

    rules: JsonObject
    preset: str | None = None
    name: str | None = None
    private: bool = False
    rated: bool = False
    time_control: JsonObject | None = None
    timeout_policy: JsonObject | None = None
    aids: JsonObject | None = None
    language: str | None = None
    best_of: int | None = None
    spectator_delay: dict[str, int] | None = None

    #: The version of :meth:`to_json`'s form; a form this release does not know reads as none.
    FORMAT = 1

    def packed_time(self) -> JsonObject | None:
        """The time options as the lobby's older ``time_control`` column holds them: the time
        control with the time-out policy and the aid policy under their keys
        (:func:`app.services.clock.table_options.stored`); None when the table sets none.
        """
        if self.time_control is None and self.timeout_policy is None and self.aids is None:
            return None
        return table_options.stored(self.time_control, self.timeout_policy, self.aids)

    def to_json(self, at_version: int) -> JsonObject:
        """The ``lobbies.settings`` value for the row at ``at_version``: every field, the
        :data:`FORMAT` and the row version it was written with (a row an older release changed
        since has a newer version, and its settings read from the older columns instead).
        """
        return {
            "format": self.FORMAT,
            "at_version": at_version,
            "rules": self.rules,
            "preset": self.preset,
            "name": self.name,
            "private": self.private,
            "rated": self.rated,
            "time_control": self.time_control,
            "timeout_policy": self.timeout_policy,
            "aids": self.aids,
            "language": self.language,
            "best_of": self.best_of,
            "spectator_delay": None
            if self.spectator_delay is None
            else {k: v for k, v in self.spectator_delay.items()},
        }

    @classmethod
    def from_json(cls, data: object, version: int) -> TableSettings | None:
        """The settings a ``lobbies.settings`` value holds for the row at ``version``; None when
        it holds none this release can trust: null (a row an older release made), another
        :data:`FORMAT`, written at another version (an older release changed the row since) or
        malformed. The caller then reads the older columns
        (:func:`app.services.clock.table_options.unpack`).
        """
        if not isinstance(data, dict) or data.get("format") != cls.FORMAT:
            return None
        if data.get("at_version") != version or not isinstance(data.get("rules"), dict):
            return None
        try:
            return cls(
                rules=data["rules"],
                preset=_opt(data.get("preset"), str),
                name=_opt(data.get("name"), str),
                private=bool(data.get("private")),
                rated=bool(data.get("rated")),
                time_control=_opt(data.get("time_control"), dict),
                timeout_policy=_opt(data.get("timeout_policy"), dict),
                aids=_opt(data.get("aids"), dict),
                language=_opt(data.get("language"), str),
                best_of=_opt(data.get("best_of"), int),
                spectator_delay=_opt(data.get("spectator_delay"), dict),
            )
        except TypeError:
            return None


def _opt(value: object, kind: type[_T]) -> _T | None:
    """``value`` when it is None or a ``kind`` (a bool is no int here); raises
    :class:`TypeError` otherwise.
    """
    if value is None:
        return None
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")


class LobbyChanges(TypedDict, total=False):
    """The columns of a lobby a use case changes (:func:`app.services.lobby.core.save` adds
    ``version`` and ``updated_at``); each as in :class:`LobbyRow`.
    """

    name: str | None
    host_id: str
    private: bool
    preset: str | None
    rules: JsonObject
    max_seats: int
    seats: list[JsonObject]
    status: str
    match_id: str | None
    time_control: JsonObject | None
    best_of: int | None
    series: SeriesState | None
    spectator_delay: dict[str, int] | None


@dataclass(frozen=True, slots=True)
class LobbySetup:
    """What a rematch takes from a finished match's lobby: ``preset``, ``max_seats``,
    ``rated``, ``time_control`` (the stored column), ``best_of`` and ``series``.
    """

    preset: str | None
    max_seats: int
    rated: bool
    time_control: JsonObject | None
    best_of: int | None
    series: SeriesState | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    """What the lobby reads of a match (a rematch): its ``id``, table ``lobby_code``,
    ``name``, ``private``, ``status`` (``live`` | ``finished``), ``seats`` (turn order),
    ``rules``, ``rematch_code`` (None until asked) and ``spectator_delay``.
    """

    id: str
    lobby_code: str
    name: str | None
    private: bool
    status: str
    seats: list[JsonObject]
    rules: JsonObject
    rematch_code: str | None
    spectator_delay: dict[str, int] | None


@dataclass(frozen=True, slots=True)
class LiveMatch:
    """A live public match as the Tables page lists it: ``id``, ``name``, ``seats``, ``turn``
    and ``clock`` (None for matches from before clocks).
    """

    id: str
    name: str | None
    seats: list[JsonObject]
    turn: int
    clock: JsonObject | None


@dataclass(frozen=True, slots=True)
class SeekRow:
    """A "Play now" seek as stored (:class:`app.db.models.Seek`): ``pool`` names what it
    accepts; ``status``: ``open``, ``matched`` (``match_id`` set), ``cancelled`` or
    ``expired``; ``rating``: the seeker's displayed rating when rated, else None;
    ``address``: the client's (None: posted before addresses were kept).
    """

    id: str
    player_id: str
    pool: str
    players: int
    preset: str
    rated: bool
    time_control: JsonObject
    rating: int | None
    status: str
    match_id: str | None
    created_at: datetime
    seen_at: datetime
    address: str | None


@dataclass(frozen=True, slots=True)
class PoolWaiting:
    """A pool with open seeks: its key, one of its seeks (``sample``: it tells the pool's
    players, preset, rated and time control) and how many seeks are ``waiting``.
    """

    pool: str
    sample: SeekRow
    waiting: int


# ---------------------------------------------------------------------- JSON to routes


class LobbyJson(TypedDict):
    """Lobby JSON (docs/API.md § Lobbies), in this key order. ``seats``: the stored seats
    with ``bot_account`` and ``connected`` added; ``time_control`` … ``at_zero``:
    :func:`app.services.clock.table_options.lobby_fields`; ``aids``: the aid policy JSON.
    """

    code: str
    name: str | None
    host_name: str | None
    private: bool
    host: str
    preset: str | None
    rules: JsonObject
    seats: list[JsonObject]
    max_seats: int
    status: str
    match_id: str | None
    version: int
    rated: bool
    language: str | None
    best_of: int
    spectator_delay: dict[str, int] | None
    time_control: JsonObject
    time_label: str
    timeout_policy: JsonObject
    at_zero: str
    aids: JsonObject


class LobbyListJson(TypedDict):
    """``GET /api/lobbies``: open public ``lobbies`` and live public ``matches`` (each
    ``{"id", "name", "host_name", "players", "turn", "spectators", "time_control",
    "time_label"}``; open JSON, as a spectator delay rewrites it in place).
    """

    lobbies: list[LobbyJson]
    matches: list[JsonObject]


class RangeJson(TypedDict):
    """The ratings a waiting rated seek accepts now."""

    low: int
    high: int


class PoolFields(TypedDict):
    """What names a pool in Seek and queue JSON: ``players``, ``preset``, ``rated``, the
    ``time_control`` JSON and its English ``time_label``.
    """

    players: int
    preset: str
    rated: bool
    time_control: JsonObject
    time_label: str


class PoolJson(PoolFields):
    """A pool as the queue shows it, with how many seeks are ``waiting``."""

    waiting: int


class QueueJson(TypedDict):
    """``GET /api/seeks``: the ``pools`` with someone waiting; ``poll_within`` in seconds."""

    pools: list[PoolJson]
    poll_within: float


class SeekJson(TypedDict):
    """Seek JSON (docs/API.md § Play now), in this key order."""

    id: str
    players: int
    preset: str
    rated: bool
    time_control: JsonObject
    time_label: str
    status: str
    rating: int | None
    range: RangeJson | None
    waiting: int
    match_id: str | None
    poll_within: float


class SeriesJson(TypedDict):
    """A series as docs/API.md § Series shows it (``GET /api/matches/{id}/series``)."""

    best_of: int
    status: str
    game: int
    games: list[SeriesGameJson]
    players: list[JsonObject]
    score: list[float]
    winners: list[int] | None
    next_match: str | None
