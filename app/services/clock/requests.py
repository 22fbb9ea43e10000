"""Clock requests: the vote on a leaver, taking a seat back from the computer, the live ↔
correspondence proposal, and a seat's sockets leaving or coming back (its leave countdown).

Each one locks the match row (``write_tx`` + ``lock_match``), changes the clock with the pure
rules of :mod:`app.services.clock.votes`, writes it with its new due time and announces it to
every socket of the match (:func:`app.services.clock.clocks.announce`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from app.db.hot import MatchRow, write_tx
from app.db.txs import MatchChanges
from app.json_types import JsonObject
from app.services.clock import rules as c
from app.services.clock import votes as v
from app.services.clock.clocks import announce, clock_frame, from_ms, now_ms, public
from app.services.errors import Conflict, NotFound, NotSeated, ServiceError, ValidationFailed
from app.services.runtime import Runtime


class NoVote(ServiceError):
    """There is no leave vote open in this match."""

    code, status = "no_vote_open", 409


class NotAVoter(ServiceError):
    """The sender may not vote: they are the one who left, or their seat is the computer's."""

    code, status = "not_a_voter", 403


class NoProposal(ServiceError):
    """There is no live ↔ correspondence proposal open to accept."""

    code, status = "no_proposal_open", 409


#: A change of a match's stored clock: ``(clock, locked row) → new clock`` (JSON both ways).
Change = Callable[[JsonObject, MatchRow], JsonObject]


async def change_clock(rt: Runtime, match_id: str, change: Change) -> JsonObject | None:
    """Lock the match, apply ``change(clock, row)`` and write the result (with the new due
    time), then announce it. ``change`` raises a :class:`ServiceError` to refuse (nothing
    changes). Returns the public clock.
    """
    async with write_tx(rt.storage.db) as tx:
        row = await tx.lock_match(match_id)
        if row is None:
            raise NotFound("no such match")
        if row.clock is None:
            raise Conflict("this match has no clock", reason="no_clock")
        if row.status != "live":
            raise Conflict("the match is over", reason="match_over")
        new = change(row.clock, row)
        if new == row.clock:
            return public(new)
        fresh = c.typed(new)
        due = c.next_due(fresh)
        values: MatchChanges = {"clock": new}
        if fresh.ended_early or fresh.auto != c.typed(row.clock).auto:
            # The sweep ends it (final scoring), or the computer may have a turn to play now.
            values["next_bot_at"] = datetime.now(UTC)
        elif due is not None:
            values["next_bot_at"] = min(
                from_ms(due), datetime.now(UTC) + timedelta(seconds=rt.settings.abandon_after)
            )
        await tx.update_match(match_id, values)
        version = row.version
    announce(rt, match_id, clock_frame(new, version))
    return public(new)


def _seat_of(row: MatchRow, player_id: str | None) -> int:
    seat = next(
        (
            int(s["seat"])
            for s in row.seats
            if player_id is not None and s.get("player") == player_id
        ),
        None,
    )
    if seat is None:
        raise NotSeated("you hold no seat in this match")
    return seat


async def vote(
    rt: Runtime,
    match_id: str,
    player_id: str | None,
    choice: str,
) -> JsonObject | None:
    """A remaining player's ballot on what to do about a leaver: ``wait``, ``computer`` or
    ``end``. A majority of the humans decides at once; otherwise the vote runs out.

    Raises :class:`ValidationFailed` (choice), :class:`NotFound`, :class:`NotSeated`
    (spectator, or not in this match), :class:`NoVote`, :class:`NotAVoter`.
    """
    if choice not in v.CHOICES:
        raise ValidationFailed(f"choice must be one of {', '.join(v.CHOICES)}")

    def change(stored: JsonObject, row: MatchRow) -> JsonObject:
        seat = _seat_of(row, player_id)
        clock = c.typed(stored)
        if not clock.vote:
            raise NoVote("no vote is open")
        leaver = clock.vote["seat"]
        if seat == leaver or seat not in clock.humans or clock.auto[seat]:
            raise NotAVoter("you cannot vote on this")
        new = c.typed(v.cast(clock, seat, choice))
        eligible = [s for s in new.humans if s != leaver and not new.auto[s]]
        decided = v.tally(new, eligible, final=False)
        if decided is not None:
            return v.settle(new, decided, now_ms(), int(rt.settings.leave_grace * 1000))
        return new.to_json()

    return await change_clock(rt, match_id, change)


async def take_back(rt: Runtime, match_id: str, player_id: str | None) -> JsonObject | None:
    """The seat's player takes it back from the computer. Raises :class:`NotSeated`,
    :class:`NotFound`, :class:`Conflict` (the seat is not the computer's, or the ``handover``
    time-out policy gave it to the computer for good).
    """

    def change(stored: JsonObject, row: MatchRow) -> JsonObject:
        seat = _seat_of(row, player_id)
        clock = c.typed(stored)
        if not clock.auto[seat] and str(seat) not in clock.away:
            raise Conflict("your seat is yours already", reason="seat_yours_already")
        if clock.auto[seat] and c.is_handed_over_for_good(clock, seat):
            raise Conflict(
                "the computer holds this seat for good (the table's time-out policy)",
                reason="seat_handed_over",
            )
        return v.take_back(clock, seat, now_ms())

    return await change_clock(rt, match_id, change)


async def propose(
    rt: Runtime, match_id: str, player_id: str | None, accept: bool
) -> JsonObject | None:
    """Propose switching live ↔ correspondence (``accept`` False), or accept the open proposal
    (``accept`` True). When every seated human accepted, the switch happens at once.

    Raises :class:`NotSeated`, :class:`NotFound`, :class:`NoProposal` (accepting none),
    :class:`Conflict` (an untimed match: nothing to switch; a match played by correspondence
    from the start: no live clock to switch back to).
    """

    def change(stored: JsonObject, row: MatchRow) -> JsonObject:
        seat = _seat_of(row, player_id)
        clock = c.typed(stored)
        if seat not in clock.humans:
            raise NotAVoter("the computer holds this seat")
        if accept:
            if not clock.proposal:
                raise NoProposal("no proposal is open")
            new = v.accept_switch(clock, seat)
        else:
            control = clock.control
            if not control.timed:
                raise Conflict("an untimed match has no clock to switch", reason="untimed")
            if control.kind == "correspondence" and clock.live_control is None:
                raise Conflict(
                    "this match is played by correspondence from the start",
                    reason="correspondence_from_start",
                )
            new = v.propose_switch(clock, seat, now_ms())
        return v.switch(new, now_ms()) if v.switch_agreed(new) else new

    return await change_clock(rt, match_id, change)


async def seat_presence_changed(rt: Runtime, match_id: str, seat: int, present: bool) -> None:
    """A seat's last socket went away (``present`` False) or a socket of it came back: start or
    stop its leave countdown (nothing for a finished match or one without a clock).
    """

    def change(clock: JsonObject, row: MatchRow) -> JsonObject:
        if seat not in c.typed(clock).humans:
            return clock
        if present:
            return v.seat_returned(clock, seat)
        return v.seat_left(clock, seat, now_ms(), int(rt.settings.leave_grace * 1000))

    with contextlib.suppress(Conflict, NotFound):
        await change_clock(rt, match_id, change)
