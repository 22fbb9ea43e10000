"""Play now: a seek pool by player count, preset, time control and rated/casual.

A player posts a seek and polls it (``GET /api/seeks/{id}``) until it says ``matched`` with
the match id; a seek not polled for ``SEEK_TTL`` seconds expires. Whenever a seek is posted or
polled its pool is paired: the pool's open seeks are locked (``FOR UPDATE SKIP LOCKED`` on
Postgres, so instances pairing at once take disjoint seeks; SQLite serialises writers in this
process), grouped oldest first into groups of the pool's player count whose ratings fit each
member's range, and each group becomes a lobby with every seat filled, dealt by
:func:`app.services.lobby.dealing.deal` — the same start path as a host's (clocks, history, the fair
bag, the rated checks). A seek joins at most one match: it leaves the pool (``matched``) in
the transaction that creates the match.

A rated seek's range is ``± SEEK_RANGE`` around the seeker's displayed rating
(:func:`app.services.records.ratings.display`) at first, widening by ``SEEK_RANGE_WIDEN`` points a
second, and any rating after ``SEEK_RANGE_ANY_AFTER`` seconds; two rated seeks fit when their
ratings differ by no more than the narrower of their two ranges.

This module does not speak HTTP, and never starts a match outside the pairing transaction.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.engine import PRESETS
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.errors import Conflict, NotFound, ServiceError, ValidationFailed
from app.services.lobby import dealing
from app.services.lobby import queries as sql
from app.services.lobby.core import COLOURS, MAX_SEATS, MIN_SEATS, player_name
from app.services.lobby.model import (
    PoolFields,
    QueueJson,
    RangeJson,
    SeekJson,
    SeekRow,
    TableSettings,
)
from app.services.records import ratings
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: ``matches.started_from`` of a match the pool made (no address: nobody started it).
ORIGIN = "play-now"

_shuffle = secrets.SystemRandom().shuffle


def _aware(at: datetime) -> datetime:
    # SQLite hands back naive datetimes (stored as UTC).
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def pool_key(players: int, preset: str, rated: bool, time_control: JsonObject) -> str:
    """The pool a seek waits in: ``"2p:standard:casual:{time control JSON}"``."""
    control = json.dumps(time_control, sort_keys=True, separators=(",", ":"))
    return f"{players}p:{preset}:{'rated' if rated else 'casual'}:{control}"


def spread(rt: Runtime, created_at: datetime, now: datetime) -> float | None:
    """A rated seek's rating range (± points) after waiting since ``created_at``; None: any."""
    s = rt.settings
    waited = max(0.0, (now - _aware(created_at)).total_seconds())
    if waited >= s.seek_range_any_after:
        return None
    return s.seek_range + s.seek_range_widen * waited


def fits(rt: Runtime, a: SeekRow, b: SeekRow, now: datetime) -> bool:
    """True when seeks ``a`` and ``b`` may meet: casual, or rated from two client addresses
    with ratings within both ranges (two rated seeks of one address never meet: one person
    with two accounts would rate themself).
    """
    if a.rating is None or b.rating is None:
        return True
    one_address = a.address is not None and a.address == b.address
    if one_address and not rt.settings.seek_rated_same_address:
        return False
    ranges = [spread(rt, a.created_at, now), spread(rt, b.created_at, now)]
    bounded = [r for r in ranges if r is not None]
    limit = min(bounded) if bounded else math.inf
    return abs(int(a.rating) - int(b.rating)) <= limit


def groups(rt: Runtime, rows: list[SeekRow], size: int, now: datetime) -> list[list[SeekRow]]:
    """Disjoint groups of ``size`` seeks that all fit each other: the oldest seek first, each
    joined by the oldest that fit everyone already in its group.
    """
    left = list(rows)
    out: list[list[SeekRow]] = []
    i = 0
    while i < len(left):
        group = [left[i]]
        for candidate in left[i + 1 :]:
            if len(group) == size:
                break
            if all(fits(rt, candidate, member, now) for member in group):
                group.append(candidate)
        if len(group) == size:
            out.append(group)
            taken = {r.id for r in group}
            left = [r for r in left if r.id not in taken]
        else:
            i += 1
    return out


# ---------------------------------------------------------------------- use cases


async def create_seek(
    rt: Runtime,
    player_id: str,
    *,
    players: int,
    preset: str,
    rated: bool,
    time_control: JsonObject | None,
    address: str | None = None,
) -> SeekJson:
    """Join the pool for ``players`` (2–5), ``preset``, ``rated`` and ``time_control`` (None:
    untimed), then pair the pool. ``address``: the client's (rated seeks of one address never
    pair with each other: :func:`fits`). Returns Seek JSON (``status`` may already be
    ``matched``).

    Raises :class:`ValidationFailed` (players, preset, time control — the message names the
    field), :class:`Conflict` (already seeking; rated without an account or as a bot account:
    ``bot_not_rated``),
    :class:`NotFound` (player).
    """
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValidationFailed(f"players: {MIN_SEATS} to {MAX_SEATS}")
    if preset not in PRESETS:
        raise ValidationFailed(f"preset: one of {', '.join(PRESETS)}")
    control = table_options.parse_time_control(time_control)
    pool = pool_key(players, preset, rated, control)
    seek_id = secrets.token_hex(8)
    try:
        async with rt.storage.db.transaction() as conn:
            await player_name(conn, player_id)
            now = utcnow()
            mine = await sql.open_of(conn, player_id)
            if mine is not None:
                if _stale(rt, mine, now):
                    await sql.set_status(conn, [mine.id], "expired")
                else:
                    raise Conflict(
                        f"already seeking ({mine.id}): cancel it with DELETE /api/seeks/{mine.id}",
                        reason="already_seeking",
                    )
            rating = None
            if rated:
                seat = {"player": player_id, "bot": False}
                await ratings.check_lobby(conn, True, preset, [seat])
                await ratings.refuse_bot_account(conn, True, player_id)
                mine_rated = (await ratings.of_player(conn, player_id)).get(preset)
                rating = (
                    mine_rated["rating"]
                    if mine_rated
                    else ratings.display(ratings.MU, ratings.SIGMA)
                )
            await sql.insert_seek(
                conn,
                dict(
                    id=seek_id,
                    player_id=player_id,
                    address=address[:64] if address else None,
                    pool=pool,
                    players=players,
                    preset=preset,
                    rated=rated,
                    time_control=control,
                    rating=rating,
                    status="open",
                    match_id=None,
                    created_at=now,
                    seen_at=now,
                ),
            )
    except IntegrityError:
        raise Conflict(
            "already seeking: cancel that seek first", reason="already_seeking"
        ) from None
    await _pair_quietly(rt, pool)
    return await get_seek(rt, seek_id, player_id, touch=False)


async def get_seek(rt: Runtime, seek_id: str, player_id: str, *, touch: bool = True) -> SeekJson:
    """The holder's poll (``touch``): keeps the seek alive and pairs its pool; returns Seek
    JSON. An open seek not polled for ``SEEK_TTL`` seconds answers ``expired`` (and stays so).

    Raises :class:`NotFound` (no such seek, or another player's).
    """
    now = utcnow()
    async with rt.storage.db.transaction() as conn:
        row = await _own(conn, seek_id, player_id)
        if row.status == "open" and touch:
            if _stale(rt, row, now):
                await sql.set_status(conn, [row.id], "expired")
            else:
                await sql.touch(conn, row.id, now)
    if row.status == "open" and touch:
        await _pair_quietly(rt, row.pool)
    async with rt.storage.db.reading() as conn:
        row = await _own(conn, seek_id, player_id)
        waiting = await _waiting(rt, conn, row.pool) if row.status == "open" else 0
    return seek_json(rt, row, waiting, utcnow())


async def cancel_seek(rt: Runtime, seek_id: str, player_id: str) -> None:
    """Leave the pool. Cancelling a seek already cancelled or expired changes nothing.

    Raises :class:`NotFound` (no such seek, or another player's), :class:`Conflict` (already
    paired: the message names the match).
    """
    async with rt.storage.db.transaction() as conn:
        await _own(conn, seek_id, player_id)
        changed = await sql.set_status(conn, [seek_id], "cancelled")
        row = await _own(conn, seek_id, player_id)
    if not changed and row.status == "matched":
        raise Conflict(
            f"already paired: match {row.match_id}",
            reason="already_paired",
            params={"match": row.match_id},
        )


async def queue(rt: Runtime) -> QueueJson:
    """``{"pools": [{"players", "preset", "rated", "time_control", "time_label",
    "waiting"}], "poll_within"}``: every pool with someone waiting, the fullest first.
    """
    async with rt.storage.db.reading() as conn:
        pools = await sql.waiting(conn, utcnow() - timedelta(seconds=rt.settings.seek_ttl))
    return {
        "pools": [{**_pool_fields(p.sample), "waiting": p.waiting} for p in pools],
        "poll_within": rt.settings.seek_ttl,
    }


async def pair(rt: Runtime, pool: str) -> list[str]:
    """Pair ``pool`` once: expire its stale seeks (and rated seeks whose account was deleted),
    make a match of every group that fits. Returns the new match ids (often none).
    """
    made: list[str] = []
    async with rt.storage.db.transaction() as conn:
        now = utcnow()
        rows = await sql.lock_pool(conn, pool, skip_locked=rt.storage.db.is_postgres)
        stale = [r.id for r in rows if _stale(rt, r, now)]
        if rows and rows[0].rated:  # an account deleted while seeking cannot sit at a rated table
            gone = await sql.without_account(conn, [r.player_id for r in rows])
            stale += [r.id for r in rows if r.player_id in gone and r.id not in stale]
        await sql.set_status(conn, stale, "expired")
        live = [r for r in rows if r.id not in set(stale)]
        if not live:
            return made
        for group in groups(rt, live, int(live[0].players), now):
            made.append(await _start(rt, conn, group))
    for _ in made:
        rt.metrics.matches_live.inc()
    return made


async def _pair_quietly(rt: Runtime, pool: str) -> None:
    """:func:`pair`, whose refusal (a rule of the start path no group should break) is logged:
    the seeks stay in the pool and the post or poll that paired still answers.
    """
    try:
        await pair(rt, pool)
    except ServiceError as exc:
        log.warning("pairing pool %s refused: %s", pool, exc.message)


async def _start(rt: Runtime, conn: AsyncConnection, group: list[SeekRow]) -> str:
    """One match for ``group`` (locked open seeks of one pool), in the pairing transaction."""
    _shuffle(group)  # who sits first is luck, not who waited longest
    first = group[0]
    table: list[JsonObject] = [
        {
            "seat": i,
            "player": r.player_id,
            "name": await player_name(conn, r.player_id),
            "colour": COLOURS[i],
            "bot": False,
        }
        for i, r in enumerate(group)
    ]
    settings = TableSettings(
        rules=PRESETS[first.preset].to_json(),
        preset=first.preset,
        rated=bool(first.rated),
        time_control=first.time_control or {"kind": "untimed"},
    )
    opened = await dealing.open_table(
        rt, conn, settings, table, host_id=first.player_id, origin=ORIGIN
    )
    match_id = opened.match_id
    changed = await sql.set_status(conn, [r.id for r in group], "matched", match_id)
    if changed != len(group):  # cannot happen under the pool lock; never two matches per seek
        raise RuntimeError("a seek left the pool while it was being paired")
    return match_id


async def _own(conn: AsyncConnection, seek_id: str, player_id: str) -> SeekRow:
    row = await sql.seek(conn, seek_id)
    if row is None or row.player_id != player_id:
        raise NotFound("no such seek")
    return row


def _stale(rt: Runtime, row: SeekRow, now: datetime) -> bool:
    return bool((now - _aware(row.seen_at)).total_seconds() > rt.settings.seek_ttl)


async def _waiting(rt: Runtime, conn: AsyncConnection, pool: str) -> int:
    since = utcnow() - timedelta(seconds=rt.settings.seek_ttl)
    found = await sql.waiting(conn, since, pool)
    return found[0].waiting if found else 0


def _pool_fields(row: SeekRow) -> PoolFields:
    fields = table_options.lobby_fields(row.time_control)
    return {
        "players": row.players,
        "preset": row.preset,
        "rated": bool(row.rated),
        "time_control": fields["time_control"],
        "time_label": fields["time_label"],
    }


def seek_json(rt: Runtime, row: SeekRow, waiting: int, now: datetime) -> SeekJson:
    """Seek JSON (docs/API.md § Play now): ``{"id", "status", "players", "preset", "rated",
    "time_control", "time_label", "rating", "range", "waiting", "match_id", "poll_within"}``;
    ``range`` is ``{"low", "high"}`` while a rated seek waits with a bounded range, else null.
    """
    band: RangeJson | None = None
    if row.rating is not None and row.status == "open":
        width = spread(rt, row.created_at, now)
        if width is not None:
            band = {"low": row.rating - math.ceil(width), "high": row.rating + math.ceil(width)}
    return {
        "id": row.id,
        **_pool_fields(row),
        "status": row.status,
        "rating": row.rating,
        "range": band,
        "waiting": waiting,
        "match_id": row.match_id,
        "poll_within": rt.settings.seek_ttl,
    }
