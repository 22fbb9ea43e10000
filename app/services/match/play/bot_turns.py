"""Driving due bot turns concurrently: one background task per match, at most one per match.

The sweep (:func:`app.services.timers.bot_sweep`) finds matches whose bot (or abandoned) turn
is due; a Strong bot then thinks for up to ``BOT_THINK`` seconds in the worker pool. Playing
those matches one after another would make the last one wait for every search before it, so
each due match gets its own task here (searches still queue for a free worker in
:class:`app.bots.pool.BotPool`). A match already being driven by this instance is skipped.

Here too: playing one due turn (:func:`play_due_turn`, through the write path's
:func:`~app.services.match.play.play.apply_and_store`), the computer's advice, ending a match
early, and the ``move_committed`` subscriber that schedules the next computer turn
(:func:`on_move_committed`).
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib

from app.bots import DEFAULT_LEVEL, choose_action
from app.bots.pool import NOBODY
from app.db.hot import Tx, write_tx
from app.db.hot import due_matches as due_before
from app.db.models import utcnow
from app.db.txs import MatchChanges
from app.engine import Event, GameState, deciding, legal_actions
from app.engine.actions import Action
from app.engine.game import end_game
from app.realtime.protocol import snapshot_frame
from app.services.cache import Live
from app.services.clock import clocks
from app.services.match.committed import Committed
from app.services.match.delivery.sockets import PRESENT_WINDOW
from app.services.match.play.play import after_commit, apply_and_store
from app.services.match.reads import current, live_for, match_json
from app.services.records import history
from app.services.runtime import Runtime


def drive(rt: Runtime, match_id: str) -> None:
    """Play ``match_id``'s due turns in the background unless this instance already does."""
    driving = rt.workers.bots.driving
    if match_id in driving:
        return
    driving.add(match_id)
    rt.spawn(_drain(rt, match_id))


async def _drain(rt: Runtime, match_id: str) -> None:
    try:
        while await play_due_turn(rt, match_id):
            pass
    finally:
        rt.workers.bots.driving.discard(match_id)


def on_move_committed(rt: Runtime, live: Live, move: Committed) -> None:
    """Subscriber of ``rt.move_committed``: when the seat to act is a bot or a seat the
    computer plays, or a bot's own turn goes on (its follower), play it after ``bot_delay``.
    """
    state = live.state
    if state.is_over:
        return
    if live.seats[state.seat].bot or clocks.is_auto(live.clock, state.seat):
        rt.spawn(_play_later(rt, live.match_id))
    elif move.actor == "bot" and state.seat == move.seat:
        rt.spawn(_play_later(rt, live.match_id))  # the computer finishes the turn


async def play_due_turn(rt: Runtime, match_id: str) -> bool:
    """Play one action for a bot seat (or for a person's seat, by the computer) whose turn is
    due, and settle what else is due on the match's clock (leave countdowns, votes).

    Driven by database state: takes the match row with ``FOR UPDATE SKIP LOCKED`` only if
    ``next_bot_at`` has passed, so any instance may do it and only one does; what to do is
    decided under that lock by :func:`app.services.clock.clocks.verdict` (a clock that ran out, a
    seat handed to the computer, an off-turn decision past ``decision_timeout``, a turn abandoned
    without a trace). Returns True when an action was applied.
    """
    started = time.perf_counter()
    advice = await bot_advice(rt, match_id)  # thought in a worker, before any lock is taken
    async with rt.storage.cache.lock(match_id):
        async with write_tx(rt.storage.db) as tx:
            now = utcnow()
            row = await tx.lock_match(match_id, skip_locked=True, due_before=now)
            if row is None:
                return False
            live = await live_for(rt, tx, row)
            state = live.state
            seat = state.seat
            what, clock, due = await clocks.verdict(
                rt, tx, match_id, state, live.seats, live.clock, present_window=PRESENT_WINDOW
            )
            # What was due settled (the clock's JSON changed): written, then announced.
            changed = clock is not live.clock and clocks.stored(clock) != clocks.stored(live.clock)
            live.clock = clock
            move: Committed | None = None
            leavers: list[int] = []
            if what == "end":
                leavers = [int(s) for s in clocks.away_seats(clock)]
                await _end_early(rt, tx, live)
            elif what == "wait":
                values: MatchChanges = {"next_bot_at": due}
                if changed:
                    values["clock"] = clocks.stored(clock)
                await tx.update_match(match_id, values)
            else:
                # The ``skip`` time-out policy: the tile goes to the first legal placement,
                # no follower (clocks.skip_action) — no thinking, and not leaving.
                skip = what == "timeout" and clocks.skips_turns(clock)
                if not skip and advice is not None and advice[0] != row.version:
                    return False  # the match moved on while the bot thought: think again later
                if changed:
                    await tx.update_match(match_id, {"clock": clocks.stored(clock)})
                action = _computer_action(state, skip, advice, f"{match_id}:{row.version}")
                by = None if what == "bot" else clocks.BY_COMPUTER
                if by is not None and not deciding(state) and not skip:
                    rt.spawn(history.seat_taken_over(rt, match_id, seat))  # ratings: a leaver
                move = await apply_and_store(
                    rt,
                    tx,
                    live,
                    seat,
                    action,
                    client_id=None,
                    actor="bot",
                    by=by,
                    timed_out=what == "timeout",
                )
                assert move is not None
        if what == "end":
            rt.storage.cache.drop(match_id)
        elif move is None:
            if changed:
                clocks.announce(rt, match_id, clocks.clock_frame(clock, row.version))
            return False
        else:
            after_commit(rt, live, move, started)
    if what == "end":
        await _announce_end(rt, match_id)
        # Ratings (docs/RATINGS.md): the players who left count as left, then the match settles.
        for gone in leavers:
            await history.seat_taken_over(rt, match_id, gone)
        await history.match_finished(rt, match_id)
        return False
    return True


def _computer_action(
    state: GameState, skip: bool, advice: tuple[int, Action] | None, seed: str
) -> Action:
    """What the computer plays for the seat: the ``skip`` policy's placement, else the worker's
    advice, else a quick choice drawn with ``seed`` (the match and its version).
    """
    if skip:
        return clocks.skip_action(state)
    if advice is not None:
        return advice[1]
    return choose_action(state, random.Random(seed))


async def bot_advice(rt: Runtime, match_id: str) -> tuple[int, Action] | None:
    """``(version, action)`` the computer would play for the seat to act (at its seat's
    ``level``, default Normal), thought out in the bot worker pool; None when finished.
    """
    live = await current(rt, match_id)
    state, version = live.state, live.version
    if state.is_over or not legal_actions(state):
        return None
    level = live.seats[state.seat].level or DEFAULT_LEVEL
    seed = zlib.crc32(f"{match_id}:{version}".encode())
    people = [s.player for s in live.seats if s.player and not s.bot]
    owner = people[0] if people else NOBODY  # whose table: the fair share of the workers
    actions = await rt.workers.bots.decide(match_id, version, state, level, seed, owner)
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
    events: list[Event] = []
    end_game(final, events)
    now = utcnow()
    before = clocks.stored(live.clock) or {}
    clock = dict(before, ended_early=True, running=None, vote=None, away={})
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
    return await due_before(rt.storage.db, utcnow(), limit)
