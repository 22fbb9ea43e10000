"""What a committed move writes to its match row, in the same statement or transaction as
its log row: version, whose turn, scores, the clock after the move, when the sweep should
next look at the match (``next_bot_at``) and, every ``snapshot_every`` moves and at the end,
a snapshot of the position.

Pure apart from the settings it reads: it writes nothing itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.engine import DEPLOY, PLAGUE
from app.services.cache import Live
from app.services.clock import clocks
from app.services.match.committed import Committed
from app.services.runtime import Runtime


def next_bot_at(rt: Runtime, live: Live, move: Committed) -> datetime | None:
    """When the sweep should look at the match after ``move``: soon (``bot_delay``) for a bot
    seat, a seat the computer plays or a bot's own follower deployment, after
    ``plague_timeout`` for a person's Plague decision, after ``abandon_after`` for a person's
    turn; None once the match is over.
    """
    state = live.state
    if state.is_over:
        return None
    seat = live.seats[state.seat]
    by_bot = move.actor == "bot"
    if (
        seat.get("bot")
        or clocks.is_auto(live.clock, state.seat)
        or (by_bot and state.seat == move.seat and state.phase == DEPLOY)
    ):
        return move.at + timedelta(seconds=rt.settings.bot_delay)
    if state.phase == PLAGUE:  # a person's Plague decision: a bot chooses after the timeout
        return move.at + timedelta(seconds=rt.settings.plague_timeout)
    return move.at + timedelta(seconds=rt.settings.abandon_after)


def row_values(rt: Runtime, live: Live, move: Committed, active_before: int) -> dict[str, Any]:
    """The match-row columns ``move`` sets (their names in :data:`app.db.hot.UPDATABLE`).

    The match clock (:func:`app.services.clock.clocks.after_action`; ``active_before``: the
    turn's holder before the move) is written with every move and set on ``live``; its next
    due time folds into ``next_bot_at``.
    """
    state = live.state
    clock, parsed, clock_due = clocks.after_action(
        live, move.seat, active_before, move.by, move.timed_out
    )
    values: dict[str, Any] = {
        "version": move.version,
        "seat_to_act": None if state.is_over else state.seat,
        "turn": state.turn,
        "scores": list(state.scores),
        "updated_at": move.at,
        "next_bot_at": clocks.earliest(next_bot_at(rt, live, move), clock_due)
        if not state.is_over
        else None,
    }
    if clock is not None and parsed is not None:
        values["clock"] = clock
        clocks.set_clock(live, clock, parsed)
    if state.is_over:
        values.update(
            status="finished",
            finished_at=move.at,
            snapshot=state.to_json(),
            snapshot_version=move.version,
        )
    elif move.version % rt.settings.snapshot_every == 0:
        values.update(snapshot=state.to_json(), snapshot_version=move.version)
    return values
