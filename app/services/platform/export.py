"""The data export (docs/API.md § Export): a player's finished matches as a stream of records,
and one match's record, each naming everything a community tool would otherwise guess.

An exported record is a ``carcassonne-record/1`` document (docs/RECORD.md; it replays as is)
with these keys added::

    "match":    {"id", "name", "preset", "rated", "unrated", "private", "started_at", "finished_at"}
    "seats":    [{"seat", "name", "player", "colour", "bot", "level", "bot_account"}]
    "clock":    {"time_control": {"kind", …}, "timeout_policy": {"kind", …}}   (null: untimed)
    "fairness": {"scheme", "commitment", "seed", "salt"}   (null: a match from before commitments)

and ``"by": "computer"`` on moves the server chose for a person (a time-out, a seat handed
over), as ``GET /api/matches/{id}/record`` has them. The stream is read from the database a
page of :data:`PAGE` matches at a time (keyset paging), each page on its own short
connection, so neither memory nor a database connection grows with the number of matches.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import TypeVar

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from app.engine import export_record, load_state
from app.json_types import JsonObject, JsonValue
from app.services.clock import clocks
from app.services.clock import rules as clock_rules
from app.services.errors import Forbidden, NotFound
from app.services.platform import export_queries as q
from app.services.platform.export_queries import ExportFilter
from app.services.platform.model import ExportMatch
from app.services.runtime import Runtime

#: Matches read from the database per page.
PAGE = 50
#: Seats' keys copied into an exported record.
SEAT_KEYS = ("seat", "name", "player", "colour", "bot", "level")


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def _clock(clock: JsonObject | None) -> JsonObject | None:
    """The clock part of an exported record: the time control and the time-out policy."""
    if not clock:
        return None
    control = clock_rules.control_of(clock)
    if not control.timed:
        return None
    return {
        "time_control": control.to_json(),
        "timeout_policy": clock_rules.policy_of(clock).to_json(),
    }


def _seat_players(rows: list[ExportMatch]) -> list[str]:
    players = (s.get("player") for r in rows for s in r.seats)
    return sorted({p for p in players if isinstance(p, str) and p})


def _seats(row: ExportMatch, bots: set[str]) -> list[JsonValue]:
    """The seats of an exported record: :data:`SEAT_KEYS` of each seat (``level`` null for a
    person) and whether its player is a bot account.
    """
    out: list[JsonValue] = []
    for s in row.seats:
        seat: JsonObject = {k: s.get(k) for k in SEAT_KEYS}
        if not seat["bot"]:
            seat["level"] = None
        seat["bot_account"] = seat["player"] in bots
        out.append(seat)
    return out


def record_of(row: ExportMatch, computer: set[int], bots: set[str]) -> JsonObject:
    """The exported record of one finished match ``row``; ``computer``: the seqs of the
    actions the computer chose; ``bots``: player ids that are bot accounts. Pure: no I/O.
    """
    state = load_state(row.snapshot)
    exported = export_record(state)
    record: JsonObject = clocks.annotate_record(exported, list(state.actions), computer, row.clock)
    record["match"] = {
        "id": row.id,
        "name": row.name,
        "preset": row.preset,
        "rated": row.rated and row.unrated is None,
        "unrated": row.unrated,
        "private": row.private,
        "started_at": _iso(row.created_at),
        "finished_at": _iso(row.finished_at),
    }
    record["seats"] = _seats(row, bots)
    record["clock"] = _clock(row.clock)
    record["fairness"] = (
        {"scheme": row.scheme, "commitment": row.commitment, "seed": row.seed, "salt": row.salt}
        if row.commitment is not None
        else None
    )
    return record


async def count_request(rt: Runtime, player_id: str, address: str) -> None:
    """Count one export request against the quotas (docs/API.md § Export): per player, an
    account or a guest, whichever token it sends (a session token, any of its API tokens);
    for a guest also per client ``address``, every guest of one address together (a new
    guest is free to make, so a per-player count alone would not bound one address).
    Raises :class:`RateLimited` (429, with the seconds to wait).
    """
    async with rt.storage.db.reading() as conn:
        registered = await q.has_account(conn, player_id)
    await rt.limits.accounts.export(player_id, None if registered else address)


async def _player_exists(rt: Runtime, player_id: str) -> None:
    from app.services.records.queries import player as player_by_id

    async with rt.storage.db.reading() as conn:
        if await player_by_id(conn, player_id) is None:
            raise NotFound("no such player")


#: The keyset of a page's last match, where the next page starts.
Keyset = TypeVar("Keyset")
#: Reads one page: ``(connection, keyset after, how many) -> matches``.
PageReader = Callable[[AsyncConnection, Keyset | None, int], Awaitable[list[ExportMatch]]]


def _finished_key(row: ExportMatch) -> tuple[datetime, str]:
    """A player's page keyset: ``(finished_at, id)`` (the pages hold finished matches only)."""
    if row.finished_at is None:
        raise ValueError(f"match {row.id} has no finish time")
    return row.finished_at, row.id


def _table_key(row: ExportMatch) -> tuple[int, int]:
    """A tournament's page keyset: ``(round, table_number)`` (tournament pages set both)."""
    if row.round is None or row.table_number is None:
        raise ValueError(f"match {row.id} is not a tournament's")
    return row.round, row.table_number


async def _pages(
    rt: Runtime,
    read: PageReader[Keyset],
    keyset: Callable[[ExportMatch], Keyset],
    limit: int,
) -> AsyncGenerator[tuple[ExportMatch, set[int], set[str]], None]:
    """Every row ``read`` returns, a page of at most :data:`PAGE` at a time (each page on its
    own short connection; ``keyset`` of a page's last row starts the next), with the seqs the
    computer chose and the bot accounts among its seats. ``limit``: rows wanted at most (the
    caller may skip some: pages are read until it stops or none are left).
    """
    after: Keyset | None = None
    while True:
        async with rt.storage.db.reading() as conn:
            rows = await read(conn, after, min(PAGE, max(limit, 1)))
            computer = await q.computer_seqs(conn, [r.id for r in rows])
            bots = await q.bot_accounts(conn, _seat_players(rows))
        if not rows:
            return
        for row in rows:
            yield row, computer[row.id], bots
        after = keyset(rows[-1])
        del rows, computer, bots
        await asyncio.sleep(0)  # let other requests run between pages


async def stream(rt: Runtime, f: ExportFilter, limit: int) -> AsyncIterator[bytes]:
    """NDJSON lines (``bytes``, each ending in a newline) of at most ``limit`` records of the
    matches ``f`` selects, newest first. Raises :class:`NotFound` for an unknown player before
    the first line (the caller starts the response only after the first ``__anext__``).
    """
    await _player_exists(rt, f.player_id)
    yield b""  # the checks above passed: the response may start
    if limit <= 0:
        return
    sent = 0
    pages = _pages(
        rt,
        lambda conn, after, n: q.page(conn, f, after, n),
        _finished_key,
        limit,
    )
    async with contextlib.aclosing(pages):
        async for row, computer, bots in pages:
            yield orjson.dumps(record_of(row, computer, bots)) + b"\n"
            sent += 1
            if sent >= limit:
                return


async def tournament_host(rt: Runtime, tournament_id: str) -> str:
    """The organiser of ``tournament_id``; raises :class:`NotFound` for an unknown tournament."""
    async with rt.storage.db.reading() as conn:
        host = await q.tournament_host(conn, tournament_id)
    if host is None:
        raise NotFound("no such tournament")
    return str(host)


async def tournament_records(
    rt: Runtime, tournament_id: str, host: str, player_id: str, limit: int
) -> AsyncGenerator[JsonObject, None]:
    """At most ``limit`` exported records of the tournament's finished matches in playing order
    (round, then table), each with ``"tournament": {"id", "round", "table"}``. A private match
    is exported for its players and the tournament's ``host`` only.
    """
    if limit <= 0:
        return
    sent = 0
    pages = _pages(
        rt,
        lambda conn, after, n: q.tournament_page(conn, tournament_id, after, n),
        _table_key,
        limit,
    )
    async with contextlib.aclosing(pages):
        async for row, computer, bots in pages:
            seated = any(s.get("player") == player_id for s in row.seats)
            if row.private and not seated and player_id != host:
                continue
            record = record_of(row, computer, bots)
            record["tournament"] = {
                "id": tournament_id,
                "round": row.round,
                "table": row.table_number,
            }
            yield record
            sent += 1
            if sent >= limit:
                return


async def tournament_stream(
    rt: Runtime, tournament_id: str, player_id: str, limit: int
) -> AsyncIterator[bytes]:
    """NDJSON lines of :func:`tournament_records`. Raises :class:`NotFound` for an unknown
    tournament before the first line (as :func:`stream`).
    """
    host = await tournament_host(rt, tournament_id)
    yield b""  # the checks above passed: the response may start
    records = tournament_records(rt, tournament_id, host, player_id, limit)
    async with contextlib.aclosing(records):
        async for record in records:
            yield orjson.dumps(record) + b"\n"


async def one(rt: Runtime, match_id: str, player_id: str) -> JsonObject:
    """The exported record of one finished match. A private match needs a seat in it.

    Raises :class:`NotFound` (no such match, or not finished yet: a live match's record is
    ``GET /api/matches/{id}/record``), :class:`Forbidden` (private, not seated).
    """
    async with rt.storage.db.reading() as conn:
        row = await q.one(conn, match_id)
        computer = await q.computer_seqs(conn, [match_id])
        bots = await q.bot_accounts(conn, _seat_players([row]) if row is not None else [])
    if row is None or row.finished_at is None:
        raise NotFound("no finished match with this id", reason="match_not_finished")
    if row.private and not any(s.get("player") == player_id for s in row.seats):
        raise Forbidden("a private match's record is for its players only")
    return record_of(row, computer[match_id], bots)
