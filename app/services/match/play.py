"""Playing a match: the one write path (:func:`submit_action`) and bot turns.

The life of a move (ARCHITECTURE.md). The usual case is one round trip to Postgres: this
instance holds the match's lock and a cached engine state at the version the client acted on;
the engine applies the action to it, and one statement (:func:`app.db.hot.append_fast`) bumps
the match row's version *if it is still that version* and appends the log row. Otherwise —
no cached state, the cache behind, the statement finding another version, a repeated client
action id, a bot's turn — the locked path runs: ``SELECT … FOR UPDATE``, check seat, action
id, status and version, apply, append, update, commit.

After the commit, :func:`_after_commit` is the one tail of every move: mark the cache current,
encode the batch frame once, hand it to this instance's sockets directly, publish it for the
other instances (retried; the log is the outbox, see :mod:`app.services.match.delivery`), schedule a
bot. A snapshot (``GameState.to_json()``) is written every ``snapshot_every`` actions and at
the end, so a rebuild replays a bounded tail of the log.

Reads live in :mod:`app.services.match.reads`, sockets and presence in
:mod:`app.services.match.sockets`.
Nothing secret leaves here: frames carry event JSON and ``view_delta()``, never ``to_json()``.
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import orjson

from app.bots import DEFAULT_LEVEL, choose_action
from app.db.hot import DUPLICATE, Tx, append_fast, previous_result, write_tx
from app.db.hot import due_matches as _due_matches
from app.db.models import utcnow
from app.engine import (
    DEPLOY,
    PLAGUE,
    EngineError,
    GameOver,
    InvalidAction,
    action_from_json,
    apply_in_place,
    event_to_json,
    legal_actions,
)
from app.engine.actions import Action
from app.engine.events import Event
from app.engine.scoring import final_scoring
from app.engine.view import view_delta
from app.realtime.protocol import dumps, events_frame, snapshot_frame
from app.services.cache import Live
from app.services.clock import clocks
from app.services.errors import Conflict, NotFound, NotSeated, StaleVersion
from app.services.match.delivery import after_commit_hook, publish_batch
from app.services.match.reads import current, live_for, match_json
from app.services.match.sockets import PRESENT_WINDOW
from app.services.records import history
from app.services.runtime import Runtime


@dataclass(frozen=True)
class Applied:
    """The result of one applied action: the new ``version``, the acting ``seat``, the client
    ``action_id`` and the events as JSON text (``events`` decodes it).
    """

    version: int
    seat: int
    action_id: str | None
    events_json: str
    #: ``"computer"`` when the computer chose the action for a person's seat.
    by: str | None = None
    #: The engine events themselves (for the view delta; empty for a repeated action id).
    engine_events: tuple[Event, ...] = field(default=(), compare=False, repr=False)
    #: Written as published: no other instance listens to the match, nothing to broadcast.
    published: bool = field(default=False, compare=False)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The engine events of the batch (JSON form)."""
        value: list[dict[str, Any]] = orjson.loads(self.events_json)
        return value


# ---------------------------------------------------------------------- the write path


def _next_bot_at(rt: Runtime, live: Live, actor_is_bot: bool, actor: int) -> datetime | None:
    state = live.state
    if state.is_over:
        return None
    now = utcnow()
    seat = live.seats[state.seat]
    if (
        seat.get("bot")
        or clocks.is_auto(live.clock, state.seat)
        or (actor_is_bot and state.seat == actor and state.phase == DEPLOY)
    ):
        return now + timedelta(seconds=rt.settings.bot_delay)
    if state.phase == PLAGUE:  # a person's Plague decision: a bot chooses after the timeout
        return now + timedelta(seconds=rt.settings.plague_timeout)
    return now + timedelta(seconds=rt.settings.abandon_after)


def _row_values(
    rt: Runtime,
    live: Live,
    new_v: int,
    now: datetime,
    actor_is_bot: bool,
    seat: int,
    active_before: int,
    by: str | None,
    timed_out: bool,
) -> dict[str, Any]:
    """The match-row columns a move sets, in the same statement/transaction as its log row.

    Per-action columns go here (their names in :data:`app.db.hot.UPDATABLE`): the match clock
    (issue 13, :func:`app.services.clock.clocks.after_action`) is written with every action and set
    on ``live`` (``active_before``: the turn's holder before the action; ``by``/``timed_out``
    as in :func:`_apply_and_store`), and its next due time folds into ``next_bot_at``.
    """
    state = live.state
    clock, clock_due = clocks.after_action(live.clock, state, seat, active_before, by, timed_out)
    values: dict[str, Any] = {
        "version": new_v,
        "seat_to_act": None if state.is_over else state.seat,
        "turn": state.turn,
        "scores": list(state.scores),
        "updated_at": now,
        "next_bot_at": clocks.earliest(_next_bot_at(rt, live, actor_is_bot, seat), clock_due)
        if not state.is_over
        else None,
    }
    if clock is not None:
        values["clock"] = live.clock = clock
    if state.is_over:
        values.update(
            status="finished", finished_at=now, snapshot=state.to_json(), snapshot_version=new_v
        )
    elif new_v % rt.settings.snapshot_every == 0:
        values.update(snapshot=state.to_json(), snapshot_version=new_v)
    return values


async def _apply_and_store(
    rt: Runtime,
    tx: Tx | None,
    live: Live,
    seat: int,
    action: Action,
    client_id: str | None,
    actor_is_bot: bool,
    by: str | None = None,
    timed_out: bool = False,
) -> Applied | None:
    """Apply ``action`` to the cached state and write it: inside ``tx`` (the caller commits),
    or with ``tx`` None as one optimistic statement — None then means the row was no longer at
    the cached version and clock (nothing written, the cache entry dropped).

    ``by``: ``"computer"`` when the computer chose for a person (``timed_out``: because the
    clock ran out). On an engine error nothing changed. On any later error the cache entry is
    dropped.
    """
    old = live.version
    active_before = live.state.active
    clock_before = live.clock
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
        events_json = dumps([event_to_json(e) for e in events])
        action_json = dumps(action.to_json())
        now = utcnow()
        values = _row_values(rt, live, new_v, now, actor_is_bot, seat, active_before, by, timed_out)
        alone = _alone(rt, live.match_id)
        if tx is None:
            if not await append_fast(
                rt.db,
                live.match_id,
                old,
                clock_before,
                seat,
                client_id,
                action_json,
                events_json,
                now,
                values,
                alone,
            ):
                rt.cache.drop(live.match_id)
                return None
        else:
            await tx.append_action(
                live.match_id, new_v, seat, client_id, action_json, events_json, now, by, alone
            )
            await tx.update_match(live.match_id, values)
    except Exception:
        rt.cache.drop(live.match_id)
        raise
    return Applied(new_v, seat, client_id, events_json, by, tuple(events), alone)


def _alone(rt: Runtime, match_id: str) -> bool:
    """True when only this instance has sockets on the match (its hub heard no other
    instance's presence): a batch is then written as published and not broadcast — these
    sockets get it directly, and an instance that joins meanwhile catches up by its version
    watch. Without a hub here nothing is known of the others: publish.
    """
    hub = rt.hubs.get(rt.channel("match", match_id))
    return hub is not None and not hub.heard_elsewhere()


def _after_commit(rt: Runtime, live: Live, applied: Applied, kind: str, started: float) -> None:
    """The one tail of every committed move (``kind``: ``"player"`` or ``"bot"``, the metrics
    label): cache current, frame (with ``by`` and the clock) encoded once and handed to local
    sockets, published for the other instances (not awaited: a slow or dead broker must not
    delay the answer; the outbox sweep covers a publish that never happens), history and
    ratings at the end, metrics, and the next computer turn.
    """
    after_commit_hook(rt, applied.version)
    live.version = applied.version
    if applied.action_id is not None:
        live.remember(applied.seat, applied.action_id, applied.version, applied.events_json)
    state = live.state
    live.view = None  # built when someone reads the whole match (reads.current)
    frame = events_frame(
        applied.version,
        applied.seat,
        applied.action_id,
        applied.events_json,
        by=applied.by,
        clock=clocks.public(live.clock),
        delta=view_delta(state, applied.engine_events),
    )
    hub = rt.hubs.get(rt.channel("match", live.match_id))
    if hub is not None:
        hub.deliver(applied.version, frame)
    if not applied.published:
        rt.spawn(publish_batch(rt, live.match_id, applied.version, frame))
    if state.is_over:
        rt.metrics.matches_live.dec()
        rt.spawn(history.match_finished(rt, live.match_id))  # history + ratings (issue 15)
    rt.metrics.actions.labels(kind).inc()
    rt.metrics.action_latency.observe(time.perf_counter() - started)
    if not state.is_over:
        if live.seats[state.seat].get("bot") or clocks.is_auto(live.clock, state.seat):
            rt.spawn(_play_later(rt, live.match_id))
        elif kind == "bot" and state.seat == applied.seat:
            rt.spawn(_play_later(rt, live.match_id))  # the computer finishes the turn


def _seat_of(live_or_seats: list[dict[str, Any]], player_id: str | None) -> int | None:
    return next(
        (
            int(s["seat"])
            for s in live_or_seats
            if player_id is not None and s.get("player") == player_id
        ),
        None,
    )


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
    ``not_your_turn``, ``wrong_phase``, ``illegal_placement``, ``illegal_follower``);
    :class:`Conflict` when another instance wrote the same version meanwhile.
    """
    started = time.perf_counter()
    if not isinstance(data, dict):
        raise InvalidAction("an action must be a JSON object")
    seat: int | None = None
    async with rt.cache.lock(match_id):
        try:
            applied: Applied | None = None
            live = rt.cache.get(match_id)
            if live is not None and live.version == version and not live.state.is_over:
                # The fast path: one optimistic statement against the cached version.
                seat = _seat_of(live.seats, player_id)
                if seat is None:
                    raise NotSeated("you hold no seat in this match")
                done = live.recent.get((seat, client_id)) if client_id is not None else None
                if done is not None:
                    return Applied(done[0], seat, client_id, done[1])
                action = action_from_json({**data, "seat": seat})
                applied = await _apply_and_store(rt, None, live, seat, action, client_id, False)
            if applied is None:
                applied, live, early = await _submit_locked(
                    rt, match_id, player_id, version, client_id, data
                )
                if early:
                    return applied
                seat = applied.seat
        except DUPLICATE:
            rt.cache.drop(match_id)
            if client_id is not None and seat is not None:
                previous = await previous_result(rt.db, match_id, seat, client_id)
                if previous is not None:
                    return Applied(previous[0], seat, client_id, previous[1])
            raise Conflict("the match changed meanwhile; fetch it again") from None
        except (EngineError, StaleVersion, NotSeated, NotFound) as exc:
            rt.metrics.rejected.labels(getattr(exc, "code", "error")).inc()
            raise
        assert live is not None
        _after_commit(rt, live, applied, "player", started)
    return applied


async def _submit_locked(
    rt: Runtime,
    match_id: str,
    player_id: str | None,
    version: int,
    client_id: str | None,
    data: dict[str, Any],
) -> tuple[Applied, Live | None, bool]:
    """The locked path of :func:`submit_action`: ``(applied, live, early)``, ``early`` True
    when ``applied`` is the earlier result of a repeated client action id (nothing written).
    """
    async with write_tx(rt.db) as tx:
        row = await tx.lock_match(match_id)
        if row is None:
            raise NotFound("no such match")
        cached = rt.cache.get(match_id)
        seat = _seat_of(cached.seats if cached is not None else row.seats, player_id)
        if seat is None:
            raise NotSeated("you hold no seat in this match")
        if client_id is not None:
            done = cached.recent.get((seat, client_id)) if cached is not None else None
            if done is not None:
                return Applied(done[0], seat, client_id, done[1]), None, True
            if version != row.version:
                previous = await previous_result(rt.db, match_id, seat, client_id)
                if previous is not None:
                    return Applied(previous[0], seat, client_id, previous[1]), None, True
        if row.status != "live":
            raise GameOver("the match is over")
        if version != row.version:
            raise StaleVersion(f"the match is at version {row.version}, not {version}", row.version)
        live = await live_for(rt, tx, row)
        action = action_from_json({**data, "seat": seat})
        applied = await _apply_and_store(rt, tx, live, seat, action, client_id, False)
        assert applied is not None
    return applied, live, False


# ---------------------------------------------------------------------- bots


async def play_due_turn(rt: Runtime, match_id: str) -> bool:
    """Play one action for a bot seat (or for a person's seat, by the computer) whose turn is
    due, and settle what else is due on the match's clock (leave countdowns, votes).

    Driven by database state: takes the match row with ``FOR UPDATE SKIP LOCKED`` only if
    ``next_bot_at`` has passed, so any instance may do it and only one does; what to do is
    decided under that lock by :func:`app.services.clock.clocks.verdict` (a clock that ran out, a
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
            live = await live_for(rt, tx, row)
            state = live.state
            seat = state.seat
            what, clock, due = await clocks.verdict(
                rt, tx, match_id, state, live.seats, live.clock, PRESENT_WINDOW
            )
            changed = clock != live.clock
            live.clock = clock
            applied: Applied | None = None
            leavers: list[int] = []
            if what == "end":
                leavers = [int(s) for s in (clock or {}).get("away", {})]
                await _end_early(rt, tx, live)
            elif what == "wait":
                values: dict[str, Any] = {"next_bot_at": due}
                if changed:
                    values["clock"] = clock
                await tx.update_match(match_id, values)
            else:
                # The ``skip`` time-out policy: the tile goes to the first legal placement,
                # no follower (clocks.skip_action) — no thinking, and not leaving.
                skip = what == "timeout" and clocks.skips_turns(clock)
                if not skip and advice is not None and advice[0] != row.version:
                    return False  # the match moved on while the bot thought: think again later
                if changed:
                    await tx.update_match(match_id, {"clock": clock})
                if skip:
                    action = clocks.skip_action(state)
                elif advice is not None:
                    action = advice[1]
                else:
                    action = choose_action(state, random.Random(f"{match_id}:{row.version}"))
                by = None if what == "bot" else clocks.BY_COMPUTER
                if by is not None and state.phase != PLAGUE and not skip:
                    rt.spawn(history.seat_taken_over(rt, match_id, seat))  # ratings: a leaver
                applied = await _apply_and_store(
                    rt, tx, live, seat, action, None, True, by, what == "timeout"
                )
                assert applied is not None
        if what == "end":
            rt.cache.drop(match_id)
        elif applied is None:
            if changed:
                clocks.announce(rt, match_id, clocks.clock_frame(clock, row.version))
            return False
        else:
            _after_commit(rt, live, applied, "bot", started)
    if what == "end":
        await _announce_end(rt, match_id)
        # Ratings (docs/RATINGS.md): the players who left count as left, then the match settles.
        for gone in leavers:
            await history.seat_taken_over(rt, match_id, gone)
        await history.match_finished(rt, match_id)
        return False
    return True


async def bot_advice(rt: Runtime, match_id: str) -> tuple[int, Action] | None:
    """``(version, action)`` the computer would play for the seat to act (at its seat's
    ``level``, default Normal), thought out in the bot worker pool; None when finished.
    """
    live = await current(rt, match_id)
    state, version = live.state, live.version
    if state.is_over or not legal_actions(state):
        return None
    level = str(live.seats[state.seat].get("level") or DEFAULT_LEVEL)
    seed = zlib.crc32(f"{match_id}:{version}".encode())
    actions = await rt.bots.decide(match_id, version, state, level, seed)
    return version, actions[0]


async def _play_later(rt: Runtime, match_id: str) -> None:
    await asyncio.sleep(rt.settings.bot_delay + 0.005)
    await play_due_turn(rt, match_id)


async def _end_early(rt: Runtime, tx: Tx, live: Live) -> None:
    """End a match now (a leave vote chose it): final scoring of the current position
    (RULES.md §4.2–4.4) stored as the last snapshot at the current version; the clock says
    ``ended_early``. The caller holds the row lock and drops the cache entry after the commit.
    """
    final = live.state.copy()
    events: list[Any] = []
    final_scoring(final, events)
    now = utcnow()
    clock = dict(live.clock or {}, ended_early=True, running=None, vote=None, away={})
    await tx.update_match(
        live.match_id,
        {
            "status": "finished",
            "finished_at": now,
            "updated_at": now,
            "seat_to_act": None,
            "scores": list(final.scores),
            "snapshot": final.to_json(),
            "snapshot_version": live.version,
            "next_bot_at": None,
            "clock": clock,
        },
    )
    live.version = -1  # never trusted again: the next read rebuilds from the final snapshot


async def _announce_end(rt: Runtime, match_id: str) -> None:
    """After an early end committed: a snapshot frame (the final position) to every socket."""
    live = await current(rt, match_id)
    rt.metrics.matches_live.dec()
    clocks.announce(rt, match_id, snapshot_frame(live.version, match_json(rt, live, None)))


async def due_matches(rt: Runtime, limit: int = 50) -> list[str]:
    """Ids of live matches whose bot (or abandoned) turn is due, oldest first."""
    return await _due_matches(rt.db, utcnow(), limit)
