"""Clocks and leaving as use cases: the hooks the lobby and the write path call, and the
decisions of the database-driven sweep (the vote / proposal / take-back requests are
:mod:`app.services.clock.requests`).

The arithmetic is :mod:`app.services.clock.rules` (pure). Everything here runs under the match row's
lock (``write_tx`` + ``lock_match``), so a decision happens exactly once across instances: the
sweep takes a due match with ``FOR UPDATE SKIP LOCKED`` and re-checks the clock it read under
the lock. Changes that are not actions (a seat leaving, a vote, a proposal) write ``clock`` and
``next_bot_at`` and send a ``{"t": "clock"}`` frame to every socket of the match, on every
instance (broker kind ``note``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from app.db.hot import Tx
from app.db.session import as_utc
from app.engine import (
    PLACE_TILE,
    Action,
    GameState,
    Pass,
    PlaceTile,
    deciding,
    is_decision,
    legal_placements,
    record_decisions,
)
from app.json_types import JsonObject
from app.realtime.hub import NOTE_ALL
from app.realtime.protocol import broker_message, dumps
from app.services.cache import Live
from app.services.clock import rules as c
from app.services.clock import votes as v
from app.services.clock.table_options import split_stored
from app.services.clock_values.match_clock import MatchClock
from app.services.runtime import Runtime
from app.services.seat_values import MatchSeat

#: ``match_actions.by`` of an action the computer chose for a person's seat.
BY_COMPUTER = "computer"


def now_ms() -> int:
    """The server's time in epoch milliseconds (the clock's unit)."""
    return int(time.time() * 1000)


def from_ms(ms: int) -> datetime:
    """The UTC datetime of ``ms`` milliseconds since the epoch (a clock's unit)."""
    return datetime.fromtimestamp(ms / 1000, UTC)


def _ms(when: datetime) -> int:
    return int(as_utc(when).timestamp() * 1000)


def skips_turns(clock: MatchClock | None) -> bool:
    """True when the clock's time-out policy is ``skip`` (a timed-out turn is skipped)."""
    return clock is not None and clock.policy.kind == "skip"


def skip_action(state: GameState) -> Action:
    """The action that skips ``state.seat``'s timed-out turn (the ``skip`` time-out policy).

    Ruling (docs/API.md § Clocks): the drawn tile cannot vanish from the game, and nobody
    should choose it well or badly for a player who is not there, so it is placed at the first
    legal placement in ``(x, y, rotation)`` order with no follower — a ``PlaceTile`` then a
    ``Pass`` (ordinary engine actions: a record replays them). Features it completes are
    scored as usual. After the tile is placed only the ``Pass`` is left.
    """
    if state.phase == PLACE_TILE:
        x, y, rotation = min(legal_placements(state))
        return PlaceTile(state.seat, x, y, rotation)
    return Pass(state.seat)


def start_clock(
    time_control: JsonObject | None,
    seats: list[JsonObject],
    host_player: str | None,
    state: GameState,
) -> tuple[JsonObject, datetime | None]:
    """The clock of a match being started (``time_control``: the lobby's stored column, with
    its time-out policy), and when the sweep must first look at it.
    """
    now = now_ms()
    humans = [i for i, s in enumerate(seats) if not s.get("bot")]
    host = next(
        (i for i, s in enumerate(seats) if host_player and s.get("player") == host_player), None
    )
    control, policy = split_stored(time_control)
    clock = c.new_clock(
        c.TimeControl.from_json(control),
        len(seats),
        humans,
        host,
        state.active,
        now=now,
        policy=c.TimeoutPolicy.from_json(policy),
    )
    due = c.next_due(clock)
    return clock, None if due is None else from_ms(due)


# ---------------------------------------------------------------------- the write path hook


def after_action(
    live: Live,
    seat: int,
    active_before: int,
    by: str | None,
    timed_out: bool,
) -> tuple[MatchClock | None, datetime | None]:
    """The clock of ``live`` after ``seat``'s action (``live.state``: after it, ``live.clock``:
    the clock before it; ``active_before``: the turn's holder before it; ``by``:
    :data:`BY_COMPUTER` when the computer chose for a person; ``timed_out``: it did so because
    the clock ran out). Returns ``(clock, due)``: the new typed clock (its JSON is written in
    the same transaction as the action; None for a match without a clock) and its next due
    time (None: nothing pending, or the match is over). ``live`` is not changed.
    """
    clock = live.clock
    if clock is None:
        return None, None
    state = live.state
    now = now_ms()
    turn_passed = state.is_over or state.active != active_before
    if seat in clock.humans and (by is None or turn_passed):
        clock = c.noted(clock, seat, by_computer=by is not None, timed_out=timed_out)
    clock = c.advanced(
        clock,
        now=now,
        seat=state.seat,
        active=state.active,
        deciding=deciding(state),
        over=state.is_over,
    )
    due = c.next_due(clock)
    return clock, None if due is None or state.is_over else from_ms(due)


def stored(clock: MatchClock | None) -> JsonObject | None:
    """``clock``'s JSON as ``matches.clock`` stores it (a fresh dict; None stays None)."""
    return None if clock is None else clock.to_json()


def earliest(*times: datetime | None) -> datetime | None:
    """The earliest of the given times (None when all are None)."""
    real = [t for t in times if t is not None]
    return min(real) if real else None


# ---------------------------------------------------------------------- the sweep


def is_auto(clock: MatchClock | None, seat: int) -> bool:
    """True when the computer holds ``seat`` (handed over by time-outs or by a vote)."""
    return clock is not None and clock.auto[seat]


def away_seats(clock: MatchClock | None) -> list[str]:
    """The seats (as text) with a leave countdown or vote running on ``clock`` (none: [])."""
    return [] if clock is None else list(clock.away)


def is_away(clock: MatchClock | None, seat: int) -> bool:
    """True while ``seat``'s leave countdown or vote is running (the others decide)."""
    if clock is None:
        return False
    return str(seat) in clock.away or bool(clock.vote and clock.vote["seat"] == seat)


def timed_out(clock: MatchClock | None, seat: int) -> bool:
    """True when ``seat`` is running and its time is up."""
    if clock is None or clock.running is None:
        return False
    d = c.deadline(clock)
    return d is not None and clock.running.seat == seat and d <= now_ms()


async def present_seats(
    rt: Runtime, tx: Tx, match_id: str, humans: list[int], window: timedelta
) -> set[int]:
    """Human seats connected to any instance (this instance's hub, or seen within ``window``)."""
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
    keys = hub.presence()[0] if hub is not None else set()
    out: set[int] = set()
    limit = datetime.now(UTC) - window
    for seat in humans:
        if str(seat) in keys:
            out.add(seat)
            continue
        last = await tx.last_seen(match_id, seat)
        if last is not None and as_utc(last) > limit:
            out.add(seat)
    return out


def settle_due(
    clock: MatchClock,
    present: set[int],
    grace_ms: int,
    vote_ms: int = v.VOTE_MS,
) -> tuple[MatchClock, str | None]:
    """Run out what is due now: a leave countdown opens a vote (or, with nobody to vote, hands
    the seat to the computer); a vote whose time is up is settled; an expired proposal lapses.
    Returns the clock and the settled outcome (``"end"`` asks the caller to end the match).
    """
    now = now_ms()
    out = clock
    outcome: str | None = None
    if out.proposal and out.proposal["until"] <= now:
        out = replace(out, proposal=None)
    vote = out.vote
    if vote and vote.get("until", now + 1) <= now:
        eligible = [s for s in out.humans if s != vote["seat"] and not out.auto[s]]
        outcome = v.tally(out, eligible, final=True)
        out = c.typed(v.settle(out, outcome or v.DEFAULT_CHOICE, now, grace_ms))
    if not out.vote:
        for key, away in sorted(out.away.items()):
            if int(away["until"]) <= now:
                seat = int(key)
                if v.voters(replace(out, vote={"seat": seat}), present):
                    out = c.typed(v.open_vote(out, seat, now, vote_ms))
                else:
                    opened = v.open_vote(out, seat, now)
                    out = c.typed(v.settle(opened, v.DEFAULT_CHOICE, now, grace_ms))
                    outcome = outcome or v.DEFAULT_CHOICE
                break
    return out, outcome


def public(clock: c.ClockLike | None) -> JsonObject | None:
    """The clock as clients see it, stamped with the server's time (docs/API.md § Clocks):
    the ``Clock`` JSON of :func:`app.services.clock.rules.public`, None for no clock.
    ``clock``: typed, or the stored dict (parsed first).
    """
    return c.public(clock, now_ms())


def clock_frame(clock: c.ClockLike | None, version: int) -> str:
    """``{"t": "clock", "v": version, "d": Clock}`` (``v``: the match version it belongs to;
    ``clock``: typed, or the stored dict; ``Clock``: :func:`public`'s, null for no clock).
    """
    return dumps({"t": "clock", "v": version, "d": public(clock)})


def announce(rt: Runtime, match_id: str, frame: str) -> None:
    """Send an unversioned frame to every socket of the match here and on other instances."""
    channel = rt.fanout.channel("match", match_id)
    hub = rt.fanout.hubs.get(channel)
    if hub is not None:
        hub.deliver_note(frame)
    rt.spawn(
        rt.fanout.broker.publish(
            channel, broker_message(rt.fanout.broker.instance_id, NOTE_ALL, 0, frame)
        )
    )


def credit_all(clock: JsonObject, gap_ms: int) -> tuple[JsonObject, datetime | None]:
    """Outage credit for one match: its clock with every running deadline ``gap_ms`` later,
    and its next due time.
    """
    new = c.credit(clock, gap_ms)
    due = c.next_due(new)
    return new, None if due is None else from_ms(due)


# ---------------------------------------------------------------------- who plays a due turn


async def verdict(
    rt: Runtime,
    tx: Tx,
    match_id: str,
    state: GameState,
    seats: Sequence[MatchSeat],
    clock: MatchClock | None,
    *,
    present_window: timedelta,
) -> tuple[str, MatchClock | None, datetime | None]:
    """What the sweep does with a due match (the caller holds its row lock; ``seats``: the
    match's, in turn order; ``clock``: the match's typed clock, None for a match from before
    clocks).

    Returns ``(what, clock, next_due)``: ``what`` is ``"bot"`` (a bot seat plays), ``"computer"``
    (the computer plays for a person: the seat was handed over, an off-turn decision ran out,
    or the turn was abandoned by someone who never came back), ``"timeout"`` (the person's
    clock ran out: the computer plays and it counts as a time-out), ``"end"`` (a vote ended
    the match) or ``"wait"``; ``clock``: the typed clock after settling what was due (leave
    countdowns, votes, proposals) — the very ``clock`` passed in when nothing was due, None
    when it was None; ``next_due``: when to look again if waiting.
    """
    now = now_ms()
    seat = state.seat
    grace = int(rt.settings.leave_grace * 1000)
    decision_ms = int(rt.settings.decision_timeout * 1000)
    abandon_ms = int(rt.settings.abandon_after * 1000)
    humans = [i for i, s in enumerate(seats) if not s.bot]
    present = await present_seats(rt, tx, match_id, humans, present_window)
    if clock is None:
        if seats[seat].bot:
            return "bot", None, None
        if deciding(state) or seat not in present:  # a match from before clocks: the old rules
            return "computer", None, None
        return "wait", None, from_ms(now + abandon_ms)
    settled, outcome = settle_due(clock, present, grace, int(rt.settings.leave_vote * 1000))
    if outcome == "end" or settled.ended_early:
        return "end", settled, None
    if seats[seat].bot:
        return "bot", settled, None
    if is_auto(settled, seat):
        return "computer", settled, None
    decision = settled.deciding
    turn_since = now if settled.turn_since is None else settled.turn_since
    if deciding(state) and decision:
        if decision.since + decision_ms <= now:
            return "computer", settled, None
    elif timed_out(settled, seat):
        return "timeout", settled, None
    elif seat not in present and not is_away(settled, seat) and turn_since + abandon_ms <= now:
        return "computer", settled, None  # left without a trace (its instance died): the old rule
    # A look may come before the turn could be abandoned (a move stores its next look as a
    # bound, app.db.txs.LookBy): look again when it could, not a whole ``abandon_after`` on.
    abandon_at = turn_since + abandon_ms
    due = [c.next_due(settled), abandon_at if abandon_at > now else now + abandon_ms]
    if deciding(state) and decision:
        due.append(decision.since + decision_ms)
    return "wait", settled, from_ms(min(d for d in due if d is not None))


def annotate_record(
    record: dict[str, Any],
    actions: list[Action],
    computer_seqs: set[int],
    clock: JsonObject | None,
) -> dict[str, Any]:
    """Mark what the computer chose for a person (``"by": "computer"``), the time-out policy
    of a timed match (``"timeout_policy"``) and an early end.

    A move entry with a ``tile`` is marked when the computer chose its placement or its
    follower; an off-turn decision an entry carries (:func:`app.engine.record_decisions`, e.g.
    a Wheel of Fortune Plague removal, on a placed move or a ``discarded`` entry) is marked
    itself, since each is decided by its own seat. An early end sets ``"finished": false`` (a
    replay stops after the last move) and ``"ended_early": {"scores", "winners"}``: the final
    scoring the match ended with.

    ``actions``: the engine actions in log order (``seq`` = index + 1). They follow the
    record's entries: each entry's off-turn decisions (one decision action each,
    :func:`app.engine.is_decision`), then for a placed move its ``PlaceTile`` and the follower
    decision (``PlaceFollower`` or ``Pass``).
    Entries that do not line up with the actions (never expected) are left unmarked.
    """
    seq = 1  # the next action's seq

    def action_at(n: int) -> Action | None:
        return actions[n - 1] if 0 < n <= len(actions) else None

    for entry in record.get("moves", []):
        for decision in record_decisions(entry):
            if not is_decision(action_at(seq)):
                break
            if seq in computer_seqs:
                decision["by"] = BY_COMPUTER
            seq += 1
        if "tile" in entry:
            if not isinstance(action_at(seq), PlaceTile):
                break
            if seq in computer_seqs or seq + 1 in computer_seqs:
                entry["by"] = BY_COMPUTER
            seq += 2
    if clock is not None and c.control_of(clock).timed:
        # What happened at zero (docs/API.md § Clocks): the table's time-out policy.
        record["timeout_policy"] = c.policy_of(clock).to_json()
    if clock and clock.get("ended_early"):
        # A replay stops after the last move (no final scoring of a deck not played out);
        # the scores the match ended with are kept apart.
        record["finished"] = False
        result = record.pop("result", None)
        record["ended_early"] = result or True
    return record
