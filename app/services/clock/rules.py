"""Clock arithmetic: time controls and the running clock of a match (leaving, votes and the
live ↔ correspondence switch: :mod:`app.services.clock.votes`) — pure.

No I/O and no clock of its own: every function takes ``now`` (milliseconds since the Unix
epoch, an ``int``), reads the clock as a typed
:class:`~app.services.clock_values.match_clock.MatchClock` (a stored dict is parsed first) and
returns new JSON-ready dicts, never changing its arguments. The service
(:mod:`app.services.clock.clocks`) loads and stores the dicts (``matches.clock``) under the
match's row lock; this module only decides.

Time controls (``TimeControl``, :mod:`app.services.clock_values.controls`), chosen by the host
per lobby:

- ``untimed``: no clock. A seat that leaves still goes through the leave path below.
- ``per_turn`` (``seconds``): each turn of a seat has ``seconds``; unused time is lost.
- ``fischer`` (``bank`` seconds, ``increment`` seconds): a bank per seat, charged while the seat
  is on turn; ``increment`` is added when the seat's turn ends (also after a time-out).
- ``correspondence`` (``days``): like per turn with ``days × 86 400`` seconds.

Off-turn decisions (an expansion's, :func:`app.engine.deciding`) never draw on a bank: they
have their own short limit, handled by the play path (``decision_timeout``).

What happens at zero is the table's time-out policy (:class:`TimeoutPolicy`, chosen by the
host): ``computer`` (the default) — the computer plays that turn for the seat (the action log
marks it) and after :data:`HANDOVER_AFTER` time-outs in a row the seat is handed to the
computer (``auto``) until its player takes it back; ``skip`` — the turn is skipped: the drawn
tile is placed by the computer at the first legal placement, with no follower, and the seat
is never handed over; ``handover`` (``after`` N, 1–5) — the computer plays the turn, and after
N time-outs in all the computer holds the seat for the rest of the match. Leaving, the leave
vote and the live ↔ correspondence switch change the same dict: :mod:`app.services.clock.votes`.

The clock dict (``matches.clock``)::

    {"control": TimeControl JSON, "live_control": TimeControl JSON | null,
     "remaining": [ms per seat],  # fischer: the bank; per turn: what is left of this turn
     "running": {"seat", "since", "active"} | null,  # the seat being charged since ``since``
     "timeouts": [time-outs per seat: in a row; under ``handover``, in all],
     "auto": [bool per seat],
     "policy": TimeoutPolicy JSON (absent in clocks from before policies: ``computer``),
     "host": seat | null, "humans": [seat, ...],
     "away": {"<seat>": {"since", "until"}},   # a seat whose sockets are all gone
     "vote": {"seat", "until", "ballots": {"<seat>": choice}} | null,
     "proposal": {"to", "by", "accepted": [seat, ...], "until"} | null,
     "ended_early": bool,
     "turn_active": seat, "turn_since": ms,   # whose turn, since when (every control)
     "deciding": {"seat", "since"} | null}     # an off-turn decision being waited for
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.json_types import JsonObject
from app.services.clock_values.controls import (
    CORRESPONDENCE_DAYS,
    DAY_MS,
    FISCHER_BANK_SECONDS,
    FISCHER_INCREMENT_SECONDS,
    HANDOVER_AFTER,
    HANDOVER_CHOICES,
    KINDS,
    PER_TURN_SECONDS,
    POLICIES,
    InvalidTimeControl,
    TimeControl,
    TimeoutPolicy,
)
from app.services.clock_values.match_clock import (
    ClockFields,
    Deciding,
    MatchClock,
    Proposal,
    Running,
)

__all__ = [
    "advanced",
    "noted",
    "CORRESPONDENCE_DAYS",
    "DAY_MS",
    "FISCHER_BANK_SECONDS",
    "FISCHER_INCREMENT_SECONDS",
    "HANDOVER_AFTER",
    "HANDOVER_CHOICES",
    "KINDS",
    "PER_TURN_SECONDS",
    "POLICIES",
    "InvalidTimeControl",
    "MatchClock",
    "TimeControl",
    "TimeoutPolicy",
    "advance",
    "control_of",
    "credit",
    "deadline",
    "is_handed_over_for_good",
    "new_clock",
    "next_due",
    "note_actor",
    "policy_of",
    "public",
    "remaining",
    "time_left",
]

#: A clock as the rules take it: typed, or the stored dict (parsed on the way in).
ClockLike = MatchClock | Mapping[str, Any]


def typed(clock: ClockLike) -> MatchClock:
    """``clock`` as a :class:`MatchClock` (a stored dict is parsed)."""
    return clock if isinstance(clock, MatchClock) else MatchClock.from_json(clock)


def policy_of(clock: ClockLike) -> TimeoutPolicy:
    """The clock's :class:`TimeoutPolicy` (``computer`` for clocks from before policies)."""
    if isinstance(clock, MatchClock):
        return clock.policy
    return TimeoutPolicy.from_json(clock.get("policy"))


def control_of(clock: ClockLike) -> TimeControl:
    """The clock's current :class:`TimeControl`."""
    if isinstance(clock, MatchClock):
        return clock.control
    return TimeControl.from_json(clock["control"])


# ---------------------------------------------------------------------- the running clock


def new_clock(
    control: TimeControl,
    seats: int,
    humans: list[int],
    host: int | None,
    active: int,
    *,
    now: int,
    policy: TimeoutPolicy | None = None,
) -> JsonObject:
    """The clock of a match that just started with ``active`` to play (``now``: epoch ms;
    ``policy``: what happens at zero, ``computer`` when None).
    """
    return MatchClock(
        control=control,
        live_control=None,
        remaining=(control.turn_ms,) * seats,
        running=Running(active, now, active) if control.timed else None,
        timeouts=(0,) * seats,
        auto=(False,) * seats,
        policy=policy or TimeoutPolicy(),
        host=host,
        humans=tuple(sorted(humans)),
        away={},
        vote=None,
        proposal=None,
        ended_early=False,
        turn_active=active,
        turn_since=now,
        deciding=None,
    ).to_json()


def remaining(clock: ClockLike, seat: int, now: int) -> int:
    """Milliseconds ``seat`` has left at ``now`` (never below 0; 0 when untimed)."""
    clock = typed(clock)
    left = clock.remaining[seat]
    run = clock.running
    if run is not None and run.seat == seat:
        left -= max(0, now - run.since)
    return max(0, left)


def time_left(clock: ClockLike, seat: int, now: int) -> int:
    """What ``seat``'s clock shows at ``now`` (ms): its bank (Fischer) or what is left of the
    turn it holds; a seat not holding the turn under per turn / correspondence shows the fresh
    turn it will get (what it left unused of its last turn is lost).
    """
    clock = typed(clock)
    control = clock.control
    holder = clock.turn_active
    if control.kind in ("per_turn", "correspondence") and holder is not None and seat != holder:
        return control.turn_ms
    return remaining(clock, seat, now)


def deadline(clock: ClockLike) -> int | None:
    """When the running seat's time runs out (epoch ms), or None (untimed, nothing running)."""
    clock = typed(clock)
    run = clock.running
    if run is None or not clock.control.timed:
        return None
    return run.since + clock.remaining[run.seat]


def advance(
    clock: ClockLike, *, now: int, seat: int, active: int, deciding: bool, over: bool
) -> JsonObject:
    """The clock after an action: the match now waits for ``seat`` (``active`` holds the turn;
    ``deciding``: ``seat`` makes an off-turn decision, which never runs a bank; ``over``: the
    match ended).

    The seat that was running is charged the time since it started. When the turn passed
    (``active`` changed, or the match is over) that seat's turn is over: Fischer adds the
    increment to its bank; per turn and correspondence give the next seat a fresh turn.
    """
    return advanced(
        typed(clock), now=now, seat=seat, active=active, deciding=deciding, over=over
    ).to_json()


def advanced(
    clock: MatchClock, *, now: int, seat: int, active: int, deciding: bool, over: bool
) -> MatchClock:
    """:func:`advance` on a typed clock, returning the typed clock (the write path chains the
    rules on one parsed value and encodes once).
    """
    control = clock.control
    left = list(clock.remaining)
    run = clock.running
    if run is not None:
        left[run.seat] = max(0, left[run.seat] - max(0, now - run.since))
        if control.kind == "fischer" and (over or active != run.active):
            left[run.seat] += control.increment * 1000
    holder = clock.turn_active if "turn_active" not in clock.missing else active
    turn_passed = over or active != holder
    changes: ClockFields = {
        "turn_active": active,
        "deciding": Deciding(seat, now) if deciding and not over else None,
        "running": None,
    }
    if turn_passed:
        changes["turn_since"] = now
    if not over and control.timed:
        if turn_passed and control.kind in ("per_turn", "correspondence"):
            left[active] = control.turn_ms
        if not deciding:
            changes["running"] = Running(seat, now, active)
    changes["remaining"] = tuple(left)
    return clock.having(**changes)


def note_actor(clock: ClockLike, seat: int, *, by_computer: bool, timed_out: bool) -> JsonObject:
    """Count time-outs by the clock's policy: a time-out raises the seat's count; a seat's own
    move resets it, except under ``handover`` (time-outs in all). At the policy's
    :attr:`TimeoutPolicy.handover_after` the seat is handed to the computer (``auto``);
    under ``skip`` never.
    """
    return noted(typed(clock), seat, by_computer=by_computer, timed_out=timed_out).to_json()


def noted(clock: MatchClock, seat: int, *, by_computer: bool, timed_out: bool) -> MatchClock:
    """:func:`note_actor` on a typed clock, returning the typed clock."""
    timeouts, auto = list(clock.timeouts), list(clock.auto)
    if not by_computer:
        if clock.policy.kind != "handover":
            timeouts[seat] = 0
    elif timed_out:
        timeouts[seat] += 1
        limit = clock.policy.handover_after
        if limit is not None and timeouts[seat] >= limit:
            auto[seat] = True
    return replace(clock, timeouts=tuple(timeouts), auto=tuple(auto))


def is_handed_over_for_good(clock: ClockLike, seat: int) -> bool:
    """True when ``seat`` reached its ``handover`` policy's time-outs: the computer keeps it."""
    clock = typed(clock)
    return clock.policy.kind == "handover" and clock.timeouts[seat] >= clock.policy.after


def credit(clock: ClockLike, gap_ms: int) -> JsonObject:
    """Credit an outage of ``gap_ms`` (nobody was serving): every running deadline — the
    running seat's turn, leave grace, vote, proposal — moves ``gap_ms`` later.
    """
    clock = typed(clock)
    if gap_ms <= 0:
        return clock.to_json()

    def later(entry: Mapping[str, int]) -> dict[str, int]:
        return {**entry, "until": int(entry["until"]) + gap_ms}

    vote, proposal = clock.vote, clock.proposal
    if vote and "until" in vote:
        vote = {**vote, "until": vote["until"] + gap_ms}
    if proposal:
        proposal = {**proposal, "until": proposal["until"] + gap_ms}
    run, deciding, since = clock.running, clock.deciding, clock.turn_since
    return replace(
        clock,
        running=None if run is None else replace(run, since=run.since + gap_ms),
        deciding=None if deciding is None else replace(deciding, since=deciding.since + gap_ms),
        turn_since=None if since is None else since + gap_ms,
        away={k: later(v) for k, v in clock.away.items()},
        vote=vote,
        proposal=proposal,
    ).to_json()


# ---------------------------------------------------------------------- deadlines and wire


def next_due(clock: ClockLike) -> int | None:
    """The earliest moment the sweep must look at this clock: the running deadline, a leave
    countdown, a vote or a proposal running out (epoch ms), or None.
    """
    clock = typed(clock)
    times: list[int] = []
    d = deadline(clock)
    if d is not None:
        times.append(d)
    times += [int(a["until"]) for a in clock.away.values()]
    for entry in (clock.vote, clock.proposal):
        if entry:
            times.append(int(entry["until"]))
    return min(times) if times else None


def _proposal_json(p: Proposal) -> JsonObject:
    return {"to": p["to"], "by": p["by"], "accepted": [*p["accepted"]], "until": p["until"]}


def public(clock: ClockLike | None, now: int) -> JsonObject | None:
    """What every client sees (docs/API.md § Clocks): the control and its label, each seat's
    remaining ms as of ``server_now`` (the running one still counting down from there), the
    running seat and its deadline, time-outs, seats handed to the computer, leave countdowns,
    the vote and the proposal. ``server_now`` lets a client with a skewed clock count down.
    """
    if clock is None:
        return None
    clock = typed(clock)
    control = clock.control
    vote = clock.vote
    return {
        "control": control.to_json(),
        "label": control.label(),
        "server_now": now,
        "remaining": [
            time_left(clock, s, now) if control.timed else None for s in range(len(clock.remaining))
        ],
        "running": None if clock.running is None else clock.running.seat,
        "deadline": deadline(clock),
        "timeouts": list(clock.timeouts),
        "auto": list(clock.auto),
        "away": {k: dict(v) for k, v in clock.away.items()},
        "vote": None
        if not vote
        else {"seat": vote["seat"], "until": vote["until"], "ballots": dict(vote["ballots"])},
        "proposal": None if not clock.proposal else _proposal_json(clock.proposal),
        "correspondence": control.kind == "correspondence",
        "can_switch_back": clock.live_control is not None,
        "ended_early": clock.ended_early,
        "handover_after": clock.policy.handover_after,
        "policy": clock.policy.to_json(),
    }
