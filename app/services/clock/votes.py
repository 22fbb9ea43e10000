"""Leaving, the leave vote and the live ↔ correspondence switch on a match's clock — pure.

Like :mod:`app.services.clock.rules` (whose clock this changes: ``away``, ``vote``,
``proposal``, ``auto``, ``control``): no I/O, ``now`` in epoch milliseconds, the clock read as
a :class:`~app.services.clock_values.match_clock.MatchClock` (a stored dict is parsed first), new
dicts returned, arguments never changed. The service (:mod:`app.services.clock.clocks`: the
requests and the sweep) stores them under the match row's lock.
"""

from __future__ import annotations

from dataclasses import replace

from app.json_types import JsonObject
from app.services.clock.rules import ClockLike, typed
from app.services.clock_values.controls import TimeControl
from app.services.clock_values.match_clock import MatchClock, Proposal, Running, Vote

#: Milliseconds the remaining humans have to vote once a leaver's grace ran out.
VOTE_MS = 30_000
#: Milliseconds a live ↔ correspondence proposal stays open.
PROPOSAL_MS = 120_000
#: Days per move when a live match switches to correspondence by agreement.
SWITCH_DAYS = 1
#: The choices of a leave vote, and the one taken when nobody answers.
CHOICES = ("wait", "computer", "end")
DEFAULT_CHOICE = "computer"


def _without_vote_on(clock: MatchClock, seat: int) -> Vote | None:
    """The clock's vote, or None when it is about ``seat``."""
    vote = clock.vote
    return None if vote and vote["seat"] == seat else vote


def _open_vote(clock: MatchClock) -> Vote:
    """The clock's open vote; raises ``TypeError`` when none is open."""
    if not clock.vote:
        raise TypeError("no vote is open")
    return clock.vote


def _open_proposal(clock: MatchClock) -> Proposal:
    """The clock's open proposal; raises ``TypeError`` when none is open."""
    if not clock.proposal:
        raise TypeError("no proposal is open")
    return clock.proposal


def take_back(clock: ClockLike, seat: int, now: int) -> JsonObject:
    """The seat's player returns and takes the seat back from the computer (time-outs counted
    in all, under the ``handover`` policy, stay counted).
    """
    clock = typed(clock)
    auto, timeouts = list(clock.auto), list(clock.timeouts)
    auto[seat] = False
    if clock.policy.kind != "handover":
        timeouts[seat] = 0
    away = {k: v for k, v in clock.away.items() if k != str(seat)}
    return replace(
        clock,
        auto=tuple(auto),
        timeouts=tuple(timeouts),
        away=away,
        vote=_without_vote_on(clock, seat),
    ).to_json()


# ---------------------------------------------------------------------- leaving and votes


def seat_left(clock: ClockLike, seat: int, now: int, grace_ms: int) -> JsonObject:
    """All of ``seat``'s sockets are gone: the computer takes over at ``now + grace_ms`` unless
    the player returns (or the others vote to wait). A seat already away keeps its countdown.
    """
    clock = typed(clock)
    if str(seat) in clock.away or clock.auto[seat]:
        return clock.to_json()
    away = {**clock.away, str(seat): {"since": now, "until": now + grace_ms}}
    return replace(clock, away=away).to_json()


def seat_returned(clock: ClockLike, seat: int) -> JsonObject:
    """The seat's player is connected again: no countdown, no vote about them."""
    clock = typed(clock)
    away = {k: v for k, v in clock.away.items() if k != str(seat)}
    return replace(clock, away=away, vote=_without_vote_on(clock, seat)).to_json()


def voters(clock: ClockLike, present: set[int]) -> list[int]:
    """Seats that may vote: humans, connected, not the leaver, not handed to the computer."""
    clock = typed(clock)
    leaver = clock.vote["seat"] if clock.vote else None
    return [s for s in clock.humans if s in present and s != leaver and not clock.auto[s]]


def open_vote(clock: ClockLike, seat: int, now: int, vote_ms: int = VOTE_MS) -> JsonObject:
    """Grace ran out for ``seat``: the remaining humans vote until ``now + vote_ms``."""
    vote: Vote = {"seat": seat, "since": now, "until": now + vote_ms, "ballots": {}}
    return typed(clock).having(vote=vote).to_json()


def cast(clock: ClockLike, voter: int, choice: str) -> JsonObject:
    """Record ``voter``'s ballot (a later ballot replaces an earlier one). Raises
    ``ValueError`` for a choice not in :data:`CHOICES`, ``TypeError`` without an open vote.
    """
    if choice not in CHOICES:
        raise ValueError(choice)
    clock = typed(clock)
    vote = _open_vote(clock)
    ballots = {**vote.get("ballots", {}), str(voter): choice}
    return replace(clock, vote={**vote, "ballots": ballots}).to_json()


def tally(clock: ClockLike, eligible: list[int], final: bool) -> str | None:
    """The outcome of the open vote, or None while undecided.

    A choice wins with a majority of the ``eligible`` humans' votes. When everyone eligible has
    voted (or ``final``: time is up) the most-voted choice wins; a tie goes to the host's choice
    if the host voted for one of the tied choices, else to :data:`DEFAULT_CHOICE` when it is among
    them, else the first tied choice in :data:`CHOICES` order. Nobody voted: the default.
    """
    clock = typed(clock)
    vote = _open_vote(clock)
    ballots = {int(k): v for k, v in vote.get("ballots", {}).items() if int(k) in eligible}
    counts = {c: sum(1 for v in ballots.values() if v == c) for c in CHOICES}
    for c in CHOICES:
        if counts[c] * 2 > len(eligible):
            return c
    if not final and len(ballots) < len(eligible):
        return None
    if not ballots:
        return DEFAULT_CHOICE
    best = max(counts.values())
    tied = [c for c in CHOICES if counts[c] == best]
    if len(tied) == 1:
        return tied[0]
    host = clock.host
    if host is not None and ballots.get(host) in tied:
        return str(ballots[host])
    return DEFAULT_CHOICE if DEFAULT_CHOICE in tied else tied[0]


def settle(clock: ClockLike, outcome: str, now: int, grace_ms: int) -> JsonObject:
    """Apply a vote's outcome: ``wait`` restarts the leaver's countdown, ``computer`` hands the
    seat over, ``end`` marks the match ended early (the service runs the final scoring).
    """
    clock = typed(clock)
    seat = _open_vote(clock)["seat"]
    if outcome == "wait":
        since = clock.away.get(str(seat), {}).get("since", now)
        away = {**clock.away, str(seat): {"since": since, "until": now + grace_ms}}
        return replace(clock, vote=None, away=away).to_json()
    if outcome == "computer":
        auto = list(clock.auto)
        auto[seat] = True
        away = {k: v for k, v in clock.away.items() if k != str(seat)}
        return replace(clock, vote=None, away=away, auto=tuple(auto)).to_json()
    return clock.having(vote=None, ended_early=True).to_json()


# ---------------------------------------------------------------------- live ↔ correspondence


def propose_switch(clock: ClockLike, by: int, now: int) -> JsonObject:
    """``by`` proposes switching live → correspondence (or back); ``by`` accepts it already."""
    clock = typed(clock)
    to = "live" if clock.live_control is not None else "correspondence"
    proposal: Proposal = {"to": to, "by": by, "accepted": [by], "until": now + PROPOSAL_MS}
    return clock.having(proposal=proposal).to_json()


def accept_switch(clock: ClockLike, seat: int) -> JsonObject:
    """``seat`` accepts the open proposal."""
    clock = typed(clock)
    proposal = _open_proposal(clock)
    if seat in proposal["accepted"]:
        return clock.to_json()
    accepted = sorted([*proposal["accepted"], seat])
    return replace(clock, proposal={**proposal, "accepted": accepted}).to_json()


def switch_agreed(clock: ClockLike) -> bool:
    """True when every seated human not handed to the computer accepted the open proposal."""
    clock = typed(clock)
    if not clock.proposal:
        return False
    needed = {s for s in clock.humans if not clock.auto[s]}
    return needed <= set(clock.proposal["accepted"])


def switch(clock: ClockLike, now: int) -> JsonObject:
    """Carry out the agreed proposal: to correspondence (:data:`SWITCH_DAYS` days per move, the
    live control kept for the way back) or back to the live control. The running seat starts a
    fresh turn (Fischer: its bank is as it was, charged up to ``now``).
    """
    clock = typed(clock)
    proposal = _open_proposal(clock)
    left = list(clock.remaining)
    run = clock.running
    if run is not None:
        left[run.seat] = max(0, left[run.seat] - max(0, now - run.since))
    if proposal["to"] == "correspondence":
        new = TimeControl(kind="correspondence", days=SWITCH_DAYS)
        out = clock.having(live_control=clock.control, live_remaining=tuple(left))
        left = [new.turn_ms] * len(left)
    else:
        new = clock.live_control or TimeControl()
        banks = clock.live_remaining
        out = clock.without("live_remaining").having(live_control=None)
        if new.kind == "fischer" and banks is not None:
            left = list(banks)
        else:
            left = [new.turn_ms] * len(left)
    running = None if run is None or not new.timed else Running(run.seat, now, run.active)
    return out.having(proposal=None, control=new, remaining=tuple(left), running=running).to_json()
