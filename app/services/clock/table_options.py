"""A table's time options as the lobby keeps them: the time control and the time-out policy
parsed from a request, stored together in the lobby's ``time_control`` column (the policy
under :data:`POLICY_KEY`), and shown in the Lobby JSON with what happens at zero. The table's
aid policy (:class:`app.engine.aids.AidPolicy`) rides in the same column under
:data:`AIDS_KEY` (and, once dealt, in the match's clock under the same key).

Pure apart from raising the service's :class:`ValidationFailed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from app.engine import InvalidOptions
from app.engine.aids import AidPolicy
from app.json_types import JsonObject, JsonValue
from app.services.clock import rules as c
from app.services.clock_values.match_clock import MatchClock
from app.services.errors import ValidationFailed


def parse_time_control(data: object) -> JsonObject:
    """A lobby's time control from a request (None: untimed), as stored JSON.

    Raises :class:`ValidationFailed` whose message starts with the offending field
    (``time_control.seconds must be one of 10, 15, …``).
    """
    try:
        return c.TimeControl.from_json(data).to_json()
    except c.InvalidTimeControl as exc:
        raise ValidationFailed(exc.message) from None


def parse_timeout_policy(data: object) -> JsonObject:
    """A lobby's time-out policy from a request (None: ``computer``), as stored JSON.

    Raises :class:`ValidationFailed` whose message starts with the offending field
    (``timeout_policy.kind must be one of computer, skip, handover``).
    """
    try:
        return c.TimeoutPolicy.from_json(data).to_json()
    except c.InvalidTimeControl as exc:
        raise ValidationFailed(exc.message) from None


#: The key under which a lobby's ``time_control`` column keeps the table's time-out policy.
POLICY_KEY = "timeout_policy"
#: The key under which a lobby's ``time_control`` column (and a match's ``clock``) keeps the
#: table's aid policy (``AidPolicy`` JSON).
AIDS_KEY = "aids"


def parse_aids(data: object) -> JsonObject:
    """A table's aid policy from a request, as stored JSON. Raises :class:`ValidationFailed`
    whose message starts with the field (``aids.mode must be one of off, learning, custom``).
    """
    try:
        return AidPolicy.from_json(data).to_json()
    except InvalidOptions as exc:
        raise ValidationFailed(exc.message, reason="aids_invalid") from None


def aids_of(stored: Mapping[str, JsonValue] | None, rated: bool) -> AidPolicy:
    """The aid policy kept in a lobby's ``time_control`` column or a match's ``clock`` (the
    stored JSON objects, under :data:`AIDS_KEY`); none kept: ``off`` for a rated table (and
    every match from before policies, ``rated`` True), else the casual default (legal
    placements highlighted). An invalid policy reads as ``off``.
    """
    return aid_policy((stored or {}).get(AIDS_KEY), rated)


def aid_policy(raw: JsonValue, rated: bool) -> AidPolicy:
    """A table's aid policy from its stored JSON ``raw`` (None: ``off`` for a rated table,
    else the casual default; an invalid policy reads as ``off``).
    """
    if raw is None:
        return AidPolicy.off() if rated else AidPolicy.casual()
    try:
        return AidPolicy.from_json(raw)
    except InvalidOptions:
        return AidPolicy.off()


def match_aids(clock: MatchClock | None, rated: bool) -> AidPolicy:
    """:func:`aids_of` a match's typed clock (the policy rides among its keys the clock itself
    does not know, :attr:`MatchClock.extra`; None: a match without a clock).
    """
    return aids_of(None if clock is None else clock.extra, rated)


def with_aids(stored: JsonObject | None, aids: JsonObject) -> JsonObject:
    """The lobby column's value with the aid policy ``aids`` (stored JSON) set."""
    return {**(stored or {"kind": "untimed"}), AIDS_KEY: aids}


def split_stored(stored: JsonObject | None) -> tuple[JsonObject | None, JsonObject | None]:
    """A lobby's stored ``time_control`` column → ``(time control JSON, policy JSON)``.

    The column holds the time control with the time-out policy under :data:`POLICY_KEY` (no
    schema change: rows from before policies have none, which reads as ``computer``).
    """
    if not stored:
        return stored, None
    control = {k: v for k, v in stored.items() if k not in (POLICY_KEY, AIDS_KEY)}
    policy = stored.get(POLICY_KEY)
    return control, policy if isinstance(policy, dict) else None


def unpack(
    stored: JsonObject | None,
) -> tuple[JsonObject | None, JsonObject | None, JsonObject | None]:
    """A stored ``time_control`` column (a lobby's or a tournament's) → ``(time control,
    time-out policy, aid policy)`` JSON, each None when absent (None or an empty column:
    all three None). The inverse of :func:`stored` for every value it writes.
    """
    if not stored:
        return None, None, None
    control, policy = split_stored(stored)
    aids = stored.get(AIDS_KEY)
    return control, policy, aids if isinstance(aids, dict) else None


def stored(
    time_control: JsonObject | None,
    policy: JsonObject | None,
    aids: JsonObject | None = None,
) -> JsonObject:
    """The lobby column's value for a parsed time control, time-out policy and aid policy."""
    out = dict(time_control or {"kind": "untimed"})
    if policy is not None:
        out[POLICY_KEY] = policy
    if aids is not None:
        out[AIDS_KEY] = aids
    return out


class TimeFields(TypedDict):
    """A table's time options as Lobby JSON shows them (:func:`lobby_fields`)."""

    time_control: JsonObject
    time_label: str
    timeout_policy: JsonObject
    at_zero: str


def lobby_fields(time_control: JsonObject | None) -> TimeFields:
    """``{"time_control", "time_label", "timeout_policy", "at_zero"}`` for Lobby JSON
    (``time_control``: the stored column, see :func:`split_stored`; what happens at zero is
    shown before the match starts).
    """
    return time_fields(*split_stored(time_control))


def time_fields(control: JsonObject | None, policy_json: JsonObject | None) -> TimeFields:
    """:func:`lobby_fields` of a time control and a time-out policy kept apart (None: untimed,
    ``computer``).
    """
    tc = c.TimeControl.from_json(control)
    policy = c.TimeoutPolicy.from_json(policy_json)
    return {
        "time_control": tc.to_json(),
        "time_label": tc.label(),
        "timeout_policy": policy.to_json(),
        "at_zero": at_zero(tc, policy),
    }


def at_zero(tc: c.TimeControl, policy: c.TimeoutPolicy | None = None) -> str:
    """The sentence shown before a match: what happens when a clock reaches zero."""
    if not tc.timed:
        return (
            "No clock. If a player leaves, the others choose: wait, hand the seat to the "
            "computer, or end the match."
        )
    policy = policy or c.TimeoutPolicy()
    if policy.kind == "skip":
        return (
            "At zero the turn is skipped: the drawn tile is placed for the player without a "
            "follower."
        )
    if policy.kind == "handover":
        return (
            f"At zero the computer plays that turn; after {policy.after} time-out"
            f"{'s' if policy.after != 1 else ''} it takes the seat for the rest of the match."
        )
    return (
        f"At zero the computer plays that turn; after {c.HANDOVER_AFTER} time-outs in a row "
        "it takes the seat until its player takes it back."
    )
