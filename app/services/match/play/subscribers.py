"""Who hears of a committed move, subscribed to ``rt.move_committed`` at startup.

:func:`app.services.match.play.play.after_commit` announces each move; the subscribers, in order:

1. delivery — the batch frame to this instance's sockets and, through the broker, to the
   other instances' (:func:`app.services.match.delivery.delivery.on_move_committed`);
2. the records — a finished match's history and ratings settle
   (:func:`app.services.records.history.match_finished`, in the background);
3. the bots — the next computer turn is scheduled
   (:func:`app.services.match.play.bot_turns.on_move_committed`);
4. turn alerts — a person whose turn it now is in a correspondence or per-turn match, with no
   socket on it, hears on their devices (:func:`app.services.community.push.alert_turn`, in
   the background);
5. the analysis — a rated match that just ended is queued for the Strong computer player's
   analysis (:func:`app.services.match.insight.analyses.analyse_if_rated`, in the background;
   setting ``ANALYSE_RATED``).

The clock is not a subscriber: its new state is part of the move's own statement
(:mod:`app.services.match.play.row`), so it commits or fails with the move.
"""

from __future__ import annotations

from app.services.cache import Live
from app.services.community import push
from app.services.match.committed import Committed
from app.services.match.delivery import delivery
from app.services.match.insight import analyses
from app.services.match.play import bot_turns
from app.services.records import history
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime


def settle_finished(rt: Runtime, live: Live, move: Committed) -> None:
    """Subscriber: once the move ended the match, settle its history and ratings."""
    if live.state.is_over:
        rt.spawn(history.match_finished(rt, move.match_id))


def analyse_rated(rt: Runtime, live: Live, move: Committed) -> None:
    """Subscriber: once the move ended a rated match, queue its analysis."""
    if live.state.is_over and rt.settings.analyse_rated:
        rt.spawn(analyses.analyse_if_rated(rt, move.match_id))


def alert_turn(rt: Runtime, live: Live, move: Committed) -> None:
    """Subscriber: a person's turn now in a correspondence or per-turn match: alert them."""
    due = push.turn_alert_due(live, move.seat)
    if due is not None:
        host = match_host_name(live.seats, live.clock)
        rt.spawn(push.alert_turn(rt, live, *due, host))


def subscribe(rt: Runtime) -> None:
    """Subscribe delivery, the records, the bots, turn alerts and the analysis to
    ``rt.move_committed`` (at startup, once per runtime; subscribing again changes nothing).
    """
    rt.move_committed.subscribe(delivery.on_move_committed)
    rt.move_committed.subscribe(settle_finished)
    rt.move_committed.subscribe(bot_turns.on_move_committed)
    rt.move_committed.subscribe(alert_turn)
    rt.move_committed.subscribe(analyse_rated)
