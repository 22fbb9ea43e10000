"""The SQL of the match package beyond the match row's own transaction (:mod:`app.db.hot`):
the action log as the outbox, the reads that catch sockets up, and the match lists.

Rows start unpublished; the committing instance marks them once the broker took them
(:func:`mark_published`), and any instance's sweep claims rows left unpublished with
``FOR UPDATE SKIP LOCKED`` (:func:`claim_unpublished`). The version watch compares every match
hub with :func:`match_versions`; a socket behind reads the gap with :func:`batches_since`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.analyses import match_analyses
from app.db.community import accounts, match_players
from app.db.models import match_actions, matches, utcnow
from app.db.session import Database, as_utc
from app.json_types import JsonObject


async def mark_published(db: Database, batches: list[tuple[str, int]]) -> None:
    """Mark log rows ``(match_id, seq)`` as handed to the broker (rows another instance's
    sweep holds are skipped: it marks them itself).
    """
    if not batches:
        return
    if not db.is_postgres:
        async with db.transaction() as conn:
            for match_id, seq in batches:
                await conn.execute(
                    update(match_actions)
                    .where(
                        match_actions.c.match_id == match_id,
                        match_actions.c.seq == seq,
                    )
                    .values(published=True)
                )
        return
    async with db.raw() as pg:
        await pg.execute(
            "UPDATE match_actions SET published = true WHERE id IN ("
            "SELECT a.id FROM match_actions a JOIN unnest($1::varchar[], $2::int[]) "
            "AS t(m, s) ON a.match_id = t.m AND a.seq = t.s "
            "WHERE NOT a.published FOR UPDATE OF a SKIP LOCKED)",
            [m for m, _ in batches],
            [s for _, s in batches],
        )


@contextlib.asynccontextmanager
async def claim_unpublished(
    db: Database, before: datetime, limit: int = 500
) -> AsyncIterator[dict[str, int]]:
    """Claim log rows committed before ``before`` and still unpublished: yields ``{match_id:
    highest unpublished seq}``; when the block exits without error the rows are marked
    published (an error leaves them for the next sweep). Rows claimed by another instance are
    skipped (``FOR UPDATE SKIP LOCKED``).
    """
    if not db.is_postgres:
        async with db.transaction() as conn:
            rows = (
                await conn.execute(
                    select(match_actions.c.id, match_actions.c.match_id, match_actions.c.seq)
                    .where(
                        match_actions.c.published.is_(False), match_actions.c.created_at < before
                    )
                    .limit(limit)
                )
            ).all()
            yield _highest((r.match_id, r.seq) for r in rows)
            if rows:
                await conn.execute(
                    update(match_actions)
                    .where(match_actions.c.id.in_([r.id for r in rows]))
                    .values(published=True)
                )
        return
    async with db.raw() as pg, pg.transaction():
        rows = await pg.fetch(
            "SELECT id, match_id, seq FROM match_actions WHERE NOT published "
            "AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED",
            before,
            limit,
        )
        yield _highest((r["match_id"], r["seq"]) for r in rows)
        if rows:
            await pg.execute(
                "UPDATE match_actions SET published = true WHERE id = ANY($1)",
                [r["id"] for r in rows],
            )


def _highest(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for match_id, seq in pairs:
        out[match_id] = max(seq, out.get(match_id, 0))
    return out


async def match_versions(db: Database, match_ids: list[str]) -> dict[str, tuple[int, int]]:
    """``(version, notes)`` of each of ``match_ids`` as committed (absent ones are left out)."""
    if not match_ids:
        return {}
    if not db.is_postgres:
        async with db.reading() as conn:
            rows = (
                await conn.execute(
                    select(matches.c.id, matches.c.version, matches.c.notes).where(
                        matches.c.id.in_(match_ids)
                    )
                )
            ).all()
        return {r.id: (r.version, r.notes) for r in rows}
    async with db.raw() as pg:
        found = await pg.fetch(
            "SELECT id, version, notes FROM matches WHERE id = ANY($1::varchar[])", match_ids
        )
    return {r["id"]: (r["version"], r["notes"]) for r in found}


async def batches_since(
    db: Database, match_id: str, since: int, upto: int | None = None
) -> list[tuple[int, int, str | None, str, str | None]]:
    """``(seq, seat, client action id, events JSON, by)`` of the log after ``since`` (up to
    ``upto``), in order; ``by``: ``"computer"`` when the computer chose for a person.
    """
    query = (
        select(
            match_actions.c.seq,
            match_actions.c.seat,
            match_actions.c.client_id,
            match_actions.c.events,
            match_actions.c.by,
        )
        .where(match_actions.c.match_id == match_id, match_actions.c.seq > since)
        .order_by(match_actions.c.seq)
    )
    if upto is not None:
        query = query.where(match_actions.c.seq <= upto)
    async with db.reading() as conn:
        rows = (await conn.execute(query)).all()
    return [(int(r.seq), int(r.seat), r.client_id, str(r.events), r.by) for r in rows]


async def spectator_delay(db: Database, match_id: str) -> JsonObject | None:
    """The match's stored spectator delay JSON (None: live, or no such match)."""
    async with db.reading() as conn:
        found: JsonObject | None = (
            await conn.execute(select(matches.c.spectator_delay).where(matches.c.id == match_id))
        ).scalar_one_or_none()
        return found


@dataclass(frozen=True, slots=True)
class DelayedMatch:
    """A live match whose host chose a spectator delay: its ``version``, ``seats`` (seat JSON)
    and the stored ``spectator_delay`` JSON (checked by the reader).
    """

    id: str
    version: int
    seats: list[JsonObject]
    spectator_delay: JsonObject


async def delayed_live_rows(db: Database, match_ids: list[str]) -> list[DelayedMatch]:
    """The live matches among ``match_ids`` whose host chose a spectator delay (a stored JSON
    null reads back as None and is left out).
    """
    if not match_ids:
        return []
    async with db.reading() as conn:
        rows = await conn.execute(
            select(
                matches.c.id, matches.c.version, matches.c.seats, matches.c.spectator_delay
            ).where(matches.c.id.in_(match_ids), matches.c.status == "live")
        )
        return [DelayedMatch(*r) for r in rows if r.spectator_delay]


async def delayed_view(
    db: Database, match_id: str, upto: int
) -> tuple[dict[str, Any], list[tuple[int, str]]] | None:
    """What rebuilds a match at version ``upto``: ``(setup state JSON, [(seq, action JSON)]
    for seq 1..upto)``; None when there is no such match.
    """
    async with db.reading() as conn:
        setup = (
            await conn.execute(select(matches.c.setup).where(matches.c.id == match_id))
        ).scalar_one_or_none()
        if setup is None:
            return None
        rows = (
            await conn.execute(
                select(match_actions.c.seq, match_actions.c.action)
                .where(match_actions.c.match_id == match_id, match_actions.c.seq <= upto)
                .order_by(match_actions.c.seq)
            )
        ).all()
    return dict(setup), [(int(r.seq), str(r.action)) for r in rows]


async def action_times(db: Database, match_id: str, after: int) -> dict[int, datetime]:
    """``{seq: commit time (UTC)}`` of the log entries after ``after``."""
    async with db.reading() as conn:
        rows = (
            await conn.execute(
                select(match_actions.c.seq, match_actions.c.created_at).where(
                    match_actions.c.match_id == match_id, match_actions.c.seq > after
                )
            )
        ).all()
    return {int(r.seq): as_utc(r.created_at) for r in rows}


async def computer_seqs(conn: AsyncConnection, match_id: str) -> set[int]:
    """The ``seq`` of every action of ``match_id`` the computer chose (``by`` set)."""
    rows = await conn.execute(
        select(match_actions.c.seq).where(
            match_actions.c.match_id == match_id, match_actions.c.by.is_not(None)
        )
    )
    return {int(r[0]) for r in rows}


@dataclass(frozen=True, slots=True)
class SeatedMatch:
    """A live match as its seated player's list shows it: public columns only (``seats``:
    the seat JSON; ``clock``: the stored clock JSON, None untimed before clocks; ``seat``:
    the player's own seat).
    """

    id: str
    name: str | None
    private: bool
    seats: list[JsonObject]
    seat_to_act: int | None
    turn: int
    clock: JsonObject | None
    updated_at: datetime | None
    seat: int


async def seated_live_matches(
    conn: AsyncConnection, player_id: str, limit: int
) -> list[SeatedMatch]:
    """The live matches ``player_id`` is seated in, latest activity first, at most ``limit``."""
    query = (
        select(
            matches.c.id,
            matches.c.name,
            matches.c.private,
            matches.c.seats,
            matches.c.seat_to_act,
            matches.c.turn,
            matches.c.clock,
            matches.c.updated_at,
            match_players.c.seat,
        )
        .join(match_players, match_players.c.match_id == matches.c.id)
        .where(match_players.c.player_id == player_id, matches.c.status == "live")
        .order_by(matches.c.updated_at.desc(), matches.c.id)
        .limit(limit)
    )
    return [SeatedMatch(*r) for r in await conn.execute(query)]


async def outbox_backlog(db: Database) -> tuple[int, float]:
    """``(unpublished batches, seconds since the oldest of them was committed)`` over every
    instance (``(0, 0.0)`` when none): one read of the partial index of unpublished rows.
    """
    async with db.reading() as conn:
        row = (
            await conn.execute(
                select(func.count(), func.min(match_actions.c.created_at)).where(
                    match_actions.c.published.is_(False)
                )
            )
        ).one()
    count, oldest = int(row[0] or 0), row[1]
    if not count or oldest is None:
        return 0, 0.0
    return count, max(0.0, (utcnow() - as_utc(oldest)).total_seconds())


# ---------------------------------------------------------------------- analyses


@dataclass(frozen=True, slots=True)
class Analysis:
    """A match's analysis request as stored (``match_analyses``): ``status`` ``queued`` |
    ``running`` | ``done`` | ``failed``; who asked (``requested_by``, None: the server) and when
    (UTC); ``seconds`` it took, its ``result`` (``carcassonne-analysis/1`` once done) or its
    ``error``.
    """

    status: str
    requested_by: str | None
    requested_at: datetime
    finished_at: datetime | None
    seconds: float | None
    result: JsonObject | None
    error: str | None


async def analysis(conn: AsyncConnection, match_id: str) -> Analysis | None:
    """The analysis of ``match_id`` as stored, or None."""
    query = select(match_analyses).where(match_analyses.c.match_id == match_id)
    r = (await conn.execute(query)).first()
    if r is None:
        return None
    return Analysis(
        r.status, r.requested_by, r.requested_at, r.finished_at, r.seconds, r.result, r.error
    )


#: The Postgres advisory lock the analysis queue is counted and taken under.
ANALYSIS_QUEUE_LOCK = 27_182_818


async def lock_analysis_queue(conn: AsyncConnection, postgres: bool) -> None:
    """Hold the analysis queue's lock until the commit (Postgres: a transaction-level advisory
    lock; SQLite serialises writers itself): requests are counted and queued one at a time.
    """
    if postgres:
        await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ANALYSIS_QUEUE_LOCK})


async def pending_analyses(
    conn: AsyncConnection, since: datetime, player_id: str | None = None
) -> dict[str, int]:
    """Analyses ``queued`` or ``running`` asked for after ``since`` (older ones count as
    abandoned: their instance stopped): ``{"all", "people", "guests", "mine"}`` — in all, asked
    for by people (``requested_by`` set), by guests (people without an account), by
    ``player_id``.
    """
    member = accounts.c.player_id.is_not(None)
    query = (
        select(match_analyses.c.requested_by, member, func.count())
        .select_from(
            match_analyses.outerjoin(
                accounts, accounts.c.player_id == match_analyses.c.requested_by
            )
        )
        .where(
            match_analyses.c.status.in_(("queued", "running")),
            match_analyses.c.requested_at > since,
        )
        .group_by(match_analyses.c.requested_by, member)
    )
    counts = {"all": 0, "people": 0, "guests": 0, "mine": 0}
    for who, is_member, n in (await conn.execute(query)).all():
        counts["all"] += int(n)
        if who is None:
            continue
        counts["people"] += int(n)
        if not is_member:
            counts["guests"] += int(n)
        if who == player_id:
            counts["mine"] += int(n)
    return counts


async def is_member(conn: AsyncConnection, player_id: str) -> bool:
    """Whether ``player_id`` has an account (False: a guest)."""
    found = await conn.execute(
        select(accounts.c.player_id).where(accounts.c.player_id == player_id)
    )
    return found.first() is not None


async def queue_analysis(
    conn: AsyncConnection, match_id: str, requested_by: str | None, at: datetime
) -> None:
    """Queue the analysis of ``match_id`` (replacing any row it had), asked by
    ``requested_by`` (None: the server) at ``at``.
    """
    await conn.execute(delete(match_analyses).where(match_analyses.c.match_id == match_id))
    await conn.execute(
        insert(match_analyses).values(
            match_id=match_id, status="queued", requested_by=requested_by, requested_at=at
        )
    )


async def analysis_running(db: Database, match_id: str) -> None:
    """Mark the analysis of ``match_id`` as running (its own transaction)."""
    await _set_analysis(db, match_id, status="running")


async def analysis_done(
    db: Database, match_id: str, result: JsonObject, *, seconds: float, at: datetime
) -> None:
    """Store the finished analysis of ``match_id`` (``seconds`` it took, finished ``at``)."""
    await _set_analysis(
        db, match_id, status="done", result=result, seconds=seconds, finished_at=at, error=None
    )


async def analysis_failed(db: Database, match_id: str, error: str, at: datetime) -> None:
    """Store that the analysis of ``match_id`` failed with ``error`` (at most 200 characters)."""
    await _set_analysis(db, match_id, status="failed", error=error[:200], finished_at=at)


async def _set_analysis(db: Database, match_id: str, **values: object) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            update(match_analyses).where(match_analyses.c.match_id == match_id).values(**values)
        )


async def is_rated_match(conn: AsyncConnection, match_id: str) -> bool:
    """Whether ``match_id`` was dealt at a rated table (its history rows say so)."""
    query = select(match_players.c.rated).where(match_players.c.match_id == match_id)
    return any(bool(r[0]) for r in await conn.execute(query))
