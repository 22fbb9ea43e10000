"""The open platform's types (docs/BOT_API.md, docs/API.md § Export): what its queries read
(frozen dataclasses, built from rows only in :mod:`app.services.platform.bot_queries` and
:mod:`app.services.platform.export_queries`) and the JSON it answers with (``TypedDict``).

Seat lists and the stored clock, rules and snapshot stay JSON (:mod:`app.json_types`): the
platform passes them through (the stream, an exported record) without reading their shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from app.json_types import JsonObject, JsonValue


@dataclass(frozen=True, slots=True)
class Person:
    """A player as the bot routes read it: ``bot_account`` (a bot account for good) and
    ``username`` (None: a guest, not an account).
    """

    id: str
    name: str
    bot_account: bool
    username: str | None


@dataclass(frozen=True, slots=True)
class BotListed:
    """A bot account in the list people pick from: its player ``id``, ``name``, ``username``."""

    id: str
    name: str
    username: str


@dataclass(frozen=True, slots=True)
class Challenge:
    """A ``bot_challenges`` row: ``status`` is ``open``, ``accepting`` (one accept request is
    seating the bot), ``accepted``, ``declined``, ``cancelled``; ``lobby_code`` is set for a
    lobby invitation; ``time_control`` is the stored time options of a match challenge (None
    for an invitation, whose lobby's clock applies); ``match_id`` once accepted into a match.
    """

    id: str
    bot_id: str
    challenger_id: str
    lobby_code: str | None
    preset: str
    rated: bool
    time_control: JsonObject | None
    status: str
    match_id: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class BotMatch:
    """A match a bot sits in, as its event stream reads it: ``seat`` is the bot's, ``seats``
    the match's seat JSON, ``scores`` per seat, ``rules`` and ``clock`` the stored JSON (clock
    None or empty: untimed), ``preset`` and ``rated`` the bot's history columns.
    """

    id: str
    status: str
    seats: tuple[JsonObject, ...]
    scores: tuple[int, ...]
    rules: JsonObject
    clock: JsonObject | None
    seat: int
    preset: str | None
    rated: bool


@dataclass(frozen=True, slots=True)
class ExportMatch:
    """A finished match as the export reads it (the history columns are one seat's): its
    ``snapshot`` (the stored state JSON), seat JSON and stored ``clock``; ``unrated`` the
    reason a rated match did not count (None: it counted); the shuffle commitment (all None for
    a match from before commitments); ``round`` and ``table_number`` for a tournament's match
    (None otherwise). Times are UTC.
    """

    id: str
    name: str | None
    private: bool
    seats: tuple[JsonObject, ...]
    snapshot: JsonObject
    clock: JsonObject | None
    created_at: datetime | None
    finished_at: datetime | None
    preset: str | None
    rated: bool
    unrated: str | None
    scheme: str | None
    commitment: str | None
    seed: str | None
    salt: str | None
    round: int | None = None
    table_number: int | None = None


class PersonJson(TypedDict):
    """A bot or a challenger in Challenge JSON."""

    id: str
    name: str
    bot_account: bool


class ChallengeJson(TypedDict):
    """The Challenge JSON of docs/BOT_API.md: ``time_control`` and ``timeout_policy`` are
    null for a lobby invitation; ``status`` is ``open``, ``accepted``, ``declined``,
    ``cancelled`` or ``expired``.
    """

    id: str
    bot: PersonJson
    challenger: PersonJson
    lobby_code: str | None
    preset: str
    rated: bool
    time_control: JsonObject | None
    timeout_policy: JsonObject | None
    status: str
    match_id: str | None


class BotAccountJson(TypedDict):
    """``POST /api/me/bot``: the account, now a bot account (``bot_account`` always true)."""

    id: str
    name: str
    username: str | None
    bot_account: bool


class BotJson(TypedDict):
    """A bot account in ``GET /api/bots``."""

    id: str
    name: str
    username: str


class StreamSeatJson(TypedDict):
    """A seat in a ``match_start`` line: the seat JSON's values as stored."""

    seat: JsonValue
    name: JsonValue
    player: JsonValue
    bot: bool
    bot_account: bool


class MatchStartJson(TypedDict):
    """The ``match`` of a ``match_start`` line (``time_control``: ``{"kind": "untimed"}`` for
    an untimed match).
    """

    id: str
    seat: int
    seats: list[StreamSeatJson]
    rules: JsonObject
    preset: str | None
    rated: bool
    time_control: JsonObject
    socket: str


class MatchEndJson(TypedDict):
    """The ``match`` of a ``match_end`` line: ``winners`` are the seats with the best score."""

    id: str
    seat: int
    scores: list[int]
    winners: list[int]


class TokenJson(TypedDict):
    """An API token as listed (never the token itself); times ISO 8601."""

    id: str
    name: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None
    revoked: bool
