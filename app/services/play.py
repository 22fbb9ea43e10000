"""Playing a match: the one write path (:func:`submit_action`), bot turns, reads of a match.

The life of a move (ARCHITECTURE.md): lock the match row (``SELECT … FOR UPDATE`` on Postgres,
plus this instance's per-match lock), check seat, client action id, status and version, apply
with the engine, append the action to ``match_actions`` (unique ``(match_id, seq)``) and update
the match row in one transaction, commit, and only then hand the batch to local sockets and
publish it on the broker. The engine state is cached per instance and trusted only when its
version equals the locked row's; a snapshot (``GameState.to_json()``) is written every
``snapshot_every`` actions and at the end, so a rebuild replays a bounded tail of the log.

Nothing secret leaves here: frames carry ``view()`` and event JSON, never ``to_json()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import random
import time
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from app.bots import DEFAULT_LEVEL, choose_action
from app.db.models import match_actions, matches, utcnow
from app.engine import (
    DEPLOY,
    PLAGUE,
    EngineError,
    GameOver,
    GameState,
    InvalidAction,
    action_from_json,
    apply_in_place,
    event_to_json,
    export_record,
    legal_actions,
    view,
)
from app.engine.actions import Action
from app.engine.scoring import final_scoring
from app.realtime.hub import Connection, Hub
from app.realtime.protocol import (
    broker_message,
    dumps,
    events_frame,
    presence_frame,
    snapshot_frame,
)
from app.services import clocks, history
from app.services.cache import Live
from app.services.errors import Conflict, Forbidden, NotFound, NotSeated, StaleVersion
from app.services.runtime import Runtime
from app.services.store import DUPLICATE, MatchRow, SqlTx, Tx, write_tx

log = logging.getLogger(__name__)

#: A seat seen connected this recently is not abandoned (heartbeats refresh every 15 s).
PRESENT_WINDOW = timedelta(seconds=45)


@dataclass(frozen=True)
class Applied:
    """The result of one applied action: the new ``version``, the acting ``seat``, the client
    ``action_id`` and the events as JSON text (``events`` decodes it)."""

    version: int
    seat: int
    action_id: str | None
    events_json: str
    #: ``"computer"`` when the computer chose the action for a person's seat.
    by: str | None = None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The engine events of the batch (JSON form)."""
        value: list[dict[str, Any]] = json.loads(self.events_json)
        return value


# ---------------------------------------------------------------------- loading


async def _load_live(tx: Tx, row: MatchRow) -> Live:
    """Rebuild a match's engine state from its snapshot and the action log after it."""
    state = GameState.from_json(await tx.snapshot(row.id))
    version = row.snapshot_version
    for seq, raw in await tx.actions_after(row.id, row.snapshot_version):
        if seq != version + 1:
            raise RuntimeError(f"match {row.id}: action log jumps from {version} to {seq}")
        apply_in_place(state, action_from_json(json.loads(raw)))
        version = seq
    if version != row.version:
        raise RuntimeError(f"match {row.id}: log ends at {version}, row says {row.version}")
    return Live(
        match_id=row.id, version=version, state=state, seats=list(row.seats), name=row.name,
        private=row.private, lobby_code=row.lobby_code,
    )


async def _live_for(rt: Runtime, tx: Tx, row: MatchRow) -> Live:
    """The cached state if it is at the row's version, else a rebuild (cached)."""
    live = rt.cache.get(row.id)
    if live is not None and live.version == row.version:
        live.clock = row.clock
        return live
    live = await _load_live(tx, row)
    live.clock = row.clock
    rt.cache.put(live)
    return live


# ---------------------------------------------------------------------- the write path


def _next_bot_at(rt: Runtime, live: Live, actor_is_bot: bool, actor: int) -> datetime | None:
    state = live.state
    if state.is_over:
        return None
    now = utcnow()
    seat = live.seats[state.seat]
    if (seat.get("bot") or clocks.is_auto(live.clock, state.seat)
            or (actor_is_bot and state.seat == actor and state.phase == DEPLOY)):
        return now + timedelta(seconds=rt.settings.bot_delay)
    if state.phase == PLAGUE:  # a person's Plague decision: a bot chooses after the timeout
        return now + timedelta(seconds=rt.settings.plague_timeout)
    return now + timedelta(seconds=rt.settings.abandon_after)


async def _apply_and_store(
    rt: Runtime, tx: Tx, live: Live, seat: int, action: Action,
    client_id: str | None, actor_is_bot: bool, by: str | None = None, timed_out: bool = False,
) -> Applied:
    """Apply ``action`` to the cached state and write it; the caller commits.

    ``by``: ``"computer"`` when the computer chose for a person (``timed_out``: because the
    clock ran out). On an engine error nothing changed. On any later error the cache entry is
    dropped.
    """
    old = live.version
    active_before = live.state.active
    live.version = -1  # being changed: never trusted until the commit succeeded
    try:
        events = apply_in_place(live.state, action)
    except EngineError:
        live.version = old
        raise
    except Exception:
        rt.cache.drop(live.match_id)
        raise
    try:
        new_v = old + 1
        state = live.state
        events_json = dumps([event_to_json(e) for e in events])
        now = utcnow()
        await tx.append_action(live.match_id, new_v, seat, client_id,
                               dumps(action.to_json()), events_json, now, by)
        clock, clock_due = clocks.after_action(live.clock, state, seat, active_before, by,
                                               timed_out)
        values: dict[str, Any] = {
            "version": new_v,
            "seat_to_act": None if state.is_over else state.seat,
            "turn": state.turn,
            "scores": list(state.scores),
            "updated_at": now,
            "next_bot_at": clocks.earliest(_next_bot_at(rt, live, actor_is_bot, seat), clock_due)
            if not state.is_over else None,
        }
        if clock is not None:
            values["clock"] = live.clock = clock
        if state.is_over:
            values.update(status="finished", finished_at=now, snapshot=state.to_json(),
                          snapshot_version=new_v)
        elif new_v % rt.settings.snapshot_every == 0:
            values.update(snapshot=state.to_json(), snapshot_version=new_v)
        await tx.update_match(live.match_id, values)
    except Exception:
        rt.cache.drop(live.match_id)
        raise
    return Applied(new_v, seat, client_id, events_json, by)


async def _previous_result(
    rt: Runtime, match_id: str, seat: int, client_id: str
) -> Applied | None:
    async with rt.db.reading() as conn:
        row = (await conn.execute(
            select(match_actions.c.seq, match_actions.c.events).where(
                match_actions.c.match_id == match_id, match_actions.c.seat == seat,
                match_actions.c.client_id == client_id,
            )
        )).first()
    return None if row is None else Applied(row.seq, seat, client_id, row.events)


def _after_commit(rt: Runtime, live: Live, applied: Applied) -> str:
    """Mark the cache current, build the batch frame and hand it to local sockets."""
    live.version = applied.version
    if applied.action_id is not None:
        live.remember(applied.seat, applied.action_id, applied.version, applied.events_json)
    state = live.state
    live.view = view(state, state.seat)
    frame = events_frame(applied.version, applied.seat, applied.action_id,
                         applied.events_json, live.view, by=applied.by,
                         clock=clocks.public(live.clock))
    hub = rt.hubs.get(rt.channel("match", live.match_id))
    if hub is not None:
        hub.deliver(applied.version, frame)
    if state.is_over:
        rt.metrics.matches_live.dec()
        rt.spawn(history.match_finished(rt, live.match_id))  # history + ratings (issue 15)
    return frame


async def _publish(rt: Runtime, match_id: str, version: int, frame: str) -> None:
    ok = await rt.broker.publish(
        rt.channel("match", match_id),
        broker_message(rt.broker.instance_id, "batch", version, frame),
    )
    if not ok:
        rt.metrics.publish_failures.inc()


async def submit_action(
    rt: Runtime,
    match_id: str,
    player_id: str | None,
    version: int,
    client_id: str | None,
    data: Any,
) -> Applied:
    """Apply one action of ``player_id`` to a match — the only way a match changes.

    ``version``: the match version the client acted on; ``client_id``: its action id (a
    repeat returns the first result, nothing is applied twice); ``data``: the engine action
    JSON without ``seat`` (the seat comes from the player). Returns :class:`Applied`.

    Raises, checked in this order: :class:`NotFound`, :class:`NotSeated`, ``GameOver`` (match
    finished), :class:`StaleVersion`, then the engine's errors (``invalid_action``,
    ``not_your_turn``, ``wrong_phase``, ``illegal_placement``, ``illegal_follower``).
    """
    started = time.perf_counter()
    if not isinstance(data, dict):
        raise InvalidAction("an action must be a JSON object")
    seat: int | None = None
    async with rt.cache.lock(match_id):
        try:
            async with write_tx(rt.db) as tx:
                row = await tx.lock_match(match_id)
                if row is None:
                    raise NotFound("no such match")
                live = rt.cache.get(match_id)
                seats = live.seats if live is not None else row.seats
                seat = next((int(s["seat"]) for s in seats
                             if player_id is not None and s.get("player") == player_id), None)
                if seat is None:
                    raise NotSeated("you hold no seat in this match")
                if client_id is not None:
                    done = live.recent.get((seat, client_id)) if live is not None else None
                    if done is not None:
                        return Applied(done[0], seat, client_id, done[1])
                    if version != row.version:
                        previous = await _previous_result(rt, match_id, seat, client_id)
                        if previous is not None:
                            return previous
                if row.status != "live":
                    raise GameOver("the match is over")
                if version != row.version:
                    raise StaleVersion(
                        f"the match is at version {row.version}, not {version}", row.version)
                live = await _live_for(rt, tx, row)
                action = action_from_json({**data, "seat": seat})
                applied = await _apply_and_store(rt, tx, live, seat, action, client_id, False)
        except DUPLICATE:
            rt.cache.drop(match_id)
            if client_id is not None and seat is not None:
                previous = await _previous_result(rt, match_id, seat, client_id)
                if previous is not None:
                    return previous
            raise Conflict("the match changed meanwhile; fetch it again") from None
        except (EngineError, StaleVersion, NotSeated, NotFound) as exc:
            rt.metrics.rejected.labels(getattr(exc, "code", "error")).inc()
            raise
        frame = _after_commit(rt, live, applied)
    rt.metrics.actions.labels("player").inc()
    rt.metrics.action_latency.observe(time.perf_counter() - started)
    # Not awaited: local sockets already have the batch; a slow or dead broker must not
    # delay the answer (the log is the truth and other instances fill gaps from it).
    rt.spawn(_publish(rt, match_id, applied.version, frame))
    _schedule_bot(rt, match_id, live)
    return applied


# ---------------------------------------------------------------------- bots


def _schedule_bot(rt: Runtime, match_id: str, live: Live) -> None:
    """If a bot moves next, play it here after ``bot_delay`` (the sweep is the fallback)."""
    state = live.state
    if state.is_over or not (live.seats[state.seat].get("bot")
                             or clocks.is_auto(live.clock, state.seat)):
        return

    rt.spawn(_play_later(rt, match_id))


async def play_due_turn(rt: Runtime, match_id: str) -> bool:
    """Play one action for a bot seat (or for a person's seat, by the computer) whose turn is
    due, and settle what else is due on the match's clock (leave countdowns, votes).

    Driven by database state: takes the match row with ``FOR UPDATE SKIP LOCKED`` only if
    ``next_bot_at`` has passed, so any instance may do it and only one does; what to do is
    decided under that lock by :func:`app.services.clocks.verdict` (a clock that ran out, a
    seat handed to the computer, an off-turn decision past ``plague_timeout``, a turn abandoned
    without a trace). Returns True when an action was applied.
    """
    started = time.perf_counter()
    advice = await bot_advice(rt, match_id)  # thought in a worker, before any lock is taken
    async with rt.cache.lock(match_id):
        async with write_tx(rt.db) as tx:
            now = utcnow()
            row = await tx.lock_match(match_id, skip_locked=True, due_before=now)
            if row is None:
                return False
            live = await _live_for(rt, tx, row)
            state = live.state
            seat = state.seat
            what, clock, due = await clocks.verdict(rt, tx, match_id, state, live.seats,
                                                    live.clock, PRESENT_WINDOW)
            changed = clock != live.clock
            live.clock = clock
            applied: Applied | None = None
            if what == "end":
                await _end_early(rt, tx, live)
            elif what == "wait":
                values: dict[str, Any] = {"next_bot_at": due}
                if changed:
                    values["clock"] = clock
                await tx.update_match(match_id, values)
            else:
                if advice is not None and advice[0] != row.version:
                    return False  # the match moved on while the bot thought: think again later
                if changed:
                    await tx.update_match(match_id, {"clock": clock})
                action = advice[1] if advice is not None else choose_action(
                    state, random.Random(f"{match_id}:{row.version}"))
                by = None if what == "bot" else clocks.BY_COMPUTER
                if by is not None and state.phase != PLAGUE:
                    rt.spawn(history.seat_taken_over(rt, match_id, seat))  # ratings: a leaver
                applied = await _apply_and_store(rt, tx, live, seat, action, None, True, by,
                                                 what == "timeout")
        if what == "end":
            rt.cache.drop(match_id)
        elif applied is None:
            if changed:
                clocks.announce(rt, match_id, clocks.clock_frame(clock, row.version))
            return False
        else:
            frame = _after_commit(rt, live, applied)
    if what == "end":
        await _announce_end(rt, match_id)
        return False
    assert applied is not None
    rt.metrics.actions.labels("bot").inc()
    rt.metrics.action_latency.observe(time.perf_counter() - started)
    # Not awaited: local sockets already have the batch; a slow or dead broker must not
    # delay the answer (the log is the truth and other instances fill gaps from it).
    rt.spawn(_publish(rt, match_id, applied.version, frame))
    if not live.state.is_over:
        if live.seats[live.state.seat].get("bot") or clocks.is_auto(live.clock, live.state.seat):
            _schedule_bot(rt, match_id, live)
        elif live.state.seat == seat and what != "wait":  # the computer finishes the turn
            rt.spawn(_play_later(rt, match_id))
    return True


async def bot_advice(rt: Runtime, match_id: str) -> tuple[int, Action] | None:
    """``(version, action)`` the computer would play for the seat to act (at its seat's
    ``level``, default Normal), thought out in the bot worker pool; None when finished."""
    live = await current(rt, match_id)
    state, version = live.state, live.version
    if state.is_over or not legal_actions(state):
        return None
    level = str(live.seats[state.seat].get("level") or DEFAULT_LEVEL)
    seed = zlib.crc32(f"{match_id}:{version}".encode())
    actions = await rt.bots.decide(match_id, version, state, level, seed)
    return version, actions[0]


async def _end_early(rt: Runtime, tx: Tx, live: Live) -> None:
    """End a match now (a leave vote chose it): final scoring of the current position
    (RULES.md §4.2–4.4) stored as the last snapshot at the current version; the clock says
    ``ended_early``. The caller holds the row lock and drops the cache entry after the commit."""
    final = live.state.copy()
    events: list[Any] = []
    final_scoring(final, events)
    now = utcnow()
    clock = dict(live.clock or {}, ended_early=True, running=None, vote=None, away={})
    await tx.update_match(live.match_id, {
        "status": "finished", "finished_at": now, "updated_at": now, "seat_to_act": None,
        "scores": list(final.scores), "snapshot": final.to_json(),
        "snapshot_version": live.version, "next_bot_at": None, "clock": clock})
    live.version = -1  # never trusted again: the next read rebuilds from the final snapshot


async def _announce_end(rt: Runtime, match_id: str) -> None:
    """After an early end committed: a snapshot frame (the final position) to every socket."""
    live = await current(rt, match_id)
    rt.metrics.matches_live.dec()
    clocks.announce(rt, match_id, snapshot_frame(live.version, match_json(rt, live, None)))


async def _play_later(rt: Runtime, match_id: str) -> None:
    await asyncio.sleep(rt.settings.bot_delay + 0.005)
    await play_due_turn(rt, match_id)


async def due_matches(rt: Runtime, limit: int = 50) -> list[str]:
    """Ids of live matches whose bot (or abandoned) turn is due, oldest first."""
    async with rt.db.reading() as conn:
        result = await conn.execute(
            select(matches.c.id)
            .where(matches.c.status == "live", matches.c.next_bot_at <= utcnow())
            .order_by(matches.c.next_bot_at)
            .limit(limit)
        )
        return [r[0] for r in result]


# ---------------------------------------------------------------------- reads


def can_watch(live_private: bool, seats: list[dict[str, Any]], lobby_code: str,
              player_id: str | None, code: str | None) -> bool:
    """A public match is open to all; a private one to its seats and holders of its code."""
    if not live_private:
        return True
    if player_id is not None and any(s.get("player") == player_id for s in seats):
        return True
    return code is not None and hmac.compare_digest(code.encode(), lobby_code.encode())


async def current(rt: Runtime, match_id: str) -> Live:
    """The match at its latest committed version (hold nothing: read fields right away).

    Raises :class:`NotFound`.
    """
    async with rt.cache.lock(match_id):
        live = await _current_locked(rt, match_id)
        if live.view is None:
            live.view = view(live.state, live.state.seat)
        return live


def _status(live: Live) -> str:
    return "finished" if live.state.is_over else "live"


def presence_of(rt: Runtime, match_id: str) -> tuple[set[str], int]:
    """Seats (as text) connected anywhere and the spectator count, as this instance knows."""
    hub = rt.hubs.get(rt.channel("match", match_id))
    return hub.presence() if hub is not None else (set(), 0)


def match_json(rt: Runtime, live: Live, you: int | None) -> dict[str, Any]:
    """The Match JSON of docs/API.md (``state`` is the view of the seat to act)."""
    keys, spectators = presence_of(rt, live.match_id)
    return {
        "id": live.match_id,
        "name": live.name,
        "private": live.private,
        "status": _status(live),
        "version": live.version,
        "seats": [
            {"seat": s["seat"], "name": s["name"], "colour": s["colour"], "bot": s["bot"],
             "connected": bool(s["bot"]) or str(s["seat"]) in keys}
            for s in live.seats
        ],
        "you": you,
        "spectators": spectators,
        "lobby_code": live.lobby_code,
        "plague_timeout": rt.settings.plague_timeout,
        "leave_grace": rt.settings.leave_grace,
        "clock": clocks.public(live.clock),
        "state": live.view,
    }


async def get_match(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> dict[str, Any]:
    """Match JSON for a reader; raises :class:`NotFound`, :class:`Forbidden` (private)."""
    live = await current(rt, match_id)
    if not can_watch(live.private, live.seats, live.lobby_code, player_id, code):
        raise Forbidden("this match is private: open it with its invite code")
    return match_json(rt, live, live.seat_of(player_id))


async def batches_since(
    rt: Runtime, match_id: str, since: int, upto: int | None = None
) -> list[dict[str, Any]]:
    """``[{"v", "seat", "action_id", "events", "by"}]`` after ``since`` (up to ``upto``),
    in order."""
    query = (
        select(match_actions.c.seq, match_actions.c.seat, match_actions.c.client_id,
               match_actions.c.events, match_actions.c.by)
        .where(match_actions.c.match_id == match_id, match_actions.c.seq > since)
        .order_by(match_actions.c.seq)
    )
    if upto is not None:
        query = query.where(match_actions.c.seq <= upto)
    async with rt.db.reading() as conn:
        rows = (await conn.execute(query)).all()
    return [{"v": r.seq, "seat": r.seat, "action_id": r.client_id, "events": r.events,
             "by": r.by} for r in rows]


async def events_since(
    rt: Runtime, match_id: str, since: int, player_id: str | None, code: str | None
) -> dict[str, Any]:
    """``{"version", "batches": [{"v", "seat", "action_id", "events"}]}`` after ``since``;
    from the start (``since`` 0) also ``"opening"``: the events of the setup (the first draw,
    and with the Wheel of Fortune the pig's first move), which belong to no action.

    Raises :class:`NotFound`, :class:`Forbidden`.
    """
    live = await current(rt, match_id)
    if not can_watch(live.private, live.seats, live.lobby_code, player_id, code):
        raise Forbidden("this match is private: open it with its invite code")
    batches = await batches_since(rt, match_id, since)
    for b in batches:
        b["events"] = json.loads(b["events"])
    version = max([live.version, *(b["v"] for b in batches)])
    out: dict[str, Any] = {"version": version, "batches": batches}
    if since == 0:
        out["opening"] = [event_to_json(e) for e in live.state.opening_events]
    return out


async def record(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> dict[str, Any]:
    """The ``carcassonne-record/1`` of a match (only the tiles drawn so far while live)."""
    async with rt.cache.lock(match_id):
        live = await _current_locked(rt, match_id)
        if not can_watch(live.private, live.seats, live.lobby_code, player_id, code):
            raise Forbidden("this match is private: open it with its invite code")
        out = export_record(live.state)
        actions = list(live.state.actions)
        clock = live.clock
    async with rt.db.reading() as conn:
        computer = {int(r[0]) for r in await conn.execute(
            select(match_actions.c.seq).where(match_actions.c.match_id == match_id,
                                              match_actions.c.by.is_not(None)))}
    return clocks.annotate_record(out, actions, computer, clock)


async def _current_locked(rt: Runtime, match_id: str) -> Live:
    """The latest committed match (the caller holds the match's lock)."""
    async with rt.db.reading() as conn:
        reader = SqlTx(conn, postgres=False)  # a plain read: no row lock
        row = await reader.lock_match(match_id)
        if row is None:
            raise NotFound("no such match")
        return await _live_for(rt, reader, row)


async def fetch_frames(
    rt: Runtime, match_id: str, after: int, upto: int | None
) -> list[tuple[int, str]]:
    """Frames a socket or hub missed after ``after``: batches (the last one carrying the
    current view when it is the latest), or one snapshot frame when too far behind."""
    live = await current(rt, match_id)
    latest = live.version
    if upto is None and (latest - after > rt.settings.max_catch_up or after > latest):
        return [(latest, snapshot_frame(latest, match_json(rt, live, None)))]
    batches = await batches_since(rt, match_id, after, upto)
    frames: list[tuple[int, str]] = []
    for b in batches:
        last = b["v"] == latest
        frames.append((b["v"], events_frame(
            b["v"], b["seat"], b["action_id"], b["events"], live.view if last else None,
            by=b["by"], clock=clocks.public(live.clock) if last else None)))
    return frames


# ---------------------------------------------------------------------- sockets


def match_hub_factory(rt: Runtime, match_id: str, seats: list[dict[str, Any]]) -> Hub:
    """A hub for a match channel: ordered batches, gap-filled from the log, seat presence
    (bots always count as connected)."""

    async def fetch(after: int, upto: int | None) -> list[tuple[int, str]]:
        return await fetch_frames(rt, match_id, after, upto)

    bots = {str(s["seat"]) for s in seats if s.get("bot")}

    def render(keys: set[str], spectators: int) -> str:
        return presence_frame(
            [{"seat": i, "connected": str(i) in keys or str(i) in bots}
             for i in range(len(seats))], spectators)

    return Hub(rt.hubs, rt.channel("match", match_id), ordered=True, fetch=fetch,
               render_presence=render)


async def open_match_socket(
    rt: Runtime, socket: Any, match_id: str, player_id: str | None, code: str | None,
    since: int | None,
) -> tuple[Hub, Connection, int | None]:
    """Register a websocket on a match and send its first frames (snapshot or catch-up).

    Returns ``(hub, connection, seat)``; raises :class:`NotFound`, :class:`Forbidden`.
    """
    live = await current(rt, match_id)
    if not can_watch(live.private, live.seats, live.lobby_code, player_id, code):
        raise Forbidden("this match is private: open it with its invite code")
    seat = live.seat_of(player_id)
    seats = live.seats
    hub = await rt.hubs.acquire(rt.channel("match", match_id),
                                lambda: match_hub_factory(rt, match_id, seats))

    async def fetch(after: int, upto: int | None) -> list[tuple[int, str]]:
        return await fetch_frames(rt, match_id, after, upto)

    conn = Connection(socket, None if seat is None else str(seat), fetch)
    hub.add(conn)
    if seat is not None:
        await touch_seats(rt, match_id, [seat])
        if clocks.is_away(live.clock, seat):
            await clocks.seat_presence_changed(rt, match_id, seat, present=True)
    try:
        if since is None:
            live = await current(rt, match_id)
            frames = [(live.version, snapshot_frame(live.version, match_json(rt, live, seat)))]
        else:
            frames = await fetch_frames(rt, match_id, since, None)
            if frames and json.loads(frames[0][1]).get("t") == "snapshot":
                live = await current(rt, match_id)
                frames = [(live.version,
                           snapshot_frame(live.version, match_json(rt, live, seat)))]
        sent = since if since is not None else -1
        for v, text in frames:
            await socket.send_text(text)
            sent = max(sent, v)
        hub.note_version(sent)
        conn.start(sent)
    except Exception:
        await rt.hubs.release(hub, conn)
        raise
    return hub, conn, seat


async def touch_seats(rt: Runtime, match_id: str, seats: list[int], gone: bool = False) -> None:
    """Record that ``seats`` of a match are connected now (``seat_presence``); ``gone``: that
    they just left (their last socket here closed), so the bot sweep need not wait."""
    await touch_many(rt, [(match_id, seat) for seat in seats], gone)


async def touch_many(rt: Runtime, seats: list[tuple[str, int]], gone: bool = False) -> None:
    """:func:`touch_seats` for ``(match_id, seat)`` pairs of any matches, in one statement."""
    if not seats:
        return
    now = utcnow() - (PRESENT_WINDOW + timedelta(seconds=1) if gone else timedelta(0))
    pairs = sorted(set(seats))
    with contextlib.suppress(*DUPLICATE):  # DUPLICATE covers FK errors: the match was deleted
        async with write_tx(rt.db) as tx:
            await tx.touch_presence(pairs, now)
