"""Lobbies: create, get and list tables, the host's options, start, rematch (a lobby's sockets:
:mod:`app.services.lobby.sockets`).

Seats (join, leave, colours, kick, computer seats) are in :mod:`app.services.lobby.seats`; the row
locking, versioning and announcing they share in :mod:`app.services.lobby.core`.
Invite codes are ``secrets.token_urlsafe(8)`` (64 random bits) and private lobbies are never
listed.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.bots import DEFAULT_LEVEL
from app.db.models import utcnow
from app.engine import PRESETS, InvalidOptions, Options, new_game
from app.services.clock import clocks, table_options
from app.services.errors import Conflict, Forbidden, NotFound, RateLimited, ValidationFailed
from app.services.lobby import queries as sql
from app.services.lobby import series
from app.services.lobby.core import (
    COLOURS,
    MAX_SEATS,
    MIN_SEATS,
    announce,
    empty_seat,
    lobby_json,
    lobby_presence,
    locked,
    player_name,
    require_host,
    require_open,
    save,
)
from app.services.lobby.filters import TableFilters
from app.services.records import history, ratings, shuffle
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime
from app.services.spectator_delay import parse_spectator_delay

#: An open table unchanged this long is no longer listed, nor counted in its host's budget
#: (``LOBBIES_PER_HOST``): what never starts stops taking room.
IDLE = timedelta(days=1)


def _rules_from(preset: str | None, rules: dict[str, Any] | None) -> tuple[str | None, Options]:
    if rules is not None:
        try:
            options = Options.from_json(rules)
        except InvalidOptions as exc:
            raise ValidationFailed(exc.message) from None
        named = next((k for k, v in PRESETS.items() if v == options), None)
        return named, options
    name = preset or "standard"
    if name not in PRESETS:
        raise ValidationFailed(f"unknown preset {name!r}: one of {', '.join(PRESETS)}")
    return name, PRESETS[name]


# ---------------------------------------------------------------------- use cases


async def create_lobby(
    rt: Runtime,
    player_id: str,
    *,
    name: str | None,
    preset: str | None,
    rules: dict[str, Any] | None,
    seats: int,
    private: bool,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
    timeout_policy: dict[str, Any] | None = None,
    language: str | None = None,
    best_of: int | None = None,
    aids: dict[str, Any] | str | None = None,
    spectator_delay: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Create a lobby; the creator takes seat 0 and is host. Returns Lobby JSON.
    ``language``: the language the host plays in (``en``/``de``/``fr``; None: any).
    ``best_of``: a series of 1, 3 or 5 games at this table (None or 1: one game;
    :mod:`app.services.lobby.series`). ``aids``: the table's aid policy
    (:class:`app.engine.aids.AidPolicy` JSON; None: ``off`` for a rated table, else legal
    placements highlighted). ``spectator_delay``: how far behind spectators see the match
    (``{"moves": N}`` or ``{"seconds": M}``; None or ``{}``: live;
    app/services/spectator_delay.py).

    Raises :class:`ValidationFailed` (seats, preset, rules, name, time control, time-out
    policy, aid policy, spectator delay — its message names the field, e.g.
    ``time_control.seconds``, ``timeout_policy.after``, ``aids.mode``,
    ``spectator_delay.moves``), :class:`NotFound` (player), :class:`Conflict` (the host has
    ``LOBBIES_PER_HOST`` open tables changed in the last :data:`IDLE`, each with others seated:
    ``lobby_budget``; at the budget the oldest table where nobody else sits is closed instead).
    """
    _check_seats(seats)
    preset_name, options = _rules_from(preset, rules)
    best_of = series.check_best_of(best_of)
    control = _table_control(time_control, timeout_policy, aids, rated)
    delay = parse_spectator_delay(spectator_delay)
    code = secrets.token_urlsafe(8)
    async with rt.db.transaction() as conn:
        host = await player_name(conn, player_id)
        replaced = await _make_room(rt, conn, player_id)
        # No name: none stored; each client words "{host}'s table" in its reader's language.
        title = _clean_title(name) if name else None
        table = await _host_table(conn, player_id, host, seats)
        await ratings.check_lobby(conn, rated, preset_name, table, options.to_json())
        now = utcnow()
        await sql.insert_lobby(
            conn,
            dict(
                code=code,
                name=title,
                host_id=player_id,
                private=private,
                preset=preset_name,
                rules=options.to_json(),
                max_seats=seats,
                seats=table,
                status="open",
                match_id=None,
                version=1,
                created_at=now,
                updated_at=now,
                rated=rated,
                time_control=control,
                language=language,
                best_of=best_of,
                spectator_delay=delay,
            ),
        )
        row = await sql.lobby(conn, code)
    if replaced is not None:
        await announce(rt, replaced)
    return lobby_json(row, lobby_presence(rt, code))


def _check_seats(seats: int) -> None:
    """Raise :class:`ValidationFailed` (``lobby_seats``) unless ``seats`` is a table's size."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationFailed(
            f"a lobby has {MIN_SEATS} to {MAX_SEATS} seats",
            reason="lobby_seats",
            params={"min": MIN_SEATS, "max": MAX_SEATS},
        )


def _table_control(
    time_control: dict[str, Any] | None,
    timeout_policy: dict[str, Any] | None,
    aids: dict[str, Any] | str | None,
    rated: bool,
) -> dict[str, Any]:
    """Check the time control, time-out policy and aid policy; their stored form."""
    return table_options.stored(
        table_options.parse_time_control(time_control),
        None if timeout_policy is None else table_options.parse_timeout_policy(timeout_policy),
        table_options.aids_of(None, rated).to_json()
        if aids is None
        else table_options.parse_aids(aids),
    )


async def _host_table(
    conn: AsyncConnection, player_id: str, host: str, seats: int
) -> list[dict[str, Any]]:
    """The new table's ``seats`` empty seats but seat 0, the host's (marked if a bot account)."""
    table = [empty_seat(i) for i in range(seats)]
    table[0].update(player=player_id, name=host, colour=COLOURS[0])
    if await sql.is_bot_account(conn, player_id):
        table[0]["bot_account"] = True
    return table


async def _make_room(rt: Runtime, conn: AsyncConnection, host_id: str) -> Any | None:
    """Keep ``host_id`` within ``LOBBIES_PER_HOST`` open tables before a new one: at the
    budget, the oldest table where nobody else sits is closed (returned, to announce after the
    commit: a table left behind is replaced, as one would expect); when every one has others
    seated, raises :class:`Conflict` (``lobby_budget``).
    """
    budget = rt.settings.lobbies_per_host
    hosted = await sql.open_hosted(conn, host_id, utcnow() - IDLE)
    if len(hosted) < budget:
        return None
    for row in hosted:
        alone = all(s.get("player") in (None, host_id) and not s.get("bot") for s in row.seats)
        if alone:
            mine = await locked(rt, conn, row.code)
            if mine.status == "open":
                return await save(rt, conn, mine, status="closed")
    raise Conflict(
        f"you host {budget} open tables with players already: start or leave one first",
        reason="lobby_budget",
        params={"max": budget},
    )


def _clean_title(name: str) -> str:
    title = " ".join(name.split())
    if not 1 <= len(title) <= 64 or not all(c.isprintable() for c in title):
        raise ValidationFailed(
            "a lobby name is 1–64 printable characters", reason="lobby_name", params={"max": 64}
        )
    return title


async def get_lobby(rt: Runtime, code: str) -> dict[str, Any]:
    """Lobby JSON by invite code; raises :class:`NotFound`."""
    async with rt.db.reading() as conn:
        row = await sql.lobby(conn, code)
    if row is None:
        raise NotFound("no such lobby")
    return lobby_json(row, lobby_presence(rt, code))


async def list_open(
    rt: Runtime, limit: int = 100, filters: TableFilters | None = None
) -> dict[str, Any]:
    """``{"lobbies": [public open Lobby], "matches": [{"id", "name", "host_name", "players",
    "turn", "spectators"}]}`` — private lobbies and matches are never listed. ``filters``
    narrow the open tables (not the live matches), newest first, at most ``limit``.
    """
    wanted = filters or TableFilters()
    async with rt.db.reading() as conn:
        since = utcnow() - IDLE
        rows, live = await sql.open_public(conn, limit if wanted.empty else limit * 5, since)
    rows = [r for r in rows if wanted.admits(r)][:limit]
    spectators = await rt.spectators.counts([m.id for m in live])  # across instances
    return {
        "lobbies": [lobby_json(r, lobby_presence(rt, r.code)) for r in rows],
        "matches": [
            {
                "id": m.id,
                "name": m.name,
                "host_name": match_host_name(m.seats, m.clock),
                "players": [s["name"] for s in m.seats],
                "turn": m.turn,
                "spectators": spectators[m.id],
                **_time_fields(m.clock),
            }
            for m in live
        ],
    }


def _time_fields(clock: dict[str, Any] | None) -> dict[str, Any]:
    """A live match's ``time_control`` (JSON, worded by the client) and its English label."""
    fields = table_options.lobby_fields(clock["control"] if clock else None)
    return {"time_control": fields["time_control"], "time_label": fields["time_label"]}


async def update_options(
    rt: Runtime,
    code: str,
    player_id: str,
    *,
    rules: dict[str, Any] | None = None,
    preset: str | None = None,
    private: bool | None = None,
    name: str | None = None,
    max_seats: int | None = None,
    time_control: dict[str, Any] | None = None,
    timeout_policy: dict[str, Any] | None = None,
    best_of: int | None = None,
    aids: dict[str, Any] | str | None = None,
    spectator_delay: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Host only: change rules/preset, privacy, name, the number of seats, the time control,
    the time-out policy, the series length ``best_of``, the aid policy or the spectator delay
    (each left as it is when None; a delay of ``{}``: spectators see the match live again).

    Raises :class:`Forbidden`, :class:`ValidationFailed`, :class:`Conflict` (fewer seats than
    taken, started).
    """
    async with rt.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_host(row, player_id)
        require_open(row)
        values: dict[str, Any] = {}
        if rules is not None or preset is not None:
            preset_name, options = _rules_from(preset, rules)
            values.update(preset=preset_name, rules=options.to_json())
            await ratings.check_lobby(conn, row.rated, preset_name, row.seats, values["rules"])
        if time_control is not None or timeout_policy is not None:
            old_control, old_policy = table_options.split_stored(row.time_control)
            values["time_control"] = table_options.stored(
                old_control
                if time_control is None
                else table_options.parse_time_control(time_control),
                old_policy
                if timeout_policy is None
                else table_options.parse_timeout_policy(timeout_policy),
                (row.time_control or {}).get(table_options.AIDS_KEY),
            )
        if aids is not None:
            values["time_control"] = table_options.with_aids(
                values.get("time_control", row.time_control), table_options.parse_aids(aids)
            )
        if best_of is not None:
            values["best_of"] = series.check_best_of(best_of)
        if spectator_delay is not None:
            values["spectator_delay"] = parse_spectator_delay(spectator_delay)
        if private is not None:
            values["private"] = private
        if name is not None:
            values["name"] = _clean_title(name)
        if max_seats is not None:
            if not MIN_SEATS <= max_seats <= MAX_SEATS:
                raise ValidationFailed(
                    f"a lobby has {MIN_SEATS} to {MAX_SEATS} seats",
                    reason="lobby_seats",
                    params={"min": MIN_SEATS, "max": MAX_SEATS},
                )
            seats = [dict(s) for s in row.seats]
            if any(s["player"] or s["bot"] for s in seats[max_seats:]):
                raise Conflict("free the last seats before removing them", reason="seats_taken")
            seats = seats[:max_seats] + [empty_seat(i) for i in range(len(seats), max_seats)]
            values.update(max_seats=max_seats, seats=seats)
        row = await save(rt, conn, row, **values)
    return await announce(rt, row)


def _match_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
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


async def start(rt: Runtime, code: str, player_id: str, address: str = "unknown") -> str:
    """Host only: deal the filled seats (in seat order) into a new match; returns its id —
    the same id again for a lobby this host already started (idempotent: a retried request
    must not strand a match its host never heard of). ``address``: the host's client address
    (computer-player matches are capped per address).

    Raises :class:`Forbidden`, :class:`Conflict` (fewer than 2 seats filled, started),
    :class:`RateLimited` (too many live computer-player matches: :func:`check_bot_caps`).
    """
    async with rt.db.transaction() as conn:
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


async def deal(rt: Runtime, conn: AsyncConnection, row: Any, address: str) -> tuple[str, Any]:
    """Inside the caller's transaction, with lobby ``row`` locked: deal its filled seats into a
    new match (clock, history, fair bag, rated checks) and mark the lobby started. Returns
    ``(match id, the lobby row after)``; the caller announces the lobby after its commit.

    Raises :class:`Conflict` (not open, fewer than 2 filled seats, rated rules broken),
    :class:`RateLimited` (:func:`check_bot_caps`).
    """
    require_open(row)
    taken = [s for s in row.seats if s["player"] is not None or s["bot"]]
    if len(taken) < MIN_SEATS:
        raise Conflict("a match needs at least 2 filled seats", reason="too_few_players")
    if any(s["bot"] for s in taken):
        await check_bot_caps(rt, conn, address)
    await ratings.check_lobby(conn, row.rated, row.preset, taken, row.rules)
    seats = _match_seats(taken)
    match_id = await deal_match(rt, conn, row, seats, address)
    values: dict[str, Any] = {"status": "started", "match_id": match_id}
    if (row.best_of or 1) > 1:
        values["series"] = series.new_series(row.best_of, seats, match_id)
    row = await save(rt, conn, row, **values)
    return match_id, row


async def deal_match(
    rt: Runtime, conn: AsyncConnection, row: Any, seats: list[dict[str, Any]], address: str
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
    state = new_game(options, [s["name"] for s in seats], seed=dealt.seed)
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
            spectator_delay=getattr(row, "spectator_delay", None),
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
    async with rt.db.transaction() as conn:
        m = await sql.match(conn, match_id, lock=rt.db.is_postgres)
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
        code = secrets.token_urlsafe(8)
        seats = _match_seats(m.seats)
        now = utcnow()
        await sql.insert_lobby(
            conn,
            dict(
                code=code,
                name=m.name,
                host_id=player_id,
                private=m.private,
                preset=lobby.preset if lobby else None,
                rules=m.rules,
                max_seats=len(seats),
                seats=seats,
                status="open",
                match_id=None,
                version=1,
                created_at=now,
                updated_at=now,
                rated=bool(lobby.rated) if lobby else False,
                time_control=lobby.time_control if lobby else None,
                best_of=lobby.best_of if lobby else None,
                spectator_delay=m.spectator_delay,
            ),
        )
        await sql.set_rematch(conn, match_id, code)
    return code
