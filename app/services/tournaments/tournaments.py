"""Tournament use cases before and around play: create, register (people, or computers added
by the host), check in, withdraw, start, and the Tournament JSON every reader gets.

Rounds (pairing exactly once, results counted once, the organiser's tools) are in
:mod:`app.services.tournaments.rounds`.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.bots import LEVELS
from app.db.models import utcnow
from app.engine import PRESETS
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.services.lobby.core import player_name
from app.services.records import ratings
from app.services.runtime import Runtime
from app.services.spectator_delay import parse_spectator_delay
from app.services.tournaments import live
from app.services.tournaments import queries as sql
from app.services.tournaments.formats.pairing import round_robin_rounds
from app.services.tournaments.model import (
    ACTIVE,
    Entrant,
    NewEntrant,
    NewTournament,
    Tournament,
    TournamentJson,
)
from app.services.tournaments.reads import tournament_of, view

FORMATS = ("swiss", "round_robin", "arena", "knockout")
#: Formats that take players who register after the start.
LATE_JOIN = ("swiss", "arena")
MAX_ARENA_MINUTES = 24 * 60
MAX_ENTRANTS = 64
MAX_SWISS_ROUNDS = 15
#: How far ahead a start time may be.
MAX_SCHEDULE_DAYS = 60
#: Tournaments one organiser may have in registration at once (an ownership budget: what never
#: starts is cancelled by the sweep, app/services/tournaments/sweep.py).
MAX_REGISTERING = 5


async def create(
    rt: Runtime,
    host_id: str,
    *,
    name: str,
    format: str,
    rounds: int | None,
    cycles: int,
    preset: str,
    time_control: JsonObject | None,
    private: bool,
    rated: bool,
    seats: int = 2,
    duration_minutes: int | None = None,
    starts_at: datetime | None = None,
    spectator_delay: JsonObject | None = None,
) -> TournamentJson:
    """A new tournament in registration, hosted by ``host_id`` (who does not play unless they
    register). ``format``: ``swiss`` (``rounds`` 1-15) or ``round_robin`` (``cycles`` 1 or 2;
    its rounds follow from the field at the start) or ``arena`` (``duration_minutes``; tables
    of ``seats`` 2-5: whoever is free is paired again at once with close scores until the
    time is up) or ``knockout`` (2-player games, a seeded bracket). ``starts_at``: when the
    sweep starts it by itself (timezone-aware; None: the organiser starts it).
    ``spectator_delay``: how far behind spectators see its tables (as a lobby's:
    app/services/spectator_delay.py). Returns Tournament JSON.

    Raises :class:`ValidationFailed` (format, rounds, cycles, seats, duration, preset, time
    control, spectator delay, name, a start time not in the next :data:`MAX_SCHEDULE_DAYS`
    days), :class:`Conflict` (``tournament_budget``: the host already has
    :data:`MAX_REGISTERING` tournaments in registration).
    """
    starts_at = _check_start(starts_at)
    _check_format(format, rounds, cycles, seats, duration_minutes, preset)
    title = " ".join(name.split())[:64]
    if not title:
        raise ValidationFailed("name: give the tournament a name")
    control = table_options.stored(table_options.parse_time_control(time_control), None)
    delay = parse_spectator_delay(spectator_delay)
    tid = secrets.token_hex(6)
    now = utcnow()
    async with rt.storage.db.transaction() as conn:
        await _check_host(conn, host_id)
        await sql.insert_tournament(
            conn,
            NewTournament(
                id=tid,
                name=title,
                host_id=host_id,
                private=private,
                format=format,
                cycles=cycles if format == "round_robin" else 1,
                rounds=(rounds or 0) if format == "swiss" else 0,
                seats=seats,
                duration_minutes=duration_minutes if format == "arena" else None,
                ends_at=None,
                preset=preset,
                rules=PRESETS[preset].to_json(),
                time_control=control,
                spectator_delay=delay,
                rated=rated,
                status="registering",
                round=0,
                starts_at=starts_at,
                paused_at=None,
                version=1,
                created_at=now,
                updated_at=now,
            ),
        )
    return await view(rt, tid, host_id)


def _check_start(starts_at: datetime | None) -> datetime | None:
    """Check the start time is in the next :data:`MAX_SCHEDULE_DAYS` days; naive means UTC."""
    if starts_at is not None:
        if starts_at.tzinfo is None:
            starts_at = starts_at.replace(tzinfo=UTC)
        if not utcnow() < starts_at <= utcnow() + timedelta(days=MAX_SCHEDULE_DAYS):
            raise ValidationFailed(
                f"starts_at: a time in the next {MAX_SCHEDULE_DAYS} days",
                reason="tournament_start_time",
            )
    return starts_at


def _check_format(
    format: str,
    rounds: int | None,
    cycles: int,
    seats: int,
    duration_minutes: int | None,
    preset: str,
) -> None:
    """Check the format and its rounds, duration, seats and cycles, and the preset."""
    if format not in FORMATS:
        raise ValidationFailed(f"format: one of {', '.join(FORMATS)}", reason="tournament_format")
    if format == "swiss" and not (rounds and 1 <= rounds <= MAX_SWISS_ROUNDS):
        raise ValidationFailed(f"rounds: 1 to {MAX_SWISS_ROUNDS} for a Swiss")
    if format == "arena" and not (duration_minutes and 1 <= duration_minutes <= MAX_ARENA_MINUTES):
        raise ValidationFailed(f"duration_minutes: 1 to {MAX_ARENA_MINUTES} for an arena")
    if not 2 <= seats <= (5 if format == "arena" else 2):
        raise ValidationFailed("seats: 2 (Swiss, round-robin, knock-out) or 2-5 (arena)")
    if cycles not in (1, 2):
        raise ValidationFailed("cycles: 1 (single round-robin) or 2 (double)")
    if preset not in PRESETS:
        raise ValidationFailed(f"preset: one of {', '.join(PRESETS)}")


async def _check_host(conn: AsyncConnection, host_id: str) -> None:
    """Raise :class:`NotFound` (no such player) or :class:`Conflict` (``tournament_budget``)."""
    if await player_name(conn, host_id) is None:
        raise NotFound("no such player")
    if await sql.registering_of(conn, host_id) >= MAX_REGISTERING:
        raise Conflict(
            f"at most {MAX_REGISTERING} of your tournaments can be in registration at once",
            reason="tournament_budget",
            params={"max": MAX_REGISTERING},
        )


async def register(rt: Runtime, tid: str, player_id: str) -> TournamentJson:
    """Register ``player_id`` (again after a withdrawal: the same starting number). Open while
    the tournament registers; a Swiss or an arena also takes **late joiners** while it runs
    (checked in at once, with no points: paired from the next round, or the arena's next
    table; a Swiss's earlier rounds count as not played). Raises :class:`NotFound`,
    :class:`Conflict` (a round-robin started, finished, full, rated without an account or as
    a bot account: ``bot_not_rated``).
    """
    async with rt.storage.db.transaction() as conn:
        row = await tournament_of(conn, tid, lock=True)
        late = row.status == "running" and row.format in LATE_JOIN
        if row.status != "registering" and not late:
            raise Conflict("registration is closed", reason="tournament_started")
        status = "checked_in" if late else "registered"
        mine = [e for e in await sql.entrants(conn, tid) if e.player_id == player_id]
        if mine:
            if late and mine[0].status == "dropped":
                raise Conflict("dropped from this tournament", reason="tournament_dropped")
            await sql.set_entrant_status(conn, tid, [mine[0].number], status)
        else:
            seat = {"player": player_id, "bot": False}
            await ratings.check_lobby(conn, row.rated, row.preset, [seat], None)
            await ratings.refuse_bot_account(conn, row.rated, player_id)
            name = await player_name(conn, player_id)
            if name is None:
                raise NotFound("no such player")
            await add_entrant(
                conn, tid, player_id=player_id, name=name, bot=False, level=None, status=status
            )
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, player_id)


async def add_computer(rt: Runtime, tid: str, host_id: str, level: str) -> TournamentJson:
    """Host only: enter a computer player (checked in from the start). An organiser has at
    most ``BOT_MATCHES_PER_ADDRESS`` computer entrants in their tournaments not over (each
    computer table costs the worker pools as a match against the computer does). Raises
    :class:`Forbidden`, :class:`Conflict` (started, full, rated; ``computer_budget``),
    :class:`ValidationFailed` (level).
    """
    if level not in LEVELS:
        raise ValidationFailed(f"level: one of {', '.join(LEVELS)}")
    async with rt.storage.db.transaction() as conn:
        row = await _registering(conn, tid)
        _require_host(row, host_id)
        if row.rated:
            raise Conflict("rated: computer players cannot enter a rated tournament")
        budget = rt.settings.bot_matches_per_address
        if await sql.computers_of(conn, host_id) >= budget:
            raise Conflict(
                f"at most {budget} computer players in your tournaments at once: one must "
                "finish first",
                reason="computer_budget",
                params={"max": budget},
            )
        count = sum(1 for e in await sql.entrants(conn, tid) if e.bot)
        name = f"Computer {count + 1}"
        await add_entrant(conn, tid, player_id=None, name=name, bot=True, level=level)
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def check_in(rt: Runtime, tid: str, player_id: str) -> TournamentJson:
    """A registered player confirms they will play; only checked-in entrants are paired at
    the start (the others are dropped as no-shows). Raises :class:`NotFound` (not registered),
    :class:`Conflict` (started).
    """
    return await _set_own_status(rt, tid, player_id, "checked_in")


async def withdraw(rt: Runtime, tid: str, player_id: str) -> TournamentJson:
    """Leave the tournament: before the start the entry is withdrawn, during it the player is
    not paired again (a live game of theirs plays on; its result counts). Raises
    :class:`NotFound` (not registered), :class:`Conflict` (over: ``tournament_finished``; a
    dropped entrant, who stays dropped: ``tournament_dropped``).
    """
    async with rt.storage.db.transaction() as conn:
        row = await tournament_of(conn, tid, lock=True)
        if row.status == "finished":
            raise Conflict("the tournament is over", reason="tournament_finished")
        mine = await _own_entry(conn, tid, player_id)
        if mine.status == "dropped":  # stays dropped: withdrawing must not open a way back
            raise Conflict("dropped from this tournament", reason="tournament_dropped")
        await sql.set_entrant_status(conn, tid, [mine.number], "withdrawn")
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, player_id)


async def announce(rt: Runtime, tid: str) -> None:
    """Tell the tournament's live pages (every instance) that it changed: a
    ``{"t": "tournament", "d": {"id", "version"}}`` frame on its broker channel.
    """
    await live.publish(rt, tid)


def total_rounds(row: Tournament, entrants: int) -> int:
    """Rounds of the tournament for ``entrants`` players (a round-robin's from its field)."""
    if row.format == "round_robin":
        return round_robin_rounds(entrants, row.cycles)
    return row.rounds


async def _registering(conn: AsyncConnection, tid: str) -> Tournament:
    row = await tournament_of(conn, tid, lock=True)
    if row.status != "registering":
        raise Conflict("registration is closed", reason="tournament_started")
    return row


def _require_host(row: Tournament, player_id: str) -> None:
    if row.host_id != player_id:
        raise Forbidden("only the organiser can do that")


async def _own_entry(conn: AsyncConnection, tid: str, player_id: str) -> Entrant:
    mine = [e for e in await sql.entrants(conn, tid) if e.player_id == player_id]
    if not mine:
        raise NotFound("you are not registered in this tournament")
    return mine[0]


async def add_entrant(
    conn: AsyncConnection,
    tid: str,
    *,
    player_id: str | None,
    name: str,
    bot: bool,
    level: str | None,
    status: str | None = None,
) -> None:
    """Inside the caller's transaction (the tournament row locked): enter a player or a
    computer with the next starting number (``status``: checked in for a computer, else
    registered, unless given). Raises :class:`Conflict` (full, already registered).
    """
    people = await sql.entrants(conn, tid)
    if len([e for e in people if e.status in ACTIVE]) >= MAX_ENTRANTS:
        raise Conflict(f"the tournament is full ({MAX_ENTRANTS})", reason="tournament_full")
    try:
        await sql.insert_entrant(
            conn,
            NewEntrant(
                tournament_id=tid,
                number=1 + max((e.number for e in people), default=0),
                player_id=player_id,
                name=name[:32],
                bot=bot,
                level=level,
                status=status or ("checked_in" if bot else "registered"),
                created_at=utcnow(),
            ),
        )
    except IntegrityError:  # the same player twice at once: the other request registered
        raise Conflict("already registered", reason="already_registered") from None


async def _set_own_status(rt: Runtime, tid: str, player_id: str, status: str) -> TournamentJson:
    async with rt.storage.db.transaction() as conn:
        await _registering(conn, tid)
        mine = await _own_entry(conn, tid, player_id)
        if mine.status == "withdrawn":
            raise Conflict("register again first", reason="tournament_withdrawn")
        await sql.set_entrant_status(conn, tid, [mine.number], status)
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, player_id)
