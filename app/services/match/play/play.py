"""Playing a match: the one write path (:func:`submit_action`) every move takes.

The life of a move (ARCHITECTURE.md). The usual case is one round trip to Postgres: this
instance holds the match's lock and a cached engine state at the version the client acted on;
the engine applies the action to it, and one statement (:func:`app.db.hot.append_fast`) bumps
the match row's version *if it is still that version* and appends the log row. Otherwise —
no cached state, the cache behind, the statement finding another version, a repeated client
action id — the locked path runs: ``SELECT … FOR UPDATE``, check seat, action id, status and
version, apply, append, update, commit. The bot sweep's moves
(:mod:`app.services.match.play.bot_turns`) take the locked path's :func:`apply_and_store` too.

Each move becomes one :class:`~app.services.match.committed.Committed` record right after the
engine applied it; the log row and the match row (:mod:`app.services.match.play.row`) are written
from it, and after the commit :func:`after_commit` marks the cache current and announces it
on ``rt.move_committed``: delivery, the records and the bots listen there
(:mod:`app.services.match.play.subscribers`), so this module calls none of them.

Reads live in :mod:`app.services.match.reads`, sockets and presence in
:mod:`app.services.match.delivery.sockets`.
Nothing secret leaves here: frames carry event JSON and ``view_delta()``, never ``to_json()``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from app.db.hot import DUPLICATE, Tx, append_fast, previous_result, write_tx
from app.db.models import utcnow
from app.db.txs import MatchChanges
from app.engine import (
    EngineError,
    GameOver,
    InvalidAction,
    action_from_json,
    apply_in_place,
    event_to_json,
)
from app.engine.actions import Action
from app.json_types import JsonObject
from app.realtime.protocol import dumps
from app.services.cache import Live
from app.services.clock_values.match_clock import MatchClock
from app.services.errors import Conflict, NotFound, NotSeated, StaleVersion
from app.services.match.committed import Actor, Applied, Committed
from app.services.match.play.row import row_values
from app.services.match.reads import live_for
from app.services.runtime import Runtime
from app.services.seat_values import MatchSeat, seat_of, seats_from_json

__all__ = ["Applied", "after_commit", "apply_and_store", "submit_action"]


async def apply_and_store(
    rt: Runtime,
    tx: Tx | None,
    live: Live,
    seat: int,
    action: Action,
    *,
    client_id: str | None,
    actor: Actor = "player",
    by: str | None = None,
    timed_out: bool = False,
) -> Committed | None:
    """Apply ``action`` to the cached state and write it: inside ``tx`` (the caller commits),
    or with ``tx`` None as one optimistic statement — None then means the row was no longer at
    the cached version and clock (nothing written, the cache entry dropped).

    ``actor``: who drives the move; ``by``: ``"computer"`` when the computer chose for a
    person (``timed_out``: because the clock ran out). On an engine error nothing changed. On
    any later error the cache entry is dropped.
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
        rt.storage.cache.drop(live.match_id)
        raise
    try:
        move = Committed(
            match_id=live.match_id,
            version=old + 1,
            seat=seat,
            client_id=client_id,
            action=action,
            action_json=dumps(action.to_json()),
            events=tuple(events),
            events_json=dumps([event_to_json(e) for e in events]),
            at=utcnow(),
            actor=actor,
            by=by,
            timed_out=timed_out,
            published=_alone(rt, live.match_id),
        )
        values = row_values(rt, live, move, active_before)
        if not await _store(rt, tx, move, values, clock_before):
            rt.storage.cache.drop(live.match_id)
            return None
    except Exception:
        rt.storage.cache.drop(live.match_id)
        raise
    return move


async def _store(
    rt: Runtime,
    tx: Tx | None,
    move: Committed,
    values: MatchChanges,
    clock_before: MatchClock | None,
) -> bool:
    """Write ``move``'s log row and its match row ``values``: inside ``tx``, or with ``tx``
    None as one statement that only applies while the row is still at the version before
    the move and at ``clock_before`` (the typed clock the cache held before the move, compared
    as its stored JSON; None: no clock) (False: it was not, nothing written).
    """
    if tx is None:
        expected = None if clock_before is None else clock_before.to_json()
        return await append_fast(rt.storage.db, move, expected, values)
    await tx.append_action(move)
    await tx.update_match(move.match_id, values)
    return True


def _alone(rt: Runtime, match_id: str) -> bool:
    """True when only this instance has sockets on the match (its hub heard no other
    instance's presence): a batch is then written as published and not broadcast — these
    sockets get it directly, and an instance that joins meanwhile catches up by its version
    watch. Without a hub here nothing is known of the others: publish.
    """
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
    return hub is not None and not hub.heard_elsewhere()


def after_commit(rt: Runtime, live: Live, move: Committed, started: float) -> None:
    """The one tail of every committed move: the cache entry current at ``move.version`` (its
    view built when someone next reads the whole match), ``move`` announced on
    ``rt.move_committed`` (delivery, records, bots), then the metrics (``started``: the
    ``time.perf_counter()`` the move's handling began at).
    """
    live.version = move.version
    if move.client_id is not None:
        live.remember(move.seat, move.client_id, move.version, move.events_json)
    live.view = None
    rt.move_committed.announce(rt, live, move)
    if live.state.is_over:
        rt.metrics.matches_live.dec()
    rt.metrics.actions.labels(move.actor).inc()
    rt.metrics.action_latency.observe(time.perf_counter() - started)


def _seat_or_earlier(
    seats: Sequence[MatchSeat],
    recent: Mapping[tuple[int, str], tuple[int, str]],
    player_id: str | None,
    client_id: str | None,
) -> tuple[int, Applied | None]:
    """The seat ``player_id`` holds, and the earlier answer when ``recent`` (the cache's
    results of recent client action ids) already has ``client_id`` of that seat. Raises
    :class:`NotSeated`.
    """
    seat = seat_of(seats, player_id)
    if seat is None:
        raise NotSeated("you hold no seat in this match", reason="not_seated")
    done = recent.get((seat, client_id)) if client_id is not None else None
    return seat, None if done is None else Applied(done[0], seat, client_id, done[1])


async def submit_action(
    rt: Runtime,
    match_id: str,
    player_id: str | None,
    version: int,
    client_id: str | None,
    data: object,
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
    async with rt.storage.cache.lock(match_id):
        try:
            move: Committed | None = None
            live = rt.storage.cache.get(match_id)
            if live is not None and live.version == version and not live.state.is_over:
                # The fast path: one optimistic statement against the cached version.
                seat, earlier = _seat_or_earlier(live.seats, live.recent, player_id, client_id)
                if earlier is not None:
                    return earlier
                action = action_from_json({**data, "seat": seat})
                move = await apply_and_store(rt, None, live, seat, action, client_id=client_id)
            if move is None:
                found, live = await _submit_locked(
                    rt, match_id, player_id, version, client_id, data
                )
                if isinstance(found, Applied):
                    return found
                move = found
        except DUPLICATE:
            rt.storage.cache.drop(match_id)
            if client_id is not None and seat is not None:
                previous = await previous_result(rt.storage.db, match_id, seat, client_id)
                if previous is not None:
                    return Applied(previous[0], seat, client_id, previous[1])
            raise Conflict(
                "the match changed meanwhile; fetch it again", reason="match_changed"
            ) from None
        except (EngineError, StaleVersion, NotSeated, NotFound) as exc:
            rt.metrics.rejected.labels(getattr(exc, "code", "error")).inc()
            raise
        assert live is not None
        after_commit(rt, live, move, started)
    return move.applied()


async def _submit_locked(
    rt: Runtime,
    match_id: str,
    player_id: str | None,
    version: int,
    client_id: str | None,
    data: JsonObject,
) -> tuple[Committed | Applied, Live | None]:
    """The locked path of :func:`submit_action`: ``(move, live)``, or ``(earlier answer,
    None)`` for a repeated client action id (nothing written).
    """
    async with write_tx(rt.storage.db) as tx:
        row = await tx.lock_match(match_id)
        if row is None:
            raise NotFound("no such match")
        cached = rt.storage.cache.get(match_id)
        seats = cached.seats if cached is not None else seats_from_json(row.seats)
        seat, earlier = _seat_or_earlier(
            seats, cached.recent if cached is not None else {}, player_id, client_id
        )
        if earlier is not None:
            return earlier, None
        if client_id is not None and version != row.version:
            previous = await previous_result(rt.storage.db, match_id, seat, client_id)
            if previous is not None:
                return Applied(previous[0], seat, client_id, previous[1]), None
        if row.status != "live":
            raise GameOver("the match is over", reason="game_over")
        if version != row.version:
            raise StaleVersion(
                f"the match is at version {row.version}, not {version}",
                row.version,
                reason="stale_version",
                params={"version": row.version, "sent": version},
            )
        live = await live_for(rt, tx, row)
        action = action_from_json({**data, "seat": seat})
        move = await apply_and_store(rt, tx, live, seat, action, client_id=client_id)
        assert move is not None
    return move, live
