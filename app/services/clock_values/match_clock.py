"""The running clock of a match as a typed, frozen value (:class:`MatchClock`), with the exact
JSON it is stored as (``matches.clock``) — pure: no I/O, no clock of its own.

``MatchClock.from_json(data).to_json() == data`` for every stored clock, old ones included:
a key an older clock lacks (``policy``, ``turn_active``, ``turn_since``, ``deciding``) stays
absent until a rule sets it (``live_remaining`` exists only while a match plays by
correspondence), and keys this module does not know ride along in ``extra``. The JSON shape
is documented in :mod:`app.services.clock.rules`; times and durations are milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NotRequired, TypedDict, Unpack, cast

from app.json_types import JsonObject, JsonValue, json_copy
from app.services.clock_values.controls import TimeControl, TimeoutPolicy

#: The keys every stored clock has.
REQUIRED_KEYS = frozenset({"control", "remaining", "timeouts", "auto", "away"})
#: The keys a clock may lack (``policy``, ``turn_active``, ``turn_since``, ``deciding`` came
#: later; the others are written by every clock but read leniently).
OPTIONAL_KEYS = frozenset(
    {
        "policy", "live_control", "running", "host", "humans", "vote", "proposal",
        "ended_early", "turn_active", "turn_since", "deciding", "live_remaining",
    }
)  # fmt: skip


class Vote(TypedDict):
    """A leave vote about ``seat``, open from ``since`` until ``until`` (ms); ``ballots``: the
    choice (:data:`app.services.clock.votes.CHOICES`) by voter seat (as text). A vote built
    only to ask who may vote about a seat has just ``seat``.
    """

    seat: int
    since: NotRequired[int]
    until: NotRequired[int]
    ballots: NotRequired[dict[str, str]]


class Proposal(TypedDict):
    """A proposal by seat ``by`` to switch ``to`` ``live`` or ``correspondence``, open
    ``until`` (ms); ``accepted``: the seats that accepted it, sorted.
    """

    to: str
    by: int
    accepted: list[int]
    until: int


@dataclass(frozen=True)
class Running:
    """The seat being charged since ``since`` (ms); ``active``: the seat holding the turn."""

    seat: int
    since: int
    active: int

    def to_json(self) -> JsonObject:
        """``{"seat", "since", "active"}``."""
        return {"seat": self.seat, "since": self.since, "active": self.active}


@dataclass(frozen=True)
class Deciding:
    """A seat making an off-turn decision (the Plague) since ``since`` (ms)."""

    seat: int
    since: int

    def to_json(self) -> JsonObject:
        """``{"seat", "since"}``."""
        return {"seat": self.seat, "since": self.since}


class ClockFields(TypedDict, total=False):
    """The fields of :class:`MatchClock` a copy may change (:meth:`MatchClock.having`)."""

    control: TimeControl
    live_control: TimeControl | None
    remaining: tuple[int, ...]
    running: Running | None
    timeouts: tuple[int, ...]
    auto: tuple[bool, ...]
    policy: TimeoutPolicy
    host: int | None
    humans: tuple[int, ...]
    away: Mapping[str, Mapping[str, int]]
    vote: Vote | None
    proposal: Proposal | None
    ended_early: bool
    turn_active: int | None
    turn_since: int | None
    deciding: Deciding | None
    live_remaining: tuple[int, ...] | None


@dataclass(frozen=True)
class MatchClock:
    """The clock of one match. ``remaining``, ``timeouts`` and ``auto`` are per seat;
    ``away``, ``vote`` and ``proposal`` (leaving and the votes, changed by
    :mod:`app.services.clock.votes`) keep their JSON form.
    """

    control: TimeControl
    live_control: TimeControl | None
    remaining: tuple[int, ...]
    running: Running | None
    timeouts: tuple[int, ...]
    auto: tuple[bool, ...]
    policy: TimeoutPolicy
    host: int | None
    humans: tuple[int, ...]
    away: Mapping[str, Mapping[str, int]]
    vote: Vote | None
    proposal: Proposal | None
    ended_early: bool
    turn_active: int | None
    turn_since: int | None
    deciding: Deciding | None
    #: The live control's banks, kept while a match plays by correspondence (else absent).
    live_remaining: tuple[int, ...] | None = None
    #: Keys of :data:`OPTIONAL_KEYS` the stored clock lacks (written back without them).
    missing: frozenset[str] = field(default=frozenset({"live_remaining"}), compare=False)
    #: Keys this module does not know, kept as they are.
    extra: Mapping[str, JsonValue] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchClock:
        """Parse a stored clock dict. Raises ``KeyError`` for a clock without a required key
        (``control``, ``remaining``, ``timeouts``, ``auto``, ``away``) and
        :class:`~app.services.clock_values.controls.InvalidTimeControl` for an unknown control.

        ``data`` is the stored JSON (``Mapping[str, Any]``: a clock column as SQLAlchemy gives
        it, or a :data:`~app.json_types.JsonObject`); every field is converted on the way in.
        """
        run = data.get("running")
        deciding = data.get("deciding")
        live = data.get("live_control")
        known = REQUIRED_KEYS | OPTIONAL_KEYS
        return cls(
            control=TimeControl.from_json(data["control"]),
            live_control=None if live is None else TimeControl.from_json(live),
            remaining=tuple(int(v) for v in data["remaining"]),
            running=None
            if run is None
            else Running(int(run["seat"]), int(run["since"]), int(run["active"])),
            timeouts=tuple(int(v) for v in data["timeouts"]),
            auto=tuple(bool(v) for v in data["auto"]),
            policy=TimeoutPolicy.from_json(data.get("policy")),
            host=data.get("host"),
            humans=tuple(data.get("humans", ())),
            away={k: dict(v) for k, v in data["away"].items()},
            vote=data.get("vote"),
            proposal=data.get("proposal"),
            ended_early=bool(data.get("ended_early", False)),
            turn_active=data.get("turn_active"),
            turn_since=data.get("turn_since"),
            deciding=None
            if deciding is None
            else Deciding(int(deciding["seat"]), int(deciding["since"])),
            live_remaining=None
            if data.get("live_remaining") is None
            else tuple(int(v) for v in data["live_remaining"]),
            missing=frozenset(k for k in OPTIONAL_KEYS if k not in data),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_json(self) -> JsonObject:
        """The stored dict (fresh lists and dicts: the caller may change it)."""
        out: JsonObject = {
            "control": self.control.to_json(),
            "policy": self.policy.to_json(),
            "live_control": None if self.live_control is None else self.live_control.to_json(),
            "remaining": [v for v in self.remaining],
            "running": None if self.running is None else self.running.to_json(),
            "timeouts": [v for v in self.timeouts],
            "auto": [v for v in self.auto],
            "host": self.host,
            "humans": [v for v in self.humans],
            "away": {k: {a: b for a, b in v.items()} for k, v in self.away.items()},
            "vote": json_copy(cast(JsonValue, self.vote)),
            "proposal": json_copy(cast(JsonValue, self.proposal)),
            "ended_early": self.ended_early,
            "turn_active": self.turn_active,
            "turn_since": self.turn_since,
            "deciding": None if self.deciding is None else self.deciding.to_json(),
            "live_remaining": None
            if self.live_remaining is None
            else [v for v in self.live_remaining],
        }
        for key in self.missing:
            del out[key]
        out.update({k: json_copy(v) for k, v in self.extra.items()})
        return out

    def having(self, **changes: Unpack[ClockFields]) -> MatchClock:
        """A copy with ``changes`` (field names), the optional keys among them now present."""
        return replace(self, missing=self.missing - set(changes), **changes)

    def without(self, *keys: str) -> MatchClock:
        """A copy whose JSON lacks the optional ``keys`` (their fields back to None)."""
        assert set(keys) <= OPTIONAL_KEYS
        cleared: dict[str, Any] = dict.fromkeys(keys)  # None for fields that allow it
        return replace(self, missing=self.missing | set(keys), **cleared)
