"""Clock arithmetic: time controls and the running clock of a match (leaving, votes and the
live ↔ correspondence switch: :mod:`app.services.clock.votes`) — pure.

No I/O and no clock of its own: every function takes ``now`` (milliseconds since the Unix
epoch, an ``int``) and returns new JSON-ready dicts, never changing its arguments. The service
(:mod:`app.services.clock.clocks`) loads and stores the dicts (``matches.clock``) under the match's
row lock; this module only decides.

Time controls (``TimeControl``), chosen by the host per lobby:

- ``untimed``: no clock. A seat that leaves still goes through the leave path below.
- ``per_turn`` (``seconds``): each turn of a seat has ``seconds``; unused time is lost.
- ``fischer`` (``bank`` seconds, ``increment`` seconds): a bank per seat, charged while the seat
  is on turn; ``increment`` is added when the seat's turn ends (also after a time-out).
- ``correspondence`` (``days``): like per turn with ``days × 86 400`` seconds.

Off-turn decisions (the Wheel of Fortune's Plague, phase ``plague``) never draw on a bank: they
have their own short limit, handled by the play path (``plague_timeout``).

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

import copy
from dataclasses import dataclass
from typing import Any

import orjson

#: Consecutive time-outs after which the computer takes the seat over for the rest of the match.
HANDOVER_AFTER = 2

DAY_MS = 86_400_000
PER_TURN_SECONDS = (10, 15, 20, 30, 45, 60, 90, 120, 180, 300)
FISCHER_BANK_SECONDS = (60, 120, 180, 300, 600, 900, 1200, 1800)
FISCHER_INCREMENT_SECONDS = (0, 2, 3, 5, 10, 15, 20, 30)
CORRESPONDENCE_DAYS = (1, 2, 3, 7)
KINDS = ("untimed", "per_turn", "fischer", "correspondence")
POLICIES = ("computer", "skip", "handover")
HANDOVER_CHOICES = (1, 2, 3, 4, 5)


def copied(clock: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a clock (JSON data: an orjson round trip is ~10x faster than deepcopy,
    which ran twice per move on the write path).
    """
    try:
        out: dict[str, Any] = orjson.loads(orjson.dumps(clock))
    except TypeError:  # not plain JSON after all (say, an int key): copy it the slow way
        return copy.deepcopy(clock)
    return out


class InvalidTimeControl(ValueError):
    """A time control that is not offered; ``field`` names the offending key
    (``time_control.kind``, ``time_control.seconds``, …).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TimeControl:
    """One time control. Units: seconds (``seconds``, ``bank``, ``increment``), days (``days``).

    Only the fields of its ``kind`` are meaningful; the others are 0.
    """

    kind: str = "untimed"
    seconds: int = 0
    bank: int = 0
    increment: int = 0
    days: int = 0

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """Parse ``{"kind": …, …}`` (None: untimed). Raises :class:`InvalidTimeControl` naming
        the field; only the listed values are offered (the lobby shows them as choices).
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidTimeControl("time_control", "time_control must be an object")
        kind = data.get("kind", "untimed")
        if kind not in KINDS:
            raise InvalidTimeControl(
                "time_control.kind", f"time_control.kind must be one of {', '.join(KINDS)}"
            )
        allowed = {
            "untimed": (),
            "per_turn": ("seconds",),
            "fischer": ("bank", "increment"),
            "correspondence": ("days",),
        }[kind]
        extra = sorted(set(data) - {"kind", *allowed})
        if extra:
            raise InvalidTimeControl(
                f"time_control.{extra[0]}", f"time_control.{extra[0]} does not apply to {kind}"
            )
        offered = {
            "seconds": PER_TURN_SECONDS,
            "bank": FISCHER_BANK_SECONDS,
            "increment": FISCHER_INCREMENT_SECONDS,
            "days": CORRESPONDENCE_DAYS,
        }
        values: dict[str, int] = {}
        for key in allowed:
            value = data.get(key)
            if key == "increment" and value is None:
                value = 0
            if isinstance(value, bool) or not isinstance(value, int) or value not in offered[key]:
                choices = ", ".join(str(v) for v in offered[key])
                raise InvalidTimeControl(
                    f"time_control.{key}", f"time_control.{key} must be one of {choices}"
                )
            values[key] = value
        return cls(kind=kind, **values)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``kind`` plus the fields of that kind."""
        out: dict[str, Any] = {"kind": self.kind}
        fields = {
            "untimed": (),
            "per_turn": ("seconds",),
            "fischer": ("bank", "increment"),
            "correspondence": ("days",),
        }[self.kind]
        for key in fields:
            out[key] = getattr(self, key)
        return out

    @property
    def timed(self) -> bool:
        """True unless untimed."""
        return self.kind != "untimed"

    @property
    def turn_ms(self) -> int:
        """A fresh turn's time for per turn / correspondence; a fresh bank for Fischer."""
        if self.kind == "per_turn":
            return self.seconds * 1000
        if self.kind == "fischer":
            return self.bank * 1000
        if self.kind == "correspondence":
            return self.days * DAY_MS
        return 0

    def label(self) -> str:
        """A short label: ``untimed``, ``1 min per turn``, ``5 min + 10 s``, ``1 day per move``."""
        if self.kind == "per_turn":
            return f"{_duration(self.seconds)} per turn"
        if self.kind == "fischer":
            return f"{_duration(self.bank)} + {_duration(self.increment)}"
        if self.kind == "correspondence":
            return f"{self.days} day{'s' if self.days != 1 else ''} per move"
        return "untimed"


@dataclass(frozen=True)
class TimeoutPolicy:
    """What happens when a seat's clock reaches zero, chosen by the host per table.

    ``kind``: ``computer`` (the computer plays the turn; :data:`HANDOVER_AFTER` time-outs in a
    row hand it the seat until its player takes it back), ``skip`` (the turn passes: the drawn
    tile goes to the first legal placement, no follower) or ``handover`` (the computer plays the
    turn; ``after`` time-outs in all, 1–5, hand it the seat for the rest of the match).
    ``after`` is 0 unless ``kind`` is ``handover``.
    """

    kind: str = "computer"
    after: int = 0

    @classmethod
    def from_json(cls, data: Any) -> TimeoutPolicy:
        """Parse ``{"kind": …, "after"?: N}`` (None: ``computer``). Raises
        :class:`InvalidTimeControl` naming the field (``timeout_policy.kind``,
        ``timeout_policy.after``).
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidTimeControl("timeout_policy", "timeout_policy must be an object")
        kind = data.get("kind", "computer")
        if kind not in POLICIES:
            raise InvalidTimeControl(
                "timeout_policy.kind",
                f"timeout_policy.kind must be one of {', '.join(POLICIES)}",
            )
        extra = sorted(set(data) - {"kind", *(("after",) if kind == "handover" else ())})
        if extra:
            raise InvalidTimeControl(
                f"timeout_policy.{extra[0]}", f"timeout_policy.{extra[0]} does not apply to {kind}"
            )
        if kind != "handover":
            return cls(kind=kind)
        after = data.get("after")
        if isinstance(after, bool) or not isinstance(after, int) or after not in HANDOVER_CHOICES:
            choices = ", ".join(str(v) for v in HANDOVER_CHOICES)
            raise InvalidTimeControl(
                "timeout_policy.after", f"timeout_policy.after must be one of {choices}"
            )
        return cls(kind=kind, after=after)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``kind`` (plus ``after`` for ``handover``)."""
        if self.kind == "handover":
            return {"kind": self.kind, "after": self.after}
        return {"kind": self.kind}

    @property
    def handover_after(self) -> int | None:
        """Time-outs after which the computer takes the seat (None: never, under ``skip``)."""
        if self.kind == "skip":
            return None
        return self.after if self.kind == "handover" else HANDOVER_AFTER


def policy_of(clock: dict[str, Any]) -> TimeoutPolicy:
    """The clock's :class:`TimeoutPolicy` (``computer`` for clocks from before policies)."""
    return TimeoutPolicy.from_json(clock.get("policy"))


def _duration(seconds: int) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds // 60} min"
    if seconds > 60:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds} s"


def control_of(clock: dict[str, Any]) -> TimeControl:
    """The clock's current :class:`TimeControl`."""
    return TimeControl.from_json(clock["control"])


# ---------------------------------------------------------------------- the running clock


def new_clock(
    control: TimeControl,
    seats: int,
    humans: list[int],
    host: int | None,
    active: int,
    now: int,
    policy: TimeoutPolicy | None = None,
) -> dict[str, Any]:
    """The clock of a match that just started with ``active`` to play (``now``: epoch ms;
    ``policy``: what happens at zero, ``computer`` when None).
    """
    clock: dict[str, Any] = {
        "control": control.to_json(),
        "policy": (policy or TimeoutPolicy()).to_json(),
        "live_control": None,
        "remaining": [control.turn_ms] * seats,
        "running": None,
        "timeouts": [0] * seats,
        "auto": [False] * seats,
        "host": host,
        "humans": sorted(humans),
        "away": {},
        "vote": None,
        "proposal": None,
        "ended_early": False,
    }
    clock["turn_active"] = active
    clock["turn_since"] = now
    clock["deciding"] = None
    if control.timed:
        clock["running"] = {"seat": active, "since": now, "active": active}
    return clock


def remaining(clock: dict[str, Any], seat: int, now: int) -> int:
    """Milliseconds ``seat`` has left at ``now`` (never below 0; 0 when untimed)."""
    left = int(clock["remaining"][seat])
    run = clock.get("running")
    if run is not None and run["seat"] == seat:
        left -= max(0, now - int(run["since"]))
    return max(0, left)


def time_left(clock: dict[str, Any], seat: int, now: int) -> int:
    """What ``seat``'s clock shows at ``now`` (ms): its bank (Fischer) or what is left of the
    turn it holds; a seat not holding the turn under per turn / correspondence shows the fresh
    turn it will get (what it left unused of its last turn is lost).
    """
    control = control_of(clock)
    holder = clock.get("turn_active")
    if control.kind in ("per_turn", "correspondence") and holder is not None and seat != holder:
        return control.turn_ms
    return remaining(clock, seat, now)


def deadline(clock: dict[str, Any]) -> int | None:
    """When the running seat's time runs out (epoch ms), or None (untimed, nothing running)."""
    run = clock.get("running")
    if run is None or not control_of(clock).timed:
        return None
    return int(run["since"]) + int(clock["remaining"][run["seat"]])


def advance(
    clock: dict[str, Any], *, now: int, seat: int, active: int, deciding: bool, over: bool
) -> dict[str, Any]:
    """The clock after an action: the match now waits for ``seat`` (``active`` holds the turn;
    ``deciding``: ``seat`` makes an off-turn decision, which never runs a bank; ``over``: the
    match ended).

    The seat that was running is charged the time since it started. When the turn passed
    (``active`` changed, or the match is over) that seat's turn is over: Fischer adds the
    increment to its bank; per turn and correspondence give the next seat a fresh turn.
    """
    out = copied(clock)
    control = control_of(out)
    run = out.get("running")
    if run is not None:
        prev = int(run["seat"])
        spent = max(0, now - int(run["since"]))
        out["remaining"][prev] = max(0, int(out["remaining"][prev]) - spent)
        if control.kind == "fischer" and (over or active != int(run["active"])):
            out["remaining"][prev] += control.increment * 1000
    turn_passed = over or active != int(out.get("turn_active", active))
    out["turn_active"] = active
    if turn_passed:
        out["turn_since"] = now
    out["deciding"] = {"seat": seat, "since": now} if deciding and not over else None
    out["running"] = None
    if over or not control.timed:
        return out
    if turn_passed and control.kind in ("per_turn", "correspondence"):
        out["remaining"][active] = control.turn_ms
    if not deciding:
        out["running"] = {"seat": seat, "since": now, "active": active}
    return out


def note_actor(
    clock: dict[str, Any], seat: int, *, by_computer: bool, timed_out: bool
) -> dict[str, Any]:
    """Count time-outs by the clock's policy: a time-out raises the seat's count; a seat's own
    move resets it, except under ``handover`` (time-outs in all). At the policy's
    :attr:`TimeoutPolicy.handover_after` the seat is handed to the computer (``auto``);
    under ``skip`` never.
    """
    out = copied(clock)
    policy = policy_of(out)
    if not by_computer:
        if policy.kind != "handover":
            out["timeouts"][seat] = 0
    elif timed_out:
        out["timeouts"][seat] += 1
        limit = policy.handover_after
        if limit is not None and out["timeouts"][seat] >= limit:
            out["auto"][seat] = True
    return out


def is_handed_over_for_good(clock: dict[str, Any], seat: int) -> bool:
    """True when ``seat`` reached its ``handover`` policy's time-outs: the computer keeps it."""
    policy = policy_of(clock)
    return policy.kind == "handover" and int(clock["timeouts"][seat]) >= policy.after


def credit(clock: dict[str, Any], gap_ms: int) -> dict[str, Any]:
    """Credit an outage of ``gap_ms`` (nobody was serving): every running deadline — the
    running seat's turn, leave grace, vote, proposal — moves ``gap_ms`` later.
    """
    out = copied(clock)
    if gap_ms <= 0:
        return out
    if out.get("running"):
        out["running"]["since"] = int(out["running"]["since"]) + gap_ms
    if out.get("deciding"):
        out["deciding"]["since"] = int(out["deciding"]["since"]) + gap_ms
    if out.get("turn_since") is not None:
        out["turn_since"] = int(out["turn_since"]) + gap_ms
    for away in out["away"].values():
        away["until"] = int(away["until"]) + gap_ms
    for key in ("vote", "proposal"):
        if out.get(key):
            out[key]["until"] = int(out[key]["until"]) + gap_ms
    return out


# ---------------------------------------------------------------------- deadlines and wire


def next_due(clock: dict[str, Any]) -> int | None:
    """The earliest moment the sweep must look at this clock: the running deadline, a leave
    countdown, a vote or a proposal running out (epoch ms), or None.
    """
    times: list[int] = []
    d = deadline(clock)
    if d is not None:
        times.append(d)
    times += [int(a["until"]) for a in clock["away"].values()]
    for key in ("vote", "proposal"):
        if clock.get(key):
            times.append(int(clock[key]["until"]))
    return min(times) if times else None


def public(clock: dict[str, Any] | None, now: int) -> dict[str, Any] | None:
    """What every client sees (docs/API.md § Clocks): the control and its label, each seat's
    remaining ms as of ``server_now`` (the running one still counting down from there), the
    running seat and its deadline, time-outs, seats handed to the computer, leave countdowns,
    the vote and the proposal. ``server_now`` lets a client with a skewed clock count down.
    """
    if clock is None:
        return None
    control = control_of(clock)
    run = clock.get("running")
    return {
        "control": clock["control"],
        "label": control.label(),
        "server_now": now,
        "remaining": [
            time_left(clock, s, now) if control.timed else None
            for s in range(len(clock["remaining"]))
        ],
        "running": None if run is None else int(run["seat"]),
        "deadline": deadline(clock),
        "timeouts": list(clock["timeouts"]),
        "auto": list(clock["auto"]),
        "away": {k: dict(v) for k, v in clock["away"].items()},
        "vote": None
        if not clock.get("vote")
        else {
            "seat": clock["vote"]["seat"],
            "until": clock["vote"]["until"],
            "ballots": dict(clock["vote"]["ballots"]),
        },
        "proposal": None if not clock.get("proposal") else dict(clock["proposal"]),
        "correspondence": control.kind == "correspondence",
        "can_switch_back": clock.get("live_control") is not None,
        "ended_early": bool(clock.get("ended_early")),
        "handover_after": policy_of(clock).handover_after,
        "policy": policy_of(clock).to_json(),
    }
