"""The organiser's pause: hold every clock of a tournament's live matches, and release them.

Holding moves every running deadline of each match :data:`HOLD_MS` later with the clock's own
outage credit (:func:`app.services.clock.rules.credit`), through the clock's locked change
path (:func:`app.services.clock.requests.change_clock`), so nobody runs out of time while the
tournament is paused. Releasing takes the hold back and credits the pause's length instead:
a deadline still held comes back ``HOLD_MS - paused`` earlier, and a turn that started during
the pause (someone moved) is charged from the release, not from its start.

Moves are not refused during a pause and computer seats keep playing their turns; only time
stops: a turn that begins during the pause (someone moved, a new round was paired) is held by
the tournament sweep within seconds (:func:`keep_held`).
"""

from __future__ import annotations

from app.db.hot import MatchRow
from app.db.models import utcnow
from app.db.session import as_utc
from app.json_types import JsonObject, JsonValue
from app.services.clock import rules as c
from app.services.clock.clocks import now_ms
from app.services.clock.requests import change_clock
from app.services.errors import Conflict, Forbidden, NotFound, ServiceError
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.model import TournamentJson
from app.services.tournaments.reads import view
from app.services.tournaments.tournaments import announce

#: How far a pause moves every deadline: far beyond any pause (thirty days).
HOLD_MS = 30 * 24 * 3600 * 1000
_TIMES = ("since", "until", "turn_since")


async def set_paused(rt: Runtime, tid: str, host_id: str, paused: bool) -> TournamentJson:
    """Organiser: hold (``paused``) or release every clock of the tournament's live matches.
    A round paired during the pause is held by the sweep (:func:`keep_held`). Raises
    :class:`Forbidden`, :class:`NotFound`, :class:`Conflict` (not running).
    """
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None:
            raise NotFound("no such tournament")
        if t.host_id != host_id:
            raise Forbidden("only the organiser can do that")
        if t.status != "running":
            raise Conflict(
                "only a running tournament can be paused", reason="tournament_not_running"
            )
        if paused == (t.paused_at is not None):
            return await view(rt, tid, host_id)
        since = None if t.paused_at is None else as_utc(t.paused_at)
        await sql.update_tournament(
            conn, tid, {"paused_at": utcnow() if paused else None, "updated_at": utcnow()}
        )
        games = await sql.games(conn, tid)
        states = await sql.match_states(conn, [g.match_id for g in games if g.match_id])
    live = [mid for mid, m in states.items() if m.status == "live" and m.clock is not None]
    start_ms = int(since.timestamp() * 1000) if since else now_ms()

    def change(clock: JsonObject, _row: MatchRow) -> JsonObject:
        return hold(clock) if paused else release(clock, start_ms, now_ms())

    for mid in live:
        try:
            await change_clock(rt, mid, change)
        except ServiceError:  # ended meanwhile: nothing to hold
            continue
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def keep_held(rt: Runtime, tid: str) -> int:
    """While tournament ``tid`` is paused, hold the clocks that run again (a move or a new
    match since the pause). Returns how many were held. Called by the tournament sweep.
    """
    async with rt.storage.db.reading() as conn:
        games = await sql.games(conn, tid)
        states = await sql.match_states(conn, [g.match_id for g in games if g.match_id])
    now = now_ms()
    held = 0
    for mid, m in states.items():
        if m.status != "live" or m.clock is None:
            continue
        due = c.deadline(c.typed(m.clock))
        if due is None or due > now + HOLD_MS // 2:
            continue
        try:
            await change_clock(rt, mid, lambda clock, _row: _hold_if_running(clock))
            held += 1
        except ServiceError:
            continue
    return held


def _hold_if_running(clock: JsonObject) -> JsonObject:
    due = c.deadline(c.typed(clock))
    return clock if due is None or due > now_ms() + HOLD_MS // 2 else hold(clock)


def hold(clock: JsonObject) -> JsonObject:
    """The clock with every running deadline :data:`HOLD_MS` later."""
    return c.credit(clock, HOLD_MS)


def release(clock: JsonObject, paused_at_ms: int, now: int) -> JsonObject:
    """The clock of a paused match released at ``now`` (epoch ms) after a pause that began at
    ``paused_at_ms``: held times come back by ``HOLD_MS`` minus the pause, times that started
    during the pause start at ``now``.
    """
    back = HOLD_MS - max(0, now - paused_at_ms)

    def fix_object(value: JsonObject) -> JsonObject:
        return {k: fix(v, k) for k, v in value.items()}

    def fix(value: JsonValue, key: str | None) -> JsonValue:
        if isinstance(value, dict):
            return fix_object(value)
        if isinstance(value, list):
            return [fix(v, None) for v in value]
        if key in _TIMES and isinstance(value, int) and not isinstance(value, bool):
            if value > now + HOLD_MS // 2:
                back_at = value - back
                return back_at if key == "until" else min(back_at, now)
            if key != "until" and paused_at_ms < value <= now:
                return now
        return value

    return fix_object(clock)
