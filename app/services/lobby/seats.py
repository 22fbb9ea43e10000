"""Seats of a lobby: join, leave, pick a colour; the host's kick and computer seats (add,
level, remove). Every change locks the lobby row, saves it with a new version and announces it
(:mod:`app.services.lobby.core`).
"""

from __future__ import annotations

from collections.abc import Callable

from app.bots import DEFAULT_LEVEL, LEVELS
from app.json_types import JsonObject
from app.services.errors import Conflict, NotFound, ValidationFailed
from app.services.lobby import queries as sql
from app.services.lobby.core import (
    COLOURS,
    announce,
    empty_seat,
    free_colour,
    lobby_json,
    lobby_presence,
    locked,
    player_name,
    require_host,
    require_open,
    save,
    seat_number,
)
from app.services.lobby.model import LobbyChanges, LobbyJson
from app.services.records import ratings
from app.services.runtime import Runtime


async def join(rt: Runtime, code: str, player_id: str) -> LobbyJson:
    """Take the first free seat (idempotent for a seated player). Raises :class:`NotFound`,
    :class:`Conflict` (full, started).
    """
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        if any(s["player"] == player_id for s in row.seats):
            return lobby_json(row, lobby_presence(rt, code))
        require_open(row)
        seats = [dict(s) for s in row.seats]
        free = next((s for s in seats if s["player"] is None and not s["bot"]), None)
        if free is None:
            raise Conflict("the lobby is full", reason="lobby_full")
        free.update(
            player=player_id, name=await player_name(conn, player_id), colour=free_colour(seats)
        )
        if await sql.is_bot_account(conn, player_id):
            free["bot_account"] = True  # shown as BOT; rated in the bots' pool
        await ratings.check_lobby(conn, row.rated, row.preset, seats)
        row = await save(rt, conn, row, seats=seats)
    return await announce(rt, row)


async def leave(rt: Runtime, code: str, player_id: str) -> LobbyJson:
    """Give up one's seat; a leaving host hands over to the next person (or closes the lobby).

    Raises :class:`NotFound`, :class:`Conflict` (not in this lobby, already started).
    """
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_open(row)
        seats = [dict(s) for s in row.seats]
        mine = next((s for s in seats if s["player"] == player_id), None)
        if mine is None:
            raise Conflict("you are not seated in this lobby", reason="not_in_lobby")
        mine.update(empty_seat(seat_number(mine)))
        values: LobbyChanges = {"seats": seats}
        if row.host_id == player_id:
            heir = next((p for s in seats if isinstance(p := s["player"], str)), None)
            if heir is None:
                values["status"] = "closed"
            else:
                values["host_id"] = heir
        row = await save(rt, conn, row, **values)
    return await announce(rt, row)


async def pick_colour(rt: Runtime, code: str, player_id: str, colour: str) -> LobbyJson:
    """Change one's colour to a free one. Raises :class:`ValidationFailed`, :class:`Conflict`."""
    if colour not in COLOURS:
        raise ValidationFailed(f"colours are {', '.join(COLOURS)}")
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_open(row)
        seats = [dict(s) for s in row.seats]
        mine = next((s for s in seats if s["player"] == player_id), None)
        if mine is None:
            raise Conflict("you are not seated in this lobby", reason="not_in_lobby")
        if mine["colour"] == colour:
            return lobby_json(row, lobby_presence(rt, code))
        if any(s["colour"] == colour for s in seats):
            raise Conflict(f"{colour} is taken", reason="colour_taken")
        mine["colour"] = colour
        row = await save(rt, conn, row, seats=seats)
    return await announce(rt, row)


async def _host_edits_seats(
    rt: Runtime, code: str, player_id: str, change: Callable[[list[JsonObject]], None]
) -> LobbyJson:
    """Host only, open lobby: apply ``change`` to a copy of the seats, save, announce.

    ``change`` raises a :class:`ServiceError` to refuse; then nothing is saved.
    """
    async with rt.storage.db.transaction() as conn:
        row = await locked(rt, conn, code)
        require_host(row, player_id)
        require_open(row)
        seats = [dict(s) for s in row.seats]
        change(seats)
        await ratings.check_lobby(conn, row.rated, row.preset, seats)
        row = await save(rt, conn, row, seats=seats)
    return await announce(rt, row)


async def kick(rt: Runtime, code: str, player_id: str, seat: int) -> LobbyJson:
    """Host only: empty ``seat`` (a person or a bot; not the host's own)."""

    def change(seats: list[JsonObject]) -> None:
        if not 0 <= seat < len(seats):
            raise ValidationFailed("no such seat", reason="no_such_seat")
        if seats[seat]["player"] == player_id:
            raise Conflict("the host cannot kick themself: leave instead", reason="kick_self")
        if seats[seat]["player"] is None and not seats[seat]["bot"]:
            raise Conflict("that seat is already empty", reason="seat_empty")
        seats[seat] = empty_seat(seat)

    return await _host_edits_seats(rt, code, player_id, change)


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValidationFailed(f"a computer level is one of {', '.join(LEVELS)}")
    return level


async def add_bot(rt: Runtime, code: str, player_id: str, level: str = DEFAULT_LEVEL) -> LobbyJson:
    """Host only: put a bot of ``level`` (easy, normal, strong) in the first free seat.
    Raises :class:`Conflict` when full, :class:`ValidationFailed` for an unknown level.
    """
    _check_level(level)

    def change(seats: list[JsonObject]) -> None:
        free = next((s for s in seats if s["player"] is None and not s["bot"]), None)
        if free is None:
            raise Conflict("the lobby is full", reason="lobby_full")
        number = sum(1 for s in seats if s["bot"]) + 1
        free.update(bot=True, name=f"Bot {number}", colour=free_colour(seats), level=level)

    return await _host_edits_seats(rt, code, player_id, change)


async def set_level(rt: Runtime, code: str, player_id: str, seat: int, level: str) -> LobbyJson:
    """Host only: the computer level of ``seat`` — for a bot, how it plays; for a person, how
    the computer plays for them if they leave the match (Normal unless set). Raises
    :class:`ValidationFailed` (level, seat), :class:`Conflict` (an empty seat).
    """
    _check_level(level)

    def change(seats: list[JsonObject]) -> None:
        if not 0 <= seat < len(seats):
            raise ValidationFailed("no such seat", reason="no_such_seat")
        if seats[seat]["player"] is None and not seats[seat]["bot"]:
            raise Conflict("that seat is empty", reason="seat_empty")
        seats[seat]["level"] = level

    return await _host_edits_seats(rt, code, player_id, change)


async def remove_bot(rt: Runtime, code: str, player_id: str, seat: int) -> LobbyJson:
    """Host only: remove the bot in ``seat``. Raises :class:`NotFound` when it holds none."""

    def change(seats: list[JsonObject]) -> None:
        if not 0 <= seat < len(seats) or not seats[seat]["bot"]:
            raise NotFound("no bot in that seat")
        seats[seat] = empty_seat(seat)

    return await _host_edits_seats(rt, code, player_id, change)
