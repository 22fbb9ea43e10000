"""Leaving, the leave vote and the live ↔ correspondence switch on a match's clock dict — pure.

Like :mod:`app.services.clock.rules` (whose dict this changes: ``away``, ``vote``, ``proposal``,
``auto``, ``control``): no I/O, ``now`` in epoch milliseconds, new dicts returned, arguments
never changed. The service (:mod:`app.services.clock.clocks`: the requests and the sweep) stores
them under the match row's lock.
"""

from __future__ import annotations

import copy
from typing import Any

from app.services.clock.rules import TimeControl, policy_of

#: Milliseconds the remaining humans have to vote once a leaver's grace ran out.
VOTE_MS = 30_000
#: Milliseconds a live ↔ correspondence proposal stays open.
PROPOSAL_MS = 120_000
#: Days per move when a live match switches to correspondence by agreement.
SWITCH_DAYS = 1
#: The choices of a leave vote, and the one taken when nobody answers.
CHOICES = ("wait", "computer", "end")
DEFAULT_CHOICE = "computer"


def take_back(clock: dict[str, Any], seat: int, now: int) -> dict[str, Any]:
    """The seat's player returns and takes the seat back from the computer (time-outs counted
    in all, under the ``handover`` policy, stay counted).
    """
    out = copy.deepcopy(clock)
    out["auto"][seat] = False
    if policy_of(out).kind != "handover":
        out["timeouts"][seat] = 0
    out["away"].pop(str(seat), None)
    if out.get("vote") and out["vote"]["seat"] == seat:
        out["vote"] = None
    return out


# ---------------------------------------------------------------------- leaving and votes


def seat_left(clock: dict[str, Any], seat: int, now: int, grace_ms: int) -> dict[str, Any]:
    """All of ``seat``'s sockets are gone: the computer takes over at ``now + grace_ms`` unless
    the player returns (or the others vote to wait). A seat already away keeps its countdown.
    """
    out = copy.deepcopy(clock)
    if str(seat) not in out["away"] and not out["auto"][seat]:
        out["away"][str(seat)] = {"since": now, "until": now + grace_ms}
    return out


def seat_returned(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's player is connected again: no countdown, no vote about them."""
    out = copy.deepcopy(clock)
    out["away"].pop(str(seat), None)
    if out.get("vote") and out["vote"]["seat"] == seat:
        out["vote"] = None
    return out


def voters(clock: dict[str, Any], present: set[int]) -> list[int]:
    """Seats that may vote: humans, connected, not the leaver, not handed to the computer."""
    vote = clock.get("vote")
    leaver = vote["seat"] if vote else None
    return [s for s in clock["humans"] if s in present and s != leaver and not clock["auto"][s]]


def open_vote(clock: dict[str, Any], seat: int, now: int, vote_ms: int = VOTE_MS) -> dict[str, Any]:
    """Grace ran out for ``seat``: the remaining humans vote until ``now + vote_ms``."""
    out = copy.deepcopy(clock)
    out["vote"] = {"seat": seat, "since": now, "until": now + vote_ms, "ballots": {}}
    return out


def cast(clock: dict[str, Any], voter: int, choice: str) -> dict[str, Any]:
    """Record ``voter``'s ballot (a later ballot replaces an earlier one)."""
    if choice not in CHOICES:
        raise ValueError(choice)
    out = copy.deepcopy(clock)
    out["vote"]["ballots"][str(voter)] = choice
    return out


def tally(clock: dict[str, Any], eligible: list[int], final: bool) -> str | None:
    """The outcome of the open vote, or None while undecided.

    A choice wins with a majority of the ``eligible`` humans' votes. When everyone eligible has
    voted (or ``final``: time is up) the most-voted choice wins; a tie goes to the host's choice
    if the host voted for one of the tied choices, else to :data:`DEFAULT_CHOICE` when it is among
    them, else the first tied choice in :data:`CHOICES` order. Nobody voted: the default.
    """
    vote = clock["vote"]
    ballots = {int(k): v for k, v in vote["ballots"].items() if int(k) in eligible}
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
    host = clock.get("host")
    if host is not None and ballots.get(host) in tied:
        return str(ballots[host])
    return DEFAULT_CHOICE if DEFAULT_CHOICE in tied else tied[0]


def settle(clock: dict[str, Any], outcome: str, now: int, grace_ms: int) -> dict[str, Any]:
    """Apply a vote's outcome: ``wait`` restarts the leaver's countdown, ``computer`` hands the
    seat over, ``end`` marks the match ended early (the service runs the final scoring).
    """
    out = copy.deepcopy(clock)
    seat = out["vote"]["seat"]
    out["vote"] = None
    if outcome == "wait":
        out["away"][str(seat)] = {
            "since": out["away"].get(str(seat), {}).get("since", now),
            "until": now + grace_ms,
        }
    elif outcome == "computer":
        out["away"].pop(str(seat), None)
        out["auto"][seat] = True
    else:
        out["ended_early"] = True
    return out


# ---------------------------------------------------------------------- live ↔ correspondence


def propose_switch(clock: dict[str, Any], by: int, now: int) -> dict[str, Any]:
    """``by`` proposes switching live → correspondence (or back); ``by`` accepts it already."""
    out = copy.deepcopy(clock)
    to = "live" if out.get("live_control") is not None else "correspondence"
    out["proposal"] = {"to": to, "by": by, "accepted": [by], "until": now + PROPOSAL_MS}
    return out


def accept_switch(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat`` accepts the open proposal."""
    out = copy.deepcopy(clock)
    if seat not in out["proposal"]["accepted"]:
        out["proposal"]["accepted"] = sorted([*out["proposal"]["accepted"], seat])
    return out


def switch_agreed(clock: dict[str, Any]) -> bool:
    """True when every seated human not handed to the computer accepted the open proposal."""
    prop = clock.get("proposal")
    if not prop:
        return False
    needed = {s for s in clock["humans"] if not clock["auto"][s]}
    return needed <= set(prop["accepted"])


def switch(clock: dict[str, Any], now: int) -> dict[str, Any]:
    """Carry out the agreed proposal: to correspondence (:data:`SWITCH_DAYS` days per move, the
    live control kept for the way back) or back to the live control. The running seat starts a
    fresh turn (Fischer: its bank is as it was, charged up to ``now``).
    """
    out = copy.deepcopy(clock)
    to = out["proposal"]["to"]
    out["proposal"] = None
    run = out.get("running")
    if run is not None:
        seat = int(run["seat"])
        spent = max(0, now - int(run["since"]))
        out["remaining"][seat] = max(0, int(out["remaining"][seat]) - spent)
    if to == "correspondence":
        new = TimeControl(kind="correspondence", days=SWITCH_DAYS)
        out["live_control"] = out["control"]
        out["live_remaining"] = list(out["remaining"])
        out["remaining"] = [new.turn_ms] * len(out["remaining"])
    else:
        new = TimeControl.from_json(out["live_control"])
        banks = out.pop("live_remaining", None)
        out["live_control"] = None
        if new.kind == "fischer" and banks is not None:
            out["remaining"] = list(banks)
        else:
            out["remaining"] = [new.turn_ms] * len(out["remaining"])
    out["control"] = new.to_json()
    if run is not None and new.timed:
        out["running"] = {"seat": run["seat"], "since": now, "active": run["active"]}
    elif run is not None:
        out["running"] = None
    return out
