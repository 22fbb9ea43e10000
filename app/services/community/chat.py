"""Chat: the waiting room's and the match's messages, stored with the lobby or match and
delivered over the sockets already open (through the broker, so every instance sees them).

Rooms:
- ``lobby``: the waiting room of a lobby; its seated players and its host write.
- ``players``: a match's seated players write; everyone watching reads.
- ``spectators``: a match's spectators write; spectators read at once, players only once the
  match is over (no coaching): live delivery goes to spectators' sockets only, and the history
  (:func:`history`) leaves those messages out for a player until the end.
- ``organiser``: a tournament organiser's message to all its players (:func:`post_notice`),
  stored with the tournament (scope ``tourney``) and with each of its live matches; everyone
  reads it.

A message is plain text as typed (never HTML: clients insert it as text), 1–300 characters
after trimming, or one of the :data:`QUICK` messages (each client shows it in its own language).
Each sender may write :data:`BURST` messages at once and :data:`RATE` per second after that (per
instance). The host of a lobby may mute a person there: muted people cannot write in that
waiting room nor in the matches played from it. Bad input raises a :class:`ChatError` with a
stable code (``chat_empty``, ``chat_too_long``, ``chat_too_fast``, ``chat_not_allowed``,
``chat_muted``) and stores nothing.

Wire: ``{"t": "chat", "d": Message}`` where Message is ``{"id", "room", "player", "name", "seat",
"colour", "text", "quick", "at"}`` (``seat``/``colour`` null for spectators). This module must not
know about sockets beyond the hub's delivery call.
"""

from __future__ import annotations

import hmac
import unicodedata
from datetime import UTC
from typing import TypedDict

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.realtime.hub import NOTE_ALL, NOTE_SPECTATORS
from app.realtime.protocol import broker_message, dumps
from app.services.community import queries
from app.services.community.model import ChatSeat, Message, MessageJson, NewMessage, NoticeJson
from app.services.errors import Forbidden, NotFound, RateLimited, ServiceError
from app.services.limits.rates import RateLimiter
from app.services.runtime import Runtime

#: Longest message, in characters (Unicode code points) after trimming.
MAX_CHARS = 300
#: Messages a sender may write at once, then :data:`RATE` per second.
BURST = 5
RATE = 0.5
#: Messages kept for a late joiner's history.
HISTORY = 200
#: Quick messages (phones): the client shows each in the reader's language.
QUICK = ("hello", "good_luck", "well_played", "thinking", "oops", "thanks", "good_game", "bye")


class Sender(TypedDict):
    """Who writes in a lobby or match: their ``room``, ``seat`` and ``colour`` (None for a
    spectator), ``name``, whether the match is ``over``, and the table's ``lobby`` code.
    """

    room: str
    seat: int | None
    colour: str | None
    name: str
    over: bool
    lobby: str


class ChatHistory(TypedDict):
    """``{"messages": [Message], "muted": [player id]}``, messages oldest first."""

    messages: list[MessageJson]
    muted: list[str]


class ChatError(ServiceError):
    """A chat message that cannot be accepted; ``code`` says why (see the module docstring)."""

    def __init__(self, code: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def _limiter(rt: Runtime) -> RateLimiter:
    limiter = rt.limits.chat
    if limiter is None:
        limiter = RateLimiter(
            RATE,
            BURST,
            "chat messages",
            redis_url=rt.settings.redis_url,
            prefix=rt.settings.channel_prefix,
        )
        rt.limits.chat = limiter
    return limiter


def clean_text(text: str | None) -> str:
    """Trim ``text`` and drop control characters (newlines become spaces); raises
    ``chat_empty`` when nothing is left, ``chat_too_long`` past :data:`MAX_CHARS`.
    """
    if not isinstance(text, str):
        raise ChatError("chat_empty", "a chat message needs text")
    body = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)
    body = body.strip()
    if not body:
        raise ChatError("chat_empty", "a chat message cannot be empty")
    if len(body) > MAX_CHARS:
        raise ChatError("chat_too_long", f"a chat message has at most {MAX_CHARS} characters")
    return body


def _message_json(row: Message) -> MessageJson:
    at = row.created_at
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return {
        "id": row.id,
        "room": row.room,
        "player": row.player_id,
        "name": row.name,
        "seat": row.seat,
        "colour": row.colour,
        "text": row.text,
        "quick": row.quick,
        "at": at.isoformat(),
    }


def chat_frame(message: MessageJson) -> str:
    """``{"t": "chat", "d": Message}``."""
    return dumps({"t": "chat", "d": message})


async def _player_name(conn: AsyncConnection, player_id: str) -> str:
    name = await queries.player_name(conn, player_id)
    if name is None:
        raise ChatError("chat_not_allowed", "unknown player", 403)
    return name


async def _where(rt: Runtime, scope: str, key: str, player_id: str) -> Sender:
    """Who the sender is in this lobby or match: ``{"room", "seat", "colour", "name",
    "over", "lobby"}``; raises ``chat_not_allowed`` / ``chat_muted``.
    """
    async with rt.storage.db.reading() as conn:
        if scope == "lobby":
            row = await queries.lobby(conn, key)
            if row is None:
                raise NotFound("no such lobby")
            seat = _seat_of(row.seats, player_id)
            if seat is None and row.host_id != player_id:
                raise ChatError(
                    "chat_not_allowed", "only the people at this table can write here", 403
                )
            lobby_code, room, over = row.code, "lobby", False
        else:
            found = await queries.match(conn, key)
            if found is None:
                raise NotFound("no such match")
            seat = _seat_of(found.seats, player_id)
            lobby_code, over = found.lobby_code, found.status == "finished"
            room = "players" if seat is not None else "spectators"
        if await queries.is_muted(conn, lobby_code, player_id):
            raise ChatError("chat_muted", "the host has muted you at this table", 403)
        name = seat.name if seat is not None and seat.name else await _player_name(conn, player_id)
    return {
        "room": room,
        "seat": seat.seat if seat is not None else None,
        "colour": seat.colour if seat is not None else None,
        "name": name,
        "over": over,
        "lobby": lobby_code,
    }


def _seat_of(seats: tuple[ChatSeat, ...], player_id: str) -> ChatSeat | None:
    return next((s for s in seats if s.player == player_id), None)


async def post(
    rt: Runtime,
    scope: str,
    key: str,
    player_id: str | None,
    text: str | None = None,
    quick: str | None = None,
) -> MessageJson:
    """Store and deliver one message from ``player_id`` in lobby ``key`` (``scope`` "lobby") or
    match ``key`` (``scope`` "match"); returns the Message. Raises :class:`ChatError` (see the
    module docstring) or :class:`NotFound`; nothing is stored then.
    """
    if player_id is None:
        raise ChatError("chat_not_allowed", "sign in (choose a name) to chat", 403)
    if quick is not None:
        if quick not in QUICK:
            raise ChatError("chat_empty", f"unknown quick message; one of {', '.join(QUICK)}")
        body = ""
    else:
        body = clean_text(text)
    who = await _where(rt, scope, key, player_id)
    try:
        await _limiter(rt).hit(player_id)
    except RateLimited:
        raise ChatError("chat_too_fast", "too many messages: wait a moment", 429) from None
    values: NewMessage = {
        "scope": scope,
        "key": key,
        "room": who["room"],
        "player_id": player_id,
        "name": who["name"],
        "seat": who["seat"],
        "colour": who["colour"],
        "text": body,
        "quick": quick,
        "created_at": utcnow(),
    }
    async with rt.storage.db.transaction() as conn:
        new_id = await queries.insert_message(conn, values)
    message: MessageJson = {
        "id": new_id,
        "room": who["room"],
        "player": player_id,
        "name": who["name"],
        "seat": who["seat"],
        "colour": who["colour"],
        "text": body,
        "quick": quick,
        "at": values["created_at"].isoformat(),
    }
    only_spectators = who["room"] == "spectators" and not who["over"]
    await _deliver(rt, scope, key, chat_frame(message), only_spectators)
    return message


async def post_notice(
    rt: Runtime, tournament_id: str, match_ids: list[str], player_id: str, text: str
) -> MessageJson:
    """Store and deliver an organiser's message (room ``organiser``) on tournament
    ``tournament_id``'s page (scope ``tourney``) and in the chat of each match in
    ``match_ids``; the caller checked that ``player_id`` organises it. Returns the Message of
    the tournament page. Raises :class:`ChatError` (``chat_empty``, ``chat_too_long``,
    ``chat_too_fast``).
    """
    body = clean_text(text)
    try:
        await _limiter(rt).hit(player_id)
    except RateLimited:
        raise ChatError("chat_too_fast", "too many messages: wait a moment", 429) from None
    now = utcnow()
    sent: list[tuple[str, str, MessageJson]] = []
    async with rt.storage.db.transaction() as conn:
        name = (await _player_name(conn, player_id))[:24]
        for scope, key in [("tourney", tournament_id), *(("match", m) for m in match_ids)]:
            values: NewMessage = {
                "scope": scope,
                "key": key,
                "room": "organiser",
                "player_id": player_id,
                "name": name,
                "seat": None,
                "colour": None,
                "text": body,
                "quick": None,
                "created_at": now,
            }
            new_id = await queries.insert_message(conn, values)
            sent.append((scope, key, _message_json(Message(id=new_id, **values))))
    for scope, key, message in sent:
        if scope == "match":
            await _deliver(rt, scope, key, chat_frame(message), False)
    return sent[0][2]


async def notices(rt: Runtime, tournament_id: str, limit: int = 20) -> list[NoticeJson]:
    """The last ``limit`` organiser messages of a tournament's page, oldest first."""
    async with rt.storage.db.reading() as conn:
        rows = await queries.messages(conn, "tourney", tournament_id, False, limit)
    return [_message_json(r) for r in reversed(rows)]


async def _deliver(rt: Runtime, scope: str, key: str, frame: str, only_spectators: bool) -> None:
    """This instance's sockets now, the other instances through the broker."""
    channel = rt.fanout.channel(scope, key)
    hub = rt.fanout.hubs.get(channel)
    if hub is not None:
        hub.deliver_note(frame, only_spectators)
    kind = NOTE_SPECTATORS if only_spectators else NOTE_ALL
    await rt.fanout.broker.publish(
        channel, broker_message(rt.fanout.broker.instance_id, kind, 0, frame)
    )


async def history(
    rt: Runtime, scope: str, key: str, player_id: str | None, code: str | None = None
) -> ChatHistory:
    """``{"messages": [Message], "muted": [player id]}`` — the last :data:`HISTORY` messages a
    reader may see, oldest first (a seated player of a live match sees no spectators' ones).
    A private match's chat is for its seats and holders of its lobby ``code``. Raises
    :class:`NotFound`, :class:`Forbidden`.
    """
    async with rt.storage.db.reading() as conn:
        if scope == "lobby":
            if await queries.lobby(conn, key) is None:
                raise NotFound("no such lobby")
            lobby_code, hide_spectators = key, False
        else:
            row = await queries.match_access(conn, key)
            if row is None:
                raise NotFound("no such match")
            seated = player_id is not None and any(s.player == player_id for s in row.seats)
            has_code = code is not None and hmac.compare_digest(
                code.encode(), row.lobby_code.encode()
            )
            if row.private and not seated and not has_code:
                raise Forbidden(
                    "this match is private: open it with its invite code", reason="match_private"
                )
            lobby_code, hide_spectators = row.lobby_code, seated and row.status != "finished"
        rows = await queries.messages(conn, scope, key, hide_spectators, HISTORY)
        muted = await queries.muted(conn, lobby_code)
    return {"messages": [_message_json(r) for r in reversed(rows)], "muted": sorted(muted)}


async def set_muted(rt: Runtime, code: str, host_id: str, player_id: str, muted: bool) -> list[str]:
    """The host of lobby ``code`` mutes (or unmutes) ``player_id``; returns the muted ids.
    Raises :class:`NotFound`, :class:`Forbidden` (not the host, or muting oneself).
    """
    async with rt.storage.db.transaction() as conn:
        row = await queries.lobby(conn, code)
        if row is None:
            raise NotFound("no such lobby")
        if row.host_id != host_id:
            raise Forbidden("only the host can mute people", reason="not_host")
        if player_id == host_id:
            raise Forbidden("the host cannot mute themselves", reason="mute_self")
        await queries.set_muted(conn, code, player_id, muted, utcnow())
        ids = await queries.muted(conn, code)
    frame = dumps({"t": "chat_muted", "d": {"muted": sorted(ids)}})
    await _deliver(rt, "lobby", code, frame, False)
    return sorted(ids)
