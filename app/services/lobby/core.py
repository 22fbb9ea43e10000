"""What every lobby use case shares: seat dicts and colours, the Lobby JSON, reading the row
under a lock, saving it with a new version and announcing it after the commit.

A lobby row is changed only inside a transaction that locks it (``FOR UPDATE`` on Postgres,
the writer lock on SQLite); every change bumps ``version`` and, after the commit, the whole
lobby is sent to its sockets (``{"t": "lobby", "d": Lobby}``) here and through the broker.
Used by :mod:`app.services.lobby.lobby` (tables, options, start) and
:mod:`app.services.lobby.seats`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Unpack

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.json_types import JsonObject
from app.realtime.protocol import broker_message, lobby_frame
from app.services.clock import table_options
from app.services.errors import Conflict, Forbidden, NotFound
from app.services.lobby import queries as sql
from app.services.lobby.model import LobbyChanges, LobbyJson, LobbyRow, TableSettings
from app.services.records.titles import lobby_host_name
from app.services.runtime import Runtime

COLOURS = ("red", "blue", "green", "yellow", "black")
MIN_SEATS, MAX_SEATS = 2, 5


def empty_seat(i: int) -> JsonObject:
    """An empty seat dict for seat ``i`` (see :class:`app.db.models.Lobby`)."""
    return {"seat": i, "player": None, "name": None, "colour": None, "bot": False}


def seat_number(seat: JsonObject) -> int:
    """The ``seat`` number of a seat dict; raises :class:`TypeError` when it holds none."""
    number = seat["seat"]
    if not isinstance(number, int):
        raise TypeError(f"a seat without a number: {seat!r}")
    return number


def free_colour(seats: list[JsonObject]) -> str:
    """The first of :data:`COLOURS` no seat has taken."""
    used = {s["colour"] for s in seats if s["colour"]}
    return next(c for c in COLOURS if c not in used)


def lobby_json(row: LobbyRow, connected: set[str] | None = None) -> LobbyJson:
    """The Lobby JSON of docs/API.md; ``connected``: player ids with a lobby socket open."""
    connected = connected or set()
    settings = row.settings
    fields = table_options.time_fields(settings.time_control, settings.timeout_policy)
    return {
        "code": row.code,
        "name": settings.name,
        "host_name": lobby_host_name(row.seats, row.host_id),
        "private": settings.private,
        "host": row.host_id,
        "preset": settings.preset,
        "rules": settings.rules,
        "seats": [
            {
                **s,
                "bot_account": bool(s.get("bot_account")),
                "connected": bool(s["bot"])
                or (s["player"] is not None and s["player"] in connected),
            }
            for s in row.seats
        ],
        "max_seats": row.max_seats,
        "status": row.status,
        "match_id": row.match_id,
        "version": row.version,
        "rated": settings.rated,
        "language": settings.language,
        "best_of": settings.best_of or 1,
        "spectator_delay": settings.spectator_delay,
        "time_control": fields["time_control"],
        "time_label": fields["time_label"],
        "timeout_policy": fields["timeout_policy"],
        "at_zero": fields["at_zero"],
        "aids": table_options.aid_policy(settings.aids, settings.rated).to_json(),
    }


def lobby_presence(rt: Runtime, code: str) -> set[str]:
    """Player ids with a socket open on the lobby, on this instance."""
    hub = rt.fanout.hubs.get(rt.fanout.channel("lobby", code))
    return hub.presence()[0] if hub is not None else set()


async def player_name(conn: AsyncConnection, player_id: str) -> str:
    """The name of ``player_id``; raises :class:`NotFound`."""
    name = await sql.player_name(conn, player_id)
    if name is None:
        raise NotFound("no such player: create one with POST /api/players")
    return name


async def locked(rt: Runtime, conn: AsyncConnection, code: str) -> LobbyRow:
    """The lobby row, locked for this transaction (``FOR UPDATE`` on Postgres); raises
    :class:`NotFound`.
    """
    row = await sql.lobby(conn, code, lock=rt.storage.db.is_postgres)
    if row is None:
        raise NotFound("no such lobby")
    return row


async def save(
    rt: Runtime, conn: AsyncConnection, row: LobbyRow, **values: Unpack[LobbyChanges]
) -> LobbyRow:
    """Write ``values`` to the lobby row, bumping its version; returns the lobby after. The
    ``settings`` column is written anew at the new version, whatever changed (the older
    columns it repeats change only with ``values``, so they keep mirroring it).
    """
    version = row.version + 1
    changes = {
        **values,
        "settings": settings_after(row.settings, values).to_json(version),
        "version": version,
        "updated_at": utcnow(),
    }
    return await sql.update_lobby(conn, row.code, changes)


def settings_after(settings: TableSettings, values: LobbyChanges) -> TableSettings:
    """``settings`` with the columns a use case changes (``values``) applied: the table's
    ``name``, ``private``, ``preset``, ``rules``, ``best_of``, ``spectator_delay`` and the
    packed ``time_control`` (time control, time-out policy and aid policy, unpacked).
    """
    after = settings
    if "name" in values:
        after = replace(after, name=values["name"])
    if "private" in values:
        after = replace(after, private=values["private"])
    if "preset" in values:
        after = replace(after, preset=values["preset"])
    if "rules" in values:
        after = replace(after, rules=values["rules"])
    if "best_of" in values:
        after = replace(after, best_of=values["best_of"])
    if "spectator_delay" in values:
        after = replace(after, spectator_delay=values["spectator_delay"])
    if "time_control" in values:
        control, policy, aids = table_options.unpack(values["time_control"])
        after = replace(after, time_control=control, timeout_policy=policy, aids=aids)
    return after


async def announce(rt: Runtime, row: LobbyRow) -> LobbyJson:
    """After a commit: send the lobby to local sockets and publish it; returns Lobby JSON."""
    data = lobby_json(row, lobby_presence(rt, row.code))
    frame = lobby_frame(dict(data))
    channel = rt.fanout.channel("lobby", row.code)
    hub = rt.fanout.hubs.get(channel)
    if hub is not None:
        hub.state = data
        hub.deliver(row.version, frame)
    await rt.fanout.broker.publish(
        channel, broker_message(rt.fanout.broker.instance_id, "batch", row.version, frame)
    )
    return data


def require_host(row: LobbyRow, player_id: str) -> None:
    """Raise :class:`Forbidden` unless ``player_id`` hosts the lobby."""
    if row.host_id != player_id:
        raise Forbidden("only the host can do that", reason="not_host")


def require_open(row: LobbyRow) -> None:
    """Raise :class:`Conflict` unless the lobby is still open (not started or closed)."""
    if row.status != "open":
        raise Conflict(
            f"the lobby is {row.status}",
            reason="lobby_started" if row.status == "started" else "lobby_closed",
        )
