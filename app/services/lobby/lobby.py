"""Lobbies: create, get and list tables and the host's options (starting a table and rematches:
:mod:`app.services.lobby.dealing`; a lobby's sockets: :mod:`app.services.lobby.sockets`).

Seats (join, leave, colours, kick, computer seats) are in :mod:`app.services.lobby.seats`; the row
locking, versioning and announcing they share in :mod:`app.services.lobby.core`.
Invite codes are ``secrets.token_urlsafe(8)`` (64 random bits) and private lobbies are never
listed.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.engine import PRESETS, InvalidOptions, Options
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.errors import Conflict, NotFound, ValidationFailed
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
from app.services.lobby.dealing import open_table
from app.services.lobby.filters import TableFilters
from app.services.lobby.model import (
    LobbyChanges,
    LobbyJson,
    LobbyListJson,
    LobbyRow,
    TableSettings,
)
from app.services.records import ratings
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime
from app.services.spectator_delay import parse_spectator_delay

#: An open table unchanged this long is no longer listed, nor counted in its host's budget
#: (``LOBBIES_PER_HOST``): what never starts stops taking room.
IDLE = timedelta(days=1)


def _rules_from(preset: str | None, rules: JsonObject | None) -> tuple[str | None, Options]:
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
    rules: JsonObject | None,
    seats: int,
    private: bool,
    rated: bool = False,
    time_control: JsonObject | None = None,
    timeout_policy: JsonObject | None = None,
    language: str | None = None,
    best_of: int | None = None,
    aids: JsonObject | str | None = None,
    spectator_delay: JsonObject | None = None,
) -> LobbyJson:
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
    control, policy, aid_policy = _table_time(time_control, timeout_policy, aids, rated)
    delay = parse_spectator_delay(spectator_delay)
    async with rt.storage.db.transaction() as conn:
        host = await player_name(conn, player_id)
        replaced = await _make_room(rt, conn, player_id)
        # No name: none stored; each client words "{host}'s table" in its reader's language.
        title = _clean_title(name) if name else None
        table = await _host_table(conn, player_id, host, seats)
        await ratings.check_lobby(conn, rated, preset_name, table, options.to_json())
        settings = TableSettings(
            rules=options.to_json(),
            preset=preset_name,
            name=title,
            private=private,
            rated=rated,
            time_control=control,
            timeout_policy=policy,
            aids=aid_policy,
            language=language,
            best_of=best_of,
            spectator_delay=delay,
        )
        row = (await open_table(rt, conn, settings, table, host_id=player_id)).row
    if replaced is not None:
        await announce(rt, replaced)
    return lobby_json(row, lobby_presence(rt, row.code))


def _check_seats(seats: int) -> None:
    """Raise :class:`ValidationFailed` (``lobby_seats``) unless ``seats`` is a table's size."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationFailed(
            f"a lobby has {MIN_SEATS} to {MAX_SEATS} seats",
            reason="lobby_seats",
            params={"min": MIN_SEATS, "max": MAX_SEATS},
        )


def _table_time(
    time_control: JsonObject | None,
    timeout_policy: JsonObject | None,
    aids: JsonObject | str | None,
    rated: bool,
) -> tuple[JsonObject, JsonObject | None, JsonObject]:
    """Check the time control, time-out policy and aid policy: ``(time control, policy or None,
    aid policy)`` JSON, the aid policy the default for ``rated`` when none was asked.
    """
    return (
        table_options.parse_time_control(time_control),
        None if timeout_policy is None else table_options.parse_timeout_policy(timeout_policy),
        table_options.aids_of(None, rated).to_json()
        if aids is None
        else table_options.parse_aids(aids),
    )


async def _host_table(
    conn: AsyncConnection, player_id: str, host: str, seats: int
) -> list[JsonObject]:
    """The new table's ``seats`` empty seats but seat 0, the host's (marked if a bot account)."""
    table = [empty_seat(i) for i in range(seats)]
    table[0].update(player=player_id, name=host, colour=COLOURS[0])
    if await sql.is_bot_account(conn, player_id):
        table[0]["bot_account"] = True
    return table


async def _make_room(rt: Runtime, conn: AsyncConnection, host_id: str) -> LobbyRow | None:
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


async def get_lobby(rt: Runtime, code: str) -> LobbyJson:
    """Lobby JSON by invite code; raises :class:`NotFound`."""
    async with rt.storage.db.reading() as conn:
        row = await sql.lobby(conn, code)
    if row is None:
        raise NotFound("no such lobby")
    return lobby_json(row, lobby_presence(rt, code))


async def list_open(
    rt: Runtime, limit: int = 100, filters: TableFilters | None = None
) -> LobbyListJson:
    """``{"lobbies": [public open Lobby], "matches": [{"id", "name", "host_name", "players",
    "turn", "spectators"}]}`` — private lobbies and matches are never listed. ``filters``
    narrow the open tables (not the live matches), newest first, at most ``limit``.
    """
    wanted = filters or TableFilters()
    async with rt.storage.db.reading() as conn:
        since = utcnow() - IDLE
        rows, live = await sql.open_public(conn, limit if wanted.empty else limit * 5, since)
    rows = [r for r in rows if wanted.admits(r)][:limit]
    spectators = await rt.fanout.spectators.counts([m.id for m in live])  # across instances
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


def _time_fields(clock: JsonObject | None) -> JsonObject:
    """A live match's ``time_control`` (JSON, worded by the client) and its English label."""
    control = clock["control"] if clock else None
    if control is not None and not isinstance(control, dict):
        raise TypeError(f"a clock's control is an object: {control!r}")
    fields = table_options.lobby_fields(control)
    return {"time_control": fields["time_control"], "time_label": fields["time_label"]}


def _new_control(
    row: LobbyRow,
    time_control: JsonObject | None,
    timeout_policy: JsonObject | None,
    aids: JsonObject | str | None,
) -> JsonObject | None:
    """The lobby's stored ``time_control`` column after the host's change: the time control
    and the time-out policy each replaced when given, else kept; the aid policy likewise.
    Raises :class:`ValidationFailed` (the message names the field).
    """
    stored = row.time_control
    if time_control is not None or timeout_policy is not None:
        old_control, old_policy = table_options.split_stored(stored)
        kept_aids = (stored or {}).get(table_options.AIDS_KEY)
        stored = table_options.stored(
            old_control if time_control is None else table_options.parse_time_control(time_control),
            old_policy
            if timeout_policy is None
            else table_options.parse_timeout_policy(timeout_policy),
            kept_aids if isinstance(kept_aids, dict) else None,
        )
    if aids is not None:
        stored = table_options.with_aids(stored, table_options.parse_aids(aids))
    return stored


async def update_options(
    rt: Runtime,
    code: str,
    player_id: str,
    *,
    rules: JsonObject | None = None,
    preset: str | None = None,
    private: bool | None = None,
    name: str | None = None,
    max_seats: int | None = None,
    time_control: JsonObject | None = None,
    timeout_policy: JsonObject | None = None,
    best_of: int | None = None,
    aids: JsonObject | str | None = None,
    spectator_delay: JsonObject | None = None,
) -> LobbyJson:
    """Host only: change rules/preset, privacy, name, the number of seats, the time control,
    the time-out policy, the series length ``best_of``, the aid policy or the spectator delay
    (each left as it is when None; a delay of ``{}``: spectators see the match live again).

    Raises :class:`Forbidden`, :class:`ValidationFailed`, :class:`Conflict` (fewer seats than
    taken, started).
    """
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_host(row, player_id)
        require_open(row)
        values: LobbyChanges = {}
        if rules is not None or preset is not None:
            preset_name, options = _rules_from(preset, rules)
            values["preset"] = preset_name
            values["rules"] = options.to_json()
            await ratings.check_lobby(conn, row.rated, preset_name, row.seats, values["rules"])
        if time_control is not None or timeout_policy is not None or aids is not None:
            values["time_control"] = _new_control(row, time_control, timeout_policy, aids)
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
            values["max_seats"] = max_seats
            values["seats"] = seats
        row = await save(rt, conn, row, **values)
    return await announce(rt, row)
