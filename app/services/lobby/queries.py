"""The SQL of the lobby package: lobbies, creating a match from one, and the "Play now" seek
pool (:mod:`app.services.lobby.seeks`).

Each statement runs on a connection inside the caller's transaction.

Rows come back as the frozen values of :mod:`app.services.lobby.model`, built here and
nowhere else (:class:`LobbyRow`, :class:`SeekRow`, …); ``lock`` adds ``FOR UPDATE`` (Postgres;
SQLite serialises writers itself). The ``values`` of an insert or update are column names to
values, handed to SQLAlchemy as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import RowMapping, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts
from app.db.models import instance_heartbeats, lobbies, matches, players, seeks, utcnow
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.lobby.model import (
    LiveMatch,
    LobbyRow,
    LobbySetup,
    MatchRow,
    PoolWaiting,
    SeekRow,
    TableSettings,
)


def _lobby_row(r: RowMapping) -> LobbyRow:
    return LobbyRow(
        settings=table_settings(r),
        code=r["code"],
        name=r["name"],
        host_id=r["host_id"],
        private=r["private"],
        preset=r["preset"],
        rules=r["rules"],
        max_seats=r["max_seats"],
        seats=r["seats"],
        status=r["status"],
        match_id=r["match_id"],
        version=r["version"],
        time_control=r["time_control"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        rated=r["rated"],
        language=r["language"],
        best_of=r["best_of"],
        series=r["series"],
        spectator_delay=r["spectator_delay"],
    )


def table_settings(r: RowMapping) -> TableSettings:
    """The lobby row's settings: its ``settings`` column when this release wrote it at the row's
    version, else built from the older columns (a row an older release made or changed since:
    during a rolling upgrade both write the same lobbies).
    """
    found = TableSettings.from_json(r["settings"], r["version"])
    if found is not None:
        return found
    control, policy, aids = table_options.unpack(r["time_control"])
    return TableSettings(
        rules=r["rules"],
        preset=r["preset"],
        name=r["name"],
        private=bool(r["private"]),
        rated=bool(r["rated"]),
        time_control=control,
        timeout_policy=policy,
        aids=aids,
        language=r["language"],
        best_of=r["best_of"],
        spectator_delay=r["spectator_delay"],
    )


def settings_columns(settings: TableSettings, version: int) -> dict[str, object]:
    """The columns of a lobby row that hold ``settings`` at ``version``: the ``settings``
    column, and the older columns an older release reads during a rolling upgrade (``rules``,
    ``preset``, ``name``, ``private``, ``rated``, the packed ``time_control``, ``language``,
    ``best_of``, ``spectator_delay``), written alike.
    """
    return {
        "settings": settings.to_json(version),
        "rules": settings.rules,
        "preset": settings.preset,
        "name": settings.name,
        "private": settings.private,
        "rated": settings.rated,
        "time_control": settings.packed_time(),
        "language": settings.language,
        "best_of": settings.best_of,
        "spectator_delay": settings.spectator_delay,
    }


def _seek_row(r: RowMapping) -> SeekRow:
    return SeekRow(
        id=r["id"],
        player_id=r["player_id"],
        pool=r["pool"],
        players=r["players"],
        preset=r["preset"],
        rated=r["rated"],
        time_control=r["time_control"],
        rating=r["rating"],
        status=r["status"],
        match_id=r["match_id"],
        created_at=r["created_at"],
        seen_at=r["seen_at"],
        address=r["address"],
    )


async def player_name(conn: AsyncConnection, player_id: str) -> str | None:
    """The display name of a player, or None when there is no such player."""
    name = (await conn.execute(select(players.c.name).where(players.c.id == player_id))).scalar()
    return None if name is None else str(name)


async def is_bot_account(conn: AsyncConnection, player_id: str) -> bool:
    """Whether ``player_id`` is a bot account (docs/BOT_API.md)."""
    query = select(players.c.bot_account).where(players.c.id == player_id)
    return bool((await conn.execute(query)).scalar())


async def lobby(conn: AsyncConnection, code: str, *, lock: bool = False) -> LobbyRow | None:
    """The lobby with invite ``code`` (its row locked for update with ``lock``), or None."""
    query = select(lobbies).where(lobbies.c.code == code)
    if lock:
        query = query.with_for_update()
    found = (await conn.execute(query)).first()
    return None if found is None else _lobby_row(found._mapping)


async def update_lobby(conn: AsyncConnection, code: str, values: Mapping[str, object]) -> LobbyRow:
    """Set ``values`` (columns) on lobby ``code`` and return the lobby after. Raises
    :class:`LookupError` when there is no such lobby (callers hold its row locked).
    """
    await conn.execute(update(lobbies).where(lobbies.c.code == code).values(**values))
    return await _written(conn, code)


async def _written(conn: AsyncConnection, code: str) -> LobbyRow:
    """Lobby ``code`` as this transaction just wrote it; :class:`LookupError` when it is gone."""
    after = await lobby(conn, code)
    if after is None:
        raise LookupError(f"lobby {code} is gone")
    return after


async def insert_table(
    conn: AsyncConnection,
    code: str,
    host_id: str,
    seats: list[JsonObject],
    settings: TableSettings,
) -> LobbyRow:
    """Add an open lobby row ``code`` hosted by ``host_id`` with ``seats`` (every seat, empty
    ones too: ``max_seats`` is their number) and ``settings``; returns it as stored. The one
    place a lobby row is built.
    """
    now = utcnow()
    await conn.execute(
        insert(lobbies).values(
            code=code,
            host_id=host_id,
            max_seats=len(seats),
            seats=seats,
            status="open",
            match_id=None,
            version=1,
            created_at=now,
            updated_at=now,
            **settings_columns(settings, 1),
        )
    )
    return await _written(conn, code)


async def open_public(
    conn: AsyncConnection, limit: int, since: datetime
) -> tuple[list[LobbyRow], list[LiveMatch]]:
    """Open public lobbies changed since ``since`` and live public matches. Newest first, at
    most ``limit`` of each.
    """
    rows = (
        await conn.execute(
            select(lobbies)
            .where(
                lobbies.c.status == "open",
                lobbies.c.private.is_(False),
                lobbies.c.updated_at >= since,
            )
            .order_by(lobbies.c.created_at.desc())
            .limit(limit)
        )
    ).all()
    live = (
        await conn.execute(
            select(matches.c.id, matches.c.name, matches.c.seats, matches.c.turn, matches.c.clock)
            .where(matches.c.status == "live", matches.c.private.is_(False))
            .order_by(matches.c.created_at.desc())
            .limit(limit)
        )
    ).all()
    return [_lobby_row(r._mapping) for r in rows], [
        LiveMatch(id=m.id, name=m.name, seats=m.seats, turn=m.turn, clock=m.clock) for m in live
    ]


async def open_hosted(conn: AsyncConnection, host_id: str, since: datetime) -> list[LobbyRow]:
    """The open lobbies ``host_id`` hosts that changed since ``since``, oldest first."""
    query = (
        select(lobbies)
        .where(
            lobbies.c.status == "open",
            lobbies.c.host_id == host_id,
            lobbies.c.updated_at >= since,
        )
        .order_by(lobbies.c.created_at)
    )
    return [_lobby_row(r._mapping) for r in await conn.execute(query)]


async def insert_match(conn: AsyncConnection, values: Mapping[str, object]) -> None:
    """Add a match row (``values``: every column)."""
    await conn.execute(insert(matches).values(**values))


async def match(conn: AsyncConnection, match_id: str, *, lock: bool = False) -> MatchRow | None:
    """The match ``match_id`` (its row locked for update with ``lock``), or None."""
    query = select(matches).where(matches.c.id == match_id)
    if lock:
        query = query.with_for_update()
    m = (await conn.execute(query)).first()
    if m is None:
        return None
    return MatchRow(
        id=m.id,
        lobby_code=m.lobby_code,
        name=m.name,
        private=m.private,
        status=m.status,
        seats=m.seats,
        rules=m.rules,
        rematch_code=m.rematch_code,
        spectator_delay=m.spectator_delay,
    )


async def lobby_setup(conn: AsyncConnection, code: str) -> LobbySetup | None:
    """The setup of lobby ``code`` a rematch keeps, or None."""
    found = (
        await conn.execute(
            select(
                lobbies.c.preset,
                lobbies.c.max_seats,
                lobbies.c.rated,
                lobbies.c.time_control,
                lobbies.c.best_of,
                lobbies.c.series,
            ).where(lobbies.c.code == code)
        )
    ).first()
    if found is None:
        return None
    return LobbySetup(
        preset=found.preset,
        max_seats=found.max_seats,
        rated=found.rated,
        time_control=found.time_control,
        best_of=found.best_of,
        series=found.series,
    )


async def set_rematch(conn: AsyncConnection, match_id: str, code: str) -> None:
    """Remember the rematch lobby ``code`` of match ``match_id``."""
    await conn.execute(update(matches).where(matches.c.id == match_id).values(rematch_code=code))


async def count_live_bot_matches(
    conn: AsyncConnection, address: str, since: datetime
) -> tuple[int, int, int]:
    """``(from address, everywhere, instances)``: live matches with computer seats started
    from ``address`` and in all, and app instances that beat since ``since``.
    """
    live = (matches.c.status == "live") & (matches.c.bots > 0)
    mine = (
        await conn.execute(
            select(func.count()).select_from(matches).where(live, matches.c.started_from == address)
        )
    ).scalar()
    everywhere = (
        await conn.execute(select(func.count()).select_from(matches).where(live))
    ).scalar()
    instances = (
        await conn.execute(
            select(func.count())
            .select_from(instance_heartbeats)
            .where(instance_heartbeats.c.beat_at >= since)
        )
    ).scalar()
    return int(mine or 0), int(everywhere or 0), int(instances or 0)


async def count_live_matches(conn: AsyncConnection) -> int:
    """How many matches are being played (for the live-matches gauge)."""
    live = (
        await conn.execute(
            select(func.count()).select_from(matches).where(matches.c.status == "live")
        )
    ).scalar()
    return int(live or 0)


async def insert_seek(conn: AsyncConnection, values: Mapping[str, object]) -> None:
    """Add a seek row (``values``: every column)."""
    await conn.execute(insert(seeks).values(**values))


async def seek(conn: AsyncConnection, seek_id: str) -> SeekRow | None:
    """The seek ``seek_id``, or None."""
    found = (await conn.execute(select(seeks).where(seeks.c.id == seek_id))).first()
    return None if found is None else _seek_row(found._mapping)


async def open_of(conn: AsyncConnection, player_id: str) -> SeekRow | None:
    """The player's open seek (there is at most one), or None."""
    found = (
        await conn.execute(
            select(seeks).where(seeks.c.player_id == player_id, seeks.c.status == "open")
        )
    ).first()
    return None if found is None else _seek_row(found._mapping)


async def lock_pool(conn: AsyncConnection, pool: str, *, skip_locked: bool) -> list[SeekRow]:
    """The open seeks of ``pool``, oldest first. With ``skip_locked`` (Postgres) they are
    locked ``FOR UPDATE SKIP LOCKED``: rows another transaction is pairing are left out, so
    no seek is ever in two pairings at once.
    """
    query = (
        select(seeks)
        .where(seeks.c.pool == pool, seeks.c.status == "open")
        .order_by(seeks.c.created_at, seeks.c.id)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    return [_seek_row(r._mapping) for r in await conn.execute(query)]


async def set_status(
    conn: AsyncConnection, ids: list[str], status: str, match_id: str | None = None
) -> int:
    """Move the still-open seeks ``ids`` to ``status`` (with ``match_id``); returns how many
    changed (a seek already out of the pool is left as it is).
    """
    if not ids:
        return 0
    result = await conn.execute(
        update(seeks)
        .where(seeks.c.id.in_(ids), seeks.c.status == "open")
        .values(status=status, match_id=match_id)
    )
    return int(result.rowcount or 0)


async def touch(conn: AsyncConnection, seek_id: str, now: datetime) -> None:
    """The holder polled: ``seen_at = now`` (open seeks only)."""
    await conn.execute(
        update(seeks).where(seeks.c.id == seek_id, seeks.c.status == "open").values(seen_at=now)
    )


async def waiting(
    conn: AsyncConnection, since: datetime, pool: str | None = None
) -> list[PoolWaiting]:
    """Every pool (or only ``pool``) with open seeks seen since ``since``, the fullest first,
    each with one of its seeks (it tells the pool's players, preset, rated and time control).
    """
    count = func.count().label("waiting")
    query = (
        select(seeks.c.pool, func.min(seeks.c.id).label("sample"), count)
        .where(seeks.c.status == "open", seeks.c.seen_at >= since)
        .group_by(seeks.c.pool)
        .order_by(count.desc(), seeks.c.pool)
    )
    if pool is not None:
        query = query.where(seeks.c.pool == pool)
    rows = (await conn.execute(query)).all()
    if not rows:
        return []
    samples = {
        r.id: _seek_row(r._mapping)
        for r in await conn.execute(select(seeks).where(seeks.c.id.in_([r.sample for r in rows])))
    }
    return [PoolWaiting(r.pool, samples[r.sample], int(r.waiting)) for r in rows]


async def without_account(conn: AsyncConnection, player_ids: list[str]) -> set[str]:
    """Those of ``player_ids`` that have no account (any more: deleted while seeking)."""
    if not player_ids:
        return set()
    found = await conn.execute(
        select(accounts.c.player_id).where(accounts.c.player_id.in_(player_ids))
    )
    return set(player_ids) - {r[0] for r in found}
