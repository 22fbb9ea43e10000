"""Dealing a table's match: ``start`` (the host starts the table), ``deal`` / ``deal_match``
(the one start path every way a table becomes a match shares — a host's start, Play now, a
series' next game, a tournament's pairing: clocks, history, the fair shuffle, the match row),
the computer-seat caps per address, and ``rematch`` (a finished match's table again).
Creating, reading and editing a table are in :mod:`app.services.lobby.lobby`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import overload

from sqlalchemy.ext.asyncio import AsyncConnection

from app.bots import DEFAULT_LEVEL
from app.db.models import utcnow
from app.engine import Options, new_game
from app.json_types import JsonObject
from app.services.clock import clocks, table_options
from app.services.errors import Conflict, Forbidden, NotFound, RateLimited
from app.services.lobby import queries as sql
from app.services.lobby import series
from app.services.lobby.core import (
    MIN_SEATS,
    announce,
    locked,
    require_host,
    require_open,
    save,
)
from app.services.lobby.model import LobbyChanges, LobbyRow, TableSettings
from app.services.records import history, ratings, shuffle
from app.services.runtime import Runtime


def _match_seats(seats: list[JsonObject]) -> list[JsonObject]:
    """The filled seats, renumbered from 0, as a match (or its rematch lobby) keeps them:
    ``{"seat", "player", "name", "colour", "bot", "level", "bot_account"}`` (a computer's
    level defaulted).
    """
    return [
        {
            "seat": i,
            "player": s["player"],
            "name": s["name"],
            "colour": s["colour"],
            "bot": s["bot"],
            "level": s.get("level") or DEFAULT_LEVEL,
            "bot_account": bool(s.get("bot_account")),
        }
        for i, s in enumerate(seats)
    ]


@dataclass(frozen=True, slots=True)
class OpenedTable:
    """A table :func:`open_table` made: its lobby ``row`` as stored."""

    row: LobbyRow


@dataclass(frozen=True, slots=True)
class DealtTable(OpenedTable):
    """A table :func:`open_table` made and dealt at once (an ``origin`` was given): its lobby
    ``row`` and the ``match_id`` dealt.
    """

    match_id: str


@overload
async def open_table(
    rt: Runtime,
    conn: AsyncConnection,
    settings: TableSettings,
    seats: list[JsonObject],
    *,
    host_id: str,
    origin: None = None,
) -> OpenedTable: ...


@overload
async def open_table(
    rt: Runtime,
    conn: AsyncConnection,
    settings: TableSettings,
    seats: list[JsonObject],
    *,
    host_id: str,
    origin: str,
) -> DealtTable: ...


async def open_table(
    rt: Runtime,
    conn: AsyncConnection,
    settings: TableSettings,
    seats: list[JsonObject],
    *,
    host_id: str,
    origin: str | None = None,
) -> OpenedTable:
    """Open a table, in ``conn``'s transaction: a new lobby (a fresh unguessable code) hosted by
    ``host_id``, with ``seats`` (``{"seat", "player", "name", "colour", "bot", …}`` each, empty
    seats too) and ``settings``. With an ``origin`` (the address the computer-seat caps count
    against, or ``tournament:…``/``seek:…``) its match is dealt at once (:func:`deal`: Play
    now, a tournament's pairing) and a :class:`DealtTable` returned; without one the table
    waits for its host (a table created by hand, a rematch). The one way every feature makes
    a table.

    Raises what :func:`deal` raises (the computer-seat caps: :class:`RateLimited`).
    """
    row = await sql.insert_table(conn, secrets.token_urlsafe(8), host_id, seats, settings)
    if origin is None:
        return OpenedTable(row)
    match_id, _ = await deal(rt, conn, row, origin)
    return DealtTable(row, match_id)


async def start(rt: Runtime, code: str, player_id: str, address: str = "unknown") -> str:
    """Host only: deal the filled seats (in seat order) into a new match; returns its id —
    the same id again for a lobby this host already started (idempotent: a retried request
    must not strand a match its host never heard of). ``address``: the host's client address
    (computer-player matches are capped per address).

    Raises :class:`Forbidden`, :class:`Conflict` (fewer than 2 seats filled, started),
    :class:`RateLimited` (too many live computer-player matches: :func:`check_bot_caps`).
    """
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_host(row, player_id)
        if row.status == "started" and row.match_id:
            # Started already: a second click, or the same request tried again after a commit
            # whose answer was lost (a database restart) — the same match, not an error.
            return str(row.match_id)
        match_id, row = await deal(rt, conn, row, address)
    rt.metrics.matches_live.inc()
    await announce(rt, row)
    return match_id


async def deal(
    rt: Runtime, conn: AsyncConnection, row: LobbyRow | None, address: str
) -> tuple[str, LobbyRow]:
    """Inside the caller's transaction, with lobby ``row`` locked: deal its filled seats into a
    new match (clock, history, fair bag, rated checks) and mark the lobby started. Returns
    ``(match id, the lobby after)``; the caller announces the lobby after its commit.

    Raises :class:`NotFound` (``row`` None: the lobby is gone), :class:`Conflict` (not open,
    fewer than 2 filled seats, rated rules broken), :class:`RateLimited`
    (:func:`check_bot_caps`).
    """
    if row is None:
        raise NotFound("no such lobby")
    require_open(row)
    taken = [s for s in row.seats if s["player"] is not None or s["bot"]]
    if len(taken) < MIN_SEATS:
        raise Conflict("a match needs at least 2 filled seats", reason="too_few_players")
    if any(s["bot"] for s in taken):
        await check_bot_caps(rt, conn, address)
    await ratings.check_lobby(conn, row.rated, row.preset, taken, row.rules)
    seats = _match_seats(taken)
    match_id = await deal_match(rt, conn, row, seats, address)
    values: LobbyChanges = {"status": "started", "match_id": match_id}
    best_of = row.best_of or 1
    if best_of > 1:
        values["series"] = series.new_series(best_of, seats, match_id)
    row = await save(rt, conn, row, **values)
    return match_id, row


async def deal_match(
    rt: Runtime, conn: AsyncConnection, row: LobbyRow, seats: list[JsonObject], address: str
) -> str:
    """Inside the caller's transaction: deal a new match of lobby ``row``'s rules and time
    control to ``seats`` (match seats in turn order, seat 0 starts: :func:`_match_seats`), with
    its clock, history and fair bag. Returns the match id; the lobby row is not changed.
    """
    code = row.code
    bots = sum(1 for s in seats if s["bot"])
    options = Options.from_json(row.rules)
    # ``deck_seed``: a fixed deck for tests (refused in production by the settings);
    # the seed is committed to (shuffle.deal) and revealed after the end.
    dealt = shuffle.deal(rt.settings.deck_seed)
    state = new_game(options, [str(s["name"]) for s in seats], seed=dealt.seed)
    match_id = secrets.token_hex(8)
    now = utcnow()
    delay = rt.settings.bot_delay if seats[0]["bot"] else rt.settings.abandon_after
    clock, clock_due = clocks.start_clock(row.time_control, seats, row.host_id, state)
    # The table's aid policy travels with the match in its clock (none kept — a Play now or a
    # challenge table — the default: off when rated, legal placements highlighted otherwise).
    clock[table_options.AIDS_KEY] = table_options.aids_of(
        row.time_control, bool(row.rated)
    ).to_json()
    first_look = clocks.earliest(now + timedelta(seconds=delay), clock_due)
    setup = state.to_json()
    await sql.insert_match(
        conn,
        dict(
            id=match_id,
            lobby_code=code,
            name=row.name,
            private=row.private,
            status="live",
            seats=seats,
            rules=options.to_json(),
            setup=setup,
            snapshot=setup,
            snapshot_version=0,
            version=0,
            seat_to_act=state.seat,
            turn=state.turn,
            scores=list(state.scores),
            next_bot_at=first_look,
            rematch_code=None,
            created_at=now,
            updated_at=now,
            finished_at=None,
            clock=clock,
            started_from=address[:64],
            bots=bots,
            spectator_delay=row.spectator_delay,
        ),
    )
    await history.on_match_started(conn, match_id, seats, row.preset, row.rated, dealt)
    return match_id


async def check_bot_caps(rt: Runtime, conn: AsyncConnection, address: str) -> None:
    """Refuse a new match with computer players when ``address`` already has
    ``BOT_MATCHES_PER_ADDRESS`` live ones, or the deployment ``BOT_MATCHES_PER_INSTANCE`` per
    running instance (their turns are thought in the instances' worker pools). Raises
    :class:`RateLimited` (retry in a minute: a match must end first).
    """
    s = rt.settings
    since = utcnow() - timedelta(seconds=max(10.0, 5 * s.instance_heartbeat))
    mine, everywhere, instances = await sql.count_live_bot_matches(conn, address, since)
    if mine >= s.bot_matches_per_address:
        raise RateLimited(
            f"at most {s.bot_matches_per_address} live matches with computer players per "
            "address: finish or leave one first",
            retry_after=60,
        )
    if everywhere >= s.bot_matches_per_instance * max(1, instances):
        raise RateLimited(
            "the computer players are all busy: try again in a few minutes", retry_after=60
        )


async def rematch(rt: Runtime, match_id: str, player_id: str) -> str:
    """A new lobby with the same seats, rules and privacy as a finished match; the asker is
    host. The last game of a series offers another series of the same length. Repeated calls
    return the same lobby code. Raises :class:`NotFound`, :class:`Forbidden` (not seated),
    :class:`Conflict` (still being played, or its series is: ``series_running``).
    """
    async with rt.storage.db.transaction() as conn:
        m = await sql.match(conn, match_id, lock=rt.storage.db.is_postgres)
        if m is None:
            raise NotFound("no such match")
        if not any(s["player"] == player_id for s in m.seats):
            raise Forbidden(
                "only the match's players can ask for a rematch", reason="rematch_not_player"
            )
        if m.status != "finished":
            raise Conflict("the match is still being played", reason="match_not_finished")
        if m.rematch_code:
            return str(m.rematch_code)
        lobby = await sql.lobby_setup(conn, m.lobby_code)
        if lobby is not None and series.is_running(lobby.series):
            raise Conflict("the series goes on at this table", reason="series_running")
        control, policy, aids = table_options.unpack(lobby.time_control if lobby else None)
        settings = TableSettings(
            rules=m.rules,
            preset=lobby.preset if lobby else None,
            name=m.name,
            private=m.private,
            rated=bool(lobby.rated) if lobby else False,
            time_control=control,
            timeout_policy=policy,
            aids=aids,
            best_of=lobby.best_of if lobby else None,
            spectator_delay=m.spectator_delay,
        )
        table = await open_table(rt, conn, settings, _match_seats(m.seats), host_id=player_id)
        await sql.set_rematch(conn, match_id, table.row.code)
    return table.row.code
