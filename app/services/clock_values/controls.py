"""Time controls and time-out policies: what the host chooses per table, as frozen values
with their JSON form (``lobbies.options`` and ``matches.clock`` store it) — pure.

Time controls (:class:`TimeControl`): ``untimed``; ``per_turn`` (``seconds`` per turn, unused
time lost); ``fischer`` (a ``bank`` per seat plus ``increment`` seconds per finished turn);
``correspondence`` (``days`` per move). Time-out policies (:class:`TimeoutPolicy`):
``computer``, ``skip``, ``handover`` (``after`` N); see :mod:`app.services.clock.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.json_types import JsonObject

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
    def from_json(cls, data: object) -> TimeControl:
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

    def to_json(self) -> JsonObject:
        """The JSON form: ``kind`` plus the fields of that kind."""
        out: JsonObject = {"kind": self.kind}
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
    def from_json(cls, data: object) -> TimeoutPolicy:
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

    def to_json(self) -> JsonObject:
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


def _duration(seconds: int) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds // 60} min"
    if seconds > 60:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds} s"
