"""Lobbies: create, get and list tables, the host's options, start, rematch, lobby sockets.

Seats (join, leave, colours, kick, computer seats) are in :mod:`app.services.seats`; the row
locking, versioning and announcing they share in :mod:`app.services.lobby_core`.
Invite codes are ``secrets.token_urlsafe(8)`` (64 random bits) and private lobbies are never
listed.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

from app.bots import DEFAULT_LEVEL
from app.db import lobbies as sql
from app.db.models import utcnow
from app.engine import PRESETS, InvalidOptions, Options, new_game
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.realtime.protocol import lobby_frame
from app.services import clocks, history, ratings, shuffle
from app.services.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.services.lobby_core import (
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
from app.services.runtime import Runtime
from app.services.titles import match_host_name


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
) -> dict[str, Any]:
    """Create a lobby; the creator takes seat 0 and is host. Returns Lobby JSON.

    Raises :class:`ValidationFailed` (seats, preset, rules, name, time control — its message
    names the field, e.g. ``time_control.seconds``), :class:`NotFound` (player).
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationFailed(f"a lobby has {MIN_SEATS} to {MAX_SEATS} seats")
    preset_name, options = _rules_from(preset, rules)
    control = clocks.parse_time_control(time_control)
    code = secrets.token_urlsafe(8)
    async with rt.db.transaction() as conn:
        host = await player_name(conn, player_id)
        # No name: none stored; each client words "{host}'s table" in its reader's language.
        title = _clean_title(name) if name else None
        table = [empty_seat(i) for i in range(seats)]
        table[0].update(player=player_id, name=host, colour=COLOURS[0])
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
            ),
        )
        row = await sql.lobby(conn, code)
    return lobby_json(row, lobby_presence(rt, code))


def _clean_title(name: str) -> str:
    title = " ".join(name.split())
    if not 1 <= len(title) <= 64 or not all(c.isprintable() for c in title):
        raise ValidationFailed("a lobby name is 1–64 printable characters")
    return title


async def get_lobby(rt: Runtime, code: str) -> dict[str, Any]:
    """Lobby JSON by invite code; raises :class:`NotFound`."""
    async with rt.db.reading() as conn:
        row = await sql.lobby(conn, code)
    if row is None:
        raise NotFound("no such lobby")
    return lobby_json(row, lobby_presence(rt, code))


async def list_open(rt: Runtime, limit: int = 100) -> dict[str, Any]:
    """``{"lobbies": [public open Lobby], "matches": [{"id", "name", "host_name", "players",
    "turn", "spectators"}]}`` — private lobbies and matches are never listed.
    """
    async with rt.db.reading() as conn:
        rows, live = await sql.open_public(conn, limit)
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
    fields = clocks.lobby_fields(clock["control"] if clock else None)
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
) -> dict[str, Any]:
    """Host only: change rules/preset, privacy, name, the number of seats or the time control.

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
        if time_control is not None:
            values["time_control"] = clocks.parse_time_control(time_control)
        if private is not None:
            values["private"] = private
        if name is not None:
            values["name"] = _clean_title(name)
        if max_seats is not None:
            if not MIN_SEATS <= max_seats <= MAX_SEATS:
                raise ValidationFailed(f"a lobby has {MIN_SEATS} to {MAX_SEATS} seats")
            seats = [dict(s) for s in row.seats]
            if any(s["player"] or s["bot"] for s in seats[max_seats:]):
                raise Conflict("free the last seats before removing them")
            seats = seats[:max_seats] + [empty_seat(i) for i in range(len(seats), max_seats)]
            values.update(max_seats=max_seats, seats=seats)
        row = await save(rt, conn, row, **values)
    return await announce(rt, row)


def _match_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The filled seats, renumbered from 0, as a match (or its rematch lobby) keeps them:
    ``{"seat", "player", "name", "colour", "bot", "level"}`` (a computer's level defaulted).
    """
    return [
        {
            "seat": i,
            "player": s["player"],
            "name": s["name"],
            "colour": s["colour"],
            "bot": s["bot"],
            "level": s.get("level") or DEFAULT_LEVEL,
        }
        for i, s in enumerate(seats)
    ]


async def start(rt: Runtime, code: str, player_id: str) -> str:
    """Host only: deal the filled seats (in seat order) into a new match; returns its id.

    Raises :class:`Forbidden`, :class:`Conflict` (fewer than 2 seats filled, started).
    """
    async with rt.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_host(row, player_id)
        require_open(row)
        taken = [s for s in row.seats if s["player"] is not None or s["bot"]]
        if len(taken) < MIN_SEATS:
            raise Conflict("a match needs at least 2 filled seats")
        await ratings.check_lobby(conn, row.rated, row.preset, taken, row.rules)
        options = Options.from_json(row.rules)
        # ``deck_seed``: a fixed deck for tests (refused in production by the settings);
        # the seed is committed to (shuffle.deal) and revealed after the end.
        dealt = shuffle.deal(rt.settings.deck_seed)
        state = new_game(options, [s["name"] for s in taken], seed=dealt.seed)
        match_id = secrets.token_hex(8)
        seats = _match_seats(taken)
        now = utcnow()
        delay = rt.settings.bot_delay if seats[0]["bot"] else rt.settings.abandon_after
        clock, clock_due = clocks.start_clock(row.time_control, seats, row.host_id, state)
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
            ),
        )
        await history.on_match_started(conn, match_id, seats, row.preset, row.rated, dealt)
        row = await save(rt, conn, row, status="started", match_id=match_id)
    rt.metrics.matches_live.inc()
    await announce(rt, row)
    return match_id


async def rematch(rt: Runtime, match_id: str, player_id: str) -> str:
    """A new lobby with the same seats, rules and privacy as a finished match; the asker is
    host. Repeated calls return the same lobby code. Raises :class:`NotFound`,
    :class:`Forbidden` (not seated), :class:`Conflict` (still being played).
    """
    async with rt.db.transaction() as conn:
        m = await sql.match(conn, match_id, lock=rt.db.is_postgres)
        if m is None:
            raise NotFound("no such match")
        if not any(s["player"] == player_id for s in m.seats):
            raise Forbidden("only the match's players can ask for a rematch")
        if m.status != "finished":
            raise Conflict("the match is still being played")
        if m.rematch_code:
            return str(m.rematch_code)
        code = secrets.token_urlsafe(8)
        seats = _match_seats(m.seats)
        lobby = await sql.lobby_setup(conn, m.lobby_code)
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
            ),
        )
        await sql.set_rematch(conn, match_id, code)
    return code


# ---------------------------------------------------------------------- sockets


def lobby_hub_factory(rt: Runtime, code: str) -> Hub:
    """A hub for a lobby channel: newest lobby wins; presence re-sends the lobby."""
    hub: Hub

    def render(keys: set[str], _spectators: int) -> str | None:
        data = hub.state
        if data is None:
            return None
        fresh = dict(data)
        fresh["seats"] = [
            {**s, "connected": bool(s["bot"]) or (s["player"] is not None and s["player"] in keys)}
            for s in data["seats"]
        ]
        return lobby_frame(fresh)

    hub = Hub(rt.hubs, rt.channel("lobby", code), ordered=False, render_presence=render)
    return hub


@contextlib.asynccontextmanager
async def lobby_socket(
    rt: Runtime, socket: Any, code: str, player_id: str | None
) -> AsyncIterator[tuple[Hub, Connection]]:
    """A websocket joined to a lobby for the block, the lobby sent first. Raises
    :class:`NotFound` before joining; leaves the lobby's hub on the way out (even when
    cancelled).
    """
    await get_lobby(rt, code)
    async with rt.hubs.joined(
        rt.channel("lobby", code),
        lambda: lobby_hub_factory(rt, code),
        lambda _: Connection(socket, player_id),
    ) as (hub, conn):
        data = await get_lobby(rt, code)
        hub.state = data
        hub.note_version(data["version"])
        await socket.send_text(lobby_frame(data))
        conn.start(data["version"])
        yield hub, conn
