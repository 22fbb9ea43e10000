"""The SQL of bot accounts and their challenges (docs/BOT_API.md). Statements run on the
caller's connection.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import RowMapping, String, and_, func, insert, or_, select, true, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_players
from app.db.models import lobbies, matches, players, seeks, utcnow
from app.db.platform import bot_challenges
from app.db.tournaments import tournament_entrants, tournaments
from app.services.platform.model import BotListed, BotMatch, Challenge, Person


def _challenge(m: RowMapping) -> Challenge:
    return Challenge(
        id=m["id"],
        bot_id=m["bot_id"],
        challenger_id=m["challenger_id"],
        lobby_code=m["lobby_code"],
        preset=m["preset"],
        rated=bool(m["rated"]),
        time_control=m["time_control"],
        status=m["status"],
        match_id=m["match_id"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
    )


def _bot_match(m: RowMapping) -> BotMatch:
    return BotMatch(
        id=m["id"],
        status=m["status"],
        seats=tuple(m["seats"]),
        scores=tuple(m["scores"]),
        rules=m["rules"],
        clock=m["clock"],
        seat=m["seat"],
        preset=m["preset"],
        rated=bool(m["rated"]),
    )


async def player(conn: AsyncConnection, player_id: str) -> Person | None:
    """A player (its username None for a guest), or None."""
    query = (
        select(players.c.id, players.c.name, players.c.bot_account, accounts.c.username)
        .outerjoin(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.id == player_id)
    )
    m = (await conn.execute(query)).mappings().first()
    if m is None:
        return None
    return Person(m["id"], m["name"], bool(m["bot_account"]), m["username"])


async def bot_list(conn: AsyncConnection, limit: int) -> list[BotListed]:
    """At most ``limit`` bot accounts, by name."""
    query = (
        select(players.c.id, players.c.name, accounts.c.username)
        .join(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.bot_account.is_(True))
        .order_by(players.c.name, players.c.id)
        .limit(limit)
    )
    found = await conn.execute(query)
    return [BotListed(m["id"], m["name"], m["username"]) for m in found.mappings()]


async def matches_played(conn: AsyncConnection, player_id: str) -> int:
    """How many matches (live or finished) ``player_id`` has held a seat in."""
    query = (
        select(func.count())
        .select_from(match_players)
        .where(match_players.c.player_id == player_id)
    )
    return int((await conn.execute(query)).scalar_one())


async def open_play(conn: AsyncConnection, player_id: str) -> str | None:
    """What the player still has open — ``"seat"`` at an open table, ``"seek"`` in Play now,
    ``"entry"`` in a tournament not over — or None.
    """
    seated = select(lobbies.c.code).where(
        lobbies.c.status == "open", sql_cast(lobbies.c.seats, String).contains(f'"{player_id}"')
    )
    if (await conn.execute(seated.limit(1))).first() is not None:
        return "seat"
    seeking = select(seeks.c.id).where(seeks.c.player_id == player_id, seeks.c.status == "open")
    if (await conn.execute(seeking.limit(1))).first() is not None:
        return "seek"
    entered = (
        select(tournament_entrants.c.number)
        .select_from(
            tournament_entrants.join(
                tournaments, tournaments.c.id == tournament_entrants.c.tournament_id
            )
        )
        .where(
            tournament_entrants.c.player_id == player_id,
            tournament_entrants.c.status.in_(("registered", "checked_in")),
            tournaments.c.status.in_(("registering", "running")),
        )
    )
    if (await conn.execute(entered.limit(1))).first() is not None:
        return "entry"
    return None


async def make_bot(conn: AsyncConnection, player_id: str) -> None:
    """Mark ``player_id`` a bot account (one-way)."""
    await conn.execute(update(players).where(players.c.id == player_id).values(bot_account=True))


async def insert_challenge(conn: AsyncConnection, made: Challenge) -> None:
    """Insert challenge ``made`` as one ``bot_challenges`` row."""
    await conn.execute(
        insert(bot_challenges).values(
            id=made.id,
            bot_id=made.bot_id,
            challenger_id=made.challenger_id,
            lobby_code=made.lobby_code,
            preset=made.preset,
            rated=made.rated,
            time_control=made.time_control,
            status=made.status,
            match_id=made.match_id,
            created_at=made.created_at,
            updated_at=made.updated_at,
        )
    )


async def challenge(conn: AsyncConnection, challenge_id: str) -> Challenge | None:
    """The challenge ``challenge_id``, or None."""
    query = select(bot_challenges).where(bot_challenges.c.id == challenge_id)
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else _challenge(m)


async def set_status(conn: AsyncConnection, challenge_id: str, status: str) -> None:
    """Set a challenge's ``status`` (``updated_at`` set)."""
    await conn.execute(
        update(bot_challenges)
        .where(bot_challenges.c.id == challenge_id)
        .values(updated_at=utcnow(), status=status)
    )


async def set_accepted(conn: AsyncConnection, challenge_id: str, match_id: str | None) -> None:
    """Mark a challenge ``accepted`` into ``match_id`` (None: a lobby invitation's seat taken;
    ``updated_at`` set).
    """
    await conn.execute(
        update(bot_challenges)
        .where(bot_challenges.c.id == challenge_id)
        .values(updated_at=utcnow(), status="accepted", match_id=match_id)
    )


async def claim_challenge(
    conn: AsyncConnection, challenge_id: str, old: str, new: str, stale: datetime | None = None
) -> bool:
    """Move a challenge from status ``old`` to ``new`` in one statement; False when its status
    was not ``old`` (someone else moved it first). ``stale``: also move it from ``new`` when
    that was last written before this time (a claim whose request died half-way).
    """
    cond = bot_challenges.c.status == old
    if stale is not None:
        cond = or_(
            cond,
            and_(bot_challenges.c.status == new, bot_challenges.c.updated_at < stale),
        )
    result = await conn.execute(
        update(bot_challenges)
        .where(bot_challenges.c.id == challenge_id, cond)
        .values(status=new, updated_at=utcnow())
    )
    return bool(result.rowcount)


async def open_challenges(
    conn: AsyncConnection, bot_id: str, since: datetime | None = None
) -> list[Challenge]:
    """The bot's open challenges made since ``since`` (None: all), oldest first."""
    query = (
        select(bot_challenges)
        .where(bot_challenges.c.bot_id == bot_id, bot_challenges.c.status == "open")
        .where(bot_challenges.c.created_at >= since if since is not None else true())
        .order_by(bot_challenges.c.created_at, bot_challenges.c.id)
    )
    return [_challenge(m) for m in (await conn.execute(query)).mappings()]


async def count_open(
    conn: AsyncConnection, bot_id: str, since: datetime, challenger: str | None = None
) -> int:
    """How many open challenges made since ``since`` the bot has (from ``challenger`` only,
    when given).
    """
    query = select(func.count()).where(
        bot_challenges.c.bot_id == bot_id,
        bot_challenges.c.status == "open",
        bot_challenges.c.created_at >= since,
    )
    if challenger is not None:
        query = query.where(bot_challenges.c.challenger_id == challenger)
    return int((await conn.execute(query)).scalar_one())


async def bot_matches(conn: AsyncConnection, bot_id: str, known: Iterable[str]) -> list[BotMatch]:
    """The bot's live matches and the matches in ``known`` it sits in, oldest first."""
    ids = list(known)
    cond = matches.c.status == "live"
    if ids:
        cond = or_(cond, matches.c.id.in_(ids))
    query = (
        select(
            matches.c.id,
            matches.c.status,
            matches.c.seats,
            matches.c.scores,
            matches.c.rules,
            matches.c.clock,
            match_players.c.seat,
            match_players.c.preset,
            match_players.c.rated,
        )
        .join(match_players, match_players.c.match_id == matches.c.id)
        .where(match_players.c.player_id == bot_id, cond)
        .order_by(matches.c.created_at, matches.c.id)
    )
    return [_bot_match(m) for m in (await conn.execute(query)).mappings()]
