"""What a committed move writes to its match row, in the same statement or transaction as
its log row: version, whose turn, scores, the clock after the move, when the sweep should
next look at the match (``next_bot_at``) and, every ``snapshot_every`` moves and at the end,
a snapshot of the position.

Pure apart from the settings it reads: it writes nothing itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.db.txs import LookBy, MatchChanges
from app.engine import DEPLOY, deciding
from app.services.cache import Live
from app.services.clock import clocks
from app.services.clock_values.match_clock import MatchClock
from app.services.match.committed import Committed
from app.services.runtime import Runtime


def next_bot_at(rt: Runtime, live: Live, move: Committed) -> datetime | None:
    """When the sweep should look at the match after ``move``: soon (``bot_delay``) for a bot
    seat, a seat the computer plays or a bot's own follower deployment, after
    ``decision_timeout`` for a person's off-turn decision, after ``abandon_after`` for a person's
    turn; None once the match is over.
    """
    state = live.state
    if state.is_over:
        return None
    seat = live.seats[state.seat]
    by_bot = move.actor == "bot"
    if (
        seat.bot
        or clocks.is_auto(live.clock, state.seat)
        or (by_bot and state.seat == move.seat and state.phase == DEPLOY)
    ):
        return move.at + timedelta(seconds=rt.settings.bot_delay)
    if deciding(state):  # a person's off-turn decision: the computer chooses after the timeout
        return move.at + timedelta(seconds=rt.settings.decision_timeout)
    return move.at + timedelta(seconds=rt.settings.abandon_after)


def computer_seats(live: Live, clock: MatchClock | None) -> int:
    """Seats the computer plays, bot seats included, once it holds a person's seat (handed
    over by time-outs or a vote); 0 while it holds none. The count of ``matches.bots``, which
    the caps on computer matches read (app/services/lobby/dealing.py ``check_bot_caps``).
    """
    handed = sum(1 for i, s in enumerate(live.seats) if not s.bot and clocks.is_auto(clock, i))
    if not handed:
        return 0
    return handed + sum(1 for s in live.seats if s.bot)


def row_values(rt: Runtime, live: Live, move: Committed, active_before: int) -> MatchChanges:
    """The match-row columns ``move`` sets (their names in :data:`app.db.hot.UPDATABLE`).

    The match clock (:func:`app.services.clock.clocks.after_action`; ``active_before``: the
    turn's holder before the move) is written with every move (its JSON, ``clock``) and set on
    ``live`` (typed, ``live.clock``); its next due time folds into the next look (``look_by``,
    :class:`app.db.txs.LookBy`: a bound on ``next_bot_at``, which most moves then leave as it
    is; null once the match is over).
    """
    state = live.state
    clock, clock_due = clocks.after_action(live, move.seat, active_before, move.by, move.timed_out)
    values: MatchChanges = {
        "version": move.version,
        "seat_to_act": None if state.is_over else state.seat,
        "turn": state.turn,
        "scores": list(state.scores),
        "updated_at": move.at,
    }
    due = None if state.is_over else clocks.earliest(next_bot_at(rt, live, move), clock_due)
    if due is None or live.clock is None:
        # Over, or a match from before clocks: its sweep hands a turn to the computer when it
        # looks while the person is away (clocks.verdict), so it must not look early.
        values["next_bot_at"] = due
    else:  # a bound: most moves leave the indexed column as it is (a HOT update)
        values["look_by"] = LookBy.after(move.at, due)
    if clock is not None:
        values["clock"] = clock.to_json()
        live.clock = clock
        handed = computer_seats(live, clock)
        if handed:  # the computer plays people's seats now: they count against its caps
            values["bots"] = handed
    if state.is_over:
        values["status"], values["finished_at"] = "finished", move.at
    if state.is_over or move.version % rt.settings.snapshot_every == 0:
        values["snapshot"], values["snapshot_version"] = state.to_json(), move.version
    return values
