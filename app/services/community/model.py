"""The community package's values: frozen rows as :mod:`app.services.community.queries` reads
them (built only there), the column sets it writes, and the Message JSON of the chat. No SQL
and no I/O here; times are UTC (naive on SQLite).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from typing_extensions import TypedDict

from app.json_types import JsonObject


@dataclass(frozen=True, slots=True)
class Account:
    """An ``accounts`` row: the player's ``username`` (as typed), its lowercased
    ``username_key`` and the Argon2id ``password_hash``.
    """

    player_id: str
    username: str
    username_key: str
    password_hash: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Login:
    """What a login checks and answers: the account's player, ``username``,
    ``password_hash``, the player's ``name`` and ``token_generation``.
    """

    player_id: str
    username: str
    password_hash: str
    name: str
    token_generation: int


@dataclass(frozen=True, slots=True)
class PlayerAccount:
    """A player with its account's ``username`` (None for a guest)."""

    id: str
    name: str
    username: str | None


@dataclass(frozen=True, slots=True)
class MatchNames:
    """Where a match keeps its players' names: ``seats`` (the seat JSON), ``setup`` and
    ``snapshot`` (stored JSON with a ``players`` list of names), passed through whole.
    """

    seats: list[JsonObject]
    setup: JsonObject
    snapshot: JsonObject


@dataclass(frozen=True, slots=True)
class ChatSeat:
    """A seat as the chat reads it from the seat JSON: its number, ``player`` (None for a
    computer or an open seat), ``name`` and ``colour`` (None when unset).
    """

    seat: int | None
    player: str | None
    name: str | None
    colour: str | None


@dataclass(frozen=True, slots=True)
class ChatLobby:
    """A lobby as the chat reads it: invite ``code``, ``host_id`` and ``seats``."""

    code: str
    host_id: str
    seats: tuple[ChatSeat, ...]


@dataclass(frozen=True, slots=True)
class ChatMatch:
    """A match as the chat reads it: its table's ``lobby_code``, ``seats``, ``status`` and
    whether it is ``private``.
    """

    lobby_code: str
    seats: tuple[ChatSeat, ...]
    status: str
    private: bool


@dataclass(frozen=True, slots=True)
class Message:
    """A stored chat message (``scope`` ``lobby``, ``match`` or ``tourney``; ``seat`` and
    ``colour`` None for spectators and organisers; ``quick`` a quick message's name).
    """

    id: int | None
    scope: str
    key: str
    room: str
    player_id: str
    name: str
    seat: int | None
    colour: str | None
    text: str
    quick: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Subscription:
    """A device's push subscription (``id``: its endpoint's SHA-256, hex)."""

    id: str
    player_id: str
    session: str | None
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    failures: int
    created_at: datetime


class NewAccount(TypedDict):
    """Every column of a new ``accounts`` row."""

    player_id: str
    username: str
    username_key: str
    password_hash: str
    created_at: datetime
    updated_at: datetime


class AccountChange(TypedDict, total=False):
    """The account columns :func:`app.services.community.queries.update_account` may set."""

    password_hash: str
    updated_at: datetime


class NewMessage(TypedDict):
    """Every column of a new chat message but its generated ``id``."""

    scope: str
    key: str
    room: str
    player_id: str
    name: str
    seat: int | None
    colour: str | None
    text: str
    quick: str | None
    created_at: datetime


class NewSubscription(TypedDict):
    """Every column of a push subscription row."""

    id: str
    player_id: str
    session: str | None
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    failures: int
    created_at: datetime


class NoticeJson(TypedDict):
    """An organiser's message to a tournament's players as its REST answers show it: Message
    JSON in room ``organiser`` without a seat's keys (``seat``, ``colour``, ``quick``), which
    a message of the page has not.
    """

    id: int | None
    room: str
    player: str
    name: str
    text: str
    at: str


class MessageJson(TypedDict):
    """Message JSON (``{"t": "chat", "d": Message}``; ``at`` ISO 8601, UTC)."""

    id: int | None
    room: str
    player: str
    name: str
    seat: int | None
    colour: str | None
    text: str
    quick: str | None
    at: str


class AccountJson(TypedDict):
    """Account JSON: ``{"id", "name", "username"}`` (``username`` null for a guest)."""

    id: str
    name: str
    username: str | None
