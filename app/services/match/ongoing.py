"""The caller's ongoing matches for the start screen: "your turn" first, with the time left.

Reads only the match rows' public columns (names, seats, whose turn, the clock) of the live
matches the caller holds a seat in (``match_players``); never a snapshot, the deck or another
player's secrets. Correspondence players come back to this list days later, so it answers
which matches wait for them and how long they have.
"""

from __future__ import annotations

from typing import TypedDict

from app.json_types import JsonObject
from app.services.clock import clocks
from app.services.clock import rules as c
from app.services.match import queries
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime

#: At most this many ongoing matches are listed (the most urgent and recent ones).
LIMIT = 50
#: Rows read to choose them from (a player seated in more live matches sees the newest).
SCAN = 200


class Ongoing(TypedDict):
    """One ongoing match of the list (docs/API.md § Identity, ``GET /api/me/matches``)."""

    id: str
    name: str | None
    host_name: str | None
    private: bool
    seat: int
    to_act: int | None
    your_turn: bool
    turn: int
    seats: list[JsonObject]
    time_control: JsonObject
    time_label: str
    correspondence: bool
    remaining: int | None
    deadline: int | None
    auto: bool
    updated_at: str | None


class OngoingList(TypedDict):
    """``GET /api/me/matches``: the server's time (ms) and the matches."""

    server_now: int
    matches: list[Ongoing]


def _entry(row: queries.SeatedMatch, now: int) -> Ongoing:
    seat = row.seat
    clock = None if not row.clock else c.typed(row.clock)
    control = clock.control if clock else c.TimeControl()
    auto = bool(clock and clock.auto[seat])
    to_act = row.seat_to_act
    mine_running = clock is not None and clock.running is not None and clock.running.seat == seat
    return {
        "id": row.id,
        "name": row.name,
        "host_name": match_host_name(row.seats, row.clock),
        "private": bool(row.private),
        "seat": seat,
        "to_act": to_act,
        "your_turn": to_act == seat and not auto,
        "turn": int(row.turn),
        "seats": [
            {"seat": s["seat"], "name": s["name"], "colour": s["colour"], "bot": bool(s["bot"])}
            for s in row.seats
        ],
        "time_control": control.to_json(),
        "time_label": control.label(),
        "correspondence": control.kind == "correspondence",
        "remaining": c.time_left(clock, seat, now) if clock and control.timed else None,
        "deadline": c.deadline(clock) if clock and mine_running else None,
        "auto": auto,
        "updated_at": row.updated_at.isoformat() if row.updated_at else None,
    }


def _order(entry: Ongoing) -> tuple[int, float]:
    """Your turn first, the nearest deadline first among them (untimed last). The sort is
    stable, so ties keep the query's order: latest activity first.
    """
    if entry["your_turn"]:
        return (0, entry["deadline"] if entry["deadline"] is not None else float("inf"))
    return (1, 0.0)


async def my_matches(rt: Runtime, player_id: str) -> OngoingList:
    """``{"server_now", "matches": [...]}``: the live matches ``player_id`` is seated in,
    "your turn" ones first (nearest deadline first), then the others by latest activity, at
    most :data:`LIMIT` (docs/API.md § Identity, ``GET /api/me/matches``).
    """
    async with rt.storage.db.reading() as conn:
        rows = await queries.seated_live_matches(conn, player_id, SCAN)
    now = clocks.now_ms()
    entries = sorted((_entry(r, now) for r in rows), key=_order)
    return {"server_now": now, "matches": entries[:LIMIT]}
