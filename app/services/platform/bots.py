"""Bot accounts and the challenges people send them (docs/BOT_API.md).

A registered account becomes a bot account for good (:func:`become_bot`; only one that has
never sat in a match, so no human rating history turns into a bot's). People challenge a bot
to a new match (:func:`challenge`) or invite it into a seat of their lobby (:func:`invite`);
the bot hears of it on its event stream (:mod:`app.services.platform.bot_stream`) and accepts
or declines. Accepting a match challenge makes the lobby and starts the match with the lobby
service, exactly as a host would: seats, clocks, the fair bag and ratings are the same code;
the bot then plays through the match websocket like any browser.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.db.session import as_utc
from app.engine import PRESETS
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.services.lobby import dealing
from app.services.lobby import lobby as lobbies
from app.services.lobby import seats as lobby_seats
from app.services.platform import bot_queries as q
from app.services.platform.model import (
    BotAccountJson,
    BotJson,
    Challenge,
    ChallengeJson,
    Person,
    PersonJson,
)
from app.services.runtime import Runtime

#: Open challenges one bot may have waiting, and of them from one challenger.
MAX_OPEN = 20
MAX_OPEN_PER_CHALLENGER = 2
#: A challenge the bot has not answered this long after it was made has expired (status
#: ``expired``; accepting it is refused).
CHALLENGE_TTL = timedelta(minutes=10)
#: The status of a challenge while one accept request seats its bot.
ACCEPTING = "accepting"
#: After this long a claim is taken for dead (its request never finished): accept again.
ACCEPT_STALE = timedelta(minutes=2)


async def become_bot(rt: Runtime, player_id: str) -> BotAccountJson:
    """Turn the caller's account into a bot account (again: nothing changes). Returns
    ``{"id", "name", "username", "bot_account": true}``.

    Raises :class:`Forbidden` (a guest: reason ``account_needed``), :class:`Conflict` (the
    account has sat in a match: reason ``bot_has_played``; it has a seat at an open table, a
    Play now seek or a tournament entry: ``bot_has_open_play``, ``params.open`` naming which).
    """
    async with rt.storage.db.transaction() as conn:
        row = await q.player(conn, player_id)
        if row is None or row.username is None:
            raise Forbidden("only a registered account can become a bot", reason="account_needed")
        if not row.bot_account:
            if await q.matches_played(conn, player_id):
                raise Conflict(
                    "an account that has played a match cannot become a bot: register a new one",
                    reason="bot_has_played",
                )
            held = await q.open_play(conn, player_id)
            if held is not None:  # it would keep them as a bot, untagged where it sits
                raise Conflict(
                    "leave your open tables, seeks and tournaments before becoming a bot",
                    reason="bot_has_open_play",
                    params={"open": held},
                )
            await q.make_bot(conn, player_id)
    return {"id": row.id, "name": row.name, "username": row.username, "bot_account": True}


async def listing(rt: Runtime, limit: int = 100) -> list[BotJson]:
    """Bot accounts people can challenge or invite: ``[{"id", "name", "username"}]`` by name."""
    async with rt.storage.db.reading() as conn:
        rows = await q.bot_list(conn, limit)
    return [{"id": r.id, "name": r.name, "username": r.username} for r in rows]


async def require_bot(rt: Runtime, player_id: str) -> Person:
    """The player of a bot account; raises :class:`Forbidden` (reason ``not_a_bot``)."""
    async with rt.storage.db.reading() as conn:
        row = await q.player(conn, player_id)
    if row is None or not row.bot_account:
        raise Forbidden("only a bot account can do this", reason="not_a_bot")
    return row


def _person(who: Person | None) -> PersonJson:
    if who is None:  # players are never deleted: a challenge's bot and challenger stay
        raise NotFound("no such player")
    return {"id": who.id, "name": who.name, "bot_account": who.bot_account}


def _clock_fields(stored: JsonObject | None) -> tuple[JsonObject | None, JsonObject | None]:
    """``(time_control, timeout_policy)`` of a challenge (None for a lobby invitation, whose
    lobby's clock applies).
    """
    if stored is None:
        return None, None
    fields = table_options.lobby_fields(stored)
    return fields["time_control"], fields["timeout_policy"]


def _expired(row: Challenge) -> bool:
    return row.status == "open" and as_utc(row.created_at) < utcnow() - CHALLENGE_TTL


def _status(row: Challenge) -> str:
    if row.status == ACCEPTING:
        return "open"
    return "expired" if _expired(row) else str(row.status)


async def challenge_json(rt: Runtime, row: Challenge) -> ChallengeJson:
    """The Challenge JSON of docs/BOT_API.md for a challenge."""
    async with rt.storage.db.reading() as conn:
        bot = await q.player(conn, row.bot_id)
        challenger = await q.player(conn, row.challenger_id)
    time_control, timeout_policy = _clock_fields(row.time_control)
    return {
        "id": row.id,
        "bot": _person(bot),
        "challenger": _person(challenger),
        "lobby_code": row.lobby_code,
        "preset": row.preset,
        "rated": row.rated,
        "time_control": time_control,
        "timeout_policy": timeout_policy,
        # Being accepted is still open to the outside: it becomes accepted, or open again.
        "status": _status(row),
        "match_id": row.match_id,
    }


async def _new(
    rt: Runtime,
    challenger: str,
    bot_id: str,
    *,
    preset: str,
    rated: bool,
    time_control: JsonObject | None,
    lobby_code: str | None,
) -> ChallengeJson:
    if challenger == bot_id:
        raise Conflict("a bot cannot challenge itself", reason="challenge_self")
    challenge_id = secrets.token_hex(8)
    now = utcnow()
    async with rt.storage.db.transaction() as conn:
        bot = await q.player(conn, bot_id)
        if bot is None or not bot.bot_account:
            raise NotFound("no such bot", reason="no_such_bot")
        fresh = now - CHALLENGE_TTL
        if await q.count_open(conn, bot_id, fresh, challenger) >= MAX_OPEN_PER_CHALLENGER:
            raise Conflict(
                f"you have {MAX_OPEN_PER_CHALLENGER} challenges waiting for this bot already",
                reason="challenges_waiting",
                params={"max": MAX_OPEN_PER_CHALLENGER},
            )
        if await q.count_open(conn, bot_id, fresh) >= MAX_OPEN:
            raise Conflict(
                "this bot has too many challenges waiting: try again soon", reason="bot_busy"
            )
        made = Challenge(
            id=challenge_id,
            bot_id=bot_id,
            challenger_id=challenger,
            lobby_code=lobby_code,
            preset=preset,
            rated=rated,
            time_control=time_control,
            status="open",
            match_id=None,
            created_at=now,
            updated_at=now,
        )
        await q.insert_challenge(conn, made)
        row = await _read(conn, challenge_id)
    return await challenge_json(rt, row)


async def challenge(
    rt: Runtime,
    challenger: str,
    bot_id: str,
    preset: str,
    rated: bool,
    *,
    time_control: JsonObject | None,
    timeout_policy: JsonObject | None = None,
) -> ChallengeJson:
    """Challenge a bot to a new two-seat match of ``preset`` (``time_control`` and
    ``timeout_policy`` as for a lobby). Returns the Challenge JSON.

    Raises :class:`ValidationFailed` (preset, time control), :class:`NotFound` (no such bot),
    :class:`Conflict` (oneself, too many waiting).
    """
    if preset not in PRESETS:
        raise ValidationFailed(f"preset: one of {', '.join(PRESETS)}", reason="challenge_preset")
    if rated:
        async with rt.storage.db.reading() as conn:
            who = await q.player(conn, challenger)
        if who is None or who.username is None:
            raise Conflict(
                "rated: only players with an account can play rated", reason="rated_account"
            )
    control = table_options.stored(
        table_options.parse_time_control(time_control),
        None if timeout_policy is None else table_options.parse_timeout_policy(timeout_policy),
    )
    return await _new(
        rt, challenger, bot_id, preset=preset, rated=rated, time_control=control, lobby_code=None
    )


async def invite(rt: Runtime, code: str, host: str, bot_id: str) -> ChallengeJson:
    """The host of open lobby ``code`` invites a bot into a free seat. Returns the Challenge
    JSON (``lobby_code`` set). Raises :class:`NotFound`, :class:`Forbidden` (not the host),
    :class:`Conflict` (started, full).
    """
    table = await lobbies.get_lobby(rt, code)
    if table["host"] != host:
        raise Forbidden("only the host can invite a bot", reason="host_only")
    if table["status"] != "open":
        raise Conflict("the lobby has started", reason="lobby_started")
    if all(s["player"] is not None or s["bot"] for s in table["seats"]):
        raise Conflict("the lobby is full", reason="lobby_full")
    return await _new(
        rt,
        host,
        bot_id,
        preset=table["preset"] or "custom",
        rated=bool(table["rated"]),
        time_control=None,  # the lobby's own clock applies
        lobby_code=code,
    )


async def _read(conn: AsyncConnection, challenge_id: str) -> Challenge:
    row = await q.challenge(conn, challenge_id)
    if row is None:
        raise NotFound("no such challenge")
    return row


async def _mine(rt: Runtime, challenge_id: str) -> Challenge:
    async with rt.storage.db.reading() as conn:
        return await _read(conn, challenge_id)


async def get(rt: Runtime, challenge_id: str, viewer: str) -> ChallengeJson:
    """A challenge, for its bot or its challenger. Raises :class:`NotFound`, :class:`Forbidden`."""
    row = await _mine(rt, challenge_id)
    if viewer not in (row.bot_id, row.challenger_id):
        raise Forbidden("only the bot and the challenger see a challenge")
    return await challenge_json(rt, row)


async def accept(rt: Runtime, challenge_id: str, bot_id: str, address: str) -> ChallengeJson:
    """The bot accepts: a match challenge starts a new match (the challenger hosts seat 0, the
    bot seat 1); a lobby invitation seats the bot in the lobby. Accepting again answers the
    same. Raises :class:`NotFound`, :class:`Forbidden` (not this challenge's bot),
    :class:`Conflict` (declined or cancelled; ``challenge_expired`` after
    :data:`CHALLENGE_TTL`; the lobby full or started).
    """
    row = await _mine(rt, challenge_id)
    if row.bot_id != bot_id:
        raise Forbidden("this challenge is for another bot", reason="not_your_challenge")
    if row.status == "accepted":
        return await challenge_json(rt, row)
    if _expired(row):
        raise Conflict("this challenge has expired", reason="challenge_expired")
    async with rt.storage.db.transaction() as conn:
        stale = utcnow() - ACCEPT_STALE
        claimed = await q.claim_challenge(conn, challenge_id, "open", ACCEPTING, stale)
    if not claimed:  # declined, cancelled or being accepted by a request racing this one
        raise Conflict("this challenge is not open", reason="challenge_closed")
    try:
        match_id = await _seat_the_bot(rt, row, bot_id, address)
    except Exception:  # the lobby refused (a rated table with a guest, …): open again
        async with rt.storage.db.transaction() as conn:
            await q.claim_challenge(conn, challenge_id, ACCEPTING, "open")
        raise
    async with rt.storage.db.transaction() as conn:
        await q.set_accepted(conn, challenge_id, match_id)
        row = await _read(conn, challenge_id)
    return await challenge_json(rt, row)


async def _seat_the_bot(rt: Runtime, row: Challenge, bot_id: str, address: str) -> str | None:
    """Seat the bot as challenge ``row`` asks: in the inviting lobby (None), or in a new lobby
    with the challenger, started at once (the match id).
    """
    match_id = None
    if row.lobby_code is not None:
        await lobby_seats.join(rt, row.lobby_code, bot_id)
    else:
        control, policy = table_options.split_stored(row.time_control)
        table = await lobbies.create_lobby(
            rt,
            row.challenger_id,
            name=None,
            preset=row.preset,
            rules=None,
            seats=2,
            private=False,
            rated=row.rated,
            time_control=control,
            timeout_policy=policy,
        )
        await lobby_seats.join(rt, table["code"], bot_id)
        match_id = await dealing.start(rt, table["code"], row.challenger_id, address)
    return match_id


async def close(rt: Runtime, challenge_id: str, player_id: str, how: str) -> ChallengeJson:
    """``how`` = ``declined`` (by its bot) or ``cancelled`` (by its challenger); closing a
    closed challenge again answers the same. Raises :class:`NotFound`, :class:`Forbidden`,
    :class:`Conflict` (already accepted).
    """
    row = await _mine(rt, challenge_id)
    who = row.bot_id if how == "declined" else row.challenger_id
    if player_id != who:
        raise Forbidden(
            "only the bot declines, only the challenger cancels", reason="not_your_challenge"
        )
    if row.status == "accepted":
        raise Conflict("this challenge was accepted", reason="challenge_closed")
    if row.status == "open":
        async with rt.storage.db.transaction() as conn:
            await q.set_status(conn, challenge_id, how)
            row = await _read(conn, challenge_id)
    return await challenge_json(rt, row)
